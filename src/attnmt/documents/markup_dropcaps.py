"""A page's drop caps, read with the words they begin (HTML's counterpart of attnmt.documents.dropcaps).

A chapter's first paragraph often begins with a drop cap: its first letter in an element of its
own that a style sets large (``<p><span class="dropcap">T</span>he children ...``), or a picture
of that letter (``<img class="dropcap" src="t.png" alt="T"/>he children ...``).  Read as any tag
inside a word, the element covered the whole of that word's translation (rule 1 of
attnmt.documents.spans: ``<span class="dropcap">Die</span> Kinder``); a picture, kept whole, left
its word without its letter (the model read "he children") and its alt "T" was translated as a
sentence of its own.  So, as a Word drop cap is, its letters are read with their word ("The
children ..."), and the element gets as many of the translation's first letters as it held
(span_geometry.initial_span): ``<span class="dropcap">D</span>ie Kinder ...``.  A picture's letters
are its alt, and it gets the translation's in its alt (``<img class="dropcap" alt="D"/>ie Kinder``),
which a screen reader reads with the rest; the picture itself still draws the source's letter, and
a translated book needs one of the new letter.

A drop cap is an inline element at the very start of its block, no text before it, that shows one
or two letters (a picture: in its alt), punctuation aside (``“T``) but no digit, and either its
class says it is one (DROP_CAP_CLASSES, as Calibre, Sigil and InDesign write it: ``dropcap``,
``drop-cap``, ``initial``, ``first-letter``) or its letters are glued to the word after it
(``<big>T</big>he``, ``<b>O</b>nce``).  One kept whole for another reason (``translate="no"``, a
passage in another language) is kept so.
"""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import Vocabulary
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.shown import shown_text

# What a class names a drop cap by, its "-" and "_" taken out and lower-cased ("drop-cap", "DropCap",
# "first_letter", "calibre-initial").
DROP_CAP_CLASSES = ("dropcap", "initial", "firstletter")
MOST_LETTERS = 2  # a drop cap holds one letter, or two (a digraph, "IJ", or "Th" set large)


def is_drop_cap(node: etree._Element, vocabulary: Vocabulary) -> bool:
    """Whether ``node``, an inline element at the very start of its block (the caller knows: no
    text before it), is a drop cap (the module docstring)."""
    if vocabulary.xml or is_comment(node):
        return False
    picture = local_name(node) == "img"
    if not picture and vocabulary.is_atom(node):
        return False
    letters = (node.get("alt", "") if picture else shown_text(node)).strip()
    if not 0 < sum(map(str.isalpha, letters)) <= MOST_LETTERS or any(
            character.isdigit() or character.isspace() for character in letters):
        return False
    classes = [name.replace("-", "").replace("_", "") for name in node.get("class", "").lower().split()]
    following = (node.tail or shown_text(node.getnext()))[:1]
    return any(word in name for name in classes for word in DROP_CAP_CLASSES) or following.isalpha()
