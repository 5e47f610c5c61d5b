"""What makes runs of an Office Open XML paragraph look alike, and which look is the paragraph's
*base* (rules 1 and 2 of attnmt.documents.ooxml's docstring): runs of the same formatting are
merged, spelling marks dropped, and the formatting that covers the most of the text is written
as plain text, every other run a mark over its words.  A hidden look (Word's ``w:vanish``: an
editor's note) is no base while a visible one has text: the spaces and words the translation
puts outside every mark would be written hidden, and a reader would see the words around them
run together."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence

from lxml import etree

from attnmt.documents.flat import has_words
from attnmt.documents.wordml import NO_HIDING, REMOVALS, Hiding, is_hidden_run, w

SPELLING = ("err", "dirty")  # DrawingML run attributes that mark spelling, not formatting
# The run properties (elements or DrawingML's attributes, by local name) whose look a space shows too:
# underline, strike-through, highlight, shading, a border; NO_LOOK, the values that turn one off.
SPACE_LOOKS = frozenset(("u", "strike", "dstrike", "highlight", "shd", "bdr"))
NO_LOOK = frozenset(("none", "noStrike", "0", "false", "off", "nil"))
POSITION = w("position")  # a Word run raised or lowered from the line, apart from vertAlign
FIELD_CHARACTER = w("fldChar")  # a complex field's begin, separator or end (attnmt.documents.fields)


def formatting(run: etree._Element, dialect: ooxml_dialects.Dialect) -> bytes:
    """What makes two runs look alike: their properties (spelling flags are gone: merge_runs), as
    exclusive C14N writes them, with only the namespaces they use, so that a run in its slide and a
    copy of one (unlinked) compare by their look, not by the namespaces declared around them."""
    properties = run.find(dialect.properties)
    return b"" if properties is None else etree.tostring(properties, method="c14n", exclusive=True)


def is_plain(run: etree._Element, dialect: ooxml_dialects.Dialect) -> bool:
    """A run of text and breaks only (no picture or field code), which may merge with its neighbour."""
    return all(part.tag in (dialect.properties, dialect.text, dialect.hyphen) or part.tag in dialect.breaks
               for part in run)


def merge_runs(container: etree._Element, dialect: ooxml_dialects.Dialect) -> None:
    """Rule 1 of attnmt.documents.ooxml's docstring, in place, in ``container`` and the containers in it."""
    for child in list(container):
        if child.tag in dialect.dropped:
            container.remove(child)
        elif child.tag == dialect.run:
            for part in [part for part in child if part.tag in dialect.dropped]:  # a soft hyphen
                child.remove(part)
            properties = child.find(dialect.properties)
            if properties is not None:  # a slide's spelling flags: stale too, and no formatting
                for name in SPELLING:
                    properties.attrib.pop(name, None)
    previous = None
    for child in list(container):
        if dialect.holds_runs(child):
            merge_runs(child, dialect)
        mergeable = child.tag == dialect.run and is_plain(child, dialect)
        if mergeable and previous is not None and formatting(child, dialect) == formatting(previous, dialect):
            previous.extend(part for part in child if part.tag != dialect.properties)
            container.remove(child)
            continue
        previous = child if mergeable else None


def is_link(run: etree._Element, dialect: ooxml_dialects.Dialect) -> bool:
    """Whether the run's own properties make it a link (a slide's; Word's links are containers)."""
    properties = run.find(dialect.properties)
    return properties is not None and any(child.tag in dialect.links for child in properties)


def shows_on_spaces(layers: Sequence[etree._Element]) -> bool:
    """Whether a run's look shows on a space, not only on letters: a line under or through it or a
    colour behind it (SPACE_LOOKS: Word's ``w:u``, ``w:strike``, ``w:highlight``, ``w:shd``, a
    slide's ``u`` and ``strike`` attributes and ``a:highlight``, a sheet's ``u`` and ``strike``),
    not turned off (``w:val="none"``, ``u="none"``, ``strike="noStrike"``, a shading of no
    pattern and no fill: look_value).  ``layers``: the run
    properties that give the run its look, weakest first (a Word run's styles' and then its own:
    attnmt.documents.word_styles), the last to say a look deciding it: a style's underline shows
    as a run's own does, and the run's ``w:u w:val="none"`` takes it off.  Bold, italics, a colour
    or a font look the same on a space; no layers show nothing."""
    said: dict[str, str] = {}
    for properties in layers:
        said.update((etree.QName(name).localname, value) for name, value in properties.attrib.items()
                    if etree.QName(name).localname in SPACE_LOOKS)
        said.update((etree.QName(child).localname, look_value(child)) for child in properties
                    if isinstance(child.tag, str) and etree.QName(child).localname in SPACE_LOOKS)
    return any(value not in NO_LOOK for value in said.values())


def is_raised(node: etree._Element, dialect: ooxml_dialects.Dialect,
              layers: Callable[[etree._Element], Sequence[etree._Element]]) -> bool:
    """Whether each run with text of a run or container is set above the line (script_kind "sup"),
    ``layers`` giving a run's look (attnmt.documents.ooxml.ParagraphJob's: a Word run's styles too)."""
    runs = list(text_runs(node, dialect))
    return bool(runs) and all(script_kind(layers(run)) == "sup" for run in runs)


def script_kind(layers: Sequence[etree._Element]) -> str:
    """Where a run's look sets it: "sup" above the line, "sub" below it, "" on it.  Word's and a sheet's
    ``vertAlign`` ("superscript", "subscript"; "baseline" is on it), else Word's ``w:position`` (``w:val="8"``,
    in half-points: Font > Advanced > Position: Raised, as LibreOffice writes HTML's ``<sup>``; "-8": lowered),
    a slide's ``baseline`` (``baseline="30000"``: 30 % up; "-25000": a subscript).  ``layers``, weakest
    first, as in shows_on_spaces: the last to say where the run stands decides (a character style's
    superscript, turned off by the run's own ``w:vertAlign w:val="baseline"``), for ``vertAlign`` and for
    the height apart; a subscript raised by a few points is still a subscript."""
    aligned, height = "", ""
    for properties in layers:
        if properties.get("baseline") is not None:
            height = properties.get("baseline", "").strip().rstrip("%")
        for child in properties:
            if child.tag == POSITION:  # half-points, or a measure with its unit ("4pt")
                height = look_value(child).strip().rstrip("abcdefghijklmnopqrstuvwxyz")
            elif isinstance(child.tag, str) and etree.QName(child).localname == "vertAlign":
                aligned = look_value(child)
    if aligned in ("superscript", "subscript"):
        return aligned[:3]
    return "sup" if is_positive(height) else "sub" if height.startswith("-") and is_positive(height[1:]) else ""


def look_value(look: etree._Element) -> str:
    """What a look's element says: its ``val`` (a sheet's bare ``<u/>``, none: "on"); for Word's
    shading (``w:shd``), a pattern (``w:val``) over a fill (``w:fill``, or a theme's ``w:themeFill``):
    ``w:val="nil"``, and ``clear`` (no pattern) over no fill or ``w:fill="auto"``, show nothing ("nil",
    Word's ``<w:shd w:val="clear" w:color="auto"/>`` on a plain run); any other pattern or fill does."""
    said = {etree.QName(name).localname: value for name, value in look.attrib.items()}
    if etree.QName(look).localname != "shd":
        return said.get("val", "on")
    pattern, fill = said.get("val", "clear"), said.get("fill", "auto")
    if pattern == "nil" or (pattern == "clear" and fill == "auto" and "themeFill" not in said):
        return "nil"
    return "on"


def is_hidden(run: etree._Element, dialect: ooxml_dialects.Dialect,
              hiding: Hiding = NO_HIDING) -> bool:
    """Whether the run is hidden: a Word run by its own properties or by its styles, as ``hiding``
    says (Dialect.hidden, wordml.is_hidden_run); the other dialects' runs hide nothing."""
    return bool(dialect.hidden) and is_hidden_run(run, hiding)


def text_runs(node: etree._Element, dialect: ooxml_dialects.Dialect) -> Iterator[etree._Element]:
    """The runs with text of ``node``: itself, or those in a container and the containers in it."""
    if node.tag == dialect.run and any(dialect.text_of(text) for text in node.iterchildren(dialect.text)):
        yield node
    elif dialect.holds_runs(node):
        for child in node:
            yield from text_runs(child, dialect)


def worded_runs(paragraph: etree._Element, dialect: ooxml_dialects.Dialect,
                hiding: Hiding = NO_HIDING) -> list[etree._Element]:
    """The visible runs with words (a letter: flat.has_words) of ``paragraph``, in its containers too
    (a run its styles hide, ``hiding``, is hidden: is_hidden)."""
    return [run for child in paragraph for run in text_runs(child, dialect)
            if not is_hidden(run, dialect, hiding)
            and has_words("".join(map(dialect.text_of, run.iterchildren(dialect.text))))]


def reads_text(paragraph: etree._Element, dialect: ooxml_dialects.Dialect) -> bool:
    """Whether ``paragraph`` holds anything its job would read as text (a text element, a
    non-breaking hyphen, in it or in a paragraph it holds) or a complex field's mark, which may
    carry a field on to the next paragraph.  One without (an empty ``<w:p/>``, a page break, a
    picture) has nothing to translate: attnmt.documents.ooxml makes it no job, whose runs'
    merging, styles and flat text cost some 45 µs a paragraph (minutes for a part of millions)."""
    if not len(paragraph):  # <w:p/>, at once
        return False
    return next(paragraph.iter(dialect.text, dialect.hyphen or dialect.text, FIELD_CHARACTER), None) is not None


def run_parts(node: etree._Element, dialect: ooxml_dialects.Dialect) -> Iterator[etree._Element]:
    """The parts of a run (its text, tabs, field characters; not its properties), or of every run
    in a container (a hyperlink, a content control), in order; of a tracked deletion's (``w:del``, or a move's old
    place, ``w:moveFrom``: wordml.REMOVALS), its field characters alone: read as none, one ending a field left the
    field open, and the words after it, to the end of its story, were kept as the field's result."""
    if node.tag == dialect.run:
        yield from (part for part in node if part.tag != dialect.properties)
    elif dialect.holds_runs(node):
        for child in node:
            yield from run_parts(child, dialect)
    elif node.tag in REMOVALS:
        yield from node.iter(FIELD_CHARACTER)


def base_run(children: Iterable[etree._Element], dialect: ooxml_dialects.Dialect,
             hiding: Hiding = NO_HIDING) -> etree._Element | None:
    """The run whose formatting covers the most of the text of a container's ``children`` (its
    own runs, not those inside a mark among them: a hyperlink, a link field), not hidden and not a
    link (rule 2 of attnmt.documents.ooxml's docstring: a hidden look only where every run with text
    is hidden, also by its styles, ``hiding``: is_hidden; where only links have text, a copy of the longest
    without its link); a copy of its look without a tracked formatting change where it has one
    (names_itself); None where no run has text."""
    lengths: dict[bytes, int] = {}
    first: dict[bytes, etree._Element] = {}
    for run in (child for child in children if child.tag == dialect.run):
        key = formatting(run, dialect)
        first.setdefault(key, run)
        lengths[key] = lengths.get(key, 0) + sum(len(dialect.text_of(t)) for t in run.iterchildren(dialect.text))
    with_text = {key: length for key, length in lengths.items() if length}
    shown = {key: length for key, length in with_text.items() if not is_hidden(first[key], dialect, hiding)}
    candidates = shown or with_text
    plain = {key: length for key, length in candidates.items() if not is_link(first[key], dialect)}
    chosen = plain or candidates
    if not chosen:
        return None
    base = first[max(chosen, key=chosen.__getitem__)]
    look = base if plain else unlinked(base, dialect)
    if any(names_itself(child) for child in properties_of(look, dialect)):
        return without(look, dialect, names_itself)
    return look


def unlinked(run: etree._Element, dialect: ooxml_dialects.Dialect) -> etree._Element:
    """A copy of a linked run, its link taken out of its properties (its text too: only its look is used)."""
    return without(run, dialect, lambda child: child.tag in dialect.links)


def names_itself(element: etree._Element) -> bool:
    """Whether a run's property names itself: a tracked formatting change, ``<w:rPrChange w:id="9">``.  The
    base's look is written wherever the translation puts text outside every mark, so it holds no such
    property: written twice, its id was no longer unique, as ECMA-376 requires of a revision's (17.13.1);
    the run that has it is a mark over its words, never parted (attnmt.documents.sentence_marks)."""
    return isinstance(element.tag, str) and any(etree.QName(name).localname == "id" for name in element.attrib)


def properties_of(run: etree._Element, dialect: ooxml_dialects.Dialect) -> list[etree._Element]:
    """The children of the run's properties (none where it has none)."""
    properties = run.find(dialect.properties)
    return [] if properties is None else list(properties)


def without(run: etree._Element, dialect: ooxml_dialects.Dialect,
            left_out: Callable[[etree._Element], bool]) -> etree._Element:
    """A copy of the run's look, the children of its properties that are ``left_out`` taken out (its text
    too: only its look is used)."""
    look = run.makeelement(run.tag, run.attrib)
    properties = copy.deepcopy(run.find(dialect.properties))
    for child in [child for child in properties if left_out(child)]:
        properties.remove(child)
    look.append(properties)
    return look


# The module of the annotations' Dialect, imported last (typing.get_type_hints reads the annotations):
# it imports this module (through attnmt.documents.fields), whose names it takes must exist by then.
from attnmt.documents import ooxml_dialects  # noqa: E402


def is_positive(number: str) -> bool:
    """Whether ``number`` is written as a number above 0 ("30000", "33.5"; not "-25000", "0", "x", nor a
    superscript "²", which isdigit but float cannot read)."""
    return number.replace(".", "", 1).isdecimal() and float(number) > 0
