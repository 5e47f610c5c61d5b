"""The ``verbatim`` rule (attnmt.decoding.quality): what a translation carries over as it is, its
URLs, e-mail addresses, file names, placeholders, inline tags and numbers, differs from its source's.

URLs, e-mail addresses, file names and paths (attnmt.decoding.protected) pass through untranslated, so the
two sides must hold the same ones, as multisets, character for character after NFKC (as the model
reads the text: "café" with a combining accent is "café") but for the case of an address and of a URL's scheme and host
(``address_key``).  So must the placeholders a program fills in and the inline tags of a line of plain
text, an app's string (``code_keys``: a document's markup is taken apart, attnmt.documents): printf's
(``%s``, ``%1$d``, ``%(name)s``, ``%.2f``), a brace's (``{0}``, ``{name}``, ``{{name}}``, ``${name}``) and
HTML's or XML's (``<b>``, ``</b>``, ``<br/>``), a tag by its name and whether it closes (``<B>`` is
``<b>``, ``<br>`` is ``<br/>``, and its attributes may be translated).  Numbers are read after NFKC too ("m²" is "m2",
"CO₂" "CO2"), a 12-hour time as 24 ("2:30 pm" is "14:30") and a year range in full ("1990-95" is
"1990-1995"), and matched one side's against the other's in three passes:

1. by value (``number_value``): "1,000.5" = "1.000,5" = "1 000,5", "3.50" = "3,5", "$3.00" = "3",
   "1 Million" = "1,000,000", "two and a half" = "2,5", and a number in words (``word_value``) is its value: "zwei",
   "zweihundert", "dreizehnte", "twenty-first", "two hundred", and a German compound by the
   number it starts with ("dreijähriger" is 3);
2. a number in imperial units ("5 miles", "72°F", "4'") left on one side and one in metric units
   on the other (attnmt.text.units' systems: verbatim_units.IMPERIAL, METRIC) are a conversion, but one value in
   imperial units on one side and in metric units on the other is a unit changed ("15 km" as "15 Meilen", "72°F"
   as "72 °C": ``unit_changed``), and so is one value with no unit in common on the two sides ("5 kg" as "5 g",
   "$20" as "20 Euro": attnmt.decoding.verbatim_units);
3. by digit groups (``digit_groups``), for a number the other side writes in other pieces or in
   another order: a date ("05/03/2021", "03.05.2021"), a time ("14:30", "14.30 Uhr"), two numbers
   read as one ("In 2019 150 people": "2019 150").

A number in digits left unmatched on either side breaks the rule; one in words does where the other
side has one in words left over too, from 2 up ("Two boys" as "Drei Jungen"), and where a cardinal written
as a word of its own is said in no way on the other side ("Two men" as "Männer", "A man" as "Fünf Männer":
attnmt.decoding.verbatim_words, where the languages' numbers in words are known, COUNTED_IN), unless as a
group ("two" as "beide", "Paar"); "ein" is as often an article as a number.  So a changed number ("3.5 m" as
"35 m", "1,5 kg" as "15 kg") is found as a dropped or an added one is, and so is a month named in words changed
("May 3" as "3. März"), a day of the week ("on Sunday" as "am Samstag") or a time of day ("at noon" as "um
Mitternacht": attnmt.decoding.verbatim_months), a month or a day the source names that the translation says in no
way, where its language is known ("on Monday" left out: verbatim_months.dates_dropped), and a fraction or a
multiple in words said on one side alone ("half full" as "ganz", "doubled" as "verdreifacht":
attnmt.decoding.verbatim_fractions), where a share in words is the percentage it names ("three quarters" as "75 %").
On Multi30k's validation and test references, en-de, 3 pairs of 2,014 break it, each a number the English lacks
("Twp children" for "Zwei Kinder"; de-en: 3, the same kind); of the benchmark's references with a number word
dropped, all 392 do (benchmarks/results/quality_number_words_epyc.txt).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from decimal import Decimal
from typing import NamedTuple

from attnmt.decoding.protected import PLACEHOLDER, VERBATIM
from attnmt.decoding.verbatim_fractions import (
    FRACTIONS_IN,
    digits_with_half,
    fractions_differ,
    fractions_in_words,
    percent_as_fraction,
    with_half,
)
from attnmt.decoding.verbatim_months import dates_dropped, months_differ, periods_differ, weekdays_differ
from attnmt.decoding.verbatim_units import IMPERIAL, METRIC, measure_after, measure_before, measure_changed
from attnmt.decoding.verbatim_words import CARDINALS, COUNTED_IN, counted_word, word_added, word_dropped
from attnmt.text.language_codes import primary_subtag

# An inline tag, its name (group 2) and whether it closes (group 1).
TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)(?:\s[^<>]*)?/?>")
# A number: digits, and more digits after a decimal or group separator (".", ",", an apostrophe, a colon)
# or after a space (a no-break or thin one too) before a group of exactly three ("1 000,5"); a leading
# decimal separator (",5") where no word or number comes right before it.
NUMBER = re.compile(r"(?:(?<![\w.,])[.,](?=\d))?\d+(?:[.,'’:]\d+|[ \u00a0\u2009\u202f]\d{3}(?!\d))*")
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_NUMBER_OR_WORD = re.compile(f"{NUMBER.pattern}|{WORD.pattern}")
_AFTERNOON = re.compile(r"(?<![\d:.,])(\d{1,2})(:\d\d)?(?=\s?p\.?\s?m\b)", re.IGNORECASE)
_YEAR_RANGE = re.compile(r"(?<![\d.,/–-])(\d\d)(\d\d)([–-])(\d\d)(?![\d.,/–-]?\d)")
# What "24/7" says in words, read as "24/7": "open 24/7" is "rund um die Uhr geöffnet".
_ROUND_THE_CLOCK = re.compile(r"\b(?:a?round[\s-]the[\s-]clock|rund um die uhr)\b", re.IGNORECASE)

# A vulgar fraction as the fraction in digits read in words (verbatim_fractions.fractions_in_words), before NFKC
# writes "2½" as "21⁄2", 21 and 2: "½ cup" is "eine halbe Tasse", "2½ hours" "zweieinhalb Stunden".
_VULGAR = str.maketrans({"½": " 1/2 ", "¼": " 1/4 ", "¾": " 3/4 ", "⅓": " 1/3 ", "⅔": " 2/3 "})
_TENS = tuple(str(tens) for tens in range(20, 100, 10))  # what a number in words of units after it adds to
_ENGLISH_ORDINALS = {1: "first", 2: "second", 3: "third", 5: "fifth", 8: "eighth", 9: "ninth", 12: "twelfth"}
NUMBER_WORDS = {word: value for value, words in CARDINALS.items() for word in words.split()}
NUMBER_WORDS.update((_ENGLISH_ORDINALS.get(value) or (word[:-1] + "ieth" if word.endswith("y") else word + "th"), value)
                    for value, words in CARDINALS.items() if value < 10**6 for word in words.split()[:1])
NUMBER_WORDS.update((stem + ending, value) for stem, value in (("erst", 1), ("dritt", 3))
                    for ending in ("", "e", "en", "er", "es", "em"))
# The pieces German writes its numbers of (dreizehn, einundzwanzig, zweihundert, dreitausendzwölf), longest first.
_GERMAN = {"ein": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sech": 6, "sieben": 7,
           "sieb": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12, "zwanzig": 20, "dreißig": 30,
           "vierzig": 40, "fünfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80, "neunzig": 90,
           "hundert": 100, "tausend": 1000, "und": 0}
_GERMAN_PIECE = re.compile("|".join(sorted(_GERMAN, key=len, reverse=True)))
_GERMAN_NUMBER = re.compile(f"(?:{_GERMAN_PIECE.pattern})+")  # a German number's pieces, from a word's start
_FRACTION_END = re.compile("s?tel")  # what makes a German number a fraction's denominator: "Viertel", "Hundertstel"


class Number(NamedTuple):
    """A number one side holds: its value (None where its digits are no one number, "03.05.2021"),
    its digit groups (``digit_groups``; none for a number in words) and the units written after it."""

    value: str | None
    groups: tuple[str, ...] = ()
    unit: str = ""  # "imperial", "metric" or ""
    counted: bool = False  # a cardinal in words a translation must keep (``counted_word``)
    measure: str = ""  # the unit written with it, in symbols or words: its name (attnmt.text.units)


def _plain(number: Decimal) -> str:
    return format(number.normalize(), "f")


def _whole_and_fraction(number: str) -> tuple[str, str] | None:
    """A number's whole digits and those of its decimal fraction ("1,000.50": "1000", "50"); None
    where its digits are no one number (a date, a version, a time: "03.05.2021", "2.3.1", "14:30").
    One separator between groups of exactly three groups thousands ("1.000" is 1000, "10 000" 10000);
    the last "." or "," before any other group is the decimal one ("3.5", "1.000,5", ",5")."""
    digits, separators = re.split(r"\D", number), re.findall(r"\D", number)

    def grouped(groups: list[str], between: list[str]) -> bool:
        return not between or bool(groups[0]) and len(groups[0]) <= 3 and len(set(between)) == 1 \
            and all(len(group) == 3 for group in groups[1:])

    if ":" in separators:
        return None
    if grouped(digits, separators):
        return "".join(digits), ""
    if separators[-1] in ".," and separators[-1] not in separators[:-1] and grouped(digits[:-1], separators[:-1]):
        return "".join(digits[:-1]), digits[-1]
    return None


def number_value(number: str) -> str | None:
    """A number's value, written plainly: "1,000.50", "1.000,5", "1 000,5" and "1000.5" are all
    "1000.5", "3.00" is "3", ",5" is "0.5"; None where its digits are no one number (``_whole_and_fraction``)."""
    parts = _whole_and_fraction(number)
    return None if parts is None else _plain(Decimal(f"{parts[0] or 0}.{parts[1] or 0}"))


def digit_groups(number: str) -> tuple[str, ...]:
    """A number's digit groups, for a number the other side writes in other pieces or in another order:
    leading zeros stripped ("03.05.2021" is 3, 5, 2021), but a decimal fraction's and the minutes after
    a colon kept ("3.05" is 3, "05", and "14:30" and "14.30" are 14, "30"), dropped where all zeros
    ("14:00" is 14, "3.0" is 3)."""
    digits, separators = re.split(r"\D", number), re.findall(r"\D", number)
    parts = _whole_and_fraction(number)
    groups = [digits[0].lstrip("0") or "0"]
    for index, (separator, group) in enumerate(zip(separators, digits[1:], strict=True), start=1):
        if separator == ":" or parts and parts[1] and index == len(digits) - 1:
            groups += [group] if group.strip("0") else []
        else:
            groups.append(group.lstrip("0") or "0")
    return tuple(groups)


def word_value(word: str) -> int | None:
    """The number a lowercased word names: one of NUMBER_WORDS, a compound of tens and units
    ("twenty-five", "twenty-first"), the first of hyphened words ("three-year-old"), or a German
    number and what follows it ("fünfundzwanzig", "zweihundert", "dreizehnte", "dreijähriger",
    "fünf-sterne-hotel"), the whole number of one and a half ("zweieinhalb" is 2, as "two and a half" says it);
    None for any other word."""
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    head, _, tail = word.partition("-")
    tens, units = NUMBER_WORDS.get(head), NUMBER_WORDS.get(tail, 0)
    if tens is not None and tens in range(20, 100, 10) and units in range(1, 10):
        return tens + units
    if tens is not None:
        return tens  # "three-year-old"
    if word.endswith("einhalb") and word != "einhalb" or word == "anderthalb":
        # "zweieinhalb" is two and a half, not zwei + ein: its whole number, the half verbatim_fractions.with_half adds.
        return 1 if word == "anderthalb" else word_value(word.removesuffix("einhalb"))
    pieces = _GERMAN_NUMBER.match(word)
    if not pieces or word.startswith("und") or pieces.group() == "ein" and word != "ein":
        return None  # "ein" begins too many other words: einfach, einige, Eingang
    found = _GERMAN_PIECE.findall(pieces.group())
    if _FRACTION_END.match(word, pieces.end()) or found[-1] == "acht" and word[pieces.end():].startswith("el"):
        found.pop()  # a fraction's denominator ("Viertel", "Achtel"): "Dreiviertel" is three, not 7, "Viertel" none
    if not found:
        return None
    total = current = 0
    for piece in found:
        if _GERMAN[piece] == 1000:
            total, current = total + (current or 1) * 1000, 0
        else:
            current = (current or 1) * 100 if _GERMAN[piece] == 100 else current + _GERMAN[piece]
    return total + current


def _readable(text: str) -> str:
    """``text`` (in NFKC: ``differs``) as its numbers are read: without its URLs and addresses, "round the clock" as
    "24/7", 12-hour afternoon times as 24-hour ones, abbreviated year ranges in full, every digit an ASCII one ("٣"
    is "3")."""
    text = _ROUND_THE_CLOCK.sub(" 24/7 ", VERBATIM.sub(" ", text))
    text = re.sub(r"\d", lambda m: str(unicodedata.decimal(m[0])), text)
    text = _AFTERNOON.sub(lambda m: f"{int(m[1]) + 12 if 0 < int(m[1]) < 12 else m[1]}{m[2] or ''}", text)
    return _YEAR_RANGE.sub(lambda m: m[0] if m[4] <= m[2] else f"{m[1]}{m[2]}{m[3]}{m[1]}{m[4]}", text)


def numbers_in(text: str, language: str | None = None) -> list[Number]:
    """The numbers ``text`` (in NFKC: ``differs``) writes, in digits or in words, outside its URLs and
    e-mail addresses, each with the units after it (a number in words too: "five foot"); a number
    followed by "hundred", "thousand", "million" ... is multiplied ("two hundred", "1,5 Millionen"), and
    tens in words followed by units in words are one number ("twenty five"), and so is a whole number and a half
    ("two and a half", "2½", "zweieinhalb" are 2.5: verbatim_fractions.with_half).  ``language``: the text's, where
    known, which tells a cardinal from another word (verbatim_words.counted_word: "dos" in Spanish, not French)."""
    return list(_numbers_found(text, language))  # a list of its own: _pair takes numbers out of it


@functools.lru_cache(maxsize=4096)  # calibrating read each source a dozen times: 5,576 readings of 460 texts
def _numbers_found(text: str, language: str | None) -> tuple[Number, ...]:
    """``numbers_in``'s numbers, read once for each text and language."""
    found: list[Number] = []
    text, end = _readable(text), -1
    for match in _NUMBER_OR_WORD.finditer(text):
        digits = match[0][-1].isdigit()
        if digits:
            written, after = digits_with_half(match[0], text, match.end())  # "2 and a half" (from "2½") is "2.5"
        elif (whole := word_value(match[0].lower())) is None:
            continue
        else:
            value, after = with_half(Decimal(whole), match[0], text, match.end())  # "two and a half" is 2.5
        imperial = IMPERIAL.match(text, after)  # after a word, a unit in letters: "two 'cool' men" is no feet
        unit = ("imperial" if imperial and (digits or re.search(r"[^\W\d_]", imperial[0])) else
                "metric" if METRIC.match(text, after) else "")
        measure = measure_after(text, after) or measure_before(text, match.start())
        if digits:
            number = Number(number_value(written), digit_groups(written), unit, measure=measure)
        else:
            counted = not unit and counted_word(match[0], text, match.end(), language)
            number = Number(_plain(value), unit=unit, counted=counted, measure=measure)
            previous = found[-1] if found else None
            # Not a unit of the number before ("15 Cent": French's hundred is a coin too, verbatim_units).
            if previous and previous.value and text[end:match.start()].isspace() and not previous.measure and (
                    value in (100, 1000, 10**6, 10**9) and value > Decimal(previous.value)
                    or 0 < value < 10 and not previous.groups and previous.value in _TENS):
                total = Decimal(previous.value) * value if value >= 100 else Decimal(previous.value) + value
                found[-1] = previous._replace(value=_plain(total), unit=unit, measure=measure)
                end = match.end()
                continue
        found.append(number)
        end = match.end()
    return tuple(found)


def _pair(ours: list[Number], theirs: list[Number], key: Callable[[Number], str | None]) -> None:
    """Takes out of both lists the numbers whose ``key`` is the same, one for one: each of ours in
    turn with the first of theirs left that has its key.  Theirs are found by key, not searched one
    by one for each of ours: 5,000 numbers on each side, none paired, took 5 s."""
    waiting: dict[str, deque[int]] = defaultdict(deque)  # the places of theirs with each key, in order
    for place, other in enumerate(theirs):
        if (found := key(other)) is not None:
            waiting[found].append(place)
    paired: set[int] = set()  # the places in theirs taken
    kept = []
    for number in ours:
        found = key(number)
        if found is not None and waiting.get(found):
            paired.add(waiting[found].popleft())
        else:
            kept.append(number)
    ours[:] = kept
    theirs[:] = [other for place, other in enumerate(theirs) if place not in paired]


def groups_left(source: str, translation: str) -> tuple[Counter[str], Counter[str]]:
    """The digit groups of the numbers in digits the source and the translation (in NFKC: ``differs``)
    each hold and the other does not, after the three passes of the module docstring."""
    return numbers_left(source, translation)[:2]


def numbers_left(source: str, translation: str) -> tuple[Counter[str], Counter[str], list[Number], list[Number]]:
    """``groups_left``'s digit groups, and the values of the numbers in words from 2 up or with a half (not "ein",
    "one": articles as often) the source and the translation each hold and the other does not."""
    ours, theirs = numbers_in(source), numbers_in(translation)
    # Digits with digits first, so that a "1" is not paired with an article ("A man with 1 dog": "Ein
    # Mann mit 1 Hund"), then any with any: "1 dog" is "ein Hund".
    _pair(ours, theirs, lambda number: number.value if number.groups else None)
    _pair(ours, theirs, lambda number: number.value)
    for one, other in ((ours, theirs), (theirs, ours)):
        if any(n.unit == "imperial" for n in one) and any(n.unit == "metric" for n in other):
            one[:], other[:] = [n for n in one if n.unit != "imperial"], [n for n in other if n.unit != "metric"]
    left = [Counter(group for number in side if number.groups for group in number.groups) for side in (ours, theirs)]
    left = [left[0] - left[1], left[1] - left[0]]
    words: tuple[list[Number], list[Number]] = ([], [])
    for groups, other, kept in ((left[0], theirs, words[1]), (left[1], ours, words[0])):
        for number in other:
            if number.groups or number.value is None:
                continue
            if groups[number.value] > 0:
                groups[number.value] -= 1
            elif Decimal(number.value) >= 2 or Decimal(number.value) % 1:  # "one and a half" is no article
                kept.append(number)
    return +left[0], +left[1], *words


def address_key(address: str) -> str:
    """A URL or e-mail address (VERBATIM) as it is compared: a URL's scheme and host and all of an
    e-mail address in lower case, as they are case-insensitive ("Info@Example.COM" is
    "info@example.com", "HTTPS://Example.ORG/Path" "https://example.org/Path"); a URL's user and
    password, path, query and fragment as they are ("/Path" is not "/path").  Lower case, not
    casefolded: "straße.de" and "strasse.de" are two domains."""
    scheme, sep, rest = address.partition("://")
    if not sep:  # www.… or an e-mail address
        scheme, rest = "", address
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    user, at, host = authority.rpartition("@")
    if at and not sep and not address.lower().startswith("www."):  # an e-mail address: all of it
        user = user.lower()
    return scheme.lower() + sep + user + at + host.lower() + rest[len(authority):]


def code_keys(text: str) -> Counter[str]:
    """The placeholders and inline tags of ``text`` (outside its URLs, e-mail addresses and file names) as they are
    compared: a placeholder without its spaces (``{ name }`` is ``{name}``), a tag as "<", "/" where it
    closes, and its name in lower case."""
    text = VERBATIM.sub(" ", text)
    found = Counter("".join(m.group().split()) for m in PLACEHOLDER.finditer(text))
    found.update(f"<{m[1]}{m[2].lower()}" for m in TAG.finditer(text))
    return found


def differs(source: str, translation: str, target: str | None = None, source_language: str | None = None) -> bool:
    """Whether ``translation`` breaks the verbatim rule (module docstring): its URLs and e-mail
    addresses are not ``source``'s (``address_key``, both read after NFKC), nor its placeholders and
    inline tags (``code_keys``), or a number in digits on one side is not on the other.  A number in
    words dropped (``word_dropped``) is read only where ``target``, the translation's language, is one
    whose numbers in words are known (COUNTED_IN): "two dogs" as Italian's "due cani" is no number dropped; one
    added (``word_added``) only where ``source_language`` is one too: "due cani" as "zwei Hunde" is none; a fraction
    or a multiple in words said on one side alone (``fractions_differ``) where both languages are FRACTIONS_IN."""
    source, translation = (fractions_in_words(unicodedata.normalize("NFKC", text.translate(_VULGAR)))
                           for text in (source, translation))
    source, translation = percent_as_fraction(source, translation)  # "three quarters" as "75 %": one share
    addresses = [Counter(map(address_key, VERBATIM.findall(text))) for text in (source, translation)]
    if addresses[0] != addresses[1] or code_keys(source) != code_keys(translation):
        return True
    ours, theirs, our_words, their_words = numbers_left(source, translation)
    said = numbers_in(source, source_language), numbers_in(translation, target)  # each in its language
    counted = primary_subtag(target or "") in COUNTED_IN  # the translation's numbers in words are known
    parts = {primary_subtag(target or ""), primary_subtag(source_language or "")} <= set(FRACTIONS_IN)
    return bool(ours or theirs or our_words and their_words  # a number in words changed
                or not their_words and counted and word_dropped(*said, source, translation)
                or not our_words and counted and primary_subtag(source_language or "") in COUNTED_IN
                and word_added(*said, source, translation)
                or parts and fractions_differ(source, translation)
                or unit_changed(*said) or measure_changed(*said)
                or months_differ(source, translation) or weekdays_differ(source, translation)
                or dates_dropped(source, translation, target) or periods_differ(source, translation))


def unit_changed(source: list[Number], translation: list[Number]) -> bool:
    """Whether a value one side writes in imperial units the other writes in metric units, more often than
    each side writes it in the other's: a conversion changes the value, the same value is a unit changed."""
    def count(side: list[Number], unit: str) -> Counter[str]:
        return Counter(number.value for number in side if number.unit == unit and number.value is not None)

    return any((count(one, "imperial") - count(other, "imperial")) & (count(other, "metric") - count(one, "metric"))
               for one, other in ((source, translation), (translation, source)))
