"""Lines in, lines out for ``attnmt translate``: input read whole or streamed, output as text, TSV or JSONL.

A file (or a redirected regular file on stdin) is read whole and translated in
length-sorted batches.  A terminal or a pipe is streamed: whatever complete lines
have arrived are translated together and written out, flushed, before the next
read waits, so ``attnmt translate`` can sit at the end of a pipe that stays open.

Input formats: ``text``, a sentence a line; ``jsonl``, a JSON object a line, ``{"text": "…"}``
with, optionally, ``"glossary": {"source term": "target term", …}`` (added to ``--glossary``'s
terms; the line's own win) and ``"prefix": "…"`` (the translation starts with it; instead of
``--prefix``; ``""``: none); a key given as ``null`` is not given (``--glossary`` and ``--prefix``
apply).  A malformed line (one with text that is not valid Unicode, too: JSON's "\\ud800" on its
own) stops with ``file:line`` and what is wrong.  A line the model fails on is named the same way,
its output left empty; the other lines are translated.

Output formats (one output unit per input line, in input order, always):

- ``text``: the best translation, one line per input line (``translation ||| 0-0 1-1 …``
  with ``--alignments``: Pharaoh pairs, source word - target word, counting from 0);
- ``tsv``: one row per hypothesis (none for a line with nothing to translate; a tab, a line
  feed, a carriage return or a backslash in a text written as ``\\t``, ``\\n``, ``\\r``, ``\\\\``,
  any other line break as ``\\u2028``, ``\\u000c``, …):
  ``line<TAB>rank<TAB>score<TAB>log_prob<TAB>translation``
  (``<TAB>alignment`` with ``--alignments``) ``<TAB>quality<TAB>flags``, line and rank counting from 1,
  score = log_prob / length penalty (what beam search ranks by), flags comma-separated ("-": none);
- ``jsonl``: one JSON object per input line: ``{"line": 1, "hypotheses": [{"text": …,
  "score": …, "log_prob": …, "quality": 0.93, "flags": [], "calibrated": true}, …]}``
  (attnmt.decoding.quality), with ``"alignment": "0-0 1-1 …"`` (``--alignments``)
  and ``"confidence": [[piece, probability], …, ["</s>", p]]`` (``--confidence``: the
  probability of each output piece given the ones before it) per hypothesis.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO, TypeVar

from attnmt.cli.formats import check_piped_text
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.glossary_pairs import GivenPairs
from attnmt.decoding.sentence_parts import LINE_ENDS
from attnmt.decoding.translate import Translation
from attnmt.errors import DataError, OutputError, UnreadableJSON, json_value, value_shown, values_shown
from attnmt.files import atomic_file, write_failure
from attnmt.inspect.align import pharaoh
from attnmt.text.data import decode_lines, is_gzip_name, unzipped_name, with_endings
from attnmt.text.encodings import check_encodable
from attnmt.text.json_lines import json_line

FORMATS = ("text", "tsv", "jsonl")
INPUT_FORMATS = ("text", "jsonl")
JSONL_KEYS = ("text", "glossary", "prefix")
CHUNK_BYTES = 1 << 16
T = TypeVar("T")


def is_stream(stream: BinaryIO) -> bool:
    """True for a terminal or a pipe (translate as lines arrive), False for a regular file."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # an in-memory stream: it is all there already
        return False


def line_batches(stream: BinaryIO, source: str = "<stdin>") -> Iterator[list[str]]:
    """The input's lines, all at once from a file, or in the groups they arrive in from a stream."""
    if not is_stream(stream):
        check_piped_text(data := stream.read(), source)
        yield decode_lines(data, source)
        return
    pending, fd, first_line = b"", stream.fileno(), 1
    while True:
        chunk = os.read(fd, CHUNK_BYTES)  # waits for input, then returns what has arrived
        if not chunk:
            break
        if not pending and first_line == 1:  # an office file or a PDF: refused before its first "line"
            check_piped_text(chunk, source)
        pending += chunk
        complete, newline, pending = pending.rpartition(b"\n")
        if newline:
            lines = yield from good_lines_first(complete + newline, source, first_line)
            first_line += len(lines)
            yield lines
    if pending:
        yield (yield from good_lines_first(pending, source, first_line))


def good_lines_first(data: bytes, source: str, first_line: int) -> Iterator[list[str]]:
    """Generator returning ``data``'s lines (decode_lines); where a line is not UTF-8, the whole lines
    before it are yielded first, and then its error raised: a stream's output then holds every
    line before the one named, however the pipe happened to split the input."""
    try:
        return decode_lines(data, source, first_line)
    except DataError:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            whole = data.rfind(b"\n", 0, error.start) + 1
            if whole:
                yield decode_lines(data[:whole], source, first_line)
                decode_lines(data[whole:], source, first_line + data.count(b"\n", 0, whole))
        raise


@dataclass
class Inputs:
    """Input lines as ``attnmt.decoding.translate`` takes them: the texts, and each one's glossary and prefix."""

    texts: list[str]
    glossaries: list[Glossary | None]
    prefixes: list[str | None]

    def extend(self, more: Inputs) -> None:
        self.texts += more.texts
        self.glossaries += more.glossaries
        self.prefixes += more.prefixes

    def adding(self, glossary: Glossary | None) -> Inputs:
        """These inputs with ``glossary``'s terms added to each one's own glossary (its own target
        wins for a term in both), or in place of none."""
        merged = [glossary.merged(own) if glossary and own else own or glossary for own in self.glossaries]
        return Inputs(self.texts, merged, self.prefixes)


def good_inputs_first(read: Callable[[list[str], int], Inputs], lines: list[str],
                      first_line: int) -> tuple[Inputs, DataError | None]:
    """``read(lines, first_line)``, lines first_line, first_line + 1, … as Inputs, read a line at a
    time, and None; where a line is malformed, the Inputs of the lines before it and that line's
    DataError instead, for the caller to translate and write them before raising it: a stream's
    output then holds every line before the one named, however the pipe happened to split the
    input (as good_lines_first does for invalid UTF-8)."""
    good = Inputs([], [], [])
    for number, line in enumerate(lines, start=first_line):
        try:
            good.extend(read([line], number))
        except DataError as error:
            return good, error
    return good, None


def is_jsonl_name(path: str) -> bool:
    """Whether ``path`` names a file of JSONL input: its name ends in .jsonl, also before .gz (as
    attnmt.text.data.read_lines opens it).  ``translate`` reads such a file as --input-format jsonl
    where no format is given, and ``score`` its --src (attnmt.cli.score_sources.source_texts)."""
    return unzipped_name(path).lower().endswith(".jsonl")


def read_inputs(lines: list[str], source: str, first_line: int, glossary: Glossary | None = None,
                prefix: str | None = None, not_json: str = "") -> Inputs:
    """JSONL lines first_line, first_line + 1, … of ``source`` as Inputs (module docstring), with
    ``glossary``'s terms added to a line's own (Inputs.adding) and ``prefix`` where a line has none
    of its own; a key given as null is not given.  A DataError names source:line; ``not_json`` ends
    that of a line that is no JSON, where the caller knows why the lines were read as JSONL (a file's
    .jsonl name, not --input-format: a text file under such a name is refused at its first line).
    (Plain text lines are read as paragraphs: attnmt.cli.document_files.reads_paragraphs.)"""
    inputs = Inputs([], [], [])
    for number, line in enumerate(lines, start=first_line):
        where = f"{source}:{number}"
        item = json_object(line, where, not_json)
        terms = item.get("glossary")
        if terms is not None and not isinstance(terms, dict):
            raise DataError(f'{where}: "glossary" must be an object {{"source term": "target term"}}, '
                            f'got {value_shown(terms)}')
        own = prefix if item.get("prefix") is None else item["prefix"]
        if own is not None and not isinstance(own, str):
            raise DataError(f'{where}: "prefix" must be text, got {value_shown(own)}')
        check_encodable([(f'{where}: "text"', item["text"]), *([(f'{where}: "prefix"', own)] if own else [])])
        inputs.texts.append(item["text"])
        inputs.glossaries.append(Glossary.of(terms, where) if terms else None)  # GivenPairs: json_object's
        inputs.prefixes.append(own)
    return inputs.adding(glossary)


def json_object(line: str, where: str, not_json: str = "") -> dict:
    """One JSONL input line as its object, checked: a "text" string, no unknown keys, none given
    twice (as a glossary's source term given twice is refused: Glossary.of).  ``not_json`` ends the
    error of a line that is no JSON (read_inputs)."""
    if not line.strip():
        return {"text": ""}  # a blank line stays a blank line: one output for it, as in text input
    try:
        item = json_value(line, object_pairs_hook=GivenPairs)  # a glossary's term given twice: refused
    except json.JSONDecodeError as error:
        place = "" if isinstance(error, UnreadableJSON) else f" at character {error.pos}"  # its reader tells no place
        raise DataError(f"{where}: not valid JSON ({error.msg}{place}){not_json}") from None
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise DataError(f'{where}: expected an object with a "text" string, e.g. {{"text": "A dog runs."}}')
    unknown = sorted(set(item) - set(JSONL_KEYS))
    if unknown:
        raise DataError(f"{where}: unknown key(s) {values_shown(unknown)}; the keys are {', '.join(JSONL_KEYS)}")
    keys = [key for key, _ in item.pairs]  # JSON keeps a key's last value, without a word
    if twice := next((key for key in keys if keys.count(key) > 1), None):
        raise DataError(f'{where}: the key "{twice}" is given twice: give each key once')
    return item


@contextmanager
def output(path: str | None) -> Iterator[TextIO]:
    """Where translations go: standard output (``path`` None or "-"), a file written under a
    temporary name and renamed into place at the end (so that a run that fails leaves the
    previous file as it was; gzip-compressed where its name ends in ``.gz``), or a path that is
    not a regular file, written as it is.

    A failed write (a full disk) raises a one-line error naming the output, never a partial
    success; BrokenPipeError (the reader left, as ``| head`` does) passes through."""
    if path not in (None, "-") and not written_in_place(path):
        with atomic_file(Path(path), OutputError) as tmp, open(tmp, "wb") as raw, text_writer(raw, path) as out:
            yield out
        return
    try:
        with open_in_place(path) as out:
            yield out
    except BrokenPipeError:
        raise
    except OSError as error:
        where = path if path not in (None, "-") else "<stdout>"
        raise OutputError(f"could not write {where}: {write_failure(error)}") from None


def print_out(text: str) -> None:
    """``text`` and a line break on standard output, written as ``output`` writes translations: a
    failed write (a full disk, a closed stdout) is one line naming <stdout>, exit status 2, where
    ``print``'s OSError would end the command in a stack trace.  Each command prints its result
    through this.  A reader that has gone (``| head -1``) is no failure: what it did not read is not
    wanted, but the command's work is (the copies ``cache --prune`` removes, the pictures ``attention``
    writes, the model ``demo`` trains), so standard output goes nowhere from then on and the command
    goes on to its end.  (``attnmt translate`` writes only output, and stops where its reader goes.)"""
    try:
        with output(None) as out:
            out.write(f"{text}\n")
    except BrokenPipeError:
        quiet_stdout()


def quiet_stdout() -> None:
    """Standard output's descriptor pointed at /dev/null, as Python's docs advise once its reader has
    gone (EPIPE): every later write to it, the interpreter's flush at exit too, goes nowhere, quietly."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    finally:
        os.close(null)


def text_writer(raw: BinaryIO, path: str) -> TextIO:
    """UTF-8 text into ``raw``: gzip-compressed where ``path`` ends in .gz (as attnmt.text.data.read_lines
    reads it back), the header naming ``path``'s file, not the temporary one it is written as."""
    if not is_gzip_name(path):
        return io.TextIOWrapper(raw, encoding="utf-8")
    packed = gzip.GzipFile(filename=Path(path).name, mode="wb", fileobj=raw)
    return io.TextIOWrapper(packed, encoding="utf-8")


def written_in_place(path: str) -> bool:
    """True for an existing path that is not a regular file (a device, a named pipe, a link such as
    /dev/stdout), where a rename would replace the link or the device itself."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:  # missing, or under something that is no folder: written anew (or refused) as a file
        return False


def open_in_place(path: str | None) -> AbstractContextManager[TextIO]:
    """``path`` opened for writing, or standard output through a buffered writer of its own: where
    sys.stdout is unbuffered (PYTHONUNBUFFERED), its text layer drops the rest of a short write
    (a nearly full disk) without an error, where a buffered writer writes on or raises."""
    if path not in (None, "-"):
        return open(path, "w", encoding="utf-8")
    sys.stdout.flush()
    try:
        return open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)
    except (AttributeError, OSError, ValueError):  # an in-memory stdout (a test's): nothing to drop
        return nullcontext(sys.stdout)


def report_not_translated(where: str, line: int, error: Exception) -> None:
    """Names on stderr an input line the model failed on (its output is left empty) and why."""
    print(f"attnmt: error: {where}:{line}: not translated, the model failed on it ({type(error).__name__}: "
          f"{error}); its output is left empty", file=sys.stderr)


def kept(translating: Callable[[], T], where: str, first_line: int) -> tuple[T, int]:
    """``translating()``'s outputs for input lines first_line, first_line + 1, … (a sentence a line)
    and how many of them the model failed on: each such line is named (report_not_translated)
    and the others keep their translations (attnmt.decoding.failed_sentences.SentencesFailed)."""
    try:
        return translating(), 0
    except SentencesFailed as failed:
        for i, error in failed.failures.items():
            report_not_translated(where, first_line + i, error)
        return failed.outputs, len(failed.failures)


def line_by_line(translating: Callable[[list[str]], list[T]], lines: list[str], where: str,
                 first_line: int, lost: T = "") -> tuple[list[T], int]:
    """``translating(lines)``, one output per line; where the model fails on a sentence, each line
    alone, so that only the lines it fails on alone are lost (named: report_not_translated, their
    output ``lost``).  Returns the outputs and how many lines failed."""
    try:
        return translating(lines), 0
    except SentencesFailed:
        pass
    outputs, failed = [], 0
    for number, line in enumerate(lines, start=first_line):
        try:
            outputs += translating([line])
        except SentencesFailed as error:
            report_not_translated(where, number, next(iter(error.failures.values())))
            outputs.append(lost)
            failed += 1
    return outputs, failed


Alignments = list[tuple[int, int]]
LINE_BREAK = re.compile(r"\r?\n")  # where a line ends, as attnmt.text.data.decode_lines reads it
# Every line break str.splitlines knows (CRLF as one): a JSONL text's lone CR, or its U+2028, written
# as it is, was a line more for a reader of the output that splits there (Python's readlines).  A text
# line keeps its own CR, U+2028 and form feed where they were (docs/documents.md): only LF ends it.
ANY_LINE_BREAK = re.compile(rf"\r\n|[{LINE_ENDS}]")
# A JSONL text's line break with the spaces beside it (any whitespace that ends no line: a space, a tab,
# U+00A0, ...): a part's translation has none at its ends, so they are kept as the break is, where they
# stood ("a \nb": "x \ny"), and in text output go with the break into its one space.
SPACED_LINE_BREAK = re.compile(rf"[^\S{LINE_ENDS}]*(?:{ANY_LINE_BREAK.pattern})[^\S{LINE_ENDS}]*")


def tsv_value(value: object) -> str:
    """A TSV cell: a list (the flags) comma-separated, "-" where empty; anything else as str()
    (tsv_text's escapes: a cell holds no tab)."""
    if isinstance(value, list):
        return ",".join(map(str, value)) or "-"
    return tsv_text(str(value))


def tsv_text(text: str) -> str:
    """A text as a TSV cell: a tab, a line feed, a carriage return and a backslash in it written as
    ``\\t``, ``\\n``, ``\\r`` and ``\\\\``, every other line break str.splitlines knows as its
    ``\\uXXXX`` (``\\u2028``, ``\\u000c``: ANY_LINE_BREAK; a word-less line passes through with its
    tabs: "12<TAB>34"), so a row is one line to any reader, the columns stay the columns, and the
    text reads back as it was (tsv_unescaped)."""
    return text.translate(TSV_ESCAPES)


# What tsv_text writes for each character it escapes; the line breaks beyond LF and CR (ANY_LINE_BREAK)
# as JSON writes U+2028 (attnmt.text.json_lines.JSON_BREAKS), so that no reader splitting where
# str.splitlines does ends a row there.
TSV_ESCAPED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r",
               **{c: f"\\u{ord(c):04x}" for c in "\v\f\x1c\x1d\x1e\x85\u2028\u2029"}}
TSV_ESCAPES = str.maketrans(TSV_ESCAPED)
TSV_UNESCAPED = {escape: char for char, escape in TSV_ESCAPED.items()}
TSV_ESCAPE = re.compile("|".join(map(re.escape, TSV_UNESCAPED)))


def tsv_unescaped(cell: str) -> str:
    """The text ``tsv_text`` wrote as ``cell`` (a backslash it did not write, ``\\x``, stays as it is)."""
    return TSV_ESCAPE.sub(lambda m: TSV_UNESCAPED[m[0]], cell)


def write_texts(out: TextIO, texts: list[str], alignments: list[Alignments] | None = None,
                endings: list[str] | None = None, breaks: re.Pattern[str] = LINE_BREAK) -> None:
    """``text`` format: one translation per line (``translation ||| 0-0 1-1 …`` with word
    alignments, as Marian writes them), each ending as its input line did (``endings``, a text
    file's own: attnmt.cli.document_files.output_style) or in LF, then a flush.  A line break in a
    text (``breaks``: where a text line ends, LINE_BREAK; in a JSONL text, every one, ANY_LINE_BREAK:
    one without letters passed through, ``"12\\n34"``, or a source kept by ``--below-quality
    source``) is written as a space, as the model reads one: one output line per input line, always."""
    texts = [breaks.sub(" ", text) for text in texts]
    if alignments is not None:
        texts = [f"{text} ||| {pharaoh(pairs)}" for text, pairs in zip(texts, alignments, strict=True)]
    out.write(with_endings(texts, endings))
    out.flush()


def write_hypotheses(out: TextIO, first_line: int, results: list[list[Translation]], output_format: str,
                     extras: list[list[dict]] | None = None) -> None:
    """``tsv`` or ``jsonl``: the hypotheses of input lines first_line, first_line + 1, … (counting
    from 1).  ``extras``, one dict per hypothesis (``alignment``, ``confidence``), become more
    keys of its JSON object, or more TSV columns, in their order."""
    for i, hypotheses in enumerate(results):
        line = first_line + i
        more = extras[i] if extras is not None else [{} for _ in hypotheses]
        if output_format == "tsv":  # a score of -inf written "-inf": only JSON has no number for it
            out.write("".join("\t".join([str(line), str(rank), f"{h.score:.4f}", f"{h.log_prob:.4f}", tsv_text(h.text),
                                         *map(tsv_value, extra.values())]) + "\n"
                              for rank, (h, extra) in enumerate(zip(hypotheses, more, strict=True), start=1)))
        else:
            fields = [{**h.fields(), **extra} for h, extra in zip(hypotheses, more, strict=True)]
            out.write(json_line({"line": line, "hypotheses": fields}))
    out.flush()
