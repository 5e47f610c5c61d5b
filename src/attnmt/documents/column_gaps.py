"""Columns a plain text line lines up with spaces, as a table drawn in spaces does
("Name        Animal     Place"): a run of three or more spaces between words ends a sentence, as
a tab does, and stays where it was (attnmt.documents.pipeline.flat_line). Read as one sentence, a
row came back as one made up of its cells' words ("Wähner hält ein To"), its columns lost. Two spaces
are left inside a sentence: a typist's two after a full stop are no column."""

from __future__ import annotations

import re

from attnmt.documents.flat import FlatText

COLUMN_GAP = re.compile(r"(?<=\S) {3,}(?=\S)")


def with_column_gaps(flat: FlatText) -> FlatText:
    """``flat``, a text line, in place, with a break (a sentence's end) where each run of ``COLUMN_GAP`` starts."""
    gaps = {found.start() for found in COLUMN_GAP.finditer(flat.text)}
    if gaps:
        flat.breaks[:] = sorted(set(flat.breaks) | gaps)
    return flat
