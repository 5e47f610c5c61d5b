"""A translation cut off and closed with a full stop, for the ``untranslated`` rule (attnmt.decoding.quality):
"Mehrere Menschen stehen in der." for "Several people are standing near trees at dusk.".

``quality_measures.cut_short`` reads a translation that ends where a sentence goes on (a comma, a colon); one cut
off and then given a final mark ends no sentence either where its last word is one that never ends one
(OPEN_ENDS: an article or a conjunction of the translation's language, where it is known, in lower case; "Plan
A." ends with a letter), an article that is a pronoun too right after a preposition ("auf einer.", "on a.":
PREPOSITIONS), a relative pronoun right after a comma ("liest ein Buch, das.": RELATIVES), or where a comma
stands right before the final mark ("Sofas,.").  Only words that are nothing else: German's "ein" is a verb's
particle too ("steigt ein."), "das" and "eine" pronouns ("Was ist das?", "in jeder Hand eine."), Dutch's "het"
("Ik weet het."), French's "un" ("J'en ai un.").  As cut_short, not where the source ends so too.  Of
Multi30k's 31,014 pairs of references, en-de both ways, 1 ends so ("Die Radrennfahrer fahren in einem
Rennen,."); of the demo model's 200 validation references cut in half and closed with a full stop, 16 raised no
flag before, 12 after the articles and prepositions, 1 of them closed after a relative pronoun ("liest ein Buch,
das."; benchmarks/results/quality_broken_epyc.txt).
"""

from __future__ import annotations

import re

from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_measures import CLOSING, FINAL_MARKS
from attnmt.text.language_codes import primary_subtag

OPEN_ENDS = {
    "de": "der die dem den des einem und oder",
    "en": "the an and or",
    "fr": "le la les des du au aux et",
    "es": "el la los las unos unas y",
    "it": "il lo gli la le e",
    "nl": "de en of",
}
_OPEN_ENDS = {language: frozenset(words.split()) for language, words in OPEN_ENDS.items()}
# An article that is a pronoun too ends no sentence right after a preposition ("auf einer.", "on a.").
PREPOSITIONS = {
    "de": "in an auf mit von zu bei für über unter neben zwischen vor hinter durch um gegen ohne aus nach",
    "en": "in on at of with from by to for into onto over under near behind through",
}
_ARTICLES_AFTER = {"de": frozenset("ein eine einer einen eines das".split()), "en": frozenset({"a"})}
_PREPOSITIONS = {language: frozenset(words.split()) for language, words in PREPOSITIONS.items()}
# A relative pronoun right after a comma opens a clause ("ein Buch, das."): "das" ends "Was ist das?", not that.
RELATIVES = {"de": "der die das dem den deren dessen welche welcher welches", "en": "which who whom whose"}
_RELATIVES = {language: frozenset(words.split()) for language, words in RELATIVES.items()}
_COMMA_THEN_STOP = re.compile(r",\s*[.!…]\W*$")


def ends_open(text: str, language: str | None) -> bool:
    """Whether ``text`` closes with a final mark (FINAL_MARKS) after a word that never ends a sentence in
    ``language`` (OPEN_ENDS, or an article after a preposition: PREPOSITIONS), or after a comma."""
    body = text.rstrip(CLOSING + "“‘›").rstrip()
    if not body or body[-1] not in FINAL_MARKS:
        return False
    code = primary_subtag(language or "")
    *before, last = ["", *body.rstrip("".join(FINAL_MARKS)).split()]
    return (bool(_COMMA_THEN_STOP.search(body)) or last in _OPEN_ENDS.get(code, ())
            or last in _ARTICLES_AFTER.get(code, ()) and before[-1] in _PREPOSITIONS.get(code, ())
            or last in _RELATIVES.get(code, ()) and before[-1].endswith(","))


def unfinished(source: str, translation: str, languages: Languages) -> bool:
    """Whether ``translation`` was cut off and closed (``ends_open``) and ``source`` does not end so."""
    return ends_open(translation, languages.target) and not ends_open(source, languages.source)
