"""Fractions and multiples in words, for the ``verbatim`` rule (attnmt.decoding.verbatim): "Fill the tank half full."
as "Füllen Sie den Tank ganz." keeps every number and loses the half; "Prices have doubled." as "Die Preise haben
sich verdreifacht." changes a multiple no number rule reads.

A part (PARTS: half, quarter, third, double, triple) one side says in a word that reads as a number (``said``)
must be said on the other side in some way (``matched``, read generously: any word of its stem, its number in
words or digits, "double" as "zweimal", "half" as "Halfpipe"), else the rule breaks, as a cardinal dropped does
(attnmt.decoding.verbatim_words).  The words read are those whose number is clear in English and German
(FRACTIONS_IN), and only where both languages are known:

- "half", "halves" and German's "halb" in a word of its own, "Hälfte", "anderthalb", "zweieinhalb" ("half an hour"
  is "eine halbe Stunde"), not "halfway" (as often "mitten") nor German's compounds ("Halbinsel" is a peninsula,
  "halbwegs" fairly);
- "quarter" in lower case ("the French Quarter" is a name), "three quarters", and German's "Viertel" where it is a
  share or a time ("ein Viertel", "drei Viertel", "Viertel nach drei", "Viertelstunde"), not a town's district
  ("ein ruhiges Viertel"), nor "quarterback";
- "third", "thirds" (an ordinal too, which German says with "dritt-" as well) and German's "Drittel", "dritte";
- "double", "doubled" and German's "doppelt", "verdoppelt", not "double-check" ("überprüfen") nor "double bass"
  ("Kontrabass");
- "triple", "tripled", "threefold" and German's "dreifach", "verdreifacht".

A fraction in digits is read as the same words ("1/2 cup" is "half a cup", "3/4" "three quarters",
``fractions_in_words``), and a whole number and a half as one number (``with_half``: "two and a half", "2½", "2 1/2"
and "zweieinhalb" are 2.5, which "2,5" is too).  German's "Viertel" is a share only where the other side names no
district ("ein Viertel der Stadt" is "a district of the city" as often as "a quarter of the city").

A share said as a fraction in words on one side and as a percentage on the other is the same share
(``percent_as_fraction``): "Three quarters of the students" as "75 Prozent der Studenten", "half" as "50 %", "two
thirds" as "67 percent" (within a point).

Left out: "twice", which German says as "doppelt so" or "noch einmal" as often as "zweimal" (its value, 2, pairs
with "zweimal" among the numbers in words); "once" and "einmal", a time past ("once upon a time", "es war
einmal"), a conjunction ("once it is saved", "sobald") or a filler ("noch einmal", "nicht einmal", "at once")
far more often than a count.  How many times a side says a part is not compared.
"""

from __future__ import annotations

import re
from decimal import Decimal

FRACTIONS_IN = ("en", "de")  # the languages PARTS reads
# Each part: the words that say it (whole words, case-insensitive but where marked), and what says it in any way.
_PARTS = {
    "half": (r"half|halves|halb(?:e[mnrs]?)?|hälften?|anderthalb|\w+einhalb",
             r"\w*(?:halb|hälft)\w*|half\w*|halv\w*|semi\w*|mid\w*|mitte\w*|partial\w*|fifty|50|\d*[.,]50?"),
    "quarter": (r"(?-i:quarter)|(?:three|two)[\s-]quarters|(?:ein|zwei|drei)\s?viertel\w*"
                r"|viertel(?:stunde|jahr|finale|liter|pfund)\w*|viertel(?=\s+(?:nach|vor)\b)",
                r"\w*viertel\w*|quarter\w*|quartal\w*|fourths?|fifteen|fünfzehn|15|25|\d*[.,][27]5"
                r"|district\w*|neighbou?rhood\w*|borough\w*|\w*bezirk\w*|stadtteil\w*|altstadt|quartier\w*"),
    "third": (r"thirds?|drittel\w*|dritt(?:e[mnrs]?)?",
              r"third\w*|3rd|three|\w*dritt\w*|drei\w*|3"),
    "double": (r"doubl(?:e|ed|es|ing)(?![\s-](?:check|bass))|(?:ver)?doppel(?:t\w*|n|e)?",
               r"doubl\w*|twice|two|dual|twins?|pairs?|\w*doppel\w*|zweimal|zwei\w*|2"),
    "triple": (r"tripl(?:e|ed|es|ing)|threefold|(?:ver)?dreifach\w*",
               r"tripl\w*|thrice|three\w*|\w*dreifach\w*|dreimal|drei\w*|3"),
}
# A fraction in digits as the words it is read by, as a vulgar one is (verbatim._VULGAR): halves, thirds and
# quarters alone, with no digit, slash or decimal mark around them ("24/7", "5/3/2021" are none); after a whole
# number, its half is "and a half" (``with_half``): "2 1/2" is "2 and a half".
ASCII_FRACTION = re.compile(r"(?<![\d/.,])(?:(\d+)\s+)?([1-3])/([2-4])(?![\d/]|[.,]\d)")
_FRACTION_WORDS = {"1/2": "half", "1/3": "third", "2/3": "two thirds", "1/4": "quarter", "3/4": "three quarters"}
AND_A_HALF = re.compile(r"[\s-]+and[\s-]+(?:a|one)[\s-]+half\b", re.IGNORECASE)
# A percentage in digits (``percent_as_fraction``): "75 %", "75%", "12,5 Prozent", "50 percent", "40 per cent".
PERCENT = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?(?:%|\b(?:per\s?cent|prozent|pct)\b)", re.IGNORECASE)
# A share in words: a numerator, none being one ("half", "die Hälfte", "a quarter"), then its denominator, apart or
# in one word ("three quarters", "three-quarters", "drei Viertel", "Dreiviertel", "zwei Drittel").
SHARE = re.compile(r"\b(?:(an?|one|two|three|four|ein(?:e[mnrs]?)?|zwei|drei|vier)[\s-]?)?"
                   r"(halves|half|hälfte|quarters?|viertel|thirds?|drittel|fifths?|fünftel|tenths?|zehntel)\b",
                   re.IGNORECASE)
_NUMERATORS = {"two": 2, "zwei": 2, "three": 3, "drei": 3, "four": 4, "vier": 4}  # any other: one
_DENOMINATORS = {"hal": 2, "häl": 2, "qua": 4, "vie": 4, "thi": 3, "dri": 3, "fif": 5, "fün": 5, "ten": 10, "zeh": 10}
PARTS = {name: (re.compile(rf"\b(?:{said})\b", re.IGNORECASE), re.compile(rf"\b(?:{matched})\b", re.IGNORECASE))
         for name, (said, matched) in _PARTS.items()}


def parts_said(text: str) -> set[str]:
    """The parts (PARTS) ``text`` says in a word that reads as a number."""
    return {name for name, (said, _) in PARTS.items() if said.search(text)}


def fractions_differ(source: str, translation: str) -> bool:
    """Whether one of ``source`` and ``translation`` says a part (PARTS) the other says in no way (module
    docstring): "half full" as "ganz", "ein Viertel" as "a third"."""
    return any(not PARTS[name][1].search(other) for one, other in ((source, translation), (translation, source))
               for name in parts_said(one))


def fractions_in_words(text: str) -> str:
    """``text`` with its halves, thirds and quarters in digits (ASCII_FRACTION) in words: "1/2 cup" as "half cup",
    "2 1/2 hours" as "2 and a half hours"; "5/3" and "24/7" as they are."""
    def words(match: re.Match[str]) -> str:
        said = _FRACTION_WORDS.get(f"{match[2]}/{match[3]}")
        if said is None:
            return match[0]
        return f"{match[1]} and a half" if match[1] and said == "half" else f"{match[1] or ''} {said} "

    return ASCII_FRACTION.sub(words, text)


def with_half(value: Decimal, word: str, text: str, end: int) -> tuple[Decimal, int]:
    """``value``, the number ``word`` (digits or words) ending at ``end`` of ``text`` names, and where the number
    ends, with the half that follows it ("two and a half", "2 and a half": AND_A_HALF) or ends its German word
    ("zweieinhalb", "anderthalb") added: 2.5, as "2,5" is, where the half was read apart and "2,5" flagged."""
    if after := AND_A_HALF.match(text, end):
        return value + Decimal("0.5"), after.end()
    return value + (Decimal("0.5") if word.lower().endswith(("einhalb", "anderthalb")) else 0), end


def digits_with_half(digits: str, text: str, end: int) -> tuple[str, int]:
    """A whole number in ``digits`` ending at ``end`` of ``text``, and where it ends, with the half that follows it
    ("2 and a half", from "2½" or "2 1/2") written as a decimal fraction: "2.5", as "2,5" reads."""
    after = AND_A_HALF.match(text, end)
    return (f"{digits}.5", after.end()) if after and digits.isdigit() else (digits, end)


def percent_as_fraction(source: str, translation: str) -> tuple[str, str]:
    """``source`` and ``translation`` without each percentage (PERCENT) one of them writes for a share the other
    says in words (SHARE, within a point: "two thirds" is 67 % as well as 66 %), and without that share: "Three
    quarters of the students" and "75 Prozent der Studenten" keep "of the students" and "der Studenten", where 75
    was a number added and "three" one dropped.  A percentage the other side writes too, or a share it says too,
    is left for the numbers and PARTS to pair ("three quarters, or 75 %" as "drei Viertel, 75 %")."""
    texts = [source, translation]
    for one, other in ((0, 1), (1, 0)):
        for percent in list(PERCENT.finditer(texts[one])):
            value = float(percent[1].replace(",", "."))
            share = next((m for m in SHARE.finditer(texts[other]) if abs(share_value(m) - value) < 1), None)
            if share is None or any(float(p[1].replace(",", ".")) == value for p in PERCENT.finditer(texts[other])) \
                    or any(abs(share_value(m) - value) < 1 for m in SHARE.finditer(texts[one])):
                continue
            texts[one] = texts[one].replace(percent[0], " ", 1)
            texts[other] = texts[other][:share.start()] + " " + texts[other][share.end():]
    return texts[0], texts[1]


def share_value(share: re.Match[str]) -> float:
    """The percentage a SHARE match says: "three quarters" 75, "die Hälfte" 50, "zwei Drittel" 66.7."""
    numerator = _NUMERATORS.get((share[1] or "").lower(), 1)
    return 100 * numerator / _DENOMINATORS[share[2][:3].lower()]
