"""An abbreviation's element, HTML's ``<abbr>`` (and the obsolete ``<acronym>``): kept whole, its ``title``, the
spelled-out form a reader sees on hovering, translated as any title is (attnmt.documents.markup).  Given to the model
with its sentence, as the word it shows, so the model reads the sentence whole (taken out as ``<code>`` is, the model
read "The office opens at 9." for ``The <abbr title="World Health Organization">WHO</abbr> office opens at 9.``), and
written back as the page wrote it over its copy in the translation (``WHO``, the ``WHO`` of ``WHO-Büro``, ``MPH`` for
``mph``) or over the short form the model wrote for it in its place (``OMS``: beside it, the page showed the
abbreviation twice), or, where the translation has neither, at a point as an atom is, a space either side where it
had one (attnmt.documents.copied_words.kept_target, emptied_marks): never over the other words the model wrote, where
the demo model put "Kinder" in the ``<abbr>`` of "WHO" and ``use <abbr>HTML</abbr> on`` "ein"; the short form is a
name.
An element an old microformat misused for a date in words (``<abbr class="dtstart" title="2008-01-01">January 1,
2008</abbr>``) holds words spelled out (``spells_out``), and is read with its sentence and translated, as any
inline element is."""

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

