"""A key combination typed as keys side by side, each its own ``<kbd>`` (``<kbd>Ctrl</kbd>+<kbd>C</kbd>``,
``<kbd>Ctrl</kbd> + <kbd>Shift</kbd> + <kbd>T</kbd>``, ``<kbd>Alt</kbd>-<kbd>F4</kbd>``):
read with its sentence as one unit (``Ctrl+C``), and written back whole, every key's element and what joins them as
they came, over its copy in the translation, else at a point, as a kept name is (attnmt.documents.kept_names).  Taken
out as atoms, the model read ``Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.`` as "Press to copy."; read key by key, it
placed the keys apart and in another order, and the "+" was lost.

    combinations(children, texts) -> where each combination among an element's children starts and ends
    add_combination(builder, keys)  -> its keys read as one element kept whole (Mark.kept_whole)
    is_combination(node)            -> whether a mark's element stands for one, written back as its keys
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence

from lxml import etree

from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import FlatBuilder
from attnmt.documents.kept_names import add_as_written, is_inline_code, touches
from attnmt.documents.pages import local_name

# What joins two keys of a combination: a "+" or a "-", spaces around it or not, or spaces alone.  Not a comma, a
# slash or a word ("<kbd>A</kbd>, <kbd>B</kbd> or <kbd>C</kbd>" names keys one after another).
KEY_JOIN = re.compile(r"\s*[+-]\s*|\s+")
# The stand-in element a combination's keys are read and written through: it holds copies of them and is never
# written itself (is_combination).
GROUP = "attnmt-key-combination"


def combinations(children: Sequence[etree._Element], texts: Sequence[str]) -> dict[int, int]:
    """The index of the first key of each combination among ``children`` -> that of its last: two keys or more side
    by side (is_key), joined by KEY_JOIN alone, parted from the words and elements around them (kept_names.touches;
    ``texts[k]``, the text before ``children[k]``, ``texts[-1]`` after the last), and not all that ``children`` and
    ``texts`` show."""
    found: dict[int, int] = {}
    k = 0
    while k < len(children):
        last = k
        while (last + 1 < len(children) and is_key(children[last]) and is_key(children[last + 1])
               and KEY_JOIN.fullmatch(texts[last + 1])):
            last += 1
        before, after = texts[k], texts[last + 1]
        alone = k == 0 and last == len(children) - 1 and not before.strip() and not after.strip()
        beside = (children[k - 1] if k else None, children[last + 1] if last + 1 < len(children) else None)
        if last > k and not alone and not touches(before[-1:], beside[0]) and not touches(after[:1], beside[1]):
            found[k] = last
        k = last + 1
    return found


def read_combinations(children: Sequence[etree._Element], texts: Sequence[str],
                      vocabulary: Vocabulary) -> tuple[dict[int, int], set[int]]:
    """The combinations among ``children`` (combinations) where ``vocabulary`` reads them (an HTML page's, not XML's
    nor Markdown's code stand-ins: Vocabulary.combinations), and the index of each key after a combination's first."""
    found = combinations(children, texts) if vocabulary.combinations and not vocabulary.xml else {}
    return found, {k for first, last in found.items() for k in range(first + 1, last + 1)}


def is_key(node: etree._Element) -> bool:
    """Whether ``node`` is one key: a ``<kbd>`` that shows one word, no element inside it.  Not other inline code side
    by side: ``<code>make</code> <code>test</code>`` names two commands, not keys pressed together."""
    return is_inline_code(node) and local_name(node) == "kbd" and not len(node) and len((node.text or "").split()) == 1


def add_combination(builder: FlatBuilder, keys: Sequence[etree._Element]) -> None:
    """``keys``, the keys of a combination and what joins them, read by the model as the combination they show
    (``Ctrl+C``) in one mark kept whole, over a GROUP of their copies."""
    group = etree.Element(GROUP)
    group.extend(copy.deepcopy(key) for key in keys)
    group[-1].tail = None
    builder.open(group)
    builder.marks[-1].kept_whole = True
    add_as_written(builder, " ".join("".join(group.itertext()).split()))
    builder.close()


def is_combination(node: object) -> bool:
    return isinstance(node, etree._Element) and node.tag == GROUP
