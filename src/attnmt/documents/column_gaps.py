"""Columns a plain text line lines up, as a table drawn in spaces does ("Name        Animal     Place"), or parts
with bars, as a table drawn with pipes does ("| Bread | 2.50 |", "│ Anna │ Berlin │", "Home | About | Contact"):
a run of three or more spaces between words, and each bar of a row, ends a sentence, as a tab does, and stays
where it was (attnmt.documents.pipeline.flat_line). Read as one sentence, a row came back as one made up of its
cells' words ("Wähner hält ein To"; "| Bread | 2.50 |" as "| | Zwei Gitarristen |"), its columns and numbers lost.
Two spaces are left inside a sentence: a typist's two after a full stop are no column; so is a lone bar ("cats |
dogs"), which a row of one cell has no need of."""

from __future__ import annotations

import re

from attnmt.documents.flat import FlatText

COLUMN_GAP = re.compile(r"(?<=\S) {3,}(?=\S)")
BAR = re.compile(r"[|\u2502\u2503\u2551]")  # a pipe, and the box-drawing bars a terminal's table is drawn with
# A table's row drawn with bars: one at its start and one at its end (Markdown's, a terminal's), or two bars or
# more with spaces around each between its cells (GitHub's row without its outer bars, a site's menu).
BARRED_ROW = re.compile(rf"\s*{BAR.pattern}.*{BAR.pattern}\s*\Z|(?:.*\S\s+{BAR.pattern}\s+\S){{2}}.*\Z")


def with_column_gaps(flat: FlatText) -> FlatText:
    """``flat``, a text line, in place, with a break (a sentence's end) where each run of ``COLUMN_GAP`` starts,
    and before and after each bar of a row drawn with them (``BARRED_ROW``): a bar is read by no sentence."""
    gaps = {found.start() for found in COLUMN_GAP.finditer(flat.text)}
    if BARRED_ROW.match(flat.text):
        gaps |= {k for found in BAR.finditer(flat.text) for k in found.span()}
    if gaps:
        flat.breaks[:] = sorted(set(flat.breaks) | gaps)
    return flat
