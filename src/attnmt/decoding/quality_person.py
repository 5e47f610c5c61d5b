"""The ``person`` rule (attnmt.decoding.quality): the translation speaks of another person than the source does,
"My suitcase is lost." as "Dein Koffer ist verloren.", "We arrive at 9." as "Sie kommen um 9 an.", which keeps a
fluent sentence's shape and its every other word, so no rule reading numbers, names or attention sees it.

Each side's persons are read from its personal and possessive pronouns (PRONOUNS, for English and German): the
first person singular ("I", "my"; "ich", "mein"), the first person plural ("we", "our"; "wir", "unser") and the
second person ("you", "your"; "du", "dein", "euch").  A pronoun says its person for certain, or only maybe:
German's "Sie", "Ihnen", "Ihr" and "ihr" are "you" (formal, and "ihr" the plural) as well as "she", "they", "her"
and "their", and an imperative writes "Sie" where English writes no "you" ("Restart the computer." as "Starten
Sie den Computer neu."), so they are the second person only maybe; "man" is a "you" or a "we" said of anyone
("You can see the lake from here." as "Man sieht von hier den See."), and English's "let's" is a "we" only maybe
("Let's go!" as "Los geht's!"); "I'm", "we're" and the other contractions say their pronoun's person for
certain.  The rule fires where one side says a person for certain that the other says neither for certain nor
maybe (``persons_differ``), or where the source says "your" and the translation has no possessive of the second
person but one of the third, "sein" (``your_as_his``: "Enter your password." as "Geben Sie sein Passwort ein.",
where "Sie" keeps the second person), and only where both languages are known and in PRONOUNS, and each side is
in its language (quality_language.in_other_language).
Phrases whose pronoun is no person of the sentence are read as none (NO_PERSON: "thank you" as "danke", "excuse
me" as "Entschuldigung", "we'll see" as "mal sehen"), and neither is "US", the country.
A third person changed ("The minister" as "Die Ministerin") is no pronoun's, and is not read.
Multi30k's references, en-de: 2 of its 2,014 validation and test pairs flagged (a typo's "us" for "is", and "gives
us 2 thumbs up" as "zeigt zwei Daumen nach oben"), 23 of its 29,000 training pairs, most such a typo ("our" for
"are") or a caption's viewer ("pointing at you" as "zeigt auf den Betrachter"); of 16 travel and software pairs
written to probe it, the 6 with a person changed are flagged and none of the 10 good ones.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from attnmt.decoding.quality_language import Languages, in_other_language
from attnmt.decoding.quality_negation import without_kept_quotes
from attnmt.text.language_codes import primary_subtag

FIRST_SINGULAR, FIRST_PLURAL, SECOND = "first person singular", "first person plural", "second person"
# Each language's pronouns (case-folded) of each person: (certain, maybe); a word of neither says no person.
PRONOUNS = {
    "en": {FIRST_SINGULAR: ("i me my myself i'm i've i'll i'd", ""),
           FIRST_PLURAL: ("we us our ours ourselves we're we've we'll we'd", "let's"),
           SECOND: ("you your yours yourself yourselves you're you've you'll you'd", "")},
    "de": {FIRST_SINGULAR: ("ich mich mir mein meine meinen meinem meiner meines meins", ""),
           FIRST_PLURAL: ("wir uns unser unsere unseren unserem unserer unseres unsre unsren unsrem unsrer", "man"),
           SECOND: ("du dich dir dein deine deinen deinem deiner deines euch euer eure euren eurem eurer eures",
                    "sie ihnen ihr ihre ihren ihrem ihrer ihres man")},
}
# The second person's possessives, certain and maybe, and the third person's that "your" is never translated by
# (``your_as_his``): "sein" alone is left out, which is the verb "to be" too.
POSSESSIVES = {"en": ("your yours", "", "his its"),
               "de": ("dein deine deinen deinem deiner deines euer eure euren eurem eurer eures",
                      "ihr ihre ihren ihrem ihrer ihres", "seine seinen seinem seiner seines")}
# A caption's viewer ("you can see a ship", "here we have two players") is said without one: "ist zu sehen".
NO_PERSON = {"en": re.compile(r"\b(?:thank you|thank-you|see you|bless you|excuse me|pardon me|we'll see|"
                              r"(?:you|we) (?:can|could|may|might)(?:'t|n't| not)? (?:\w+ )?see|"
                              r"(?:here|photo|picture) we have)\b")}
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # "I-Pod", "E-Mail-Adresse": no pronoun
_COUNTRY = re.compile(r"\bUS\b")  # "the US": no "us"


class Persons(NamedTuple):
    """The persons a text says for certain and those it says maybe (PRONOUNS' keys)."""

    certain: frozenset[str]
    maybe: frozenset[str]


def words_of(text: str, language: str) -> list[str]:
    """The words of ``text`` (case-folded: ``without_kept_quotes``) in ``language``, with a typographic apostrophe
    as a straight one and the phrases of NO_PERSON left out."""
    text = text.replace("’", "'")
    return _WORD.findall(NO_PERSON[language].sub(" ", text) if language in NO_PERSON else text)


def persons_of(words: list[str], language: str) -> Persons:
    """The persons ``words`` (``words_of``) of ``language`` (a key of PRONOUNS) say, certain and maybe."""
    said = set(words)
    table = PRONOUNS[language]
    certain = frozenset(p for p, (sure, _) in table.items() if said & set(sure.split()))
    return Persons(certain, frozenset(p for p, (_, maybe) in table.items() if said & set(maybe.split())))


def persons_differ(source: Persons, translation: Persons) -> bool:
    """Whether one side says a person for certain that the other says neither for certain nor maybe."""
    return bool(source.certain - translation.certain - translation.maybe
                or translation.certain - source.certain - source.maybe)


def your_as_his(source: list[str], translation: list[str], codes: tuple[str, str]) -> bool:
    """Whether ``source`` says "your" for certain where ``translation`` (each ``words_of``, of the languages
    ``codes``) has no second person's possessive, certain or maybe, but a third person's the source has none of
    ("Enter your password." as "Geben Sie sein Passwort ein.")."""
    (yours, _, his), (their_yours, their_maybe, their_his) = (POSSESSIVES[code] for code in codes)
    said, written = set(source), set(translation)
    return (bool(said & set(yours.split())) and not written & set(f"{their_yours} {their_maybe}".split())
            and bool(written & set(their_his.split())) and not said & set(his.split()))


def person_differs(source: str, translation: str, languages: Languages) -> bool:
    """Whether ``translation`` speaks of another person than ``source`` (module docstring); False where a language
    is not known or not in PRONOUNS."""
    codes = tuple(primary_subtag(code) if code else "" for code in languages)
    if len(codes) != 2 or not all(code in PRONOUNS for code in codes) or any(
            in_other_language(text, code) for text, code in zip((source, translation), codes, strict=True)):
        return False  # French's "du" is no German "du": a side in another language is the language rule's
    kept = without_kept_quotes(_COUNTRY.sub(" ", source), translation)  # a sign's "I love NY" kept as written
    sides = [words_of(text, code) for text, code in zip(kept, codes, strict=True)]
    copied = set(sides[0]) & set(sides[1])  # a name's "du" ("Cirque du Soleil") says no person
    sides = [[word for word in words if word not in copied] for words in sides]
    persons = [persons_of(words, code) for words, code in zip(sides, codes, strict=True)]
    return persons_differ(*persons) or your_as_his(sides[0], sides[1], (codes[0], codes[1]))
