"""The pairs of terms a glossary is given (attnmt.decoding.glossary): each pair read with where it was given
(``given_pairs``: a JSON object's pairs as given, ``GivenPairs``; a table's rows by their index), checked to be
two texts (``term_pair``, ``term_text``) before ``Glossary`` keeps it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from attnmt.errors import ConfigError, DataError, value_shown


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
    ``add_term`` strips at the ends.  A DataError naming ``where`` for a term that is not text, and
    the ``other`` term of its pair beside it, as for an empty term: a table's missing cell (NaN)
    was named by neither, in a glossary of thousands of rows."""
    if not isinstance(term, str):
        raise DataError(f"{where}: the {side} term must be text, got {value_shown(term)} (beside {value_shown(other)})")
    return term.replace(BOM, " ")


# U+FEFF, the byte order mark (as a "zero width no-break space" it is deprecated for U+2060)
BOM = "\ufeff"
