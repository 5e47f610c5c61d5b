"""A page's inline element kept from translation (``translate="no"``, class ``notranslate``) that shows a name of one
word, a brand's or a product's (``Sign in to <span translate="no">GitHub</span> today.``): taken out as an atom, the
model read "Sign in to today."; it is read with its sentence as the name it shows, and written back as the page wrote
it, as an abbreviation is (attnmt.documents.abbreviations): over its copy (the ``GitHub`` of ``GitHub-Konto`` too),
else at a point.  So is a name of several words (``We met <span translate="no">Acme Widget Corp</span> at the
fair.``: taken out, the model read "We met at the fair." and the name went at a point, beside the wrong word where the
translation turned the words around); a model may write it otherwise (``Acme-Cloud``, the words in another order), and
then it goes over the words written in its place (copied_words.renamed_name), not beside them.  One that shows other
text stays an atom: a command (``ls -la``), words in lower case, elements inside it.

So is inline code among words (``<kbd>``, ``<code>``, ``<samp>``, ``<var>``) that shows one word of code:
taken out as an atom, the model read ``Set <var>x</var> to the number of dogs.`` as "Set to the number of dogs."
and ``Press <kbd>Enter</kbd> to start.`` as "Press to start.", and wrote a poor sentence around the gap.  Code
stays an atom where it is of several words or lines (a command with its options: the model translated its words,
and the element came back beside what it wrote for them), where it is a URL, a file name or a program's identifier
(PROTECTED: read as words, ``README.md`` sent the demo model off into "HEAAAAAAAA…" and the sentence was lost),
where it is a key of a combination (``<kbd>Ctrl</kbd>+<kbd>C</kbd>``: read, the model placed the keys apart and in
another order, and their "+" was lost; the combination is read whole: attnmt.documents.key_combinations), and where
a word or an element touches it (``Press<kbd>Ctrl</kbd>now``, ``<a>settings</a><code>x()</code>``: read, the three
were one word).

So is a key combination in one element of inline code, its keys in it (``<kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd>``,
HTML's way of writing one): read with its sentence as ``Ctrl+C``, written back whole, each key's element and the "+"
as they came.  What an element kept whole shows is read as written (add_as_written): a kept name's identifier
(``<span translate="no">AZ-2040-X</span>``) and a combination match PROTECTED, and taken out of the text as such,
the model read "Model number ships today." and "Press to copy." (the combination taken out whole)."""

from __future__ import annotations

import re

from lxml import etree

from attnmt.decoding.protected import PROTECTED
from attnmt.documents.copied_words import is_name_word
from attnmt.documents.flat import FlatBuilder

INLINE_CODE = frozenset("code kbd samp var".split())
NO_BREAKS = "\u00a0\u202f\u2009"  # spaces that tie what is either side of them: no-break, narrow, thin
# Spaces or symbols alone between two keys: a combination's "+", " / ", a space; not a comma nor a semicolon, which
# list keys one after another (``<kbd>A</kbd>, <kbd>B</kbd> or <kbd>C</kbd>``: each a word of code read with its list)
JOINING = re.compile(r"[^\w,;]*")
ADDRESS = re.compile(r"[@/\\:]|\.\w")  # what a URL, an e-mail address, a path or a file name holds; a model number not
SPACED_PLUS = re.compile(r"\s*\+\s*")  # a "+" and the spaces around it
NOTHING = re.compile(r"(?!)")  # a pattern that matches nowhere: nothing protected


def read_whole(node: etree._Element, shown: str, kept: bool) -> bool:
    """Whether ``node``, which shows ``shown``, is read with its sentence and written back as it came: a name of one
    word that is ``kept`` from translation (shows_a_name), a word of inline code (shows_code_word), or a key
    combination in one element (shows_combination)."""
    return (kept and shows_a_name(node, shown)) or shows_code_word(node, shown) or shows_combination(node)


def add_as_written(builder: FlatBuilder, shown: str) -> None:
    """What an element read whole shows, added for the model to read as written: nothing in it is taken out as
    protected text (``AZ-2040-X``, ``Ctrl+C``), since the element comes back as it came whatever the model wrote.
    A combination's "+" is read between its keys with no space (``Ctrl + Shift + T`` as ``Ctrl+Shift+T``): a "+"
    alone between spaces, the demo model's reading left out ("Ctrl Shift T")."""
    protected, builder.protected = builder.protected, NOTHING
    try:
        builder.add_text(SPACED_PLUS.sub("+", shown))
    finally:
        builder.protected = protected


def shows_a_name(node: etree._Element, shown: str) -> bool:
    """Whether ``node``, which shows ``shown``, is a name alone, of one word or several (``Acme Widget Corp``): no
    element inside it, and each word of letters starting with a capital, or with a capital or a digit after its start
    (copied_words.is_name_word: ``iPhone``, ``Web3``; not ``1,000``, which a model may write ``1.000``), none an
    address nor a file name (ADDRESS: read, ``README.md`` sent the demo model off into "DAAAAAAA…" and the rest of
    the sentence was lost)."""
    words = shown.split()
    return not len(node) and bool(words) and all(
        is_name_word(word) and ADDRESS.search(word) is None for word in words)


def shows_code_word(node: etree._Element, shown: str) -> bool:
    """Whether ``node`` is HTML's inline code (INLINE_CODE) that shows one word of code alone (``x``, ``Enter``,
    ``--force``): no element inside it, no PROTECTED text, no key of a combination (in_combination),
    nothing touching it (stands_apart)."""
    return (is_inline_code(node) and not len(node) and len(shown.split()) == 1 and PROTECTED.search(shown) is None
            and not in_combination(node) and stands_apart(node))


def shows_combination(node: etree._Element) -> bool:
    """Whether ``node`` is inline code that holds a key combination alone: two keys or more, each inline code with
    no element inside it, joined by spaces or symbols alone (JOINING: ``<kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd>``,
    ``<kbd><kbd>Cmd</kbd> <kbd>K</kbd></kbd>``), standing apart from the words beside it (stands_apart)."""
    keys = list(node)
    return (is_inline_code(node) and len(keys) > 1 and not (node.text or "").strip()
            and all(is_inline_code(key) and not len(key) and (key.text or "").strip() for key in keys)
            and all(JOINING.fullmatch(key.tail or "") is not None for key in keys[:-1])
            and not (keys[-1].tail or "").strip() and stands_apart(node))


def is_inline_code(node: etree._Element | None) -> bool:
    return node is not None and isinstance(node.tag, str) and node.tag.rpartition("}")[2].lower() in INLINE_CODE


def in_combination(node: etree._Element) -> bool:
    """Whether spaces or symbols alone join ``node`` to inline code beside it, an element that holds it alone too:
    ``<kbd>Ctrl</kbd>+<kbd>C</kbd>``, ``<code>make</code>&nbsp;<code>test</code>``, ``<b><code>File</code></b>→``."""
    previous = node.getprevious()
    return (holds_code(node.getnext()) and JOINING.fullmatch(node.tail or "") is not None) or (
        holds_code(previous) and JOINING.fullmatch(previous.tail or "") is not None)


def holds_code(node: etree._Element | None) -> bool:
    """Whether ``node`` is inline code, or an element that holds one alone, nothing shown beside it."""
    while node is not None and not is_inline_code(node):
        alone = len(node) == 1 and not (node.text or "").strip() and not (node[0].tail or "").strip()
        node = node[0] if alone and isinstance(node.tag, str) else None
    return node is not None


def stands_apart(node: etree._Element) -> bool:
    """Whether a space or a mark that is no letter nor digit parts ``node`` from the text on each side: no word and
    no element touches it (a block's edge does not), no no-break space ties it to a word
    (``Run&nbsp;<code>make</code>``, kept beside it as an atom's is: atom_no_breaks), and it is not all its parent
    element shows (the ``<a><code>x</code></a>`` of a link to an API's page)."""
    previous, following, parent = node.getprevious(), node.getnext(), node.getparent()
    before = (previous.tail or "") if previous is not None else (parent.text or "") if parent is not None else ""
    after = node.tail or ""
    alone = previous is None and following is None and not before.strip() and not after.strip()
    return not alone and not touches(before[-1:], previous) and not touches(after[:1], following)


def touches(character: str, beside: etree._Element | None) -> bool:
    """Whether what stands on one side of an element ties to it: ``character``, the text's next to it, is a letter,
    a digit or a no-break space (NO_BREAKS), or there is none and an element (``beside``) stands right there."""
    return character.isalnum() or character in tuple(NO_BREAKS) or (not character and beside is not None)
