"""Word's styles read once for each combination a run can be in: CachedWordStyles gives the looks
word_styles.WordStyles.code_look gives, the readable reference it stands in for (a test proves them
equal), without walking the style chains again for each run.  attnmt.documents.ooxml asks for a
run's look as code for every run of every paragraph, several times; each time the reference read
the defaults', the table style's, the paragraph style's and the character style's run properties
twice over (the run's font and its paragraph's), and a 20,000-paragraph document spent most of its
reading there.  A document has a few styles and many runs: what the styles say is remembered per
(table style, paragraph style, character style), and only the run's own properties are read per run.
(``word_styles``: a Word file's styles, read from its package.)"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from attnmt.documents.archive import Archive, parse_part
from attnmt.documents.code_look import (
    font_of,
    is_code_style,
    is_monospaced,
    is_symbol_font,
    is_wordless,
    language_of,
    stated_font,
    stated_language,
)
from attnmt.documents.tables import relationships
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import w
from attnmt.errors import DataError


@dataclass(frozen=True)
class StyleLook:
    """What the styles a run is in say of its look as code, before its own properties."""

    styled: bool  # its paragraph style, its character style or one they are based on is meant for code
    font: str | None  # the font the styles give it (the defaults', the table's, the paragraph's, the character's)
    body: str | None  # its paragraph's own font: that of a run of no look of its own there
    language: str | None  # the language its stated character style gives it (None: it states none)


# (table style, paragraph style, character style, whether the run states its character style)
LookKey = tuple[str | None, str | None, str | None, bool]


@dataclass(frozen=True)
class CachedWordStyles(WordStyles):
    """WordStyles whose code_look remembers each StyleLook it has read (``looks``, by LookKey)."""

    looks: dict[LookKey, StyleLook] = field(default_factory=dict, compare=False, repr=False)

    def code_look(self, run: etree._Element, paragraph: etree._Element) -> tuple[bool, bool]:
        """WordStyles.code_look: the styles' look (StyleLook) remembered, then the run's own properties
        over it (a run's own font or language wins, as the last layer does)."""
        own = run.find(w("rPr"))
        stated = None if own is None else own.find(w("rStyle"))
        key = (self.table_style(paragraph), self.style(paragraph.find(f"{w('pPr')}/{w('pStyle')}"), "paragraph"),
               self.style(stated, "character"), stated is not None)
        look = self.looks.get(key)
        if look is None:
            look = self.looks[key] = self.style_look(*key)
        font = None if own is None else stated_font(own)
        font = look.font if font is None else font
        language = None if own is None else stated_language(own)
        language = look.language if language is None else language
        return (look.styled or is_wordless(language, "".join(run.itertext())) or is_symbol_font(font),
                font is not None and is_monospaced(font)
                and (look.body is None or font.casefold() != look.body.casefold()))

    def style_look(self, table: str | None, paragraph: str | None, character: str | None,
                   stated: bool) -> StyleLook:
        """What styles ``table``, ``paragraph`` and ``character`` (ids; None: none) say of a run's look,
        read as WordStyles.code_look reads them; ``stated``: whether the run states its character
        style, whose language then counts (WordStyles.own_layers)."""
        base = [self.defaults, *self.chain(table), *self.chain(paragraph)]
        lineages = [*self.lineage(paragraph), *self.lineage(character)]
        return StyleLook(
            styled=any(is_code_style(self.names.get(style, style)) for style in lineages),
            font=font_of(present([*base, *self.chain(character)])),
            body=font_of(present([*base, *self.chain(self.style(None, "character"))])),
            language=language_of(present(self.chain(character))) if stated else None)


def present(layers: list[etree._Element | None]) -> list[etree._Element]:
    """``layers`` without the styles that state no run properties (None)."""
    return [layer for layer in layers if layer is not None]


def word_styles(archive: Archive, main: str) -> WordStyles:
    """The styles of a Word file (its main part's styles part: word/styles.xml), none where it has
    none or where it does not parse (empty, cut short): they only decide where a run's edge space
    goes, which runs are code and which hidden, and Word and LibreOffice open such a file with their
    default styles, so its text is translated as before styles were read (``--target-lang``, which
    writes into the part, still refuses it).  attnmt.documents.ooxml_parts reads its paragraphs with
    them, attnmt.documents.bound_controls what a bound control shows."""
    member = next((related.member for related in relationships(archive, main).values()
                   if related.kind.endswith("/styles") and related.member in archive), None)
    try:
        return CachedWordStyles() if member is None else CachedWordStyles.of(parse_part(archive, member).getroot())
    except DataError:
        return CachedWordStyles()
