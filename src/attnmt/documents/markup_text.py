"""A page's text (HTML's, a Markdown paragraph's) read as a line of plain text is (attnmt.documents.pipeline.flat_line)
where the two hold the same things: quotes around words inside a sentence, a program's call, a shell command alone.

The demo model read a page's ``<p>She said "hello" to him.</p>`` with its quotes as words and wrote ``<p>Sie ist mit
der Aufschrift „S“ zu sehen.</p>``, where the same line of a text file came back with its quote around "hallo"; and
``<p>Call print("hi") to test.</p>`` lost its call.  So a page's text reads its quotes as a text line does
(attnmt.documents.text_emphasis.Quote, written in the target language's form: attnmt.documents.quote_forms), keeps a
call whole (attnmt.decoding.protected.CALL), and a block's text that is a shell command alone
(attnmt.documents.command_lines: ``<p>npm install express</p>``, which came back ``Auf diesem Firmen``) stays as
written: on a file, LibreTranslate's ``format=html`` and DeepL's ``tag_handling=html`` alike.  Not XML's text, whose
quotes are its data's, nor what a page shows as code (``<code>``, ``<pre>``, ``<script>``: never read as text); a
quote around an element's words is read (``<b>"hello"</b>``), and so is one whose words hold an element
(``"<b>hello</b> there"``: attnmt.documents.split_quotes)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from attnmt.decoding.protected import CALL
from attnmt.documents.command_lines import command_lines, is_command
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.quote_forms import commas_outside, quotes_in_target_form
from attnmt.documents.spans import Nested
from attnmt.documents.split_quotes import with_split_quotes
from attnmt.documents.terminal_codes import Style, shows_alone
from attnmt.documents.text_emphasis import add_emphasized, quote, stops_after_quotes


class PageBuilder(FlatBuilder):
    """A FlatBuilder of a page's text: each pair of quotes around words inside a piece of it a ``Quote`` element
    (text_emphasis.add_emphasized with ``quote()`` alone: a page's emphasis is its elements', never ``*`` typed), and a
    program's call, with what ``protected`` keeps, passed through untranslated."""

    def __init__(self, protected: re.Pattern[str], collapse: bool = True, fields: bool = False) -> None:
        super().__init__(collapse, fields, with_calls(protected))
        self.in_code = protected  # what a word of code read with its sentence keeps (add_code)
        self.calls = self.protected

    def add_text(self, text: str) -> None:
        if self.open_marks and self.marks[self.open_marks[-1]].kept_whole:
            self.add_code(text)
            return
        position = 0
        for start, end in self.command_spans(text):  # each kept whole, as a URL is
            self.add_words(text[position:start])
            self.add_atom(literal=text[start:end], ends_sentence=True)  # no sentence runs on over a line of code
            position = end
        self.add_words(text[position:])

    def add_words(self, text: str) -> None:
        # a quote around all of a piece after words or inside an element (<b>"hello"</b>) is no sentence's edges
        add_emphasized(self, text, FlatBuilder.add_text, quote(), edges=not (self.text.strip() or self.open_marks))

    def add_code(self, text: str) -> None:
        """The text of an element kept whole and read with its sentence (``<code>len()</code>``: Mark.kept_whole),
        as FlatBuilder reads it: a call or quotes there are the code's, which the model reads as written."""
        calls = self.protected
        if calls is self.calls:  # not what a caller set for it (kept_names.add_as_written: nothing taken out)
            self.protected = self.in_code
        FlatBuilder.add_text(self, text)
        self.protected = calls

    def command_spans(self, text: str) -> list[tuple[int, int]]:
        """The [start, end) of each line of ``text`` that is a shell command alone of more than a name
        (is_command_block) where a text line's would be one (command_lines.command_lines: after a line that ends with
        a colon or a sentence's stop, or after another command, which is kept out of the text): one after a line
        break (``Run this:<br>pip install attnmt``; read as words, the demo model wrote ``Fäntzen``), and one on a
        line of its own in the source (a Markdown paragraph's ``Run this:`` / ``pip install attnmt``).  A piece's text
        is read up to the next element: ``<br>npm start <b>now</b>`` keeps ``npm start``."""
        lines = text.split("\n")
        last = self.marks[-1] if self.marks else None
        after_break = last is not None and last.line_break and last.start == len(self.text)
        if len(lines) == 1 and not after_break:  # the paragraph's text so far read once, not once a piece
            return []
        found = command_lines(lines) - {0}
        if after_break and is_command(lines[0]):  # the line before: what was read since the break before it
            before = self.text[self.line_breaks[-2] if len(self.line_breaks) > 1 else 0:].rstrip()
            found |= {0} if not before or before.endswith((":", ".", "!", "?")) else set()
        spans, start = [], 0
        for k, line in enumerate(lines):
            if k in found and len(line.split()) > 1:
                spans.append((start + len(line) - len(line.lstrip()), start + len(line.rstrip())))
            start += len(line) + 1
        return spans

    def build(self) -> FlatText:
        """The FlatText, a quote whose words an element parts read as one (split_quotes)."""
        return with_split_quotes(super().build(), self.calls)


@cache
def with_calls(protected: re.Pattern[str]) -> re.Pattern[str]:
    """``protected`` with a program's call first (``console.log(x)`` whole, not its name's file-like parts)."""
    return re.compile(f"{CALL}|{protected.pattern}")


def is_command_block(text: str, whole: bool) -> bool:
    """Whether ``text``, a page's block's text, ``whole`` where no element stands in it, is a shell command alone
    (command_lines.is_command: ``<p>npm install express</p>``), kept as written as a text line's is; with what it is
    given only: a table's cell or a list's item of a name alone (``cd``, ``git``) is a label.  Its source's text is
    read, as a text line's, where the model's would lack its paths and its quotes (``cd ~/projects``)."""
    return whole and len(text.split()) > 1 and is_command(text)


def quotes_placed(flats: Sequence[FlatText], contents: Sequence[Sequence[str | Nested]],
                  target_lang: str | None) -> list[list[str | Nested]]:
    """Each of ``contents``, a translation of the flat text of ``flats`` at its place, with its quotes written as a
    text line's are (pipeline.translate_lines): a stop or a comma that ends a quote's words moved after it
    (text_emphasis.stops_after_quotes), and each ``Style`` spelled as its marks around what it holds (``spelled``),
    as a page writes no element for one."""
    commas = commas_outside(target_lang)
    return [spelled(flat, stops_after_quotes(flat, content, commas)) for flat, content in
            zip(flats, contents, strict=True)]


def quotes_in_form(flats: Sequence[FlatText], target_lang: str | None) -> None:
    """The quotes of each of ``flats`` set, in place, to ``target_lang``'s form (quote_forms.quotes_in_target_form),
    before they are translated."""
    for flat in flats:
        quotes_in_target_form(flat, target_lang)


def spelled(flat: FlatText, content: Sequence[str | Nested]) -> list[str | Nested]:
    """``content`` with each ``Style`` of ``flat`` written as its opening and closing marks around what it holds, as
    text (terminal_codes.written; marks that would show around nothing left out: shows_alone), other marks as
    they are."""
    pieces: list[str | Nested] = []
    for piece in content:
        node = None if isinstance(piece, str) else flat.marks[piece.mark].node
        if isinstance(piece, str) or not isinstance(node, Style):
            pieces.append(piece if isinstance(piece, str) else Nested(piece.mark, spelled(flat, piece.content)))
            continue
        inner = spelled(flat, piece.content)
        around = any(inner) or not shows_alone(node)
        pieces.extend([node.opening, *inner, node.closing] if around else inner)
    return pieces
