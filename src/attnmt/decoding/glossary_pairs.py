"""The pairs of terms a glossary is given (attnmt.decoding.glossary): each pair read with where it was given
(``given_pairs``: a JSON object's pairs as given, ``GivenPairs``; a table's rows by their index), checked to be
two texts (``term_pair``, ``term_text``) and kept under its source's key (``add_term``, ``checked_terms``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from attnmt.decoding.term_forms import case_variant_key, cased, narrowed, normal, same_target, term_key
from attnmt.errors import ConfigError, DataError, value_shown
from attnmt.text.encodings import check_encodable
from attnmt.text.invisible import SPACING


class GivenPairs(dict):
    """A JSON object as ``json.loads(text, object_pairs_hook=GivenPairs)`` reads it: a dict that also
    keeps its ``pairs`` as given.  JSON keeps the last value of a key given twice, silently; a
    glossary built from the pairs (``Glossary.of(terms.pairs)``) refuses a source term given two
    target terms ({"dog": "Hund", "dog": "Köter"}), as it refuses {"Dog": …, "dog": …}."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


def given_pairs(terms: object, where: str) -> Iterable[tuple[str, Any]]:
    """The items of ``terms``, each with where it was given: a mapping's (source, target) items (a
    GivenPairs' pairs, as given) at ``where``, their keys naming them; an iterable's own at ``where``
    and its index (``glossary[2]``: a table's row, of thousands, that a missing cell or a term given
    twice was named by neither).  A ConfigError naming ``where`` for terms of another type (one str, None)."""
    if isinstance(terms, (str, bytes)) or not isinstance(terms, Iterable):
        raise ConfigError(f'{where}: expected a dict {{"source term": "target term"}} or (source, target) '
                          f"pairs, got {type(terms).__name__}")
    if isinstance(terms, Mapping):
        return ((where, pair) for pair in (terms.pairs if isinstance(terms, GivenPairs) else terms.items()))
    return ((f"{where}[{index}]", pair) for index, pair in enumerate(terms))


def term_pair(pair: Any, where: str) -> tuple[object, object]:
    """``pair``'s source and target: any item of two, a tuple, a list or a row of a NumPy array
    (``df[["en", "de"]].values``).  A DataError naming ``where`` for anything else: a str or
    bytes (``["ab"]`` was the term ("a", "b")), a set or dict (in no order), or an item of
    another length."""
    try:
        two = not isinstance(pair, (str, bytes, AbstractSet, Mapping)) and len(pair) == 2
    except TypeError:  # no length: a number, None, a 0-dim array
        two = False
    if not two:
        raise DataError(f"{where}: expected a (source term, target term) pair, got {pair!r:.60}")
    source, target = pair
    return source, target


def term_text(term: object, side: str, where: str, other: object) -> str:
    """A term with U+FEFF as a space, as the model reads it (attnmt.text.invisible.SPACING): a byte
    order mark that joining two glossaries (``cat``) leaves at the start of a line, or that a copy
    and paste brings, which kept made its term match nothing ("\\ufeffdog"), silently, and which
    ``add_term`` strips at the ends; so are the other characters the model reads as one at a term's ends
    (``EDGES``: a zero-width space or a direction mark a web page or Word left after "Hund", whose target was
    refused, "the model's target vocabulary writes it as 'Hund'"), and kept inside it, where a writer put one
    (a zero-width non-joiner inside a Persian word).  A DataError naming ``where`` for a term that is not text, and
    the ``other`` term of its pair beside it, as for an empty term: a table's missing cell (NaN)
    was named by neither, in a glossary of thousands of rows."""
    if not isinstance(term, str):
        raise DataError(f"{where}: the {side} term must be text, got {value_shown(term)} (beside {value_shown(other)})")
    return EDGES.sub(" ", term.replace(BOM, " "))


# U+FEFF, the byte order mark (as a "zero width no-break space" it is deprecated for U+2060)
BOM = "\ufeff"
# The characters the model reads as a space (SPACING) at a term's start or end, with the spaces around them
_SPACING = "".join(sorted(SPACING))
EDGES = re.compile(f"^[\\s{_SPACING}]*[{_SPACING}][\\s{_SPACING}]*|[\\s{_SPACING}]*[{_SPACING}][\\s{_SPACING}]*$")


def checked_terms(terms: object, where: str) -> dict[str, tuple[str, str]]:
    """``terms`` as ``add_term`` keeps them, each checked at its place (``given_pairs``); a source term
    given a second target names the row of the first, where the pairs have rows."""
    kept: dict[str, tuple[str, str]] = {}
    rows: dict[str, str] = {}
    for place, pair in given_pairs(terms, where):
        source, target = term_pair(pair, place)
        key = add_term(kept, source, target, place, rows)
        if place != where:
            rows.setdefault(key, place)
    return kept


class CheckedTerms(tuple):
    """The (source, target) terms of ``kept`` (source term's key -> term), as ``add_term`` checked and kept them,
    for ``Glossary.indexed`` to hand the dataclass: it indexes them without checking each again."""

    kept: dict[str, tuple[str, str]]

    def __new__(cls, kept: dict[str, tuple[str, str]]) -> CheckedTerms:
        terms = super().__new__(cls, kept.values())
        terms.kept = kept
        return terms


def add_term(kept: dict[str, tuple[str, str]], source: object, target: object, where: str,
             places: Mapping[str, str] | None = None) -> str:
    """Adds (source, target), stripped, U+FEFF a space (``term_text``), to ``kept`` under its
    source's key (``term_key``: "Dog" and "dog" are one term, "US" and "us" two; but "Apple" beside an "apple"
    of another target is kept under ``case_variant_key``), returned; a DataError naming
    ``where`` for a term that is not text, is blank (spaces and invisible characters alone, which
    ``normal`` reads as nothing: "\\u200b") or is not valid Unicode (``check_encodable``), or a second
    target for one source term (naming where the first was given, where ``places``, source's key ->
    place, knows it: it may be another file's line)."""
    source, target = term_text(source, "source", where, target), term_text(target, "target", where, source)
    for side, term, other in (("source", source, target), ("target", target, source)):
        if not normal(term):
            raise DataError(f"{where}: empty {side} term (beside {value_shown(other)})")
        check_encodable([(f"{where}: glossary {side} term {value_shown(term)}", term)])
    key, pair = term_key(source), (source.strip(), target.strip())
    variant = case_variant_key(source)
    if variant in kept or (same_target(kept.get(key, pair)[1]) != same_target(pair[1])
                           and variant != case_variant_key(kept[key][0])):
        key = variant  # "apple" beside "Apple" of another target: a term of its own case
    if same_target(kept.get(key, pair)[1]) != same_target(pair[1]):
        first = f" ({places[key]})" if places and key in places else ""
        raise DataError(f"{where}: source term {value_shown(source)} has two target terms, "
                        f"{value_shown(kept[key][1])}{first} and {value_shown(target)}")
    kept[key] = widest(kept.get(key, pair), pair)
    return key


def widest(first: tuple[str, str], then: tuple[str, str]) -> tuple[str, str]:
    """Of two (source, target) pairs of one source term and target, read alike, the later ``then``, but where its
    capitals narrow where it matches (``narrowed``) and ``first``'s do not: a term given in small letters keeps
    matching in every case ("coffee shop" beside "Coffee Shop"; "bike" beside "Bike", given for a sentence's start,
    whose kept capital had made "Two bikes" no match, its plural then a name's)."""
    return first if narrowed(cased(then[0])) and not narrowed(cased(first[0])) else then
