"""Sentences in capitals: ``STOP! WHO'S THERE?``, a subtitle's ``[DOOR SLAMS]``, a heading, a
shouted line.  A model trained on mixed-case text has seen few of them: it reads their words as
rare pieces, a letter or two each, and translates them badly.  Such a sentence is given to the
model in sentence case (``read_as``: "Stop! Who's there?") and its translation written back in
capitals (``written_as``): one rule for every search of text (attnmt.decoding.translate's
``searched_batches``, the server's stream), so plain lines, documents, n-best lists and the server
agree.  A lone word in capitals (an acronym: ``NATO``, a sign: ``EXIT``) is left as it is: a model
has seen acronyms, and one word has no case of its own to read it in.  So is a sentence given a
prefix: its translation starts with the prefix as written, which steers the search in its own case."""

from __future__ import annotations

import re

# The first letter of a text, and the first after the end of a sentence inside it, as sentence case
# writes them in capitals: "stop! who's there?" is "Stop! Who's there?".
SENTENCE_START = re.compile(r"(^|[.!?…]\s+)(\W*?)([^\W\d_])")


def shouted(sentence: str) -> bool:
    """Whether every cased letter of ``sentence`` is a capital, in two words or more: no lower-case
    letter, and at least two words with a capital (``I AM``, ``[DOOR SLAMS]``; not ``NATO``)."""
    if any(character.islower() for character in sentence):
        return False
    return sum(any(character.isupper() for character in word) for word in sentence.split()) >= 2


def read_as(sentence: str, prefix: str | None = None) -> str:
    """``sentence`` as the model is given it: in sentence case where it is ``shouted`` and given no
    ``prefix``, else as it is."""
    if prefix or not shouted(sentence):
        return sentence
    return SENTENCE_START.sub(lambda m: m[1] + m[2] + m[3].upper(), sentence.lower())


def written_as(sentence: str, translation: str, prefix: str | None = None) -> str:
    """The ``translation`` of ``sentence`` (given ``prefix``) as it is written: in capitals where the
    model was given the sentence in sentence case (``read_as``), else as the model wrote it."""
    return translation.upper() if shouted(sentence) and not prefix else translation
