"""A link (``w:hyperlink``) or another mark around runs whose edge cuts a complex field (attnmt.documents.field_marks):
the field's characters and code, which show nothing, are moved over the edge so that the mark holds the field whole or
none of it, and the field comes back whole, in its order, its number read amid its sentence's words; where its shown
words lie on both sides of the edge, the link is split around the field's runs.

The Mirror translator writes each sentence's words upper-cased in reverse order, each aligned to its source word."""

import io

import docx
import pytest
from lxml import etree
from office_files import SOFFICE, code_run, field_char, libreoffice_saved, read_members, text_run, w, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

OPENING = field_char("begin") + code_run(" PAGE ") + field_char("separate")  # a page number's begin, code, separator


def linked(runs: str) -> str:
    return f'<w:hyperlink w:anchor="map">{runs}</w:hyperlink>'


def translated(translator, *paragraphs: str) -> bytes:
    return translate_office(word_paragraph(*paragraphs), ".docx", translator, DocumentOptions())


def pieces(data: bytes) -> list[str]:
    """Each part of the first paragraph's runs (a field character's type, a code, a text), after "link: " where a
    link holds it."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{w('p')}")
    found = []
    for node in paragraph.iter(w("fldChar"), w("instrText"), w("t")):
        shown = node.get(w("fldCharType")) or node.text
        found.append(shown if next(node.iterancestors(w("hyperlink")), None) is None else f"link: {shown}")
    return found


def libreoffice_text(data: bytes, tmp_path) -> str:
    return libreoffice_saved(data, ".docx", "txt", tmp_path / "txt").decode("utf-8-sig").strip()


def test_a_field_begun_in_a_link_and_ended_after_it_ends_in_it(mirror):
    """Read as one mark, the link took the field's begin away from its end, which was written first ("MAP. THE{} FOR
    <link>PAGE THE {PAGE}4</link> SEE"), and the model read "See the page for the map."."""
    out = translated(mirror, text_run("See ") + linked(text_run("the page ") + OPENING + text_run("4"))
                     + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["See the page 4 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "link: begin", "link:  PAGE ", "link: separate", "link: 4", "link: end",
                           "link:  PAGE THE", " SEE"]
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "MAP. THE FOR 4 PAGE THE SEE"


OTHER_MARKS = {"smartTag": ('<w:smartTag w:uri="urn:places" w:element="place">', "</w:smartTag>"),
               "customXml": ('<w:customXml w:element="book">', "</w:customXml>"),
               "sdt": ('<w:sdt><w:sdtPr><w:id w:val="7"/></w:sdtPr><w:sdtContent>', "</w:sdtContent></w:sdt>"),
               "dir": ('<w:dir w:val="ltr">', "</w:dir>")}


@pytest.mark.parametrize("name", OTHER_MARKS)
def test_a_field_begun_in_another_mark_and_ended_after_it_ends_in_it(mirror, name):
    """A smart tag, a custom XML element, a content control and a bidirectional embedding are marks around runs as a
    link is: the field's end was written before its begin, and the model read "See the page for the map."."""
    opening, closing = OTHER_MARKS[name]
    out = translated(mirror, text_run("See ") + opening + text_run("the page ") + OPENING + text_run("4") + closing
                     + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["See the page 4 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "begin", " PAGE ", "separate", "4", "end", " PAGE THE", " SEE"]
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{w('p')}")
    mark = paragraph.find(w(name))
    assert len(paragraph.findall(w(name))) == 1  # not split: the field ends in it
    assert [kind.get(w("fldCharType")) for kind in mark.iter(w("fldChar"))] == ["begin", "separate", "end"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_field_begun_before_a_link_and_ended_in_it_begins_in_it(mirror, tmp_path):
    """Its end written before its begin, LibreOffice showed "TODAY. MAP THE4 OF " (the field and "PAGE SEE" lost);
    its begin, code and separator moved into the link, it shows the field's page, 1, where the number was."""
    out = translated(mirror, text_run("See page ") + OPENING + linked(text_run("4") + field_char("end")
                                                                     + text_run(" of the map")) + text_run(" today."))
    assert mirror.given == ["See page 4 of the map today."]
    assert pieces(out) == ["TODAY. ", "link: MAP THE OF ", "link: begin", "link:  PAGE ", "link: separate", "link: 4",
                           "link: end", " PAGE SEE"]
    assert libreoffice_text(out, tmp_path) == "TODAY. MAP THE OF 1 PAGE SEE"


def test_a_link_field_begun_at_a_links_start_and_running_on_past_it_is_translated(mirror):
    """A ``HYPERLINK`` field begun in a link, its result running on past the link's end: its begin, code and
    separator, moved out before the link, put the link in its result.  Read with its begin in the link, its words
    were kept in English and the model read "Read now."."""
    code = ' HYPERLINK "https://example.com" '
    out = translated(mirror, text_run("Read ") + linked(field_char("begin") + code_run(code) + field_char("separate")
                                                       + text_run("the old guide")) + text_run(" here")
                     + field_char("end") + text_run(" now."))
    assert mirror.given == ["Read the old guide here now."]
    assert pieces(out) == ["NOW. ", "begin", code, "separate", "HERE ", "link: GUIDE OLD THE", "end", " READ"]


STRADDLING = (text_run("See ") + linked(text_run("the page ") + OPENING + text_run("4")) + text_run(" more")
              + field_char("end") + text_run(" for the map."))  # the field's words on both sides of the link's end


def test_a_field_whose_words_lie_on_both_sides_of_a_links_edge_splits_the_link(mirror):
    """Neither side of the edge holds the field's characters alone: the link is split around the field's runs, each
    piece a link to the same place, and the field comes back whole and in its order (it was written "MAP. THE{}
    FOR <link>PAGE THE {PAGE}4</link> SEE more"); the pieces side by side are one link again."""
    out = translated(mirror, STRADDLING)
    assert pieces(out) == ["MAP. THE ", "link: begin", "link:  PAGE ", "link: separate", "link: 4", " more", "end",
                           " FOR ", "link: PAGE THE ", "SEE"]
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{w('p')}")
    assert [link.get(w("anchor")) for link in paragraph.iter(w("hyperlink"))] == ["map", "map"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_links_pieces_around_a_field_show_the_field_in_libreoffice(mirror, tmp_path):
    """Left in links of their own, the field's begin, code and separator showed LibreOffice its code as text
    ("MAP. THE  PAGE 4 more FOR PAGE THE SEE")."""
    assert libreoffice_text(translated(mirror, STRADDLING), tmp_path) == "MAP. THE 1 more FOR PAGE THE SEE"


CONTROL = OTHER_MARKS["sdt"]
REFERENCE = field_char("begin") + code_run(" REF _Ref1 \\h ") + field_char("separate")  # a cross-reference's
CUT_BY_A_CONTROL = {  # a field with words on both sides of a content control's edge
    "begun in it": (text_run("See ") + CONTROL[0] + text_run("the chart in ") + REFERENCE + text_run("Figure")
                    + CONTROL[1] + text_run(" 2") + field_char("end") + text_run(" for the map."),
                    "See the chart in Figure 2 for the map."),
    "ended in it": (text_run("See the chart in ") + REFERENCE + text_run("Figure ") + CONTROL[0] + text_run("2")
                    + field_char("end") + text_run(" on the map") + CONTROL[1] + text_run(" today."),
                    "See the chart in Figure 2 on the map today.")}


@pytest.mark.parametrize("case", CUT_BY_A_CONTROL)
def test_a_field_whose_words_lie_on_both_sides_of_a_content_controls_edge_comes_back_whole_in_it(mirror, case):
    """A content control is not split (its properties name it once), so such a field stayed cut: the model read "See
    the chart in for the map." and its end was written before its begin, no field to Word or LibreOffice.  The control
    takes the rest of the field, the words of its result too, as one that holds a field whole is read."""
    runs, sentence = CUT_BY_A_CONTROL[case]
    out = translated(mirror, runs)
    assert mirror.given == [sentence]
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{w('p')}")
    controls = paragraph.findall(w("sdt"))
    assert [control.find(f"{w('sdtPr')}/{w('id')}").get(w("val")) for control in controls] == ["7"]
    assert [kind.get(w("fldCharType")) for kind in paragraph.iter(w("fldChar"))] == ["begin", "separate", "end"]
    assert [kind.get(w("fldCharType")) for kind in controls[0].iter(w("fldChar"))] == ["begin", "separate", "end"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_page_field_cut_by_a_content_control_shows_its_page_in_libreoffice(mirror, tmp_path):
    """Its end written before its begin, LibreOffice showed "MAP. THE more FOR PAGE THE" (the field and "SEE" lost)."""
    out = translated(mirror, text_run("See ") + CONTROL[0] + text_run("the page ") + OPENING + text_run("4")
                     + CONTROL[1] + text_run(" more") + field_char("end") + text_run(" for the map."))
    assert libreoffice_text(out, tmp_path) == "MAP. THE FOR PAGE THE 1 SEE"
