"""The remembered looks of Word's styles (attnmt.documents.word_looks): CachedWordStyles tells each
run's look as code exactly as the readable WordStyles.code_look does, on a styles part with the
turns that could tell them apart, and reads each combination of styles once."""

import itertools

import pytest
from lxml import etree

from attnmt.documents.word_looks import CachedWordStyles
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import w

W = w("")[1:-1]

# Fonts and languages at every level of a chain: Normal in no font (the defaults' none either);
# "Mono" in Consolas, "Listing" based on it in no font of its own and "Source Code" (a code style by
# name) on that; "Verbatim Char" (another) under "Keyword", whose bold toggles its parent's off; a
# zxx character style and an English one based on it; a default character style in Courier New and
# zxx (whose language counts only where a run states it); a theme font over a monospaced one; a
# default table style in Courier; a character style in Wingdings and runs in Symbol (symbol fonts:
# code_look.in_symbol_font); and a loop of w:basedOn.
STYLES = f"""<w:styles xmlns:w="{W}">
  <w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="en-US"/></w:rPr></w:rPrDefault></w:docDefaults>
  <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:sz w:val="22"/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="Mono"><w:basedOn w:val="Normal"/>
    <w:rPr><w:rFonts w:ascii="Consolas"/><w:b/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="Listing"><w:basedOn w:val="Mono"/><w:rPr><w:b w:val="0"/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="Themed"><w:basedOn w:val="Mono"/>
    <w:rPr><w:rFonts w:asciiTheme="minorHAnsi"/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/><w:basedOn w:val="Listing"/>
  </w:style>
  <w:style w:type="paragraph" w:styleId="Zxx"><w:basedOn w:val="Normal"/><w:rPr><w:lang w:val="zxx"/></w:rPr></w:style>
  <w:style w:type="character" w:default="1" w:styleId="Plain">
    <w:rPr><w:rFonts w:ascii="Courier New"/><w:lang w:val="zxx"/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/>
    <w:rPr><w:b/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="Keyword"><w:basedOn w:val="VerbatimChar"/>
    <w:rPr><w:b w:val="0"/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="NoWords"><w:rPr><w:lang w:val="zxx"/><w:rFonts w:ascii="Menlo"/></w:rPr>
  </w:style>
  <w:style w:type="character" w:styleId="English"><w:basedOn w:val="NoWords"/><w:rPr><w:lang w:val="en-GB"/></w:rPr>
  </w:style>
  <w:style w:type="character" w:styleId="Loop"><w:basedOn w:val="Round"/><w:rPr><w:i/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="Round"><w:basedOn w:val="Loop"/><w:rPr><w:rFonts w:ascii="Menlo"/></w:rPr>
  </w:style>
  <w:style w:type="character" w:styleId="Smileys"><w:rPr><w:rFonts w:ascii="Wingdings"/></w:rPr></w:style>
  <w:style w:type="table" w:default="1" w:styleId="Grid"><w:rPr><w:rFonts w:ascii="Courier"/></w:rPr></w:style>
</w:styles>"""

PARAGRAPH_STYLES = [None, "Normal", "Mono", "Listing", "Themed", "SourceCode", "Zxx", "VerbatimChar", "Gone"]
CHARACTER_STYLES = [None, "Plain", "VerbatimChar", "Keyword", "NoWords", "English", "Loop", "Smileys", "Gone"]
OWN = ["", '<w:rFonts w:ascii="Courier New"/>', '<w:rFonts w:ascii="Courier"/>', '<w:rFonts w:ascii="Calibri"/>',
       '<w:rFonts w:asciiTheme="majorHAnsi"/>', '<w:lang w:val="zxx"/>', '<w:lang w:val="de-DE"/>', "<w:b/>",
       '<w:rFonts w:ascii="Symbol"/>']
TEXTS = ["ls -l", "我住在东京"]  # a zxx run of Chinese letters is words


def paragraph_xml(style: str | None) -> str:
    """A paragraph in ``style`` (None: it states none) holding a run of each (character style, own
    properties, text), and a run with no properties at all."""
    runs = ["<w:r><w:t>plain</w:t></w:r>"]
    for character, own, text in itertools.product(CHARACTER_STYLES, OWN, TEXTS):
        stated = "" if character is None else f'<w:rStyle w:val="{character}"/>'
        runs.append(f"<w:r><w:rPr>{stated}{own}</w:rPr><w:t>{text}</w:t></w:r>")
    properties = "" if style is None else f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>'
    return f"<w:p>{properties}{''.join(runs)}</w:p>"


def body() -> etree._Element:
    """Each paragraph style's paragraph outside a table, in a table's cell (its default table style),
    in a cell of a table that states a paragraph style's id as its style, and in a text box in a cell."""
    paragraphs = "".join(paragraph_xml(style) for style in PARAGRAPH_STYLES)
    text_box = f"<w:p><w:r><w:txbxContent>{paragraphs}</w:txbxContent></w:r></w:p>"
    return etree.fromstring(
        f'<w:body xmlns:w="{W}">{paragraphs}<w:tbl><w:tr><w:tc>{paragraphs}{text_box}</w:tc></w:tr></w:tbl>'
        f'<w:tbl><w:tblPr><w:tblStyle w:val="Mono"/></w:tblPr><w:tr><w:tc>{paragraphs}</w:tc></w:tr></w:tbl></w:body>')


def looks(styles: WordStyles, root: etree._Element) -> list[tuple[bool, bool]]:
    """code_look of every run under ``root`` that holds text, in document order."""
    return [styles.code_look(run, next(run.iterancestors(w("p")))) for run in root.iter(w("r"))
            if run.find(w("t")) is not None]


@pytest.mark.parametrize("default_character_style", [True, False])
def test_the_remembered_looks_are_the_readable_ones(default_character_style):
    """With Plain the default character style, and with none (a paragraph's own font then may be none)."""
    root = etree.fromstring(STYLES if default_character_style else STYLES.replace('w:default="1" w:styleId="Plain"',
                                                                                   'w:styleId="Plain"'))
    remembered, readable = looks(CachedWordStyles.of(root), body()), looks(WordStyles.of(root), body())
    assert remembered == readable
    assert set(readable) == {(False, False), (False, True), (True, False), (True, True)}  # the turns are all met


def test_each_combination_of_styles_is_read_once():
    """A paragraph of Normal (stated by none) outside a table, its runs in 9 character styles:
    one look for each style a run is in, "Gone" (which the document lacks) read as Plain, the default
    character style, and Plain stated apart from Plain unstated (whose language does not count)."""
    styles = CachedWordStyles.of(etree.fromstring(STYLES))
    looks(styles, etree.fromstring(f'<w:body xmlns:w="{W}">{paragraph_xml(None)}</w:body>'))
    assert set(styles.looks) == {(None, "Normal", "Plain", False), *((None, "Normal", character, True) for character in
                                 ("Plain", "VerbatimChar", "Keyword", "NoWords", "English", "Loop", "Smileys"))}
