"""The ``verbatim`` rule (attnmt.decoding.quality): what a translation carries over as it is, its
URLs, e-mail addresses and numbers, differs from its source's.

URLs and e-mail addresses (PROTECTED) pass through untranslated, so the two sides must hold the
same ones, as multisets, character for character.  A number may be written otherwise in the
translation's language ("1,000.5" in English is "1.000,5" or "1 000,5" in German, "3.5" is "3,5"),
so numbers are compared by their digits alone (``number_key``).  A number one side writes in
digits and the other as a word ("2 dogs", "zwei Hunde") is the same number: one side's number
breaks the rule only where the other side holds it neither in digits nor as one of NUMBER_WORDS
(English, German, French and Spanish words for 0 to 20, the tens, 100 and 1000, and English and
German ordinals), so that a good translation is not flagged.  On Multi30k's validation and test
references, both ways, 1 of 2,014 pairs breaks it ("4' in diameter", "120 cm").
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# URLs and e-mail addresses pass through untranslated (attnmt.documents.flat.FlatBuilder); a URL's last
# character is no punctuation (the full stop after "see https://example.org." ends the sentence, not the address).
PROTECTED = re.compile(
    r"(?:\bhttps?://|\bwww\.)[^\s<>\"]*[^\s<>\".,;:!?)\]}'’”…]"
    r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"
)
# A number: digits, and more digits after a decimal or group separator (".", ",", an apostrophe, a colon)
# or after a space (a no-break or thin one too) before a group of exactly three ("1 000,5").
NUMBER = re.compile(r"\d+(?:[.,'’:]\d+|[ \u00a0\u2009\u202f]\d{3}(?!\d))*")

_CARDINALS = {
    0: "zero null zéro cero", 1: "one eins ein eine einen einem einer eines un une uno una",
    2: "two zwei deux dos", 3: "three drei trois tres", 4: "four vier quatre cuatro", 5: "five fünf cinq cinco",
    6: "six sechs seis", 7: "seven sieben sept siete", 8: "eight acht huit ocho", 9: "nine neun neuf nueve",
    10: "ten zehn dix diez", 11: "eleven elf onze once", 12: "twelve zwölf douze doce dozen dutzend",
    13: "thirteen dreizehn treize trece", 14: "fourteen vierzehn quatorze catorce",
    15: "fifteen fünfzehn quinze quince", 16: "sixteen sechzehn seize dieciséis",
    17: "seventeen siebzehn diecisiete", 18: "eighteen achtzehn dieciocho", 19: "nineteen neunzehn diecinueve",
    20: "twenty zwanzig vingt veinte", 30: "thirty dreißig trente treinta", 40: "forty vierzig quarante cuarenta",
    50: "fifty fünfzig cinquante cincuenta", 60: "sixty sechzig soixante sesenta", 70: "seventy siebzig setenta",
    80: "eighty achtzig ochenta", 90: "ninety neunzig noventa", 100: "hundred hundert cent cien ciento",
    1000: "thousand tausend mille mil",
}
_ORDINALS = {  # English, and German stems, which take an ending (erste, ersten, erster ...)
    1: "first erst", 2: "second zweit", 3: "third dritt", 4: "fourth viert", 5: "fifth fünft", 6: "sixth sechst",
    7: "seventh siebt", 8: "eighth acht", 9: "ninth neunt", 10: "tenth zehnt", 11: "eleventh elft",
    12: "twelfth zwölft", 20: "twentieth zwanzigst",
}
NUMBER_WORDS = {word: value for value, words in _CARDINALS.items() for word in words.split()}
NUMBER_WORDS.update((stem + ending, value) for value, words in _ORDINALS.items() for stem in words.split()
                    for ending in ("", "e", "en", "er", "es", "em") if stem + ending not in NUMBER_WORDS)


def number_key(number: str) -> str:
    """A number's digits, without separators and leading zeros: "1,000.5", "1.000,5" and "1 000,5"
    are all "10005", "08" is "8"."""
    return "".join(str(unicodedata.decimal(ch)) for ch in number if ch.isdigit()).lstrip("0") or "0"


def word_value(word: str) -> int | None:
    """The number a lowercased word names (NUMBER_WORDS), or a compound of tens and units
    ("twenty-five", "fünfundzwanzig"); None for any other word."""
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    tens, _, units = word.partition("-")
    if not units:
        units, _, tens = word.partition("und")
    tens_value, units_value = NUMBER_WORDS.get(tens, 0), NUMBER_WORDS.get(units, 0)
    if tens_value in range(20, 100, 10) and units_value in range(1, 10):
        return tens_value + units_value
    return None


def numbers_in(text: str) -> Counter[str]:
    """The keys (``number_key``) of the numbers ``text`` writes in digits, outside its URLs and e-mail addresses."""
    return Counter(number_key(m.group()) for m in NUMBER.finditer(PROTECTED.sub(" ", text)))


def words_for_numbers(text: str) -> set[str]:
    """The numbers ``text`` names in words, as ``number_key`` writes them."""
    found = (word_value(w) for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", text.lower()))
    return {str(value) for value in found if value is not None}


def differs(source: str, translation: str) -> bool:
    """Whether ``translation`` breaks the verbatim rule (module docstring): its URLs and e-mail
    addresses are not ``source``'s, or a number one side writes in digits is not on the other,
    in digits or in words."""
    if Counter(PROTECTED.findall(source)) != Counter(PROTECTED.findall(translation)):
        return True
    ours, theirs = numbers_in(source), numbers_in(translation)
    return bool(set(ours - theirs) - words_for_numbers(translation) or set(theirs - ours) - words_for_numbers(source))
