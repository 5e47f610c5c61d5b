"""Word's styles (its styles.xml part) as they reach a run: the run properties a run takes from
the document's defaults (``w:docDefaults/w:rPrDefault``), from the style of the table it is in
(``w:tblStyle``), from its paragraph's style (``w:pStyle``) and from its character style
(``w:rStyle``), each style with those of the styles it is based on (``w:basedOn``): Word's order.
A paragraph or run that states no style, or one the document lacks, takes the default style of
its kind, as Word and LibreOffice show it; a table that states none, the default table style.
Of a table style its own run properties are read, then those of its conditional part for the whole
table (``w:tblStylePr w:type="wholeTable"``), not those of its other conditional parts (the header
row's, the first column's, banded rows'), which depend on where the cell stands.
A run's own properties come after all of these and override them: an underline
from the paragraph's style is taken off by the run's ``w:u w:val="none"``.
attnmt.documents.ooxml asks whether the look of a paragraph's plain text shows on a space
(formatting.shows_on_spaces), which a style's underline does as a run's own does, and whether a
run looks as code (code_look): a style meant for code says so, as a monospaced font does, a style's
or its own, where it is not the paragraph's own font."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from lxml import etree

from attnmt.documents.code_look import font_of, has_no_words, in_symbol_font, is_code_style, is_monospaced
from attnmt.documents.wordml import TABLE_OR_STORY, Hiding, hides, w


@dataclass(frozen=True)
class WordStyles:
    """The run properties of each style (its id -> its ``w:rPr``, None where it has none), each
    style's type (``paragraph``, ``character``, ``table``), the style each is based on, the
    defaults' ``w:rPr``, the default style of each type (its id) and each style's name (``w:name``,
    else its id); and each style's paragraph properties (``w:pPr``) and the defaults', and its table
    properties (``w:tblPr``), which say whether a paragraph is laid out right to left and a table's
    columns from the right (attnmt.documents.ooxml_language.set_direction)."""

    properties: dict[str, etree._Element | None] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    based_on: dict[str, str] = field(default_factory=dict)
    defaults: etree._Element | None = None
    default_styles: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    paragraph_properties: dict[str, etree._Element | None] = field(default_factory=dict)  # each style's w:pPr
    paragraph_defaults: etree._Element | None = None
    table_properties: dict[str, etree._Element | None] = field(default_factory=dict)  # each style's w:tblPr
    whole_table: dict[str, etree._Element | None] = field(default_factory=dict)  # a table style's wholeTable w:rPr

    @classmethod
    def of(cls, root: etree._Element) -> WordStyles:
        """The styles of a styles.xml part (its root, ``w:styles``)."""
        properties: dict[str, etree._Element | None] = {}
        kinds: dict[str, str] = {}
        based_on: dict[str, str] = {}
        default_styles: dict[str, str] = {}
        names: dict[str, str] = {}
        paragraph_properties: dict[str, etree._Element | None] = {}
        table_properties: dict[str, etree._Element | None] = {}
        whole_table: dict[str, etree._Element | None] = {}
        for style in root.iterchildren(w("style")):
            name, kind = style.get(w("styleId")), style.get(w("type"), "paragraph")  # the type Word takes unsaid
            if name is None:
                continue
            properties[name], kinds[name] = style.find(w("rPr")), kind
            paragraph_properties[name], table_properties[name] = style.find(w("pPr")), style.find(w("tblPr"))
            whole_table[name] = style.find(f"{w('tblStylePr')}[@{w('type')}='wholeTable']/{w('rPr')}")
            label = style.find(w("name"))
            names[name] = (None if label is None else label.get(w("val"))) or name
            parent = style.find(w("basedOn"))
            if parent is not None and parent.get(w("val")):
                based_on[name] = parent.get(w("val"))
            if style.get(w("default")) in ("1", "true", "on"):
                default_styles.setdefault(kind, name)
        return cls(properties, kinds, based_on,
                   root.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}"), default_styles, names,
                   paragraph_properties, root.find(f"{w('docDefaults')}/{w('pPrDefault')}/{w('pPr')}"),
                   table_properties, whole_table)

    @cached_property
    def hiding(self) -> Hiding:
        """What the styles say of hiding a run's text (wordml.Hiding, wordml.is_hidden_run): the defaults'
        ``w:vanish`` or ``w:specVanish`` (wordml.hides), and each table, paragraph and character style's, the last
        say of its chain (the style's own, else that of a style it is based on, ``w:basedOn``).  ``w:vanish`` is a
        toggle property (ECMA-376 17.7.3): each level that turns it on turns the state so far over (Hiding.hides)."""
        default = bool(self.defaults is not None and hides(self.defaults))
        layers = {name: self.table_layers_of(name) if kind == "table" else self.chain(name)
                  for name, kind in self.kinds.items()}
        says = {name: next((said for said in (hides(layer) for layer in reversed(layers[name]) if layer is not None)
                            if said is not None), None) for name in self.kinds}
        paragraph = {name: bool(says[name]) for name, kind in self.kinds.items() if kind == "paragraph"}
        character = {name: bool(says[name]) for name, kind in self.kinds.items() if kind == "character"}
        table = {name: bool(says[name]) for name, kind in self.kinds.items() if kind == "table"}
        return Hiding(default, paragraph, character, self.default_styles.get("paragraph"),
                      self.default_styles.get("character"), table, self.default_styles.get("table"))

    def paragraph_layers(self, paragraph: etree._Element) -> list[etree._Element]:
        """The paragraph properties ``paragraph``'s styles give it, weakest first: the defaults', then
        its paragraph style's (after those of the styles it is based on); not its own ``w:pPr``."""
        style = self.style(paragraph.find(f"{w('pPr')}/{w('pStyle')}"), "paragraph")
        found = [self.paragraph_defaults, *self.chain(style, self.paragraph_properties)]
        return [properties for properties in found if properties is not None]

    def table_layers(self, table: etree._Element) -> list[etree._Element]:
        """The table properties ``table``'s style gives it, weakest first (those of the styles it is
        based on, then its own style's); not its own ``w:tblPr``."""
        style = self.style(table.find(f"{w('tblPr')}/{w('tblStyle')}"), "table")
        return [properties for properties in self.chain(style, self.table_properties) if properties is not None]

    def layers(self, run: etree._Element | None, paragraph: etree._Element) -> list[etree._Element]:
        """The run properties that give ``run`` (None: a run with no properties of its own) in
        ``paragraph`` its look, weakest first: the defaults', the table style's (in a table), the
        paragraph style's, the character style's (each style after those it is based on), then
        the run's own."""
        own = None if run is None else run.find(w("rPr"))
        return [*self.styled_layers(own, paragraph), *([] if own is None else [own])]

    def styled_layers(self, own: etree._Element | None, paragraph: etree._Element) -> list[etree._Element]:
        """The run properties the styles give a run (or a paragraph mark) whose own are ``own`` (None:
        none) in ``paragraph``, weakest first: layers without the run's own, which override them."""
        found = [self.defaults,
                 *self.table_chain(paragraph),
                 *self.chain(self.style(paragraph.find(f"{w('pPr')}/{w('pStyle')}"), "paragraph")),
                 *self.chain(self.style(None if own is None else own.find(w("rStyle")), "character"))]
        return [properties for properties in found if properties is not None]

    def table_chain(self, paragraph: etree._Element) -> list[etree._Element | None]:
        """The chain of the style of the table whose cell holds ``paragraph``; none outside a table,
        nor in a text box (a story of its own) in a table's cell."""
        return self.table_layers_of(self.table_style(paragraph))

    def table_layers_of(self, name: str | None) -> list[etree._Element | None]:
        """The run properties table style ``name`` gives its cells' text, the furthest first: of each style of
        its lineage, its own ``w:rPr``, then its ``wholeTable`` conditional part's."""
        return [layer for style in self.lineage(name) for layer in (self.properties.get(style),
                                                                      self.whole_table.get(style))]

    def table_style(self, paragraph: etree._Element) -> str | None:
        """The id of the style of the table whose cell holds ``paragraph`` (style: the default table
        style where it states none); None outside a table, and in a text box in a table's cell."""
        holder = next(paragraph.iterancestors(*TABLE_OR_STORY), None)
        if holder is None or holder.tag != w("tbl"):
            return None
        return self.style(holder.find(f"{w('tblPr')}/{w('tblStyle')}"), "table")

    def style(self, stated: etree._Element | None, kind: str) -> str | None:
        """The id of the style of type ``kind`` that ``stated`` (a ``w:pStyle``, ``w:rStyle`` or
        ``w:tblStyle``; None: none) names, else the default style of that type: a paragraph whose
        ``w:pStyle`` names a style the document lacks looks as Normal, in Word and LibreOffice."""
        name = None if stated is None else stated.get(w("val"))
        return name if name is not None and self.kinds.get(name) == kind else self.default_styles.get(kind)

    def chain(self, name: str | None,
              properties: Mapping[str, etree._Element | None] | None = None) -> list[etree._Element | None]:
        """The run properties of style ``name`` and of the styles it is based on, the furthest first;
        or, given each style's ``properties`` of another kind (its ``w:pPr``, its ``w:tblPr``), those."""
        of = self.properties if properties is None else properties
        return [of.get(style) for style in self.lineage(name)]

    def lineage(self, name: str | None) -> list[str]:
        """Style ``name`` and the styles it is based on, the furthest first (a loop of ``w:basedOn``,
        which Word would not write, is followed once round)."""
        lineage: list[str] = []
        while name is not None and name in self.properties and name not in lineage:
            lineage.insert(0, name)
            name = self.based_on.get(name)
        return lineage

    def code_look(self, run: etree._Element, paragraph: etree._Element) -> tuple[bool, bool]:
        """Whether ``run`` in ``paragraph`` is in a style meant for code (code_look.is_code_style: its
        paragraph style or its character style, or one it is based on: pandoc's highlighted
        ``KeywordTok`` on "Verbatim Char") or stated as in no language (code_look.has_no_words: ``zxx``,
        its own or its character style's: own_layers) or in a symbol font (code_look.in_symbol_font: a
        Wingdings smiley, kept whole as such a run is), and whether in a monospaced font (code_look.is_monospaced)
        that is not its paragraph's own, the font a run of no look of its own has there: a manuscript
        whose Normal is Courier, a heading whose style is in Consolas, are in their own font, not code's."""
        own = run.find(w("rPr"))
        styles = [*self.lineage(self.style(paragraph.find(f"{w('pPr')}/{w('pStyle')}"), "paragraph")),
                  *self.lineage(self.style(None if own is None else own.find(w("rStyle")), "character"))]
        font, body = font_of(self.layers(run, paragraph)), font_of(self.layers(None, paragraph))
        return (any(is_code_style(self.names.get(style, style)) for style in styles)
                or has_no_words(self.own_layers(run), run) or in_symbol_font(self.layers(run, paragraph)),
                font is not None and is_monospaced(font) and (body is None or font.casefold() != body.casefold()))

    def own_layers(self, run: etree._Element) -> list[etree._Element]:
        """The run properties ``run`` states itself, weakest first: its character style's (``w:rStyle``,
        after the styles it is based on), then its own; not the defaults', Normal's or its paragraph
        style's, which state a language for all their text, words or not (LibreOffice's "[None]")."""
        own = run.find(w("rPr"))
        stated = None if own is None else own.find(w("rStyle"))
        found = [*([] if stated is None else self.chain(self.style(stated, "character"))), own]
        return [properties for properties in found if properties is not None]
