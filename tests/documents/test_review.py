"""The sentences of a document that need review (attnmt.documents.review): each listed at its place
(a line, or an office file's member and paragraph), with the stand-in translators of conftest.py
and a stand-in assessment whose qualities are set by hand."""

import io
import re

import docx
import openpyxl
import pptx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from office_files import docx_bytes, read_members, shared_string_sheet, text_file, write_members
from openpyxl.worksheet.table import Table
from pptx.util import Inches
from support import review_rows

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.flat import Place
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.errors import ConfigError

OPTIONS = DocumentOptions()


class Graded:
    """An assessment that gives a sentence with "bad" in it quality 0.2 and the low_quality flag,
    every other 0.9; records the sources it was asked about."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, sources, translations):
        from attnmt.decoding.quality import Assessment

        self.asked += sources
        return [None if not t.strip() else Assessment(0.2, ["low_quality"], False) if "bad" in s
                else Assessment(0.9, [], False) for s, t in zip(sources, translations, strict=True)]


def test_a_word_files_bad_sentence_is_listed_at_its_member_and_paragraph(mirror):
    document = docx.Document()
    document.add_paragraph("The boy laughs.")
    paragraph = document.add_paragraph("A ")
    paragraph.add_run("bad").bold = True
    paragraph.add_run(" dog runs. The cat sleeps.")
    review = Review(Graded(), threshold=0.5)
    translate_file_bytes(docx_bytes(document), "report.docx", mirror, OPTIONS, review=review)
    assert review_rows(review) == [
        ["part", "paragraph", "quality", "flags", "source", "translation"],
        ["word/document.xml", "2", "0.2000", "low_quality", "A bad dog runs.", "RUNS. DOG BAD A"]]
    assert review.sentences == 3


def test_an_opendocument_texts_paragraph_is_counted_in_content_xml(mirror):
    graded = Graded()
    review = Review(lambda sources, texts: graded([s.replace("cat", "bad cat") for s in sources], texts), 0.5)
    translate_file_bytes(text_file(), "notes.odt", mirror, OPTIONS, review=review)
    [place] = [segment.place for segment in review.segments]
    assert place == Place("content.xml", 3)  # the heading, the paragraph, then the table's cell
    assert review.segments[0].source == "A cat sleeps."


def test_a_subtitle_is_listed_at_the_line_its_text_starts_on(mirror):
    srt = b"1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n\n2\n00:00:03,000 --> 00:00:04,000\nA bad cat\nsleeps.\n"
    review = Review(Graded(), 0.5)
    translate_file_bytes(srt, "film.srt", mirror, OPTIONS, review=review)
    assert review_rows(review)[1:] == [["7", "0.2000", "low_quality", "A bad cat sleeps.", "SLEEPS. CAT BAD A"]]


def test_a_threshold_of_one_lists_every_sentence_and_zero_none(same):
    text = b"A dog runs.\n\nA bad cat sleeps. The boy laughs.\n"
    everything, nothing = Review(Graded(), 1.0), Review(Graded(), 0.0)
    for review in (everything, nothing):
        translate_file_bytes(text, "notes.txt", same, OPTIONS, review=review)
    assert [(s.place.number, s.source) for s in everything.segments] == [
        (1, "A dog runs."), (3, "A bad cat sleeps."), (3, "The boy laughs.")]
    assert nothing.segments == [] and review_rows(nothing) == [["line", "quality", "flags", "source", "translation"]]


def test_a_repeated_sentence_is_assessed_once_and_listed_at_each_place(same):
    graded = Graded()
    review = Review(graded, 0.5)
    translate_file_bytes(b"A bad footer.\nA dog runs.\nA bad footer.\n", "notes.txt", same, OPTIONS, review=review)
    assert graded.asked.count("A bad footer.") == 1
    assert [s.place.number for s in review.segments] == [1, 3]


def test_below_the_threshold_the_source_is_written_with_its_marks_in_place(mirror):
    document = docx.Document()
    document.add_paragraph("The boy laughs.")
    paragraph = document.add_paragraph("A ")
    paragraph.add_run("bad").bold = True
    paragraph.add_run(" dog runs.")
    review = Review(Graded(), 0.5, source_below=True)
    out = translate_file_bytes(docx_bytes(document), "report.docx", mirror, OPTIONS, review=review)
    first, second = docx.Document(io.BytesIO(out)).paragraphs
    assert first.text == "LAUGHS. BOY THE"
    assert second.text == "A bad dog runs." and [r.text for r in second.runs if r.bold] == ["bad"]
    assert review.segments[0].translation == "RUNS. DOG BAD A"  # the table shows what was turned down


def test_an_empty_translation_of_a_sentence_with_words_is_listed_as_score_gives_it(fixed):
    """Quality 0, empty and low_quality (quality.empty_translation); at a threshold of 0 too, flagged empty."""
    review = Review(Graded(), 0.5)
    translate_file_bytes(b"A dog runs.\n", "notes.txt", fixed("", []), OPTIONS, review=review)
    assert review_rows(review)[1:] == [["1", "0.0000", "empty,low_quality", "A dog runs.", ""]]
    assert review.rows()[0]["quality"] == 0.0
    review = Review(Graded(), 0.0)
    translate_file_bytes(b"A dog runs.\n", "notes.txt", fixed("", []), OPTIONS, review=review)
    assert review_rows(review)[1:] == [["1", "0.0000", "empty", "A dog runs.", ""]]


@pytest.mark.parametrize("text, name", [(b"Write a bad note to info@shop.de now.\n", "notes.txt"),
                                        (b"<p>A bad <code>ls</code> run <br>now.</p>\n", "page.html")])
def test_an_empty_translation_is_listed_empty_without_its_sentences_atoms(fixed, text, name):
    """The atoms alone were shown as its translation ("info@shop.de"), under the flag ``empty``."""
    review = Review(Graded(), 0.5)
    translate_file_bytes(text, name, fixed("", []), OPTIONS, review=review)
    assert [(row[2], row[4]) for row in review_rows(review)[1:]] == [("empty,low_quality", "")]


def test_the_table_is_written_whole_and_says_how_many(same, tmp_path):
    review = Review(Graded(), 0.5)
    translate_file_bytes(b"A bad one.\nA good one.\n", "notes.txt", same, OPTIONS, review=review)
    review.write(tmp_path / "notes.review.tsv")
    assert (tmp_path / "notes.review.tsv").read_text(encoding="utf-8") == review.table()
    assert review.summary("notes.review.tsv") == ("1 of 2 sentences need review (1 with quality under 0.5 or empty, "
                                                  "0 flagged by a rule alone): listed in notes.review.tsv")


def test_a_sentences_urls_and_addresses_are_shown_where_the_document_has_them(mirror):
    text = b"Write a bad note to info@shop.de now.\nA bad report: https://example.com/r.pdf\n"
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(text, "notes.txt", mirror, OPTIONS, review=review).decode()
    assert out.splitlines() == ["info@shop.de NOW. TO NOTE BAD A WRITE", "REPORT: BAD A https://example.com/r.pdf"]
    assert [(s.source, s.translation) for s in review.segments] == [
        ("Write a bad note to info@shop.de now.", "info@shop.de NOW. TO NOTE BAD A WRITE"),
        ("A bad report: https://example.com/r.pdf", "REPORT: BAD A https://example.com/r.pdf")]


def test_inline_code_in_html_is_shown_as_its_text_and_its_tags_left_out(same):
    page = b'<p>A bad <code>ls -l</code> run, then email <a href="mailto:a@b.de">a@b.de</a>.</p>\n'
    review = Review(Graded(), 0.5)
    translate_file_bytes(page, "page.html", same, OPTIONS, review=review)
    assert review_rows(review)[1:] == [["1", "0.2000", "low_quality", "A bad ls -l run, then email a@b.de.",
                                        "A bad ls -l run, then email a@b.de."]]


def test_a_kept_passage_is_shown_apart_from_a_word_it_did_not_touch(fixed):
    """The row read "bonjour mon amiund": the model dropped the comma after the passage, which now comes back with
    it (closing_marks.comma_taken_along)."""
    page = b'<p>The man said: <span lang="fr">bonjour mon ami</span>, and a woman laughed.</p>\n'
    model = fixed("Der Mann, der Teig und eine Frau lachen.", [(0, 0), (1, 1), (2, 3), (4, 4), (5, 5), (6, 6)])
    review = Review(Graded(), 1.0)
    translate_file_bytes(page, "page.html", model, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [
        ("The man said: bonjour mon ami, and a woman laughed.",
         "Der Mann, der Teig bonjour mon ami, und eine Frau lachen.")]


def test_an_opendocument_sentences_note_comment_and_line_break_are_shown_as_a_reader_sees_them(same):
    """The table showed every text inside the atoms: "bad.1The note." (the note's citation and its own
    paragraph), the comment's author, date and text, and "dogruns" across the line break."""
    office, text = "urn:oasis:names:tc:opendocument:xmlns:office:1.0", "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    note = (f'<text:note xmlns:text="{text}" text:id="n1" text:note-class="footnote"><text:note-citation>1'
            '</text:note-citation><text:note-body><text:p>The note.</text:p></text:note-body></text:note>')
    comment = (f'<office:annotation xmlns:office="{office}"><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">'
               f'Anna</dc:creator><text:p xmlns:text="{text}">Check it.</text:p></office:annotation>')
    members = read_members(text_file())
    members["content.xml"] = members["content.xml"].replace(
        b">A dog runs on the <", f'>{comment}A bad dog<text:line-break xmlns:text="{text}"/>runs on the '
                                 f'{note}<'.encode(), 1)
    review = Review(Graded(), 0.5)
    translate_file_bytes(write_members(members), "notes.odt", same, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [
        ("A bad dog runs on the green grass.", "A bad dog runs on the green grass.")]


@pytest.mark.parametrize("between", ["\\N", "\\n", "<br>", "\\h"])
def test_a_subtitles_line_break_or_hard_space_is_shown_as_a_space(mirror, between):
    """The row read "A badwalks his dog." and "DOG. HISWALKS BAD A": the break was shown as nothing."""
    srt = f"1\n00:00:01,000 --> 00:00:02,000\nA bad{between}walks his dog.\n".encode()
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(srt, "film.srt", mirror, OPTIONS, review=review).decode()
    assert out.splitlines()[2] == f"DOG. HIS{between}WALKS BAD A"
    assert [(s.source, s.translation) for s in review.segments] == [("A bad walks his dog.", "DOG. HIS WALKS BAD A")]


XLIFF = (b'<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
         b' <file source-language="en" target-language="de" datatype="plaintext" original="x"><body>\n'
         b'  <trans-unit id="1">\n   <source>A bad dog\n       runs in the snow.</source>\n  </trans-unit>\n'
         b' </body></file>\n</xliff>\n')


@pytest.mark.parametrize(("name", "document", "line"), [
    ("doc.xml", b'<?xml version="1.0"?>\n<doc>\n <para>A bad dog\n       runs in the snow.</para>\n</doc>\n', "3"),
    ("doc.xlf", XLIFF, "5")])
def test_an_xml_sentence_written_over_two_lines_is_shown_on_one(same, name, document, line):
    """The source column held the line break and the next line's indentation, a quoted cell over two lines."""
    review = Review(Graded(), 0.5)
    translate_file_bytes(document, name, same, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [("A bad dog runs in the snow.",) * 2]
    assert review.table().splitlines()[1:] == [
        f"{line}\t0.2000\tlow_quality\tA bad dog runs in the snow.\tA bad dog runs in the snow."]


def test_a_picture_or_a_line_break_between_words_is_shown_as_one_space(same):
    """The rows read "A bad man  is riding." and "Hello  a bad girl runs.", in both columns: the picture
    shown as nothing between two spaces, the <br> as a space beside the line break after it."""
    page = b'<p>A bad man <img src="x.png" alt="A cat."> is riding.</p>\n<p>Hello<br>\na bad girl runs.</p>\n'
    review = Review(Graded(), 0.5)
    translate_file_bytes(page, "page.html", same, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [
        ("A bad man is riding.",) * 2, ("Hello a bad girl runs.",) * 2]


@pytest.mark.parametrize("code", ['<x id="1" ctype="lb"/>', '<ph id="1" ctype="lb">&lt;br&gt;</ph>'])
def test_an_xliff_line_break_code_is_shown_as_a_space(same, code):
    """A break XLIFF's vocabulary knows by its ctype, not by a tag name shown.SHOWN_AS_SPACE lists: the
    rows read "A bad man ridesa red bike." (the <x/> as nothing) and "A bad man rides<br>a red bike."."""
    unit = f'<trans-unit id="1"><source>A bad man rides{code}a red bike.</source></trans-unit>'
    document = ('<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
                f'<file original="a" source-language="en" datatype="plaintext"><body>{unit}</body></file></xliff>\n')
    review = Review(Graded(), 0.5)
    translate_file_bytes(document.encode(), "app.xlf", same, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [("A bad man rides a red bike.",) * 2]


def test_a_no_break_space_is_shown_as_it_stands(same):
    page = "<p>A bad dog\u00a0runs   10\u202fkm.</p>\n".encode()
    review = Review(Graded(), 0.5)
    translate_file_bytes(page, "page.html", same, OPTIONS, review=review)
    assert [s.source for s in review.segments] == ["A bad dog\u00a0runs 10\u202fkm."]


def test_a_webvtt_passage_kept_in_its_own_language_is_shown_as_its_text(same):
    """The row read "She said  to the bad man.", the French gone from both columns."""
    vtt = b"WEBVTT\n\n00:01.000 --> 00:02.000\nShe said <lang fr>bonjour <i>mon</i>\n&amp; ami</lang> to the bad man.\n"
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(vtt, "film.vtt", same, OPTIONS, review=review)
    assert out == vtt
    assert [(s.source, s.translation) for s in review.segments] == [
        ("She said bonjour mon & ami to the bad man.", "She said bonjour mon & ami to the bad man.")]


def test_a_word_sentences_field_code_deletion_and_drawing_are_shown_as_a_reader_sees_them(same):
    """The table showed a field's code beside its result ("DATE \\@"M/d/yy" 5/1/24"), the words a
    tracked change deleted, and a drawing's position ("centertop")."""
    document = docx.Document()
    paragraph = document.add_paragraph("A bad day ")
    runs = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DATE \\@"M/d/yy" </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>5/1/24</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
            '<w:del w:id="1" w:author="A"><w:r><w:delText xml:space="preserve"> old</w:delText></w:r></w:del>'
            '<w:r><w:t xml:space="preserve"> here.</w:t></w:r>'
            '<w:r><w:drawing><wp:anchor><wp:positionH relativeFrom="margin"><wp:align>center</wp:align>'
            '</wp:positionH><wp:positionV relativeFrom="margin"><wp:align>top</wp:align></wp:positionV>'
            '</wp:anchor></w:drawing></w:r>')
    for run in parse_xml(f'<w:p {nsdecls("w", "wp")}>{runs}</w:p>'):
        paragraph._p.append(run)
    review = Review(Graded(), 0.5)
    translate_file_bytes(docx_bytes(document), "report.docx", same, OPTIONS, review=review)
    assert [(s.source, s.translation) for s in review.segments] == [
        ("A bad day 5/1/24 here.", "A bad day 5/1/24 here.")]


def boxed_document(box: str) -> docx.document.Document:
    """A Word document of "The boy laughs." and a text box of ``box`` (a w:txbxContent) after it, written twice as
    Word writes it: as DrawingML (mc:Choice) and as VML (mc:Fallback) for older readers."""
    document = docx.Document()
    holder = document.add_paragraph("The boy laughs.")
    holder._p.append(parse_xml(
        f'<w:r {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f'<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>{box}</wps:txbx></w:drawing>'
        f'</mc:Choice><mc:Fallback><w:pict><v:rect><v:textbox>{box}</v:textbox></v:rect></w:pict></mc:Fallback>'
        '</mc:AlternateContent></w:r>'))
    return document


def test_a_word_text_boxs_fallback_copy_is_translated_but_listed_and_counted_once(same):
    """Word writes a text box twice, as DrawingML (mc:Choice) and as VML (mc:Fallback) for older
    readers: the copy no reader sees was a place too, its row listed twice, a sentence counted too
    many and the paragraphs after it numbered one too far."""
    box = "<w:txbxContent><w:p><w:r><w:t>A bad box.</w:t></w:r></w:p></w:txbxContent>"
    document = boxed_document(box)
    document.add_paragraph("A bad end.")
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(docx_bytes(document), "report.docx", same, OPTIONS, review=review)
    assert [row[:2] + row[4:5] for row in review_rows(review)[1:]] == [["word/document.xml", "2", "A bad box."],
                                                                      ["word/document.xml", "3", "A bad end."]]
    assert review.sentences == 3
    assert read_members(out)["word/document.xml"].count(b"A bad box.") == 2  # both copies written again


def test_a_word_files_rows_follow_the_document_body_headers_footers_then_comments(same):
    """The rows followed [Content_Types].xml, which python-docx sorts by name: the comments
    first, then the body, the footer before the header."""
    document = docx.Document()
    paragraph = document.add_paragraph("A bad body.")
    document.add_comment(paragraph.runs[0], text="A bad comment.", author="Anna")
    document.sections[0].header.paragraphs[0].text = "A bad header."
    document.sections[0].footer.paragraphs[0].text = "A bad footer."
    review = Review(Graded(), 0.5)
    translate_file_bytes(docx_bytes(document), "report.docx", same, OPTIONS, review=review)
    assert [(s.place.part, s.source) for s in review.segments] == [
        ("word/document.xml", "A bad body."), ("word/header1.xml", "A bad header."),
        ("word/footer1.xml", "A bad footer."), ("word/comments.xml", "A bad comment.")]


def test_a_presentations_rows_follow_its_slides_order_then_their_notes(same):
    """Sorted by name, slide10 came before slide2, and the notes before every slide; a slide moved
    to the front keeps its name (slide11.xml) and is listed first."""
    deck = pptx.Presentation()
    for number in range(1, 12):
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        slide.shapes.add_textbox(0, 0, Inches(6), Inches(1)).text_frame.text = f"A bad slide {number}."
        if number == 2:
            slide.notes_slide.notes_text_frame.text = "A bad note."
    slides = deck.slides._sldIdLst
    slides.insert(0, slides[-1])  # the last slide moved to the front, as PowerPoint's slide sorter does
    review = Review(Graded(), 0.5)
    translate_file_bytes(docx_bytes(deck), "talk.pptx", same, OPTIONS, review=review)
    assert [s.source for s in review.segments] == [
        "A bad slide 11.", *(f"A bad slide {number}." for number in range(1, 11)), "A bad note."]
    assert review.segments[0].place.part == "ppt/slides/slide11.xml"


def test_a_presentations_notes_follow_their_slides_order(same):
    """The notes followed their names' numbers, which follow when each was written, not where
    their slides are: slide 3's note, written first, is notesSlide1.xml."""
    deck = pptx.Presentation()
    slides = [deck.slides.add_slide(deck.slide_layouts[6]) for _ in range(3)]
    for number in (3, 1, 2):
        slides[number - 1].notes_slide.notes_text_frame.text = f"A bad note {number}."
    order = deck.slides._sldIdLst
    order.insert(0, order[1])  # slide 2 moved to the front: 2, 1, 3
    review = Review(Graded(), 0.5)
    translate_file_bytes(docx_bytes(deck), "talk.pptx", same, OPTIONS, review=review)
    assert [s.source for s in review.segments] == ["A bad note 2.", "A bad note 1.", "A bad note 3."]


def test_a_workbooks_sheets_follow_its_tabs_order(same):
    """A sheet moved to the front (Excel changes workbook.xml's ``sheets``, not the sheets'
    names) was listed where its name's number put it."""
    book = openpyxl.Workbook()
    book.active["A1"] = "A bad first."
    book.create_sheet("Second")["A1"] = "A bad second."
    book.create_sheet("Third")["A1"] = "A bad third."
    buffer = io.BytesIO()
    book.save(buffer)
    members = read_members(buffer.getvalue())
    workbook = members["xl/workbook.xml"].decode()
    first, second, third = re.findall(r"<sheet [^>]*/>", workbook)
    members["xl/workbook.xml"] = workbook.replace(first + second + third, third + first + second).encode()
    review = Review(Graded(), 0.5)
    translate_file_bytes(write_members(members), "book.xlsx", same, OPTIONS, review=review)
    assert [(s.place.part, s.source) for s in review.segments] == [
        ("xl/worksheets/sheet3.xml", "A bad third."), ("xl/worksheets/sheet1.xml", "A bad first."),
        ("xl/worksheets/sheet2.xml", "A bad second.")]


def named_table_file() -> bytes:
    """A table "Goods" over A2:B3, headers "bad colour" and "bad price", whose columns a formula
    in D1 names (so the headers keep their source text: attnmt.documents.tables)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A2"], sheet["B2"], sheet["A3"], sheet["B3"] = "bad colour", "bad price", "A bad red car.", 3
    sheet.add_table(Table(displayName="Goods", ref="A2:B3"))
    sheet["D1"] = "=COUNTA(Goods[bad colour])"
    return docx_bytes(book)


def test_a_table_header_kept_for_a_formula_is_neither_listed_nor_counted(mirror):
    """The headers keep their source text in the file, but were listed as translated
    ("bad colour" -> "COLOUR BAD") and counted among the sentences."""
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(named_table_file(), "book.xlsx", mirror, OPTIONS, review=review)
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A2"].value == "bad colour"
    assert [(s.place, s.source) for s in review.segments] == [(Place("xl/worksheets/sheet1.xml", 3), "A bad red car.")]
    assert review.sentences == 1


SHARED_HEADER = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" '
                 'uniqueCount="1"><si><t>bad colour</t></si></sst>')


@pytest.mark.parametrize(("elsewhere", "listed", "sentences"),
                         [(False, [], 1), (True, [("xl/sharedStrings.xml", "bad colour")], 2)])
def test_a_kept_headers_shared_string_is_listed_only_where_another_cell_shows_it(mirror, elsewhere, listed,
                                                                               sentences):
    """A header of Excel's (a shared string) kept for a formula: the shared string is listed only
    while another cell (A5) shows its translation."""
    members = read_members(shared_string_sheet(named_table_file(), SHARED_HEADER))
    if elsewhere:
        sheet = members["xl/worksheets/sheet1.xml"].decode()
        members["xl/worksheets/sheet1.xml"] = sheet.replace(
            "</sheetData>", '<row r="5"><c r="A5" t="s"><v>0</v></c></row></sheetData>').encode()
    review = Review(Graded(), 0.5)
    translate_file_bytes(write_members(members), "book.xlsx", mirror, OPTIONS, review=review)
    assert [(s.place.part, s.source) for s in review.segments if "colour" in s.source] == listed
    assert review.sentences == sentences  # A3's, and the shared string's where A5 shows it


def test_an_html_pages_attribute_texts_are_listed_where_their_elements_stand(same):
    """A figure's <img alt> was listed after the page's last paragraph, not between the paragraphs around it."""
    page = (b'<p>One.</p><figure><img alt="A brown dog"/><figcaption>Two.</figcaption></figure>'
            b'<p title="A title">Three <a title="A link">here</a>.</p>')
    review = Review(Graded(), 1.0)
    out = translate_file_bytes(page, "page.html", same, OPTIONS, review=review)
    assert [s.source for s in review.segments] == ["One.", "A brown dog", "Two.", "A title", "A link", "Three here."]
    # the stand-in gives each text back: every one is written where it came from, each tag as written
    assert out == page


def test_an_inline_elements_attribute_text_is_listed_before_the_sentences_it_stands_in(same):
    """An <abbr title> or an <img alt> in a sentence was listed after all its paragraph's sentences,
    not before its element's own text, as where an element opens."""
    page = (b'<p>One. The <abbr title="World Health Organization">WHO</abbr> met. A <img alt="A brown dog"/>dog'
            b' runs.</p><div>Words.<p>Two.</p>A <b title="Bold">cat</b> sleeps.</div>')
    review = Review(Graded(), 1.0)
    translate_file_bytes(page, "page.html", same, OPTIONS, review=review)
    assert [s.source for s in review.segments] == [
        "World Health Organization", "A brown dog", "One.", "The WHO met.", "A dog runs.", "Words.", "Two.", "Bold",
        "A cat sleeps."]


def test_a_review_from_a_translators_search_refuses_sentences_another_translator_translated(upper):
    """translate_file builds its own ModelTranslator: a reviewing() review of another had no
    assessment for any sentence, listed nothing and said all was well."""
    from support import CharTokenizer, ending_model

    from attnmt.documents.pipeline import translate_lines
    from attnmt.documents.review import reviewing
    from attnmt.documents.translators import ModelTranslator

    review = reviewing(ModelTranslator(ending_model(), CharTokenizer()), min_quality=0.5)  # never translates
    with pytest.raises(ConfigError, match=r"^review: a reviewing\(\) review follows only its own ModelTranslator, "
                                          r"and 'A dog runs\.' went through another; .* or use model_review"):
        translate_lines(["A dog runs."], upper, review=review)
    assert translate_lines(["  ", "2012"], upper, review=review) == ["  ", "2012"]  # nothing translated: nothing asked


def test_a_word_text_boxs_fallback_copy_of_a_screen_tip_or_an_if_fields_text_is_listed_once(same):
    """A link's screen tip and an IF field's texts in a text box's fallback copy (mc:Fallback) were
    listed and counted a second time, as the box's paragraphs no longer are."""
    field = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> IF 1 = 1 '
             '"A bad yes" "No" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
             '<w:r><w:t>A bad yes</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>')
    box = (f'<w:txbxContent><w:p><w:hyperlink w:anchor="top" w:tooltip="A bad tip"><w:r><w:t>A bad box.</w:t></w:r>'
           f'</w:hyperlink></w:p><w:p>{field}</w:p></w:txbxContent>')
    document = boxed_document(box)
    review = Review(Graded(), 0.5)
    translate_file_bytes(docx_bytes(document), "report.docx", same, OPTIONS, review=review)
    assert [row[4] for row in review_rows(review)[1:]] == ["A bad box.", "A bad tip", "A bad yes"]
    assert review.sentences == 5  # "The boy laughs.", the box, its tip, the field's "A bad yes" and "No"


@pytest.mark.parametrize("translation, pairs", [
    ("Das schlechte Büro öffnet heute.", [(0, 0), (2, 1), (3, 2), (4, 3), (5, 4)]),  # dropped: where the page has it
    ("Das schlechte WHO-Büro öffnet heute.", [(0, 0), (1, 2), (2, 1), (3, 2), (4, 3), (5, 4)]),  # copied: as written
    ("Das schlechte OMS-Büro öffnet heute.", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 4)]),  # written otherwise
])
def test_an_abbreviation_is_listed_in_the_translation_as_the_page_shows_it(fixed, translation, pairs):
    """An <abbr> the model wrote no copy of stands at a point in the page; the row went without it."""
    page = b'<p>The bad <abbr title="World Health Organization">WHO</abbr> office opens today.</p>\n'
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(page, "page.html", fixed(translation, pairs), DocumentOptions(attributes=()),
                               review=review).decode()
    shown = re.sub(r"<[^>]+>", "", out).strip()
    assert review_rows(review)[1:] == [["1", "0.2000", "low_quality", "The bad WHO office opens today.", shown]]
    assert shown.count("WHO") == 1 and "OMS" not in shown


@pytest.mark.parametrize("translation, pairs, shown", [
    ("Das schlechte Obst, z. B. Äpfel, wird bei heute verkauft.",
     [(0, 0), (1, 1), (2, 2), (3, 3), (3, 4), (4, 5), (5, 6), (6, 9), (7, 7), (8, 8)],
     "Das schlechte Obst, e.g. Äpfel, wird bei www.shop.example heute verkauft."),
    ("La fruta mala (p. ej. manzanas) se vende en hoy.",
     [(0, 0), (1, 2), (2, 1), (3, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9)],
     "La fruta mala (e.g. manzanas) se vende en www.shop.example hoy."),
])
def test_an_abbreviation_the_model_wrote_spaced_is_listed_once_its_neighbours_atoms_in_place(fixed, translation,
                                                                                            pairs, shown):
    """``z. B.`` is two words where the page shows one, ``e.g.``: the row showed "z. B. e.g."; its weights now
    have one row for it, so the ``<code>`` after it goes where the page has it, not a word later."""
    page = b"<p>The bad fruit (<abbr>e.g.</abbr> apples) is sold at <code>www.shop.example</code> today.</p>\n"
    review = Review(Graded(), 0.5)
    out = translate_file_bytes(page, "page.html", fixed(translation, pairs), OPTIONS, review=review).decode()
    assert re.sub(r"<[^>]+>", "", out).strip() == review_rows(review)[1][4] == shown


@pytest.mark.parametrize(("source", "translation", "shown"), [
    ("Two bad dogs", "Zwei schlechte Hunde.", "Zwei schlechte Hunde"),  # a cell's, a heading's: no stop
    ("Is the dog bad?", "Ist der Hund schlecht.", "Ist der Hund schlecht?"),  # the question it asks
])
def test_a_rows_translation_ends_as_the_document_writes_it(sentencing, source, translation, shown):
    """The row showed the model's stop, "Zwei schlechte Hunde.", where the cell shows "Zwei schlechte Hunde": a
    reviewer compares the row with the document and searches it for the row's words."""
    book = openpyxl.Workbook()
    book.active["A1"] = source
    review = Review(Graded(), threshold=0.5)
    out = translate_file_bytes(docx_bytes(book), "sheet.xlsx", sentencing({source: translation}), OPTIONS,
                               review=review)
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].value == shown
    assert [row["translation"] for row in review.rows()] == [shown]
