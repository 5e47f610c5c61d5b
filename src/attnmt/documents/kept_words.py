"""A mark's edge inside a word that the translation writes exactly as the source does.

Rule 1 of attnmt.documents.spans stretches a tag inside a word over the whole word, since a
translated word has no letter that answers to the source's (``<b>Hund</b>e`` -> ``<b>dogs</b>``).
A number, a formula, a name or a unit often comes through unchanged (``H<sub>2</sub>O``, ``m<sup>2</sup>``,
``CO<sub>2</sub>``), and there the tag can keep its place: the same offset within the same word.
So does a mark over punctuation glued to a word alone (a tracked insertion of the comma in
``walking,``, a bold stop): it is no part of the word's meaning, and stretched over the word it
took the translated words with it (an insertion that Reject All then deleted); it goes over the
same punctuation at the same end of the target word, or, where the translation has none there, it
is a point (rule 2).  Apart from spans.py so that the placing rules read on their own."""

from __future__ import annotations

from attnmt.documents.flat import is_punctuation


def core(text: str, start: int, end: int) -> tuple[int, int]:
    """The word text[start:end] without the punctuation at its ends (``(H2O).`` -> ``H2O``): a
    translation may move a stop or a bracket and still keep the word itself."""
    while start < end and is_punctuation(text[start]):
        start += 1
    while end > start and is_punctuation(text[end - 1]):
        end -= 1
    return start, end


def in_kept_word(parts: SameParts, word: tuple[int, int], target_word: tuple[int, int],
                 mark: tuple[int, int]) -> tuple[int, int]:
    """Where a ``mark`` over part or all of the one source ``word`` goes in ``target_word``, the one
    target word aligned to it: each edge where kept_edge puts it, where the target word is the source
    word unchanged (its punctuation aside); where it differs, over the same part of it where the mark
    stands between the word's letters and its punctuation inside it and the target word has the same
    punctuation in the same places (SameParts); else over the whole target word, as rule 1 says.
    Both edges are measured in the same word, so the mark can neither cross nor mix places of two
    words (a mark from inside one ``H2O`` to inside another, translated as one)."""
    source, target = parts.source, parts.target
    if not is_kept(source, word, target, target_word):
        return parts.place(word, target_word, mark) or target_word
    return kept_edge(source, word, target, target_word, mark[0]), kept_edge(source, word, target, target_word, mark[1])


class SameParts:
    """Where a mark whose edges stand between a word's letters and its punctuation inside it (the ``1``
    of ``[1](y)``, Markdown's link in brackets; ``Hund`` in ``Hund-e``) goes in the target word aligned
    to it: over the same parts of it, where that has the same punctuation in the same places (``[1](Y)``).
    Stretched over the whole word, the mark took the punctuation between with it (``1](Y``).

    Each word's parts are found once, and each pair of words matched once: thousands of marks in one
    word each going through it again made placing them quadratic."""

    def __init__(self, source: str, target: str) -> None:
        self.source, self.target = source, target
        self.source_parts: dict[tuple[int, int], tuple[list[int], list[str | None]]] = {}
        self.target_parts: dict[tuple[int, int], tuple[list[int], list[str | None]]] = {}
        self.matched: dict[tuple[tuple[int, int], tuple[int, int]], dict[int, int] | None] = {}

    def place(self, word: tuple[int, int], target_word: tuple[int, int], mark: tuple[int, int],
              keeps: bool = False) -> tuple[int, int] | None:
        """The mark's span in ``target_word``; None where an edge stands inside a part of ``word`` or
        the two words' punctuation differs.  ``keeps``: in a word written unchanged, each edge keeps its place
        (kept_edge), as the edge of a mark over several words translated as several does: its end inside
        ``textitalic`` (``<b>bold text</b><i>italic text</i>``), where the model reads one word, stays there."""
        if keeps and is_kept(self.source, word, self.target, target_word):
            return kept_edge(self.source, word, self.target, target_word, mark[0]), kept_edge(
                self.source, word, self.target, target_word, mark[1])
        if (word, target_word) not in self.matched:
            self.matched[word, target_word] = self.match(word, target_word)
        edges = self.matched[word, target_word]
        if edges is None:
            return None
        placed = []
        for edge in mark:
            if edge <= word[0] or edge >= word[1]:
                placed.append(target_word[0] if edge <= word[0] else target_word[1])
            elif edge in edges:
                placed.append(edges[edge])
            else:
                return None
        return placed[0], placed[1]

    def match(self, word: tuple[int, int], target_word: tuple[int, int]) -> dict[int, int] | None:
        """Each edge of ``word``'s parts -> the same edge of ``target_word``'s; None where their
        punctuation differs in number, text or place."""
        edges, punctuation = parts_of(self.source, word, self.source_parts)
        target_edges, target_punctuation = parts_of(self.target, target_word, self.target_parts)
        if len(edges) != len(target_edges) or punctuation != target_punctuation:
            return None
        return dict(zip(edges, target_edges, strict=True))


def parts_of(text: str, word: tuple[int, int],
             found: dict[tuple[int, int], tuple[list[int], list[str | None]]]) -> tuple[list[int], list[str | None]]:
    """The word text[start:end]'s part edges and its parts' punctuation, from ``found`` or found now."""
    if word not in found:
        edges = part_edges(text, *word)
        found[word] = edges, punctuation_parts(text, edges)
    return found[word]


def part_edges(text: str, start: int, end: int) -> list[int]:
    """The word text[start:end]'s edges and those between its letters and its punctuation (``[1](y)``: 0 1 2 4 5 6)."""
    return [start, *(k for k in range(start + 1, end) if is_punctuation(text[k]) != is_punctuation(text[k - 1])), end]


def punctuation_parts(text: str, edges: list[int]) -> list[str | None]:
    """The parts between ``edges`` (part_edges): each punctuation's own text, None for letters."""
    return [text[a:b] if is_punctuation(text[a]) else None for a, b in zip(edges, edges[1:], strict=False)]


def is_kept(source: str, word: tuple[int, int], target: str, target_word: tuple[int, int]) -> bool:
    """Whether ``target_word`` writes the source ``word`` unchanged, its punctuation aside."""
    start, end = core(source, *word)
    target_start, target_end = core(target, *target_word)
    return source[start:end] == target[target_start:target_end]


def kept_edge(source: str, word: tuple[int, int], target: str, target_word: tuple[int, int], edge: int) -> int:
    """Where an ``edge`` in ``word`` goes in ``target_word``, the same word (its punctuation aside): in
    the word's letters or at their ends (``H|2|O``; the comma's start in ``walking,`` is the letters'
    end, not the word's start), at the same offset from the letters' start; in the punctuation after
    (before) them, at the same offset from the word's end (start) where the target word has that
    punctuation there too; else, and outside the word, at the target word's edge."""
    (start, end), (target_start, target_end) = core(source, *word), core(target, *target_word)
    if edge <= word[0] or edge >= word[1]:
        return target_word[0] if edge <= word[0] else target_word[1]
    if start <= edge <= end:
        return edge + target_start - start
    if edge > end:
        same = source[end:word[1]] == target[target_end:target_word[1]]
        return edge + target_word[1] - word[1] if same else target_word[1]
    same = source[word[0]:start] == target[target_word[0]:target_start]
    return edge + target_word[0] - word[0] if same else target_word[0]


def glued_side(source: str, word: tuple[int, int], mark: tuple[int, int]) -> int:
    """1 where ``mark`` holds punctuation after the letters or digits of ``word`` alone (the comma of
    ``walking,``, whitespace after the word aside), -1 where it holds punctuation before them alone
    (the bracket of ``(H2O``), 0 otherwise (a stop inside ``19.99`` is part of its word)."""
    start, end = core(source, *word)
    if start == end:  # punctuation alone is a word of its own
        return 0
    if end <= mark[0] < word[1] and not source[word[1]:mark[1]].strip():
        return 1
    if word[0] < mark[1] <= start and not source[mark[0]:word[0]].strip():
        return -1
    return 0


def on_glued(source: str, word: tuple[int, int], side: int, target: str, aligned: list[tuple[int, int]],
             mark: tuple[int, int]) -> tuple[int, int] | None:
    """Where a mark over the glued punctuation of ``word`` (``side``: glued_side) goes: over the same
    characters at the same end of the target word aligned to it nearest that end (``geht,`` for
    ``walking,``; ``aligned``: those target words, in order), where its punctuation there ends
    (starts) with them; None where it does not (``geht``: the model left the comma out) or nothing
    was aligned, so that the mark is a point."""
    if not aligned:
        return None
    start, end = max(mark[0], word[0]), min(mark[1], word[1])
    target_word = aligned[-1] if side > 0 else aligned[0]
    target_start, target_end = core(target, *target_word)
    if side > 0 and target[target_end:target_word[1]].endswith(source[start:word[1]]):
        return start + target_word[1] - word[1], end + target_word[1] - word[1]
    if side < 0 and target[target_word[0]:target_start].startswith(source[word[0]:end]):
        return start + target_word[0] - word[0], end + target_word[0] - word[0]
    return None


def kept_point(source: str, word: tuple[int, int], target: str, aligned: list[tuple[int, int]],
               position: int) -> int | None:
    """Where something at ``position`` strictly inside ``word`` goes (rule 2) where the one target
    word ``aligned`` to it writes it unchanged: its place in it, by kept_edge (a bookmark from
    inside ``ri|ding``, in a sentence kept in its source); None where the word changed."""
    if len(aligned) != 1 or not is_kept(source, word, target, aligned[0]):
        return None
    return kept_edge(source, word, target, aligned[0], position)
