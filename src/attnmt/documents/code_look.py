"""Code in an office paragraph, told by its look: a run in a monospaced font (``ls -l /tmp`` in
Courier New) or in a style meant for code (Word's "HTML Code", pandoc's "Verbatim Char" and
"Source Code").  attnmt.documents.ooxml keeps such a run whole (and attnmt.documents.opendocument
such a span, told by attnmt.documents.opendocument_code with these lists), an atom as HTML's
inline ``<code>`` is: read as words, the model translated the command and it was lost.  A paragraph in a
style meant for code, or of runs each in one, is kept whole, as HTML's ``<pre>`` is.  A font alone
makes code only inline, beside letters in a font that is not monospaced: a paragraph all in one (a
screenplay in Courier, a slide in Consolas, a heading whose style is in Consolas) is words, but for a
Word paragraph of code typed run by run in one among words (attnmt.documents.code_paragraphs).
Text stated as in no language (``zxx``: language.says_no_words, LibreOffice's "[None]", what people
set on code and part numbers) is code as a style meant for code is: translated, it came back German
words tagged "no language".

A language is the one a run's properties state for Latin text: Word's ``w:lang`` ``w:val``,
DrawingML's ``lang``; the last layer that states one wins, as for fonts (language_of), so a run's own
``en-US`` in a zxx character style is English.  Only the run's own statement counts, its character
style's or its own properties' (has_no_words): a document's defaults, its Normal and its paragraph
styles state one language for all their text, and LibreOffice's "[None]" default language writes zxx
there for a whole document of words.  Nor does it count for letters of other scripts (a Chinese
run's language is its ``w:eastAsia``, an Arabic one's its ``w:bidi``: latin_letters_only).

A font is the one a run's properties name for Latin text: Word's ``w:rFonts`` (``w:ascii``, else
``w:hAnsi``), DrawingML's ``a:latin`` (a slide's), SpreadsheetML's ``rFont`` (a rich-text cell's).
A theme's font (Word's ``w:asciiTheme``, DrawingML's ``+mn-lt``) is no monospaced one: themes
name body and heading fonts, not code's.

A run in a symbol font (SYMBOL_FONTS: Wingdings, Symbol, Webdings, a font of icons) is kept whole, as one
in a style meant for code is, wherever it stands (in_symbol_font): its letters draw pictures ("J" in
Wingdings is a smiley, "a" in Symbol an alpha), not words.  Read as words, the model dropped the smiley
and its font went onto the translated words beside it ("im" drawn in Wingdings).  Its font is its Latin
font (font_of).  A slide run's ``a:sym`` is not read: it names the font of the run's symbol characters
(the Private Use Area's U+F0xx, which markers.is_symbols keeps whole already), and stays on the words
typed after a symbol, which are drawn in the run's Latin font."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lxml import etree

from attnmt.documents.closing_marks import SENTENCE_ENDS
from attnmt.documents.flat import has_words
from attnmt.documents.language import says_no_words

# A sentence's end: a stop after a word (a closing quote or bracket between), spaces after it
SENTENCE_END = re.compile(f"\\w[\"'\u201d\u2019)\\]]*[{re.escape(''.join(SENTENCE_ENDS))}]+\\W*\\Z")
# What a line of code that ends like a sentence shows and a sentence does not (reads_as_code): a name
# glued to a call's bracket and a quote, an assignment of a string at the line's start, a prompt.
CODE_SIGNS = re.compile(r"\w\(\s*[\"']|\A\s*[\w.\[\]]+\s*[-+*/]?=\s*[\"']|\A\s*(?:\$|>>>)\s")
# Common monospaced families, as documents name them (compared without case).
MONOSPACED = frozenset(name.casefold() for name in (
    "Courier New", "Courier", "Courier 10 Pitch", "Consolas", "Lucida Console", "Lucida Sans Typewriter",
    "Menlo", "Monaco", "SF Mono", "Andale Mono", "Source Code Pro", "DejaVu Sans Mono",
    "Bitstream Vera Sans Mono", "Liberation Mono", "Nimbus Mono PS", "Nimbus Mono L", "FreeMono",
    "Noto Sans Mono", "Noto Mono", "Droid Sans Mono", "Cascadia Code", "Cascadia Mono", "Fira Code",
    "Fira Mono", "JetBrains Mono", "Roboto Mono", "Ubuntu Mono", "IBM Plex Mono", "Inconsolata", "Hack",
    "PT Mono", "Anonymous Pro"))
# Symbol and icon fonts, as documents name them (compared without case): their letters draw pictures.
SYMBOL_FONTS = frozenset(name.casefold() for name in (
    "Wingdings", "Wingdings 2", "Wingdings 3", "Webdings", "Symbol", "Marlett", "MT Extra", "ZapfDingbats",
    "Zapf Dingbats", "ITC Zapf Dingbats", "Dingbats", "Monotype Sorts", "MS Reference Specialty",
    "Bookshelf Symbol 7", "OpenSymbol", "StarSymbol", "Segoe MDL2 Assets", "Segoe Fluent Icons", "Font Awesome",
    "FontAwesome", "Font Awesome 5 Free", "Font Awesome 5 Brands", "Font Awesome 6 Free", "Font Awesome 6 Brands",
    "Material Icons", "Material Symbols Outlined"))
# The styles meant for code, by name, compared without case or spaces (a style's id is often its name
# without spaces): Word's built-in styles for HTML's code, keyboard input, sample output, teletype
# text and preformatted blocks (not "HTML Variable", italics for a name in prose), the linked
# character styles Word makes of such paragraph styles, pandoc's inline and block code, the names
# Markdown converters give code, and LibreOffice's "Source Text" and "Preformatted Text".
CODE_STYLES = frozenset(("htmlcode", "htmlkeyboard", "htmlsample", "htmltypewriter", "htmlpreformatted",
                         "htmlpreformattedchar", "verbatimchar", "sourcecode", "code", "codechar", "inlinecode",
                         "sourcetext", "preformattedtext"))


def stated_font(properties: etree._Element) -> str | None:
    """The Latin font one layer of run properties names ("" for a theme's font), None where it names none."""
    for child in properties:
        name = etree.QName(child).localname if isinstance(child.tag, str) else ""
        said = {etree.QName(key).localname: value for key, value in child.attrib.items()}
        if name == "rFonts":
            if "asciiTheme" in said or ("ascii" not in said and "hAnsiTheme" in said):
                return ""
            if "ascii" in said or "hAnsi" in said:
                return said.get("ascii", said.get("hAnsi"))
        elif name == "latin" and "typeface" in said:
            return "" if said["typeface"].startswith("+") else said["typeface"]
        elif name == "rFont" and "val" in said:
            return said["val"]
    return None


def font_of(layers: Sequence[etree._Element]) -> str | None:
    """The font of a run whose look ``layers`` give, weakest first: the last that names one."""
    return last_stated(layers, stated_font)


def last_stated(layers: Sequence[etree._Element], stated: Callable[[etree._Element], str | None]) -> str | None:
    """What the last of ``layers`` (a run's look, weakest first) that states anything ``stated`` reads states."""
    return next((value for value in map(stated, reversed(layers)) if value is not None), None)


def in_symbol_font(layers: Sequence[etree._Element]) -> bool:
    """Whether a run whose look ``layers`` give, weakest first, is in a symbol font: its Latin font (font_of)
    is one (is_symbol_font)."""
    return is_symbol_font(font_of(layers))


def stated_language(properties: etree._Element) -> str | None:
    """The language one layer of run properties states for Latin text, None where it states none."""
    if properties.get("lang") is not None:  # DrawingML's a:rPr
        return properties.get("lang")
    for child in properties:
        if isinstance(child.tag, str) and etree.QName(child).localname == "lang":  # Word's w:lang
            return next((value for key, value in child.attrib.items() if etree.QName(key).localname == "val"), None)
    return None


def language_of(layers: Sequence[etree._Element]) -> str | None:
    """The language of a run whose look ``layers`` give, weakest first: the last that states one."""
    return last_stated(layers, stated_language)


def has_no_words(layers: Sequence[etree._Element], run: etree._Element) -> bool:
    """Whether ``run``, whose own look ``layers`` give (its character style's, then its own properties:
    not its paragraph's or the document's), says it has no words (``zxx``): code, as a style meant for
    code is.  The language stated is for Latin text alone (latin_letters_only)."""
    return is_wordless(language_of(layers), "".join(run.itertext()))


def is_wordless(language: str | None, text: str) -> bool:
    """Whether ``text``, stated as in ``language``, is code by its language: ``zxx`` (says_no_words), for
    Latin letters alone (latin_letters_only: a zxx run of Chinese is words).  Word's, PowerPoint's and
    OpenDocument's runs are read by this one rule."""
    return says_no_words(language) and latin_letters_only(text)


# Where letters of the scripts that a run's Latin language (Word's w:lang w:val) covers lie, as
# [first, last + 1) bounds: Latin, Greek, Cyrillic, Armenian and Georgian with their extensions.  The
# others are East Asian (w:eastAsia: Chinese, Japanese, Korean) or complex (w:bidi: Arabic, Hebrew, Thai).
LATIN_LETTERS = ((0x0000, 0x0590), (0x10A0, 0x1100), (0x1D00, 0x2000), (0x2C60, 0x2C80), (0xA720, 0xA800),
                 (0xAB30, 0xAB70), (0xFB00, 0xFB07))


def latin_letters_only(text: str) -> bool:
    """Whether every letter of ``text`` is of a script a run's Latin language covers (LATIN_LETTERS):
    "ls -l" is, "我住在东京。" is not (Word reads its language from ``w:eastAsia``)."""
    return all(any(first <= ord(character) < last for first, last in LATIN_LETTERS)
               for character in text if character.isalpha())


def is_monospaced(font: str | None) -> bool:
    """Whether ``font`` is one of the common monospaced families (MONOSPACED)."""
    return font is not None and font.strip().casefold() in MONOSPACED


def is_symbol_font(font: str | None) -> bool:
    """Whether ``font`` is one of the symbol and icon fonts (SYMBOL_FONTS)."""
    return font is not None and font.strip().casefold() in SYMBOL_FONTS


def is_code_style(name: str) -> bool:
    """Whether a style of this name (or id) is meant for code (CODE_STYLES)."""
    return "".join(name.split()).casefold() in CODE_STYLES


def reads_as_code(text: str) -> bool:
    """Whether a block's ``text``, all in a monospaced font, reads as code, not as a sentence set in Courier: it
    has words and does not end in a stop after them (``A dog runs.`` is words, ``docker build .`` code), or,
    where it ends like a sentence, its stop is code's (CODE_SIGNS: ``print('Hi.')``, ``greeting = "Good
    morning."``, ``$ echo Done.``)."""
    return has_words(text) and (not SENTENCE_END.search(text) or bool(CODE_SIGNS.search(text)))
