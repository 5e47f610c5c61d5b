"""A field's value that is a count in English words: a number alone ("Three.", "Two to four", "A dozen"), a number and
a unit's name ("Twenty minutes", "Ten millilitres"), or a number and what is counted ("Two men.", "One suitcase."),
as a form's, a recipe's or a listing's field holds one ("SEATS: Twelve", "PREP TIME: Twenty minutes", "Workers: Two
men.").  A speaker says such words too ("ANNA: Three.", "JACK: Twenty minutes."), so the label before them decides
(attnmt.text.field_names.valued); this module only reads their shape.  The words are English's, as the lists of
field_names are.  A count alone in one word has one translation in each language, which ``count_in`` writes
(``COUNTS``): a model trained on sentences reads it as a caption's start, and the demo model wrote "Twelve" as "Es"
and gave "Three." back in English."""

from __future__ import annotations

import re

from attnmt.text.language_codes import primary_subtag
from attnmt.text.measure_values import unit_name

# A number in English words, and what joins two ("Three.", "Two to four", "A dozen"), as a count's value is written.
NUMBER_WORDS = frozenset({"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
                          "ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN",
                          "NINETEEN", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY",
                          "HUNDRED", "THOUSAND", "MILLION", "DOZEN", "HALF", "NONE", "A", "OR", "TO", "AND"})
# Each language's cardinals from zero to twenty, as a count alone is written ("Drei.", "Douze"), in English's order.
COUNTS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty",
    "de": "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn "
          "siebzehn achtzehn neunzehn zwanzig",
    "fr": "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept "
          "dix-huit dix-neuf vingt",
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
          "diecisiete dieciocho diecinueve veinte",
    "it": "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici sedici "
          "diciassette diciotto diciannove venti",
    "nl": "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien "
          "zeventien achttien negentien twintig",
}
ENGLISH_COUNTS = COUNTS["en"].split()
COUNT_ALONE = re.compile(r"(?P<before>[^\w\s]*)(?P<word>[^\W\d_]+)(?P<after>[^\w\s]*)")  # "Three.", "(four)"
THINGS_COUNTED = 2  # words at most after a count of things: "Two men.", "Two adult tickets."


def counted(said: str) -> bool:
    """Whether ``said`` is a number in English words alone (``NUMBER_WORDS``): "Three.", "Two to four", "A dozen";
    not "Three dogs.", "A lot"."""
    words = re.findall(r"[^\W\d_]+", said.upper())
    return bool(words) and NUMBER_WORDS.issuperset(words) and not NUMBER_WORDS.isdisjoint(set(words) - {"A", "OR",
                                                                                                      "TO", "AND"})


def counted_measure(said: str) -> bool:
    """Whether ``said`` is a count in words (``counted``) and a unit's name after it (measure_values.unit_name), a
    stop after it or none: "Twenty minutes", "Forty-five minutes", "Ten millilitres.", "One hour"; not "Twenty dogs",
    "Ten dollars" (money is what a speaker asks), nor "Twenty minutes later, she left."."""
    words = re.findall(r"[^\W\d_]+", said)
    return (re.fullmatch(r"[^\W\d_\s-]+(?:[\s-]+[^\W\d_]+)+\.?", said.strip()) is not None and unit_name(words[-1])
            and counted(" ".join(words[:-1])))


def counted_things(said: str) -> bool:
    """Whether ``said`` is a count in words that opens it, a number and no article alone (``counted``), and at most
    ``THINGS_COUNTED`` words of what it counts after it, a stop after them or none: "Two men.", "One suitcase",
    "Three adult tickets"; not "A man.", "Two men ride horses."."""
    words = re.findall(r"[^\W\d_]+", said)
    count = next((k for k in range(len(words), 0, -1) if counted(" ".join(words[:k]))), 0)
    return (re.fullmatch(r"[^\W\d_\s-]+(?:[\s-]+[^\W\d_]+)+\.?", said.strip()) is not None
            and count > 0 and words[0].upper() != "A" and 0 < len(words) - count <= THINGS_COUNTED)


def count_in(value: str, language: str | None) -> str | None:
    """``value``, a count alone in one English word from zero to twenty with the marks around it ("Three.",
    "TWELVE", "(four)"), written in ``language``'s word (``COUNTS``) in the case the source writes it ("Drei.",
    "ZWÖLF", "(vier)"); None for any other value, or a language ``COUNTS`` lacks or none."""
    found = COUNT_ALONE.fullmatch(value.strip())
    words = COUNTS.get(primary_subtag(language)) if language else None
    if found is None or words is None or found["word"].lower() not in ENGLISH_COUNTS:
        return None
    word = words.split()[ENGLISH_COUNTS.index(found["word"].lower())]
    if found["word"].isupper() and len(found["word"]) > 1:
        word = word.upper()
    elif found["word"][0].isupper():
        word = word[0].upper() + word[1:]
    return f"{found['before']}{word}{found['after']}"
