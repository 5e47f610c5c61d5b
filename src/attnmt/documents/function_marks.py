"""Whether the target words aligned to a mark's words are its translation, or only the function words around it
(rule 1 of attnmt.documents.spans): a mark over a noun, a verb or an adjective that ends around an article or a
preposition alone was not written for them.

The model merges or drops marked words: ``in the <i>swimming</i> pool.`` -> ``im Schwimmbecken.``, where no target word
attends most to "swimming" and the one that gives it the most, 0.05, is "im" (0.51 to "in"), so the mark held
``<i>im</i> Schwimmbecken``; ``a <i>caution</i> sign`` -> ``mit <i>einem</i> hölzernen Seil neben einem Schild`` (the
article "einem" looking ahead at the word the model then left out).  Function words are a closed class
(attnmt.text.function_words): one never carries a content word's meaning but where the target language says it so
(``<b>wearing</b> a jersey`` -> ``<b>in</b> einem Trikot``, "in" giving "wearing" 0.66, its most).  So where every
target word aligned to a mark over a content word is a function word, those are kept only that attend most to a
marked word and are no article, nor the translation of a function word beside the mark, their attention a word off
(``cooking <b>burgers</b> on a grill`` -> ``kocht <b>auf</b> einem Grill``, "auf" giving "on" a quarter or more of
what it gives "burgers": ``translating``).  Nor any where two or more of them attend most to a mark over content
words alone: a preposition and its article written for a noun the model then left out (``A man is loading
<b>cotton</b> onto a truck.`` -> ``Ein Mann, der auf einem Lastwagen verkauft.``, "der", "auf" and "einem" giving
"cotton" 0.38, 0.72 and 0.54, their most, "auf" giving "onto" 0.16, under a quarter: the mark held ``<b>auf</b>``),
where a function word that says a verb's meaning is that verb's one word ("in" for ``wearing``).  On the tagged
Multi30k validation lines (benchmarks/experiments/mark_words.py) this moved 17 of 5,720 marks, judged by hand: 4
onto the word the model wrote for them (``<b>swimming</b>`` -> ``Schwimmbecken``, ``lounging`` -> ``liegt``), 10
from a wrong function word (or a stretch) to a wrong content word, 3 worse: "underneath", no English preposition in
attnmt.text.function_words, lost ``unter einem`` for ``Schirm``.  With none left, the mark goes around the content
word that gives its words the most attention (``clicked_word``), the compound that holds them
(``<i>Schwimmbecken</i>``): let go, an element that changes how words look was dropped with its text kept, and a page
lost its tags.  A link keeps words to click so (attnmt.documents.links: ``<a>Schwimmbecken</a>``).

Where the target words hold a content word, the function words after the last of them are left out too: a preposition
or an article stands before its own noun, the next phrase's, and one that gave a marked word its most attention as
the decoder moved on went into the mark (``a <b>rocking</b> chair on the porch`` -> ``einem <b>Felsen auf</b> der
Veranda``, "auf" giving "rocking" 0.31; ``standing <b>alone</b> on`` -> ``steht <b>allein auf einem Gehweg und</b>``).
On the tagged Multi30k lines this changed 95 of 5,720 marks' lines: 87 lost such a tail alone (``<b>Theater</b> im
Freien``, ``<b>draußen</b> auf``, ``<b>blickt</b> in``), 2 went right otherwise, 2 no better, 4 worse, where a sibling
link then took the word left and this one the article before it (``<a>racing</a> <a>catamaran</a>`` -> ``<a>Ein</a>
<a>Rennhund</a>``, was ``<a>Rennhund</a> <a>wird auf</a>``; ``<a>tricks</a>`` -> ``<a>in einem</a>``).
A mark over a function word (``<i>in</i> the box``, ``<b>chair on</b>``) is taken as the alignment says.
"""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.attention_given import given
from attnmt.text.articles import ANY_ARTICLE
from attnmt.text.function_words import PUNCTUATION, is_function_word

Span = tuple[int, int]
SHARE = 0.25  # of what a function word gives the mark's words, given to a function word beside them: that one's
LEFT_OUT = 2  # function words attending most to a marked content word: written for a word the model left out


def translating(weights: Sequence[Sequence[float]], words: Sequence[int], targets: Sequence[int], target: str,
                written: Sequence[Span], source: str, read: Sequence[Span]) -> list[int]:
    """``targets`` (the target words aligned to the source ``words``), without the function words that translate
    none of them where they are all function words and ``words`` hold a content word, and, where ``words`` are
    content words alone, without those after the last content word of ``targets`` (module docstring).
    ``weights``: [target word][source word]; ``written``, ``read``: [start, end) of each target word in ``target``,
    the translation, and of each source word in ``source``."""
    marked = [is_function_word(source[slice(*read[k])]) for k in words]
    if all(marked):
        return list(targets)
    if not all(is_function_word(target[slice(*written[t])]) for t in targets):
        return list(targets) if any(marked) else before_next_phrase(targets, target, written)
    if not any(marked) and sum(attends_most(weights[t]) in words for t in targets) >= LEFT_OUT:
        return []  # a preposition and its article written for a noun the model then left out
    beside = [k for k in (words[0] - 1, words[-1] + 1)
              if 0 <= k < len(read) and is_function_word(source[slice(*read[k])])]
    return [t for t in targets if target[slice(*written[t])].strip(PUNCTUATION).lower() not in ANY_ARTICLE
            and attends_most(weights[t]) in words and not translates_beside(weights[t], words, beside)]


def before_next_phrase(targets: Sequence[int], target: str, written: Sequence[Span]) -> list[int]:
    """``targets`` without the function words after the last content word: a preposition or an article stands
    before its own noun, the next phrase's."""
    last = max(t for t in targets if not is_function_word(target[slice(*written[t])]))
    return [t for t in targets if t <= last]


def translates_beside(row: Sequence[float], words: Sequence[int], beside: Sequence[int]) -> bool:
    """Whether a target word whose attention is ``row`` gives a function word ``beside`` the mark's ``words`` at
    least SHARE of what it gives them: it translates that word, its attention a word off (``loading <b>cotton</b>
    onto a truck`` -> ``die <b>auf</b> einem Lastwagen``, "auf" giving "cotton" 0.71 and "onto" 0.19)."""
    share = given(row, words)
    return any(k < len(row) and row[k] >= SHARE * share for k in beside)


def clicked(weights: Sequence[Sequence[float]], words: Sequence[int], target: str,
            written: Sequence[Span]) -> int | None:
    """The target word that gives the source ``words`` the most attention, a content word where one gives them any
    (None: none gives any): the word a link whose words the model dropped or merged goes around."""
    masses = [given(row, words) for row in weights]
    content = [t for t, mass in enumerate(masses) if mass > 0 and not is_function_word(target[slice(*written[t])])]
    found = content or [t for t, mass in enumerate(masses) if mass > 0]
    return max(found, key=masses.__getitem__, default=None)


def clicked_word(weights: Sequence[Sequence[float]], words: Sequence[int], targets: Sequence[int], target: str,
                 written: Sequence[Span]) -> list[int]:
    """Where ``targets`` (aligned to the source ``words``) were all function words ``translating`` let go, the
    content word that gives ``words`` the most attention (``clicked``): a mark keeps its words, as a link does, over
    the compound that holds them (``in the <i>swimming</i> pool`` -> ``im <i>Schwimmbecken</i>``), not let go and its
    element dropped (a page lost its ``<em>``).  None where ``targets`` were none: the model dropped the words."""
    best = clicked(weights, words, target, written) if targets else None
    return [] if best is None else [best]


def attends_most(row: Sequence[float]) -> int | None:
    """The source word a target word whose attention is ``row`` gives the most (None: it gives none any)."""
    return max(range(len(row)), key=row.__getitem__) if row and max(row) > 0 else None
