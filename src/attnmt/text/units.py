"""What a unit is: the one list of the units attnmt knows, each with its kind, its symbols and its names in English
and German.  Its readers take from it the units they need:

- a field's value alone (attnmt.text.measure_values): any unit's symbol, in any case ("ENERGY: 250 kcal"), and the
  names of the units that are no time, money or temperature ("SIGNAL: 3 bars"; "ANNA: 2 days" is said);
- a document's measure (attnmt.documents.measures): the symbol of a length, weight or volume spaced after a kept
  number ("30 × 40 cm");
- a document's fraction and size (attnmt.documents.number_atoms): the symbol or the name of a length, weight,
  volume or time after a fraction ("¾ l", "1/2 cup", "1½ hours"), a length's symbol after a size ("30 x 40 yd");
- the verbatim rule (attnmt.decoding.verbatim_units): a length's, weight's, volume's, temperature's, time's,
  money's or share's symbol in its own case, or its name in English or German ("5 kg" as "5 g"); and each unit's
  system, metric or imperial, by its symbols and its names in English, German, Spanish and Italian ("5 miles" as
  "8 km" is a conversion, "15 km" as "15 Meilen" a unit changed).

A symbol a sentence writes for something else as often (``READ_OTHERWISE``: "in", the "s" of "the 1990s") is a
unit's only in a value that stands alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What a unit measures."""

    LENGTH = "length"  # a screen's pixel too
    WEIGHT = "weight"
    VOLUME = "volume"  # a kitchen's spoons and cups too
    AREA = "area"
    AMOUNT = "amount"  # a lab's: moles, units, parts per million
    ENERGY = "energy"  # a battery's charge too
    POWER = "power"
    ELECTRICITY = "electricity"
    FREQUENCY = "frequency"
    PRESSURE = "pressure"
    DATA = "data"
    DENSITY = "density"  # a screen's or a printer's dots per inch
    SOUND = "sound"
    LIGHT = "light"
    SPEED = "speed"
    FUEL = "fuel"
    ANGLE = "angle"
    TEMPERATURE = "temperature"
    TIME = "time"
    MONEY = "money"
    SHARE = "share"


class System(Enum):
    """The system of units a length's, weight's, volume's, speed's or temperature's unit is of: a value in one on a
    side and in the other on the other side is a conversion or a unit changed (attnmt.decoding.verbatim)."""

    METRIC = "metric"
    IMPERIAL = "imperial"  # the United States' customary units too


@dataclass(frozen=True)
class Unit:
    """One unit: its symbols as written (case kept: "m", a metre, is no "M", a million), its names in English and
    in German in the singular (a reader adds the plural's and the case's endings), its system where it has one, and
    its names in other languages the verbatim rule reads for it, each form as written (Italian's plural ends
    otherwise: "miglio", "miglia")."""

    kind: Kind
    symbols: tuple[str, ...]
    english: tuple[str, ...]
    german: tuple[str, ...]
    system: System | None = None
    elsewhere: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """How a reader tells units apart: by their first English name, so that units named alike are one to it
        (the pound sterling and the pound weight: "£5" as "5 Pfund" keeps its unit), or by their first symbol."""
        return self.english[0] if self.english else self.symbols[0]


def _unit(kind: Kind, symbols: str, english: str = "", german: str = "", system: System | None = None,
          elsewhere: str = "") -> Unit:
    return Unit(kind, tuple(symbols.split()), tuple(english.split()), tuple(german.split()), system,
                tuple(elsewhere.split()))


_L, _W, _V = Kind.LENGTH, Kind.WEIGHT, Kind.VOLUME  # the kinds most units are of, short
_SI, _US = System.METRIC, System.IMPERIAL
# Each unit: its kind, then its symbols, its English names and its German names, each spaced apart ("" for none),
# its system, and its names in Spanish and Italian.
UNITS = (
    _unit(_L, "mm", "millimetre millimeter", "millimeter", _SI),
    _unit(_L, "cm", "centimetre centimeter", "zentimeter", _SI), _unit(_L, "dm", system=_SI),
    _unit(_L, "m", "metre meter", "meter", _SI), _unit(_L, "km", "kilometre kilometer", "kilometer", _SI),
    _unit(_L, "µm μm", system=_SI), _unit(_L, "nm", system=_SI),
    _unit(_L, "in", "inch", "zoll", _US, "pulgada pulgadas pollici"),
    _unit(_L, "ft", "foot feet", "fuß", _US, "pies piedi"), _unit(_L, "yd", "yard", "yard", _US),
    _unit(_L, "mi", "mile", "meile", _US, "milla millas miglio miglia"), _unit(_L, "px", "pixel", "pixel"),
    _unit(_W, "mg", "milligram", "milligramm", _SI), _unit(_W, "g", "gram gramme", "gramm", _SI),
    _unit(_W, "kg", "kilogram kilogramme kilo", "kilogramm", _SI), _unit(_W, "t", "tonne ton", "tonne"),
    _unit(_W, "µg μg mcg", "microgram", "mikrogramm", _SI), _unit(_W, "ng", system=_SI),
    _unit(_W, "oz", "ounce", "unze", _US), _unit(_W, "lb lbs", "pound", "pfund", _US, "libbre"),
    _unit(_W, "st", "stone"), _unit(_W, "ct", "carat", "karat"),
    _unit(_V, "ml", "millilitre milliliter", "milliliter", _SI), _unit(_V, "cl", system=_SI),
    _unit(_V, "dl", system=_SI), _unit(_V, "l", "litre liter", "liter", _SI), _unit(_V, "µl μl", system=_SI),
    _unit(_V, "fl", system=_US), _unit(_V, "gal", "gallon", "gallone", _US, "galones"),
    _unit(_V, "qt", "quart", "quart", _US), _unit(_V, "pt", "pint", "pint", _US),
    _unit(_V, "tsp", "teaspoon", "teelöffel"), _unit(_V, "tbsp", "tablespoon", "esslöffel"),
    _unit(_V, "", "cup", "tasse"),
    _unit(Kind.AREA, "", "acre"), _unit(Kind.AREA, "", "hectare"),
    _unit(Kind.AMOUNT, "mol", "mole"), _unit(Kind.AMOUNT, "mmol µmol μmol nmol mEq IU U ppm ppb"),
    _unit(Kind.ENERGY, "cal", "calorie"), _unit(Kind.ENERGY, "kcal", "kilocalorie"),
    _unit(Kind.ENERGY, "J", "joule"), _unit(Kind.ENERGY, "kJ", "kilojoule"),
    _unit(Kind.ENERGY, "MJ Wh kWh MWh mAh Ah"),
    _unit(Kind.POWER, "W", "watt"), _unit(Kind.POWER, "kW", "kilowatt"), _unit(Kind.POWER, "MW hp"),
    _unit(Kind.ELECTRICITY, "V", "volt"), _unit(Kind.ELECTRICITY, "A", "amp ampere"),
    _unit(Kind.ELECTRICITY, "Ω", "ohm"), _unit(Kind.ELECTRICITY, "kV mV mA kΩ"),
    _unit(Kind.FREQUENCY, "Hz", "hertz"), _unit(Kind.FREQUENCY, "kHz MHz GHz rpm bpm"),
    _unit(Kind.PRESSURE, "bar", "bar"), _unit(Kind.PRESSURE, "Pa", "pascal"),
    _unit(Kind.PRESSURE, "hPa kPa MPa mbar psi mmHg atm"),
    _unit(Kind.DATA, "B", "byte"), _unit(Kind.DATA, "kB", "kilobyte"), _unit(Kind.DATA, "MB", "megabyte"),
    _unit(Kind.DATA, "GB", "gigabyte"), _unit(Kind.DATA, "TB", "terabyte"),
    _unit(Kind.DATA, "KiB MiB GiB TiB bps kbps Mbps Gbps"),
    _unit(Kind.DENSITY, "dpi ppi"), _unit(Kind.SOUND, "dB", "decibel"), _unit(Kind.SOUND, "dBm"),
    _unit(Kind.LIGHT, "lm", "lumen"), _unit(Kind.LIGHT, "lx lux"),
    _unit(Kind.SPEED, "kn", "knot"), _unit(Kind.SPEED, "mph", system=_US),
    _unit(Kind.SPEED, "kph kmh", system=_SI), _unit(Kind.FUEL, "mpg"),
    _unit(Kind.ANGLE, "", "degree"),
    _unit(Kind.TEMPERATURE, "°C", "celsius", "celsius", _SI),
    _unit(Kind.TEMPERATURE, "°F", "fahrenheit", "fahrenheit", _US),
    _unit(Kind.TEMPERATURE, "K", "kelvin", "kelvin"),
    _unit(Kind.TIME, "ms"), _unit(Kind.TIME, "s", "second", "sekunde"), _unit(Kind.TIME, "min", "minute", "minute"),
    _unit(Kind.TIME, "h", "hour", "stunde"), _unit(Kind.TIME, "", "day", "tag"),
    _unit(Kind.TIME, "", "week", "woche"), _unit(Kind.TIME, "", "month", "monat"),
    _unit(Kind.TIME, "", "year", "jahr"),
    _unit(Kind.MONEY, "$", "dollar", "dollar"), _unit(Kind.MONEY, "€", "euro", "euro"),
    _unit(Kind.MONEY, "£", "pound", "pfund"), _unit(Kind.MONEY, "", "cent", "cent"),
    _unit(Kind.SHARE, "%", "percent", "prozent"),
)

# The symbols a sentence writes as often for something else: "in" is a word ("3 in 10"), "s" the end of a plural
# ("the 1990s"), "st" an ordinal's ("the 1st"), "ct" a cent's as often as a carat's, "K" a thousand's ("a 5K run").
# Read as units in a value alone ("SCREEN: 3 in"), not in a sentence.
READ_OTHERWISE = frozenset({"in", "s", "st", "ct", "K"})

# The marks a foot or an inch is written with after a number ("4'", "6″", "5’ 10”"): an imperial value's to the
# verbatim rule, but no unit's symbol to the other readers, as a quotation's marks are the same characters.
FOOT_AND_INCH_MARKS = "'’′\"”″"


def of_kinds(kinds: Collection[Kind]) -> Iterator[Unit]:
    """The units (``UNITS``) of ``kinds``."""
    return (unit for unit in UNITS if unit.kind in kinds)


def symbols_in_sentences(kinds: Collection[Kind]) -> list[str]:
    """The symbols of ``kinds``' units that a sentence writes for their units (not ``READ_OTHERWISE``), the longer
    first, so that a pattern made of them reads "mm" before "m"."""
    return sorted((s for unit in of_kinds(kinds) for s in unit.symbols if s not in READ_OTHERWISE),
                  key=len, reverse=True)


def names(kinds: Collection[Kind]) -> list[str]:
    """The English and German names of ``kinds``' units in the singular, the longer first, so that a pattern made
    of them reads "kilogram" before "gram"."""
    return sorted({name for unit in of_kinds(kinds) for name in (*unit.english, *unit.german)}, key=len, reverse=True)
