"""Two links whose words the model wrote as one word: ``at the <a href="/bus">bus</a> <a href="/stop">stop</a>.`` ->
``an der Bushaltestelle.``, ``a <a href="/red">red</a> <a href="/car">car</a>`` -> ``ein Rotwagen``.

One target word can carry one link (a link holds no link: attnmt.documents.links), and the first sibling placed took
it, whichever link's words it translates; the other, cut free of it with nothing left, came back as its English text
after it: ``an der <a href="/bus">Bushaltestelle</a> <a href="/stop">stop</a>``.  So the word goes to the link whose
words it gives the most attention ("Bushaltestelle" gives "stop" 0.33, "bus" 0.24: the compound's head), and the other
goes over the function word right before it, else right after it, the article or preposition of its phrase (``an <a
href="/bus">der</a> <a href="/stop">Bushaltestelle</a>``): its href stays on the page, over German, where a reader
sees the two links side by side as the source showed them.  Only links side by side in the source: a link whose
words the model dropped, far from the word their attention went to (``on a <a>beach</a> building a sand
<a>castle</a>`` -> ``am Strand``), has no word of its own to share, and keeps its English text as before.  Not over
a content word beside (the verb before the phrase, ``spielen`` for ``play <a>table</a> <a>tennis</a>`` -> ``spielen
Tennis``, the next phrase's word after it): that would link a word that says something else.  With no free function
word beside (a sibling holds it, the sentence's edge, a parent's, a content word), the word still goes to the link it
translates most, and the other stays in the file around nothing at the word's edge, on the side it stood in the
source (``spielen <a href="/t"></a><a href="/n">Tennis</a>``, ``roten <a href="/r">Rennauto</a><a href="/c"></a>``):
its English text, which attnmt.documents.emptied_marks writes back into the sentence for a link left empty otherwise
(``roten Rennauto car.``), is not, as the model wrote its meaning in the shared word (Placement.merged).  One rule
for every link (links.is_any_link): a page's, a Markdown file's and one typed in a text line, which gave the word to
the first link placed; a link with marks inside too, its marks moved with it (move_inside).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from attnmt.documents.flat import Mark
from attnmt.documents.links import clickable, is_any_link, is_worded_link
from attnmt.documents.span_geometry import trim_punctuation
from attnmt.text.function_words import is_function_word

if TYPE_CHECKING:
    from attnmt.documents.spans import Projector

Span = tuple[int, int]


def share_word(projector: Projector, spans: list[Span], parents: list[int | None],
               wanted: dict[int, Span | None]) -> frozenset[int]:
    """Each worded link left with nothing to click (a point) whose words' translation, ``wanted[j]``, one sibling
    link right beside it in the source holds: the word goes to the one of the two whose words it gives the most
    attention, the other beside it, else around nothing at its edge (module docstring).  ``spans``: every mark's
    placed span on the translation, changed in place.  Returns the links left around nothing so, whose source text
    is not written back."""
    marks, merged = projector.flat.marks, set()
    for j, want in wanted.items():
        if want is None or spans[j][0] != spans[j][1] or not is_worded_link(projector.flat, marks[j]):
            continue
        holders = [k for k in range(len(spans)) if k != j and parents[k] == parents[j] and is_any_link(marks[k])
                   and clickable(projector.target, (max(spans[k][0], want[0]), min(spans[k][1], want[1])))]
        if len(holders) != 1 or not neighbours(projector.flat.text, marks[j], marks[holders[0]]):
            continue
        holder = holders[0]
        word, loser = spans[holder], j
        if given(projector, j, word) > given(projector, holder, word):
            loser = holder
        beside = word_beside(projector, spans, parents, loser, word)
        if beside is None:  # at the word's edge, before it where the link stood first in the source
            at = word[0] if marks[loser].start < marks[holder if loser == j else j].start else word[1]
            beside = (at, at)
            merged.add(loser)
        spans[j], spans[holder] = (beside, word) if loser == j else (word, beside)
        for link in j, holder:
            move_inside(projector.flat.text, marks, spans, parents, link)
    return frozenset(merged)


def move_inside(text: str, marks: list[Mark], spans: list[Span], parents: list[int | None], link: int) -> None:
    """Every mark inside mark ``link`` (``marks``' in the source ``text``) moved with it to its span, in place: one that
    wrapped all its words in the source (``[**bold link**](u)``) over all of it, any other a point at its start.  A
    link with marks of its own never won the shared word, whose look its marks kept in place."""
    whole = text[marks[link].start:marks[link].end].strip()
    for k in range(len(spans)):
        parent = parents[k]
        while parent is not None and parent != link:
            parent = parents[parent]
        if parent == link:
            wraps = not marks[k].atom and text[marks[k].start:marks[k].end].strip() == whole
            spans[k] = spans[link] if wraps else (spans[link][0], spans[link][0])


def neighbours(text: str, one: Mark, other: Mark) -> bool:
    """Whether nothing but spaces stands between the two marks in the source ``text``: two words the model can write
    as one (a link far from the word its words' attention went to lost its words: links.clicked_words)."""
    first, second = sorted((one, other), key=lambda mark: mark.start)
    return not text[first.end:second.start].strip()


def given(projector: Projector, k: int, span: Span) -> float:
    """The attention the target words starting in ``span`` give mark k's source words."""
    return sum(weight for start, weight in projector.attention(projector.flat.marks[k]) if span[0] <= start < span[1])


def word_beside(projector: Projector, spans: list[Span], parents: list[int | None], loser: int,
                word: Span) -> Span | None:
    """The function word right beside ``word`` (the shared one), before it first (an article, a preposition of its
    phrase, not the verb before it nor the next phrase's word after it), that no sibling of ``loser`` holds or stands
    inside, in its parent's span; None where there is none."""
    target, (low, high) = projector.target, word
    i = bisect_right(projector.target_starts, low) - 1
    if i < 0:
        return None
    words = projector.target_words[i]
    before = [found for found in words if found[1] <= low and not target[found[1]:low].strip()][-1:]
    after = [found for found in words if found[0] >= high and not target[high:found[0]].strip()][:1]
    marked = projector.flat.text[projector.flat.marks[loser].start:projector.flat.marks[loser].end].strip()
    free = [trim_punctuation(marked, target, *found) for found in before + after
            if is_free(spans, parents, loser, found)]
    return next((found for found in free if clickable(target, found) and is_function_word(target[slice(*found)])),
                None)


def is_free(spans: list[Span], parents: list[int | None], loser: int, word: Span) -> bool:
    """Whether no sibling of mark ``loser`` holds part of ``word`` or stands as a point inside it, and its parent's
    span holds it."""
    parent = parents[loser]
    if parent is not None and not (spans[parent][0] <= word[0] and word[1] <= spans[parent][1]):
        return False
    # a point strictly inside it meets the same test as a span over part of it
    return not any(k != loser and parents[k] == parent and spans[k][0] < word[1] and word[0] < spans[k][1]
                   for k in range(len(spans)))
