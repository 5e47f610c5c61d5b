"""Which line breaks of a text end their sentence: a line that goes on in lower case was wrapped by hand (a
``<br>`` in a sentence, a spreadsheet cell's Alt+Enter, a poem's line), and is read with the line before it; a line
that starts anew (a capital, a digit, a list's next item, an address's town, a header's unit in brackets) is a
text of its own, and so is each line of a list typed an item a line in lower case ("apples" / "bread" / "milk")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice, pairwise

from attnmt.text.function_words import is_function_word

# A letter or digit, as str.isalnum says, character for character: a word character but the underscore.
LETTER_OR_DIGIT = re.compile(r"[^\W_]")
# A line that is words in brackets alone, a header's unit or an aside under it ("Total<br>(in euros)",
# "Price<br>[EUR]"): a line of its own, though its words go on in lower case (ended_lines).
BRACKETED_LINE = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])\s*")
# A list typed an item a line (listed_breaks): LIST_ITEMS lines or more in a row, each ITEM_WORDS words at most and
# none with a mark that a sentence's words have between or after them (a sentence wrapped over lines has some), nor
# starting or ending with a function word (a header wrapped over short lines does: "Number of" / "employees" / "per
# site").
LIST_ITEMS, ITEM_WORDS = 3, 3
SENTENCE_MARK = re.compile(r"[.,;:!?…]")
WORD = re.compile(r"\S+")


def ended_lines(text: str, line_breaks: Sequence[int]) -> list[int]:
    """Which of ``line_breaks`` (positions in ``text``, ascending) end their sentence: each the text after
    does not go on with a lower-case letter (its first letter or digit: a capital, a digit, a script
    without case), as a new line starts a new text (``Best regards,<br>Anna Smith``, an address, a list's
    ``Dog food<br>Cat toys``), and each of two or more in a row, only spaces between them (an empty line
    between two).  A lower-case letter goes on with the sentence, wrapped by hand or a poem's line (``The
    quick brown fox<br>jumps over the dog.``), as a subtitle cue does (attnmt.documents.subtitles.runs_on),
    but not into a line that is words in brackets alone (BRACKETED_LINE: ``Total<br>(in euros)``, which read as one
    sentence came back "Ein Cun-T-T-T-Fe."; ``(late, as usual) he slept.`` goes on).  Read as a space, a line break
    joined such lines into one sentence, which the model dropped or scrambled.  Nor does one go on into an item of a
    list typed a line an item (listed_breaks: ``Groceries<br>apples<br>bread<br>milk``)."""
    in_a_row = {at for pair in pairwise(line_breaks) if not text[slice(*pair)].strip() for at in pair}
    in_a_row |= listed_breaks(text, line_breaks)
    lines = pairwise([*line_breaks, len(text)])  # each line's span, read only where its first letter is lower case
    return [at for (at, end), first in zip(lines, first_letters_after(text, line_breaks), strict=True)
            if at in in_a_row or not first.islower() or BRACKETED_LINE.fullmatch(text, at, end)]


def listed_breaks(text: str, line_breaks: Sequence[int]) -> set[int]:
    """Of ``line_breaks``, each before an item of a list typed an item a line: LIST_ITEMS lines or more in a row that
    are each ITEM_WORDS words at most with no sentence's mark (SENTENCE_MARK), a heading above them one too or not
    (``Groceries`` or ``Shopping list:``); a header wrapped over short lines is none (``Number of`` / ``employees`` /
    ``per site``: is_item).  Read with the line before it, a cell's ``apples`` / ``bread`` / ``milk``
    went to the model as one sentence, "Groceries apples bread milk", whose words the line breaks then parted
    wherever the alignment put them."""
    starts, found = [0, *line_breaks], set[int]()
    items = [is_item(text, start, end) for start, end in zip(starts, [*line_breaks, len(text)], strict=True)]
    first = 0  # the first line of the run of items that ends at each line that is none
    for number, item in enumerate([*items, False]):
        if item:
            continue
        if number - first >= LIST_ITEMS:
            found.update(starts[line] for line in range(max(first, 1), number))  # the first line has no break before
        first = number + 1
    return found


def is_item(text: str, start: int, end: int) -> bool:
    """Whether the line ``text[start:end]`` may be a list's item typed on a line of its own: words, ITEM_WORDS at most,
    no sentence's mark, no function word first or last (``of``, ``per``, ``the``: a phrase that goes on over its line).
    Read in place, as first_letters_after reads: a copy of each line took the text twice."""
    words = [found.group() for found in islice(WORD.finditer(text, start, end), ITEM_WORDS + 1)]
    return (0 < len(words) <= ITEM_WORDS and SENTENCE_MARK.search(text, start, end) is None
            and not is_function_word(words[0]) and not is_function_word(words[-1]))


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
