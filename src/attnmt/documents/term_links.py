"""A glossary term's source words aligned to the target term written for them.

The search writes each term's target term because the glossary requires it
(attnmt.decoding.constraints), not because the model's attention chose it, and the pieces it
forces often attend elsewhere: with ``red bike<TAB>Rennrad``, ``A man rides a <b>red</b> bike.``
came out ``Ein <b>Mann</b> fährt Rennrad.``, "Mann" giving "red" more attention than "Rennrad"
did.  So where a sentence's translation holds a term's target term once for each place of its
source term, the glossary aligns them (``with_term_links``): each word of the target term attends
to the term's source words alone, and no other target word attends to those, as
letterless.term_weights aligns the terms of a text the model never reads.  A mark over part or
all of a term's source words then goes to the target term's words, and every other word keeps
the model's attention.

Which target word translates which source word of the term (``word_pairs``): one spelt the same,
case aside, that one; the rest in order, one to one, where as many are left on either side
(``New York<TAB>Neu York``: "Neu" translates "New"); else each of the rest attends to all the
source words left, evenly (``red bike<TAB>Rennrad``).  Attending evenly to all the term's words,
every target word gave the first source word the most (the first of equals), so a mark on the
first word spread over the whole term and a mark on another went to the first target word:
``Acme <b>Corporation</b>`` came out ``<b>Acme</b> Corporation``.
"""

from __future__ import annotations

import re

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.term_after import HYPHENS
from attnmt.documents.spans import WORD, Weights


def with_term_links(source: str, translation: str, weights: Weights | None,
                    glossary: Glossary | None) -> Weights | None:
    """``weights`` [translation word][source word] of ``source`` and ``translation`` (words split at
    whitespace) with each glossary term's words aligned to its target term's, each target word to
    the source words it translates, evenly (the module docstring); as they are where no term's
    target term stands in the translation, or there are no weights.  A new list: the weights given
    are not changed (a repeated sentence's are kept)."""
    if weights is None or not (links := term_links(source, translation, glossary)):
        return weights
    width = max([len(WORD.findall(source)), *map(len, weights)])
    rows = [[*row, *[0.0] * (width - len(row))] for row in weights]
    rows += [[0.0] * width for _ in range(len(WORD.findall(translation)) - len(rows))]
    linked: set[int] = set().union(*links.values())
    for row in rows:  # the term's source words went to its target term: no other word attends to them
        for k in linked:
            row[k] = 0.0
    for t, words in links.items():
        rows[t] = [float(k in words) / len(words) for k in range(width)]
    return rows


def term_links(source: str, translation: str, glossary: Glossary | None) -> dict[int, set[int]]:
    """translation word -> the source words of the term whose target term it is part of, where the
    target term is written as often as its source terms occur: the first place goes to the first,
    and so on.  Written some other number of times, which is which is not known, and the model's
    attention decides: a target term written once for a source term that occurs twice may translate
    either place (``a red bike and a red bike`` -> ``einem roten Fahrrad und Rennrad``), and linked
    to both, it took a mark on the first from the words that translate it."""
    places: dict[str, list[tuple[int, int]]] = {}
    for start, end, target in glossary.found_in(source) if glossary else []:
        places.setdefault(target, []).append((start, end))
    source_words = [match.span() for match in WORD.finditer(source)]
    target_words = [match.span() for match in WORD.finditer(translation)]
    links: dict[int, set[int]] = {}
    for target, spans in places.items():
        written = written_at(translation, target)
        if len(written) != len(spans):
            continue
        for (start, end), (written_start, written_end) in zip(spans, written, strict=True):
            # a term's k-th word (split at whitespace) lies in the k-th sentence word it overlaps
            words = sorted(covered(source_words, start, end))
            targets = sorted(covered(target_words, written_start, written_end))
            pairs = word_pairs(source[start:end].split(), translation[written_start:written_end].split())
            for t, paired in zip(targets, pairs, strict=True):
                links.setdefault(t, set()).update(words[k] for k in paired)
    return links


def word_pairs(source: list[str], target: list[str]) -> list[set[int]]:
    """For each word of a target term, the words of its source term (their places in ``source``)
    it translates: one spelt the same, case aside; the rest in order where as many are left on
    either side, else all the source words left (all of them, where none is left)."""
    pairs: list[set[int]] = [set() for _ in target]
    left = list(range(len(source)))
    for t, word in enumerate(target):
        same = [k for k in left if source[k].casefold() == word.casefold()]
        if same:
            pairs[t] = {same[0]}
            left.remove(same[0])
    rest = [t for t in range(len(target)) if not pairs[t]]
    for n, t in enumerate(rest):
        pairs[t] = {left[n]} if len(rest) == len(left) else set(left or range(len(source)))
    return pairs


def written_at(translation: str, target: str) -> list[tuple[int, int]]:
    """Where ``target`` stands in ``translation`` as whole words, as the search writes a term: no
    letter, digit or hyphen glued to it on either side ("Rennrad" not in "Rennradfahrer")."""
    target = target.strip()
    return [(match.start(), match.end()) for match in re.finditer(re.escape(target), translation)
            if not joins(translation[match.start() - 1: match.start()]) and not joins(translation[match.end():][:1])]


def joins(character: str) -> bool:
    """Whether ``character`` beside a word makes it part of a longer one."""
    return character.isalnum() or (character != "" and character in HYPHENS)


def covered(words: list[tuple[int, int]], start: int, end: int) -> set[int]:
    """The words (their [start, end) spans) that overlap [start, end)."""
    return {k for k, (word_start, word_end) in enumerate(words) if word_start < end and word_end > start}
