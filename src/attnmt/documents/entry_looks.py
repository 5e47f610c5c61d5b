"""The looks inside an index entry's code: ``{ XE "Bold term" }`` with "Bold" typed in a bold run of
its own inside the field's code is listed in bold in the index Word builds from it.  Written whole into
the code's first run (attnmt.documents.index_entries), the translated entry lost every such look.

An entry's text whose characters are in runs of more than one look (index_entries.looked_spans) is
translated as a paragraph is (attnmt.documents.ooxml: its runs are marks, carried through translation
by word alignment), each of its levels a sentence of its own, and written back into runs of those
looks; the rest of the code keeps the runs it was in.  A code whose runs are not side by side in one
container (one run inside a tracked insertion, the next outside it) is written whole into its first
run, as before: its runs cannot be told apart from the container's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from lxml import etree

from attnmt.documents.flat import FlatText
from attnmt.documents.formatting import formatting
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import WORD
from attnmt.documents.spans import Nested
from attnmt.documents.tables import XML_SPACE
from attnmt.documents.wordml import W, w
from attnmt.documents.xstring import text_in

Piece = tuple[etree._Element, str]  # a stretch of a code and the run (``w:r``) whose look it has


def side_by_side(holders: Sequence[etree._Element]) -> bool:
    """Whether ``holders`` (a complex field's ``w:instrText``) are in runs of one container."""
    runs = [holder.getparent() for holder in holders]
    return (all(run is not None and run.tag == w("r") for run in runs)
            and len({run.getparent() for run in runs if run is not None}) == 1)


def code_pieces(holders: Sequence[etree._Element]) -> list[Piece]:
    """Each of ``holders`` (``side_by_side``) as a stretch of its code, with its run."""
    return [(run, text_in(holder)) for holder in holders if (run := holder.getparent()) is not None]


def pieces_in(pieces: Sequence[Piece], start: int, end: int) -> list[Piece]:
    """The stretches of ``pieces`` inside [start, end) of the code they write, each with its run."""
    found, at = [], 0
    for run, text in pieces:
        low, high = max(start, at), min(end, at + len(text))
        if low < high:
            found.append((run, text[low - at:high - at]))
        at += len(text)
    return found


def looks_differ(pieces: Sequence[Piece]) -> bool:
    """Whether the stretches' runs have more than one look (formatting.formatting)."""
    return len({formatting(run, WORD) for run, _ in pieces}) > 1


def replaced(pieces: Sequence[Piece], start: int, end: int, new: Sequence[Piece]) -> list[Piece]:
    """``pieces`` with [start, end) of the code they write replaced by ``new``."""
    total = sum(len(text) for _, text in pieces)
    return [*pieces_in(pieces, 0, start), *new, *pieces_in(pieces, end, total)]


class LookedEntry:
    """One entry text of a code whose runs have several looks, as a paragraph of runs of those looks
    (``levels``: each level's stretches, its words as the entry means them), a tab, which ends a
    sentence, before each level but the first."""

    def __init__(self, levels: Sequence[Sequence[Piece]]) -> None:
        paragraph = etree.Element(w("p"), nsmap={"w": W})
        for index, level in enumerate(levels):
            if index:
                etree.SubElement(etree.SubElement(paragraph, w("r")), w("tab"))
            for run, text in level:
                paragraph.append(run_of(run, w("t"), text))
        self.job = ParagraphJob(paragraph, WORD)

    @property
    def flat(self) -> FlatText:
        return self.job.flat

    def translated(self, content: Sequence[str | Nested]) -> None:
        """The paragraph written again with its translated ``content``, its runs carried by alignment."""
        self.job.finish([content])

    def pieces(self, written: Callable[[str], str]) -> list[Piece]:
        """The entry's stretches as the paragraph now holds them: each run's words as the code writes
        them (``written``: escaped), in that run's look, a colon where a level begins."""
        new: list[Piece] = []
        for run in self.job.paragraph.iter(w("r")):
            for child in run:
                if child.tag == w("t"):
                    new.append((run, written(child.text or "")))
                elif child.tag == w("tab"):
                    new.append((run, ":"))
        return new


def run_like(model: etree._Element) -> etree._Element:
    """A new empty run with ``model``'s look (its properties copied)."""
    run = etree.Element(w("r"), nsmap={"w": W})
    properties = model.find(w("rPr"))
    if properties is not None:
        run.append(copy.deepcopy(properties))
    return run


def run_of(model: etree._Element, tag: str, text: str) -> etree._Element:
    """A new run with ``model``'s look holding ``text`` in a ``tag`` element."""
    run = run_like(model)
    holder = etree.SubElement(run, tag)
    holder.text = text
    holder.set(XML_SPACE, "preserve")
    return run


def write_pieces(holders: Sequence[etree._Element], pieces: Sequence[Piece]) -> None:
    """The code's ``holders`` (``side_by_side``) replaced by runs of ``pieces``' looks, one a stretch,
    neighbours of one look joined, where the first holder stood."""
    joined: list[Piece] = []
    for run, text in pieces:
        if joined and formatting(joined[-1][0], WORD) == formatting(run, WORD):
            joined[-1] = (joined[-1][0], joined[-1][1] + text)
        elif text:
            joined.append((run, text))
    runs = [isolated(holder) for holder in holders]
    container = runs[0].getparent() if runs else None
    if container is None:
        return
    at = container.index(runs[0])
    for offset, (run, text) in enumerate(joined):
        container.insert(at + offset, run_of(run, w("instrText"), text))
    for run in runs:
        container.remove(run)


def isolated(holder: etree._Element) -> etree._Element:
    """``holder``'s run, alone in it: the paragraph writer joins a field's characters, and the text
    beside them, into the runs of a code, and what comes before or after ``holder`` there is moved
    into a run of the same look on that side."""
    run = holder.getparent()
    assert run is not None  # side_by_side
    content = [child for child in run if child.tag != w("rPr")]
    where = content.index(holder)
    for side, group in ((run.addprevious, content[:where]), (run.addnext, content[where + 1:])):
        if group:
            twin = run_like(run)
            twin.extend(group)
            side(twin)
    return run
