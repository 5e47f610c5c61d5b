"""Quotes in a slide's and a spreadsheet's text (.pptx, .xlsx: attnmt.documents.word_quotes.QuoteBuilder), read as a
Word paragraph's, an .odp's and an HTML page's are: the model is given the words without their marks, and the quote
is written around their translation in the target language's form.  Upper upper-cases each sentence."""

import io

import comment_files
import openpyxl
import pptx
import pytest
from lxml import etree
from office_files import (
    SOFFICE,
    calc_file,
    docx_bytes,
    libreoffice_saved,
    presentation_file,
    read_members,
    write_members,
)
from openpyxl.comments import Comment
from pptx.util import Inches

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

GERMAN = DocumentOptions(target_lang="de")
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
THREADED = "{http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments}"
# (text, what the model is given, what is written): a double quote, a curly one, a single one after a word, a quote
# closed after a comma, an apostrophe and an inch mark (no quotes) beside a quote
QUOTED = [('He said "hello" to me.', "He said hello to me.", "HE SAID „HELLO“ TO ME."),
          ("She read \u201cThe Times\u201d today.", "She read The Times today.", "SHE READ „THE TIMES“ TODAY."),
          ("The man calls it 'home' now.", "The man calls it home now.", "THE MAN CALLS IT ‚HOME‘ NOW."),
          ('"A dog runs," she said.', "A dog runs, she said.", "„A DOG RUNS“, SHE SAID."),
          ("Tom's \"big\" day", "Tom's big day", "TOM'S „BIG“ DAY"),
          ('A 12" pipe, "fast" and cheap.', 'A 12" pipe, fast and cheap.', 'A 12" PIPE, „FAST“ AND CHEAP.')]


def slide_texts(texts: list[str]) -> bytes:
    """A slide with a text box of a paragraph for each of ``texts``, as python-pptx writes one."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(3)).text_frame
    box.text = texts[0]
    for text in texts[1:]:
        box.add_paragraph().text = text
    return docx_bytes(deck)


def shown_on_slide(data: bytes) -> list[str]:
    slide = pptx.Presentation(io.BytesIO(data)).slides[0]
    return [paragraph.text for shape in slide.shapes if shape.has_text_frame
            for paragraph in shape.text_frame.paragraphs]


def sheet_texts(texts: list[str]) -> bytes:
    """A sheet whose column A holds ``texts`` (inline strings, as openpyxl writes them)."""
    book = openpyxl.Workbook()
    for row, text in enumerate(texts, start=1):
        book.active.cell(row, 1, text)
    return docx_bytes(book)


def test_a_quote_in_a_slides_sentence_is_read_without_its_marks_and_written_in_the_target_form(upper):
    out = translate_office(slide_texts([text for text, _, _ in QUOTED]), ".pptx", upper, GERMAN)
    assert shown_on_slide(out) == [written for _, _, written in QUOTED]
    assert upper.given == [given for _, given, _ in QUOTED]


def test_a_quote_in_a_cells_sentence_is_read_without_its_marks_and_written_in_the_target_form(upper):
    out = translate_office(sheet_texts([text for text, _, _ in QUOTED]), ".xlsx", upper, GERMAN)
    assert [cell.value for cell in openpyxl.load_workbook(io.BytesIO(out)).active["A"]] == [
        written for _, _, written in QUOTED]
    assert upper.given == [given for _, given, _ in QUOTED]


def with_content(data: bytes, old: str, new: str) -> bytes:
    members = read_members(data)
    members["content.xml"] = members["content.xml"].replace(old.encode(), new.encode())
    return write_members(members)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_quote_in_a_pptx_libreoffice_saved_is_written_in_the_target_form_and_opens_there(upper, tmp_path):
    odp = with_content(presentation_file(), "The boy laughs.", 'The girl said "hello" to the old man.')
    out = translate_office(libreoffice_saved(odp, ".odp", "pptx", tmp_path / "a"), ".pptx", upper, GERMAN)
    assert "THE GIRL SAID „HELLO“ TO THE OLD MAN." in shown_on_slide(out)
    assert upper.given == ["The girl said hello to the old man."]
    reopened = read_members(libreoffice_saved(out, ".pptx", "odp", tmp_path / "b"))["content.xml"].decode()
    assert "THE GIRL SAID „HELLO“ TO THE OLD MAN." in reopened


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_quote_in_an_xlsx_libreoffice_saved_is_written_in_the_target_form_and_opens_there(upper, tmp_path):
    """LibreOffice writes a sheet's text as shared strings."""
    ods = with_content(calc_file(), "A dog runs.", "She read \u201cThe Times\u201d today.")
    out = translate_office(libreoffice_saved(ods, ".ods", "xlsx", tmp_path / "a"), ".xlsx", upper, GERMAN)
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].value == "SHE READ „THE TIMES“ TODAY."
    assert upper.given[0] == "She read The Times today."  # then its page's footer, "Page"
    reopened = read_members(libreoffice_saved(out, ".xlsx", "ods", tmp_path / "b"))["content.xml"].decode()
    assert "SHE READ „THE TIMES“ TODAY." in reopened


def test_a_quote_in_a_notes_sentence_is_read_without_its_marks_and_written_in_the_target_form(upper):
    """A note (Excel's comment, attnmt.documents.comments) went to the model with its marks as words, while its
    cell's string was read without them."""
    book = openpyxl.load_workbook(io.BytesIO(sheet_texts(["Total"] * len(QUOTED))))
    for row, (text, _, _) in enumerate(QUOTED, start=1):
        book.active.cell(row, 1).comment = Comment(text, "Ann")
    out = translate_office(docx_bytes(book), ".xlsx", upper, GERMAN)
    notes = [cell.comment.text for cell in openpyxl.load_workbook(io.BytesIO(out)).active["A"]]
    assert notes == [written for _, _, written in QUOTED]
    assert [given for given in upper.given if given != "Total"] == [given for _, given, _ in QUOTED]


def test_a_quote_in_an_excel_note_after_its_authors_label_is_written_in_the_target_form(upper):
    """Excel writes a note's author's label in a bold run of its own, the note in the runs after it."""
    label = '<r><rPr><b/><sz val="9"/></rPr><t>Anna Smith:</t></r>'
    note = '<r><rPr><sz val="9"/></rPr><t xml:space="preserve">\nThe girl said "hello" to <!-- x -->the man.</t></r>'
    book = openpyxl.load_workbook(io.BytesIO(sheet_texts(["Total"])))
    book.active["A1"].comment = Comment("placeholder", "Anna Smith")
    members = read_members(docx_bytes(book))
    comments = members["xl/comments/comment1.xml"].decode()
    members["xl/comments/comment1.xml"] = comments.replace("<t>placeholder</t>", label + note).encode()
    out = read_members(translate_office(write_members(members), ".xlsx", upper, GERMAN))
    assert "The girl said hello to the man." in upper.given
    written = out["xl/comments/comment1.xml"].decode()
    assert "<t>Anna Smith:</t>" in written and "THE GIRL SAID „HELLO“ TO THE MAN.</t>" in written


def test_a_quote_in_a_note_of_one_text_after_its_authors_label_line_is_written_in_the_target_form(upper):
    """A tool writes a note's author's label as the first line of its one text (comments.LabelledText)."""
    book = openpyxl.load_workbook(io.BytesIO(sheet_texts(["Total"])))
    note = "Ben Lee:\nThe man calls it 'home' now.\nShe read \u201cThe Times\u201d."
    book.active["A1"].comment = Comment(note, "Ben Lee")
    out = translate_office(docx_bytes(book), ".xlsx", upper, GERMAN)
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].comment.text == (
        "Ben Lee:\nTHE MAN CALLS IT ‚HOME‘ NOW.\nSHE READ „THE TIMES“.")
    assert {"The man calls it home now.", "She read The Times."} <= set(upper.given)


def test_a_quote_in_a_slides_comment_is_read_without_its_marks_and_written_in_the_target_form(upper, monkeypatch):
    """PowerPoint's comment, plain text (comments.QuotedText), went to the model with its marks as words, and came back
    ``HE SAID "HELLO" TO ME.`` where the slide's own text came back ``HE SAID „HELLO“ TO ME.``."""
    lines = "\n".join(text for text, _, _ in QUOTED)
    monkeypatch.setattr(comment_files, "COMMENTS", comment_files.COMMENTS.replace("Check the red car.\nIt is parked.",
                                                                                  lines))
    out = translate_office(comment_files.commented_slides_file(), ".pptx", upper, GERMAN)
    [comment] = etree.fromstring(read_members(out)["ppt/comments/comment1.xml"]).iter(f"{P}text")
    assert comment.text.split("\n") == [written for _, _, written in QUOTED]
    assert {given for _, given, _ in QUOTED} <= set(upper.given)
    assert not {text for text, _, _ in QUOTED} & set(upper.given)


def test_a_quote_in_a_threaded_comment_and_the_note_beside_it_is_written_in_the_target_form(upper, monkeypatch):
    """Excel's threaded comment and the note it keeps beside the thread (comments.QuotedText) went to the model with
    their marks as words, while a cell's string and a note's runs were read without them."""
    text, given, written = QUOTED[1]  # a curly quote: She read “The Times” today.
    for name in ("THREADED_COMMENTS", "NOTE"):
        monkeypatch.setattr(comment_files, name, getattr(comment_files, name).replace("Check the red car.", text))
    out = translate_office(comment_files.threaded_sheet_file(), ".xlsx", upper, GERMAN)
    thread = etree.fromstring(read_members(out)["xl/threadedComments/threadedComment1.xml"])
    assert thread.findtext(f"{THREADED}threadedComment/{THREADED}text") == written
    note = openpyxl.load_workbook(io.BytesIO(out)).active["A1"].comment.text
    assert f"COMMENT:\n    {written}\nREPLY:" in note
    assert given in upper.given and text not in upper.given
