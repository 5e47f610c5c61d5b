"""A chosen item kept whole inside a sentence (a form's drop-down list, a LibreOffice input list, a conditional
text: attnmt.documents.word_lists, opendocument_conditions) is translated alone, and the model writes a sentence:
"a red car" came back "Ein rotes Auto", and the document read "Der Mann fährt Ein rotes Auto am Strand."  (The
stop it wrote, "Ein rotes Auto.", is gone already: a line's translation ends as its source does, attnmt.documents.
pipeline.translate_lines.)  The item is a part of the sentence around it, so its translation is written as its
source was (``as_written``): its first letter in lower case where the source item's was and the target language
writes that word so.

German (and Luxembourgish) writes its nouns with a capital, and nothing else inside a sentence: there a function
word ("Ein", "Im": attnmt.text.function_words), a number in words ("Zwei Hunde"), an adjective before another
capitalised word ("Rotes Auto"), and an adverb or an adjective that is surely no noun ("Sehr müde", "Glücklich":
attnmt.text.german_words) is lowered, a noun and a word that may be one ("Autos", "Arm") kept; a language that writes
no noun so lowers any first word in title case; one not known is taken to be German's kind.  A translation with no
lower-case letter (in capitals) and a word with a capital after its first letter (an acronym, "iPhone") are kept."""

from __future__ import annotations

import re

from attnmt.decoding.verbatim_words import CARDINALS
from attnmt.text.function_words import PUNCTUATION, is_function_word
from attnmt.text.german_words import is_no_noun
from attnmt.text.language_codes import primary_subtag

NOUNS_CAPITALISED = frozenset({"de", "lb"})  # the languages that write every noun with a capital
# German's adjective endings: "rotes", "großer", "neue", "kleinen", "altem"
ADJECTIVE_ENDING = re.compile(r"(?:e|er|es|en|em)$")
# a number in words, which no language writes with a capital inside a sentence (German's "Million" and "Dutzend"
# are nouns: left out)
NUMBER_WORDS = frozenset(word for value, words in CARDINALS.items() if value < 10**6 for word in words.split()) - {
    "dutzend"}
_FIRST_WORD = re.compile(r"^(\W*)([^\W\d_][\w'’-]*)(\s+\S+)?")


def as_written(source: str, translation: str, target_lang: str | None = None) -> str:
    """``translation`` of the chosen item ``source`` written as a part of a sentence: its first word's first letter in
    lower case where ``source`` begins with a letter in lower case and ``target_lang`` writes that word so (the module
    docstring)."""
    start = re.search(r"[^\W\d_]", source)
    found = _FIRST_WORD.match(translation)
    if start is None or not start.group().islower() or found is None or not any(c.islower() for c in translation):
        return translation
    lead, word, following = found.group(1), found.group(2), (found.group(3) or "").strip()
    if not (word[0].isupper() and word[1:] == word[1:].lower()):
        return translation  # already lower, or an acronym, a name written with inner capitals
    if not written_lower(word, following, target_lang):
        return translation
    return lead + word[0].lower() + translation[len(lead) + 1:]


def written_lower(word: str, following: str, target_lang: str | None) -> bool:
    """Whether ``target_lang`` writes ``word``, the first of a text in title case (``following``: its next word), in
    lower case inside a sentence (the module docstring)."""
    language = primary_subtag(target_lang) if target_lang else None
    if language and language not in NOUNS_CAPITALISED:
        return True
    adjective = len(word) > 2 and ADJECTIVE_ENDING.search(word) is not None and following[:1].isupper()
    return is_function_word(word) or is_number_word(word) or adjective or is_no_noun(word)


def is_number_word(word: str) -> bool:
    """Whether ``word`` (punctuation around it left out, any case) is a number in words (NUMBER_WORDS)."""
    return word.strip(PUNCTUATION).lower() in NUMBER_WORDS
