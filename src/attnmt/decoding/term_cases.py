"""What the English source says of a German term's case (attnmt.decoding.term_ids.with_other_forms), where the
target noun's form tells it: the dative plural's "-n" and a weak masculine noun's subject.

A German plural takes "-n" in the dative ("mit zwei Berichten", "den Kindern", "mit Lehrern") and not in another
case ("Vier Berichte", "Viele Verträge", "Drei Lehrer"), and the demo model wrote "Vier Berichten", "Viele Verträgen"
where every plural ending was free.  English marks the dative by a preposition ("with", "from", "in", ...) or a verb
that takes an indirect object ("gives", "helps") before the noun: where neither stands before the source term's
noun phrase (``dative_possible``), the plural's dative endings (``without_dative``) are left out.  A dative the
English does not show ("The coats suit the teachers": "Die Mäntel passen den Lehrern"; the commonest verbs of the
dative are named, most are not) then comes out in the nominative's form.

A source noun phrase that starts the sentence (``subject``: nothing or determiners alone before it, "Colleague is
waiting.", "My colleague is waiting.") is its subject, in the nominative in German too: a weak masculine noun in the
singular has no case ending there ("Kollege wartet"; "Kollegen wartet." came out, no article before it to tell).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from attnmt.decoding.term_compounds import DETERMINERS
from attnmt.text.function_words import PREPOSITIONS

# The English prepositions a German dative may follow the translation of: those of a dative ("with": "mit", "from":
# "von", "aus", "at": "bei", "an", "after": "nach", "since": "seit", "of": "von") and the two-way ones ("in", "on",
# "under", "behind", "between"), which take it for a place; not "for", "through", "without", "against", "about",
# "around", "into", "onto", "until", whose German ones take the accusative.
DATIVE_PREPOSITIONS = frozenset(
    "with from to at in on under behind beside besides near between among after since of by inside next upon "
    "opposite except alongside beneath below above over before".split())
# The English verbs whose German ones take a dative object, or an indirect object beside another, in their forms
# ("He gives the teachers a book": "den Lehrern"; "She helps the customers"): the commonest, named.
DATIVE_VERBS = frozenset(
    "give gives gave given giving show shows showed shown showing send sends sent sending tell tells told telling "
    "offer offers offered offering bring brings brought bringing explain explains explained explaining hand hands "
    "handed handing help helps helped helping thank thanks thanked thanking follow follows followed following "
    "answer answers answered answering belong belongs belonged belonging trust trusts trusted trusting".split())
# The words that join two nouns of one phrase ("with colleagues and reports"): read past, as a determiner is
JOINING = frozenset(("and", "or"))
# How many other words (adjectives: "with two old reports") may stand between a preposition and the noun
BETWEEN = 2
# The marks that end a clause, before which no preposition is the noun's
CLAUSE_END = re.compile(r"[.;:!?()\[\]]")
# A phrase a preposition opens and a comma closes, at the start of a sentence or clause (``after_opening``)
OPENING = re.compile(rf"\W*(?:{'|'.join(sorted(PREPOSITIONS['en'] | DATIVE_PREPOSITIONS))})\b[^,.;:!?]*,",
                     re.IGNORECASE)


def dative_possible(sentence: str, start: int) -> bool:
    """Whether the source term at ``start`` of ``sentence`` may be in the German dative: a preposition of
    DATIVE_PREPOSITIONS or a verb of DATIVE_VERBS stands before it in its clause (past an opening phrase:
    ``after_opening``), with nothing between but determiners, "and", "or", and at most BETWEEN other words ("with two
    old reports", "gives the teachers"); none of them before a determiner where the preposition is "of", which is the
    end of phrases that govern no noun too ("kind of likes the girls", "afraid of losing the girls")."""
    clause = after_opening(CLAUSE_END.split(sentence[:start])[-1])
    others, determined, before_determiner = 0, False, False
    for word in reversed(re.findall(r"[^\W\d_]+", clause.casefold())):
        if word == "of":
            return not before_determiner
        if word in DATIVE_PREPOSITIONS or word in DATIVE_VERBS:
            return True
        if word in JOINING:
            determined = False  # the noun phrase before "and" is another
        elif word in DETERMINERS:
            determined = True
        else:
            before_determiner = before_determiner or determined
            others += 1
            if others > BETWEEN:
                return False
    return False


def after_opening(text: str) -> str:
    """``text`` (a sentence's or a clause's start) past a phrase at its start that a preposition opens and a comma
    closes ("Of course, ", "After all, ", "In the garden, "): an aside, whose preposition governs no noun past its
    comma, and which the sentence's subject follows; ``text`` as it is where it opens otherwise."""
    found = OPENING.match(text)
    return text[found.end():] if found else text


def datives(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term may be in
    the dative at one of its places (``dative_possible``)."""
    return {target for start, _, target in found if dative_possible(sentence, start)}


def without_dative(word: str, endings: Sequence[str]) -> tuple[str, ...]:
    """``endings`` (a German noun ``word``'s plural endings: term_plurals) less those of the dative plural alone
    (``dative_ending``)."""
    return tuple(ending for ending in endings if not dative_ending(word, ending, endings))


def dative_ending(word: str, ending: str, endings: Sequence[str]) -> bool:
    """Whether ``ending`` of a German noun ``word``'s plural ``endings`` is the dative's alone: the "-n" after another
    of them ("en" beside "e": "Berichten", "ern" beside "er": "Kindern") or after the word's own "-el" or "-er"
    ("Lehrern", "Äpfeln"), whose plural takes none; not "n" after "-e" ("Flaschen") nor "en" alone ("Frauen",
    "Rechnungen"), the plural's own."""
    if not ending.endswith("n"):
        return False
    plural = ending[:-1]
    return plural in endings if plural else word.endswith(("el", "er"))


def subjects(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term begins the
    sentence's subject (``subject``)."""
    return {target for start, _, target in found if subject(sentence, start)}


def subject(sentence: str, start: int) -> bool:
    """Whether the source term at ``start`` of ``sentence`` begins the sentence's noun phrase that starts it: nothing
    stands before it but determiners (DETERMINERS: "The", "My", "Every") and marks (a quote, a bracket), past an
    opening phrase (``after_opening``: "Of course, the girl"), and no possessive "'s" follows it ("Colleague's car":
    "Das Auto des Kollegen")."""
    before = after_opening(sentence[:start])
    if not all(word in DETERMINERS for word in re.findall(r"[^\W\d_]+", before.casefold())):
        return False
    return not re.match(r"\S*['\u2019]s\b", sentence[start:])
