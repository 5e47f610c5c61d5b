"""Numbers in words, for the ``verbatim`` rule (attnmt.decoding.verbatim): the cardinals of English, German,
French and Spanish (CARDINALS), and which of them a translation must say in a number too (``counted_word``).

A cardinal from 2 up written as a word of its own says how many: the other side says it too, in digits, in
words or as a group ("two" as "beide", "Paar").  So the rule breaks where the source says one the translation
does not (``word_dropped``: "Two men ride." as "Männer fahren."), and where the translation says one the source
does not (``word_added``: "A man" as "Fünf Männer"), the article "a" being no number to pair it with.  On
Multi30k's validation and test references, en-de, ``word_added`` flags 3 of 2,014 pairs, each a number the
English lacks ("Twp children" for "Zwei Kinder", "holding to pink dogs" for "zwei pinke Hunde", "a team
baseball game" for "Baseballspiel zwischen zwei Teams"); of its 29,000 training pairs, 34.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.text.language_codes import primary_subtag

if TYPE_CHECKING:  # verbatim imports this module
    from attnmt.decoding.verbatim import Number

CARDINALS = {
    0: "zero null zéro cero", 1: "one eins ein eine einen einem einer eines un une uno una",
    2: "two zwei deux dos twice", 3: "three drei trois tres", 4: "four vier quatre cuatro",
    5: "five fünf cinq cinco", 6: "six sechs seis", 7: "seven sieben sept siete", 8: "eight acht huit ocho",
    9: "nine neun neuf nueve", 10: "ten zehn dix diez", 11: "eleven elf onze once",
    12: "twelve zwölf douze doce dozen dutzend",
    13: "thirteen treize trece", 14: "fourteen quatorze catorce", 15: "fifteen quinze quince",
    16: "sixteen seize dieciséis", 17: "seventeen diecisiete", 18: "eighteen dieciocho", 19: "nineteen diecinueve",
    20: "twenty vingt veinte", 30: "thirty trente treinta", 40: "forty quarante cuarenta",
    50: "fifty cinquante cincuenta", 60: "sixty soixante sesenta", 70: "seventy setenta", 80: "eighty ochenta",
    90: "ninety noventa", 100: "hundred cent cien ciento", 1000: "thousand mille mil",
    10**6: "million millions millionen", 10**9: "milliarde milliarden billion billions",
}
# A cardinal in words (``counted_word``), but for one that is another word too in every language ("cent": a coin
# and French's "pour cent", "mil": "mil gracias", a unit) ...
COUNTED_IN = ("en", "de", "fr", "es")  # the languages CARDINALS writes numbers in words of
_COUNTED = frozenset(word for value, words in CARDINALS.items() if value >= 2 for word in words.split()) - {
    "twice", "cent", "mil"}
# ... or in the language the text is in: English's "elf", "once", "seize", "quince", "DOS" and "Sept." are 11, 11,
# 16, 15, 2 and 7 in German, Spanish, French, Spanish, Spanish and French; Dutch's "onze" is "our", Portuguese's and
# French's "dos" "of the" and "back", French's "neuf" "new" too.  In a text of no known language, none is read.
_ANOTHER_WORD_IN = {"en": frozenset({"elf", "once", "seize", "quince", "dos", "sept"}), "nl": frozenset({"onze"}),
                    "pt": frozenset({"dos"}), "fr": frozenset({"dos", "neuf"})}
_ANOTHER_WORD_SOMEWHERE = frozenset().union(*_ANOTHER_WORD_IN.values())
_COMPOUND_HEAD = re.compile(r"[\s-]+(?:wheel\w*|ways?|pieces?|stor(?:y|ey|ied)|seat\w*)\b", re.IGNORECASE)
# What says a number without it: "both", "either" (beide, ambos), a pair (Paar, not "ein paar", a few), a trio.
_GROUPS = {"2": re.compile(r"\b(?:both|either|beid\w*|ambos|ambas|entramb\w*|pairs?|(?-i:Paar\w*)|couples?|parej\w*"
                           r"|twins?|zwilling\w*|gemel\w*|gemell\w*|jumea\w*|duos?)\b", re.IGNORECASE),
           "3": re.compile(r"\b(?:tr[ií]os?|triplets?|drilling\w*)\b", re.IGNORECASE)}


def counted_word(word: str, text: str, end: int, language: str | None = None) -> bool:
    """Whether ``word``, a number in words that ends at ``end`` in ``text``, is a cardinal from 2 up written as a
    word of its own ("two dogs", "zwei Hunde"), which a translation says in a number too: not an ordinal
    ("second": a time too), not "twice", nor part of a compound, hyphened or not ("four-wheeler", "four wheeled",
    "two way": "Allradfahrzeug", "Gegenverkehr"), nor another word in ``language``, the text's (_ANOTHER_WORD_IN;
    None: not known, in any): Spanish's "dos perros" counts two, Dutch's "onze kinderen" (our children) no 11."""
    word = word.lower()
    other = _ANOTHER_WORD_SOMEWHERE if language is None else _ANOTHER_WORD_IN.get(primary_subtag(language), ())
    return word in _COUNTED and word not in other and not _COMPOUND_HEAD.match(text, end)


def word_dropped(source: Sequence[Number], translation: Sequence[Number], source_text: str, text: str) -> bool:
    """Whether the source (``source_text``, read as ``source``) says a number in words (``counted_word``) more
    often than the translation (``text``, read as ``translation``) says its value in any way ("Two men ride." as
    "Männer fahren."), but for one said as a group the source does not name (``_GROUPS``: "two dogs" as "beiden
    Hunden", "three people" as "a trio of people"; not "beiden Seiten" for "either side")."""
    dropped = +(Counter(n.value for n in source if n.counted) - Counter(n.value for n in translation))
    return any(value not in _GROUPS or len(_GROUPS[value].findall(text)) <= len(_GROUPS[value].findall(source_text))
               for value in dropped)


def word_added(source: Sequence[Number], translation: Sequence[Number], source_text: str, text: str) -> bool:
    """Whether the translation says a number in words (``counted_word``) more often than the source says its value
    in any way: ``word_dropped`` the other way ("A man sleeps." as "Fünf Männer schlafen."), a group the source
    names being that number ("A pair of shoes" as "Zwei Schuhe")."""
    return word_dropped(translation, source, text, source_text)
