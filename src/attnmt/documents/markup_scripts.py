"""A formula's or a unit's letters in an element beside its script: LibreOffice writes each run of a page in a span
of its own (``<span class="span1">A man drinks H</span><span class="span2">2</span><span class="span1">O in the
park.</span>``, in an EPUB page and in an ``.odt``), so the letters glued to the script are no text of the block's
own.  They are read as the text beside a ``<sub>`` is (attnmt.documents.script_tokens), each piece kept as an atom,
a copy of its element around those letters alone, beside the script where the translation puts the formula; the
rest of the element is a mark over its words.

Read apart, the script's neighbours were marks over "A man drinks H" and "O in the park.": "H2O" went to the model,
which lost it ("Ein Mann trinkt im Park."), and the script's element came back empty.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from lxml import etree

from attnmt.documents.flat import FlatBuilder
from attnmt.documents.script_tokens import Script, Scripted


def lent_texts(texts: Sequence[str], children: Sequence[etree._Element], scripts: Sequence[Script | None],
               held: Callable[[etree._Element], str]) -> tuple[list[str], dict[int, int]]:
    """``texts`` (the text before each child of a run, and after the last: script_tokens.scripted's) with the text of
    an element of text alone (``held``: its text as read, "" for any other) put in the place of none between it and
    a script, and {that place: the element's number}.  The text of an element between two scripts goes with the
    script after it (``C6`` ``H`` ``12``: "H" is the 12's), as a text between them does."""
    read, lenders = list(texts), {}
    for k, script in enumerate(scripts):
        if script is None:
            continue
        if k and not texts[k] and (before := held(children[k - 1])):
            read[k], lenders[k] = before, k - 1
        after = k + 1
        to_next = after + 1 < len(children) and not texts[after + 1] and scripts[after + 1] is not None
        if after < len(children) and not texts[after] and (text := held(children[after])) and not to_next:
            read[after], lenders[after] = text, after
    return read, lenders


def lent_cuts(kept: dict[int, Scripted], lenders: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Each child whose letters a kept script (``kept``: script_tokens.scripted of lent_texts) took, by its number:
    (how many of its first characters, how many of its last)."""
    cuts: dict[int, tuple[int, int]] = {}
    for place, child in lenders.items():
        head, tail = cuts.get(child, (0, 0))
        if place == child and child - 1 in kept:  # the letters after a script
            head = len(kept[child - 1].after)
        elif place == child + 1 and place in kept:  # the letters before one
            tail = len(kept[place].before)
        if head or tail:
            cuts[child] = (head, tail)
    return cuts


def own_letters(k: int, letters: Scripted, lenders: dict[int, int]) -> Scripted:
    """The ``letters`` of the kept script ``k`` that are text of the run's own, not an element's (lent_texts)."""
    return Scripted("" if lenders.get(k) == k - 1 else letters.before, "" if lenders.get(k + 1) == k + 1 else
                    letters.after)


def add_lender(builder: FlatBuilder, node: etree._Element, text: str, head: int, tail: int) -> None:
    """``node``, an element of ``text`` alone whose first ``head`` and last ``tail`` characters are a formula's
    letters: each piece of those an atom, a copy of ``node`` around them, and the rest a mark over its words."""
    if head:
        builder.add_atom(node=holding(node, text[:head]))
    if middle := text[head:len(text) - tail]:
        builder.open(node, keeps_edge_spaces=True)
        builder.add_text(middle)
        builder.close()
    if tail:
        builder.add_atom(node=holding(node, text[len(text) - tail:]))


def holding(node: etree._Element, text: str) -> etree._Element:
    """A copy of ``node`` (an element of text alone) around ``text``, with no tail."""
    new = copy.copy(node)
    new.text, new.tail = text, None
    return new
