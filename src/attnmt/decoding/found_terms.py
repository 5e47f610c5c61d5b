"""A glossary's terms found in a text, remembered for the texts it read last.

One sentence of a glossary job is read for its terms about eight times (the search's terms, their other
numbers, the numbers among them, the warnings about repeated ones, the dictated words quality reads, the spans
documents mark), and each reading makes the whole sentence normal a character at a time
(``Glossary.found_in``): a tenth of a 400-line job went there.  ``remembered`` keeps each text's places once
read, per glossary, for the last ``KEPT`` texts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol, TypeVar

# The texts remembered per glossary: a batch's sentences many times over; the memory then starts again.
KEPT = 4096

class Remembering(Protocol):
    """What ``remembered`` keeps its texts in: a dict of the object's own (Glossary's ``_found``)."""

    @property
    def _found(self) -> dict[str, tuple]: ...


Found = TypeVar("Found")
Owner = TypeVar("Owner", bound=Remembering)


def remembered(method: Callable[[Owner, str], list[Found]]) -> Callable[[Owner, str], list[Found]]:
    """``method`` of one text, its result kept per object in ``_found`` and given again, as a new list, for the same
    text; the dict is emptied once it holds ``KEPT`` texts.  Safe across threads: a text read twice at once is
    read twice, and either reading is kept."""

    @functools.wraps(method)
    def found(self: Owner, text: str) -> list[Found]:
        kept = self._found.get(text)
        if kept is None:
            if len(self._found) >= KEPT:
                self._found.clear()
            kept = self._found[text] = tuple(method(self, text))
        return list(kept)

    return found
