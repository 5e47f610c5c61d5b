"""Where an HTML fragment's text ends inside something that runs on, lxml's wrapper end is read as
part of it: lxml parses a fragment as ``<html><body>...</body></html>``, and the text's last comment,
raw text or tag takes those closing tags in.  attnmt.documents.pages parses such a text again with
what ``fragment_end`` says to put after it in place of the wrapper's end."""

from __future__ import annotations

import re

from lxml import etree

# The end of the <html><body>...</body></html> that lxml wraps a fragment in; its closing tags show
# the elements the text left open (a repair warned of), but a text that ends inside a comment or an
# element of raw text (<script>, <textarea>, <plaintext>) reads them as its own: "<!-- x" came back
# "<!-- x</body></html>-->".  One that ends inside a bogus comment ("<?php", "<![CDATA[", "<!", "</")
# kept "</body" in it, up to the ">" that ended the comment: "<?x" came back "<!--?x</body-->".
WRAPPER_ENDS = ("</body></html>", "</body")
# An end tag the text ends inside ("</a", "</a "): the tree keeps no end tag, so it is read in the text.
UNFINISHED_END_TAG = re.compile(r"</[a-z][^>]*\Z", re.IGNORECASE)


def fragment_end(text: str, last: etree._Element) -> str | None:
    """What to end a fragment's ``text`` with, in place of the wrapper's end, where its ``last`` node
    (in document order) took that end in; None where it took none.  Nothing after a comment or raw text,
    which then runs to the end of the text, as in a browser ("<!-- x" is ``<!-- x-->``).  ">" after a
    tag the text left unfinished, whose name or attributes took the wrapper in ("<b" was read as an
    element <b<>, "<a " as <a> with the attributes "<" and "body", "<img alt=a" with the alt text
    "a</body"), so the tag is kept as the text had it, closed (a browser's parser drops such a tag,
    and lxml's drops one whose attribute value's quote is still open: ``<b class="x``).  So is an end
    tag (``</a``), whose name took the wrapper's "<" in: libxml2 warned of an end tag "a<" nobody wrote."""
    if (last.text or "").endswith(WRAPPER_ENDS):
        return ""
    if UNFINISHED_END_TAG.search(text):  # not in a comment or raw text, which took the wrapper in above
        return ">"
    if not isinstance(last.tag, str) or text.endswith(">"):  # a tag the text ends with is finished
        return None
    names, values = [last.tag, *last.keys()], last.values()
    if any(name.endswith("<") for name in names) or any(value.endswith(WRAPPER_ENDS) for value in values):
        return ">"
    return None
