"""Word's styles (its styles.xml part) as they reach a run: the run properties a run takes from
the document's defaults (``w:docDefaults/w:rPrDefault``), from its paragraph's style (``w:pStyle``,
else the default paragraph style) and from its character style (``w:rStyle``), each style with
those of the styles it is based on (``w:basedOn``).  A run's own properties come after all of
these and override them: an underline from the paragraph's style is taken off by the run's
``w:u w:val="none"``.  attnmt.documents.ooxml asks whether the look of a paragraph's plain text
shows on a space (formatting.shows_on_spaces), which a style's underline does as a run's own does."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from attnmt.documents.wordml import w


@dataclass(frozen=True)
class WordStyles:
    """The run properties of each style (its id -> its ``w:rPr``, None where it has none), the style
    each is based on, the defaults' ``w:rPr`` and the default paragraph and character styles' ids."""

    properties: dict[str, etree._Element | None] = field(default_factory=dict)
    based_on: dict[str, str] = field(default_factory=dict)
    defaults: etree._Element | None = None
    default_paragraph: str | None = None
    default_character: str | None = None

    @classmethod
    def of(cls, root: etree._Element) -> WordStyles:
        """The styles of a styles.xml part (its root, ``w:styles``)."""
        properties: dict[str, etree._Element | None] = {}
        based_on: dict[str, str] = {}
        defaults: dict[str, str] = {}  # the default style of each type
        for style in root.iterchildren(w("style")):
            name, kind = style.get(w("styleId")), style.get(w("type"))
            if name is None:
                continue
            properties[name] = style.find(w("rPr"))
            parent = style.find(w("basedOn"))
            if parent is not None and parent.get(w("val")):
                based_on[name] = parent.get(w("val"))
            if style.get(w("default")) in ("1", "true", "on") and kind in ("paragraph", "character"):
                defaults.setdefault(kind, name)
        return cls(properties, based_on, root.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}"),
                   defaults.get("paragraph"), defaults.get("character"))

    def layers(self, run: etree._Element | None, paragraph: etree._Element) -> list[etree._Element]:
        """The run properties that give ``run`` (None: a run with no properties of its own) in
        ``paragraph`` its look, weakest first: the defaults', the paragraph style's, the character
        style's (each style after those it is based on), then the run's own."""
        stated = paragraph.find(f"{w('pPr')}/{w('pStyle')}")
        own = None if run is None else run.find(w("rPr"))
        character = None if own is None else own.find(w("rStyle"))
        found = [self.defaults,
                 *self.chain(stated.get(w("val")) if stated is not None else self.default_paragraph),
                 *self.chain(character.get(w("val")) if character is not None else self.default_character),
                 own]
        return [properties for properties in found if properties is not None]

    def chain(self, name: str | None) -> list[etree._Element | None]:
        """The run properties of style ``name`` and of the styles it is based on, the furthest first
        (a loop of ``w:basedOn``, which Word would not write, is followed once round)."""
        chain: list[etree._Element | None] = []
        seen: set[str] = set()
        while name is not None and name in self.properties and name not in seen:
            seen.add(name)
            chain.insert(0, self.properties[name])
            name = self.based_on.get(name)
        return chain
