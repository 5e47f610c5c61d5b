"""Word's XML namespace (WordprocessingML) and its element names, in one place.

attnmt.documents.ooxml, attnmt.documents.dropcaps and attnmt.documents.flat all name Word's
elements; ooxml imports the other two, so the namespace lives here, below all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
# A part's relationship id attribute (r:id), by which Word, DrawingML and SpreadsheetML parts name
# another part of the package (a link's target, a chart, a pivot cache).
RELATIONSHIP_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
OFF = ("0", "false", "off")  # the values of an on/off property (w:vanish w:val="0") that turn it off


def w(name: str) -> str:
    """Word's element or attribute ``name`` in lxml's ``{namespace}name`` form: ``w("p")`` is ``w:p``."""
    return f"{{{W}}}{name}"


# A ruby (phonetic guide) in a run, and its base: the words the annotation (w:rt) is set above.
RUBY, RUBY_BASE = w("ruby"), w("rubyBase")

# A run's properties that hide its text (an editor's note): attnmt.documents.ooxml reads such a run
# apart from the words a reader sees, and attnmt.documents.shown.shown_text shows nothing of it.
# w:webHidden is not one: it hides text in Word's web layout alone, and print shows it (a TOC's
# page numbers); read as hidden, its words were left untranslated in a printed page.
HIDDEN = frozenset({w("vanish"), w("specVanish")})
# Where a paragraph's table style stops: a text box's paragraphs are a story of their own, even
# in a table's cell (word_styles.WordStyles.table_style, Hiding.hides).
TABLE_OR_STORY = (w("tbl"), w("txbxContent"))
# A bidirectional embedding and override around runs (w:dir, w:bdo), whose w:val says the direction
# (ltr, rtl) their text is laid out or drawn in.
DIRECTIONS = frozenset({w("dir"), w("bdo")})
# A tracked change's removed content, kept whole as an atom: a deletion, a move's old place (formatting.run_parts)
REMOVALS = frozenset({w("del"), w("moveFrom")})
# The tracked changes split around a complex field's runs (field_revisions): an insertion, a move's new place, a
# deletion.  A move's old place is not: its text is a run's (w:t, not w:delText), which a field's result would read.
REVISIONS = frozenset({w("ins"), w("moveTo"), w("del")})
# The marks around runs whose edge may cut a complex field, split around its runs as a tracked change is where its
# characters cannot be moved over that edge (field_marks): a link, a smart tag, a custom XML element, a bidirectional
# embedding and override.
RUN_MARKS = frozenset({w("hyperlink"), w("smartTag"), w("customXml"), w("dir"), w("bdo")})
# What is split around a complex field's runs, each of whose pieces may hold one of its runs alone (fields_complex)
FIELD_HOLDERS = REVISIONS | RUN_MARKS


def hides(properties: Any) -> bool | None:
    """What run properties (a ``w:rPr``) say of hiding their text: True where one of HIDDEN is on, False where
    those they hold are all turned off (``w:val="0"``), None where they hold none (a style's say stands)."""
    said = [child for child in properties if child.tag in HIDDEN]
    return any(child.get(w("val")) not in OFF for child in said) if said else None


@dataclass(frozen=True)
class Hiding:
    """What a Word file's styles say of hiding a run's text (hides), in Word's order (ECMA-376 17.7.2), weakest
    first: the document's defaults (``w:docDefaults/w:rPrDefault``: ``default``), the style of the table whose cell
    holds the run's paragraph (``w:tblStyle``, else the default table style; none in a text box), the paragraph's
    style (``w:pStyle``, else the default paragraph style), the run's character style (``w:rStyle``, else the
    default character style), each style with those it is based on (``w:basedOn``); a run's own properties come
    last (is_hidden_run).  ``w:vanish`` is a toggle property (ECMA-376 17.7.3): in a style, on turns over the state
    the levels before it left (hidden by the paragraph's style and again by the character style is shown), off
    changes nothing; only a run's own setting is absolute.  ``table``, ``paragraph``, ``character``: each style's
    id -> whether its chain (its own say, else that of the style it is based on) turns it on.  Built by
    word_styles.WordStyles.hiding; NO_HIDING (no styles) hides nothing.  (Read from the standard; not checked in
    Word itself.)"""

    default: bool = False
    paragraph: Mapping[str, bool] = field(default_factory=dict)
    character: Mapping[str, bool] = field(default_factory=dict)
    default_paragraph: str | None = None
    default_character: str | None = None
    table: Mapping[str, bool] = field(default_factory=dict)
    default_table: str | None = None

    def hides(self, run: Any) -> bool:
        """Whether the styles hide ``run`` (a ``w:r``), its own properties aside: the defaults' state, turned
        over by its table's style where that turns hiding on, again by its paragraph's style (the nearest ``w:p``
        around it) where that does, and again by its character style where that does.  A style the document
        lacks is read as the default style of its kind, as Word does."""
        own = run.find(w("rPr"))
        character = self._turns(None if own is None else own.find(w("rStyle")), self.character,
                                self.default_character)
        paragraph = next(run.iterancestors(w("p")), None)
        stated = None if paragraph is None else paragraph.find(f"{w('pPr')}/{w('pStyle')}")
        turned = self._turns(stated, self.paragraph, self.default_paragraph)
        # the walk up to a table only where a table style hides text (most documents have none that does)
        holder = None if paragraph is None or not any(self.table.values()) else next(
            paragraph.iterancestors(*TABLE_OR_STORY), None)
        table = holder is not None and holder.tag == w("tbl") and self._turns(
            holder.find(f"{w('tblPr')}/{w('tblStyle')}"), self.table, self.default_table)
        return self.default ^ table ^ turned ^ character

    @classmethod
    def _turns(cls, stated: Any, styles: Mapping[str, bool], default: str | None) -> bool:
        """Whether the style a ``w:tblStyle``, ``w:pStyle`` or ``w:rStyle`` (None: none) names turns hiding on."""
        return styles.get(cls._named(stated, styles, default) or "", False)

    @staticmethod
    def _named(stated: Any, styles: Mapping[str, object], default: str | None) -> str | None:
        """The style a ``w:pStyle`` or ``w:rStyle`` (None: none) names, where it is one of ``styles``, else
        ``default``."""
        name = None if stated is None else stated.get(w("val"))
        return name if name in styles else default


NO_HIDING = Hiding()


def is_hidden_run(node: Any, hiding: Hiding = NO_HIDING) -> bool:
    """Whether ``node`` is a Word run Word hides: its own properties say so (hides), or, where they say nothing
    of it, its styles do (``hiding``: Hiding.hides, from word_styles.WordStyles.hiding: ``w:vanish`` in its
    character style, its paragraph's style, its table's style or the document's defaults, or a style one is
    based on).  A run's
    own ``<w:vanish w:val="0"/>`` shows it whatever its styles say (in styles, w:vanish toggles: Hiding)."""
    if getattr(node, "tag", None) != w("r"):
        return False
    properties = node.find(w("rPr"))
    own = None if properties is None else hides(properties)
    return hiding.hides(node) if own is None else own


def says_rtl(node: Any) -> bool:
    """Whether ``node`` is a Word run whose own properties turn ``w:rtl`` on: right-to-left text (a Hebrew quote)."""
    said = node.find(f"{w('rPr')}/{w('rtl')}") if getattr(node, "tag", None) == w("r") else None
    return said is not None and said.get(w("val")) not in OFF


# The atoms that start and end a range of the paragraph's words (its end stays after its start), by the w:id
# they share: a comment's anchor, a bookmark, a tracked move's range (around its w:moveFrom or w:moveTo) and a
# range others may edit in a protected file.
RANGES = {w(f"{name}{edge}"): (name, edge == "Start") for name in ("commentRange", "bookmark", "moveFromRange",
                                                                 "moveToRange", "perm") for edge in ("Start", "End")}


def range_edge(node: Any) -> tuple[object, bool] | None:
    """(the range's key, whether ``node`` starts it) for the edge of a range (RANGES)."""
    kind, starts = RANGES.get(node.tag, (None, False))
    return None if kind is None else ((kind, node.get(w("id"))), starts)
