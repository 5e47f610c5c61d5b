"""A cross-reference to a caption ("As <Figure 1> shows"): Word's REF field, LibreOffice's text:sequence-ref and
text:bookmark-ref, whose result an update writes again (attnmt.documents.copied_results.numbered_span)."""

import pytest
from lxml import etree
from office_files import complex_field, odf_bytes, read_members, text_run, w, word_paragraph, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
CODE = " REF _Ref100 \\h "
AS_SHOWN = "As Figure 1 shows, the dog runs."
# A good translation, "Figure" aligned to "Abbildung" and to the verb after the number too ("zeigt,")
GOOD = ("Wie Abbildung 1 zeigt, rennt der Hund.", [(0, 0), (1, 1), (1, 3), (2, 2), (3, 3), (6, 4), (4, 5), (5, 6)])
# The demo model's: no "Figure", no number, "Figure 1" aligned to "Arzt, der wie" ("As" too: "wie")
GARBLED = ("Ein Arzt, der wie das Hund rennt.", [(0, 3), (1, 1), (1, 2), (2, 3), (4, 4), (5, 5), (6, 6)])
# The demo model's with a glossary (Figure -> Abbildung): the label's term, no number ("1" attending to "zeigt")
GLOSSED = ("Ein Abbildung zeigt das Hund, der rennt.", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 4), (3, 5), (6, 6)])


def word_reference(result: str, code: str = CODE, before: str = "As ", after: str = " shows, the dog runs.") -> bytes:
    """A Word paragraph "As <REF>result</REF> shows, the dog runs.", the field a complex one (of ``code``, with the
    words ``before`` and ``after`` it)."""
    return word_paragraph(text_run(before) + complex_field(code, result) + text_run(after))


def word_result(data: bytes) -> tuple[str, str]:
    """(the paragraph's text, the field's result) of a translated word_reference."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{w('p')}")
    texts, result, inside = [], [], False
    for node in paragraph.iter(w("fldChar"), w("t")):
        if node.tag == w("fldChar"):
            inside = node.get(w("fldCharType")) == "separate"
            continue
        texts.append(node.text)
        if inside:
            result.append(node.text)
    return "".join(texts), "".join(result)


def odt_reference(tag: str, result: str) -> bytes:
    """An .odt paragraph "As <tag>result</tag> shows, the dog runs.", the cross-reference as LibreOffice writes it."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    document.text.addElement(P(text="@"))
    members = read_members(odf_bytes(document))
    inline = (f'As <text:{tag} text:reference-format="category-and-value" text:ref-name="refFigure0">{result}'
              f'</text:{tag}> shows, the dog runs.')
    members["content.xml"] = members["content.xml"].replace(b">@<", f">{inline}<".encode())
    return write_members(members)


def odt_result(data: bytes, tag: str) -> tuple[str, str]:
    paragraph = etree.fromstring(read_members(data)["content.xml"]).find(f".//{{{TEXT}}}p")
    return "".join(paragraph.itertext()), "".join(paragraph.find(f"{{{TEXT}}}{tag}").itertext())


def translated_references(known, translation: tuple[str, list[tuple[int, int]]]) -> list[tuple[str, str]]:
    """(text, result) of the Word paragraph and of LibreOffice's two kinds of cross-reference, each translated as
    ``translation`` says."""
    found = [word_result(translate_office(word_reference("Figure 1"), ".docx", known({AS_SHOWN: translation}),
                                          DocumentOptions()))]
    for tag in ("sequence-ref", "bookmark-ref"):
        out = translate_office(odt_reference(tag, "Figure 1"), ".odt", known({AS_SHOWN: translation}),
                               DocumentOptions())
        found.append(odt_result(out, tag))
    return found


def test_a_reference_to_a_caption_goes_over_the_copy_of_its_label_and_number(known):
    """The result goes over the number's copy and its label's word right before it: rule 1 ran it over the verb
    its label attends to too, "Abbildung 1 zeigt,", which an update replaced with "Figure 1"."""
    assert translated_references(known, GOOD) == [(GOOD[0], "Abbildung 1")] * 3


def test_a_reference_to_a_caption_whose_number_the_model_dropped_takes_no_word_of_the_sentence(known):
    """The demo model knows no "Figure": "Figure 1" took "Arzt, der wie", which an update (F9) replaced, the
    sentence's words lost.  Without a copy of its number, the result is written as it came, as an update writes it."""
    for text, result in translated_references(known, GARBLED):
        assert result == "Figure 1"
        assert text.replace(" Figure 1", "", 1) == GARBLED[0]


@pytest.mark.parametrize(("translation", "text"), [
    (GLOSSED, "Ein Abbildung 1 zeigt das Hund, der rennt."),
    (("Der Hund rennt, wie Figure zeigt.", [(0, 3), (1, 4), (2, 5), (3, 5), (4, 0), (5, 1), (6, 2)]),
     "Der Hund rennt, wie Figure 1 zeigt.")])
def test_a_reference_whose_number_the_model_dropped_goes_over_its_labels_translation_with_its_number(
        known, translation, text):
    """The model wrote the label (a glossary's term, or the label copied) but not the number: the result was written
    as it came at a point beside it, "Ein Abbildung zeigt das Hund, Figure 1 der rennt.", the label there twice."""
    label = text.split(" 1 ")[0].split()[-1]
    assert translated_references(known, translation) == [(text, f"{label} 1")] * 3


@pytest.mark.parametrize(("result", "translation", "text", "written"), [
    ("Fig. 3", ("Wie Abb. zeigt, rennt der Hund.", [(0, 0), (1, 1), (3, 2), (4, 4), (5, 5), (6, 3)]),
     "Wie Abb. 3 zeigt, rennt der Hund.", "Abb. 3"),
    ("Figure\u00a01", ("Ein Abbildung zeigt das Hund.", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 4)]),
     "Ein Abbildung\u00a01 zeigt das Hund.", "Abbildung\u00a01")], ids=["abbreviated-label", "no-break-space"])
def test_a_number_given_back_after_its_label_keeps_the_labels_stop_and_its_space(known, result, translation, text,
                                                                                  written):
    """"Abb." lost its stop to the number written after it ("Abb 3."), and the no-break space between label and
    number, which went to the space after the label's translation, stood after the number ("Abbildung 1\u00a0zeigt")."""
    sentence = f"As {result} shows, the dog runs."
    out = translate_office(word_reference(result), ".docx", known({sentence: translation}), DocumentOptions())
    assert word_result(out) == (text, written)


def test_a_cross_referenced_captions_bookmark_still_holds_its_number(upper):
    """The bookmark a cross-reference shows (Word's "_Ref", LibreOffice's) holds a caption's label and number: its end
    went before the number field, and an update made every "Figure 1" that refers to it "Figure"."""
    field = complex_field(" SEQ Figure ", "1")
    word = word_paragraph('<w:bookmarkStart w:id="1" w:name="_Ref100"/>' + text_run("Figure ") + field
                          + '<w:bookmarkEnd w:id="1"/>' + text_run(": A black dog jumps."))
    paragraph = etree.fromstring(read_members(translate_office(word, ".docx", upper, DocumentOptions()))[
        "word/document.xml"]).find(f".//{w('p')}")
    inside = []
    for node in paragraph.iter(w("bookmarkEnd"), w("t")):
        if node.tag == w("bookmarkEnd"):
            break
        inside.append(node.text)
    assert "".join(inside) == "FIGURE 1"
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    document.text.addElement(P(text="@"))
    members = read_members(odf_bytes(document))
    sequence = '<text:sequence text:ref-name="refFigure0" text:name="Figure">1</text:sequence>'
    inline = (f'<text:bookmark-start text:name="__RefNumPara__1"/>Figure {sequence}'
              '<text:bookmark-end text:name="__RefNumPara__1"/>: A black dog jumps.')
    members["content.xml"] = members["content.xml"].replace(b">@<", f">{inline}<".encode())
    out = translate_office(write_members(members), ".odt", upper, DocumentOptions())
    paragraph = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TEXT}}}p")
    assert paragraph.find(f"{{{TEXT}}}sequence").getnext().tag == f"{{{TEXT}}}bookmark-end"


@pytest.mark.parametrize("result", ["Table 1. Prices of fruit", "Table 1.2. Prices of fruit", "Figure 3-1. A market",
                                    "Chapter IV. The Dogs"])
def test_a_number_inside_a_references_result_ends_no_sentence(upper, result):
    """A cross-reference to a whole caption, its label, number, separator and text: the segmenter ended a sentence at
    the number's stop ("As Table 1." and "Prices of fruit shows, the dog runs."), the result cut in two sentences."""
    word = translate_office(word_reference(result), ".docx", upper, DocumentOptions())
    assert upper.given == [f"As {result} shows, the dog runs."]
    assert word_result(word) == (f"AS {result.upper()} SHOWS, THE DOG RUNS.", result.upper())
    for tag in ("sequence-ref", "bookmark-ref"):
        upper.given.clear()
        out = translate_office(odt_reference(tag, result), ".odt", upper, DocumentOptions())
        assert upper.given == [f"As {result} shows, the dog runs."]
        assert odt_result(out, tag) == (f"AS {result.upper()} SHOWS, THE DOG RUNS.", result.upper())
