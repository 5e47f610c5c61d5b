"""Outlook's conditional comments in an HTML e-mail, read as the range they are.

Outlook for Windows renders mail with Word, which reads ``<!--[if mso]>`` ... ``<![endif]-->`` as a
condition; every other client reads a comment.  Two forms:

- downlevel-hidden, ``<!--[if mso]><table><tr><td><![endif]-->``: one comment, its HTML shown by
  Outlook alone (a "ghost table", a VML button); to every other reader, and so to attnmt, it is a
  comment, kept whole as written and not translated (docs/documents.md says so);
- downlevel-revealed, ``<!--[if !mso]><!-->`` before and ``<!--<![endif]-->`` after HTML that every
  other client shows (the link beside Outlook's VML button): two comments, each complete, the HTML
  between them ordinary HTML, translated as any is.

The second form's two comments are a range's start and end (conditional_edge): where they stand in
one sentence (``A red car <!--[if !mso]><!-->and a blue dog<!--<![endif]--> run.``), the alignment
placed each on its own and could write the end before the start, after which Outlook hid the rest
of the mail (a condition no ``<![endif]`` closes); as a range (elements.Vocabulary.range_edge) the
end stays after its start.
"""

from __future__ import annotations

import re

from lxml import etree

# A downlevel-revealed condition's start, as a comment's text: "[if !mso]><!" (written <!--[if !mso]><!-->), or
# with a comment's end of its own after it, "[if !mso]><!-- " (written <!--[if !mso]><!-- -->), or "[if !mso]"
# (Word's own HTML writes <![if !supportLists]>, which an HTML parser reads as a comment).
REVEALED_START = re.compile(r"\s*\[if\s[^\]]*\](?:>\s*<!(?:--\s*)?)?", re.IGNORECASE)
# Its end, as a comment's text: "<![endif]" (written <!--<![endif]-->), or "[endif]" (Word's <![endif]>).
REVEALED_END = re.compile(r"\s*(?:<!)?\[endif\]\s*", re.IGNORECASE)
CONDITION = "conditional comment"  # the ranges' key: Outlook's conditions do not nest


def conditional_edge(node: etree._Element) -> tuple[object, bool] | None:
    """(the range's key, whether it starts it) for a downlevel-revealed conditional comment's start
    (REVEALED_START) or end (REVEALED_END); None for any other node."""
    if not isinstance(node, etree._Comment):
        return None
    text = node.text or ""
    if REVEALED_START.fullmatch(text):
        return CONDITION, True
    return (CONDITION, False) if REVEALED_END.fullmatch(text) else None
