"""A Word cross-reference to a caption shows what Word's field update writes once translated: the caption's translated
label and number (attnmt.documents.caption_references), and never takes a function word for its label's translation
(attnmt.documents.copied_results.label_span).  Upper upper-cases each sentence; the captions' labels are Word's own
in German (attnmt.documents.caption_labels)."""

import pytest
from lxml import etree
from office_files import (
    SOFFICE,
    complex_field,
    libreoffice_saved,
    odf_bytes,
    read_members,
    text_run,
    w,
    word_paragraph,
    write_members,
)

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

GERMAN = DocumentOptions(target_lang="de")


def caption(label: str, number: int, bookmark: str, text: str) -> str:
    """A caption as Insert Caption writes it, its label and number in the bookmark a cross-reference shows."""
    number_field = complex_field(f" SEQ {label} \\* ARABIC ", str(number))
    return (f'<w:bookmarkStart w:id="{number}" w:name="{bookmark}"/>{text_run(label + " ")}{number_field}'
            f'<w:bookmarkEnd w:id="{number}"/>{text_run(": " + text)}')


CAPTIONS = (caption("Figure", 1, "_Ref100", "A dog runs in the park."),
            caption("Table", 2, "_Ref200", "The prices of the dogs."))


def shown(data: bytes) -> list[tuple[str, list[str]]]:
    """(text, the result of each REF field in it) of each paragraph of a translated Word file."""
    found = []
    for paragraph in etree.fromstring(read_members(data)["word/document.xml"]).iter(w("p")):
        texts, results, code, state = [], [], "", ""
        for node in paragraph.iter(w("fldChar"), w("instrText"), w("t")):
            if node.tag == w("fldChar"):
                state = node.get(w("fldCharType"))
                code = "" if state == "begin" else code
                if state == "separate" and code.split()[0] == "REF":
                    results.append("")
            elif node.tag == w("instrText"):
                code += node.text
            else:
                texts.append(node.text)
                if state == "separate" and code.split()[0] == "REF":
                    results[-1] += node.text
        found.append(("".join(texts), results))
    return found


@pytest.mark.parametrize("paragraph, text, results", [
    (complex_field(" REF _Ref100 \\h ", "Figure 1") + text_run(" shows a dog in the park."),
     "Abbildung 1 SHOWS A DOG IN THE PARK.", ["Abbildung 1"]),
    (complex_field(" REF _Ref200 \\h ", "Table 2") + text_run(" lists the dogs."), "Tabelle 2 LISTS THE DOGS.",
     ["Tabelle 2"]),
    (text_run("As ") + complex_field(" REF _Ref100 \\h \\* MERGEFORMAT ", "Figure 1") + text_run(" and ")
     + complex_field(" REF _Ref200 \\h ", "Table 2") + text_run(" show, the dog runs."),
     "AS Abbildung 1 AND Tabelle 2 SHOW, THE DOG RUNS.", ["Abbildung 1", "Tabelle 2"]),
], ids=["figure-at-start", "table-at-start", "two-inside"])
def test_a_reference_to_a_caption_shows_its_translated_label_and_number(upper, paragraph, text, results):
    """The caption read "Tabelle 2" and its reference "TABLE 2", the English label, until someone updated the fields;
    the demo model wrote "Table 2 lists the dogs." as "Zwei {REF}Table 2{} schründe Hunde."."""
    out = translate_office(word_paragraph(*CAPTIONS, paragraph), ".docx", upper, GERMAN)
    assert shown(out)[2] == (text, results)


def test_a_simple_field_reference_to_a_caption_shows_its_translated_label_and_number(upper):
    paragraph = ('<w:fldSimple w:instr=" REF _Ref100 \\h ">' + text_run("Figure 1") + "</w:fldSimple>"
                 + text_run(" shows a dog."))
    out = translate_office(word_paragraph(*CAPTIONS, paragraph), ".docx", upper, GERMAN)
    assert shown(out)[2][0] == "Abbildung 1 SHOWS A DOG."


def test_only_a_reference_that_shows_a_captions_label_and_number_is_written_again(upper):
    """A case of its own (\\* Upper), a paragraph's number (\\r) or a bookmark of a heading's words: no caption's label
    and number to write, and the translation stays."""
    heading = '<w:bookmarkStart w:id="3" w:name="_Ref300"/>' + text_run("Feeding the dog") + '<w:bookmarkEnd w:id="3"/>'
    paragraph = (complex_field(" REF _Ref100 \\h ", "Figure 1") + text_run(" and ")
                 + complex_field(" REF _Ref100 \\h \\* Upper ", "FIGURE 1") + text_run(" and ")
                 + complex_field(" REF _Ref200 \\r \\h ", "2") + text_run(" show ")
                 + complex_field(" REF _Ref300 \\h ", "Feeding the dog") + text_run("."))
    out = translate_office(word_paragraph(*CAPTIONS, heading, paragraph), ".docx", upper, GERMAN)
    assert shown(out)[3][1] == ["Abbildung 1", "FIGURE 1", "2", "FEEDING THE DOG"]


def test_a_references_label_never_goes_over_a_function_word(known):
    """The demo model wrote "Figure 1 shows a dog in the park." as "Auf einem Park …", "Figure" aligned to "Auf", and
    the result went over it, "{REF}Auf 1{} einem Park": a label is no preposition.  With no caption in the file, the
    result is written as it came, at a point."""
    sentence = "Figure 1 shows a dog in the park."
    translation = ("Auf einem Park zeigt ein Hund.", [(0, 0), (4, 1), (6, 2), (2, 3), (4, 4), (3, 5)])
    paragraph = complex_field(" REF _Ref100 \\h ", "Figure 1") + text_run(" shows a dog in the park.")
    out = translate_office(word_paragraph(paragraph), ".docx", known({sentence: translation}), DocumentOptions())
    text, results = shown(out)[0]
    assert results == ["Figure 1"]
    assert text.replace("Figure 1", "").split() == translation[0].split()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_reference_to_a_caption_libreoffice_saved_as_docx_shows_its_translated_label(upper, tmp_path):
    """LibreOffice writes an .odt's text:sequence-ref as a REF field to a bookmark of its own over the caption's label
    and number (Ref_Figure0_label_and_number); reopened there, the translation shows "Abbildung 1" in both places."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    for marker in ("@", "%"):
        document.text.addElement(P(text=marker))
    members = read_members(odf_bytes(document))
    sequence = ('<text:sequence text:ref-name="refFigure0" text:name="Figure" text:formula="ooow:Figure+1">1'
                "</text:sequence>")
    reference = ('<text:sequence-ref text:reference-format="category-and-value" text:ref-name="refFigure0">Figure 1'
                 "</text:sequence-ref>")
    content = members["content.xml"].replace(b">@<", f">Figure {sequence}: A dog runs in the park.<".encode())
    members["content.xml"] = content.replace(b">%<", f">{reference} shows a dog in the park.<".encode())
    docx = libreoffice_saved(write_members(members), ".odt", "docx", tmp_path / "a")
    out = translate_office(docx, ".docx", upper, GERMAN)
    assert [text for text, _ in shown(out)] == ["Abbildung 1: A DOG RUNS IN THE PARK.",
                                                "Abbildung 1 SHOWS A DOG IN THE PARK."]
    reopened = read_members(libreoffice_saved(out, ".docx", "odt", tmp_path / "b"))["content.xml"].decode()
    assert ">Abbildung 1</text:bookmark-ref><text:s/>SHOWS A DOG IN THE PARK." in reopened
