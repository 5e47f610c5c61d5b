"""Parallel text in, sentence pairs out: two aligned files, line i of one translating line i of the other, or one
file of "source<TAB>target" lines.

    read_parallel / read_tsv       files -> (source, target) sentence pairs, stripped, the empty ones counted
    stream_parallel / stream_tsv   the same, raw and one at a time, for corpora larger than memory
    check_parallel_files           two files of different line counts, or not UTF-8, refused before use
    check_utf8                     a tsv file not UTF-8 refused before use
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice, zip_longest
from pathlib import Path

from attnmt.errors import DataError
from attnmt.text.data import BROKEN_STREAM, decoded_lines, open_bytes, unzipped_name
from attnmt.text.invisible import blank
from attnmt.text.long_lines import SKIPPED, corpus_raw_lines

# A field quoted as spreadsheets, pandas and csv.QUOTE_MINIMAL or QUOTE_ALL write one: '"', its text with each '"'
# doubled, '"', then a tab or the line's end.
QUOTED_FIELD = re.compile(r'"((?:[^"]|"")*)"(?=\t|$)')
# One quoted as R's write.table writes every field by default (qmethod "escape"): each '"' in it written '\"'; a
# backslash before anything else, or last, is the text's own (R leaves it as it is).
ESCAPED_FIELD = re.compile(r'"((?:[^"\\]|\\"|\\)*)"(?=\t|$)')
QUOTE_IN = {QUOTED_FIELD: '""', ESCAPED_FIELD: '\\"'}  # how each writes a '"' of the text
# A field opened in quotes and not closed on its line: a cell holding a line break, which pandas, Excel and R write as
# it is, its text going on over the lines after it (each pattern from a field's start to the text's end).
OPEN_FIELD = {QUOTED_FIELD: re.compile(r'"(?:[^"]|"")*\Z'), ESCAPED_FIELD: re.compile(r'"(?:[^"\\]|\\"|\\)*\Z')}
CELL_LINES = 100  # lines one cell may run over: an unclosed quote would otherwise join the rest of the file
CELL_BREAK = re.compile(r"\s*\n\s*")  # a line break in a cell, with the spaces around it: one space of its sentence


@dataclass
class ReadReport:
    """What reading a corpus kept (`pairs`), skipped for an empty side, for a line over LONGEST_LINE, and, of a
    tsv file, for a line with another number of tabs than one (`malformed`; the first one's line number), and
    the header line it left out (`header`, its cells joined by "<TAB>"; "" for none); of a TMX memory, the units
    without a segment in one of the two languages (`unpaired`; the first one's line number), and which two were
    read (`languages`, "en -> de")."""

    pairs: int
    skipped_empty: int
    skipped_long: int = 0
    malformed: int = 0
    first_malformed: int = 0
    header: str = ""
    unpaired: int = 0
    first_unpaired: int = 0
    languages: str = ""


def read_parallel(
    src_path: str | Path, tgt_path: str | Path
) -> tuple[list[tuple[str, str]], ReadReport]:
    """Aligned sentence pairs from two files, line i of one translating line i of the other.

    Text is stripped; a pair with an empty side is skipped and counted in the report.
    """
    return _keep_nonempty(stream_parallel(src_path, tgt_path))


def corpus_lines(path: str | Path) -> Iterator[str]:
    """The lines of a corpus file as ``stream_lines`` gives them, but a line over ``LONGEST_LINE`` bytes is
    ``SKIPPED``, never held whole, and a file whose lines end in CR alone is split at CR (``corpus_raw_lines``):
    one line to LF, it was read as one sentence of the whole file (a corpus of 600 lines "had 1 line")."""
    return decoded_lines(path, corpus_raw_lines)


def stream_parallel(src_path: str | Path, tgt_path: str | Path) -> Iterator[tuple[str, str]]:
    """The raw (unstripped) line pairs of two files (``corpus_lines``), one at a time; when either file
    ends before the other, an error gives both line counts.  Blank lines past the other file's end (an
    editor's empty last line) misalign nothing: each is a pair with an empty side, skipped and counted."""
    src_lines, tgt_lines = corpus_lines(src_path), corpus_lines(tgt_path)
    counts = [0, 0]
    for src, tgt in zip_longest(src_lines, tgt_lines):
        counts[0], counts[1] = counts[0] + (src is not None), counts[1] + (tgt is not None)
        if src is None or tgt is None:
            if not (src or tgt or "").strip():
                yield src or "", tgt or ""
                continue
            raise differ_in_length(src_path, counts[0] + sum(1 for _ in src_lines), tgt_path,
                                   counts[1] + sum(1 for _ in tgt_lines))
        yield src, tgt


# Bytes read at a time where a file's lines are counted and its UTF-8 checked, not read as lines (line_extent).
COUNT_CHUNK = 1 << 24


def check_parallel_files(src_path: str | Path, tgt_path: str | Path) -> None:
    """Refuses two parallel files of different line counts, or with a line that is no UTF-8, as
    ``stream_parallel`` does, but before a pair of them is used: their lines are counted and their bytes
    checked first (``line_extent``, a fraction of the time reading them as lines takes), and only where
    that does not show them aligned UTF-8 are they read as pairs, which names the mismatch with both
    exact counts, or the line (or finds them aligned: blank lines that are not ASCII white space).
    A file of one line to LF may be one of CR-ended lines (``corpus_raw_lines``): it is read as pairs.
    A file that cannot be read is named by that reading."""
    try:
        (src_lines, src_text), (tgt_lines, tgt_text) = line_extent(src_path), line_extent(tgt_path)
        if max(src_text, tgt_text) <= min(src_lines, tgt_lines) and min(src_lines, tgt_lines) > 1:
            return  # past the shorter's end, blank lines alone
    except (OSError, UnicodeDecodeError, *BROKEN_STREAM):  # BadGzipFile is an OSError: each named below
        pass
    for _ in stream_parallel(src_path, tgt_path):
        pass


def check_utf8(path: str | Path) -> None:
    """Refuses a file with a line that is no UTF-8 before a line of it is used, as reading its lines does (naming
    the line): its bytes are checked first (``line_extent``), and read as lines only where that fails."""
    try:
        line_extent(path)
    except (OSError, UnicodeDecodeError, *BROKEN_STREAM):  # BadGzipFile is an OSError: each named below
        for _ in corpus_lines(path):
            pass


def line_extent(path: str | Path) -> tuple[int, int]:
    """The lines of ``path`` (as ``wc -l`` counts them, and a last one without its "\\n"), and how many of
    them reach its last byte other than ASCII white space: counted COUNT_CHUNK bytes at a time.  A
    UnicodeDecodeError where the bytes are no UTF-8 (which line, reading it as lines tells)."""
    lines = text_lines = 0
    last = b"\n"
    utf8 = codecs.getincrementaldecoder("utf-8")()  # a character cut between two chunks is whole in the next
    with open_bytes(path) as file:
        while chunk := file.read(COUNT_CHUNK):
            utf8.decode(chunk)
            if chunk.strip():
                text_lines = lines + chunk.count(b"\n", 0, len(chunk.rstrip())) + 1
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    utf8.decode(b"", final=True)
    return lines + (last != b"\n"), text_lines


def differ_in_length(src_path: str | Path, src_count: int, tgt_path: str | Path, tgt_count: int) -> DataError:
    """How two parallel files of different line counts are named, with both counts."""
    return DataError(f"parallel files differ in length: {src_path} has {src_count} lines, {tgt_path} has "
                     f"{tgt_count}; line i of one must translate line i of the other")


def read_tsv(path: str | Path) -> tuple[list[tuple[str, str]], ReadReport]:
    """Sentence pairs from one file of "source<TAB>target" lines.

    Empty lines, pairs with an empty side, and lines with another number of tabs are skipped and counted in
    the report.
    """
    report = ReadReport(pairs=0, skipped_empty=0)
    return list(nonempty_pairs(stream_tsv(path, report), report)), report


# Lines of a tsv file read before one mostly of lines with another number of tabs than one is refused
# (and again at its end): such a file is no tsv corpus, and a run on it should stop before it trains.
TSV_SAMPLE = 1000


def stream_tsv(path: str | Path, report: ReadReport) -> Iterator[tuple[str, str]]:
    """The raw pairs of a "source<TAB>target" file (``corpus_lines``), one at a time; an empty line is the
    pair ("", "").  Blank fields after the second are left out: a sheet saved as tab-separated text ends
    each row in a tab for every empty column of its used range ("dog<TAB>Hund<TAB><TAB>"), nothing lost.

    A line with another number of tabs (a tab inside a sentence, a note in a third column) is left out and
    counted in ``report``, as a line too long is: one such line among a crawled million stopped the whole
    run.  A file mostly of such lines (one side's text, a CSV file, a corpus with a score column) is refused
    naming its first one (``check_mostly_pairs``), after TSV_SAMPLE lines and at its end."""
    kept, malformed, first = 0, 0, (0, 0)  # first: the first malformed line's number and tabs
    spreadsheet, sampled = spreadsheet_quoting(path), False
    for number, line in tsv_records(path, spreadsheet):
        if number > TSV_SAMPLE and not sampled:  # TSV_SAMPLE lines read, this one not yet
            check_mostly_pairs(path, kept, malformed, first)
            sampled = True
        fields = tsv_fields(line, spreadsheet)
        if not line.strip():
            yield line, line  # counted as skipped by nonempty_pairs: empty, or SKIPPED (too long to read)
        elif len(fields) == 2:
            kept += 1
            yield fields[0], fields[1]
        else:
            malformed += 1
            first = first if first[0] else (number, len(fields) - 1)
            report.malformed += 1
            report.first_malformed = report.first_malformed or number
    check_mostly_pairs(path, kept, malformed, first)


def tsv_fields(line: str, spreadsheet: re.Pattern[str] | None = None) -> list[str]:
    """A tsv line's fields, blank ones after the second left out (a spreadsheet's empty columns), a field a
    spreadsheet, pandas or R quoted read as its text (quoted_fields; ``spreadsheet``: how the file's fields are
    quoted where it is one's, as spreadsheet_quoting tells)."""
    fields = quoted_fields(line, spreadsheet) if '"' in line else line.split("\t")
    while len(fields) > 2 and not fields[-1].strip():
        fields.pop()
    return fields


def quoted_fields(line: str, spreadsheet: re.Pattern[str] | None) -> list[str]:
    """A tsv line's fields, where a field that Excel, LibreOffice, pandas or R saved in quotes is its text:
    '"She said ""hi"" to him."' (R: '"She said \\"hi\\" to him."') is 'She said "hi" to him.'.  It was trained on
    as written, quotes doubled and around it, and one holding a tab was a line of three fields, left out.  In a
    file such a writer wrote (``spreadsheet``: QUOTED_FIELD or ESCAPED_FIELD, how it quotes a field), every field
    in quotes is its text (Excel quotes a cell with a comma too, R and QUOTE_ALL every cell); in another, one
    holding neither a doubled quote nor a tab is as written, a corpus's quoted speech ('"Go!"')."""
    if spreadsheet is not None:
        return [raw if inner is None else CELL_BREAK.sub(" ", inner.replace(QUOTE_IN[spreadsheet], '"'))
                for raw, inner in split_quoted(line, spreadsheet)]
    return [inner.replace('""', '"') if inner is not None and ('""' in inner or "\t" in inner)
            else raw for raw, inner in split_quoted(line, QUOTED_FIELD)]


def split_quoted(line: str, field: re.Pattern[str]) -> Iterator[tuple[str, str | None]]:
    """A tsv line's fields, each as written (up to the next tab) and, where it is one quoted as ``field``
    matches (QUOTED_FIELD, ESCAPED_FIELD), what is inside the quotes (else None)."""
    start = 0
    while True:
        quoted = field.match(line, start)
        end = quoted.end() if quoted else line.find("\t", start)
        end = len(line) if end < 0 else end
        yield line[start:end], quoted[1] if quoted else None
        if end == len(line):
            return
        start = end + 1


def spreadsheet_quoting(path: str | Path) -> re.Pattern[str] | None:
    """How the tsv file ``path``'s fields are quoted (QUOTED_FIELD, ESCAPED_FIELD) where it reads as one a
    spreadsheet, pandas or R wrote: in its first TSV_SAMPLE lines, a field holding a quote is always one in
    quotes whole, its own quotes written as that writer writes them, and there is one at least; else None.  A
    corpus's own quotes soon break that ('He said "hi".', '"Go," he said.')."""
    for field in (QUOTED_FIELD, ESCAPED_FIELD):
        if (fits := quoted_whole(path, field)) is not False:
            return field if fits else None  # None: no quote in them, and none to find reading them again
    return None


def quoted_whole(path: str | Path, field: re.Pattern[str]) -> bool | None:
    """Whether, in the first TSV_SAMPLE lines of ``path`` (a cell over several lines joined, tsv_records), every field
    holding a quote is one quoted as ``field`` matches; None where none holds a quote."""
    quoted = False
    try:
        for _, line in tsv_records(path, field, TSV_SAMPLE):
            if '"' in line:
                quoted = True
                if not all(inner is not None for raw, inner in split_quoted(line, field) if '"' in raw):
                    return False
    except DataError:  # a quote opened and never closed: no such writer's
        return False
    return quoted or None


def tsv_records(path: str | Path, field: re.Pattern[str] | None, lines: int | None = None) -> Iterator[tuple[int, str]]:
    """The lines of ``path`` (its first ``lines``; None: all) with their numbers, where ``field`` says how its cells
    are quoted (None: not), a line whose last cell opens a quote it does not close (``open_cell``) joined by "\\n"
    with the lines after it up to the one closing it, numbered as its first: a cell holding a line break, as pandas
    with quoting=csv.QUOTE_ALL, Excel and R write it.  Split at its line breaks, the whole file was read with its
    quotes.  A cell not closed within CELL_LINES lines, or by the file's end, is refused naming the line opening it."""
    numbered = enumerate(islice(corpus_lines(path), lines), start=1)
    if field is None:
        yield from numbered
        return
    pending: list[str] = []
    for number, line in numbered:
        if not pending and (line is SKIPPED or not open_cell(line, field)):
            yield number, line
            continue
        pending.append(line)
        if not open_cell("\n".join(pending), field):
            yield number - len(pending) + 1, "\n".join(pending)
            pending = []
        elif len(pending) == CELL_LINES:
            break
    if pending:
        opened = number - len(pending) + 1
        raise DataError(f"{path}:{opened}: a cell opened in quotes on this line is not closed within "
                        f"{len(pending)} lines; close its quote, or double each quote inside a cell ('\"\"')")


def open_cell(line: str, field: re.Pattern[str]) -> bool:
    """Whether a field of ``line`` opens a quote (as ``field``, QUOTED_FIELD or ESCAPED_FIELD, quotes) that it does
    not close: its text goes on over the next line."""
    start = 0
    while True:
        quoted = field.match(line, start)
        if not quoted and OPEN_FIELD[field].match(line, start):
            return True
        end = quoted.end() if quoted else line.find("\t", start)
        if end < 0 or end == len(line):
            return False
        start = end + 1


def check_mostly_pairs(path: str | Path, kept: int, malformed: int, first: tuple[int, int]) -> None:
    """Refuses a tsv file with more lines of another number of tabs than one (``malformed``) than of one
    (``kept``), naming the first such line and its tabs (``first``), and how many there were."""
    if malformed <= kept:
        return
    many = f" ({malformed} of its {malformed + kept} lines with text have not one tab)" if malformed > 1 else ""
    raise DataError(f"{path}:{first[0]}: expected 'source<TAB>target' with exactly one tab, found {first[1]} tabs"
                    f"{many}{tsv_hint(path, first[1])}")


def tsv_hint(path: str | Path, tabs: int) -> str:
    """What a "source<TAB>target" file of lines with ``tabs`` tabs may be instead.  Without a tab: a CSV or JSON Lines
    file (by its name), which is not read as pairs (a JSON Lines one was told to be one side's text), or one side's
    text, one sentence a line.  With more: a corpus with more columns (ParaCrawl's and CCMatrix's scores, Tatoeba's
    sentence ids), whose two sentence columns are wanted."""
    if tabs:
        return "; a file of more columns (scores, ids) is given as its two sentence columns alone, cut out with cut -f"
    if unzipped_name(path).lower().endswith(".csv"):
        return "; a CSV file is not read: save it tab-separated (TSV)"
    if unzipped_name(path).lower().endswith((".jsonl", ".ndjson", ".json")):
        return ("; a JSON Lines file (as Hugging Face datasets export a corpus) is not read: write its two sides as "
                "'source<TAB>target' lines, e.g. jq -r '[.translation.en, .translation.de] | @tsv'")
    return "; a file of one side's sentences, one a line, is given with the other as train_src and train_tgt"


def nonempty_pairs(raw_pairs: Iterable[tuple[str, str]], report: ReadReport) -> Iterator[tuple[str, str]]:
    """Strips both sides; skips pairs where either side is then empty, or ``blank``: invisible characters
    alone (a zero-width space, a byte order mark mid-file), which str.strip() keeps but no piece stands
    for, so that the pair would teach a sentence for nothing or nothing for a sentence.  Counts both in
    ``report``, and apart from them a pair with a line too long to read (``SKIPPED``)."""
    for src, tgt in raw_pairs:
        if src is SKIPPED or tgt is SKIPPED:
            report.skipped_long += 1
        elif not blank(src.strip()) and not blank(tgt.strip()):
            report.pairs += 1
            yield src.strip(), tgt.strip()
        else:
            report.skipped_empty += 1


def _keep_nonempty(
    raw_pairs: Iterable[tuple[str, str]],
) -> tuple[list[tuple[str, str]], ReadReport]:
    report = ReadReport(pairs=0, skipped_empty=0)
    return list(nonempty_pairs(raw_pairs, report)), report
