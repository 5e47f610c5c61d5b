"""A field's value that is a measure: a number and its unit ("15 min", "250 kcal", "5.4 mmol/L", "3 bars"), as a
lab's result, a nutrition label's line, a listing's or a form's field holds one ("GLUCOSE: 5.4 mmol/L", "ENERGY: 250
kcal", "SIGNAL: 3 bars").  A unit is told from a word a speaker says after a number by the units this module knows,
not by its letters' count: "250 kcal" and "3 bars" are measures, "2 days" and "12 minutes" what a person says
("ANNA: 2 days"), as a time a model translates.  A unit's symbol reads the same in the target language and is kept
as written with its number (``measure_alone``); a unit in words ("3 bars", "2 cups") is the model's to translate,
but says the label before it names a field (``named_measure``)."""

from __future__ import annotations

import re

# The symbols of units, each read in any case and either side of a "/" ("mmol/L", "mg/dL", "kWh"): metric and
# imperial sizes, a lab's, a kitchen's, energy's, pressure's, electricity's, data's, a screen's and sound's.
UNIT_SYMBOLS = frozenset({
    "mm", "cm", "dm", "m", "km", "in", "ft", "yd", "mi", "nm", "µm", "μm",
    "mg", "g", "kg", "t", "µg", "μg", "mcg", "ng", "oz", "lb", "lbs", "st", "ct",
    "ml", "cl", "dl", "l", "µl", "μl", "fl", "gal", "qt", "pt", "tsp", "tbsp",
    "mol", "mmol", "µmol", "μmol", "nmol", "meq", "iu", "u", "ppm", "ppb",
    "cal", "kcal", "j", "kj", "mj", "wh", "kwh", "mwh", "mah", "ah",
    "w", "kw", "mw", "hp", "v", "kv", "mv", "a", "ma", "ω", "kω", "hz", "khz", "mhz", "ghz", "rpm", "bpm",
    "pa", "hpa", "kpa", "mpa", "bar", "mbar", "psi", "mmhg", "atm",
    "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "bps", "kbps", "mbps", "gbps",
    "px", "dpi", "ppi", "db", "dbm", "lm", "lx", "lux", "mph", "kph", "kmh", "kn", "mpg", "s", "ms", "min", "h",
})
# The names of units in words, in the singular ("3 bars", "250 calories", "2 cups"), not a time's ("2 days", "12
# minutes": what a speaker says as often) nor a count's ("3 slices", "2 tablets").
UNIT_NAMES = frozenset({
    "metre", "meter", "kilometre", "kilometer", "centimetre", "centimeter", "millimetre", "millimeter", "inch",
    "foot", "feet", "yard", "mile", "gram", "gramme", "kilogram", "kilo", "milligram", "microgram", "tonne", "ton",
    "ounce", "pound", "stone", "carat", "litre", "liter", "millilitre", "milliliter", "pint", "gallon", "quart",
    "cup", "teaspoon", "tablespoon", "calorie", "kilocalorie", "joule", "kilojoule", "watt", "kilowatt", "volt",
    "amp", "ampere", "ohm", "hertz", "byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "pixel", "bar",
    "pascal", "decibel", "lumen", "knot", "degree", "percent", "mole", "acre", "hectare",
})
# A number and what follows it, then a stop or none: "5.4 mmol/L", "250 kcal", "3 bars.".
NUMBERED = re.compile(r"\s*[$€£¥]?\d[\d.,:/-]*\s*(?P<unit>[^\W\d_]*(?:/[^\W\d_]+)?)[²³]?\.?\s*\Z")
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
        found is not None and all(part.casefold() in UNIT_SYMBOLS for part in found["unit"].split("/")))


def named_measure(value: str) -> bool:
    """Whether ``value`` is a number and a unit's name in words, singular or plural (``UNIT_NAMES``: "3 bars", "250
    calories", "2 cups."); not "2 days", "12 minutes"."""
    found = NUMBERED.match(value)
    unit = found["unit"].casefold() if found else ""
    return any(unit.removesuffix(ending) in UNIT_NAMES for ending in ("s", "es", "")) and "/" not in unit
