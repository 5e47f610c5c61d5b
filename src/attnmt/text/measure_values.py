"""A field's value that is a measure: a number and its unit ("15 min", "250 kcal", "5.4 mmol/L", "3 bars"), as a
lab's result, a nutrition label's line, a listing's or a form's field holds one ("GLUCOSE: 5.4 mmol/L", "ENERGY: 250
kcal", "SIGNAL: 3 bars").  A unit is told from a word a speaker says after a number by the units this module knows,
not by its letters' count: "250 kcal" and "3 bars" are measures, "2 days" and "12 minutes" what a person says
("ANNA: 2 days"), as a time a model translates.  A unit's symbol reads the same in the target language and is kept
as written with its number (``measure_alone``); a unit in words ("3 bars", "2 cups") is the model's to translate,
but says the label before it names a field (``named_measure``)."""

from __future__ import annotations

import re

from attnmt.text.units import UNITS, Kind

# The symbols of units (attnmt.text.units), each read in any case and either side of a "/" ("mmol/L", "mg/dL",
# "kWh").
UNIT_SYMBOLS = frozenset(symbol.casefold() for unit in UNITS for symbol in unit.symbols)
# The names of units in words, in the singular ("3 bars", "250 calories", "2 cups"), not a time's ("2 days", "12
# minutes": what a speaker says as often), money's ("5 dollars") or a temperature's scale, nor a count's ("3
# slices", "2 tablets": no unit).
UNIT_NAMES = frozenset(name for unit in UNITS if unit.kind not in (Kind.TIME, Kind.MONEY, Kind.TEMPERATURE)
                       for name in unit.english)
# The names of units in words of every kind but money's, a time's too ("minute", "hour", "millilitre"), which after a
# count in words make a measure ("Twenty minutes", "Ten millilitres": attnmt.text.field_names.counted_measure).
MEASURE_NAMES = frozenset(name for unit in UNITS if unit.kind is not Kind.MONEY for name in unit.english)
# A number and what follows it, then a stop or none: "5.4 mmol/L", "250 kcal", "3 bars.", a unit's power as a
# digit too, as a keyboard writes it ("12 µg/m3", "40 cm2": ``POWER``).
NUMBERED = re.compile(r"\s*[$€£¥]?\d[\d.,:/-]*\s*(?P<unit>[^\W\d_]*[²³23]?(?:/[^\W\d_]+[²³23]?)?)\.?\s*\Z")
POWER = "²³23"  # what follows a unit's symbol to square or cube it: "m²", "m3"
# A measure with an unknown unit's abbreviation of three letters at most or a sign, as before the units were known
# ("15 min", "1.2 kg", "120 m²", "200 km/h", "180 °C", "5%", "1995").
SHORT_MEASURE = re.compile(r"\s*[$€£¥]?\d[\d.,:/-]*\s*(?:%|°?[^\W\d_]{1,3}(?:/[^\W\d_]{1,2})?[²³]?\.?|°)?\s*\Z")
# A clock's time or a price, as an opening hours' or a price's value holds one ("Mon-Fri 9am-5pm", "10:00-18:00",
# "From $20", "25 €").
TIME_OR_PRICE = re.compile(r"\d{1,2}[:.]\d\d|\d\s?(?:am|pm)\b|[$€£¥]\s?\d|\d\s?[$€£¥]", re.IGNORECASE)


def measure_alone(value: str) -> bool:
    """Whether a field's ``value`` is a measure alone, kept as written: a number, and a unit's abbreviation of three
    letters at most or a sign (``SHORT_MEASURE``: "15 min", "1995", " 200 km/h", "5%"), or a known unit's symbol
    of any length (``UNIT_SYMBOLS``: "250 kcal", "5.4 mmol/L", "3000 mAh"); not "10 hours", which a model
    translates."""
    found = NUMBERED.match(value)
    return SHORT_MEASURE.match(value) is not None or (
        found is not None and all(part.rstrip(POWER).casefold() in UNIT_SYMBOLS for part in found["unit"].split("/")))


def named_measure(value: str) -> bool:
    """Whether ``value`` is a number and a unit's name in words, singular or plural (``UNIT_NAMES``: "3 bars", "250
    calories", "2 cups."); not "2 days", "12 minutes"."""
    found = NUMBERED.match(value)
    unit = found["unit"].casefold() if found else ""
    return any(unit.removesuffix(ending) in UNIT_NAMES for ending in ("s", "es", "")) and "/" not in unit


def unit_name(word: str) -> bool:
    """Whether ``word``, in any case, is a unit's name in words (``MEASURE_NAMES``), singular or plural: "minutes",
    "Hour", "millilitres", "inches"; not "dogs", "dollars"."""
    folded = word.casefold()
    return any(folded.removesuffix(ending) in MEASURE_NAMES for ending in ("s", "es", ""))
