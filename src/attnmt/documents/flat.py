"""A block of a document as one *flat text*, the words a reader sees with the markup taken out, and its *marks*:
each inline element a span [start, end) of that text, and each thing kept as it is (a ``<br/>``, inline
``<code>``, a URL) an *atom* at one position.  Every format builds its blocks with ``FlatBuilder``;
attnmt.documents.spans carries the marks onto the translation."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lxml import etree

from attnmt.decoding import protected as passed_through  # URLs, e-mail addresses and file names: they pass untranslated

# A soft hyphen and the zero-width breaks inside a word: stale once the word is translated, and dropped from
# what the model reads, as translate drops them from its sentences
from attnmt.decoding.sentence_edges import SOFT_HYPHEN, without_word_breaks
from attnmt.decoding.sentence_parts import FIELD_ENDS, LINE_ENDS
from attnmt.documents.atom_no_breaks import taken_after, taken_before
from attnmt.documents.broken_addresses import continued_address
from attnmt.documents.closing_marks import (
    SENTENCE_ENDS,
    bracketed,
    closed_up_to_label,
    comma_taken_along,
    space_closed_up,
)
from attnmt.documents.inserted_spaces import space_kept_inside
from attnmt.documents.list_lines import after_line_mark
from attnmt.documents.shown import LINE_BREAKS, has_text_of_its_own, shown_text
from attnmt.documents.stop_points import stop_point
from attnmt.documents.white_space import NORMAL, add_kept_spacing, kept_parts, spaced_after_break
from attnmt.documents.wrapped_lines import ended_lines
from attnmt.text.letters import has_words

LINE_END = re.compile(f"[{LINE_ENDS}]")
# FlatBuilder(fields=True): these end a sentence, a tab, the unit separator US (a field's end) and a line's end, as
# they end a part of a sentence given to translate (attnmt.decoding.sentence_parts).
FIELD_END = re.compile(f"[{FIELD_ENDS}]")
# HTML's whitespace, which collapses (FlatBuilder(collapse=True)); a no-break space (U+00A0) is text that
# shows as a space, kept as it is (the tokenizer's NFKC reads it as a space).
COLLAPSED = re.compile(r"[ \t\n\f\r]+")
# What may close a sentence after its stop: quotes (German closes with “, an opening quote elsewhere) and brackets.
# Escapes a program reads as a line break or a tab (Android's "\\n" and "\\t"), where a reader protects them
# (attnmt.documents.xml_dialects): each stands between two words as its character does, and "\\n" ends a line
# as a <br> does (ended_lines); glued, "First line\\nSecond line" read "lineSecond".  Escape -> a line break.
# So does a space written as its code (Android's "\\u00A0", "\\u0020"): "10\\u00A0km" read "10km" (spaced).
ESCAPED_BREAKS = {"\\n": True, "\\t": False}
ESCAPED_CODE = re.compile(r"\\u([0-9A-Fa-f]{4})")
T = TypeVar("T")


@dataclass
class Mark:
    """An inline element over text[start:end], or an atom (kept whole) at start == end.

    node: what the caller rebuilds the element from (an lxml element or comment); None with
    ``literal``: a protected text span (URL, e-mail address) put back as it was."""

    start: int
    end: int
    parent: int | None = None
    node: Any = None
    atom: bool = False
    literal: str = ""
    space_before: bool = False  # whitespace before and after an atom in the source: kept around it
    space_after: bool = False
    # the character of that space after it, where the text left it out (U+00A0, a tab); or, where HTML's
    # whitespace after it held a line break (``<br>\n``) that the collapsed text made one space, that whitespace
    space_after_as: str = " "
    space_before_as: str = " "  # the whitespace HTML's text before it ended in, as written (``runs.\n<br>``)
    parts_words: bool = False  # a line break or a tab: it stands between two words in place of a space
    line_break: bool = False  # a line break (LINE_BREAKS, or an atom added as one: XLIFF's <x ctype="lb"/>)
    shows_text: bool = False  # a URL, or an element with text of its own (inline code): never glued to a word
    glued_before: bool = False  # a letter or digit right beside it in the source
    glued_after: bool = False
    closed_up: bool = False  # its space before taken out of the text, a comma after it (closing_marks)
    reference: bool = False  # a note's reference (``runs.<sup>1</sup>``): no part of its sentence's end
    opened_by: int | None = None  # the end of a range (a comment's, a bookmark's): the mark of its start
    # Whitespace at its edges in the source stays inside it (nesting.keep_edge_spaces): an OOXML container
    # (a tracked insertion, whose spaces are text it inserts), or a run whose surroundings show an
    # underline on a space, where a space put outside would take that line.
    keeps_edge_spaces: bool = False
    # A drop cap (attnmt.documents.markup_dropcaps): it gets the translation's first letters, as many
    # as it held, not the whole word its letters begin (span_geometry.initial_span).
    initial: bool = False
    # What a reader sees of an atom in its line where its reader decided it (a Word atom: its runs' styles hide
    # some of it, which its node alone does not say, wordml.Hiding); None: shown_text of its node (atom_text).
    shown: str | None = None
    # An element read with its sentence as the words it shows (an abbreviation: Vocabulary.is_kept_word), so the model
    # reads the sentence whole, and written back as it came over whatever the translation put in their place.
    kept_whole: bool = False
    # A ``literal`` taken from the text read (a part of a name its marks part: split_names), whose character references
    # a cue or a text line read: written back as the model's text is, its characters as the source wrote them.
    references_read: bool = False


@dataclass(frozen=True)
class Place:
    """Where a block is, for a person looking for it: the archive member that holds it and its
    paragraph there, counted from 1 (office files, e-books); or, with no part, its line in a text
    file (plain text, HTML, XML, subtitles)."""

    part: str | None
    number: int


@dataclass
class FlatText:
    """One block's visible text and its marks, in document (pre-)order: parents before children;
    ``place``: where the block is (set by the format that read it, for attnmt.documents.review);
    ``seen``: False for a copy no reader is shown (a Word text box's VML fallback, ``mc:Fallback``),
    translated with the rest but neither given a place nor reviewed: it would be listed twice;
    ``source_kept``: True once every sentence of it with words kept its source text in place of
    its translation (attnmt.documents.review, ``source_below``), so that the format does not say
    it is in the target language; ``partly_kept``: True once some did and some were translated;
    ``kept_sentences``: the [start, end) of each sentence that kept its source, in order."""

    text: str
    marks: list[Mark] = field(default_factory=list)
    place: Place | None = None
    breaks: list[int] = field(default_factory=list)  # where a sentence must end: a tab, a line in a cell
    line_ends: list[int] = field(default_factory=list)  # those of breaks a line break makes (a term may run on)
    seen: bool = True
    source_kept: bool = False
    partly_kept: bool = False
    kept_sentences: list[tuple[int, int]] = field(default_factory=list)

    def keeps_source(self, start: int, end: int) -> bool:
        """Whether text[start:end] (a mark's) lies wholly within sentences that kept their source,
        the white space between them aside: its words are still in the source's language, though
        the block's other sentences were translated (a ``<span lang="en">`` around the one kept)."""
        if not self.kept_sentences:
            return False
        position = start
        while True:
            while position < end and self.text[position].isspace():
                position += 1
            if position >= end:
                return True
            position = next((e for s, e in self.kept_sentences if s <= position < e), -1)
            if position < 0:
                return False


@dataclass(frozen=True)
class Placed:
    """A sentence of a document as ``Review.check`` is handed it: where it is, the flat text it is
    cut from and its [start, end) there, and the stretch of that text whose atoms go with it
    (``atom_windows``)."""

    place: Place | None
    flat: FlatText
    span: tuple[int, int]
    window: tuple[int, int]

    @property
    def source(self) -> str:
        """The sentence as the model reads it, its atoms taken out."""
        return self.flat.text[self.span[0]:self.span[1]]


def atom_windows(flat: FlatText, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """For each sentence of ``flat`` (its ``spans``, in order), the stretch of the text whose atoms
    go with it in the table: from its start (the first: the text's) to the next one's (the last:
    past the text's end), so that an atom after a sentence (a URL after its full stop, or ending
    the line) is shown with it, and one before the first sentence with that."""
    starts = [0, *(s for s, _ in spans[1:])]
    return list(zip(starts, [*starts[1:], len(flat.text) + 1], strict=True)) if spans else []


class FlatBuilder:
    """Builds a FlatText from text pieces, element openings and closings, and atoms.

    collapse: runs of HTML's whitespace (COLLAPSED; not U+00A0) become one space (HTML renders them
    so), and a piece's leading space is dropped after a space (so text taken out of markup keeps
    single spaces).
    fields: a tab or a line break in the text ends a sentence (an office paragraph's "Name:\tJohn",
    a spreadsheet cell's lines), as an atom added with ``ends_sentence`` does.
    protected: what in the text passes through untranslated, each match an atom (None: PROTECTED, URLs
    and e-mail addresses; an XLIFF source's also its placeholders, attnmt.documents.xliff).
    kept: what the style of the text added shows as written (attnmt.documents.white_space): each line break, with
    the spacing around it, and each run of spaces it keeps, an atom written back as it was, between words as a <br>."""

    def __init__(self, collapse: bool = True, fields: bool = False, protected: re.Pattern[str] | None = None) -> None:
        stop_point()  # every format reads each block through here: a deleted job stops between blocks
        self.collapse, self.fields = collapse, fields
        self.protected = passed_through.PROTECTED if protected is None else protected
        self.kept = NORMAL
        self.breaks: list[int] = []
        self.line_breaks: list[int] = []  # where each line break (LINE_BREAKS) stands: ended_lines says which end one
        # where the last line break stood, till an atom that shows text follows it, and those before a list's item:
        # each ends its sentence (attnmt.documents.list_lines)
        self.line_start: int | None = None
        self.listed: set[int] = set()
        self.text = ""
        self.marks: list[Mark] = []
        self.open_marks: list[int] = []
        self.pending_atoms: list[Mark] = []  # atoms waiting to learn whether whitespace follows them
        self.gap, self.ended_as = False, ""  # gap: a line break was just added; ended_as: Mark.space_before_as
        # an open range's key -> the marks of its starts, the last opened last: two starts may share a key
        # (Angular's <span>s nested, START_TAG_SPAN and START_TAG_SPAN_1), and an end closes the last
        self.range_starts: dict[object, list[int]] = {}

    def add_text(self, text: str) -> None:
        """Visible text, its soft hyphens and the zero-width breaks inside its words dropped
        (``without_word_breaks``); what is protected in it (URLs, e-mail addresses, file names) becomes atoms."""
        text = without_word_breaks(text.replace(SOFT_HYPHEN, ""))
        for k, piece in enumerate(kept_parts(text, self.kept, self.text)):
            if k % 2:
                add_kept_spacing(self, piece)
            else:
                self._add_protected(after_line_mark(self, piece))

    def _add_protected(self, text: str) -> None:
        position = continued_address(self, text)  # "/long" of "https://example.com/very<wbr>/long"
        if position:
            self.add_atom(literal=text[:position])
        for match in self.protected.finditer(text, position):
            start, end = bracketed(text, match.start(), match.end(), position)  # "(a@example.com)" whole
            self._add_plain(text[position:start])
            self.add_atom(literal=text[start:end], parts_words=match.group() in ESCAPED_BREAKS or spaced(match.group()),
                          line_break=ESCAPED_BREAKS.get(match.group(), False))
            closed_up_to_label(self, text, match)  # "Room B12 at noon" reads "Room at noon", the code after "Room"
            position = end
        self._add_plain(text[position:])

    def _add_plain(self, text: str) -> None:
        written = COLLAPSED.match(text) if self.collapse else None
        self.ended_as = text[len(text.rstrip(" \t\n\f\r")):] if self.collapse and text else self.ended_as
        if self.collapse:
            text = COLLAPSED.sub(" ", text)
        text = comma_taken_along(self, text)  # "Tel.: +49 30 1234567, Fax:" reads "Tel.: Fax:"
        if not text:
            return
        space_closed_up(self, text)  # "Visit https://example.org, then" reads "Visit, then"
        for atom in self.pending_atoms:
            atom.space_after, atom.glued_after = text[0].isspace(), text[0].isalnum()
            atom.space_after_as = written.group() if written and LINE_END.search(written.group()) else " "
        after_atom, self.pending_atoms = self.pending_atoms[-1:], []  # an element opened since too: "{url}<b> a</b>"
        text = taken_after(self, after_atom, text)  # "https://a.example&nbsp;now" reads "now" (atom_no_breaks)
        if not text:
            return
        if self.gap and not text[0].isspace() and self.text and not self.text[-1].isspace():
            text = spaced_after_break(self, text)  # the words either side of a line break stay two words
        self.gap = False
        # After whitespace, drop the piece's first blank: collapsed text keeps single spaces, and a protected span
        # taken out leaves no double space.  Only a lone blank, which the atom gives back (Mark.space_after): of two,
        # one was lost where nothing writes it back, before any words ("{0}  items") and between sentences ("Done.
        # {0}  Next one."); nor a line's end after an atom on a line of its own ("Done.\n{0}\nNext one.").
        if self.collapse and text[0] == " " and (not self.text or self.text[-1] == " "):
            text = text[1:]
        elif (not self.collapse and after_atom and text[0].isspace() and (not self.text or self.text[-1].isspace())
              and not text[1:2].isspace() and not (LINE_END.match(text[0]) and LINE_END.match(self.text[-1:]))
              and (self.text.strip() or text[0] == " ")):
            if not LINE_END.match(text[0]):  # a no-break space ("{0}&#160;MB") or a tab is written back as it was
                after_atom[0].space_after_as = text[0]
            text = text if space_kept_inside(self, after_atom[0]) else text[1:]  # a tracked insertion's own
        if self.fields:
            self.breaks += [len(self.text) + m.start() for m in FIELD_END.finditer(text)]
        self.text += text

    def open(self, node: Any, keeps_edge_spaces: bool = False, initial: bool = False) -> None:
        """An element starts here; ``keeps_edge_spaces``: Mark.keeps_edge_spaces; ``initial``: Mark.initial."""
        self.marks.append(Mark(len(self.text), len(self.text), self._parent(), node,
                               keeps_edge_spaces=keeps_edge_spaces, initial=initial))
        self.open_marks.append(len(self.marks) - 1)

    def close(self) -> None:
        self.marks[self.open_marks.pop()].end = len(self.text)

    def add_atom(self, node: Any = None, literal: str = "", parts_words: bool = False,
                 range_edge: tuple[object, bool] | None = None, ends_sentence: bool = False,
                 reference: bool = False, hidden: bool = False, line_break: bool = False,
                 shown: str | None = None) -> None:
        """Something kept whole at this point; ``parts_words``: it separates the words around it
        (a line break), so "one<br>two" reads as two words; ``range_edge``: (a key, whether this is
        the start) where the atom starts or ends a range (a comment's anchor, a bookmark), whose end
        ``place`` keeps after its start; ``ends_sentence``: no sentence goes on past it (a tab
        between fields: "Name: John Smith<tab/>Date: 12 March"); ``reference``: it refers to a note
        (Mark.reference); ``hidden``: a reader sees none of its text (an OpenDocument editor's
        note), so it shows none, as a hidden Word run shows none (shown_text); ``line_break``: it stands
        for a line break its tag is none of LINE_BREAKS (XLIFF's ``<x ctype="lb"/>``), which ends its
        sentence as theirs do (ended_lines); ``shown``: what a reader sees of it in its line (Mark.shown),
        where its reader knows better than shown_text (a Word run hidden by its styles)."""
        self.gap = self.gap or parts_words
        if ends_sentence:
            self.breaks.append(len(self.text))
        line_break = line_break or (isinstance(node, etree._Element) and node.tag in LINE_BREAKS)
        if line_break:
            self.line_breaks.append(len(self.text))
        touching = bool(self.pending_atoms)  # right after another atom, no text between them
        for earlier in self.pending_atoms:
            earlier.space_after = earlier.glued_after = False
        self.pending_atoms = []
        written_before = ("" if touching else taken_before(self)) or self.ended_as  # "to&nbsp;https://…" reads "to "
        before = not touching and (not self.text or self.text[-1].isspace())
        atom = Mark(len(self.text), len(self.text), self._parent(), node, True, literal, space_before=before,
                    parts_words=parts_words, line_break=line_break, space_before_as=written_before or " ",
                    shows_text=bool(literal) or (not hidden and (has_text_of_its_own(node) if shown is None
                                                                 else bool(shown.strip()))),
                    glued_before=not touching and self.text[-1:].isalnum(), reference=reference, shown=shown)
        if range_edge is not None:
            key, starts = range_edge
            if starts:
                self.range_starts.setdefault(key, []).append(len(self.marks))
            elif self.range_starts.get(key):
                atom.opened_by = self.range_starts[key].pop()
        self.marks.append(atom)
        self.pending_atoms.append(atom)
        if line_break or atom.shows_text:  # a bookmark after a line break still leaves its line to start
            self.line_start = len(self.text) if line_break else None

    def _parent(self) -> int | None:
        return self.open_marks[-1] if self.open_marks else None

    def build(self) -> FlatText:
        """The FlatText; its breaks those added and the line breaks that end a sentence (ended_lines); a name joined
        by "&" that its marks part taken out whole (split_names), where ``protected`` keeps one."""
        from attnmt.documents.split_names import take_out_split_names  # which builds this module's marks

        ends = sorted((set(ended_lines(self.text, self.line_breaks)) | self.listed) - set(self.breaks))
        flat = FlatText(self.text, self.marks, breaks=sorted({*self.breaks, *ends}), line_ends=ends)
        self.moved = take_out_split_names(flat, self.protected)
        return flat

    def place(self, at: int) -> int:
        """Where place ``at`` of the text read (``self.text``) is in the text built: a name joined by "&" that
        its marks part taken out before it (attnmt.documents.split_names)."""
        return self.moved(at)


def spaced(literal: str) -> bool:
    """Whether a protected span is a space written as its code (ESCAPED_CODE: ``\\u00A0``)."""
    code = ESCAPED_CODE.fullmatch(literal)
    return code is not None and chr(int(code.group(1), 16)).isspace()


def shown_atom(mark: Mark) -> str:
    """What a reader sees of an atom in its line: a line break as a space, whatever its vocabulary
    calls it (XLIFF's ``<x ctype="lb"/>`` and ``<ph ctype="lb">&lt;br&gt;</ph>`` are none of
    SHOWN_AS_SPACE: read by their tags, they showed as nothing and as ``<br>``), else atom_text's."""
    return " " if mark.line_break else atom_text(mark)


def atom_text(mark: Mark) -> str:
    """The text an atom shows in its line: what its reader decided a reader sees of it (Mark.shown: a Word run
    its styles hide shows none, nor a tab or a break in it; a spreadsheet header's ``&P`` its page), else its
    ``literal`` (a protected span), else its node's shown_text."""
    if mark.shown is not None:
        return mark.shown
    return mark.literal or shown_text(mark.node)


def has_words_outside(block: etree._Element, node: etree._Element) -> bool:
    """Whether ``block`` holds words outside ``node``, one of the elements in it (comments aside):
    ``means`` in ``<p>The word <i lang="fr">plage</i> means beach</p>``; none in ``<p><span
    lang="de">A dog runs.</span></p>``."""
    inside = set(node.iter())
    texts = [block.text or ""]
    for element in block.iterdescendants():
        if element not in inside and not callable(element.tag):
            texts.append(element.text or "")
        if element is node or element not in inside:
            texts.append(element.tail or "")
    return has_words("".join(texts))


def is_stop(text: str) -> bool:
    """Whether ``text`` shows a sentence's stop and nothing else but spaces (``.``, ``. !``, ``؟``)."""
    return bool(text.strip()) and all(character.isspace() or character in SENTENCE_ENDS for character in text)


def is_punctuation(ch: str) -> bool:
    """Whether the character ``ch`` is punctuation (a Unicode category P: stops, commas, quotes, brackets)."""
    return unicodedata.category(ch).startswith("P")


def parted(results: Sequence[T], groups: Iterable[Sized]) -> list[list[T]]:
    """``results`` cut into consecutive runs, one as long as each of ``groups``: the results of flat
    texts translated in one pass, given back to the jobs (or parts) whose texts they were."""
    runs, first = [], 0
    for group in groups:
        runs.append(list(results[first:first + len(group)]))
        first += len(group)
    return runs


def pairs(flats: Sequence[FlatText], sentences: Sequence[list[tuple[int, int]]]):
    """(flat text, sentence span) for every sentence, in order."""
    return [(flat, span) for flat, spans in zip(flats, sentences, strict=True) for span in spans]
