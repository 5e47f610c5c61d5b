"""An ASS karaoke line's syllables, as its translation can keep their timing: word by word.

A karaoke line times each syllable with a code before it (``{\\k20}Ka{\\k30}ra{\\k25}o{\\k10}ke``: 20,
30, 25 and 10 hundredths of a second), which highlights it for that long.  The translation of a word
has no syllables of the source's, so a code inside a word went with the model's word either side of
it: ``{\\k20}Hel{\\k30}lo there`` came back ``{\\k20}HALLO {\\k30}DA``, the word highlighted for a
fifth of a second and the next for the word's rest.  So the codes inside a word (between two of its
characters, nothing but the code between them) are taken into the code it opens with, their
durations summed (``{\\k50}Hello``), before the line is read: its translation is highlighted for the
whole word's time, and the line's total stays.  A code of the karaoke's other kinds (``\\kf`` or
``\\K``, a sweep; ``\\ko``, an outline) takes those after it whatever their kind.  A code in a block
with other overrides (``{\\k20\\1c&H0000FF&}``) is kept where it is.
"""

from __future__ import annotations

import re

CODE = r"\{\\(?:kf|ko|k|K)(\d+)\}"  # a block of one karaoke code (group 1: its duration)
LETTERS = r"[^\s{}\\]"  # a character of a word: not a space, a block's brace or a code's backslash ("\N")
# A word timed in syllables: its first code (group 1: the code's kind, group 2: its duration), then its
# characters with the codes between them (group 3), each code with characters of the word either side.
TIMED_WORD = re.compile(rf"\{{\\(kf|ko|k|K)(\d+)\}}((?:{LETTERS}+{CODE}(?={LETTERS}))+{LETTERS}*)")


def joined_syllables(text: str) -> str:
    """A Dialogue line's Text with each word's syllable codes taken into its first, their durations summed."""

    def joined(word: re.Match[str]) -> str:
        inner = re.findall(CODE, word.group(3))
        total = int(word.group(2)) + sum(int(duration) for duration in inner)
        return f"{{\\{word.group(1)}{total}}}" + re.sub(CODE, "", word.group(3))

    return TIMED_WORD.sub(joined, text)
