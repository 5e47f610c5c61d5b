"""Good translations made worse by random edits: the broken texts that ``attnmt calibrate`` shows the
fit for translations written elsewhere (attnmt.decoding.elsewhere), each labelled by its sentence
chrF against the reference, or unacceptable where it keeps too little of the translation it was
made from or has its words in another order (attnmt.decoding.elsewhere.elsewhere_labels); and one
edit that makes them no worse, a phrase put first in the order German allows, labelled as the
translation it was made from, beside the same phrase put first in the order German does not allow.

    drop_words          k words deleted, each anywhere (k from 1 to a third of the words)
    replace_span        a span of any length, up to all the words, replaced by as many words of
                        another sentence's translation
    untranslated_span   a span of up to half the words replaced by a span of the source's words
    truncate            the words after a random point cut off
    duplicate_span      a span of one to three words written once more right after itself
    transpose_adjacent  two neighbouring words swapped
    front_phrase        the last prepositional phrase after the finite verb put first, the verb second
                        and the subject after it (attnmt.decoding.fronting: "Im Park liest eine Frau ein
                        Buch." from "Eine Frau liest ein Buch im Park."); none where the sentence does not
                        read so (another language, a clause before the verb)
    front_phrase_verb_third  the same phrase put first, the subject before the verb ("Im Park eine Frau liest
                        ein Buch."), the order German does not allow: labelled unacceptable

Other edits than benchmarks/quality.py's broken kinds (a fixed half, a fixed loop, a fixed middle
third, two words across the sentence), so that the benchmark does not measure the edits the fit saw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from attnmt.decoding.fronting import fronted, fronted_verb_third

SEED = 0


@dataclass
class Donors:
    """Words an edit may borrow: another sentence's translation, and this sentence's source."""

    other: list[str]
    source: list[str]


def drop_words(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    gone = set(rng.sample(range(len(words)), rng.randint(1, max(1, len(words) // 3))))
    return [w for i, w in enumerate(words) if i not in gone]


def spliced(words: list[str], donor: list[str], most: int, rng: random.Random) -> list[str]:
    """``words`` with a random span of 1 to ``most`` words replaced by as long a span of ``donor``."""
    size = rng.randint(1, max(1, most))
    start = rng.randint(0, len(words) - size)
    taken = min(size, len(donor))
    at = rng.randint(0, len(donor) - taken)
    return words[:start] + donor[at:at + taken] + words[start + size:]


def replace_span(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    return spliced(words, donors.other, len(words), rng)


def untranslated_span(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    return spliced(words, donors.source, len(words) // 2, rng)


def truncate(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    return words[: rng.randint(1, len(words) - 1)]


def duplicate_span(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    size = rng.randint(1, min(3, len(words)))
    start = rng.randint(0, len(words) - size)
    return words[: start + size] + words[start: start + size] + words[start + size:]


def transpose_adjacent(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    i = rng.randint(0, len(words) - 2)
    return [*words[:i], words[i + 1], words[i], *words[i + 2:]]


def front_phrase(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    """A right order, not a broken one; deterministic, so that the random edits before it draw as they did
    without it."""
    return fronted(words) or words


def front_phrase_verb_third(words: list[str], donors: Donors, rng: random.Random) -> list[str]:
    """``front_phrase``'s phrase put first with the verb third, wrong where that one is right; deterministic too."""
    return fronted_verb_third(words) or words


Edit = Callable[[list[str], Donors, random.Random], list[str]]
EDITS: tuple[Edit, ...] = (drop_words, replace_span, untranslated_span, truncate, duplicate_span, transpose_adjacent,
                           front_phrase, front_phrase_verb_third)


def noised(sources: Sequence[str], translations: Sequence[str], seed: int = SEED) -> list[tuple[int, str, str]]:
    """(index, edited text, the edit's name) for every edit of every translation of at least two
    words that changes its words; the other sentence an edit may borrow from is the next one.
    Deterministic for a given ``seed``."""
    rng = random.Random(seed)
    made = []
    for i, text in enumerate(translations):
        words = text.split()
        if len(words) < 2:
            continue
        donors = Donors(translations[(i + 1) % len(translations)].split() or words, sources[i].split() or words)
        edited = [(edit(words, donors, rng), edit.__name__) for edit in EDITS]
        made += [(i, " ".join(new), name) for new, name in edited if new != words]
    return made
