"""The spacing between two translated sentences (attnmt.documents.spans): the source's, as it was,
but for one case.  A script written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) ends a
sentence and begins the next with nothing between them ("我在東京住。他很好！"); a translation into a
script written with spaces needs one there, or its sentences run together ("Dieser Lehrer.Dieser
findet sich.").  So where the source has no gap, its side of the boundary is of such a script, and
the translations on both sides are not, one space stands between them."""

from __future__ import annotations

from attnmt.decoding.word_edges import unspaced
from attnmt.documents.sentences import note_after_stop

# The punctuation that scripts written without spaces use, as (first, last + 1) code points: CJK's
# symbols and punctuation (。、「」), the vertical and compatibility forms (︒, ﹁), the full-width and
# half-width forms (！？．, ｡｢｣) with the half-width katakana.  (Thai, Lao, Khmer and Myanmar keep
# theirs inside their own blocks, which ``unspaced`` covers.)
UNSPACED_PUNCTUATION = ((0x3000, 0x3040), (0xFE10, 0xFE20), (0xFE30, 0xFE50), (0xFF00, 0xFFA0))


def sentence_gap(source: str, end: int, start: int, before: str, after: str) -> str:
    """What stands between the translation ``before`` of the sentence that ends at ``source[end]``
    and the translation ``after`` of the one that starts at ``source[start]``: ``source[end:start]``,
    or one space where that is empty, the source there is written without spaces (``parts_unspaced``)
    and neither translation has its edge there in such a script, nor a space (``spaced_edge``).
    Where the source had markup between the two (``</b>``), the marks placed on the translations go
    to their own sentence's side of the space (attnmt.documents.spans): ``Er lehrt.</b> Er lernt.``.
    A note's number glued to the stop before it (``住。¹他``: attnmt.documents.sentences.note_after_stop)
    stays glued to that stop's translation (``Dieser Lehrer.¹ Dieser ...``), in any script: a space there
    cut it off the sentence it belongs to."""
    gap = source[end:start]
    if gap or note_after_stop(source, start):
        return gap
    if not spaced_edge(before[-1:]) or not spaced_edge(after[:1]) or not parts_unspaced(source, end):
        return gap
    return " "


def parts_unspaced(source: str, at: int) -> bool:
    """Whether sentences meeting at ``source[at]`` are written without spaces: the last letter or digit
    of the one before, or a stop, quote or bracket after it ("好!", "好。」"), or the first character of
    the one after, is of such a script (``written_unspaced``).  Never so in a text of Latin, Greek,
    Cyrillic, ... alone, whose sentences met only where markup parted them (``One.<br>Two.``)."""
    last = at
    while last > 0 and not source[last - 1].isalnum():  # the stops and closing quotes after its last letter
        last -= 1
    return any(written_unspaced(character) for character in source[max(last - 1, 0):at + 1])


def spaced_edge(character: str) -> bool:
    """Whether a translation whose edge is ``character`` (its last or its first) takes a space beside
    it: a character that is neither a space nor written without spaces ("." of "Er lehrt.", not "。")."""
    return bool(character) and not character.isspace() and not written_unspaced(character)


def written_unspaced(character: str) -> bool:
    """Whether ``character`` is a letter of a script written without spaces (attnmt.decoding.word_edges),
    or punctuation of such a script (``UNSPACED_PUNCTUATION``)."""
    point = ord(character)
    return unspaced(character) or any(first <= point < last for first, last in UNSPACED_PUNCTUATION)
