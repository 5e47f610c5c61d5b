"""The warnings about the glossary terms of a translation, each given once per target term in a call of
translate (``told``: the target terms warned of so, which attnmt.decoding.inputs.Guides keeps): a term too
long to fit into a translation (``warn_left_out``), one a translation came without (``warn_missed``), and one a
translation holds fewer times than its sentence holds the source term (``warn_fewer``).

The search requires each target term once (attnmt.decoding.constraints): a sentence that holds a term twice
("Restart the router, then wait for the router") may come out with it once, the second place written in the
model's own word ("Gerät") or left out; ``term_counts`` counts the places as a terminology check in a CAT tool
does, so that such a translation is told, not passed as one that keeps the glossary.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Sequence

from attnmt.decoding.constraints import Terms, holds
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.term_forms import normal, same_target, term_key
from attnmt.decoding.term_ids import forms
from attnmt.decoding.term_plurals import ENDINGS, umlauted
from attnmt.errors import AttnmtWarning


def warn_left_out(told: set[str], target: str, pieces: int, room: int, glossary: Glossary | None = None) -> None:
    """One warning per target term left out of a translation, too long to fit (``term_ids.fitting``), naming where
    ``glossary`` was given it ("terms.tsv:3"), where known (``target_place``)."""
    if target not in told:
        told.add(target)
        place = target_place(glossary, target) if glossary is not None else None
        warnings.warn(f"{place + ': ' if place else ''}glossary target term {shortened(target)!r} ({pieces} pieces) "
                      f"does not fit into a translation of at most {room} pieces (the model's positions, less the "
                      "prefix and the sentence's other terms); it is left out", AttnmtWarning, stacklevel=3)


def target_place(glossary: Glossary, target: str) -> str | None:
    """Where ``glossary`` was given the first source term of the target term ``target`` (as its ids decode: NFC,
    stripped), None where not known; a look through its terms, made only for a term warned of."""
    written = same_target(target)
    source = next((source for source, each in glossary.terms if same_target(each) == written), None)
    return None if source is None else glossary.place(source)


def warn_missed(told: set[str], tokenizer, terms: Terms, outputs: Sequence[Sequence[int]]) -> None:
    """One warning per target term of ``terms`` that one of a sentence's ``outputs`` (token ids)
    lacks in every form (term_ids.forms).  The search ends a hypothesis without a term only at the
    length limit, where it could not write it (the model gives one of its pieces no probability): a
    translation that breaks the glossary's promise must not pass as one that keeps it."""
    for term in terms:
        target = tokenizer.decode(term)
        if target not in told and not all(any(holds(output, form) for form in forms(term)) for output in outputs):
            told.add(target)
            warnings.warn(f"glossary target term {shortened(target)!r} is not in a translation: the search reached "
                          "the length limit without writing it (the model rules out one of its pieces); that "
                          "translation goes without it", AttnmtWarning, stacklevel=2)


def term_counts(glossary: Glossary, sentence: str, translation: str) -> list[tuple[str, str, int, int]]:
    """(source term as ``sentence`` has it, target term, times the sentence holds the term's source terms, times
    ``translation`` holds the target term) of each target term the translation holds fewer times than the
    sentence its source terms (``repeated_terms``, ``fewer_in``)."""
    return fewer_in(repeated_terms(glossary, sentence), glossary, translation)


def repeated_terms(glossary: Glossary, sentence: str) -> dict[str, tuple[str, str, int]]:
    """Target term's key (``term_key``) -> (its first source term as ``sentence`` has it, the target term, times the
    sentence holds its source terms), found as the glossary finds terms (``Glossary.found_in``), where one is held
    twice or more; empty where each is held once, which the search writes (or ``warn_missed`` tells).  Two source
    terms of one target ("e-mail", "email": E-Mail) count together."""
    found: dict[str, tuple[str, str, int]] = {}
    for start, end, target in glossary.found_in(sentence):
        source, _, count = found.get(term_key(target), (sentence[start:end], target, 0))
        found[term_key(target)] = (source, target, count + 1)
    return found if any(count > 1 for _, _, count in found.values()) else {}


def fewer_in(wanted: dict[str, tuple[str, str, int]], glossary: Glossary,
             translation: str) -> list[tuple[str, str, int, int]]:
    """(source term, target term, times wanted, times in ``translation``) of each of ``wanted`` (``repeated_terms``)
    that the translation holds fewer times, its target terms found as the glossary finds terms
    (``Glossary.of_targets``: "Router" is found in "router." and not in "Routerkabel"), or inflected
    (``inflected_count``)."""
    if not wanted:
        return []
    found = Counter(term_key(target) for _, _, target in glossary.of_targets.found_in(translation))
    written = {key: max(found[key], inflected_count(translation, target)) for key, (_, target, _) in wanted.items()}
    return [(source, target, count, written[key]) for key, (source, target, count) in wanted.items()
            if written[key] < count]



def inflected_count(translation: str, target: str) -> int:
    """Times ``translation`` holds ``target`` as a word of its own, its last word carried on by one of the ENDINGS
    or none ("Zugangspunkte", not "Bankett" for "Bank"), its last vowel in its umlaut or not ("Männer"), as both
    read when ``normal``: the search lets the model inflect a term whose source the sentence holds in the plural
    (attnmt.decoding.term_plurals), and its count was short."""
    endings = "|".join(sorted(ENDINGS, key=len, reverse=True))
    stems = "|".join(re.escape(normal(stem)) for stem in (target, umlauted(target)) if stem)  # "Männer" for "Mann"
    return len(re.findall(rf"(?<!\w)(?:{stems})(?:{endings})?(?!\w)", normal(translation)))


def warn_fewer(told: set[str], glossary: Glossary | None, sentence: str, tokenizer,
               outputs: Sequence[Sequence[int]]) -> None:
    """One warning per target term that one of a sentence's ``outputs`` (token ids) holds fewer times than
    ``sentence`` holds its source term (``term_counts``), naming both counts and the sentence; the outputs are
    decoded only for a sentence that holds a term twice."""
    if not glossary or not (wanted := repeated_terms(glossary, sentence)):
        return
    for translation in map(tokenizer.decode, outputs):
        for source, target, count, written in fewer_in(wanted, glossary, translation):
            if target not in told:
                told.add(target)
                warnings.warn(f"glossary term {shortened(source)!r} occurs {times(count)} in {shortened(sentence)!r}, "
                              f"and its target term {shortened(target)!r} {times(written)} in the translation "
                              f"{shortened(translation)!r}: check that translation", AttnmtWarning, stacklevel=2)


def times(count: int) -> str:
    """How often a term occurs, in words: "never", "once", "2 times"."""
    return "never" if count == 0 else "once" if count == 1 else f"{count} times"


def shortened(text: str) -> str:
    """``text`` cut to 40 characters and an ellipsis, as a warning shows a term or a sentence."""
    return text[:40] + ("…" if len(text) > 40 else "")
