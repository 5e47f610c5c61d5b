"""What ``attnmt evaluate --hyp`` and ``attnmt score --hyp`` score: the best translation of each
input line, read back from whichever of ``attnmt translate``'s outputs (attnmt.cli.lines writes
them) the file holds:

    text        a translation a line, scored as it is
    alignments  ``translation ||| 0-0 1-1 …`` (text with --alignments): the translation
    tsv         ``line<TAB>rank<TAB>score<TAB>log_prob<TAB>translation<TAB>…`` rows, no header
                (several a line with --n-best, none for a blank line): each line's rank 1
    jsonl       ``{"line": 1, "hypotheses": [{"text": …}, …]}``: each line's first hypothesis (an
                object a line, a blank line's with no hypotheses; "line" counting 1, 2, … where given)

A TSV file has no row for a blank input line: those at the end of the input leave no trace, and
are taken to be where the references (every one; score: the sources) go on past the last row with
blank lines only.  A file named "-" is stdin, which can be read once.

Line 1 tells the format, and then every line must fit it: the first that does not is named, and
nothing is scored.  A file is read whole as one format or refused, never partly misread; a
translation that merely holds a tab or a "|||" stays text, as its line 1 fits no other format.
A text whose line 1 does fit one (``Preis ||| ``) is refused at its first line that does not: line
1 cannot ask for more, as translate writes such lines itself (``12345 ||| ``: a line passed
through has no pairs; a TSV row without quality columns, as written before they existed).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys

from attnmt.cli.lines import tsv_unescaped
from attnmt.errors import ConfigError, DataError, UnreadableJSON, json_value, value_shown
from attnmt.text.encodings import check_encodable

# A score or log_prob as f"{value:.4f}" writes it: a row of plain numbers (``1<TAB>1<TAB>3<TAB>4<TAB>five``)
# is a line of text, and a hand-made row's ``-1`` is named where line 1 is translate's (tsv_fault)
NUMBER = r"-?(?:\d+\.\d+|inf|nan)"
TSV_ROW = re.compile(rf"([1-9]\d*)\t([1-9]\d*)\t{NUMBER}\t{NUMBER}\t([^\t]*)(?:\t[^\t]*)*")
ALIGNED = re.compile(r"(.*) \|\|\| (?:\d+-\d+(?: \d+-\d+)*)?")  # the pairs may be none (a blank line's)


def shown(path: str) -> str:
    """How messages name an input file: stdin ("-") as <stdin>."""
    return "<stdin>" if path == "-" else path


def read_input(path: str) -> list[str]:
    """The lines of a file (plain or .gz), or of stdin where ``path`` is "-", as translate reads it."""
    from attnmt.text.data import decode_lines, read_lines

    return decode_lines(sys.stdin.buffer.read(), "<stdin>") if path == "-" else read_lines(path)


def check_one_stdin(given: list[tuple[str, str | None]]) -> None:
    """Stdin can be read once: at most one of the files ``given`` ((option, path); None: not given)
    may be "-", or another name of stdin's pipe or terminal (/dev/stdin, /proc/self/fd/0, a named
    pipe's name: ``names_stdin``).  ``score --src /dev/stdin --hyp -`` read the pipe for --src and
    nothing for --hyp, and was told "<stdin> has 0 lines".  A file ``<`` gave may be named beside
    "-": each reads it from its start."""
    from_stdin = [(option, path) for option, path in given if path is not None and names_stdin(path)]
    if len(from_stdin) < 2:
        return
    if all(path == "-" for _, path in from_stdin):
        raise ConfigError(f"{' and '.join(o for o, _ in from_stdin)} name stdin (-), which can be read once: give "
                          "all but one as files")
    named = " and ".join(f"{option} ({path})" for option, path in from_stdin)
    raise ConfigError(f"{named} name stdin, which can be read once: give all but one as files")


def names_stdin(path: str) -> bool:
    """Whether ``path`` is "-" or names the pipe, socket or terminal that stdin is (a file ``<``
    gave is no such name: opened again, it is read from its start)."""
    if path == "-":
        return True
    try:
        stdin, named = os.fstat(0), os.stat(path)
    except (OSError, ValueError):  # no stdin, or no such file: read where it is read, and named there
        return False
    return not stat.S_ISREG(stdin.st_mode) and (stdin.st_dev, stdin.st_ino) == (named.st_dev, named.st_ino)


def check_line_count(path: str, count: int, other: str, other_count: int, needs: str, tsv: bool = False) -> None:
    """A DataError where the file ``path`` holds ``count`` lines and ``other`` another number,
    saying what the command ``needs``.  A TSV file's count is its last row's line (with_blank_lines_at_end),
    not the rows it has: an n-best file cut after 5 rows "has 5 lines" where it has rows up to line 2
    (and one line is "1 line")."""
    if count != other_count:
        held = f"rows up to line {count}" if tsv else f"{count} line{'' if count == 1 else 's'}"
        why = ("; a blank input line has no row (score translate's --output-format jsonl, which has a "
               "line for every input line)") if tsv else ""
        raise DataError(f"{shown(path)} has {held} but {shown(other)} has {other_count}: {needs}{why}")


def best_translations(path: str, lines: list[str]) -> tuple[list[str], str]:
    """The best translation of each input line ``lines`` (of the file ``path``) were written for,
    and the format they were read as (the module docstring).  From a TSV file, one for each line
    up to the last that has a row ("" for a line without one: a blank line)."""
    if is_translate_jsonl(path, lines):
        return best_texts(path, lines), "jsonl"
    if lines and TSV_ROW.fullmatch(lines[0]):
        return tsv_best(path, lines), "tsv"
    if lines and ALIGNED.fullmatch(lines[0]):
        return [aligned_text(path, number, line) for number, line in enumerate(lines, 1)], "alignments"
    return lines, "text"


def is_translate_jsonl(path: str, lines: list[str]) -> bool:
    """Whether ``lines`` are ``attnmt translate --output-format jsonl``'s: scoring them as text
    scored the JSON (``{"line": 1, "hypotheses": [...]}``) against the references.  Line 1's
    hypotheses must be translate's, objects with a "text": JSON of another tool's
    (``{"hypotheses": ["x"]}``) was taken for translate's, then refused as not fitting "as line 1 is".
    JSON too deep or with a number too long to read may be translate's or not: a DataError naming it."""
    try:
        first = json_value(lines[0]) if lines else None
    except UnreadableJSON as error:
        raise DataError(f"{path}, line 1: not valid JSON ({error})") from None
    except ValueError:
        return False
    hypotheses = first.get("hypotheses") if isinstance(first, dict) else None
    return isinstance(hypotheses, list) and all(isinstance(h, dict) and isinstance(h.get("text"), str)
                                                for h in hypotheses)


def best_texts(path: str, lines: list[str]) -> list[str]:
    """Each JSONL line's best hypothesis ("" for a blank input line, which has none), the lines read
    by position, each one's "line" checked to be it (jsonl_line_checked)."""
    texts = []
    for number, line in enumerate(lines, 1):
        try:
            item = json_value(line)
            hypotheses = item["hypotheses"]
            texts.append(hypotheses[0]["text"] if hypotheses else "")
        except UnreadableJSON as error:  # it may be translate's line: say why it cannot be read
            raise DataError(f"{path}, line {number}: not valid JSON ({error})") from None
        except (ValueError, TypeError, KeyError, IndexError):
            raise DataError(f"{path}, line {number}: not a line of attnmt translate's JSONL output "
                            '({"line": ..., "hypotheses": [{"text": ...}]}), as line 1 is') from None
        if not isinstance(texts[-1], str):
            raise DataError(f"{path}, line {number}: the hypothesis's \"text\" is not a string")
        # JSON's "\ud800" alone reads as a str no tokenizer can take, as translate's JSONL input refuses it
        check_encodable([(f"{path}, line {number}: the hypothesis's \"text\"", texts[-1])])
        jsonl_line_checked(path, number, item)
    return texts


def jsonl_line_checked(path: str, number: int, item: dict) -> None:
    """A DataError where the object on line ``number`` has a "line" other than ``number``: translate
    writes one for every input line (a blank one's with no hypotheses), numbered 1, 2, … in order,
    so a file reordered (``tac``) or with lines left out would be scored against the wrong sources
    and references, as tsv_best refuses for TSV.  An object without a "line" (written by hand) is
    taken to be where it stands."""
    given = item.get("line", number)
    if not isinstance(given, int) or isinstance(given, bool):
        raise DataError(f"{path}, line {number}: its \"line\" is {json.dumps(given)}, not a line number "
                        "(attnmt translate numbers the lines 1, 2, ...)")
    if given != number:
        after = f"after one of line {number - 1}" if number > 1 else "as the first"
        raise DataError(f"{path}, line {number}: an object of line {given}, {after}: attnmt translate writes the "
                        "lines in order, one for every input line (outputs of several runs joined: renumber their "
                        "\"line\"s from 1, or join text outputs)")


def aligned_text(path: str, number: int, line: str) -> str:
    """The translation of an --alignments line, ``translation ||| 0-0 1-1 …``."""
    found = ALIGNED.fullmatch(line)
    if not found:
        raise DataError(f"{path}, line {number}: not a line of attnmt translate's --alignments output "
                        "('translation ||| 0-0 1-1 ...'), as line 1 is")
    return found[1]


def tsv_best(path: str, lines: list[str]) -> list[str]:
    """Each input line's rank-1 translation from TSV rows, which come in input order, ranks 1, 2, …
    of a line together, every row with line 1's columns ("" for a line without rows)."""
    texts: list[str] = []
    columns, line, rank = lines[0].count("\t"), 0, 0
    for number, row in enumerate(lines, 1):
        found = TSV_ROW.fullmatch(row)
        if not found or row.count("\t") != columns:
            raise DataError(f"{path}, line {number}: not a row of attnmt translate's TSV output (line, rank, "
                            f"score, log_prob, translation, ...: {columns + 1} columns), as line 1 is"
                            + tsv_fault(row, columns))
        row_line, row_rank = int(found[1]), int(found[2])
        if (row_line, row_rank) == (line, rank + 1):  # the line's next hypothesis
            rank = row_rank
            continue
        if row_rank != 1 or row_line <= line:
            raise DataError(f"{path}, line {number}: a row of line {row_line}, rank {row_rank}, after one of line "
                            f"{line}, rank {rank}: attnmt translate writes the lines in order, ranks 1, 2, ...")
        texts += [""] * (row_line - line - 1) + [tsv_unescaped(found[3])]
        line, rank = row_line, 1
    return texts


def tsv_fault(row: str, columns: int) -> str:
    """Why a ``row`` with line 1's ``columns`` tabs fits no TSV row: the first of its line, rank,
    score and log_prob that is no number of its kind, a score as translate writes it (``-1.0000``,
    not a hand-made ``-1``); for a row of other columns, how many it has, and that a tab inside a
    translation makes one more where it reads as a row (translate writes it ``\\t``): line 2 was refused as
    not of line 1's columns, where a tab inside line 1's translation had made it one more.  A row of the
    right columns was refused as of the wrong ones."""
    cells = row.split("\t")
    if len(cells) != columns + 1:
        tab = ("; a tab inside a translation, which attnmt translate writes as \\t, makes one column more"
               if TSV_ROW.fullmatch(row) else "")
        return f": it has {len(cells)}{tab}"
    written = "a number as attnmt translate writes it (-1.0000)"
    kinds = (("line", r"[1-9]\d*", "a line number"), ("rank", r"[1-9]\d*", "a rank"),
             ("score", NUMBER, written), ("log_prob", NUMBER, written))
    for (name, pattern, kind), cell in zip(kinds, cells, strict=False):
        if not re.fullmatch(pattern, cell):
            return f": its {name} {value_shown(cell)} is not {kind}"
    return ""


def with_blank_lines_at_end(texts: list[str], references: list[list[str]]) -> list[str]:
    """A TSV file's ``texts`` ("" for a blank input line), and "" for each blank input line after
    its last row, which has none: as many as the references have lines after it where every one of
    those lines is blank (a blank source line's reference is blank).  Where a reference goes on
    with a sentence, the file was cut short (a translation killed while writing to ``> out.tsv``)
    or is of another input: ``texts`` as they are, for the line counts' check to refuse."""
    counts = {len(lines) for lines in references}
    count = counts.pop() if len(counts) == 1 else len(texts)
    if count <= len(texts) or any(line.strip() for lines in references for line in lines[len(texts):]):
        return texts
    return texts + [""] * (count - len(texts))
