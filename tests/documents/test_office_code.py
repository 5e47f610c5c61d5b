"""Code in an office file (attnmt.documents.code_look): a run in a style meant for code, or in a
monospaced font beside words in another, is kept as it is, an atom as HTML's inline ``<code>`` is,
and a paragraph in a code style is kept whole; a paragraph all in a monospaced font (a screenplay
in Courier) is words.  The Upper stand-in upper-cases every word it is given, so a command it read
would come back in capitals.  Files built with python-docx, python-pptx and openpyxl."""

import io

import docx
import openpyxl
import pptx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from lxml import etree
from office_files import docx_bytes, read_members, run_texts, word_paragraph
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from pptx.util import Inches

from attnmt.documents.code_look import font_of, is_code_style
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.wordml import w

COMMAND = ("Type ", "ls -l /tmp", " to list the files.")  # the command in code, the rest prose


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def word_command(look) -> docx.document.Document:
    """COMMAND in a Word paragraph, ``look(document, run)`` giving the command's run its look."""
    document = docx.Document()
    paragraph = document.add_paragraph(COMMAND[0])
    look(document, paragraph.add_run(COMMAND[1]))
    paragraph.add_run(COMMAND[2])
    return document


def courier(document, run) -> None:
    run.font.name = "Courier New"


def character_style(name: str, based_on: str | None = None):
    """A look: a character style ``name`` of no font of its own (based on one named ``based_on``)."""
    def look(document, run) -> None:
        style = document.styles.add_style(name, WD_STYLE_TYPE.CHARACTER)
        if based_on is not None:
            style.base_style = document.styles.add_style(based_on, WD_STYLE_TYPE.CHARACTER)
        run.style = style
    return look


def word_in_language(tag: str, *paragraphs: str) -> bytes:
    """A Word file of a paragraph "Run " + ``ls -l`` in a run stated as ``tag`` + " to see a dog.", then
    ``paragraphs``' content."""
    return word_paragraph(f'<w:r><w:t xml:space="preserve">Run </w:t></w:r><w:r><w:rPr><w:lang w:val="{tag}"/>'
                          '</w:rPr><w:t>ls -l</w:t></w:r><w:r><w:t xml:space="preserve"> to see a dog.</w:t></w:r>',
                          *paragraphs)


@pytest.mark.parametrize("look", [courier, character_style("HTML Code"), character_style("Verbatim Char"),
                                  character_style("KeywordTok", based_on="Verbatim Char")],
                         ids=["Courier New", "HTML Code", "Verbatim Char", "based on Verbatim Char"])
def test_a_run_of_code_in_a_word_paragraph_is_kept_as_it_is(upper, look):
    """Read as words, the command was translated ("in einem stellen") and lost."""
    data = translate(docx_bytes(word_command(look)), ".docx", upper)
    assert run_texts(data) == ["TYPE ", "ls -l /tmp", " TO LIST THE FILES."]
    assert not any("ls" in sentence for sentence in upper.given)


def test_a_paragraph_in_a_code_style_is_kept_whole(upper):
    """pandoc's code block: a "Source Code" paragraph (its runs of no look of their own)."""
    document = docx.Document()
    document.add_paragraph("for line in open(path): print(line)",
                           document.styles.add_style("Source Code", WD_STYLE_TYPE.PARAGRAPH))
    document.add_paragraph("The loop prints each line.")
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["for line in open(path): print(line)", "THE LOOP PRINTS EACH LINE."]
    assert upper.given == ["The loop prints each line."]


def test_a_document_typed_in_courier_is_translated(upper):
    """Normal's own font is the document's look (a manuscript), not code's."""
    document = word_command(courier)
    document.styles["Normal"].font.name = "Courier New"
    assert "".join(run_texts(translate(docx_bytes(document), ".docx", upper))) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_a_run_in_consolas_among_words_stated_in_calibri_is_kept_as_it_is(upper):
    """Inline code where every run states its font: the command's is monospaced, its sentence's not."""
    document = word_command(lambda document, run: setattr(run.font, "name", "Consolas"))
    for run in (document.paragraphs[0].runs[0], document.paragraphs[0].runs[2]):
        run.font.name = "Calibri"
    assert run_texts(translate(docx_bytes(document), ".docx", upper)) == ["TYPE ", "ls -l /tmp", " TO LIST THE FILES."]


def test_a_screenplay_in_courier_is_translated(upper):
    """Every run states Courier New, Normal is Calibri: no letters in another font, so no code, but
    the whole script (read as code, it was left untranslated, without a word)."""
    document = docx.Document()
    document.styles["Normal"].font.name = "Calibri"
    for line in ("INT. KITCHEN - NIGHT", "Anna opens the window.", "ANNA", "It is cold tonight."):
        document.add_paragraph().add_run(line).font.name = "Courier New"
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["INT. KITCHEN - NIGHT", "ANNA OPENS THE WINDOW.", "ANNA",
                                            "IT IS COLD TONIGHT."]
    assert [p.runs[0].font.name for p in paragraphs] == ["Courier New"] * 4


def test_a_heading_whose_style_is_in_consolas_is_translated(upper):
    """A paragraph style's font is its paragraph's own look, not code's (no theme font beside it)."""
    document = docx.Document()
    fonts = document.styles["Heading 1"].element.get_or_add_rPr().get_or_add_rFonts()
    for key in list(fonts.attrib):
        del fonts.attrib[key]
    fonts.set(qn("w:ascii"), "Consolas")
    document.add_heading("Getting started", 1)
    document.add_paragraph("Open the box.")
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["GETTING STARTED", "OPEN THE BOX."]


def test_lines_of_code_typed_in_consolas_between_paragraphs_of_words_are_kept_whole(upper):
    """Code pasted from an editor, each line a paragraph whose runs are in Consolas: read as words, each came
    back German ("pip install requests": "Ein Ärzzzelzze stellt").  A sentence in Consolas is words."""
    document = docx.Document()
    document.add_paragraph("Open a terminal and type the following lines.")
    for line in ("pip install requests", "print('Hi.')", "A dog runs."):
        document.add_paragraph().add_run(line).font.name = "Consolas"
    document.add_paragraph("The program prints a greeting.")
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["OPEN A TERMINAL AND TYPE THE FOLLOWING LINES.", "pip install requests",
                                            "print('Hi.')", "A DOG RUNS.", "THE PROGRAM PRINTS A GREETING."]


def test_a_paragraph_of_runs_each_in_a_code_style_is_kept_whole(upper):
    """A style says code where a font alone would not: "Verbatim Char" on every run, no other words."""
    document = docx.Document()
    style = document.styles.add_style("Verbatim Char", WD_STYLE_TYPE.CHARACTER)
    paragraph = document.add_paragraph()
    for text in ("make ", "install"):
        paragraph.add_run(text, style).bold = text == "install"
    document.add_paragraph("Run it twice.")
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["make install", "RUN IT TWICE."]
    assert upper.given == ["Run it twice."]


def test_a_theme_font_is_no_monospaced_one(upper):
    """``w:asciiTheme`` names the theme's body font, whatever ``w:ascii`` says beside it."""
    document = word_command(courier)
    fonts = document.paragraphs[0].runs[1]._r.rPr.find(qn("w:rFonts"))
    fonts.set(qn("w:asciiTheme"), "minorHAnsi")
    assert "".join(run_texts(translate(docx_bytes(document), ".docx", upper))) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_code_on_a_slide_and_in_a_cell_is_kept_as_it_is(upper):
    """The same font rule, from the run's own properties: a slide's ``a:latin``, a cell's ``rFont``."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
    for text in COMMAND:
        run = box.text_frame.paragraphs[0].add_run()
        run.text = text
        if text == COMMAND[1]:
            run.font.name = "Consolas"
    slide = pptx.Presentation(io.BytesIO(translate(docx_bytes(deck), ".pptx", upper))).slides[0]
    assert [run.text for run in slide.shapes[0].text_frame.paragraphs[0].runs] == [
        "TYPE ", "ls -l /tmp", " TO LIST THE FILES."]
    book = openpyxl.Workbook()
    book.active["A1"] = CellRichText([COMMAND[0], TextBlock(InlineFont(rFont="Menlo"), COMMAND[1]), COMMAND[2]])
    cell = openpyxl.load_workbook(io.BytesIO(translate(docx_bytes(book), ".xlsx", upper)), rich_text=True).active["A1"]
    assert str(cell.value) == "TYPE ls -l /tmp TO LIST THE FILES."


def test_the_font_is_the_last_layer_that_names_one():
    def layer(fonts: str) -> etree._Element:
        return etree.fromstring(f'<w:rPr xmlns:w="{w("")[1:-1]}">{fonts}</w:rPr>')

    courier_new, theme = layer('<w:rFonts w:ascii="Courier New"/>'), layer('<w:rFonts w:asciiTheme="minorHAnsi"/>')
    assert font_of([courier_new, layer("<w:b/>")]) == "Courier New"
    assert font_of([courier_new, theme]) == ""
    assert font_of([layer("<w:b/>")]) is None


def test_code_styles_are_told_by_name_without_case_or_spaces():
    assert [is_code_style(name) for name in ("HTML Code", "VerbatimChar", "source code", "HTML Variable")] == [
        True, True, True, False]


def test_a_slide_and_a_cell_all_in_consolas_are_translated(upper):
    """Every run in Consolas: no letters in another font beside them, so words (they were left untranslated)."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
    for text in ("The dog ", "runs home."):
        run = box.text_frame.paragraphs[0].add_run()
        run.text, run.font.name, run.font.bold = text, "Consolas", text == "runs home."
    slide = pptx.Presentation(io.BytesIO(translate(docx_bytes(deck), ".pptx", upper))).slides[0]
    assert slide.shapes[0].text_frame.text == "THE DOG RUNS HOME."
    book = openpyxl.Workbook()
    book.active["A1"] = CellRichText([TextBlock(InlineFont(rFont="Consolas"), "The dog "),
                                      TextBlock(InlineFont(rFont="Consolas", b=True), "runs home.")])
    cell = openpyxl.load_workbook(io.BytesIO(translate(docx_bytes(book), ".xlsx", upper)), rich_text=True).active["A1"]
    assert str(cell.value) == "THE DOG RUNS HOME."


def test_a_word_run_in_no_language_is_kept_as_it_is(upper):
    """``w:lang w:val="zxx"``, no linguistic content (what people set on code): translated, it came
    back "LS -L" (a model's German) still saying zxx."""
    data = translate_office(word_in_language("zxx"), ".docx", upper, DocumentOptions(target_lang="de"))
    assert run_texts(data) == ["RUN ", "ls -l", " TO SEE A DOG."]
    assert upper.given == ["Run to see a dog."]
    assert b'<w:lang w:val="zxx"/>' in read_members(data)["word/document.xml"]


@pytest.mark.parametrize("tag", ["und", "mul", "x-none"])
def test_a_word_run_of_an_unknown_or_many_languages_is_translated(upper, tag):
    """und, mul and x-none say the language is not known, or many: words all the same."""
    assert "".join(run_texts(translate(word_in_language(tag), ".docx", upper))) == "RUN LS -L TO SEE A DOG."


def zxx(attributes: str = "") -> etree._Element:
    """A ``w:lang`` stating zxx for Latin text (and ``attributes``: another script's language)."""
    return etree.fromstring(f'<w:lang xmlns:w="{w("")[1:-1]}" w:val="zxx" {attributes}/>')


def test_a_word_paragraph_all_in_no_language_is_kept_whole(upper):
    """As a paragraph of runs each in a code style is: its runs' own zxx.  A paragraph style's zxx is
    the language it states for all its text, words or not: translated."""
    part_number = '<w:r><w:rPr><w:lang w:val="zxx"/></w:rPr><w:t>AB-1234 rev C</w:t></w:r>'
    document = docx.Document(io.BytesIO(word_paragraph(part_number, "<w:r><w:t>Stop here.</w:t></w:r>")))
    style = document.styles.add_style("Part", WD_STYLE_TYPE.PARAGRAPH)
    style.element.get_or_add_rPr().append(zxx())
    document.add_paragraph("A dog runs.", style)
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs if p.text] == ["AB-1234 rev C", "STOP HERE.", "A DOG RUNS."]
    assert upper.given == ["Stop here.", "A dog runs."]


@pytest.mark.parametrize("where", ["document's defaults", "Normal"])
def test_a_word_document_whose_default_language_is_zxx_is_translated(upper, where):
    """LibreOffice's "[None]" default language, saved as .docx, writes ``w:lang w:val="zxx"
    w:eastAsia="zh-CN"`` in w:docDefaults (or Normal says zxx): a language for the whole document, no
    statement about its runs.  Read as the runs' own, every paragraph was kept in English."""
    document = docx.Document()
    for sentence in ("A man runs on the beach.", "Two dogs play."):
        document.add_paragraph(sentence)
    if where == "Normal":
        document.styles["Normal"].element.get_or_add_rPr().append(zxx())
    else:
        defaults = document.styles.element.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}")
        for stated in defaults.findall(w("lang")):
            defaults.remove(stated)
        defaults.append(zxx('w:eastAsia="zh-CN"'))
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["A MAN RUNS ON THE BEACH.", "TWO DOGS PLAY."]


def test_a_run_stating_a_language_in_a_zxx_normal_is_read_with_its_sentence(upper):
    """Normal says zxx, one run ``en-US``: the paragraph is one sentence of words, not an English
    piece among code (which gave the model half a sentence)."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">A man runs </w:t></w:r><w:r><w:rPr><w:lang w:val="en-US"/>'
                          '</w:rPr><w:t>on the beach</w:t></w:r><w:r><w:t>.</w:t></w:r>')
    document = docx.Document(io.BytesIO(data))
    document.styles["Normal"].element.get_or_add_rPr().append(zxx())
    assert "".join(run_texts(translate(docx_bytes(document), ".docx", upper))) == "A MAN RUNS ON THE BEACH."
    assert upper.given == ["A man runs on the beach."]


def test_a_run_stating_a_language_in_a_zxx_character_style_is_words(upper):
    """The run's own ``w:lang`` is more specific than its character style's zxx: English, translated."""
    document = word_command(character_style("Part Number"))
    document.styles["Part Number"].element.get_or_add_rPr().append(zxx())
    run = document.paragraphs[0].runs[1]
    run._r.get_or_add_rPr().append(etree.fromstring(f'<w:lang xmlns:w="{w("")[1:-1]}" w:val="en-US"/>'))
    assert "".join(run_texts(translate(docx_bytes(document), ".docx", upper))) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_zxx_is_the_language_of_latin_text_alone(upper):
    """Chinese text takes its language from ``w:eastAsia``; a zxx ``w:val`` beside it says nothing of
    it: the run is words (it was kept, untranslated, with --source-lang zh)."""
    document = docx.Document()
    document.add_paragraph("我住在东京。").runs[0]._r.get_or_add_rPr().append(zxx('w:eastAsia="zh-CN"'))
    translate_office(docx_bytes(document), ".docx", upper, DocumentOptions(source_lang="zh"))
    assert upper.given == ["我住在东京。"]


def test_a_slide_run_in_no_language_is_kept_as_it_is(upper):
    """DrawingML's ``lang="zxx"`` on a run's own properties."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
    for text in ("Run ", "ls -l", " to see a dog."):
        run = box.text_frame.paragraphs[0].add_run()
        run.text = text
        if text == "ls -l":
            run.font._rPr.set("lang", "zxx")
    data = translate_office(docx_bytes(deck), ".pptx", upper, DocumentOptions(target_lang="de"))
    runs = pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0].text_frame.paragraphs[0].runs
    assert [(run.text, run.font._rPr.get("lang")) for run in runs] == [
        ("RUN ", "de"), ("ls -l", "zxx"), (" TO SEE A DOG.", "de")]
