"""An abbreviation's element, HTML's ``<abbr>`` (and the obsolete ``<acronym>``): kept whole, as an atom,
its ``title``, the spelled-out form a reader sees on hovering, translated as any title is
(attnmt.documents.markup).  Read with its sentence, the short form was a word the demo model translated:
``The <abbr title="World Health Organization">WHO</abbr> says that children should play outside.`` put
"Kinder" in the ``<abbr>``, and ``use <abbr>HTML</abbr> on`` "ein"; the short form is a name, written as the
page writes it.  An element an old microformat misused for a date in words (``<abbr class="dtstart"
title="2008-01-01">January 1, 2008</abbr>``) holds words spelled out (``spells_out``), and is read
with its sentence, as any inline element is."""

from __future__ import annotations

import re
from itertools import groupby

from lxml import etree

from attnmt.documents.pages import local_name

ABBREVIATIONS = frozenset(("abbr", "acronym"))
WORD = re.compile(r"[^\W\d_]+")  # a run of letters
# How many lower-case letters in a row a word spelled out in full has ("October", "rest"), where an abbreviation
# is capitals ("WHO", "HTML5"), a few letters ("km", "Sept", "et al.") or a word cut short by a full stop ("approx.").
SPELLED_OUT = 4


def is_abbreviation(node: etree._Element, shown: str) -> bool:
    """Whether ``node``, which shows ``shown``, is an abbreviation kept whole: an ``<abbr>`` or
    ``<acronym>`` whose text spells no word out (spells_out)."""
    return local_name(node) in ABBREVIATIONS and not spells_out(shown)


def spells_out(text: str) -> bool:
    """Whether ``text`` holds a word spelled out in full, SPELLED_OUT lower-case letters in a row or
    more, not cut short by a full stop: "January 1, 2008", not "WHO", "e.g." or "approx."."""
    return any(text[word.end():word.end() + 1] != "." and any(
        lower and len(list(run)) >= SPELLED_OUT for lower, run in groupby(word.group(), str.islower))
        for word in WORD.finditer(text))
