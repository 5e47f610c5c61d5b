"""A number with the sign that makes it a measure, kept whole where the model's vocabulary cannot write that
sign: a temperature ("12 °C", "-5 °C", "350 °F", "12 ° C"), an angle ("90°"), a price ("5 €", "€5", "£20"), a
size ("50 µm", "20 m²", "2 × 4"), a tolerance ("5 ± 1"), a fraction ("½", "3½"), a bound ("≥ 12"), a section ("§ 5").

Taken out alone, as a symbol is (attnmt.documents.symbols), the sign went back beside another word and the
number was lost: the demo model read "It is 12 C outside." and wrote "Es ist im °Freien zu sehen.".  The whole
measure is one atom instead, put back as written where its neighbours' words went.  A number whose signs the
vocabulary writes ("$5", "12 km", "12 C") is the model's to read, as a count is, but for the numbers the model
garbles though it writes them, kept whole as well (attnmt.documents.number_atoms: "9:00–17:00", "-15 %")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection
from itertools import pairwise

from attnmt.documents.number_atoms import FRACTIONS, number_runs
from attnmt.text.code_points import scanned_code_points
from attnmt.text.units import Kind, of_kinds, symbols_in_sentences

# The currency signs (Unicode's Sc: "€", "£", "¥", "₹"), which stand before a number or after it; of the Basic
# Multilingual Plane, read where a sign can be (attnmt.text.code_points).
CURRENCY = "".join(c for c in map(chr, scanned_code_points()) if unicodedata.category(c) == "Sc")
# What a unit is written with besides letters: a degree, a mathematical sign of a size or a tolerance, a per
# mille, a micro or an ohm sign ("kΩ"), a currency sign; and what stands before a number to say how it is meant, a
# bound ("≥ 12", "~5 €"), a section's or a number's sign ("§ 5", "№ 5"), which taken alone as well left the
# number to the model, which lost it.
UNIT_SIGNS = "°℃℉×±∓÷·≈‰‱µμΩ≥≤~§№" + CURRENCY
# An area's or a volume's power ("m²", "cm³"), which the tokenizer reads as "m2": the demo model wrote "20 m²" as
# "zwei2".
POWERS = "²³"
_GAP = "[ \u00a0\u2009\u202f]"  # a space, a no-break or a thin one, as a measure is typeset
_SIGN = f"[{re.escape(UNIT_SIGNS)}]"
# A number: a minus, digits with their decimal or group separators ("1,000.5", "1 000", "12 345,50"), a range
# ("20–25"), a fraction ("3½", "½").  Spaced groups follow one to three digits alone: "In 2019 150 €" is a year and
# a price, where "2019 150 €" was one atom and the model read "In were paid.".  Not the end of a number spaced in
# groups ("1 000" is no "000") nor of a word ("B12").
_DIGITS = rf"(?:\d{{1,3}}(?:{_GAP}\d{{3}}(?!\d))+(?:[.,]\d+)?|\d+(?:[.,]\d+)*)"
# A group of three digits after one to three and a space ("000" of "1 000"), not a number after a year ("2019 150").
_IN_GROUPS = "".join(rf"(?!(?<=(?<!\d)\d{{{n}}}{_GAP})\d{{3}}(?!\d))" for n in (1, 2, 3))
_NUMBER = (rf"(?<![\w.,]){_IN_GROUPS}[-−+]?(?:{_DIGITS}[{FRACTIONS}]?|[{FRACTIONS}])"
           rf"(?:[-–]{_DIGITS}[{FRACTIONS}]?)?")
# A unit after the number: a degree and its scale, spaced or not, by its letter or its name ("°C", "° C",
# "°Celsius": the demo model wrote "12°Celsius" as "gesprühnt °im Freien", the number lost), or its signs with
# letters glued around them ("€", "µm", "kΩ"), but not a sign a number follows, which joins two ("2 × 4"); and what
# it is per ("€/kg", "µg/ml"), which left alone the model read as "It costs /kg.".
_TEMPERATURES = list(of_kinds([Kind.TEMPERATURE]))  # attnmt.text.units: "Celsius", "C" of "°C"
_SCALE = "(?:{})".format("|".join([unit.english[0].capitalize() for unit in _TEMPERATURES]
                                   + [unit.symbols[0].lstrip("°") for unit in _TEMPERATURES]))
_UNIT = (rf"(?:°{_GAP}?{_SCALE}|[A-Za-z]{{1,2}}[{POWERS}]|[A-Za-z]{{0,2}}{_SIGN}+[A-Za-z]{{0,3}}(?!{_GAP}?[-−+]?\d))"
         rf"(?:/[A-Za-z]{{1,3}})?(?!\w)")
_QUANTITY = rf"(?:{_SIGN}{_GAP}?)?{_NUMBER}(?:[A-Za-z]{{1,2}}[{POWERS}]?(?!\w)|{_GAP}?{_UNIT})?"
# A unit of length, weight or volume spaced after the last number ("30 × 40 cm", "≥ 5 km"): left to the model, "The box
# is cm." lost it ("Die 30 × 40 Schachteln.").  Not "in", which is a word as often (attnmt.text.units).
_LENGTH_WEIGHT_VOLUME = "|".join(map(re.escape, symbols_in_sentences([Kind.LENGTH, Kind.WEIGHT, Kind.VOLUME])))
_SPACED_UNIT = rf"(?<=\d){_GAP}(?:{_LENGTH_WEIGHT_VOLUME})(?!\w)"
_JOINED = rf"{_QUANTITY}(?:{_GAP}?(?:{_SIGN}|/){_GAP}?{_QUANTITY})*(?:{_SPACED_UNIT})?"  # "2 × 4", "12°C/54°F"
# One, or two joined by a sign, its conversion in brackets after it too: "12 °C (54 °F)", which taken apart left the
# model "It is () outside.", and it dropped the brackets.  The hyphen that glues it to a word after it goes with it
# ("a 25°-angle", "ein 5 €-Schein"): left behind, the model read "a -angle" and wrote "Auf einem 25° Deuner.".
_READ_SIGNS = set(UNIT_SIGNS + POWERS)  # the signs a measure is read by, each asked whether it is read as others
# Read as (?:\(J\)|J(?:G?\(J\))?), J a _JOINED and G a _GAP: an opening bracket taken (group 1) asks for its closing
# one, and none taken lets a conversion follow.  The same matches with J twice, not three times: compiled at every
# start of a plain-text job, the pattern took half again as long (issue 44; tests/documents/test_measures.py).
MEASURE = re.compile(rf"(\()?{_JOINED}(?(1)\)|(?:{_GAP}?\({_JOINED}\))?)(?!\w)(?:-(?=[^\W\d_]))?")


def read_as_other(text: str) -> bool:
    """Whether the tokenizer reads ``text`` as other characters, its compatibility form (NFKC: "™" as "TM", "№" as
    "No", "㎏" as "kg"), which the vocabulary writes where it has no piece for the sign: the model never writes the
    sign back, and the demo model wrote "The man uses a Nokia™ phone." as "Der Mann verwendet ein T-Shirt."."""
    return unicodedata.normalize("NFKC", text) != text


def measure_runs(text: str, edges: Collection[int], writes: Callable[[str], bool]) -> list[tuple[int, int]]:
    """[start, end) of each measure in ``text`` (``MEASURE``) that ``writes`` says the model's vocabulary cannot
    write, or with a sign it reads as other characters (``read_as_other``: "№ 5" as "No 5"), and of each number the
    model garbles (number_atoms.number_runs: "9:00", "-15 %"), one overlapping another joined; one that a mark starts
    or ends inside (``edges``) in its pieces, each a run of its own: "<b>12</b> °C" is "12" in the bold and "°C",
    where the sign alone was taken out, and the demo model wrote "Es ist im °Freien <b>zu sehen</b>."."""
    read = apart_at_edges(text, edges)
    found = [(m.start(), m.end()) for m in MEASURE.finditer(read)  # ASCII, every vocabulary writes: not asked
             if not m[0].isascii() and (not writes(m[0]) or any(map(read_as_other, set(m[0]) & _READ_SIGNS)))]
    runs = []
    for start, end in overlaps_joined(found + number_runs(read, edges)):
        cuts = [start, *sorted(p for p in set(edges) if start < p < end), end]
        runs += [trimmed(text, a, b) for a, b in pairwise(cuts) if text[a:b].strip()]
    return runs


# The signs that, glued to a number, make it part of a longer one ("1,000", "1.5", "12:30", "1/2"): no measure and no
# number atom starts or ends beside one, but where a tag's edge stands there, it parts two ("<b>5 €</b>,<b>6 €</b>").
_SEPARATORS = ".,:;/"
_NUMBER_START = re.compile(r"[-−+±]?\d")


def apart_at_edges(text: str, edges: Collection[int]) -> str:
    """``text`` with each separator (``_SEPARATORS``) that a mark's edge (``edges``) parts from a number after it
    read as a space, its length kept: ``<b>5 €</b>,<b>6 €</b>`` holds two prices, but read as "5 €,6 €" the
    second glued to a comma, and neither was a measure: the model read "Pay 5,6 €" and wrote "Spielen €", each
    number lost.  Where no edge stands there, "5,6 €" is one number with its decimal comma."""
    apart, edges = list(text), set(edges)
    for k, character in enumerate(text[:-1]):
        if character in _SEPARATORS and (k in edges or k + 1 in edges) and _NUMBER_START.match(text, k + 1):
            apart[k] = " "
    return "".join(apart)


def overlaps_joined(spans: Collection[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` ([start, end)) in order, those that overlap joined into one: "-15 %" is a number atom's
    (attnmt.documents.number_atoms) and holds the measure "-15" in it."""
    joined: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if joined and start < joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) without the spaces at its edges: a measure's piece ("12" of "12 °C"), its spaces left as text."""
    piece = text[start:end]
    return start + len(piece) - len(piece.lstrip()), end - len(piece) + len(piece.rstrip())

