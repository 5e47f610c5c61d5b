"""CSS's ``white-space`` in a page's ``style`` attributes: an element styled ``pre``, ``pre-wrap``, ``pre-line``
or ``break-spaces`` (CSS Text 4's ``white-space-collapse: preserve`` or ``preserve-breaks``) shows each line break
of its text as a new line, where HTML's whitespace otherwise collapses to one space; all but ``pre-line`` (and
``preserve-breaks``) show its runs of spaces and its tabs as written too.  Its line breaks are read as ``<br>``s are
(attnmt.documents.flat.FlatBuilder.kept): a poem or an address in ``<p style="white-space: pre-line">`` came back
on one line.  A run of two or more spaces or a tab stands between the words either side as a tab in a Word file does
(``Name:    Anna``, columns lined up in a chat message): read as one space, it came back as one.  A ``<style>``
block's rules are not read: which elements its selectors pick is the browser's to say."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder


@dataclass(frozen=True)
class Kept:
    """What a style shows of its text's whitespace as written: its line breaks, and its runs of spaces and tabs."""

    lines: bool = False
    spaces: bool = False
    # Its line breaks are lines a person typed, each ending its sentence only where ended_lines says, even where the
    # builder reads fields (a spreadsheet cell's text: attnmt.documents.ooxml_dialects.Dialect.typed_lines).
    typed: bool = False


NORMAL = Kept()
TYPED_LINES = Kept(lines=True, typed=True)
WHITE_SPACE = re.compile(r"(?:^|;)\s*white-space(?:-collapse)?\s*:\s*([a-z-]+)", re.IGNORECASE)
KEEPING = {"pre": Kept(True, True), "pre-wrap": Kept(True, True), "break-spaces": Kept(True, True),
           "preserve": Kept(True, True), "pre-line": Kept(True), "preserve-breaks": Kept(True)}
# A line break in such text with the spacing around it, written back as it was (a line's indent too)
KEPT_BREAK = re.compile(r"([ \t\f]*(?:\r\n?|\n)[ \t\n\f\r]*)")
# and, where spaces are kept too, two spaces or more, or a tab, within a line
KEPT_SPACING = re.compile(r"([ \t\f]*(?:\r\n?|\n)[ \t\n\f\r]*|[ \t\f]{2,}|[\t\f])")
NEWLINE = re.compile(r"\r\n?|\n")


def styled(node: etree._Element) -> Kept | None:
    """What ``node``'s own style keeps of its whitespace (NORMAL: ``normal``, ``nowrap``), or None where it says
    nothing of it; of two declarations, the last counts, as in CSS."""
    style = node.get("style") if isinstance(node.tag, str) else None
    found = WHITE_SPACE.findall(style or "")
    return KEEPING.get(found[-1].lower(), NORMAL) if found else None


def kept_white_space(node: etree._Element, lines: bool = False) -> Kept:
    """What the text of ``node`` shows of its whitespace as written: the nearest style that says, its own or an
    ancestor's (``white-space`` is inherited); with ``lines``, its line breaks whatever the style says (a block read
    line by line, each line break ending its sentence: DeepL's split_sentences=1, DocumentOptions.lines_split)."""
    kept = next((says for element in (node, *node.iterancestors()) if (says := styled(element)) is not None), NORMAL)
    return replace(kept, lines=True) if lines else kept


def kept_parts(text: str, kept: Kept, before: str) -> list[str]:
    """``text`` cut at the whitespace that ``kept`` shows as written: every other part, from the second, is such
    whitespace, and the others the text between.  Where spaces are kept, a space it starts with after one that the
    text ``before`` it ends in is such whitespace too: the two are a run, in two elements' text (``<span>A </span>
    <span>dog</span>``), and the second was dropped."""
    if not kept.lines:
        return [text]
    parts = (KEPT_SPACING if kept.spaces else KEPT_BREAK).split(text)
    if kept.spaces and before.endswith(" ") and parts[0][:1] == " ":
        return ["", " ", parts[0][1:], *parts[1:]]
    return parts


def add_kept_spacing(builder: FlatBuilder, spacing: str) -> None:
    """Kept whitespace as an atom that parts the words either side and shows no word of its own to keep apart from
    the target's; a line break, ``spacing`` with it, ends its sentence where ended_lines says (twice in a row where
    it holds an empty line), and always where the builder reads ``fields`` (a line ends its sentence there) but for
    lines a person typed (Kept.typed)."""
    breaks = len(NEWLINE.findall(spacing))
    builder.line_breaks += [len(builder.text)] * (breaks > 1)
    builder.add_atom(literal=spacing, parts_words=True, line_break=breaks > 0,
                     ends_sentence=builder.fields and breaks > 0 and not builder.kept.typed)
    builder.marks[-1].shows_text = False


def spaced_after_break(builder: FlatBuilder, text: str) -> str:
    """``text`` after an atom that parts words (a line break, kept spacing), with the space that keeps the words
    either side two, and each element opened since the atom (``&nbsp;&nbsp;<b>12 €</b>``, ``<br><b>Note</b>``)
    starting after that space: inside it, the space was the element's, and a run it fills (a price) no longer
    filled it, so the model read both the space and the one after the element ("Total:  today.").  None where the
    atom stands between two marks (``between_marks``): no word is there to part."""
    if between_marks(builder, text):
        return text
    at = len(builder.text)
    for k in reversed(builder.open_marks):
        mark = builder.marks[k]
        if mark.start != at or any(m.atom for m in builder.marks[k + 1:]):
            break
        mark.start += 1
    return " " + text


def between_marks(builder: FlatBuilder, text: str) -> bool:
    """Whether ``text`` follows an atom that shows text (inline code, a link's URL) which stands between two marks,
    glued to both, no word beside it (``"<code>report.pdf</code>"``, ``(<code>x</code>)``): read ``Use " " now.``,
    the space parted the quotes from the code they hold, so that they were read as two words, not as the code's
    (attnmt.documents.split_quotes).  Not a line break, which ends a line whatever stands beside it."""
    last = builder.marks[-1] if builder.marks else None
    return (last is not None and last.atom and last.shows_text and not last.line_break
            and last.start == len(builder.text) and marks(builder.text[-1:]) and marks(text[:1]))


def marks(character: str) -> bool:
    """Whether ``character`` is punctuation (a quote, a bracket, a stop): a Unicode category P."""
    return unicodedata.category(character).startswith("P") if character else False
