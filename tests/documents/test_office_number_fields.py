"""Word's fields whose result is a number alone (attnmt.documents.fields.is_number_result): a page reference, a
page's number, the count of pages, a heading's number.  The model reads the number in its place, and the field comes
back whole, as Word wrote it, over the translation's copy of that number.  Kept out of the text, the model read
"See page for a man." and the field went where its neighbours' words did.

The Mirror translator writes each sentence's words upper-cased in reverse order, each aligned to its source word."""

import io

import docx
import pytest
from lxml import etree
from office_files import SOFFICE, W, complex_field, libreoffice_saved, read_members, text_run, w, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

PAGE_REFERENCE = " PAGEREF _Ref100 \\h "


def translated(runs: str, translator) -> bytes:
    return translate_office(word_paragraph(runs), ".docx", translator, DocumentOptions())


def pieces(data: bytes) -> list[str]:
    """Each part of the first paragraph's runs: a field character's type, a code, a simple field's code in angle
    brackets, a run's text."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{w('p')}")
    found = []
    for node in paragraph.iter(w("fldChar"), w("instrText"), w("t"), w("fldSimple")):
        found.append(node.get(w("fldCharType")) or (f"<{node.get(w('instr'))}>" if node.tag == w("fldSimple")
                                                     else node.text))
    return found


def shown(data: bytes) -> str:
    """The first paragraph's text as python-docx reads it (a complex field's result runs among the others)."""
    return docx.Document(io.BytesIO(data)).paragraphs[0].text


def test_a_page_reference_opening_a_sentence_is_read_as_its_number(mirror):
    """The model read "shows a man." (the demo model: "{4} In einer Show zeigt ein Mann.")."""
    out = translated(complex_field(PAGE_REFERENCE, "4") + text_run(" shows a man."), mirror)
    assert mirror.given == ["4 shows a man."]
    assert pieces(out) == ["MAN. A SHOWS ", "begin", PAGE_REFERENCE, "separate", "4", "end"]


def test_a_page_reference_inside_a_sentence_is_read_in_its_place(mirror):
    """The model read "See page for a man." (the demo model: "Ein Mann, der {4} für ein Mann.")."""
    out = translated(text_run("See page ") + complex_field(PAGE_REFERENCE, "4") + text_run(" for a man."), mirror)
    assert mirror.given == ["See page 4 for a man."]
    assert pieces(out) == ["MAN. A FOR ", "begin", PAGE_REFERENCE, "separate", "4", "end", " PAGE SEE"]
    assert shown(out) == "MAN. A FOR 4 PAGE SEE"


@pytest.mark.parametrize("code", [" PAGE ", " NUMPAGES \\* Arabic ", " SECTIONPAGES "])
def test_a_page_count_or_number_field_is_read_in_its_place(mirror, code):
    """A count of pages, a page's number: "The report has pages." was what the model read."""
    out = translated(text_run("The report has ") + complex_field(code, "12") + text_run(" pages."), mirror)
    assert mirror.given == ["The report has 12 pages."]
    assert pieces(out) == ["PAGES. ", "begin", code, "separate", "12", "end", " HAS REPORT THE"]


def test_a_simple_page_field_is_read_and_written_back_whole(mirror):
    """Word's other way to write a field (w:fldSimple): read "This is page of the report." before."""
    field = '<w:fldSimple w:instr=" PAGE "><w:r><w:rPr><w:b/></w:rPr><w:t>7</w:t></w:r></w:fldSimple>'
    out = translated(text_run("This is page ") + field + text_run(" of the report."), mirror)
    assert mirror.given == ["This is page 7 of the report."]
    assert pieces(out) == ["REPORT. THE OF ", "< PAGE >", "7", " PAGE IS THIS"]
    simple = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{w('fldSimple')}")
    assert [etree.QName(node).localname for node in simple.iter()] == ["fldSimple", "r", "rPr", "b", "t"]


def test_a_number_the_translation_spells_out_is_the_fields_place(known):
    """The demo model wrote "Vier" for the page number 4: the field goes over that word, not beside it ("Vier {4}")."""
    source = "See page 4 for a man."
    out = translated(text_run("See page ") + complex_field(PAGE_REFERENCE, "4") + text_run(" for a man."),
                     known({source: ("Siehe Seite vier für einen Mann.", [(0, 0), (1, 1), (2, 2), (3, 3), (5, 5)])}))
    assert pieces(out) == ["Siehe Seite ", "begin", PAGE_REFERENCE, "separate", "4", "end", " für einen Mann."]


def test_a_number_the_translation_leaves_out_keeps_its_field(known):
    """Where the model wrote no number, the field goes at a point between its neighbours' words, whole."""
    source = "See page 4 for a man."
    out = translated(text_run("See page ") + complex_field(PAGE_REFERENCE, "4") + text_run(" for a man."),
                     known({source: ("Siehe Seite für einen Mann.", [(0, 0), (1, 1), (3, 2), (5, 4)])}))
    assert pieces(out) == ["Siehe Seite ", "begin", PAGE_REFERENCE, "separate", "4", "end", " für einen Mann."]


def test_a_count_in_running_text_is_read_in_its_place(mirror):
    """A SEQ field counts, as a caption's number does: the model read "There are" and "dogs here." as two sentences."""
    code = " SEQ Dog \\* ARABIC "
    out = translated(text_run("There are ") + complex_field(code, "3") + text_run(" dogs here."), mirror)
    assert mirror.given == ["There are 3 dogs here."]
    assert pieces(out) == ["HERE. DOGS ", "begin", code, "separate", "3", "end", " ARE THERE"]


INSERTION = '<w:ins w:id="1" w:author="Anna" w:date="2024-05-01T00:00:00Z">{}</w:ins>'


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_page_reference_alone_in_a_tracked_insertion_is_read_in_its_place(mirror, tmp_path):
    """Its words are its paragraph's, outside the insertion: read as none, the insertion was kept whole, the model read
    "See page for a man.", and LibreOffice showed "MAN. A 4 FOR PAGE SEE"."""
    inserted = INSERTION.format(complex_field(PAGE_REFERENCE, "4"))
    out = translated(text_run("See page ") + inserted + text_run(" for a man."), mirror)
    assert mirror.given == ["See page 4 for a man."]
    assert pieces(out) == ["MAN. A FOR ", "begin", PAGE_REFERENCE, "separate", "4", "end", " PAGE SEE"]
    assert libreoffice_saved(out, ".docx", "txt", tmp_path / "txt").decode("utf-8-sig").strip() == (
        "MAN. A FOR 4 PAGE SEE")


def test_a_simple_page_field_alone_in_a_tracked_insertion_is_read_in_its_place(mirror):
    """Word's other way to write the field, in the insertion: "This is page of the report." was what the model read."""
    inserted = INSERTION.format('<w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple>')
    out = translated(text_run("This is page ") + inserted + text_run(" of the report."), mirror)
    assert mirror.given == ["This is page 7 of the report."]
    assert pieces(out) == ["REPORT. THE OF ", "< PAGE >", "7", " PAGE IS THIS"]
    insertion = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{w('ins')}")
    assert [etree.QName(node).localname for node in insertion.iter()] == ["ins", "fldSimple", "r", "t"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_page_reference_inserted_an_insertion_a_run_is_read_in_its_place(mirror, tmp_path):
    """Word tracks a field it inserts as one insertion around each of its runs, all of one change: read apart, none
    held the field, the model read "See page for a man.", and LibreOffice showed "MAN. A 4 FOR PAGE SEE"."""
    runs = etree.fromstring(f'<w:p xmlns:w="{W}">{complex_field(PAGE_REFERENCE, "4")}</w:p>')
    inserted = "".join(INSERTION.replace('w:id="1"', f'w:id="{k}"').format(etree.tostring(run).decode())
                       for k, run in enumerate(runs))
    out = translated(text_run("See page ") + inserted + text_run(" for a man."), mirror)
    assert mirror.given == ["See page 4 for a man."]
    assert pieces(out) == ["MAN. A FOR ", "begin", PAGE_REFERENCE, "separate", "4", "end", " PAGE SEE"]
    assert libreoffice_saved(out, ".docx", "txt", tmp_path / "txt").decode("utf-8-sig").strip() == (
        "MAN. A FOR 4 PAGE SEE")
