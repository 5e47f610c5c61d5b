"""What the model reads of a plain text's lines, and how what it writes goes back onto lines.

A hard-wrapped paragraph (attnmt.documents.hard_wrap) is read whole and filled again to its width, an e-mail's
subject is read after its key and folded again, its other headers, a reply's attribution lines and a forwarded
message's line above its headers are kept as written (attnmt.documents.mail_headers), so is a line typed at a
prompt (attnmt.documents.prompt_lines), a fenced code block (attnmt.documents.code_fences), an indented one
(attnmt.documents.indented_code) and a command alone on its line (attnmt.documents.command_lines), a quoted line is
read after its quote marks (``Quoted``), and every other line alone.  A text file (attnmt.documents.plain_text) and
the server's plain text (a LibreTranslate client's ``q``, often a whole e-mail or a textarea's text:
pipeline.translate_paragraphs and paragraph_spans) are read so, by the same ``TextUnits``.

    units = text_units(lines, rewrap)  ->  units.texts (what the model reads), units.starts (each one's first line)
    units.groups(translations)  ->  each line's output lines (a paragraph's with its last)
    split_lines(text)  ->  its lines and their endings;  lines_written(groups, endings)  ->  them written back
    read_text(text, rewrap)  ->  (units, endings);  text_written(units, endings, translations)  ->  the text
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.code_fences import fenced_lines
from attnmt.documents.command_lines import command_lines
from attnmt.documents.hard_wrap import Wrapped, filled, indent_of, joined, wrapped_paragraphs
from attnmt.documents.indented_code import indented_lines
from attnmt.documents.mail_headers import Header, attributions, mail_headers, separators, signatures
from attnmt.documents.prompt_lines import prompt_lines


@dataclass(frozen=True)
class Quoted:
    """A line of a quoted reply read alone, ``start``: the model reads its text without its quote ``marks`` (``> ``,
    ``> > ``, a ``>`` glued to the text), which go back before its translation.  Read with them, the marks were
    the model's to write or drop (``> - a dog runs.`` came back ``> Ein Hund rennt ...``, its list's mark lost;
    ``>A woman is reading a book.`` without its ``>``)."""

    start: int
    marks: str

    @property
    def end(self) -> int:
        return self.start + 1


@dataclass(frozen=True)
class TextUnits:
    """A plain text's ``lines`` as the model reads them: ``spans``, the paragraphs and subjects read whole (by
    their first line), ``kept``, the lines kept as written, and ``inside``, the lines a span reads after its first."""

    lines: Sequence[str]
    spans: dict[int, Wrapped | Header | Quoted]
    kept: set[int]
    inside: set[int]

    @property
    def starts(self) -> list[int]:
        """The line each text the model reads starts on: a span's first, or a line read alone."""
        return [k for k in range(len(self.lines)) if k not in self.inside | self.kept]

    @property
    def texts(self) -> list[str]:
        """What the model reads, a text per start: a span's text (``text_of``) or the line as it is."""
        return [text_of(self.lines, self.spans[k]) if k in self.spans else self.lines[k] for k in self.starts]

    def groups(self, translations: Sequence[str]) -> list[list[str]]:
        """The output lines of each line, from the translation of each of ``texts``: a span's all with its last
        line (``written``; as written where its translation is its text, every sentence kept its source), none
        with its others, a line read alone its translation, a line kept itself."""
        groups = [[] if k in self.inside else [line] for k, line in enumerate(self.lines)]
        for k, text, translation in zip(self.starts, self.texts, translations, strict=True):
            if (span := self.spans.get(k)) is None:
                groups[k] = [translation]
            else:
                own = self.lines[k:span.end]
                groups[k], groups[span.end - 1] = [], list(own) if translation == text else written(translation,
                                                                                                    span, own)
        return groups


def text_units(lines: Sequence[str], rewrap: bool = True) -> TextUnits:
    """``lines`` (without their endings) as the model reads them: each hard-wrapped paragraph whole
    (``wrapped_paragraphs``), a quoted line of none without its quote marks (``Quoted``; neither where ``rewrap``
    is false), an e-mail's headers (``mail_headers``, each with the lines it is folded onto but where ``rewrap``
    is false), a subject's text after its key, the others, a reply's ``attributions``, a forwarded message's
    ``separators``, a signature (``signatures``), the lines typed at a prompt (``prompt_lines``), a fenced code
    block's (``fenced_lines``), an indented one's (``indented_lines``) and a command alone (``command_lines``) kept as
    written."""
    headers = mail_headers(lines, folded=rewrap)
    kept = attributions(lines) | separators(lines, headers) | signatures(lines) | prompt_lines(lines)
    kept |= fenced_lines(lines) | indented_lines(lines) | command_lines(lines)
    kept |= {k for header in headers if not header.value for k in range(header.start, header.end)}
    spans: dict[int, Wrapped | Header | Quoted] = {header.start: header for header in headers if header.value}
    taken = kept | {k for span in spans.values() for k in range(span.start, span.end)}
    if rewrap:
        spans |= {paragraph.start: paragraph for paragraph in wrapped_paragraphs(lines)
                  if taken.isdisjoint(range(paragraph.start, paragraph.end))}
        taken |= {k for span in spans.values() for k in range(span.start, span.end)}
        spans |= {k: Quoted(k, marks) for k, line in enumerate(lines)
                  if k not in taken and (marks := quote_marks(line))}
    return TextUnits(lines, spans, kept, {k for span in spans.values() for k in range(span.start + 1, span.end)})


def read_text(text: str, rewrap: bool = True) -> tuple[TextUnits, list[str]]:
    """A text of one or more lines (a server's: a LibreTranslate client's ``q``, a textarea's or an e-mail's
    text) as the model reads it (``text_units``), and its lines' endings (``split_lines``); a text of one line
    read as it is, a client's sentence or a list's entry, whatever it holds (``Subject: ...``), but for a line typed
    at a prompt (``prompt_lines``: ``>>> print('hello')``) and a command alone (``command_lines``: ``npm install
    express``), kept as code."""
    lines, endings = split_lines(text)
    if len(lines) > 1:
        return text_units(lines, rewrap), endings
    return TextUnits(lines, {}, prompt_lines(lines) | command_lines(lines), set()), endings


def text_written(units: TextUnits, endings: Sequence[str], translations: Sequence[str]) -> str:
    """The text ``read_text`` read as ``units`` and ``endings``, from the translation of each of ``units.texts``:
    its lines (``TextUnits.groups``) each ending as its line did (``lines_written``)."""
    lines, ends = lines_written(units.groups(translations), endings)
    return "".join(line + end for line, end in zip(lines, ends or [], strict=True))


def quote_marks(line: str) -> str:
    """The quote marks a line of text starts with, and the spaces around them (``> ``, `` > > ``: indent_of), or
    "" where it starts with none or holds nothing after them."""
    marks = indent_of(line)
    return marks if ">" in marks and line[len(marks):].strip() else ""


def text_of(lines: Sequence[str], span: Wrapped | Header | Quoted) -> str:
    """What the model reads of a paragraph (``joined``), a subject (its value) or a quoted line (after its marks)."""
    if isinstance(span, Quoted):
        return lines[span.start][len(span.marks):]
    return span.value if isinstance(span, Header) else joined(lines, span)


def written(translation: str, span: Wrapped | Header | Quoted, lines: Sequence[str]) -> list[str]:
    """A paragraph's ``translation`` filled again as its source ``lines`` were (``with_line_ends``), a quoted
    line's after its marks, or a subject's after its key: on its one line, or folded again onto its lines'
    indentation within its width."""
    if isinstance(span, Quoted):
        return [span.marks + translation]
    if isinstance(span, Wrapped):
        return with_line_ends(filled(translation, span), lines)
    if span.end - span.start == 1:
        return [span.key + translation]
    return filled(translation, Wrapped(span.start, span.end, span.key, span.indent, span.width))


def with_line_ends(filled_lines: list[str], lines: Sequence[str]) -> list[str]:
    """A paragraph's ``filled_lines`` ending as its source ``lines`` did: its last as their last, with the
    spaces after its text, and the others with the spaces their others share.  A format=flowed e-mail's
    (RFC 3676) ends each line but a paragraph's last in a space, a soft break its reader fills again to
    its window: dropped, the translation's lines would be fixed where the source's flowed."""
    def end(line: str) -> str:
        return line[len(line.rstrip()):]

    soft = {end(line) for line in lines[:-1]}
    inner = soft.pop() if len(soft) == 1 else ""
    return [line + inner for line in filled_lines[:-1]] + [filled_lines[-1] + end(lines[-1])]


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """A plain text's lines without their endings, and each line's ending: "\\r\\n" or "\\n", and ""
    for the last (with_endings puts them back)."""
    lines = text.split("\n")
    endings = ["\r\n" if line.endswith("\r") else "\n" for line in lines[:-1]] + [""]
    return [line.removesuffix("\r") if ending else line for line, ending in zip(lines, endings, strict=True)], endings


def lines_written(groups: Sequence[list[str]], endings: Sequence[str] | None) -> tuple[list[str], list[str] | None]:
    """``TextUnits.groups``' output lines and their endings, for attnmt.text.data.with_endings: each
    line ending as its input line did (``endings``, a file's own), a paragraph's as its lines did, its last
    as its last did (a file's last line may have none); a line past ``endings`` in LF, and None (a stream's
    lines, all in LF) kept None."""
    lines = [line for group in groups for line in group]
    if endings is None:
        return lines, None

    def ending(k: int) -> str:
        return endings[k] if k < len(endings) else "\n"

    # a group of several lines is a paragraph's, with its last line: the line before it is in it too
    return lines, [end for k, group in enumerate(groups)
                   for end in [*[ending(k - 1)] * (len(group) - 1), *[ending(k)][:len(group)]]]
