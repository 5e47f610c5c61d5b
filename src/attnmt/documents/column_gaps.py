"""Columns a plain text line lines up, as a table drawn in spaces does ("Name        Animal     Place"), or parts
with bars, as a table drawn with pipes does ("| Bread | 2.50 |", "│ Anna │ Berlin │", "Home | About | Contact"):
a run of three or more spaces between words, and each bar of a row, ends a sentence, as a tab does, and stays
where it was (attnmt.documents.pipeline.flat_line). Read as one sentence, a row came back as one made up of its
cells' words ("Wähner hält ein To"; "| Bread | 2.50 |" as "| | Zwei Gitarristen |"), its columns and numbers lost.
Two spaces are left inside a sentence: a typist's two after a full stop are no column; so is a lone bar ("cats |
dogs"), which a row of one cell has no need of, and so are the bars of a sentence that goes on past each of them
(``goes_on_past``: "Use | to pipe: ls | grep txt", "Run cat a.txt | sort | uniq -c to count."), written in prose or
in a command: split at its bars, the demo model wrote "Use | to pipe: ls | grep txt" as "Eine Trin, | die eine |
T-Pa-T-T-T-T-T"."""

from __future__ import annotations

import re

from attnmt.documents.flat import FlatText

COLUMN_GAP = re.compile(r"(?<=\S) {3,}(?=\S)")
BAR = re.compile(r"[|\u2502\u2503\u2551]")  # a pipe, and the box-drawing bars a terminal's table is drawn with
# A table's row drawn with bars: one at its start and one at its end (Markdown's, a terminal's), or two bars or
# more with spaces around each between its cells (GitHub's row without its outer bars, a site's menu).
OUTER_BARS = re.compile(rf"\s*{BAR.pattern}.*{BAR.pattern}\s*\Z")
BARRED_ROW = re.compile(rf"{OUTER_BARS.pattern}|(?:.*\S\s+{BAR.pattern}\s+\S){{2}}.*\Z")
# A bar between words and what follows it (group "after"): a letter in lower case where prose and a command go on
# past a bar ("Use | to", "a.txt | sort"), where a menu's or a table's next cell does not ("Home | About", "Bread |
# 2.50").
GOES_ON = re.compile(rf"\S\s+{BAR.pattern}\s+(?P<after>\S)")


def with_column_gaps(flat: FlatText) -> FlatText:
    """``flat``, a text line, in place, with a break (a sentence's end) where each run of ``COLUMN_GAP`` starts,
    and before and after each bar of a row drawn with them (``BARRED_ROW``): a bar is read by no sentence."""
    gaps = {found.start() for found in COLUMN_GAP.finditer(flat.text)}
    if BARRED_ROW.match(flat.text) and not goes_on_past(flat.text):
        gaps |= {k for found in BAR.finditer(flat.text) for k in found.span()}
    if gaps:
        flat.breaks[:] = sorted(set(flat.breaks) | gaps)
    return flat


def goes_on_past(text: str) -> bool:
    """Whether the sentence ``text`` goes on past each of its bars (``GOES_ON``: a letter in lower case after each)
    and a cell of it holds two words or more: it is a sentence that names a bar or a command that pipes, not a row
    of cells between outer bars (``OUTER_BARS``) nor a menu of single words ("home | about | contact", "yes | no |
    maybe")."""
    if OUTER_BARS.match(text):
        return False
    inside = [found for found in GOES_ON.finditer(text) if found["after"].islower()]
    return len(inside) == len(BAR.findall(text)) and any(len(cell.split()) > 1 for cell in BAR.split(text))
