"""A chemical formula or a unit written with its scripts in a page (``H<sub>2</sub>O``, ``CO<sub>2</sub>``,
``Ca<sup>2+</sup>``, ``25 m<sup>2</sup>``): one token of letters, digits and scripts, kept whole (atoms
side by side: its letters, as a URL is, and each script element; a unit with its number), where the
translation puts it.

Read as words, the token went to the model as "H2O", which the model did not keep ("ein Glas Wasser", or
a word of its own), and the ``<sub>`` was stretched over whatever word the alignment gave it: "H" and
"O" were lost and "auf" was written as a subscript.  A formula is its element symbols (FORMULA: a
capital, then at most one small letter, each with a count); a unit (UNIT) is one or two small letters
after a number ("25 m", "3 km"), its script a power; a temperature's scale after its number ("100 °C") is
a unit too, not carbon's symbol.  A script's own text is a count or a charge
(SCRIPT_TEXT): a note's number after a word ("study<sup>3</sup>") is no formula, since "study" is no
element's symbol nor a unit after a number.  An office paragraph's script runs (a Word run in subscript, a
slide's run below its baseline) are read so too (attnmt.documents.run_scripts).  An ordinal's raised ending
(``21<sup>st</sup>``) is no script of a token but a mark over letters of its word (attnmt.documents.ordinal_marks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from attnmt.documents.flat import FlatBuilder

SCRIPTS = frozenset({"sub", "sup"})
SCRIPT_TEXT = re.compile(r"[0-9]*[+\-\u2212]?")  # a count, a charge ("2+", "-"), a power
FORMULA = re.compile(r"(?:[A-Z][a-z]?[0-9]*)+")  # element symbols with their counts: "H", "O", "CO", "NaCl"
UNIT = re.compile(r"[0-9][0-9.,]*[ \u00a0]+([a-z\u00b5]{1,2})\Z")  # "25 m", "3 km", "10 \u00b5m"
# A temperature's scale after its number, with its degree sign (or the ordinal sign typed for it) or a space: "100 °C",
# "100 ºC", "212 F", whose letter is no element's symbol (carbon's, fluorine's): its number goes with it.
TEMPERATURE = re.compile(r"[0-9][0-9.,]*(?:[ \u00a0]*[°º˚][ \u00a0]*|[ \u00a0]+)([CFK])\Z")
TOKEN_END = re.compile(r"[A-Za-z0-9]+\Z")
TOKEN_START = re.compile(r"\A[A-Za-z0-9]+")


@dataclass(frozen=True)
class Script:
    """A child set below or above the line: ``kind`` "sub" or "sup", ``text`` what it holds (None where it
    holds more than text: an element inside it)."""

    kind: str
    text: str | None


@dataclass(frozen=True)
class Scripted:
    """A script element kept with the letters glued to it: ``before`` the end of the text before it,
    ``after`` the start of the text after it."""

    before: str
    after: str


def markup_script(node: etree._Element) -> Script | None:
    """A page's child as scripted reads it: a ``<sub>`` or a ``<sup>`` a Script, any other None."""
    name = node.tag.rpartition("}")[2].lower() if isinstance(node.tag, str) else None  # pages.local_name; no comment
    if name not in SCRIPTS:
        return None
    return Script(name, None if len(node) else node.text or "")


def scripted(texts: Sequence[str], scripts: Sequence[Script | None]) -> dict[int, Scripted]:
    """The children that are scripts of a formula or a unit (module docstring), by their number, with
    their letters; ``texts``: the text before each child, and after the last (len(children) + 1 of them);
    ``scripts``: each child's Script, None for one on the line (a page's: elements.Vocabulary.script; an
    office paragraph's runs: attnmt.documents.run_scripts).  A text between two scripts ("H" of
    ``C<sub>6</sub>H<sub>12</sub>``) goes with the script after it."""
    found: dict[int, Scripted] = {}
    for k, script in enumerate(scripts):
        if script is None or script.text is None or not script.text.strip() or not SCRIPT_TEXT.fullmatch(
                script.text.strip()):
            continue
        before = texts[k][len(found[k - 1].after) if k - 1 in found else 0:]
        glued = TOKEN_END.search(before)
        left = glued.group() if glued else ""
        starts = TOKEN_START.match(texts[k + 1])
        # the letters between two scripts are the next one's
        to_next = starts is not None and starts.group() == texts[k + 1] and k + 1 < len(scripts) and scripts[
            k + 1] is not None
        right = starts.group() if starts is not None and not to_next else ""
        if (unit := unit_before(before, left, right, script.kind)) is not None:  # a unit's "C" is no carbon
            found[k] = Scripted(unit, right)
        elif is_formula(left + right, k - 1 in found):
            found[k] = Scripted(left, right)
    return found


def is_formula(letters: str, chained: bool) -> bool:
    """Whether ``letters`` (the token around a script, its scripts aside) are element symbols; after
    another script of the same formula, none is needed (``O`` of ``C<sub>6</sub>O<sub>6</sub>``)."""
    return bool(FORMULA.fullmatch(letters)) or (chained and not letters)


def unit_before(before: str, left: str, right: str, name: str) -> str | None:
    """The number and unit a superscript after ``left`` is the power of ("25 m") or a note's number after ("100 °C",
    TEMPERATURE), kept with it: read apart, the number went to the model alone, which moved it into another word or
    lost it ("100 °C<sup>2</sup>" read as the formula "C", "Water boils at 100 °." gave "EinC<sup>2</sup> bereitet sich
    an."); None for any other."""
    unit = UNIT.search(before) or TEMPERATURE.search(before)
    return unit.group() if name == "sup" and not right and unit is not None and unit.group(1) == left else None


def add_scripted(builder: FlatBuilder, node: object, letters: Scripted) -> None:
    """A formula's or a unit's script ``node``, with its letters either side, as atoms side by side."""
    if letters.before:
        builder.add_atom(literal=letters.before)
    builder.add_atom(node=node)
    if letters.after:
        builder.add_atom(literal=letters.after)
