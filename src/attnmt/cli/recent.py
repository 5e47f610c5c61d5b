"""What ``attnmt translate`` translated lately, so that a repeated line is translated once however
it comes: a file is read whole, and each distinct sentence of it searched once
(attnmt.documents.pipeline.translate_flats); a stream is read in the batches it arrives in, and
each JSONL line carries its own glossary and prefix.  ``Recent`` keeps the latest translations
across those batches, at most ``RECENT`` of them (the least recently used let go first), so that
an endless stream holds no more than that in memory."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import translated_by
from attnmt.documents.translators import Wrapper

RECENT = 4096  # translations kept: a stream's repeats come back within a few thousand lines
MISSING = object()  # no translation kept (a kept one may be "" or [])
T = TypeVar("T")


class Recent:
    """Key -> translation, at most ``size`` of them, the least recently used let go first."""

    def __init__(self, size: int = RECENT) -> None:
        self.size = size
        self.entries: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The translation kept for ``key``, now the most recently used, or MISSING."""
        if key not in self.entries:
            return MISSING
        self.entries.move_to_end(key)
        return self.entries[key]

    def put(self, key: Hashable, value: Any) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)


@dataclass
class Remembering(Wrapper):
    """A Translator that hands ``translator`` only the sentences it has not translated lately (or
    not with the word weights now wanted): a plain-text stream's batches search a repeated sentence
    once, as a file's one batch does.  (Not for a review, which takes each translation's assessment
    from the search that found it: ModelTranslator.taken.)"""

    recent: Recent = field(default_factory=Recent)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        found = [self.recent.get(sentence) for sentence in sentences]
        todo = [i for i, (kept, wanted) in enumerate(zip(found, weighed, strict=True))
                if kept is MISSING or (wanted and kept[1] is None)]
        try:
            texts, weights = translated_by(self.translator, [sentences[i] for i in todo], [weighed[i] for i in todo])
        except SentencesFailed:  # all of them again, the failures numbered as the caller's sentences
            return self.translator.translate(sentences, weighed)
        for i, text, each in zip(todo, texts, weights, strict=True):
            found[i] = (text, each)
            self.recent.put(sentences[i], found[i])
        return [text for text, _ in found], [each if wanted else None
                                             for (_, each), wanted in zip(found, weighed, strict=True)]


def once(search: Callable[[list[int]], list[T]], keys: Sequence[Hashable | None], recent: Recent) -> list[T]:
    """One output per line: ``search(indices)`` gives the outputs of those lines, and is handed the
    first line of each distinct key that ``recent`` does not hold; a line with the key None (a
    sample of its own) is searched on its own.  Where the model fails on some lines, SentencesFailed
    names every line with their keys, and holds the others' outputs (attnmt.cli.lines.kept)."""
    outputs = [MISSING if key is None else recent.get(key) for key in keys]
    first: dict[Hashable, int] = {}
    todo = []
    for i, key in enumerate(keys):
        if outputs[i] is MISSING and (key is None or first.setdefault(key, i) == i):
            todo.append(i)
    try:
        found, failed = search(todo), {}
    except SentencesFailed as error:
        found, failed = error.outputs, error.failures
    for j, i in enumerate(todo):
        outputs[i] = found[j]
        if keys[i] is not None and j not in failed:
            recent.put(keys[i], found[j])
    outputs = [found if found is not MISSING else outputs[first[key]] for found, key in zip(outputs, keys, strict=True)]
    if not failed:
        return cast(list[T], outputs)
    lost = {todo[j]: reason for j, reason in failed.items()}  # by the line searched: the first with its key
    failure = SentencesFailed({i: lost[line] for i, key in enumerate(keys)
                               if (line := i if key is None else first.get(key)) in lost})
    failure.outputs = outputs
    raise failure
