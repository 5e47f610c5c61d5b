"""Review comments whose text is plain, with no runs in it: PowerPoint's comments (``p:cm``'s
``p:text``), Excel's threaded comments (``threadedComment``'s ``text``), and the note Excel keeps
beside each thread for its older versions.  (PowerPoint's modern comments hold DrawingML
paragraphs, and Excel's classic notes runs: those are attnmt.documents.ooxml's paragraphs.)

A comment's lines are its paragraphs: each is translated as a line of a text file is, its
spacing kept, URLs, e-mail addresses and file names kept as they are, and a pair of quotes around words inside a
sentence read as a cell's are (``QuotedText``).  An @mention in a threaded comment
(``mention``: its ``startIndex`` and ``length`` in the text, counted in UTF-16 code units, as
Excel counts) is kept as it is, placed as a tag is (attnmt.documents.spans), and its
``startIndex`` set to where it landed.

Excel's own note begins with its author's name, a label in a run of its own (bold, "Anna
Smith:"), then the note on the next line: the label, a name and not words, is kept as it is
(``LabelledNote``), as ``authors`` are; LibreOffice's run that goes on after the label and a line
break is cut in two there first (``split_label``).

Excel's note beside a thread (its author ``tc={the thread's id}``) is a fixed preamble, then
``Comment:`` and the thread's text and ``Reply:`` and each reply's, indented.  Translated line
by line too, its lines say what the thread's say: each of the thread's mentions is an atom in the
note where its line of the thread stands there (``ThreadNote``), so that line is the same sentence
as the thread's, translated once.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import PROSE_PROTECTED
from attnmt.documents.archive import Job, Part
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.letterless import Shown, needs_translation
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import CELL_COMMENT, s
from attnmt.documents.spans import Nested
from attnmt.documents.word_quotes import QuoteBuilder
from attnmt.documents.xstring import escape, replace_text, text_in, unescape

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
THREADED = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"
THREAD_AUTHOR = "tc="  # how the author of Excel's note beside a thread begins
MENTION = f"{{{THREADED}}}mentions/{{{THREADED}}}mention"  # a threaded comment's mentions, below it


def threaded(name: str) -> str:
    return f"{{{THREADED}}}{name}"


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utf16_offsets(text: str) -> dict[int, int]:
    """Python index of each UTF-16 offset that falls between characters of ``text`` (its end too)."""
    offsets, units = {}, 0
    for index, ch in enumerate(text):
        offsets[units] = index
        units += 2 if ord(ch) > 0xFFFF else 1
    offsets[units] = len(text)
    return offsets


class TextJob:
    """One element of plain text, line by line, the ``mentions`` in it kept (the module docstring);
    ``escaped``: its text escapes what XML cannot hold (a SpreadsheetML ``<t>``: attnmt.documents.xstring).
    ``protected``: what in it passes through untranslated (URLs, e-mail addresses, file names, a name joined by "&":
    PROSE_PROTECTED, as a page's text keeps them)."""

    protected = PROSE_PROTECTED
    reader: type[FlatBuilder] = FlatBuilder  # what reads each line (a note's reads its quotes: LabelledText)

    def __init__(self, element: etree._Element, mentions: Sequence[etree._Element] = (), escaped: bool = False) -> None:
        self.element, self.escaped = element, escaped
        self.text = text = unescape(self.written()) if escaped else self.written()
        self.mentions = mention_spans(text, mentions)
        self.lines = self.flat_lines()

    def flat_lines(self) -> list[FlatText]:
        """The text's lines, each of its ``mentions`` (in order) an atom in its line."""
        lines, start = [], 0
        for line in self.text.split("\n"):
            end = start + len(line)
            builder, position = self.reader(collapse=False, protected=self.protected), start
            for mention, (first, last) in self.mentions.items():
                if start <= first and last <= end:
                    builder.add_text(self.text[position:first])
                    builder.add_atom(node=mention)
                    position = last
            builder.add_text(self.text[position:end])
            lines.append(builder.build())
            start = end + 1
        return lines

    def written(self) -> str:
        """The text as the part holds it: the element's (a data validation's message, an attribute:
        attnmt.documents.validations): a comment in the element skipped (xstring.text_in)."""
        return text_in(self.element)

    def write(self, text: str) -> None:
        """``text`` where ``written`` read it."""
        replace_text(self.element, text)

    def flats(self) -> list[FlatText]:
        return self.lines

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        old = self.text
        text, starts = "", {}
        for number, (flat, content) in enumerate(zip(self.lines, results, strict=True)):
            text += "\n" if number else ""
            for piece in content:
                if isinstance(piece, str):
                    text += piece
                    continue
                mention = flat.marks[piece.mark].node
                first, last = self.mentions[mention]
                starts[mention] = utf16_length(text)
                text += old[first:last]
        self.write(escape(text) if self.escaped else text)
        self.place_mentions(starts)

    def place_mentions(self, starts: dict[etree._Element, int]) -> None:
        """Each mention's ``startIndex`` set to where it landed, in UTF-16 units."""
        for mention, start in starts.items():
            mention.set("startIndex", str(start))


def mention_spans(text: str, mentions: Sequence[etree._Element]) -> dict[etree._Element, tuple[int, int]]:
    """Each mention's [start, end) in ``text``, in order; a mention that runs past the text, over a
    line's end or into the one before it is left out (its words are translated as text)."""
    offsets = utf16_offsets(text)
    read = [(written_whole_number(m.get("startIndex", "")), written_whole_number(m.get("length", "")), m)
            for m in mentions]
    found = [(start, length, m) for start, length, m in read if start is not None and length is not None]
    spans: dict[etree._Element, tuple[int, int]] = {}
    previous = 0
    for start, length, mention in sorted(found, key=lambda each: each[0]):
        first, last = offsets.get(start), offsets.get(start + length)
        if first is None or last is None or first < previous or "\n" in text[first:last]:
            continue
        spans[mention] = (first, last)
        previous = last
    return spans


class QuotedText(TextJob):
    """A comment's plain text, its quotes inside a sentence read as a cell's string's are (word_quotes.QuoteBuilder),
    written in the target language's form around their translation (office.job_results): read as words, a threaded
    comment's and PowerPoint's ``The man said "hello" to me.`` went to the model with its marks, and came back with
    them straight where the same cell's came back with German's ``„hallo“``."""

    reader = QuoteBuilder


@dataclass(frozen=True)
class PlainComments:
    """A part whose comments are ``element``s of plain text (PowerPoint's ``p:text``)."""

    element: str

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        return [QuotedText(element) for element in root.iter(self.element)
                if needs_translation(text_in(element), glossary)]


class ThreadedComments:
    """Excel's threaded comments: each ``threadedComment``'s ``text``, its mentions kept."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        jobs: list[Job] = []
        for comment in root.iter(threaded("threadedComment")):
            text = comment.find(threaded("text"))
            if text is not None and needs_translation(text_in(text), glossary):
                jobs.append(QuotedText(text, comment.findall(MENTION)))
        return jobs


class CellComments:
    """Excel's notes (``comment``'s ``text``): runs, as CELL_COMMENT's paragraphs; the note beside a
    thread, written in one text element, line by line (the module docstring)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        authors = [author.text or "" for author in root.iterfind(f"{s('authors')}/{s('author')}")]
        jobs: list[Job] = []
        for comment in root.iter(s("comment")):
            text = comment.find(s("text"))
            if text is None:
                continue
            number = written_whole_number(comment.get("authorId", ""))
            author = authors[number] if number is not None and number < len(authors) else ""
            elements = [t for t in text.iter(s("t")) if t.getparent().tag != s("rPh")]
            split_label(text, author)
            label = author_label(text, author)
            if author.startswith(THREAD_AUTHOR) and len(elements) == 1:
                job: Job = ThreadNote(elements[0], author.removeprefix(THREAD_AUTHOR))
            elif label is not None:
                job = LabelledNote(text, label)
            elif plain_label(text, author):
                job = LabelledText(text.find(s("t")))
            else:
                job = note_job(text)
            if any(needs_translation(flat.text, glossary, Shown.of(flat)) for flat in job.flats()):
                jobs.append(job)
        return jobs


def note_job(text: etree._Element) -> ParagraphJob:
    """The job of a note's runs, its quotes inside a sentence read as a cell's string's are (word_quotes.QuoteBuilder):
    read as words, ``He said "hello" to me.`` came back from the demo model with its marks astray."""
    return ParagraphJob(text, CELL_COMMENT, reader=QuoteBuilder)


class ThreadNote(QuotedText):
    """Excel's note beside the thread whose id is ``thread`` (the module docstring); its mentions
    are the thread's, taken once the thread's part is read (``follow_threads``), and its quotes read as the thread's."""

    def __init__(self, element: etree._Element, thread: str) -> None:
        super().__init__(element, escaped=True)
        self.thread = thread

    def take_mentions(self, comments: Sequence[etree._Element]) -> None:
        """Each mention of the thread's ``comments`` (``threadedComment``s: its first and its replies,
        in order) an atom where its line of the thread stands in the note, after the lines found
        before it; a line the note does not hold leaves its mentions out (their words translated)."""
        self.mentions, cursor = {}, 0
        for comment in comments:
            text = comment.findtext(threaded("text")) or ""
            found: dict[int, int] = {}  # a mentioning line's start in the thread -> its start in the note
            for mention, (first, last) in mention_spans(text, comment.findall(MENTION)).items():
                start, end = text.rfind("\n", 0, first) + 1, text.find("\n", last)
                line = text[start:] if end < 0 else text[start:end]
                at = -1 if start in found else self.text.find(line, cursor)
                if at >= 0:
                    found[start], cursor = at, at + len(line)
                if start in found:
                    self.mentions[mention] = (found[start] + first - start, found[start] + last - start)
        self.lines = self.flat_lines()

    def place_mentions(self, starts: dict[etree._Element, int]) -> None:
        """Nothing: the mentions' places are the thread's, which its own job sets."""


def follow_threads(parts: Sequence[Part]) -> None:
    """Each note beside a thread (a ``ThreadNote`` among ``parts``' jobs) given its thread's mentions,
    from the workbook's threaded comments parts, before any is translated."""
    roots = [part.tree.getroot() for part in parts]
    comments: dict[str, list[etree._Element]] = {}
    for root in (root for root in roots if root.tag == threaded("ThreadedComments")):
        for comment in root.iter(threaded("threadedComment")):
            comments.setdefault(comment.get("parentId") or comment.get("id") or "", []).append(comment)
    for job in (job for part in parts for job in part.jobs):
        if isinstance(job, ThreadNote) and job.thread in comments:
            job.take_mentions(comments[job.thread])


def author_label(text: etree._Element, author: str) -> etree._Element | None:
    """The note's first run where it is its author's name and a colon alone (``Anna Smith:``,
    as Excel writes a note), else None."""
    first = text.find(s("r"))
    shown = "" if first is None else "".join(unescape(text_in(t)) for t in first.iter(s("t")))
    return first if author and shown.strip() == f"{author}:" else None


def split_label(text: etree._Element, author: str) -> None:
    """The note's first run cut in two where it goes on after its author's label and a line break, the label's run
    first and both in its look, so the label is a run of its own as Excel writes it (``author_label``): LibreOffice
    writes a note's lines in one run, "Peter Brown:\nThe customer called.", or the label's run with the break,
    "Anna Smith:\n", and the demo model wrote the label "Ein braunhaariger Mann:"."""
    first = text.find(s("r"))
    shown = None if first is None else first.find(s("t"))
    if not author or shown is None or len(first.findall(s("t"))) != 1:
        return
    label, newline, rest = text_in(shown).partition("\n")
    if not newline or unescape(label).strip() != f"{author}:":
        return
    label_run = deepcopy(first)
    replace_text(label_run.find(s("t")), label)
    replace_text(shown, newline + rest)
    first.addprevious(label_run)


def plain_label(text: etree._Element, author: str) -> bool:
    """Whether the note is one text with no runs (as openpyxl and other tools write a note) whose first line is its
    author's name and a colon alone (``Anna Smith:``), the label Excel writes in a run of its own."""
    only = text.find(s("t"))
    return (bool(author) and only is not None and text.find(s("r")) is None
            and unescape(text_in(only)).split("\n", 1)[0].strip() == f"{author}:")


class LabelledText(QuotedText):
    """A note of one text whose first line is its author's label (``plain_label``): the label an atom kept as it
    is, as LabelledNote's run is (the demo model wrote "Anna Smith:" as "Ein Krühner:"), the lines after it
    translated as a note's are, their quotes inside a sentence read as its runs' (``note_job``)."""

    def __init__(self, element: etree._Element) -> None:
        super().__init__(element, escaped=True)
        end = self.text.find("\n")
        self.mentions = {element: (0, end if end >= 0 else len(self.text))}  # the label's line, an atom
        self.lines = self.flat_lines()

    def place_mentions(self, starts: dict[etree._Element, int]) -> None:
        """Nothing: the label is no mention, and has no place to set."""


class LabelledNote:
    """Excel's note that begins with its author's label (``author_label``): the label kept as it
    is, the runs after it translated as a note's are (a ParagraphJob of the note without it)."""

    def __init__(self, text: etree._Element, label: etree._Element) -> None:
        self.text, self.label, self.at = text, label, text.index(label)
        text.remove(label)
        self.job = note_job(text)
        text.insert(self.at, label)

    def flats(self) -> list[FlatText]:
        return self.job.flats()

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        self.text.remove(self.label)
        self.job.finish(results)
        self.text.insert(self.at, self.label)


POWERPOINT_COMMENTS = PlainComments(f"{{{P}}}text")
THREADED_COMMENTS = ThreadedComments()
CELL_COMMENTS = CellComments()
QuotedComment = LabelledNote | QuotedText  # no ParagraphJob, but its quotes are read (office.job_results)
