"""What of a sentence given to ``translate`` the model does not read, kept as ``attnmt translate`` keeps it in a
line (attnmt.documents.pipeline.flat_line) or a JSONL text (attnmt.documents.terminal_codes.flat_whole), so that
the same text comes back the same from either: a list's mark at its start (``- ``, ``1) ``:
attnmt.text.list_marks) and a terminal's escape codes at its edges (attnmt.text.terminal_codes.at_edges) are
written back around its translation; its soft hyphens are dropped.  The Python call wrote "- A dog runs in the
park." as "Ein Hund rennt im Park." and "A man is play\\u00ading the gui\\u00adtar." as "Ein Mann spielt
Ausspprüssssen.", where the command wrote "- Ein Hund rennt im Park." and "Ein Mann spielt Gitarre.".

A terminal's codes between a sentence's words stay in what the model reads: placing them in the translation
takes its word alignment (attnmt.inspect.align), which this layer does not import; attnmt.documents.translate_text
places them."""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.text.list_marks import LIST_MARK
from attnmt.text.terminal_codes import Edges, at_edges

# A soft hyphen (U+00AD) says where a word may break at a line's end: a piece the model has never seen
# inside a word, stale once the word is translated (attnmt.documents.flat.SOFT_HYPHEN).
SOFT_HYPHEN = "\u00ad"


def sentence_edges(sentence: str) -> Edges:
    """``sentence``'s list mark with the spaces around it, then the codes at its start, as its ``head``; the codes
    at its end as its ``tail``: "- \\x1b[1mA dog runs.\\x1b[0m" is ("- \\x1b[1m", "A dog runs.", "\\x1b[0m")."""
    mark = LIST_MARK.match(sentence)
    if mark is None:
        return at_edges(sentence)
    start = len(sentence) - len(sentence[mark.end("mark"):].lstrip(" \t"))  # LIST_MARK: spaces, then more
    inner = at_edges(sentence[start:])
    return Edges(sentence[:start] + inner.head, inner.body, inner.tail)


def read_sentences(sentences: Sequence[str]) -> tuple[list[Edges], list[str]]:
    """Each sentence's edges (``sentence_edges``), and what of it the model reads: its body, less its soft hyphens."""
    edges = [sentence_edges(sentence) for sentence in sentences]
    return edges, [each.body.replace(SOFT_HYPHEN, "") for each in edges]
