"""A name joined by "&" (attnmt.decoding.protected.AMPERSAND_NAME: ``Tom & Jerry``, ``AT&T``) passes through a Word,
Excel or PowerPoint paragraph, an alt text and a comment as written, as it passes through a web page's text
(test_markup_ampersand_names), with AmpersandDropping of conftest.py, which drops the words holding "&" as the demo
model did.  Read whole, "We watched Tom & Jerry at AT&T." came back "WE WATCHED TOM JERRY AT"."""

import io

import docx
import openpyxl
import pptx
from comment_files import commented_slides_file
from lxml import etree
from office_files import (
    PNG,
    docx_bytes,
    paragraph_texts,
    read_members,
    run_texts,
    sheet_values,
    text_run,
    word_paragraph,
    write_members,
)

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"


def test_a_name_joined_by_an_ampersand_passes_through_a_word_paragraph(ampersand_dropping):
    document = docx.Document()
    document.add_paragraph("We watched Tom & Jerry at AT&T.")
    out = translate_office(docx_bytes(document), ".docx", ampersand_dropping, DocumentOptions())
    assert paragraph_texts(out) == ["WE WATCHED Tom & Jerry AT AT&T."]
    assert b"Tom &amp; Jerry" in read_members(out)["word/document.xml"]
    assert ampersand_dropping.given == ["We watched at."]


def test_a_name_joined_by_an_ampersand_in_a_bold_run_keeps_its_run(ampersand_dropping):
    bold = "<w:rPr><w:b/></w:rPr>"
    data = word_paragraph(text_run("A man works at ") + text_run("H&amp;M", bold) + text_run(" today."))
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert run_texts(out) == ["A MAN WORKS AT ", "H&M", " TODAY."]
    assert docx.Document(io.BytesIO(out)).paragraphs[0].runs[1].bold
    assert ampersand_dropping.given == ["A man works at today."]


def test_an_ampersand_between_words_in_lower_case_in_a_word_paragraph_is_the_models_to_translate(ampersand_dropping):
    document = docx.Document()
    document.add_paragraph("Salt & pepper go in.")
    out = translate_office(docx_bytes(document), ".docx", ampersand_dropping, DocumentOptions())
    assert paragraph_texts(out) == ["SALT PEPPER GO IN."]
    assert ampersand_dropping.given == ["Salt & pepper go in."]


def test_a_name_joined_by_an_ampersand_passes_through_an_excel_cell(ampersand_dropping):
    book = openpyxl.Workbook()
    book.active["A1"] = "A man works at H&M."
    out = translate_office(docx_bytes(book), ".xlsx", ampersand_dropping, DocumentOptions())
    assert sheet_values(out) == [["A MAN WORKS AT H&M."]]
    assert ampersand_dropping.given == ["A man works at."]


def test_a_name_joined_by_an_ampersand_passes_through_a_slides_title(ampersand_dropping):
    deck = pptx.Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "We met Procter & Gamble."
    out = translate_office(docx_bytes(deck), ".pptx", ampersand_dropping, DocumentOptions())
    assert pptx.Presentation(io.BytesIO(out)).slides[0].shapes.title.text == "WE MET Procter & Gamble."
    assert ampersand_dropping.given == ["We met."]


def test_a_name_joined_by_an_ampersand_passes_through_a_pictures_alt_text(ampersand_dropping):
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    document.add_picture(io.BytesIO(PNG))
    document.inline_shapes[0]._inline.docPr.set("descr", "A man works at AT&T.")
    out = translate_office(docx_bytes(document), ".docx", ampersand_dropping, DocumentOptions())
    properties = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{WP}}}docPr")
    assert properties.get("descr") == "A MAN WORKS AT AT&T."
    assert ampersand_dropping.given == ["The dog runs.", "A man works at."]


def test_a_name_joined_by_an_ampersand_passes_through_a_slides_comment(ampersand_dropping):
    members = read_members(commented_slides_file())
    members["ppt/comments/comment1.xml"] = members["ppt/comments/comment1.xml"].replace(
        b"Check the red car.", b"Call AT&amp;T now.")
    out = translate_office(write_members(members), ".pptx", ampersand_dropping, DocumentOptions())
    comment = etree.fromstring(read_members(out)["ppt/comments/comment1.xml"]).find(f".//{{{P}}}text")
    assert comment.text.split("\n")[0] == "CALL AT&T NOW."
    assert "Call now." in ampersand_dropping.given


def test_a_name_that_word_runs_part_passes_through_with_each_runs_look(ampersand_dropping):
    """Read run by run, no run held the name: a bold "Tom" before " & Jerry" came back "TOM" and " JERRY"."""
    bold = "<w:rPr><w:b/></w:rPr>"
    data = word_paragraph(text_run("We watched ") + text_run("Tom", bold) + text_run(" &amp; Jerry today."))
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert run_texts(out) == ["WE WATCHED ", "Tom", " & Jerry TODAY."]
    assert docx.Document(io.BytesIO(out)).paragraphs[0].runs[1].bold
    assert ampersand_dropping.given == ["We watched today."]


def test_a_non_breaking_hyphen_after_a_name_that_word_runs_part_stays_in_its_word(ampersand_dropping):
    """The name taken out of the text moves the hyphen's place back with it."""
    data = word_paragraph(text_run("We watched ") + text_run("Tom", "<w:rPr><w:b/></w:rPr>")
                          + text_run(" &amp; Jerry, a self") + "<w:r><w:noBreakHyphen/><w:t>made show.</w:t></w:r>")
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert b"SELF</w:t><w:noBreakHyphen/><w:t xml:space=\"preserve\">MADE" in read_members(out)["word/document.xml"]
    assert ampersand_dropping.given == ["We watched, a self-made show."]
