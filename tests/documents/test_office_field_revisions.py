"""A tracked change around part of a complex field (attnmt.documents.field_revisions): an insertion (``w:ins``) that
holds a field's begin and code but not its result and end, or its result and end but not its begin, as Word writes a
field typed into a change that covers only part of it; a deletion (``w:del``) that holds a field's begin or its end.
The field comes back whole and once, in its order, each of its runs in the change it was in, of the change's author
and time; the words around it are translated.

The Mirror translator writes each sentence's words upper-cased in reverse order, each aligned to its source word."""

import io

import docx
import pytest
from lxml import etree
from office_files import (
    SOFFICE,
    W,
    docx_bytes,
    field_char,
    libreoffice_saved,
    read_members,
    text_run,
    w,
    word_paragraph,
)

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

PAGE_REFERENCE = " PAGEREF _Ref100 \\h "
INSERTION = '<w:ins w:id="1" w:author="Anna" w:date="2024-05-01T00:00:00Z">{}</w:ins>'
DELETION = '<w:del w:id="2" w:author="Ben" w:date="2024-06-01T00:00:00Z">{}</w:del>'


def code_run(code: str, deleted: bool = False) -> str:
    name = "delInstrText" if deleted else "instrText"
    return f'<w:r><w:{name} xml:space="preserve">{code}</w:{name}></w:r>'


def deleted_run(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


def opening(code: str, deleted: bool = False) -> str:
    """A complex field's begin, code and separator, a run each."""
    return field_char("begin") + code_run(code, deleted) + field_char("separate")


def translated(translator, *paragraphs: str) -> bytes:
    return translate_office(word_paragraph(*paragraphs), ".docx", translator, DocumentOptions())


def first_paragraph(data: bytes) -> etree._Element:
    return etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{w('p')}")


def pieces(data: bytes) -> list[str]:
    """Each part of the first paragraph's runs (a field character's type, a code, a text, deleted or not), after the
    author of the tracked change it is in ("Anna: begin")."""
    found = []
    for node in first_paragraph(data).iter(w("fldChar"), w("instrText"), w("delInstrText"), w("t"), w("delText")):
        change = next(node.iterancestors(w("ins"), w("del"), w("moveTo"), w("moveFrom")), None)
        shown = node.get(w("fldCharType")) or node.text
        found.append(shown if change is None else f"{change.get(w('author'))}: {shown}")
    return found


def changes(data: bytes) -> list[tuple[str, str, str]]:
    """(id, author, date) of each tracked change in the first paragraph."""
    return [(change.get(w("id")), change.get(w("author")), change.get(w("date")))
            for change in first_paragraph(data).iter(w("ins"), w("del"))]


def libreoffice_text(data: bytes, tmp_path) -> str:
    return libreoffice_saved(data, ".docx", "txt", tmp_path / "txt").decode("utf-8-sig").strip()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_field_begun_in_an_insertion_and_ended_after_it_comes_back_whole(mirror, tmp_path):
    """Read as one mark, the insertion took the field's begin and code along with its words: the model read "See page
    for the map.", the begin was written after the field's end ("MAP. THE 4 FOR PAGE SEE {PAGEREF"), and python-docx
    read "MAP. THE4 FOR "."""
    inserted = INSERTION.format(text_run("See page ") + opening(PAGE_REFERENCE))
    out = translated(mirror, inserted + text_run("4") + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["See page 4 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "Anna: begin", f"Anna: {PAGE_REFERENCE}", "Anna: separate", "4", "end",
                           " ", "Anna: PAGE SEE"]
    assert [author for _, author, _ in changes(out)] == ["Anna"] * 4
    assert len({number for number, _, _ in changes(out)}) == 4  # an id each: each is a change of its own
    assert {date for _, _, date in changes(out)} == {"2024-05-01T00:00:00Z"}
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "MAP. THE FOR 4 "  # python-docx skips insertions
    assert libreoffice_text(out, tmp_path) == "MAP. THE FOR 4 PAGE SEE"


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_field_begun_before_an_insertion_and_ended_in_it_comes_back_whole(mirror, tmp_path):
    """The reverse: its result and end inserted with the words after them.  The model read "See page for the map.",
    the field's begin went after the insertion with its end, and LibreOffice showed "MAP. THE4 FOR "."""
    inserted = INSERTION.format(text_run("4") + field_char("end") + text_run(" for the map."))
    out = translated(mirror, text_run("See page ") + opening(PAGE_REFERENCE) + inserted)
    assert mirror.given == ["See page 4 for the map."]
    assert pieces(out) == ["Anna: MAP. THE FOR", " ", "begin", PAGE_REFERENCE, "separate", "Anna: 4", "Anna: end",
                           " PAGE SEE"]
    assert libreoffice_text(out, tmp_path) == "MAP. THE FOR 4 PAGE SEE"


def test_a_split_changes_ids_are_used_by_no_other_part_of_the_file(mirror):
    """The pieces' ids came after the body's largest, 1, and the first of them was 2, the id of the header's own
    insertion: Word takes two changes of one id for a damaged file.  They come after the largest of every Word part."""
    inserted = INSERTION.format(text_run("See page ") + opening(PAGE_REFERENCE))
    document = docx.Document(io.BytesIO(word_paragraph(inserted + text_run("4") + field_char("end")
                                                       + text_run(" for the map."))))
    header = document.sections[0].header.paragraphs[0]._p
    header.append(etree.fromstring(INSERTION.replace("<w:ins ", f'<w:ins xmlns:w="{W}" ').replace('"1"', '"2"')
                                   .format(text_run("Page"))))
    out = read_members(translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions()))
    ids = [change.get(w("id")) for member in ("word/document.xml", "word/header1.xml")
           for change in etree.fromstring(out[member]).iter(w("ins"))]
    assert len(ids) == 5 and len(set(ids)) == 5  # the body's four pieces, the header's one


def test_an_insertion_that_ends_one_field_and_begins_another_is_split_around_both(mirror):
    """"See page {4}< and page {>5} for the map.": read as a mark, the insertion took the first field's end and the
    second's begin with its words, and the model read "See page and page for the map."."""
    inserted = INSERTION.format(text_run("4") + field_char("end") + text_run(" and page ") + opening(" PAGEREF b \\h "))
    out = translated(mirror, text_run("See page ") + opening(PAGE_REFERENCE) + inserted + text_run("5")
                     + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["See page 4 and page 5 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "Anna: begin", "Anna:  PAGEREF b \\h ", "Anna: separate", "5", "end",
                           "Anna:  PAGE AND ", "begin", PAGE_REFERENCE, "separate", "Anna: 4", "Anna: end", " PAGE SEE"]

def test_a_date_begun_in_an_insertion_is_kept_whole_in_its_order(mirror):
    """A field the model reads nothing of (a date) is kept, its parts one after another: the insertion's words moved
    with its begin and code, and the date's result and end went before them."""
    date = ' DATE \\@ "d MMMM yyyy" '
    inserted = INSERTION.format(text_run("A dog runs on ") + opening(date))
    out = translated(mirror, inserted + text_run("5 May 2024") + field_char("end") + text_run(" with a ball."))
    assert mirror.given == ["A dog runs on with a ball."]
    assert pieces(out) == ["BALL. A ", "Anna: begin", f"Anna: {date}", "Anna: separate", "5 May 2024", "end", " WITH ",
                           "Anna: ON RUNS DOG A"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_deletion_that_ends_a_field_ends_it_for_the_words_after_it(mirror, tmp_path):
    """Its end uncounted, the field stayed open: " for the map." and the next paragraph were kept as its result, in
    English (LibreOffice: "PAGE SEE 4 for the map.", "A dog runs.")."""
    deleted = DELETION.format(deleted_run("4") + field_char("end"))
    out = translated(mirror, text_run("See page ") + opening(PAGE_REFERENCE) + deleted + text_run(" for the map."),
                     text_run("A dog runs."))
    assert mirror.given == ["See page for the map.", "A dog runs."]
    assert pieces(out) == ["MAP. THE ", "begin", PAGE_REFERENCE, "separate", "Ben: 4", "Ben: end", " FOR PAGE SEE"]
    assert [author for _, author, _ in changes(out)] == ["Ben", "Ben"]
    assert libreoffice_text(out, tmp_path).splitlines() == ["MAP. THE 4 FOR PAGE SEE", "RUNS. DOG A"]


def test_a_deletion_that_begins_a_field_keeps_the_words_out_of_its_result(mirror):
    """The field's begin deleted with the words before it: the translation of the words after the field was written
    inside its result ("{PAGEREF}MAP. THE FOR 4{}"), which Word replaces when it updates the field, and LibreOffice
    showed none of it.  Read in its place, the field's number is where the translation puts it."""
    deleted = DELETION.format(deleted_run("See page ") + opening(PAGE_REFERENCE, deleted=True))
    out = translated(mirror, deleted + text_run("4") + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["4 for the map."]
    assert pieces(out) == ["Ben: See page ", "MAP. THE FOR ", "Ben: begin", f"Ben: {PAGE_REFERENCE}", "Ben: separate",
                           "4", "end"]


def test_a_field_inserted_whole_over_two_insertions_of_one_change_stays_in_one(mirror):
    """Two insertions of one author and time hold the field between them: they are joined into one, which holds the
    field whole (attnmt.documents.word_insertions), and it is not split."""
    first = INSERTION.format(text_run("See page ") + field_char("begin") + code_run(PAGE_REFERENCE))
    second = INSERTION.replace('"1"', '"7"').format(field_char("separate") + text_run("4") + field_char("end"))
    out = translated(mirror, first + second + text_run(" for the map."))
    assert mirror.given == ["See page 4 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "Anna: begin", f"Anna: {PAGE_REFERENCE}", "Anna: separate", "Anna: 4",
                           "Anna: end", "Anna:  PAGE SEE"]
    assert [number for number, _, _ in changes(out)] == ["1"]


MOVE_TO = '<w:moveTo w:id="3" w:author="Cleo" w:date="2024-07-01T00:00:00Z">{}</w:moveTo>'
MOVE_FROM = '<w:moveFrom w:id="4" w:author="Cleo" w:date="2024-07-01T00:00:00Z">{}</w:moveFrom>'


def test_a_field_begun_in_a_moves_new_place_comes_back_whole(mirror):
    """A tracked move's new place (``w:moveTo``) is read as an insertion is: as one mark, it took the field's begin
    after its end ("MAP. THE4 FOR <moveTo>PAGE SEE {PAGEREF</moveTo>")."""
    moved = MOVE_TO.format(text_run("See page ") + opening(PAGE_REFERENCE))
    out = translated(mirror, moved + text_run("4") + field_char("end") + text_run(" for the map."))
    assert mirror.given == ["See page 4 for the map."]
    assert pieces(out) == ["MAP. THE FOR ", "Cleo: begin", f"Cleo: {PAGE_REFERENCE}", "Cleo: separate", "4", "end",
                           " ", "Cleo: PAGE SEE"]


def test_a_moves_old_place_that_ends_a_field_ends_it_for_the_words_after_it(mirror):
    """A move's old place (``w:moveFrom``) is kept as a deletion is, its field's end counted: " for the map." and the
    next paragraph were kept, in English, as the field's result."""
    moved = MOVE_FROM.format(text_run("4") + field_char("end"))
    out = translated(mirror, text_run("See page ") + opening(PAGE_REFERENCE) + moved + text_run(" for the map."),
                     text_run("A dog runs."))
    assert mirror.given == ["See page for the map.", "A dog runs."]
    assert pieces(out) == ["MAP. THE ", "begin", PAGE_REFERENCE, "separate", "Cleo: 4", "Cleo: end", " FOR PAGE SEE"]
