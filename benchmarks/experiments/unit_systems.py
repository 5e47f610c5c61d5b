"""Which system of units the verbatim rule reads after a number (attnmt.decoding.verbatim.numbers_in: "imperial",
"metric" or none), on probes of our own: each unit of attnmt.text.units and the other languages' words for
imperial units, in symbols and words, singular and plural, spaced or not, in capitals, and words that are no unit.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/unit_systems.py > after.txt

Run once with the code before a change and once after, and compare the two outputs line by line (``diff``).
"""

from __future__ import annotations

from attnmt.decoding.verbatim import numbers_in

UNITS = ("mm cm dm m km µm nm in inch inches ft foot feet yd yard yards mi mile miles px mg g kg t tonne tonnes "
         "µg mcg oz ounce ounces lb lbs pound pounds st stone ml cl dl l µl gal gallon gallons qt quart pt pint "
         "tsp tbsp cup cups °C °F ° F K mph kph km/h kmh kn millimetre millimeter millimeters centimetre centimetres "
         "zentimeter meter meters metre metres kilometre kilometres kilometer kilometers gram grams gramme grammes "
         "Gramm kilogram kilograms kilo kilos Kilogramm milligram milliliter millilitres litre litres liter liters "
         "Liter Meile Meilen Fuß Zoll Pfund Unze Unzen Gallone Gallonen Tasse millas milla pies pulgada pulgadas "
         "galones miglia miglio piedi pollici libbre ' ’ ′ \" ” ″ KM KG MILES FT M G L MPH h min s % $ € days "
         "dogs men mango mice grass lbsx gallery")


def main() -> None:
    for unit in UNITS.split():
        for text in (f"It is 5 {unit} long.", f"It is 5{unit} long."):
            found = [number.unit or "-" for number in numbers_in(text)]
            print(f"{text}\t{' '.join(found)}")


if __name__ == "__main__":
    main()
