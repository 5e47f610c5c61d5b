"""A right German translation in another right order: a phrase put first, the finite verb second and the subject
after it (verb-second), the order German gives a place or a time it puts first: "Im Park liest eine Frau ein
Buch." for the model's "Eine Frau liest ein Buch im Park.".  The fit for texts written elsewhere
(attnmt.decoding.elsewhere) is shown such texts as acceptable (attnmt.decoding.noising), beside its own
translations with two words swapped as unacceptable: without them it learnt that any order but the model's is
wrong, and rated "Im Park liest eine Frau ein Buch." 0.07.

No parser: a German sentence is read by its capitals (a noun is written with one, a verb is not) and its closed
classes (articles, prepositions, conjunctions).  The finite verb is the first small word after a noun that is
none of those; the phrase put first is the last prepositional phrase after it (a preposition, small words, a noun,
and a genitive or a von-phrase that hangs on it) with a German article in it, before a comma or a conjunction
ends the clause.  A sentence that
does not read so (a clause before the verb, no such phrase) is left as it is.

The same phrase put first with the subject before the verb ("Im Park eine Frau liest ein Buch.") is an order German
does not allow, which the model's log-probability does not tell from the right one: ``verb_third`` reads it, an
input of that fit, which is shown such texts as unacceptable (noising.front_phrase_verb_third).
"""

from __future__ import annotations

from attnmt.text.articles import ARTICLES
from attnmt.text.function_words import CONJUNCTIONS, PREPOSITIONS
from attnmt.text.german_words import is_no_noun

PRONOUNS = frozenset("ich du er sie es wir ihr man".split())  # a subject alone, the verb right after it
# The small words that begin a subject and lose their capital behind the verb ("Zwei Hunde rennen ..." -> "...
# rennen zwei Hunde"): articles, numbers, quantifiers, possessives and personal pronouns.
DETERMINERS = ARTICLES["de"] | frozenset(
    "zwei drei vier fünf sechs sieben acht neun zehn viele einige mehrere kein keine alle beide manche "
    "dieser diese dieses jeder jede jedes sein seine ihr ihre".split()) | PRONOUNS
CLOSED = DETERMINERS | PREPOSITIONS["de"] | CONJUNCTIONS
GENITIVE = frozenset("des der eines einer".split())  # an article that hangs a genitive on the noun before it
CONTRACTIONS = frozenset("am ans beim im ins vom zum zur".split())  # a preposition and an article in one word
SENTENCE_END = ".!?"


def fronted(words: list[str]) -> list[str] | None:
    """``words`` (a German sentence cut at its spaces) with its last prepositional phrase after the finite verb
    put first, the verb second (a reflexive "sich" with it) and the subject after it; None where the sentence does
    not read so."""
    found = front_parts(words)
    if found is None:
        return None
    first, verb, subject, rest, mark = found
    moved = [*first, *verb, *subject, *rest]
    return [*moved[:-1], moved[-1] + mark]


def fronted_verb_third(words: list[str]) -> list[str] | None:
    """``fronted`` with the subject before the verb, the order German does not allow after a phrase put first ("Im
    Park eine Frau liest ein Buch."): a broken text for the fit for texts written elsewhere to learn from."""
    found = front_parts(words)
    if found is None:
        return None
    first, verb, subject, rest, mark = found
    moved = [*first, *subject, *verb, *rest]
    return [*moved[:-1], moved[-1] + mark]


def front_parts(words: list[str]) -> tuple[list[str], list[str], list[str], list[str], str] | None:
    """The parts of ``fronted``'s order: the phrase put first (its capital on), the finite verb (and "sich"), the
    subject (its determiner's capital off), the rest, and the sentence's final mark; None as there."""
    body, mark = words[:-1] + [words[-1].rstrip(SENTENCE_END)], words[-1][len(words[-1].rstrip(SENTENCE_END)):]
    verb = finite_verb(body)
    if verb is None or not body[-1]:
        return None
    phrase = last_phrase(body, verb)
    if phrase is None:
        return None
    start, stop = phrase
    first = body[start:stop]
    after = verb + 1 + (body[verb + 1:verb + 2] == ["sich"])  # "konzentriert sich eine Frau"
    subject = body[:verb]
    if subject[0].lower() in DETERMINERS:
        subject = [subject[0].lower(), *subject[1:]]
    return ([first[0][:1].upper() + first[0][1:], *first[1:]], body[verb:after], subject,
            [*body[after:start], *body[stop:]], mark)


def verb_third(words: list[str]) -> bool:
    """Whether ``words`` (a German sentence cut at its spaces) put a prepositional phrase first and its subject
    before its finite verb ("Im Park eine Frau liest ein Buch."), where German puts the verb second ("Im Park liest
    eine Frau ein Buch.").  The phrase is read as ``last_phrase`` reads one (a German article in it, or a
    contraction); the subject is a pronoun, or small words and a noun ("eine alte Frau"), or nouns alone, joined
    by a conjunction or not ("ein Mann und eine Frau"); the verb is the small word right after it that is no closed
    word, no adverb and no adjective (attnmt.text.german_words: "Im Park eine Frau allein." has no verb).  A
    comma anywhere before the verb, or anything else after the phrase, is no such sentence."""
    body = [*words[:-1], words[-1].rstrip(SENTENCE_END)] if words else []
    if len(body) < 4 or body[0].lower() not in PREPOSITIONS["de"] | CONTRACTIONS:
        return False
    opened = [body[0].lower(), *body[1:]]
    stop = phrase_end(opened, 0)
    if stop is None or not german(opened[:stop]) or any(w.endswith(",") for w in opened[:stop]):
        return False
    end = subject_end(opened, stop)
    return end is not None and end < len(opened) and is_verb(opened[end])


def subject_end(words: list[str], start: int) -> int | None:
    """The index after the subject that begins at ``start`` (``verb_third``): noun phrases joined by conjunctions;
    None where none begins there."""
    end = noun_phrase_end(words, start)
    while end is not None and end + 1 < len(words) and words[end] in CONJUNCTIONS:
        more = noun_phrase_end(words, end + 1)
        if more is None:
            break
        end = more
    return end


def noun_phrase_end(words: list[str], start: int) -> int | None:
    """The index after the pronoun, the small words and their noun, or the noun alone at ``start``, with the
    prepositional phrases that follow it (``phrase_end``); None where no such phrase begins there (or none does: the
    sentence ends) or a comma ends it (a clause follows)."""
    if start >= len(words):
        return None
    word = words[start]
    if word in PRONOUNS:
        end: int | None = start + 1
    elif word in DETERMINERS or word.isdigit():  # "zwei Kinder", "3 Jungen"
        end = noun_after(words, start + 1)
    elif is_noun(word, False) and word.lower() not in CLOSED:
        end = start + 1
    else:
        return None
    while end is not None and end < len(words) and words[end] in PREPOSITIONS["de"] \
            and not words[end - 1].endswith(","):  # "eine Frau mit einem Schirm", "eine Gruppe von Menschen"
        end = phrase_end(words, end)
    return None if end is None or words[end - 1].endswith(",") else end


def is_verb(word: str) -> bool:
    """Whether ``word`` reads as a finite verb after a subject: a small word of letters of no closed class, no
    adverb and no adjective (attnmt.text.german_words.is_no_noun)."""
    return word.isalpha() and word[0].islower() and word not in CLOSED and not is_no_noun(word)


def is_noun(word: str, first: bool) -> bool:
    """Whether ``word`` reads as a noun: a capital, and not a sentence's first word of a closed class ("Ein")."""
    return word[:1].isupper() and not (first and word.lower() in CLOSED)


def finite_verb(words: list[str]) -> int | None:
    """The index of the first small word after a noun (or a first word that is a pronoun) that is no closed-class
    word; None where a comma comes before it (a clause inside the subject) or there is none."""
    for i in range(1, len(words)):
        before, word = words[i - 1], words[i]
        if before.endswith(","):
            return None
        if word.isalpha() and word[0].islower() and word not in CLOSED and (
                is_noun(before, i == 1) or (i == 1 and before.lower() in PRONOUNS)):
            return i
    return None


def last_phrase(words: list[str], verb: int) -> tuple[int, int] | None:
    """(start, stop) of the last prepositional phrase after ``verb`` and before the clause ends (a comma or a
    conjunction), one that itself ends before it; None where there is none."""
    found = None
    i = verb + 1
    while i < len(words) and words[i] not in CONJUNCTIONS:
        stop = phrase_end(words, i) if words[i] in PREPOSITIONS["de"] else None
        if stop is not None and german(words[i:stop]) and not any(w.endswith(",") for w in words[i:stop]):
            found = (i, stop)
        if words[i].endswith(","):
            break
        i = stop or i + 1
    return found


def german(phrase: list[str]) -> bool:
    """Whether a prepositional ``phrase`` holds a German article (or starts with a contraction, "im"): "in" and
    "mit" are English and Dutch too, and "A man plays in Berlin." is no German sentence to reorder."""
    return phrase[0] in CONTRACTIONS or any(w in ARTICLES["de"] for w in phrase[1:])


def phrase_end(words: list[str], start: int) -> int | None:
    """The index after the noun phrase that the preposition at ``start`` governs (small words, then a noun), with
    a genitive or a von-phrase that follows it; None where no noun follows before a comma or a closed word that
    begins another phrase."""
    stop = noun_after(words, start + 1)
    while stop is not None and stop < len(words) and (words[stop] in GENITIVE or words[stop] in ("von", "vom")):
        more = noun_after(words, stop + 1)
        if more is None:
            break
        stop = more
    return stop


def noun_after(words: list[str], start: int) -> int | None:
    """The index after the first noun from ``start`` on, reached over small words that are no preposition or
    conjunction and carry no comma; None where there is none."""
    for i in range(start, len(words)):
        word = words[i]
        if word[:1].isupper():
            return i + 1
        if word in PREPOSITIONS["de"] or word in CONJUNCTIONS or word.endswith(",") or not word[:1].isalpha():
            return None
    return None
