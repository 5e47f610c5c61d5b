"""HTML's inline tags in a line of plain text (``A man with a <b>red</b> hat sings.``, as a CMS field, a string
table or a web form's text pasted into a text file holds them): read as the same line of a page is, an element around
its words, its tags written back as they came around the translation of the words they wrapped, and ``<br>`` a break
between words.  Given to the model, the tags were words: the demo model wrote "Ein Mann mit einem farbenfrohen Hut
singt." and lost them, where ``<p>A man with a <b>red</b> hat sings.</p>`` came back "<p>Ein Mann mit einem
<b>roten</b> Hut singt.</p>"; the model now reads "A man with a red hat sings." in both.

A tag is markup only where a page's would be and nothing else reads it: an element of ``TEXT_TAGS`` (a link and
what only changes how words look, html_layout.LOOKS but a short form's ``<abbr>``, which a page keeps whole; a
``<sub>`` or ``<sup>`` of a formula, a unit or a note's number kept whole with its words as a page keeps it:
attnmt.documents.text_scripts), its attributes well
formed, a start tag closed by its end tag later in the line (``<b>…</b>``), or ``<br>``.  Anything else stays text, as
written: a comparison (``a < b and c > d``), ``<3``, a program's ``List<String>``, a start tag never closed (``<b>``
alone, a README's ``<p align="center">``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

from attnmt.documents import character_references
from attnmt.documents.flat import FlatBuilder
from attnmt.documents.terminal_codes import Style
from attnmt.documents.text_emphasis import add_emphasized
from attnmt.documents.text_scripts import kept_scripts

TEXT_TAGS = frozenset("a b bdi bdo big blink cite del dfn em font i ins mark nobr q s small span strike strong sub "
                      "sup tt u".split())
BREAKS = frozenset(("br", "wbr"))
_ATTRIBUTE = r"""\s+[A-Za-z_:][-\w:.]*(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'=<>`]+))?"""
TAG = re.compile(rf"<(?P<end>/)?(?P<name>[A-Za-z][A-Za-z0-9]*)(?P<attributes>(?:{_ATTRIBUTE})*)\s*(?P<void>/)?>")


@dataclass
class Tag(Style):
    """An HTML element in a text line: its start tag and its end tag as written, around the translation of its words;
    one the translation left holding nothing gets its source words back, as a page's does
    (attnmt.documents.emptied_marks.is_text_tag), or, over a number alone, is left out, but for a link's
    (terminal_codes.shows_alone)."""

    @property
    def is_link(self) -> bool:
        return self.closing.lower() == "</a>"


def holds_markup(line: str) -> bool:
    """Whether a text line holds an element of ``TEXT_TAGS`` with its start and end tags, or a ``<br>``: HTML's text,
    whose character references (``&amp;``) are read as a page's are (``add_tagged``, ``written_references``)."""
    tags = list(TAG.finditer(line))
    return bool(paired(tags)) or any(is_break(tag) for tag in tags)


def written_references(line: str, protected: re.Pattern[str]) -> dict[int, str]:
    """Each character a text line that ``holds_markup`` wrote as a reference (``&amp;``, ``&#39;``) outside what
    ``protected`` finds (what passes through as written: ``<b>Tom &amp; Jerry</b> & friends`` keeps its bare "&"),
    mapped to the reference, as ``str.translate`` writes it again in its translation; none in a line of plain text,
    whose ``&amp;`` is text."""
    return character_references.written_references([line], protected) if holds_markup(line) else {}


def add_tagged(builder: FlatBuilder, text: str, add_text: Callable[[FlatBuilder, str], None],
               references: bool = False) -> None:
    """``text``, a piece of a text line, into ``builder``: each element of ``TEXT_TAGS`` whose start and end tags it
    holds opened and closed around its words, each ``<br>`` an atom that parts the words beside it, and Markdown's
    emphasis, links and quotes read around them as around words (text_emphasis.add_emphasized: ``"<i>hello</i>"`` and
    ``<b>"hello"</b>`` are quotes, as a page reads them); the text between them goes in by ``add_text`` (a text line's
    fields), its character references read where ``references`` (a line that ``holds_markup``; not in what
    ``builder`` protects, a URL's ``&amp;``, kept as written).  Each tag stands in the text the emphasis is read from
    as one character of Unicode's private use that ``text`` holds nowhere (``stand_ins``)."""
    pairs = paired(list(TAG.finditer(text)))
    kept = kept_scripts(text, pairs, {tag.start(): tag for tag in TAG.finditer(text)})  # "H<sub>2</sub>O" whole
    pairs = {start: end for start, end in pairs.items() if not any(a <= start < b for a, b in kept)}
    partner = {**{start: end.start() for start, end in pairs.items()},
               **{end.start(): start for start, end in pairs.items()}}
    tags = [tag for tag in TAG.finditer(text) if (tag.start() in partner or is_break(tag))
            and not any(a <= tag.start() < b for a, b in kept)]
    spans = sorted([*((tag.start(), tag.end()) for tag in tags), *kept])
    stand_in = dict(zip((start for start, _ in spans), stand_ins(text, references), strict=False))
    if len(stand_in) < len(spans):  # more tags than private-use characters the line leaves: read as text
        tags, kept, spans, stand_in = [], [], [], {}
    read = partial(character_references.read_references, protected=builder.protected) if references else str
    position, pieces = 0, []
    for start, end in spans:
        pieces += [read(text[position:start]), stand_in[start]]
        position = end
    add_emphasized(builder, "".join([*pieces, read(text[position:])]),
                   partial(add_stood_in, add_text=add_text, shown={stand_in[tag.start()]: tag for tag in tags},
                           closing={stand_in[start]: end[0] for start, end in pairs.items() if start in stand_in},
                           atoms={stand_in[start]: text[start:end] for start, end in kept}),
                   tags={stand_in[at]: stand_in[partner.get(at, at)] for at in stand_in})


def stand_ins(text: str, references: bool) -> Iterator[str]:
    """The characters of Unicode's private use area (U+E000-U+F8FF) that ``text`` does not hold, nor, its
    ``references`` read, a reference of it (``&#xE000;``), in order: an icon font's glyph written in a line is one of
    them, and stays what it is."""
    held = set(text) | set(character_references.read_references(text) if references else "")
    return (character for character in map(chr, range(0xE000, 0xF900)) if character not in held)


def add_stood_in(builder: FlatBuilder, text: str, add_text: Callable[[FlatBuilder, str], None],
                 shown: Mapping[str, re.Match[str]], closing: Mapping[str, str], atoms: Mapping[str, str]) -> None:
    """``text``, a piece of what add_tagged reads, into ``builder``: each character that stands for a tag (``shown``)
    as that tag, opening an element (one of ``closing``, with its end tag), closing one, or a break, and each that
    stands for a script kept whole (``atoms``: text_scripts.kept_scripts) as an atom of it; the text between them by
    ``add_text``."""
    position = 0
    for at, character in enumerate(text):
        if character not in shown and character not in atoms:
            continue
        add_text(builder, text[position:at])
        position = at + 1
        if character in atoms:
            builder.add_atom(literal=atoms[character])
        elif is_break(shown[character]):
            builder.add_atom(literal=shown[character][0], parts_words=True)
        elif character in closing:
            builder.open(Tag(shown[character][0], closing[character]))
        else:
            builder.close()
    add_text(builder, text[position:])


def is_break(tag: re.Match[str]) -> bool:
    """Whether ``tag`` is a start tag of ``BREAKS`` (``<br>``, ``<br/>``)."""
    return tag["name"].lower() in BREAKS and not tag["end"]


def paired(tags: list[re.Match[str]]) -> dict[int, re.Match[str]]:
    """Where each start tag of ``TEXT_TAGS`` among ``tags`` starts, mapped to its end tag: an end tag closes the last
    start tag of its name still open, and leaves those opened after that one text, as it does a start tag never closed
    and an end tag that closes none (``<b>A <i>dog</b> runs</i>`` pairs the ``<b>`` alone)."""
    pairs: dict[int, re.Match[str]] = {}
    opened: list[re.Match[str]] = []
    for tag in markup(tags):
        if not tag["end"]:
            opened.append(tag)
            continue
        names = [start["name"].lower() for start in opened]
        if tag["name"].lower() in names:
            k = len(names) - 1 - names[::-1].index(tag["name"].lower())
            pairs[opened[k].start()] = tag
            del opened[k:]
    return pairs


def markup(tags: list[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The start and end tags of ``TEXT_TAGS`` among ``tags``: not one written as empty (``<b/>``), nor an end tag
    with attributes."""
    for tag in tags:
        if tag["name"].lower() in TEXT_TAGS and not tag["void"] and not (tag["end"] and tag["attributes"]):
            yield tag
