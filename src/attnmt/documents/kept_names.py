"""A page's inline element kept from translation (``translate="no"``, class ``notranslate``) that shows a name of one
word, a brand's or a product's (``Sign in to <span translate="no">GitHub</span> today.``): taken out as an atom, the
model read "Sign in to today."; it is read with its sentence as the name it shows, and written back as the page wrote
it, as an abbreviation is (attnmt.documents.abbreviations): over its copy (the ``GitHub`` of ``GitHub-Konto`` too),
else at a point.  One that shows other text stays an atom: a command (``ls -la``), words in lower case, elements
inside it, and a name of several words (``Acme Cloud``), which a model writes otherwise (``Acme-Cloud``, the words in
another order) more often than as written, and the element kept came back beside what it wrote."""

from __future__ import annotations

from lxml import etree


def shows_a_name(node: etree._Element, shown: str) -> bool:
    """Whether ``node``, which shows ``shown``, is a name of one word alone: no element inside it, and a word
    of letters starting with a capital, or with a capital or a digit after its start (``iPhone``, ``Web3``;
    not ``1,000``, which a model may write ``1.000``)."""
    words = shown.split()
    return not len(node) and len(words) == 1 and any(map(str.isalpha, words[0])) and (words[0][:1].isupper() or any(
        character.isupper() or character.isdigit() for character in words[0]))
