"""The unit written after a number, for the ``verbatim`` rule (attnmt.decoding.verbatim): "The fish weighs 5 kg."
as "Der Fisch wiegt 5 g." keeps its number and changes what it measures.

A unit is read by its symbol or its name in English or German, singular or plural (attnmt.text.units: lengths,
weights, volumes, temperatures, times, currencies, percent), after the number, a space or a hyphen between
("10-km-Rennen"), a currency's symbol also before it ("$20").  The rule breaks where one value is written with a
unit on both sides and no unit of the one side's is among the other's (``measure_changed``): a value with a unit on
one side alone was reworded ("a 5 year old" as "ein Fünfjähriger"), and a conversion ("5 miles" as "8 km") changes
the value.  The units of each system, metric or imperial, after a number (``IMPERIAL``, ``METRIC``) tell the rule a
conversion from a unit changed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.text.units import FOOT_AND_INCH_MARKS, READ_OTHERWISE, UNITS, Kind, System, of_kinds

if TYPE_CHECKING:  # verbatim imports this module
    from attnmt.decoding.verbatim import Number

# The kinds of units the rule reads (attnmt.text.units), each unit known by its name (Unit.name: the pound sterling
# and the pound weight share their words, pound and Pfund, and are one unit here).
_KINDS = (Kind.LENGTH, Kind.WEIGHT, Kind.VOLUME, Kind.TEMPERATURE, Kind.TIME, Kind.MONEY, Kind.SHARE)
# Each symbol in its own case ("m", not "M", a million) but those a sentence writes for other things ("in"), then
# each English and German word (any case, with their plural and case endings, _ENDINGS).
_SYMBOLS = {symbol: unit.name for unit in of_kinds(_KINDS) for symbol in unit.symbols if symbol not in READ_OTHERWISE}
_WORDS = {word: unit.name for unit in of_kinds(_KINDS) for word in (*unit.english, *unit.german)}
_MONEY = "".join(symbol for unit in of_kinds([Kind.MONEY]) for symbol in unit.symbols)  # written before it too
_SIGNS = "".join(symbol for symbol in _SYMBOLS if len(symbol) == 1 and not symbol.isalpha())  # "$", "%"
_SCALES = "".join(symbol[1:] for symbol in _SYMBOLS if symbol.startswith("°"))  # "C" of "°C"
# After the number: a space or a hyphen, then a symbol or a word ("degrees", "Grad" before a temperature's name).
_NAME = re.compile(rf"[\s\u00a0-]?(?:(?i:degrees?|grad)\s+)?"
                   rf"(?:(°\s?[{_SCALES}]\b|[{re.escape(_SIGNS)}])|([^\W\d_]+)\b)")
_ENDINGS = ("", "s", "n", "en", "e", "es", "ns")


def system_pattern(system: System) -> re.Pattern[str]:
    """A unit of ``system`` (attnmt.text.units) right after a number, a space between or none, case aside ("5 KM",
    "72°F", "72 ° F"): its symbol, its name in English or German with their endings (_ENDINGS: "miles", "Meilen"),
    or in Spanish or Italian as written ("millas", "piedi"); an imperial one by a foot's or an inch's mark too
    ("4'")."""
    units = [unit for unit in UNITS if unit.system is system]

    def longest_first(words: set[str]) -> str:
        return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))

    symbols = longest_first({symbol for unit in units for symbol in unit.symbols if symbol not in READ_OTHERWISE})
    names = longest_first({name for unit in units for name in (*unit.english, *unit.german)})
    elsewhere = longest_first({name for unit in units for name in unit.elsewhere})
    endings = "|".join(sorted(filter(None, _ENDINGS), key=len, reverse=True))
    degree = r"°\s?"  # a temperature's scale spaced from its degree too: "72 ° F"
    marks = f"|[{re.escape(FOOT_AND_INCH_MARKS)}]" if system is System.IMPERIAL else ""
    unit = "|".join(filter(None, [symbols.replace("°", degree), f"(?:{names})(?:{endings})?", elsewhere]))
    return re.compile(rf"\s?(?:(?:{unit})\b{marks})", re.IGNORECASE)


IMPERIAL, METRIC = system_pattern(System.IMPERIAL), system_pattern(System.METRIC)


def measure_after(text: str, end: int) -> str:
    """The unit (its Unit.name, attnmt.text.units) written after the number that ends at ``end`` in ``text``, or ""
    for none."""
    found = _NAME.match(text, end)
    if found is None:
        return ""
    if found[1]:
        return _SYMBOLS.get(found[1].replace(" ", ""), "")
    word = found[2]
    if word in _SYMBOLS:  # a symbol in its own case: "m", not "M" (million)
        return _SYMBOLS[word]
    lower = word.lower()
    return next((_WORDS[lower[:len(lower) - len(e)]] for e in _ENDINGS
                 if lower.endswith(e) and lower[:len(lower) - len(e)] in _WORDS), "")


def measure_before(text: str, start: int) -> str:
    """The currency (its Unit.name) whose symbol is written right before a number starting at ``start``."""
    before = text[max(0, start - 2):start].strip()[-1:]
    return _SYMBOLS.get(before, "") if before and before in _MONEY else ""


def measure_changed(source: Sequence[Number], translation: Sequence[Number]) -> bool:
    """Whether a value written with a unit on both sides has no unit in common on them ("5 kg" as "5 g")."""
    def units(side: Sequence[Number]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = defaultdict(set)
        for number in side:
            if number.value is not None and number.measure:
                found[number.value].add(number.measure)
        return found

    ours, theirs = units(source), units(translation)
    return any(value in theirs and not kinds & theirs[value] for value, kinds in ours.items())
