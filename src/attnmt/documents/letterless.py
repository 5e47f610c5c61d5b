"""A text without letters (``2012``, ``4521 - 2012``, ``12/05/2012``) never goes to the model: it
wrote around a term what its training held (``2012`` came out ``Heißluftballons ist in einem
rosa, das zweitausendzwölf.``).  Its translation is the text itself, with each glossary term that
stands apart in it replaced by its target term (``with_terms``).

A term stands apart where nothing joins it to another number, as a reader sees the text: the
matcher's NFKC form (full-width ``１２／０５`` is ``12/05``) with the invisible format characters
(category Cf: a soft hyphen, a zero-width space, a word joiner) read past.  A date, a time, a
version, a decimal or a number with thousands separators is one number, not the term it holds:
``12`` stays in ``12/05/2012``, ``12:30``, ``12,50 €``, ``1.234,12``, ``12 000`` (a no-break
space) and ``.12``, and so it does in a range, a power or a product, one number expression:
``2012–2013``, ``10^12``, ``12×20``.  An ordinary space joins nothing: ``4521 - 2012``,
``2012 – 2013`` and ``2012 2012`` hold two numbers each.  In a document a term does not cross an
inline element's edge (``20<sup>12</sup>`` is 20 to the 12th), and the text an atom shows beside
it is read as the reader sees it (``12<x>.</x>5`` is 12.5): ``Shown``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import islice

from attnmt.decoding.glossary import Glossary
from attnmt.documents.flat import FIELD_END, FlatText, atom_text
from attnmt.documents.spans import Weights
from attnmt.text.letters import reaches_model

# What joins the digits either side of it into one date, time, version, decimal number or number
# expression, as matching sees it (NFKC: the full-width "／" is "/", U+2011's non-breaking hyphen
# U+2010): the ASCII marks, the typographic apostrophe of "12’000", the Unicode hyphens, figure dash
# and en dash (a range: "2012–2013"), the minus sign, a power's "^" and a product's "×" ("10^12",
# "12×20"), and Arabic's decimal and thousands separators.  A mark between spaces joins nothing
# ("2012 – 2013" holds two numbers), as "-" between spaces never did.
GLUE = frozenset("/.-:,'’^\u00d7\u2010\u2012\u2013\u2212\u066b\u066c")
# Spaces that group a number's digits (a no-break, narrow no-break or thin space: "12 000"); NFKC
# makes them ordinary spaces, which join nothing, so they are read before it.
NUMBER_SPACES = frozenset("\u00a0\u202f\u2009")
DECIMAL_POINTS = frozenset(".,")  # one before a number with no digit before it starts it: ".12"


@dataclass(frozen=True)
class Shown:
    """A letterless sentence as a reader sees it around its terms.  ``text``: the sentence with
    the text each atom shows in its place (``<x>.</x>``) and without the space a flat text adds
    after an atom that parts words; ``lo[k]`` / ``hi[k]``: where the atoms at the sentence's
    position k start and where its character k is in ``text``; ``edges``: the positions where
    an inline element starts or ends or an atom sits, inside none of which a term may stand."""

    text: str
    lo: list[int]
    hi: list[int]
    edges: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def plain(cls, text: str) -> Shown:
        """A text with no markup: as it is."""
        at = list(range(len(text) + 1))
        return cls(text, at, at)

    @classmethod
    def of(cls, flat: FlatText, span: tuple[int, int] | None = None) -> Shown:
        """The sentence ``flat.text[span]`` (None: the whole text) with ``flat``'s marks (positions
        counted from its start)."""
        start, end = span or (0, len(flat.text))
        atoms: dict[int, str] = {}
        dropped = set()  # the space FlatBuilder puts after an atom that parts words, where none followed it
        for m in flat.marks:
            if m.atom and start <= m.start <= end:
                atoms[m.start] = atoms.get(m.start, "") + atom_text(m)
                if m.parts_words and not m.space_after and flat.text[m.start:m.start + 1] == " ":
                    dropped.add(m.start)
        edges = {p - start for m in flat.marks for p in {m.start, m.end} if start < p < end}
        seen, lo, hi = "", [], []
        for k in range(start, end + 1):
            lo.append(len(seen))
            seen += atoms.get(k, "")
            hi.append(len(seen))
            if k < end and k not in dropped:
                seen += flat.text[k]
        return cls(seen, lo, hi, frozenset(edges))


def needs_translation(text: str, glossary: Glossary | None = None, shown: Shown | None = None) -> bool:
    """Whether ``text`` is translated: it has letters (has_words), more than one (``is_one_letter``),
    and the model translates it, or a term of ``glossary`` stands in it (``letterless_terms``;
    ``shown``: as its document shows it), and its translation is ``with_terms``.  Any other text
    (``123``, ``!!!``, a URL, ``12/05/2012``, ``20<sup>12</sup>``, an index's heading ``A``, a list's
    ``(b)``) passes through as it is, its markup untouched."""
    return reaches_model(text) or bool(letterless_terms(text, glossary, shown))


def letterless_terms(text: str, glossary: Glossary | None, shown: Shown | None = None) -> list[tuple[int, int, str]]:
    """(start, end, target term) of each source term of ``glossary`` in ``text``, a text without
    letters, as the glossary finds terms (Glossary.found_in), that stands apart from other numbers
    (the module docstring): ``2012`` in ``2012``, ``(2012).`` and ``4521 - 2012``, not in
    ``12/05/2012``, ``2012‐05‐01``, ``1.2012`` or ``1,2012``.  ``shown``: the text as its document
    shows it (``Shown.of``; None: plain text)."""
    shown = shown or Shown.plain(text)
    found = glossary.found_in(text) if glossary else []
    return [(start, end, target) for start, end, target in found
            if not any(start < edge < end for edge in shown.edges)
            and not glued(text[start], shown.text[:shown.hi[start]][::-1], before=True)
            and not glued(text[end - 1], shown.text[shown.lo[end]:], before=False)]


def glued(edge: str, beyond: str, before: bool) -> bool:
    """Whether what a reader sees ``beyond`` a term (outward from it: the text before it reversed)
    joins it into a longer number, ``edge`` being the term's character on that side: a digit
    beyond invisible format characters (``12\\u200b2012``), a GLUE mark followed by a digit
    (``12,5``, ``12：30``), a NUMBER_SPACES space between digits (``12\\u00a0000``), or a decimal
    point before a term with no digit before it (``.12``)."""
    first, second = (*islice((c for c in beyond if unicodedata.category(c) != "Cf"), 2), "", "")[:2]
    seen = unicodedata.normalize("NFKC", first)
    return (first.isdigit() or (seen in GLUE and second.isdigit())
            or (first in NUMBER_SPACES and edge.isdigit() and second.isdigit())
            or (before and seen in DECIMAL_POINTS and edge.isdigit() and not second.isdigit()))


def with_terms(text: str, glossary: Glossary | None, shown: Shown | None = None) -> str:
    """The translation of ``text``, a text without letters, which the model never reads: each
    term that stands in it (``letterless_terms``) is replaced by its target term; all else stays
    byte for byte (``4521 - zweitausendzwölf``)."""
    return replaced(text, letterless_terms(text, glossary, shown))


def fields_with_terms(line: str, glossary: Glossary | None) -> str:
    """The translation of a plain text line without letters (pipeline.translate_lines): each of its
    fields ``with_terms`` apart, as a line's sentences are, its tabs and line breaks (FIELD_END)
    kept where they stood; a term does not span two fields (``12<TAB>2012`` with the term
    ``12 2012`` stays as it is).  Without a glossary it is the line itself, found without a split."""
    if not glossary:
        return line
    parts = re.split(f"({FIELD_END.pattern})", line)  # fields at even places, what parts them at odd ones
    return "".join(part if k % 2 else with_terms(part, glossary) for k, part in enumerate(parts))


def translated_line(line: str, text: str, glossary: Glossary | None) -> str:
    """A plain text line's translation, given ``text``, its sentences' as they came back
    (pipeline.translate_lines): a line the model is not given, without letters or of one letter
    (``reaches_model``), is its own (``fields_with_terms``), and one whose sentences all came back
    empty is its tabs alone, not the spaces between them (" " for "A dog. A cat."): a tab parts
    fields, and a row without it would lose its columns.  A line that ends in no space ends its
    translation in none: the space before a kept name that ended a quote or an emphasis
    (``He said "open x.py"``) stayed at the line's end where the model put the quote's words first."""
    if not reaches_model(line):
        return fields_with_terms(line, glossary)
    if not text.strip():
        return "\t" * text.count("\t")
    return text if line[-1:].isspace() else text.rstrip(" ")


def replaced(text: str, terms: list[tuple[int, int, str]]) -> str:
    """``text`` with each of ``terms`` (start, end, target term: ``letterless_terms``) replaced."""
    kept, last = [], 0
    for start, end, target in terms:
        kept += [text[last:start], target]
        last = end
    return "".join(kept) + text[last:]


def term_weights(text: str, glossary: Glossary | None, shown: Shown | None = None) -> Weights:
    """The weights [translation word][source word] of ``with_terms(text, glossary, shown)``: each
    word of it attends to the source words it stands for (a target term's to its source term's),
    as ``identity`` gives a text that is its own translation."""
    words = [match.span() for match in re.finditer(r"\S+", text)]
    origins: list[tuple[int, int]] = []  # the span of text each character of the translation stands for
    last = 0
    terms = letterless_terms(text, glossary, shown)
    for start, end, target in [*terms, (len(text), len(text), "")]:
        origins += [(at, at + 1) for at in range(last, start)] + [(start, end)] * len(target)
        last = end
    weights = []
    for match in re.finditer(r"\S+", replaced(text, terms)):  # with_terms, its terms found once
        first, last = origins[match.start()][0], origins[match.end() - 1][1]
        row = [float(start < last and first < end) for start, end in words]
        weights.append([weight / max(sum(row), 1.0) for weight in row])
    return weights
