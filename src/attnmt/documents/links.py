"""Which marks are links a reader follows, and which of those must keep words of the translation to click.

A link is the one mark a reader does something with: left with no words, there is nothing on the page to
click.  So where the alignment puts none of a worded link's words in the translation (the model dropped them,
attnmt.documents.dropped_words), it goes over the target word that gives them the most attention
(clicked_words), where a mark that only changes how words look is let go: ``A man on a beach building a
<a href="#">sand</a> castle.`` -> ``Ein Mann am <a href="#">Strand</a>.``, not its English text pasted after the
sentence, ``Ein Mann am Strand. <a href="#">sand</a>`` (in Markdown glued to it: ``Strand.[sand](#)``).  A link
over a number (``[1]``) has no words: it reads the same in either language, and one left empty gets it back
(attnmt.documents.emptied_marks).

A link's word can be held already by an earlier sibling: the model wrote one word for both (``<b>parking</b>
<a>lot.</a>`` -> ``<b>Parkplatz</b>``), or the sibling got the word the link's words' attention went to (``<i>beach</i>
building a sand <a>castle.</a>`` -> ``am <i>Strand</i>.``).  Cut free of it, the link kept the stop alone
(``<b>Parkplatz</b><a>.</a>``) or came back as its English text.  So a worded link with no letter or digit left goes
around the siblings that hold the words it wanted (around_held_words): ``<a><b>Parkplatz</b></a>``, the word bold
and clickable, and around a sibling that reaches beyond those words whole (``<b>a parking</b> <a>lot</a>`` ->
``<a><b>einem Parkplatz</b></a>``, where the link came back as its English text, ``lot``); not around another link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.function_marks import clicked
from attnmt.documents.span_geometry import trim_punctuation
from attnmt.documents.wordml import w
from attnmt.text.letters import has_words

if TYPE_CHECKING:
    from attnmt.documents.spans import Projector


def is_link(mark: Mark) -> bool:
    """Whether ``mark``'s element is a link a reader follows: Word's ``w:hyperlink`` or ``HYPERLINK``
    field (a simple one, or the stand-in of a complex one: attnmt.documents.fields), a slide's run
    whose properties make it a link (DrawingML's ``a:hlinkClick``: its dialect's ``links``), an
    ``a`` with an ``href`` (HTML's, XHTML's, OpenDocument's ``text:a`` with its ``xlink:href``), or an HTML
    ``label`` read with its sentence (html_layout.in_a_sentence), which a reader clicks to check its field:
    left with no words, ``I agree to the <label for="t">terms</label> of use.`` showed nothing to click."""
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
    return (local_name(node.tag) == "a" and any(local_name(key) == "href" for key in node.attrib)) or node.tag in (
        "label", "{http://www.w3.org/1999/xhtml}label")  # HTML's, XHTML's: not DocBook's, a section's number


def is_worded_link(flat: FlatText, mark: Mark) -> bool:
    """Whether ``mark`` is a link (is_any_link) over words (not digits and symbols alone): one that keeps target words
    to click where the model dropped its own (module docstring)."""
    return has_words(flat.text[mark.start:mark.end]) and is_any_link(mark)


def is_any_link(mark: Mark) -> bool:
    """Whether ``mark`` is a link, an element's (is_link), a Markdown file's (is_markdown_link) or one typed in a text
    line (is_typed_link): one holds no other (``[[Bushaltestelle](/bus)](/stop)`` is no link to either)."""
    return is_link(mark) or is_markdown_link(mark) or is_typed_link(mark)


def is_typed_link(mark: Mark) -> bool:
    """Whether ``mark`` is a Markdown link typed in a text line (``[the docs](https://example.com)``: a Style whose
    closing mark is its ``](target)``, attnmt.documents.text_emphasis.LINK), read by a Markdown file's rules: the
    text line's ``[bus](/bus) [stop](/stop)`` and the file's gave the shared word to different links."""
    from attnmt.documents.terminal_codes import Style  # which imports spans, which imports this module

    return isinstance(mark.node, Style) and mark.node.closing.startswith("](")


def is_markdown_link(mark: Mark) -> bool:
    """Whether ``mark`` is an ``a`` of a Markdown run's fragment, numbered ``data-md`` (attnmt.documents.markdown.
    fragment): a link, whose destination the Markdown keeps, and which gets its source text back where it is left
    empty as a page's does (attnmt.documents.emptied_marks.refill_emptied)."""
    node = mark.node  # an inline HTML anchor, <a name="x">, is no link (markdown_html.anchor)
    return (not mark.atom and isinstance(node, etree._Element) and node.tag == "a" and node.get("data-md") is not None
            and node.get("data-anchor") is None)


def clicked_words(projector: Projector, mark: Mark) -> tuple[int, int] | None:
    """A link over words rule 1 left none of: the target word giving them the most attention, a content word where
    one gives them any (function_marks.clicked), or None."""
    found = [projector.target_words[i][best] for i, words in projector.words(mark)
             if words and (best := clicked(projector.weights[i], words, projector.target,
                                           projector.target_words[i])) is not None]
    text = projector.flat.text[mark.start:mark.end].strip()
    return trim_punctuation(text, projector.target, found[0][0], found[-1][1]) if found else None


def clickable(target: str, span: tuple[int, int]) -> bool:
    """Whether ``span`` of ``target`` holds a letter or a digit to click: not the stop alone that a word's
    translation left free where an earlier mark holds the word (``<b>Strand</b><a href="#">.</a>``)."""
    return any(character.isalnum() for character in target[span[0]:span[1]])


def around_held_words(flat: FlatText, target: str, spans: list[tuple[int, int]], parents: list[int | None],
                      wanted: dict[int, tuple[int, int] | None]) -> None:
    """Each worded link left with nothing to click (a point) whose words' translation, ``wanted[j]``, earlier or later
    siblings hold (``<b>Parkplatz</b>`` for ``<b>parking</b> <a>lot.</a>``) put around them whole, which it now holds
    (``parents``): ``<a><b>Parkplatz</b></a>``, not the link's English text pasted beside them; around a sibling that
    reaches beyond those words too (``<b>a parking</b> <a>lot</a>`` -> ``<a><b>einem Parkplatz</b></a>``): one element
    cannot be cut in two, and a link left in English reads worse than one over a word more (a sibling holding only
    their stop, no letter or digit of them, is not taken).  Not where a sibling there is a link itself (a link holds
    none), or stands as a point inside, nor for a link with marks of its own, which were placed in its point;
    ``target``: the translation."""
    for j, want in wanted.items():
        if want is None or spans[j][0] != spans[j][1] or not is_worded_link(flat, flat.marks[j]) or j in parents:
            continue
        siblings = [k for k in range(len(spans)) if k != j and parents[k] == parents[j]]
        held = [k for k in siblings if clickable(target, (max(spans[k][0], want[0]), min(spans[k][1], want[1])))]
        if not held:
            continue
        low, high = min(spans[k][0] for k in held), max(spans[k][1] for k in held)
        touching = [k for k in siblings if k not in held and spans[k][0] < high and low < spans[k][1]]
        if touching or any(is_any_link(flat.marks[k]) for k in held) or not clickable(target, (low, high)):
            continue
        spans[j] = (low, high)
        for k in held:
            parents[k] = j


def local_name(name: str) -> str:
    """An element's or attribute's name without its namespace ("{…xlink}href" -> "href"); an HTML
    name with a prefix (``st1:place``, which lxml's QName refuses) as it is."""
    return name.rpartition("}")[2]
