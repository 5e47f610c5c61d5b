"""A link that the translation left empty gets its source text back.

The alignment can put none of a link's words inside it: the model dropped them ("See page <1>
for details." -> "Siehe Seite für Details."), or wrote them where the alignment put them outside
it (``<a href="x">link text</a>`` -> ``Ein Fußgängerüberweg<a href="x"></a>``).  The link was then
written around nothing: an empty ``<a>``, ``<w:hyperlink/>`` or ``<text:a/>`` (a slide's linked
run not written at all), nothing left on the page to click.  A link over words goes over the
target word that gives them the most attention instead (attnmt.documents.links); one still left
with no words (over a number, its word held by an earlier element, no attention to read) holds
its source text again, with the marks inside it as they stood there, at the place the
translation gave it, a space either side where the source had one: a Markdown link's too, and one
left empty here is written around nothing, ``[](/c)`` (attnmt.documents.markdown_text.written).

Not a link over a number (is_number: "[1]", "+1 555 0100") whose number came back elsewhere in
the block's translation (the model wrote it, the alignment put it outside the link): a number
reads the same in either language, so it would then be there twice.  Numbers are compared by their
digits (number_tokens), as the model may write them in the target's way: "1,000" is "1.000", "3.5"
is "3,5", and "1" is not the "1" of "10".  An element over words that only shows how
they look or wraps them for a translator (is_worded_code: HTML's ``<u>``, ``<b>``, ``<span>``, XLIFF's ``<pc>``,
``<g>``, ``<mrk>``) holds its source content again too: the model dropped its words ("is <pc>running</pc> in the
park" -> "im <pc/>Park"), or a sibling took the one word they came back in ("Warning: the <u>water</u>" -> "Am
<strong>Wasser.</strong>"), and left out, the element and its words were lost; refilled, the source's words show a
reviewer what is untranslated.  Not such a mark over a number alone (a bold or italic number), as the model may have
written it in words ("He has <b>2</b> dogs." -> "Er hat zwei Hunde."): refilled, it would be there twice
(attnmt.documents.kept_numbers gives it back where the translation holds it nowhere); in HTML such an element, one
that only changes how its words look, is then left out (attnmt.documents.emptied_looks).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from lxml import etree

from attnmt.documents.copied_results import is_copied_result
from attnmt.documents.flat import FlatText, has_words
from attnmt.documents.links import is_link, is_markdown_link
from attnmt.documents.nesting import nest
from attnmt.documents.span_geometry import Placement
from attnmt.documents.spans import Nested, plain
from attnmt.documents.text_tags import Tag
from attnmt.text.sentence_ends import SENTENCE_ENDS

# XLIFF's namespaces, 1.2's and 2's ("urn:oasis:names:tc:xliff:document:1.2", "...:2.0"): its codes' elements.
XLIFF = "urn:oasis:names:tc:xliff:document:"

# A number as written: digits, and the group or decimal separators between them ("1,000.50",
# "1 000" with a no-break space, "3'500"); a space parts two numbers ("+1 555 0100" is three).
NUMBER = re.compile(r"\d+(?:[.,'\u00a0\u2009\u202f]\d+)*")
PAUSES = (*SENTENCE_ENDS, ",", ";", ":")  # what a sentence's words end with, glued to the last


def is_number(text: str) -> bool:
    """Whether ``text`` is digits and symbols alone ("12", "[1]", "+1 555 0100"): a digit, no letter."""
    return any(map(str.isdigit, text)) and not has_words(text)


def number_tokens(text: str) -> tuple[str, ...]:
    """The numbers in ``text`` by their digits alone, in order: "+1 555 0100" -> ("1", "555", "0100");
    "1,000" and "1.000" -> ("1000",)."""
    return tuple(re.sub(r"\D", "", number) for number in NUMBER.findall(text))


def is_worded_code(flat: FlatText, k: int) -> bool:
    """Whether mark ``k`` of ``flat`` is an element over words that only shows how they look or wraps them for a
    translator: HTML's looks (emptied_looks.is_look: ``<u>``, ``<b>``, ``<span>``) or XLIFF's codes that wrap
    words (xliff_codes.wraps_words: ``<pc>``, ``<g>``, ``<mrk>``).  Not one over a number alone, which
    kept_numbers.keep_lost_numbers gives back unless the translation wrote it, in digits or in words, nor one over a
    part of a word (``XIX<sup>e</sup>``, ``H<sub>2</sub>O``), which goes with its word's translation or is left out
    where that has no such part (ordinal_marks, copied_words): its letters would be glued into another word's.
    Markdown's emphasis (``<em>``, ``<strong>``, ``<s>``, ``<mark>`` numbered ``data-md``) is such an element too:
    left out, its ``*`` or ``_`` pair was lost with it."""
    mark, node = flat.marks[k], flat.marks[k].node
    if mark.atom or not isinstance(node, etree._Element) or not isinstance(node.tag, str) \
            or is_number(flat.text[mark.start:mark.end]) \
            or inside_word(flat.text, mark.start, mark.end):
        return False
    # An element's marks alone come here: a page's or an XLIFF file's, whose readers have loaded these (a text line
    # loads neither, nor attnmt.documents.pages under them: tests/app/test_cli.py)
    from attnmt.documents.emptied_looks import is_look
    from attnmt.documents.xliff_codes import wraps_words
    return is_look(flat, k) or (node.tag.startswith("{" + XLIFF) and wraps_words(node))


def is_text_tag(flat: FlatText, k: int) -> bool:
    """Whether mark ``k`` of ``flat`` is an HTML element in a line of plain text (text_tags.Tag: ``A <b>red</b>
    hat``) refilled as a page's is: a link as ``is_link``, one of looks as ``is_worded_code``, not over a number alone
    nor over a part of a word."""
    mark = flat.marks[k]
    return isinstance(mark.node, Tag) and not mark.atom and (mark.node.is_link or not (
        is_number(flat.text[mark.start:mark.end]) or inside_word(flat.text, mark.start, mark.end)))


def beside_same_look(flat: FlatText, pieces: list[str | Nested], at: int) -> bool:
    """Whether the HTML element of looks ``pieces[at]`` (emptied_looks.is_look) stands beside an element with its
    tag and attributes that shows words, only spaces and punctuation between them: a sibling took the one word its
    words came back in with its own, and shows the look over it (``<b>black</b> and <b>white</b>`` ->
    ``<b>schwarz-weißer</b>``), where its source words again would say it twice
    (``<b>schwarz-weißer</b> <b>white</b>``)."""
    piece = pieces[at]
    mark = piece.mark if isinstance(piece, Nested) else None
    if mark is None or flat.marks[mark].kept_whole:  # an abbreviation is its own word
        return False
    node = flat.marks[mark].node
    if isinstance(node, Tag):  # a text line's (``<b>black</b> and <b>white</b>`` as written): alike as written
        return not node.is_link and stands_beside(pieces, at, lambda other: flat.marks[other.mark].node == node)
    from attnmt.documents.emptied_looks import is_look  # a page's alone (is_worded_code)

    return is_look(flat, mark) and stands_beside(pieces, at,
                                                 lambda other: same_element(flat.marks[other.mark].node, node))


def stands_beside(pieces: list[str | Nested], at: int, alike: Callable[[Nested], bool]) -> bool:
    """Whether an element that shows words and is ``alike`` stands beside ``pieces[at]``, only spaces and punctuation
    between them (beside_same_look)."""
    for step in (-1, 1):
        k = at + step
        while 0 <= k < len(pieces) and isinstance(beside := pieces[k], str) and not has_words(beside):
            k += step
        other = pieces[k] if 0 <= k < len(pieces) else None
        if isinstance(other, Nested) and shows_text(other) and alike(other):
            return True
    return False


def same_element(one: object, other: etree._Element) -> bool:
    """Whether ``one`` is an element with ``other``'s tag and attributes, but for the number of the Markdown each
    stands for (``data-md``: ``**black** and **white**`` are two strong emphases alike)."""
    return isinstance(one, etree._Element) and one.tag == other.tag and own_attributes(one) == own_attributes(other)


def own_attributes(node: etree._Element) -> dict[str, str]:
    return {str(key): str(value) for key, value in node.attrib.items() if key != "data-md"}


def inside_word(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is glued to a letter or a digit at either side: a part of a word."""
    return text[start - 1:start].isalnum() or text[end:end + 1].isalnum()


def holds(translation: tuple[str, ...], number: tuple[str, ...]) -> bool:
    """Whether the numbers ``number`` stand in ``translation``, whole and in a row (number_tokens)."""
    return any(translation[at:at + len(number)] == number for at in range(len(translation) - len(number) + 1))


def refill_emptied(flat: FlatText, translation: str, content: list[str | Nested],
                   merged: frozenset[int] = frozenset()) -> None:
    """Each outermost link (is_link; a Markdown one, is_markdown_link, but over a number, which
    kept_numbers.keep_lost_numbers gives back as it gave it before) of ``content`` (``flat``'s ``translation``, nested:
    nesting.nest) over source text that holds no text, filled with its source content; not a link over a number
    (is_number) that the translation holds elsewhere (number_tokens), nor one of ``merged``, whose words the model
    wrote in the one word a sibling link holds (attnmt.documents.shared_links).  So is an element kept whole
    (Mark.kept_whole: an abbreviation the translation wrote no copy of), which is written as it came
    whatever it holds, for the spaces either side (space_around), and a result an update writes again (a
    cross-reference: copied_results.is_copied_result), which it would write as it came.  In place."""
    texts = {k: flat.text[mark.start:mark.end].strip() for k, mark in enumerate(flat.marks)
             if is_link(mark) or mark.kept_whole or is_copied_result(mark) or is_worded_code(flat, k)
             or is_text_tag(flat, k)
             or (is_markdown_link(mark) and not is_number(flat.text[mark.start:mark.end]))}
    links = {k for k, text in texts.items() if text and k not in merged}
    emptied = list(_emptied(content, links, merged)) if links else []
    if not emptied:  # the usual case: no link left empty, and neither the source nor the numbers are read
        return
    written = number_tokens(translation)
    source = source_pieces(flat)
    for pieces, at, link in reversed(emptied):  # from the last: a space put in beside one moves those after it
        if not (is_number(texts[link.mark]) and holds(written, number_tokens(texts[link.mark]))) \
                and not beside_same_look(flat, pieces, at):
            link.content[:] = source[link.mark].content
            space_around(flat, pieces, at, link.mark)


def _emptied(pieces: list[str | Nested], links: set[int], merged: frozenset[int]
             ) -> Iterator[tuple[list[str | Nested], int, Nested]]:
    """(the pieces that hold it, its place there, itself) of each outermost of ``links`` left with no text, not
    inside one of ``merged``, which stays around nothing with what it holds (shared_links).  Walked with a stack of
    its own, in order: elements of looks nest as deep as MAX_DEPTH, past Python's recursion limit."""
    stack = [(pieces, iter(enumerate(pieces)))]
    while stack:
        holder, walk = stack[-1]
        step = next(walk, None)
        if step is None:
            stack.pop()
            continue
        at, piece = step
        if isinstance(piece, str):
            continue
        if piece.mark in links and not shows_text(piece):
            yield holder, at, piece
        elif piece.mark not in merged:
            stack.append((piece.content, iter(enumerate(piece.content))))


def shows_text(piece: Nested) -> bool:
    """Whether ``piece`` holds text other than whitespace, at any depth (spans.plain, without its recursion)."""
    stack: list[str | Nested] = [piece]
    while stack:
        top = stack.pop()
        if isinstance(top, str):
            if top.strip():
                return True
        else:
            stack.extend(top.content)
    return False


def source_pieces(flat: FlatText) -> dict[int, Nested]:
    """Every mark of ``flat`` as it stands in the source: its text and the marks inside it."""
    found: dict[int, Nested] = {}

    def walk(pieces: list[str | Nested]) -> None:
        for piece in pieces:
            if isinstance(piece, Nested):
                found[piece.mark] = piece
                walk(piece.content)

    spans = [(mark.start, mark.end) for mark in flat.marks]
    walk(nest(flat, Placement(flat.text, spans, [mark.parent for mark in flat.marks])))
    return found


def space_around(flat: FlatText, pieces: list[str | Nested], at: int, k: int) -> None:
    """A space between the refilled mark ``pieces[at]`` (``flat``'s mark ``k``) and what is beside
    it, at each side where the source had whitespace: the translation's one space between the words
    either side stood at one side of the empty mark ("Seite <1>für"), or none was left between it
    and the mark before it (``<abbr>Ein Fußgängerüberweg</abbr><a href="x">``); not before a stop or a comma of the
    translation's that follows it (``hinzu <b>a cup</b>.``, where the source had "a cup of milk.")"""
    mark = flat.marks[k]
    before, after = pieces[at - 1] if at else None, pieces[at + 1] if at + 1 < len(pieces) else None

    def parted(source: str, target: str) -> bool:
        """Whether the source had whitespace there; or, for a mark kept whole, the translation has a letter or digit
        there, another word's: written at a point, it has no copy in the translation to be glued to, whatever the
        source had beside it, a letter of a word (``<abbr>API</abbr>s``: "Quarterback API rennen", not
        "APIrennen") or a hyphen (``<abbr>USB</abbr>-C`` beside the ``HDMI`` the model wrote as ``US``: not
        "USBHDMI"), and so has a cross-reference's result written as it came ("Figure 1" before "der Jungen", where
        the source had ", the boys"); a stop after it stays glued ("API.")."""
        return source.isspace() or ((mark.kept_whole or is_copied_result(mark)) and target.isalnum())

    if after is not None and parted(flat.text[mark.end:][:1], plain([after])[:1]) \
            and plain([after])[:1] not in PAUSES:  # the translation's stop or comma stays glued to it
        if isinstance(after, Nested):
            pieces.insert(at + 1, " ")
        elif not after[:1].isspace():
            pieces[at + 1] = " " + after
    if before is not None and parted(flat.text[:mark.start][-1:], plain([before])[-1:]):
        if isinstance(before, Nested):
            pieces.insert(at, " ")
        elif not before[-1:].isspace():
            pieces[at - 1] = before + " "
