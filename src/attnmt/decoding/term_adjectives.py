"""A German target term of adjectives and their noun ("rotes Hemd", "großes rotes Hemd"): the adjectives take the
ending their article and case give them ("in einem roten Hemd", "mit rotem Hemd"), which the glossary cannot say
(attnmt.decoding.term_ids.with_other_forms).  The search forced the ending given, and the model, having written the
phrase as German declines it, wrote the term again after it: "A woman in a red shirt." with red shirt -> rotes Hemd
came out "Eine Frau in einem roten Hemd rotes Hemd."

Only the words in small letters before the term's first word with a capital are read as adjectives, and only where
each ends in one of an adjective's endings after a stem of three letters or more ("rot" + "es"), so an article
("das Hemd": "d" + "as") keeps its form, and a name ("Rotes Kreuz", "Deutsche Bank": its capital tells it) its own.
"""

from __future__ import annotations

# An attributive adjective's endings, strong and weak, in every case and number ("rote", "roten", "rotem", "roter",
# "rotes"), the longer first: "roten" is "rot" + "en", not "rote" + "n".
ADJECTIVE_ENDINGS = ("en", "em", "er", "es", "e")
SHORTEST_STEM = 3  # letters: "rot", "alt", "neu"; no article's ("d" + "as", "di" + "e") below it


def declined_adjectives(target: str) -> list[str]:
    """``target`` with its adjectives (the module docstring) in each other ending, the same for each: "roten Hemd",
    "rotem Hemd", "rote Hemd", "roter Hemd" for "rotes Hemd", "großen roten Hemd" for "großes rotes Hemd" (two
    adjectives before a noun take one ending).  None for a term without such adjectives before a noun ("Hemd",
    "rot", "das Hemd", "Rotes Kreuz")."""
    words = target.split(" ")
    noun = next((k for k, word in enumerate(words) if word[:1].isupper()), 0)
    stems = [stem_of(word) for word in words[:noun]]
    if not noun or None in stems:
        return []
    rest = " ".join(words[noun:])
    return [declined for ending in ADJECTIVE_ENDINGS
            if (declined := " ".join([*(f"{stem}{ending}" for stem in stems), rest])) != target]


def stem_of(word: str) -> str | None:
    """The stem of an adjective in small letters with one of the ADJECTIVE_ENDINGS ("rot" of "rotes", "golden" of
    "goldenes"), None for another word."""
    if not (word.isalpha() and word.islower()):
        return None
    ending = next((ending for ending in ADJECTIVE_ENDINGS if word.endswith(ending)), None)
    if ending is None or len(word) - len(ending) < SHORTEST_STEM:
        return None
    return word[: -len(ending)]
