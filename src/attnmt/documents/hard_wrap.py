"""Hard-wrapped paragraphs of plain text: found, translated whole, and filled again to their width.

An e-mail, a Project Gutenberg book, a README or a man page is wrapped at some 72 columns by its
editor: a sentence runs over line breaks, and translated a line at a time each half was read as a
sentence of its own ("It was the best of times, it was the worst of" / "times, it was the age of
wisdom."), the German broken at every break.  Lines that read as an editor fills a paragraph (in a
block between blank lines, apart from a heading, an e-mail header or a signature on a line of its own:
``wrapped_paragraphs``) are joined into one text for the model, and its translation filled again
(``filled``) to their width after their indentation; the line count may change.  So is a list's item
wrapped onto lines hanging under its text (``wrapped_items``), filled again under its mark.  Anything else
(a list of an item a line, code, a poem, a table, subtitles' short lines, a file of a sentence a line, a
line with a tab) is translated a line at a time, as before.

    wrapped_paragraphs(lines) -> [Wrapped(start, end, first_indent, indent, width), ...]
    joined(lines, paragraph) -> its text on one line;  filled(translation, paragraph) -> its lines

attnmt.documents.plain_text translates a text's lines so.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from attnmt.documents.closing_marks import SENTENCE_ENDS
from attnmt.text.list_marks import LIST_MARK

# Spaces a line may end at (a paragraph's, and a cue's outside its tags and ASS codes: attnmt.documents.cue_wrap):
# plain ones, and the ideographic space (U+3000) that parts phrases in Japanese; never a no-break space (U+00A0,
# U+202F).  Loaded with plain text, which no subtitle reader is.
WRAP_SPACES = r"([ \u3000]+)"
# Narrower blocks are subtitles' lines, a poem's, a list's, an address's: text is wrapped at 60 to 80
# columns (e-mail's 72, Project Gutenberg's 70, a README's 80, a man page's 78).
MIN_WIDTH = 50
# How full a line must be to have been cut by its editor: the next line's first word did not fit on it.
# A little less than the block's widest line, as fmt(1) fills to 93% of its width and justifies none.
FULL = 0.9
INDENT = " >"  # what a line's indentation is made of: spaces, and an e-mail's quote marks ("> ", "> > ")
# A line's text that ends a sentence or announces what follows, and any closing quotes or brackets after.
ENDED = re.compile(rf"[{re.escape(SENTENCE_ENDS)}:][\"'\u201d\u2019\u00bb)\]]*\Z")
# The first letter of a line that goes on a sentence in lower case, after any opening quotes or brackets.
GOES_ON = re.compile(r"[\"'\u201c\u2018\u00ab(\[]*([^\W\d_])")
# What prose does not show and code does: braces, an assignment or comparison between spaces, an arrow.
CODE_SIGNS = re.compile(r"[{}]|\s[-+*/=!<>]?=\s|=>|->")
COLUMN_GAP = re.compile(r"\S {3,}\S")  # a table's columns (two spaces part sentences, in some texts)
HYPHENATED = re.compile(r"[^\W\d_][-\u2010]\Z")  # a word cut at a hyphen ("well-" / "known"), joined without a space
# A field's line, "Key: value": a key of one word, hyphens in it (Reply-To, Message-ID), in a capital (field_key),
# or the two words Spanish and Portuguese Outlook write for when a message was sent ("Enviado el:", "Enviada em:").
FIELD = re.compile(r"(?P<key>[^\W\d_]+(?:-[^\W\d_]+)*|Envia[dr][oa] (?:el|em))[ \u00a0\u202f]?:[ \t]+\S")
# The keys of an e-mail's headers, as mail programs write them in English, German, French, Spanish, Portuguese,
# Italian and Dutch: a line of one above a paragraph is a header whatever its length (a 70-column Subject).
HEADERS = frozenset("""subject from to cc bcc date sent reply-to message-id in-reply-to references organization
    betreff von an datum gesendet kopie objet de à envoyé asunto para enviado fecha oggetto da inviato data
    onderwerp van aan verzonden assunto enviada""".split()) | {"enviado el", "enviada em"}
TITLE_WORD = 4  # a heading's words of four letters or more start in capitals ("Chapter One: In Which the River Rose")


@dataclass(frozen=True)
class Wrapped:
    """A hard-wrapped paragraph: lines ``start`` to ``end`` (past its last) of a text, the indentation of
    its first line and of the others (a book's paragraph indents its first), and its width in columns."""

    start: int
    end: int
    first_indent: str
    indent: str
    width: int


def wrapped_paragraphs(lines: Sequence[str]) -> list[Wrapped]:
    """The hard-wrapped paragraphs of a plain text's ``lines``: in each block between blank lines, each
    run of lines a paragraph can go on through (``runs``) that ``wrapped_run`` reads as one, and each list
    item wrapped onto lines under its text (``wrapped_items``), whose lines no paragraph takes."""
    items = [item for start, end in blocks(lines) for item in wrapped_items(lines, start, end)]
    taken = {k for item in items for k in range(item.start, item.end)}
    found = [found for start, end in blocks(lines) for run in runs(lines, start, end)
             if (found := wrapped_run(lines, *run)) is not None and taken.isdisjoint(range(found.start, found.end))]
    return sorted(found + items, key=lambda paragraph: paragraph.start)


def wrapped_items(lines: Sequence[str], start: int, end: int) -> Iterator[Wrapped]:
    """The list items of ``lines[start:end]`` wrapped onto lines indented to their text, under their mark
    (``- Install the package`` / ``  before you go on.``, ``1. Open`` / ``   the settings``): the item's line
    and those hanging under it, prose all (``reads_as_prose``), their breaks a paragraph's (``breaks_sentences``:
    one going on in lower case, so a command under ``1. Run this:`` is none).  Their indentation: the mark's,
    and the hanging one; filled again with the mark on the first line, as translate_lines keeps it."""
    k = start
    while k < end:
        indent, hanging = indent_of(lines[k]), item_hanging(lines[k].rstrip())
        last = k + 1
        while hanging and last < end and indent_of(lines[last]) == hanging and reads_as_prose(lines[last]):
            last += 1
        block = [lines[j].rstrip() for j in range(k, last)]
        texts = [item_text(block[0]), *(line[len(hanging):] for line in block[1:])]
        if last - k > 1 and reads_as_prose(texts[0]) and breaks_sentences(texts):
            yield Wrapped(k, last, indent, hanging, max(map(columns, block)))
        k = last


def item_hanging(line: str) -> str:
    """The indentation of the lines a list item's ``line`` wraps onto: its own, and a space for each column
    of its mark and the spaces after it (LIST_MARK: ``1.  ``, four); "" where the line is no item's (or a
    tab follows its mark: a tab's columns are the editor's)."""
    indent = indent_of(line)
    found = LIST_MARK.match(line[len(indent):])
    if found is None or found["indent"] or "\t" in line[:len(indent) + found.end() + 1]:
        return ""
    return indent + " " * columns(line[len(indent):len(line) - len(item_text(line))])


def item_text(line: str) -> str:
    """A list item's ``line`` without its indentation, its mark and the spaces after it."""
    text = line[len(indent_of(line)):]
    found = LIST_MARK.match(text)
    return text[found.end():].lstrip(" ") if found else text


def blocks(lines: Sequence[str]) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of lines that are not blank: a line of spaces is, and so is one of an
    e-mail's quote marks alone (">"), which parts a quoted reply's paragraphs."""
    start = None
    for k, line in enumerate([*lines, ""]):
        blank = not line.rstrip().lstrip(INDENT)
        if not blank and start is None:
            start = k
        elif blank and start is not None:
            yield start, k
            start = None


def runs(lines: Sequence[str], start: int, end: int) -> Iterator[tuple[int, int]]:
    """(start, end) of the runs of a block's lines that no break parts (``parted``): a heading or a
    greeting above a paragraph (``DESCRIPTION``, ``Hi Anna,``), or a signature below it, on a line of
    its own in the same block, is a run apart, as is a list or code beside it, and each of ``headers``."""
    width = max(columns(line.rstrip()) for line in lines[start:end])
    alone = headers(lines, start, end)
    first = start
    for k in range(start, end - 1):
        if {k, k + 1} & alone or parted(lines[k].rstrip(), lines[k + 1].rstrip(), width, opens=k == first):
            yield first, k + 1
            first = k + 1
    yield first, end


def parted(line: str, after: str, width: int, opens: bool) -> bool:
    """Whether a paragraph cannot go on from ``line`` to the line ``after`` it, in a block ``width``
    columns wide: either is no prose (``reads_as_prose``), their indentation differs (but for a deeper
    one of the line that ``opens`` a paragraph), or ``after``'s first word would have fitted on ``line``
    (FULL), which an editor filling the paragraph would have put there."""
    if not (reads_as_prose(line) and reads_as_prose(after)):
        return True
    indent, then = indent_of(line), indent_of(after)
    if indent != then and not (opens and indent.startswith(then) and not indent[len(then):].strip(" ")):
        return True
    return columns(line) + 1 + columns(after[len(then):].split()[0]) <= FULL * width


def wrapped_run(lines: Sequence[str], start: int, end: int) -> Wrapped | None:
    """The run of ``lines[start:end]`` (``runs``: prose, one indentation, each line full) as a hard-wrapped
    paragraph, or None where it does not read as one: the lines that end it without ending a sentence
    left out (a signature's ``Best regards,``), two lines or more are left, the widest at least MIN_WIDTH
    columns, half its line breaks or more inside a sentence and one going on in lower case
    (``breaks_sentences``)."""
    while end - start > 2 and not ENDED.search(lines[end - 1].rstrip()):
        end -= 1
    block = [line.rstrip() for line in lines[start:end]]
    indents = list(map(indent_of, block))
    texts = [line[len(indent):] for line, indent in zip(block, indents, strict=True)]
    width = max(map(columns, block))
    if len(block) < 2 or width < MIN_WIDTH or not breaks_sentences(texts) or not ENDED.search(texts[-1]):
        return None
    return Wrapped(start, end, indents[0], indents[1], width)


def headers(lines: Sequence[str], start: int, end: int) -> set[int]:
    """The lines of ``lines[start:end]`` that are no prose however full they are, each a run of its own: an
    e-mail's header (``Subject: ...``, ``From: ...``: HEADERS), a field's line next to another (``Version: 2``
    above ``Status: ...``: FIELD), and a heading opening the block (``headed``).  A field's line alone of another
    key (``Note: the ...``, a speaker's ``Anna: I think ...``) may open a paragraph, and a line of names inside
    one goes on with it."""
    keys = [field_key(lines[k]) for k in range(start, end)]
    paired = [key and any(keys[max(k - 1, 0):k] + keys[k + 1:k + 2]) for k, key in enumerate(keys)]
    fields = {k for k, key in enumerate(keys) if key in HEADERS or paired[k]}
    return {start + k for k in fields} | ({start} if headed(lines[start]) else set())


def field_key(line: str) -> str:
    """The key, in lower case, of a field's line (FIELD: ``Reply-To: anna@example.com``), or "" where it is none."""
    found = FIELD.match(line[len(indent_of(line)):])
    return found["key"].lower() if found and found["key"][0].isupper() else ""


def headed(line: str) -> bool:
    """Whether a line is a heading: it ends no sentence (ENDED), has no comma nor semicolon (a list of names
    has), and each of its words of TITLE_WORD letters or more, three at least, starts in a capital
    (``DESCRIPTION OF THE PROBLEM``, ``Chapter One: In Which the Travellers Arrive``), which a line of prose,
    of German's nouns too, does not: its verbs and adjectives are in lower case."""
    words = [word for word in re.findall(r"[^\W\d_]+", line) if len(word) >= TITLE_WORD]
    if re.search(r"[,;]", line) or ENDED.search(line.rstrip()):
        return False
    return len(words) >= 3 and all(word[0].isupper() for word in words)


def reads_as_prose(line: str) -> bool:
    """Whether a line may be part of a paragraph: it holds no tab nor other control character (a tab
    parts fields), no line or paragraph separator, no table's gap of spaces, no sign of code
    (CODE_SIGNS), and does not start with a list's mark (``- ``, ``1. ``, ``## ``: LIST_MARK)."""
    text = line[len(indent_of(line)):]
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in line):
        return False
    return not (LIST_MARK.match(text) or CODE_SIGNS.search(line) or COLUMN_GAP.search(text))


def indent_of(line: str) -> str:
    """A line's indentation: the spaces and quote marks it starts with (INDENT)."""
    return line[:len(line) - len(line.lstrip(INDENT))]


def breaks_sentences(texts: Sequence[str]) -> bool:
    """Whether the line breaks between ``texts`` (a block's lines, without their indentation) are a
    wrapped paragraph's: half of them or more inside a sentence (the line before ends none: ENDED), and
    one of those going on in lower case, which a poem's line, a title or a list's entry does not."""
    inside = [not ENDED.search(text) for text in texts[:-1]]
    lower = [goes_on_in_lower_case(text) for text in texts[1:]]
    return 2 * sum(inside) >= len(inside) and any(a and b for a, b in zip(inside, lower, strict=True))


def goes_on_in_lower_case(text: str) -> bool:
    """Whether a line's ``text`` starts with a lower-case letter, after any opening quotes or brackets."""
    found = GOES_ON.match(text)
    return found is not None and found[1].islower()


def columns(text: str) -> int:
    """The columns ``text`` takes in a terminal or a monospaced font: two for a wide character (CJK),
    none for a combining mark."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def joined(lines: Sequence[str], paragraph: Wrapped) -> str:
    """A hard-wrapped paragraph's text on one line, as the model reads it: its lines without their
    indentation, a space between them, none after a word cut at its hyphen (HYPHENATED)."""
    texts = [line[len(paragraph.first_indent if k == paragraph.start else paragraph.indent):].strip()
             for k, line in enumerate(lines[paragraph.start:paragraph.end], start=paragraph.start)]
    text = texts[0]
    for more in texts[1:]:
        text += ("" if HYPHENATED.search(text) else " ") + more
    return text


def filled(text: str, paragraph: Wrapped) -> list[str]:
    """``text`` (a paragraph's translation) filled as an editor fills a paragraph: each line after its
    indentation takes every word that fits in the paragraph's width, and a word wider than that stands
    alone.  A line is cut only at plain and ideographic spaces, as a cue's is (WRAP_SPACES: never
    at a no-break space), which the cut takes; every other space stays where it was.  Not the even lines
    cue_wrap.wrap makes of a cue: a paragraph's editor filled each line but its last."""
    parts = re.split(WRAP_SPACES, text.strip(" "))  # words, and the spaces between them
    lines = [paragraph.first_indent + parts[0]]
    for space, word in zip(parts[1::2], parts[2::2], strict=True):
        if columns(lines[-1] + space + word) <= paragraph.width:
            lines[-1] += space + word
        else:
            lines.append(paragraph.indent + word)
    return lines
