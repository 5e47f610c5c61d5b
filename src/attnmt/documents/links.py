"""Which marks are links a reader follows, and which of those must keep words of the translation to click.

A link is the one mark a reader does something with: left with no words, there is nothing on the page to
click.  So where the alignment puts none of a worded link's words in the translation (the model dropped them,
attnmt.documents.dropped_words), it goes over the target word that gives them the most attention
(Projector.clicked_words), where a mark that only changes how words look is let go: ``A man on a beach building a
<a href="#">sand</a> castle.`` -> ``Ein Mann am <a href="#">Strand</a>.``, not its English text pasted after the
sentence, ``Ein Mann am Strand. <a href="#">sand</a>`` (in Markdown glued to it: ``Strand.[sand](#)``).  A link
over a number (``[1]``) has no words: it reads the same in either language, and one left empty gets it back
(attnmt.documents.emptied_marks).
"""

from __future__ import annotations

from lxml import etree

from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.wordml import w
from attnmt.text.letters import has_words


def is_link(mark: Mark) -> bool:
    """Whether ``mark``'s element is a link a reader follows: Word's ``w:hyperlink`` or ``HYPERLINK``
    field (a simple one, or the stand-in of a complex one: attnmt.documents.fields), a slide's run
    whose properties make it a link (DrawingML's ``a:hlinkClick``: its dialect's ``links``), or an
    ``a`` with an ``href`` (HTML's, XHTML's, OpenDocument's ``text:a`` with its ``xlink:href``)."""
    node = mark.node  # a subtitle's cue tag (attnmt.documents.cue_text) is no element: never a link
    if mark.atom or not isinstance(node, etree._Element) or not isinstance(node.tag, str):
        return False
    # Word's and DrawingML's readers, loaded for an element only: a line of plain text starts without them (issue 44)
    from attnmt.documents.fields import field_code_kind
    from attnmt.documents.formatting import is_link as links_in_properties
    from attnmt.documents.ooxml_dialects import DRAWING

    if node.tag == w("fldSimple"):
        return field_code_kind(node.get(w("instr"), "")) == "HYPERLINK"
    if node.tag == w("hyperlink"):
        return True
    if node.tag == DRAWING.run:
        return links_in_properties(node, DRAWING)
    return local_name(node.tag) == "a" and any(local_name(key) == "href" for key in node.attrib)


def is_worded_link(flat: FlatText, mark: Mark) -> bool:
    """Whether ``mark`` is a link (is_link, or a Markdown one: is_markdown_link) over words (not digits and symbols
    alone): one that keeps target words to click where the model dropped its own (module docstring)."""
    return has_words(flat.text[mark.start:mark.end]) and (is_link(mark) or is_markdown_link(mark))


def is_markdown_link(mark: Mark) -> bool:
    """Whether ``mark`` is an ``a`` of a Markdown run's fragment, numbered ``data-md`` (attnmt.documents.markdown.
    fragment): a link, whose destination the Markdown keeps, and which gets its source text back where it is left
    empty all the same (attnmt.documents.markdown_text.written, not refill_emptied: it keeps the lines' prefixes)."""
    node = mark.node
    return not mark.atom and isinstance(node, etree._Element) and node.tag == "a" and node.get("data-md") is not None


def clickable(target: str, span: tuple[int, int]) -> bool:
    """Whether ``span`` of ``target`` holds a letter or a digit to click: not the stop alone that a word's
    translation left free where an earlier mark holds the word (``<b>Strand</b><a href="#">.</a>``)."""
    return any(character.isalnum() for character in target[span[0]:span[1]])


def local_name(name: str) -> str:
    """An element's or attribute's name without its namespace ("{…xlink}href" -> "href"); an HTML
    name with a prefix (``st1:place``, which lxml's QName refuses) as it is."""
    return name.rpartition("}")[2]
