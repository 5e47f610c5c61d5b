"""Symbols in a symbol font (attnmt.documents.code_look.SYMBOL_FONTS): a run whose letters draw
pictures ("J" in Wingdings is a smiley) is kept whole where it stood, in every office format, and
the model reads the sentence without it.  Read as a word, the smiley was lost and its font went onto
a translated word ("im" drawn in Wingdings).  The Upper stand-in upper-cases every word it is given."""

import io

import docx
import openpyxl
import pptx
import pytest
from lxml import etree
from odf import text
from odf.opendocument import OpenDocumentText, load
from odf.style import FontFace, Style, TextProperties
from office_files import docx_bytes, odf_bytes, odt_span, run_texts, word_paragraph
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from support import everything_listed

from attnmt.documents.code_look import in_symbol_font, is_symbol_font
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.shown import UNNAMED_SYMBOL, has_text_of_its_own, shown_text
from attnmt.documents.wordml import W

SENTENCE = ("A woman is happy ", "J", " in the park.")  # the smiley in a symbol font, the rest words
TRANSLATED = ["A WOMAN IS HAPPY ", "J", " IN THE PARK."]
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def slide_with(properties: str, words: tuple[str, ...] = SENTENCE) -> bytes:
    """A slide of one paragraph of ``words``, the second in a run of ``properties`` (a:rPr's children)."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, 5000000, 900000)
    paragraph = box.text_frame.paragraphs[0]
    for number, words_of_run in enumerate(words):
        run = paragraph.add_run()
        run.text = words_of_run
        if number == 1:
            run._r.get_or_add_rPr().extend(etree.fromstring(f'<a:rPr xmlns:a="{A}">{properties}</a:rPr>'))
    return docx_bytes(deck)


def slide_runs(data: bytes) -> list[str]:
    slide = pptx.Presentation(io.BytesIO(data)).slides[0]
    return [run.text for run in slide.shapes[0].text_frame.paragraphs[0].runs]


def word_sentence(properties: str) -> bytes:
    """A Word paragraph of SENTENCE, the smiley in a run of ``properties`` (w:rPr's children)."""
    before, smiley, after = SENTENCE
    return word_paragraph(f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r>'
                          f'<w:r><w:rPr>{properties}</w:rPr><w:t>{smiley}</w:t></w:r>'
                          f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>')


def test_a_slide_run_in_a_symbol_font_is_kept_where_it_stood(upper):
    assert slide_runs(translate(slide_with('<a:latin typeface="Wingdings"/>'), ".pptx", upper)) == TRANSLATED
    assert upper.given == ["A woman is happy in the park."]


def test_a_slide_runs_a_sym_alone_leaves_its_words_words(upper):
    """``a:sym`` names the font of a run's symbol characters (U+F0xx), not of its letters, and stays on
    the words typed after a symbol: they are translated."""
    words = ("A woman is happy ", "in the park", ".")
    translate(slide_with('<a:latin typeface="Calibri"/><a:sym typeface="Wingdings"/>', words), ".pptx", upper)
    assert upper.given == ["A woman is happy in the park."]


def test_symbols_in_a_symbol_font_at_a_sentence_end_are_kept(upper):
    words = ("A woman is happy in the park. ", "JJ")
    data = translate(slide_with('<a:latin typeface="Wingdings"/>', words), ".pptx", upper)
    assert slide_runs(data) == ["A WOMAN IS HAPPY IN THE PARK. ", "JJ"]
    assert upper.given == ["A woman is happy in the park."]


@pytest.mark.parametrize("properties", ['<w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/>',
                                        '<w:rFonts w:hAnsi="Symbol"/>', '<w:rStyle w:val="Smileys"/>'],
                         ids=["w:ascii", "w:hAnsi", "character style"])
def test_a_word_run_in_a_symbol_font_is_kept_where_it_stood(upper, properties):
    document = docx.Document(io.BytesIO(word_sentence(properties)))
    smileys = document.styles.add_style("Smileys", docx.enum.style.WD_STYLE_TYPE.CHARACTER)
    smileys.font.name = "Webdings"
    assert run_texts(translate(docx_bytes(document), ".docx", upper)) == TRANSLATED
    assert upper.given == ["A woman is happy in the park."]


def test_a_word_paragraph_all_in_a_symbol_font_is_kept_whole(upper):
    """Letters that draw pictures and nothing else: read as words, "JJ" came back as a German sentence."""
    data = word_paragraph('<w:r><w:rPr><w:rFonts w:ascii="Wingdings"/></w:rPr><w:t>JJ</w:t></w:r>')
    assert run_texts(translate(data, ".docx", upper)) == ["JJ"]
    assert upper.given == []


def test_a_word_symbol_element_is_kept_where_it_stood(upper):
    """Word's ``w:sym`` (Insert > Symbol) is an atom of its run, as it was before symbol fonts were read."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">A woman is happy </w:t><w:sym w:font="Wingdings" '
                          'w:char="F04A"/><w:t xml:space="preserve"> in the park.</w:t></w:r>')
    paragraph = docx.Document(io.BytesIO(translate(data, ".docx", upper))).paragraphs[0]._p
    names = [etree.QName(node).localname for node in paragraph.iter()]
    assert [name for name in names if name in ("t", "sym")] == ["t", "sym", "t"]
    assert paragraph.xpath("string(.)") == "A WOMAN IS HAPPY  IN THE PARK."


@pytest.mark.parametrize("char, shown", [
    ("F0B7", "\uf0b7"), ("2022", "\u2022"), ("f04a", "\uf04a"),  # a symbol font's private-use code, Unicode's
    *((char, UNNAMED_SYMBOL) for char in (None, "xyz", "D800", "0020", "0009", "110000"))])
def test_a_word_symbol_shows_the_character_its_char_names(char, shown):
    """Word draws a glyph for ``<w:sym w:char="F0B7" w:font="Symbol"/>`` (a bullet): it showed as nothing,
    as a bookmark does, to the review table and to the spacing of atoms that show text."""
    named = "" if char is None else f' w:char="{char}"'
    symbol = etree.fromstring(f'<w:sym xmlns:w="{W}" w:font="Symbol"{named}/>')
    assert shown_text(symbol) == shown and has_text_of_its_own(symbol)


def test_the_review_table_shows_a_word_symbol_where_it_stood(upper):
    data = word_paragraph('<w:r><w:t xml:space="preserve">A woman is happy </w:t><w:sym w:font="Wingdings" '
                          'w:char="F04A"/><w:t xml:space="preserve"> in the park.</w:t></w:r>')
    review = everything_listed()
    translate_office(data, ".docx", upper, DocumentOptions(), review=review)
    assert [(row["source"], row["translation"]) for row in review.rows()] == [
        ("A woman is happy \uf04a in the park.", "A WOMAN IS HAPPY \uf04a IN THE PARK.")]
    assert upper.given == ["A woman is happy in the park."]


def test_a_rich_text_cell_run_in_a_symbol_font_is_kept_where_it_stood(upper):
    book = openpyxl.Workbook()
    before, smiley, after = SENTENCE
    book.active["A1"] = CellRichText([before, TextBlock(InlineFont(rFont="Wingdings"), smiley), after])
    cell = openpyxl.load_workbook(io.BytesIO(translate(docx_bytes(book), ".xlsx", upper)), rich_text=True).active["A1"]
    assert [str(block) for block in cell.value] == TRANSLATED
    assert upper.given == ["A woman is happy in the park."]


def odt_pieces(data: bytes) -> list[str]:
    paragraph = load(io.BytesIO(data)).text.getElementsByType(text.P)[0]
    return [str(node) for node in paragraph.childNodes]


def wingdings_face() -> bytes:
    """SENTENCE in an .odt, the smiley in a span whose style names the font face "Wingdings"."""
    made = OpenDocumentText()
    made.fontfacedecls.addElement(FontFace(name="Wingdings", fontfamily="Wingdings", fontcharset="x-symbol"))
    smileys = Style(name="T1", family="text")
    smileys.addElement(TextProperties(fontname="Wingdings"))
    made.automaticstyles.addElement(smileys)
    paragraph = text.P(text=SENTENCE[0])
    paragraph.addElement(text.Span(stylename=smileys, text=SENTENCE[1]))
    paragraph.addText(SENTENCE[2])
    made.text.addElement(paragraph)
    return odf_bytes(made)


@pytest.mark.parametrize("made", [wingdings_face, lambda: odt_span(*SENTENCE, fontfamily="'Wingdings'")],
                         ids=["style:font-name", "fo:font-family"])
def test_an_odt_span_in_a_symbol_font_is_kept_where_it_stood(upper, made):
    assert odt_pieces(translate(made(), ".odt", upper)) == TRANSLATED
    assert upper.given == ["A woman is happy in the park."]


def test_symbol_fonts_are_told_by_name_without_case():
    assert [is_symbol_font(name) for name in ("Wingdings", "wingdings 3", " Symbol ", "Segoe UI", None)] == [
        True, True, True, False, False]


def test_a_runs_symbol_font_is_its_latin_font():
    def layer(children: str) -> etree._Element:
        return etree.fromstring(f'<a:rPr xmlns:a="{A}">{children}</a:rPr>')

    assert in_symbol_font([layer('<a:latin typeface="Arial"/>'), layer('<a:latin typeface="Webdings"/>')])
    assert not in_symbol_font([layer('<a:latin typeface="Webdings"/>'), layer('<a:latin typeface="Arial"/>')])
    assert not in_symbol_font([layer('<a:latin typeface="Arial"/><a:sym typeface="Webdings"/>')])
