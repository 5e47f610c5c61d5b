"""Which line breaks of a text end their sentence: a line that goes on in lower case was wrapped by hand (a
``<br>`` in a sentence, a spreadsheet cell's Alt+Enter, a poem's line), and is read with the line before it; a line
that starts anew (a capital, a digit, a list's next item, an address's town, a header's unit in brackets) is a
text of its own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

# A letter or digit, as str.isalnum says, character for character: a word character but the underscore.
LETTER_OR_DIGIT = re.compile(r"[^\W_]")
# A line that is words in brackets alone, a header's unit or an aside under it ("Total<br>(in euros)",
# "Price<br>[EUR]"): a line of its own, though its words go on in lower case (ended_lines).
BRACKETED_LINE = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])\s*")


def ended_lines(text: str, line_breaks: Sequence[int]) -> list[int]:
    """Which of ``line_breaks`` (positions in ``text``, ascending) end their sentence: each the text after
    does not go on with a lower-case letter (its first letter or digit: a capital, a digit, a script
    without case), as a new line starts a new text (``Best regards,<br>Anna Smith``, an address, a list's
    ``Dog food<br>Cat toys``), and each of two or more in a row, only spaces between them (an empty line
    between two).  A lower-case letter goes on with the sentence, wrapped by hand or a poem's line (``The
    quick brown fox<br>jumps over the dog.``), as a subtitle cue does (attnmt.documents.subtitles.runs_on),
    but not into a line that is words in brackets alone (BRACKETED_LINE: ``Total<br>(in euros)``, which read as one
    sentence came back "Ein Cun-T-T-T-Fe."; ``(late, as usual) he slept.`` goes on).  Read as a space, a line break
    joined such lines into one sentence, which the model dropped or scrambled."""
    in_a_row = {at for pair in pairwise(line_breaks) if not text[slice(*pair)].strip() for at in pair}
    lines = pairwise([*line_breaks, len(text)])  # each line's span, read only where its first letter is lower case
    return [at for (at, end), first in zip(lines, first_letters_after(text, line_breaks), strict=True)
            if at in in_a_row or not first.islower() or BRACKETED_LINE.fullmatch(text, at, end)]


def first_letters_after(text: str, positions: Sequence[int]) -> list[str]:
    """The first letter or digit of ``text`` at or after each of ``positions`` (ascending), "" where none
    is.  Found from the last position back, each looking only as far as the next and else taking its
    letter: the text is read once.  Read from each position to the end (a copy of the rest for each, and
    all of it where no letter follows: ``-<br/>`` thousands of times), a block of n lines took n times
    its text."""
    firsts, first, limit = [], "", len(text)
    for at in reversed(positions):
        found = LETTER_OR_DIGIT.search(text, at, limit)
        first, limit = (found.group() if found else first), at
        firsts.append(first)
    return firsts[::-1]
