"""A glossary in a JSON file (``terms.json``), as users keep one beside their i18n files
(attnmt.decoding.glossary_files reads a ``.json`` file so): an object of source term: target term (``{"dog":
"Hund", "cat": "Katze"}``, as a JSONL line's or a request's ``"glossary"`` is), or a list of objects each with
its ``"source"`` and ``"target"`` (``[{"source": "dog", "target": "Hund"}]``; other keys, a note's, are no
terms; one such object alone is one term) or of pairs (``[["dog", "Hund"]]``). A term is named by its line and
key (``terms.json:3["dog"]``) or its line and index (``terms.json:4[2]``) where it is wrong; a file that is no JSON
names its line, one of another shape the file. A key given twice is kept twice, as the API keeps it
(attnmt.decoding.glossary_pairs.GivenPairs), so that two target terms for it stop the reading."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from attnmt.errors import DataError

Row = tuple[str, str, str]  # (place 'terms.json:3["dog"]', source term, target term)
SHAPES = 'an object {"source term": "target term", …} or a list of {"source": …, "target": …} objects'


class Pairs(list):
    """A JSON object as read, its (key, value) pairs in order, a key given twice kept twice."""


def json_rows(lines: list[str], path: str | Path) -> Iterator[Row]:
    """The terms of a JSON glossary of ``lines`` (the file ``path``'s, as glossary_files.text_lines reads
    them), as (place, source term, target term); a DataError for no valid JSON, or another shape."""
    try:
        value = json.loads("\n".join(lines), object_pairs_hook=Pairs)
    except json.JSONDecodeError as error:
        raise DataError(f"{path}:{error.lineno}: not valid JSON: {error.msg} (column {error.colno}); a JSON "
                        f"glossary is {SHAPES}") from None
    except RecursionError:
        raise DataError(f"{path}: JSON nested too deeply; a JSON glossary is {SHAPES}") from None
    if isinstance(value, Pairs) and sorted(key for key, _ in value) == ["source", "target"]:
        return iter([alone(value, lines, path)])  # a list's item given alone: one term, not "source" and "target"
    if isinstance(value, Pairs):
        return (checked(f"{path}:{line}[{json.dumps(key, ensure_ascii=False)}]", key, target)
                for (key, target), line in zip(value, item_lines(lines), strict=True))
    if isinstance(value, list):
        return (listed(f"{path}:{line}[{index}]", item)
                for index, (item, line) in enumerate(zip(value, item_lines(lines), strict=True)))
    raise DataError(f"{path}: a JSON glossary is {SHAPES}, got {shown(value)}")


# The tokens of valid JSON that say where an item starts: a string (its escapes read past), a bracket, a comma or a
# colon, and a number or a literal (true, false, null) as one run of other characters
TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[][{},:]|[^][{},:"\s]+')


def item_lines(lines: list[str]) -> list[int]:
    """The line (from 1) each item of the top-level object (its key) or list of the valid JSON ``lines`` starts on,
    in order: json.loads keeps no places, and a key given twice ({"dog": "Hund", …, "dog": "Köter"}, far apart in a
    file of thousands) was named by its key alone, as both places of it."""
    starts: list[int] = []
    depth, starting = 0, False
    for number, line in enumerate(lines, 1):
        for token in TOKENS.finditer(line):
            mark = token.group()
            if starting and mark not in ("}", "]"):
                starts.append(number)
            starting = False
            if mark in ("{", "["):
                depth += 1
                starting = depth == 1
            elif mark in ("}", "]"):
                depth -= 1
            elif mark == ",":
                starting = depth == 1
    return starts


def listed(where: str, item: object) -> Row:
    """The term of a JSON list's ``item``, an object with ``"source"`` and ``"target"`` or a pair of two."""
    if isinstance(item, Pairs):
        fields = dict(item)
        missing = [key for key in ("source", "target") if key not in fields]
        if missing:
            raise DataError(f'{where}: no "{missing[0]}" key in {shown(item)}: each item of a JSON glossary\'s list '
                            'is {"source": "source term", "target": "target term"}')
        return checked(where, fields["source"], fields["target"])
    if isinstance(item, list) and len(item) == 2:
        return checked(where, *item)
    raise DataError(f'{where}: expected {{"source": "source term", "target": "target term"}}, got {shown(item)}')


def alone(item: Pairs, lines: list[str], path: str | Path) -> Row:
    """The term of a JSON glossary that is one object of a ``"source"`` and a ``"target"`` (``json_rows``), placed at
    the line of its ``"source"``; a term that is not text is named by its key's line and key
    (``terms.json:3["target"]``), as an object of terms names its keys: it was named by the file alone."""
    lines_of = {key: line for (key, _), line in zip(item, item_lines(lines), strict=True)}
    source, target = (text_term(f'{path}:{lines_of[side]}["{side}"]', side, dict(item)[side])
                      for side in ("source", "target"))
    return f"{path}:{lines_of['source']}", source, target


def checked(where: str, source: object, target: object) -> Row:
    """(where, source, target); a DataError naming ``where`` for a term that is not text."""
    return where, text_term(where, "source", source), text_term(where, "target", target)


def text_term(where: str, side: str, term: object) -> str:
    """``term``, the ``side`` ("source", "target") term given at ``where``; a DataError naming ``where`` where it is
    not text."""
    if not isinstance(term, str):
        raise DataError(f"{where}: the {side} term must be text, got {shown(term)}; a JSON glossary is {SHAPES}")
    return term


def shown(value: object) -> str:
    """``value`` as JSON writes it, cut at 60 characters: a nested object ({"file": "Datei"}) as it was given."""
    def plain(node: object) -> object:
        if isinstance(node, Pairs):
            return {key: plain(item) for key, item in node}
        return [plain(item) for item in node] if isinstance(node, list) else node
    text = json.dumps(plain(value), ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"
