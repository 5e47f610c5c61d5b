"""Whether a short label's translation is garbled: the one rule every path that translates a label alone follows.

A model trained on sentences (the demo's, on Multi30k's captions) reads a word or two alone as the start of a
caption and writes one: a field's name "BENEFITS" came back "EIN DEMA", "PREP TIME" "GROSSER AMÜSIEREN SICH".
Left in the source's language, a reader still understands it.  So a label's translation is taken only where the
model finds its words plausible (``plausibility_of``: the geometric mean of its words' probabilities, at ``FLOOR``
or over: ``garbled``), judged as it is written: without the full stop the model added, which its source lacks.
The model's doubt that the translation ends there is left out: a caption's model expects a verb after "Kinder"
(its end 0.07 likely), and that doubt, not its words, put "Children" -> "Kinder" under FLOOR.  Into German, a
translation that is no label's is kept out however likely its words (``label_plausibility``: a verb added, "Dog" ->
"Ein Hund schwimmt", 0.50; an article and a noun of two numbers, "A small cat" -> "Eine kleine Katzen", 0.64;
attnmt.decoding.label_phrases), and a plural alone, which a caption's model writes after a number, is read after one
too (``labels_plausibility``: "Red shoes" -> "Rote Schuhe" 0.06, in "Zwei rote Schuhe" 0.46).  Its callers: a
document's short labels (attnmt.documents.short_labels.KeepingLabels: alt texts, captions, a text line's and a cue's
field names) and a field's name that attnmt.decoding.translate cuts from a sentence
(attnmt.decoding.sentence_parts.garbled_names), which ``attnmt.translate`` and the JSONL input of ``attnmt translate``
translate alone, in the best translation and in each hypothesis of an n-best list (a text line's too:
attnmt.documents.paragraphs).  ``FLOOR`` is measured in attnmt.documents.short_labels' docstring."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from attnmt.decoding.label_gender import adjective, determiner_word, phrase, readings
from attnmt.decoding.label_phrases import PLURAL_NUMBER, misread, number, words_of
from attnmt.decoding.term_agreement import QUANTIFIERS
from attnmt.decoding.term_compounds import DETERMINERS
from attnmt.decoding.term_weak import german
from attnmt.decoding.verbatim import numbers_in
from attnmt.text.articles import ANY_ARTICLE
from attnmt.text.count_values import count_in, counted, counted_measure
from attnmt.text.measure_values import named_measure
from attnmt.text.sentence_ends import ended_as_source
from attnmt.text.speaker_labels import speaker_label

if TYPE_CHECKING:
    from attnmt.decoding.quality import Assessment

FLOOR = 0.3  # plausibility under which a label keeps its source (attnmt.documents.short_labels: measured)
# sources, their translations -> how plausible the model finds each (ModelTranslator.plausibility; None: not judged)
Plausibility = Callable[[Sequence[str], Sequence[str]], Sequence[float | None]]
# sources, their translations -> each pair's Assessment from one forced pass (attnmt.decoding.quality.assess)
Assess = Callable[[Sequence[str], Sequence[str]], Sequence["Assessment | None"]]
NUMBERS = ("Two", "Zwei")  # the number a plural label and its German translation are read after (``after_number``)


def garbled(plausibility: Plausibility, labels: Sequence[str], translations: Sequence[str]) -> list[bool]:
    """Whether each translation of each of ``labels`` is under ``FLOOR`` to ``plausibility``, judged without the
    full stop the model added, which its label lacks ("Close" -> "In einem Restaurant." is 0.09 to the demo model, as
    written 0.12); a blank one, or the label given back as it came (a sentence the model failed on keeps its source),
    is not."""
    judged = [k for k, (label, text) in enumerate(zip(labels, translations, strict=True))
              if text.strip() not in ("", label.strip())]
    found = plausibility([labels[k] for k in judged],
                         [ended_as_source(labels[k], translations[k]) for k in judged]) if judged else []
    out = [False] * len(labels)
    for k, plausible in zip(judged, found, strict=True):
        out[k] = plausible is not None and plausible < FLOOR
    return out


def garbled_fields(plausibility: Plausibility, names: Sequence[str], translations: Sequence[str]) -> list[bool]:
    """Whether each translation of each field's name in ``names`` is garbled: under ``FLOOR`` (``garbled``), or
    opening with an article its name lacks (``article_added``)."""
    return [bad or article_added(name, text) for bad, name, text
            in zip(garbled(plausibility, names, translations), names, translations, strict=True)]


def article_added(name: str, translation: str) -> bool:
    """Whether ``translation`` of a field's ``name`` opens with an article (attnmt.text.articles, any language's)
    where ``name`` opens with none.  A field's name is a bare noun in the languages attnmt reads ("INGREDIENTS",
    "ZUTATEN", "INGRÉDIENTS"); an article before it is a caption's start, which a model trained on sentences writes
    for a word alone: the demo model wrote "SIGNAL" as "EIN SCHILD" and "CATS" as "EINE KATZEN", words it finds
    plausible enough.  A short label of another kind may take one ("Black dog" -> "Ein schwarzer Hund"), and so may a
    name that describes its noun (``described``: "OLD MAN" -> "EIN ALTER MANN", a role's)."""
    first = [re.split(r"[\W\d_]", each.strip(), maxsplit=1)[0].lower() for each in (name, translation)]  # letters
    return first[1] in ANY_ARTICLE and first[0] not in ANY_ARTICLE and not described(name, translation)


def described(name: str, translation: str) -> bool:
    """Whether ``translation`` of a field's ``name`` of several words is a German noun phrase of as many words, its
    article aside, with an adjective that agrees (attnmt.decoding.label_gender: "OLD MAN" -> "EIN ALTER MANN"): a
    name that describes its noun is a role's or a thing's, not a field's bare noun, and its article is a noun
    phrase's; "SCREEN SIZE" -> "EIN SCHRÜHT" and "TOP SPEED" -> "EIN BLICK DURCH DIE BLÄTTER" are no such phrase."""
    words = words_of(translation)
    found = phrase(words)
    if found is None or found[0] is None or not found[1]:
        return False
    determiner, adjectives, _ = found
    return len(words) == len(name.split()) + 1 == len(adjectives) + 2 and bool(readings(determiner, adjectives))


def value_lost(value: str, translation: str) -> bool:
    """Whether ``translation`` of a sentence that is a count or a measure alone, as a field's value or a cell is, lost
    what it says: a count in English words (attnmt.text.field_names.counted: "Three.", "Two to four") given more
    words than it has, or a number and a unit's name (attnmt.text.measure_values.named_measure: "3 bars", "60
    watts") given without the number's digits.  A model trained on sentences makes a caption of either: the demo
    model wrote "Three." as "Drei Kerle.", "4 bars" as "Drei weiblichen", "60 watts" as "Ein Krankenschwestern"; the
    count's words and the digits are the model's to keep ("Drei.", "3 Balken"), so a translation that has them is
    taken.  A measure in words (attnmt.text.count_values.counted_measure: "Twenty minutes") is lost where the
    translation says its number in no language the verbatim rule reads (verbatim.numbers_in): the demo model wrote
    "Twenty minutes" as "Wäner bewänt"; "Zwanzig Minuten" is taken."""
    if counted(value):
        return len(translation.split()) > len(value.split())
    if counted_measure(value):
        return not {n.value for n in numbers_in(value, "en")} <= {n.value for n in numbers_in(translation)}
    digits = "".join(re.findall(r"\d", value))
    return named_measure(value) and digits not in "".join(re.findall(r"\d", translation))


def value_written(value: str, translation: str, language: str | None) -> str:
    """What a sentence that is ``value`` is written as where the model wrote ``translation`` into ``language``: a
    count alone in one word as that language's word (attnmt.text.count_values.count_in: "Three." -> "Drei."; the
    demo model wrote "Twelve" as "Es" and gave "Three." back in English), after a speaker's label too, which
    ``translate`` reads with its words ("ANNA: Three." -> "ANNA: Drei.": speaker_labels.speaker_label); else
    ``value`` where the translation lost the count or the measure (``value_lost``); else ``translation``."""
    label = speaker_label(value)
    said = value[label.end("label"):].lstrip() if label else value
    count = count_in(said, language)
    if count is not None:
        return value[:len(value) - len(said)] + count
    return value if value_lost(value, translation) else translation


def plausibility_of(assessment: Assessment | None) -> float | None:
    """How plausible a label's translation is to the model, from its forced pass (attnmt.decoding.quality.assess):
    the geometric mean of its words' probabilities, each the product of its pieces' ("Kinder" 0.93, "Ein Fleisch"
    for "Wool scarf" 0.12), without the probability of its end, which a label's translation has where a caption's
    sentence goes on; the assessment's quality where no word has a probability (no piece of it was read); None for
    None (a blank side)."""
    if assessment is None:
        return None
    return words_plausibility(assessment.words, assessment.quality)


def words_plausibility(words: Sequence[tuple[str, float | None]], otherwise: float) -> float:
    """The geometric mean of ``words``' probabilities (0.0 where one is 0.0), ``otherwise`` where none has one."""
    found = [p for _, p in words if p is not None]
    if not found:
        return otherwise
    return 0.0 if min(found) == 0.0 else math.exp(math.fsum(map(math.log, found)) / len(found))


def label_plausibility(label: str, translation: str, assessment: Assessment | None, language: str | None,
                       known: frozenset[str]) -> float | None:
    """How plausible ``translation`` of ``label`` is as a label's, into the model's target ``language``: its words'
    plausibility (``plausibility_of``), but 0.0 where it is German and no translation of a label, however likely its
    words (attnmt.decoding.label_phrases.misread, reading a compound of the vocabulary's ``known`` words as two: a
    caption's model added a verb, "Dog" -> "Ein Hund schwimmt", 0.50, "Soccer players" -> "Fußballspieler kämpfen",
    0.32; its article and noun disagree, "A small cat" -> "Eine kleine Katzen", 0.64, "Ein kleine Hund")."""
    found = plausibility_of(assessment)
    return 0.0 if found is not None and german(language) and misread(label, translation, known) else found


def labels_plausibility(assess: Assess, labels: Sequence[str], translations: Sequence[str], language: str | None,
                        known: frozenset[str]) -> list[float | None]:
    """``label_plausibility`` of each translation of each of ``labels``, from ``assess``'s forced passes, and for a
    German plural's translation with no article or number, the better of it and its words' read after a number
    (``after_number``, the number itself left out): a caption's model opens a plural with one ("Zwei Hunde rennen") and
    finds a plural alone at a sentence's start unlikely, "Red shoes" -> "Rote Schuhe" 0.06, "Zwei rote Schuhe" 0.46
    for "Two red shoes"."""
    found = [label_plausibility(label, text, each, language, known)
             for label, text, each in zip(labels, translations, assess(labels, translations), strict=True)]
    todo = [k for k, p in enumerate(found) if p and german(language) and after_number(labels[k], translations[k])]
    pairs = [after_number(labels[k], translations[k]) or ("", "") for k in todo]
    for k, each in zip(todo, assess([s for s, _ in pairs], [t for _, t in pairs]) if todo else [], strict=True):
        if each is not None:
            found[k] = max(found[k] or 0.0, words_plausibility(each.words[1:], 0.0))
    return found


def after_number(label: str, translation: str) -> tuple[str, str] | None:
    """``label`` and its German ``translation`` after a number (NUMBERS: "Two red shoes", "Zwei rote Schuhe"; in
    capitals where the label is: "TWO BOATS", "ZWEI BOOTE"), an adjective first in small letters as after a number;
    None where the label is no plural or opens with a determiner ("the", "two"), or the translation opens with an
    article, a determiner or a number, after which a caption's model reads a plural as it is written."""
    words = words_of(translation)
    first = label.split()[0].lower() if label.split() else ""
    if number(label) != PLURAL_NUMBER or first in DETERMINERS or not words:
        return None
    opening = words[0].lower()
    if determiner_word(opening) or opening in QUANTIFIERS:
        return None
    if label.isupper():
        return f"{NUMBERS[0].upper()} {label}", f"{NUMBERS[1].upper()} {translation}"
    written = translation.lstrip()
    if adjective(opening):
        written = written[:1].lower() + written[1:]
    return f"{NUMBERS[0]} {label[:1].lower()}{label[1:]}", f"{NUMBERS[1]} {written}"
