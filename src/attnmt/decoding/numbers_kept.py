"""A sentence whose translation drops a number it writes in digits, searched again with that number required.

A small model drops a number where it has no good word around it: "The river is 12 km long." came out "Der Fluss.",
"He weighs 80 kg." "88 88888.", "The man paid 1,000 dollars." "Der Mann verwäht die Puppen.".  A lost number is the
worst error a reader can meet, and the search can place it: where the best translation lacks a number the source
writes in digits (read as the ``verbatim`` quality rule reads them, by value: "3.5" is "3,5", "1,000" is "1.000",
"12" is "zwölf"), the sentence is searched again with each such number a required term, by the constrained search a
glossary's terms go through (attnmt.decoding.constraints), and its other terms kept.  The retry is taken unless the
model scores it more than ``WORSE_BY`` below the first translation (its length-normalised log-probability): there the
model could only force the number into a sentence it would not write, and the first translation stays.  The retry is
scored as the model wrote it around its numbers (``number_score``): the first piece of each number is the model's
choice of where it goes, and costs what the model gives it, but the pieces after it are the number's own digits, fixed
once it starts, and count as the mean of the pieces the model chose (dictated.counted_log_probs): a model that has
seen few numbers gives each digit piece 8 to 12 nats, and "The game ended 3:1." ("Der Basketballspieler 3:1.", its
":" and "1" 16.7 nats) or "$19.99" (four pieces after "▁1") lost whatever the sentence around them, where a number of
one piece ("12") cost one piece's.  A retry that writes its numbers and no word ("1." for "He finished 1st in the
race.") translates nothing, and is not taken.

A required number may be written as the source writes it or, for a target language that writes a decimal comma, with
the comma and the point swapped ("2.5" as "2,5", "1,000.5" as "1.000,5"), whichever the model prefers.  An English
ordinal in digits ("1st", "3rd", "21st") is required as the target language writes it: "1." where it writes a point
after the number (German: "im 3. Stock"), "1st" in English, and not at all in a language that writes it otherwise
("1er", "1º") or in one not known; "Erster" and "third" say it, but not "ein", an article as often as a number.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from attnmt.decoding.constraints import Terms
from attnmt.decoding.dictated import counted_log_probs
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.term_ids import Term, written_so
from attnmt.decoding.verbatim import NUMBER as VERBATIM_NUMBER
from attnmt.decoding.verbatim import WORD, digit_groups, groups_left, number_value, word_value
from attnmt.decoding.verbatim_words import CARDINALS
from attnmt.text.language_codes import primary_subtag

# How much lower (in the search's score, nats a token after the length penalty) a retry with the numbers may be and
# still be taken: benchmarks/results/numbers_kept_xeon.txt.
WORSE_BY = 8.0

# A number in digits as a word of its own, its inner points, commas and colons with it ("12", "2.5", "1,000", "3:1",
# "19.99" of "$19.99"), or thousands parted by spaces ("1 000"), a minus before it ("-5"); not one glued to letters
# ("1st": an ORDINAL; "A4", "3D", "mp3"), a code's or a fraction's part by a hyphen or slash ("COVID-19", "555-1234",
# "1/2", "¾" read as "3⁄4"), which the model copies whole or attnmt.documents carries, nor feet and inches (5'11"), as
# term_numbers.NUMBER reads them.
NUMBER = re.compile(r"(?<![\w.,:/⁄])(?<!\w-)[-−]?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3}(?!\d))+|\d+(?:[.,:]\d+)*)"
                    r"(?![\w/⁄'\"’′″-]|[.,:]\d)")
SPACES = re.compile(r"[ \u00a0\u202f]")  # between thousands
LETTER = re.compile(r"[^\W\d_]")
# An English ordinal in digits, standing as NUMBER does: "1st", "2nd", "3rd", "21st", "4th"; its digits group 1.
ORDINAL = re.compile(r"(?<![\w.,:/⁄])(?<!\w-)(\d+)(?:st|nd|rd|th)(?![\w/⁄'\"’′″-])", re.IGNORECASE)

# The languages that write a decimal comma and a point (or a space) between thousands: "2,5", "1.000".
DECIMAL_COMMA = frozenset({"de", "fr", "es", "it", "nl", "pt", "pl", "cs", "sk", "da", "sv", "no", "nb", "nn", "fi",
                           "ru", "uk", "tr", "ro", "hu", "ca", "el", "bg", "hr", "sl", "id", "af"})
# The languages that write an ordinal in digits with a point after it: "1.", "21." ("der 3. Stock").
ORDINAL_POINT = frozenset({"de", "da", "no", "nb", "nn", "fi", "is", "et", "lv", "cs", "sk", "pl", "hu", "hr", "sl",
                           "sr", "bs", "tr"})
# The cardinals in words, which say no ordinal: "ein" for "1st" is an article as often as a number.
_CARDINAL_WORDS = frozenset(word for words in CARDINALS.values() for word in words.split())


def dropped(source: str, translation: str) -> list[str]:
    """The numbers in digits ``source`` writes as words of their own (NUMBER) whose digits ``translation`` says in no
    way (``verbatim.groups_left``: "2,5", "zwölf" and "1.000" say "2.5", "12" and "1,000"), each once, in order."""
    source, translation = (unicodedata.normalize("NFKC", text) for text in (source, translation))
    missing = groups_left(source, translation)[0]
    found = [(m.start(), m[0], any(missing[g] for g in digit_groups(m[0]))) for m in NUMBER.finditer(source)]
    found += [(m.start(), m[0], not ordinal_said(m[1], translation)) for m in ORDINAL.finditer(source)]
    return list(dict.fromkeys(number for _, number, lost in sorted(found) if lost))


def ordinal_said(digits: str, translation: str) -> bool:
    """Whether ``translation`` says the ordinal whose ``digits`` a source writes ("1" of "1st"): in digits ("1.",
    "1st"), or in a word that names it and is no cardinal ("Erster", "third", "dritten"; not "ein", "one")."""
    value = number_value(digits)
    return any(number_value(m[0]) == value for m in VERBATIM_NUMBER.finditer(translation)) or any(
        str(word_value(word)) == value and word not in _CARDINAL_WORDS
        for word in map(str.lower, WORD.findall(translation)))


def written_forms(number: str, target_lang: str | None) -> list[str]:
    """The ways a translation may write ``number``: as the source does, and, where the target language writes a
    decimal comma, as it writes it: "2.5" as "2,5", "1,000" as "1.000", "1,000.5" as "1.000,5" ("0,75" and "1.000"
    stay; a time, "3:1", or a date is no one number and stays too), and thousands parted by spaces without them too
    ("1 000" as "1000").  An ORDINAL as the target language writes it (``ordinal_forms``)."""
    language = primary_subtag(target_lang or "")
    if ordinal := ORDINAL.fullmatch(number):
        return ordinal_forms(ordinal, language)
    forms = [number, SPACES.sub("", number)]  # "1 000" as "1000" too
    separators = re.findall(r"[.,]", number)
    if language in DECIMAL_COMMA and separators and number_value(number) is not None:
        fraction = number_value(number) != number_value(re.sub(r"[.,]", "", number))
        if separators[-1] == "." if fraction else set(separators) == {","}:  # English's point or thousands' commas
            forms.append(number.translate(str.maketrans(".,", ",.")))
    return list(dict.fromkeys(forms))


def ordinal_forms(ordinal: re.Match[str], language: str) -> list[str]:
    """The ways a translation in ``language`` (a primary subtag) writes an English ``ordinal`` (ORDINAL's match):
    "3rd" as "3." where it writes a point after an ordinal (ORDINAL_POINT), as it is in English; none in another
    language, which writes it otherwise ("3e", "3º"), or none known."""
    if language in ORDINAL_POINT:
        return [ordinal[1] + "."]
    return [ordinal[0]] if language == "en" else []


def number_terms(tokenizer, numbers: Sequence[str], target_lang: str | None) -> list[Term]:
    """Each of ``numbers`` as a required term, its ``written_forms`` the target vocabulary writes exactly (none for a
    number it cannot write), any of which meets it."""
    terms = []
    for number in numbers:
        forms = [form for text in written_forms(number, target_lang) for form in written_so(tokenizer, text)]
        if forms:
            terms.append(Term(forms[0], forms[1:]))
    return terms


def kept(first: list[Hypothesis], first_score: float, retry: list[Hypothesis], retry_score: float) -> list[Hypothesis]:
    """The retry's hypotheses where its best writes every number (no term ``missed``) and scores (``retry_score``:
    ``number_score``) at most WORSE_BY below ``first_score``, the first's best's; else the first's."""
    if not retry or retry[0].missed or retry_score < first_score - WORSE_BY:
        return first
    return retry


def number_score(retry: Hypothesis, numbers: Sequence[Term]) -> float:
    """``retry``'s score (its log-prob over its length penalty) with the pieces after the first of each of the
    ``numbers`` it was made to write (where it first writes one of its forms) counted as the mean of the pieces
    the model chose (dictated.counted_log_probs; module docstring); its score as the search gave it where the search
    scored no pieces."""
    each = retry.token_log_probs
    if not each or not retry.log_prob or not math.isfinite(retry.log_prob):
        return retry.score
    digits = [False] * len(retry.tokens)
    for number in numbers:
        for form in (number, *number.others):
            start = next((k for k in range(len(retry.tokens) - len(form) + 1)
                          if retry.tokens[k:k + len(form)] == list(form)), None)
            if start is not None:
                digits[start + 1:start + len(form)] = [True] * (len(form) - 1)
                break
    counted = retry.log_prob + sum(counted_log_probs(each, digits)) - sum(each)
    return retry.score * counted / retry.log_prob  # the same length penalty


def worded(text: str) -> bool:
    """Whether ``text`` holds a word: a letter of any script."""
    return bool(LETTER.search(text))


class NumbersKept(NamedTuple):
    """A batch's hypotheses after ``with_numbers_kept``, and, for each sentence, the numbers its retry was made to
    write, each in every form it may take (none where no retry was taken): as a glossary's terms are, the user's
    words, not the model's (attnmt.decoding.dictated)."""

    hypotheses: list[list[Hypothesis]]
    required: list[tuple[str, ...]]


class Retries(NamedTuple):
    """A batch's sentences (``rows``) whose best translation drops a number, each with the terms its retry is
    searched with (its own, then the numbers) and the numbers alone (``with_numbers_kept``)."""

    rows: list[int]
    terms: list[Terms]
    numbers: list[list[Term]]


def with_numbers_kept(tokenizer, sentences: Sequence[str], hypotheses: list[list[Hypothesis]], terms: list[Terms],
                      target_lang: str | None, search_again: Callable[[list[int], list[Terms]], list[list[Hypothesis]]],
                      first_scores: Callable[[list[int]], list[float]]) -> NumbersKept:
    """A batch's ``hypotheses`` (one list a sentence of ``sentences``, searched with ``terms``), each sentence whose
    best translation drops a number (``retries``) searched again (``search_again(rows, their terms)``) with the
    numbers required too, its retry taken where ``kept`` says against its best's score (``first_scores(rows)``: a
    greedy search adds up none), with the numbers it required (``numbers_kept``)."""
    wanted = retries(tokenizer, sentences, hypotheses, terms, target_lang)
    if not wanted.rows:
        return NumbersKept(list(hypotheses), [()] * len(hypotheses))
    scores = first_scores(wanted.rows)
    return numbers_kept(tokenizer, sentences, hypotheses, wanted, scores, search_again(wanted.rows, wanted.terms))


def retries(tokenizer, sentences: Sequence[str], hypotheses: list[list[Hypothesis]], terms: list[Terms],
            target_lang: str | None) -> Retries:
    """The sentences of a batch (``hypotheses`` one list a sentence, searched with ``terms``) whose best translation
    drops a number (``dropped``) the target vocabulary writes, with the terms to search each again with: its own and
    the numbers; not a number its terms required already (term_numbers, beside a glossary's terms), which the same
    search would miss again."""
    wanted = Retries([], [], [])
    for row, (sentence, found) in enumerate(zip(sentences, hypotheses, strict=True)):
        numbers = number_terms(tokenizer, dropped(sentence, tokenizer.decode(found[0].tokens)), target_lang) \
            if found else []
        numbers = [number for number in numbers if list(number) not in map(list, terms[row])]  # required already
        if numbers:
            wanted.rows.append(row)
            wanted.terms.append([*terms[row], *numbers])
            wanted.numbers.append(numbers)
    return wanted


def numbers_kept(tokenizer, sentences: Sequence[str], hypotheses: list[list[Hypothesis]], wanted: Retries,
                 first_scores: Sequence[float], retried: Sequence[list[Hypothesis]]) -> NumbersKept:
    """A batch's ``hypotheses`` with the retry of each of the ``wanted`` rows (``retried``, in their order) taken
    where ``kept`` says against the first's best's score (``first_scores``, in the same order), and the numbers each
    retry taken required; a retry of its numbers alone and no word (``worded``) is none."""
    chosen = list(hypotheses)
    required: list[tuple[str, ...]] = [()] * len(hypotheses)
    for row, numbers, score, retry in zip(wanted.rows, wanted.numbers, first_scores, retried, strict=True):
        if retry and worded(sentences[row]) and not worded(tokenizer.decode(retry[0].tokens)):
            retry = []  # its numbers alone: no translation
        chosen[row] = kept(hypotheses[row], score, retry, number_score(retry[0], numbers) if retry else -math.inf)
        if chosen[row] is retry:
            required[row] = tuple(tokenizer.decode(form) for number in numbers for form in (number, *number.others))
    return NumbersKept(chosen, required)
