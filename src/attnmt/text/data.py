"""Text files in, padded batches out.

    read_lines / stream_lines  a UTF-8 file (plain, .gz, .xz or .bz2) -> its lines
    encode_pairs               pairs -> token-id Examples, too-long ones filtered
    collate                    Examples -> one padded Batch

Parallel corpora are read into sentence pairs by parallel_text.py (`read_parallel`, `read_tsv`), streamed
into prepared arrays (training/tokenize_corpora.py); batching.py cuts them into batches of about `max_tokens`.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import lzma
import os
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from attnmt.errors import ConfigError, DataError
from attnmt.text.encodings import HEAD_BYTES, check_encodable, check_not_utf16, given_str
from attnmt.text.long_lines import SKIPPED, BinaryReader
from attnmt.text.tokenizer import BOS_ID, EOS_ID, PAD_ID, Tokenizer, check_text_list
from attnmt.text.vocab_tokenizer import VocabTokenizer

UTF8_BOM = b"\xef\xbb\xbf"


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file, plain or compressed (by a `.gz`, `.xz` or `.bz2` suffix: open_bytes).

    Only the line ending (``line_ending``) is removed; a leading byte-order mark too.
    """
    return list(stream_lines(path))


def stream_lines(path: str | Path) -> Iterator[str]:
    """`read_lines`, one line at a time: a corpus larger than memory is never held whole.

    Lines end at "\\n" only, as in `decode_lines`, so line N is what ``wc -l`` counts as N.
    """
    return decoded_lines(path, iter)


def decoded_lines(path: str | Path, raw_lines: Callable[[BinaryReader], Iterable[bytes | None]]) -> Iterator[str]:
    """The lines ``raw_lines`` cuts the open file ``path`` into (``iter``: at each "\\n"), decoded, endings removed;
    a line not read (None) as ``SKIPPED``.  A gzip file whose name lacks the ``.gz`` is named as such when its
    first line fails to decode (every gzip stream's second byte, 0x8b, is no UTF-8), not read as another encoding."""
    path = Path(path)
    try:
        with open_bytes(path) as f:
            head = f.peek(HEAD_BYTES)[:HEAD_BYTES]
            check_not_utf16(head, str(path))
            f.read(len(UTF8_BOM) if head.startswith(UTF8_BOM) else 0)  # a mark alone: Notepad's empty file
            utf8_before = False  # whether a line before held UTF-8 past ASCII (windows_1252_hint)
            for number, raw in enumerate(raw_lines(f), start=1):
                if raw is None:
                    yield SKIPPED
                    continue
                try:
                    yield raw[:len(raw) - len(line_ending(raw))].decode("utf-8")
                except UnicodeDecodeError as err:
                    if number == 1 and not is_gzip_name(path) and raw.startswith(GZIP_MAGIC):
                        raise gzip_without_gz(path) from None
                    raise invalid_utf8(str(path), number, raw, err.start, utf8_before) from None
                utf8_before = utf8_before or not raw.isascii()
    except BROKEN_STREAM as err:  # zlib.error: a stream damaged past its header
        raise not_gzip(path, err) from None
    except OSError as err:  # missing, a folder, unreadable: named here, or a writer downstream takes it for its own
        raise (not_gzip(path, err) if damaged_bzip2(path, err) else cannot_read(path, err)) from None


def gzip_without_gz(path: Path) -> DataError:
    """How a gzip file whose name does not end in ``.gz``, and so is read as text, is named."""
    return DataError(f"{path}: the file is gzip-compressed but its name does not end in .gz: rename it "
                     f"{path.name}.gz (read as gzip), or decompress it first (zcat)")


def cannot_read(path: str | Path, err: OSError) -> DataError:
    """How a file that cannot be read is named: ``cannot read in.txt: no such file or directory``."""
    return DataError(f"cannot read {path}: {(err.strerror or str(err)).lower()}")


def check_readable(path: str | Path) -> None:
    """Refuses, in stream_lines' words, a file that cannot be read (missing, a folder, no
    permission) without opening it, so that slow work a command would do first (loading
    a model) does not come before the user's mistake.  Not opened: a named pipe opened and closed
    here would lose its writer before the real read."""
    try:
        if Path(path).is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not os.access(path, os.R_OK):
            os.stat(path)  # missing: its own error
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    except OSError as err:
        raise cannot_read(path, err) from None


# One shared string per ending, so that a file's list of them costs a pointer a line.
ENDINGS = {b"\r\n": "\r\n", b"\n": "\n", b"\r": "\r", b"": ""}


def line_ending(raw: bytes) -> str:
    """The ending ``read_lines`` removes from ``raw``, a line of a file as reading it in binary gives
    it (up to and with its "\\n"): "\\r\\n", "\\n", or for the file's last line "" (it ends without
    one) or "\\r" (it ends in a lone CR, as an old Mac wrote lines).  Only "\\n" ends a line, so a CR
    elsewhere stays in it (where attnmt.documents parts the line at it, as at a tab)."""
    return ENDINGS[raw[len(raw.removesuffix(b"\n").removesuffix(b"\r")):]]


def line_endings(path: str | Path) -> tuple[str, list[str]]:
    """What ``read_lines`` removes from a text file, for writing a translation back as the file was
    (``with_endings``): its byte order mark ("\\ufeff" or "") and each line's ending (``line_ending``),
    a file that mixes CRLF and LF included.  "A\\r\\nB" and "A\\nB\\n" give the same lines."""
    path = Path(path)
    try:
        with open_bytes(path) as f:
            first = f.readline()
            endings = [line_ending(first), *map(line_ending, f)] if first else []
    except BROKEN_STREAM as err:  # as stream_lines names a damaged .gz
        raise not_gzip(path, err) from None
    except OSError as err:
        if damaged_bzip2(path, err):
            raise not_gzip(path, err) from None
        raise
    return ("\ufeff" if first.startswith(UTF8_BOM) else ""), endings


def with_endings(lines: Sequence[str], endings: Sequence[str] | None) -> str:
    """``lines`` written out, line i ending in ``endings[i]`` (a file's own: ``line_endings``), or
    each in "\\n" where ``endings`` is None (a stream's lines, whose endings are not kept)."""
    if endings is None:
        return "".join(line + "\n" for line in lines)
    # A file read twice (its lines, then their endings) may have changed between the reads: the
    # lines read are written all the same, those past the endings read in "\n".
    return "".join(line + (endings[k] if k < len(endings) else "\n") for k, line in enumerate(lines))


def is_gzip_name(path: str | Path) -> bool:
    """Whether ``path`` names a gzip file: its last extension is ``.gz`` (``.GZ`` too)."""
    return Path(path).suffix.lower() == ".gz"


def unzipped_name(path: str | Path) -> str:
    """The file name of what ``path`` holds, as read_lines opens it: its name, without the .gz, .xz or .bz2
    where it names a compressed file (``page.html`` for ``docs/page.html.gz``), in its own case."""
    return Path(path).stem if compression(path) else Path(path).name


# The compressions a file's last extension names, each read through Python's own module: corpora come as
# .gz, and as .xz or .bz2 (OPUS, ParaCrawl and WMT downloads), which were refused as "not text".
COMPRESSIONS = {".gz": "gzip", ".xz": "xz", ".bz2": "bzip2"}
# What reading a damaged stream raises: EOFError where it is cut short, zlib.error and lzma.LZMAError past its
# header (gzip.BadGzipFile at it); bz2's "Invalid data stream" is an OSError without an errno (decoded_lines).
BROKEN_STREAM = (gzip.BadGzipFile, EOFError, zlib.error, lzma.LZMAError)


def compression(path: str | Path) -> str | None:
    """The compression ``path``'s last extension names ("gzip", "xz", "bzip2"; in any case), or None."""
    return COMPRESSIONS.get(Path(path).suffix.lower())


def open_bytes(path: str | Path) -> gzip.GzipFile | lzma.LZMAFile | bz2.BZ2File | io.BufferedReader:
    """The file ``path`` opened for reading its bytes, through gzip, xz or bzip2 where its name ends in .gz,
    .xz or .bz2 (``compression``): how every file attnmt reads as text or terms is opened."""
    kind = compression(path)
    if kind == "gzip":
        return gzip.open(path, "rb")
    if kind == "xz":
        return lzma.open(path, "rb")
    return bz2.open(path, "rb") if kind == "bzip2" else open(path, "rb")


def damaged_bzip2(path: str | Path, error: OSError) -> bool:
    """Whether ``error`` is bz2's "Invalid data stream", an OSError without an errno, not a missing file's."""
    return error.errno is None and compression(path) == "bzip2"


def not_gzip(path: str | Path, error: Exception) -> DataError:
    """How a file named .gz, .xz or .bz2 that is no such stream (BROKEN_STREAM; EOFError where it is cut short)
    is named."""
    return DataError(f"{path}: not a valid {compression(path) or 'gzip'} file ({error})")


GZIP_MAGIC = b"\x1f\x8b"  # how every gzip stream begins
ZIP_START = b"PK\x03\x04"  # a zip archive's first local header: an .xlsx, .ods, .docx, .epub
OLE_SIGNATURE = bytes.fromhex("d0cf11e0a1b11ae1")  # a compound file: encrypted Office files and old .doc/.xls/.ppt


def invalid_utf8(source: str, line: int, raw: bytes, start: int, utf8_before: bool) -> DataError:
    """How line ``line`` of ``source`` is refused, its bytes ``raw`` no UTF-8 from ``start`` on; ``utf8_before``:
    whether the text before that line held UTF-8 past ASCII."""
    return DataError(f"{source}:{line}: invalid UTF-8 (byte 0x{raw[start]:02x}); convert the file to UTF-8, e.g. with "
                     f"iconv{'' if utf8_before else windows_1252_hint(raw, start)}")


# Windows-1252's quotes and dashes (‚ „ ‘ ’ “ ” – —), as Word and Notepad save them: no UTF-8 starts with such a
# byte, and Latin-1 has only control characters there, so a text line of them is Windows-1252's.
WINDOWS_QUOTES = frozenset(b"\x82\x84\x91\x92\x93\x94\x96\x97")


def windows_1252_hint(raw: bytes, start: int) -> str:
    """The iconv options for a line that reads as Windows-1252 (Latin-1, as Excel and Windows programs save text) where
    UTF-8 fails, a letter, a quote or a dash there (``b"Stra\\xdfe"`` is "Straße", ``b"\\x93A"`` "“A"), with the
    word read so for the user to judge: "iconv" alone left them to find the file's encoding.  Other bytes (a binary
    file, another script's code page), or UTF-8 before them in the line (or in the lines before, which the caller
    knows): "", as converting a file of UTF-8 (damaged in one place, or mixing encodings) from Windows-1252 would
    garble every letter past ASCII in it."""
    if not raw[:start].isascii():
        return ""
    text = raw.decode("cp1252", "replace")  # one character a byte: text[start] is the byte that failed
    letters = [c for c in text if c.isalpha()]
    past_ascii = sum(not c.isascii() for c in letters)
    if not (text[start].isalpha() or raw[start] in WINDOWS_QUOTES) or 2 * past_ascii > len(letters):
        return ""  # most letters past ASCII: no Latin script (Cyrillic's Windows-1251 reads "Ñîáàêà")
    before = text[:start].split()[-1:] if start and not text[start - 1].isspace() else [""]
    word = before[0][-20:] + text[start:].split()[0][:20]  # the word around it, at most 40 letters
    return f' -f WINDOWS-1252 -t UTF-8, if "{word}" is what the line says (read as Windows-1252, Latin-1)'


def given_texts(texts: object, name: str = "sentences") -> list[str]:
    """The texts a Python caller passed as a list of ``str`` (UTF-8 ``bytes`` decoded), each valid
    Unicode; one clear error otherwise.  A str is a Sequence[str] to Python's types, and was
    translated one character a line (``check_text_list``)."""
    checked = [given_str(text, f"{name}[{i}]") for i, text in enumerate(check_text_list(texts, name))]
    check_encodable((f"{name}[{i}]", text) for i, text in enumerate(checked))
    return checked


def given_pairs(sources: object, translations: object) -> tuple[list[str], list[str]]:
    """A caller's sources and their translations, each a list of texts (``given_texts``: one str
    was aligned a character a line), one translation per source: a translation too many was left
    out without a word, one too few an IndexError deep in the forced pass."""
    sources, translations = given_texts(sources, "sources"), given_texts(translations, "translations")
    if len(sources) != len(translations):
        raise ConfigError(f"sources and translations: got {len(sources)} sources and {len(translations)} "
                          "translations; give one translation per source")
    return sources, translations


def decode_lines(data: bytes, source: str, first_line: int = 1) -> list[str]:
    """Splits UTF-8 bytes into lines at "\n" only (never at the other characters
    ``str.splitlines`` breaks on, such as U+2028), so line N is what ``wc -l`` counts as N.
    ``source`` names the file (or stdin) in the error for invalid UTF-8, and ``first_line`` is the
    number of ``data``'s first line there (a stream read a piece at a time); at the first line,
    UTF-16 is refused (``check_not_utf16``) and a byte order mark left out, as ``read_lines`` leaves
    out line 1's only: a later line's, where a read of a stream happened to start, stays in it.
    """
    if first_line == 1:
        check_not_utf16(data[:HEAD_BYTES], source)
        data = data.removeprefix(UTF8_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        if first_line == 1 and data.startswith(GZIP_MAGIC):
            raise DataError(f"{source}: the input is gzip-compressed: give the file's name ending in .gz, which "
                            "is read as gzip, or decompress it first (zcat)") from None
        begins = data.rfind(b"\n", 0, err.start) + 1  # the failing line's first byte
        ends = data.find(b"\n", err.start)
        line = data[begins:ends if ends >= 0 else len(data)]
        raise invalid_utf8(source, first_line + data.count(b"\n", 0, err.start), line, err.start - begins,
                           not data[:begins].isascii()) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


@dataclass
class Example:
    """One sentence pair as token ids."""

    src: list[int]  # source token ids as the encoder reads them (no BOS; EOS with source_eos)
    tgt: list[int]  # target token ids, no BOS/EOS


def encode_pairs(
    pairs: Sequence[tuple[str, str]], tokenizer: Tokenizer | VocabTokenizer, max_len: int
) -> tuple[list[Example], int]:
    """Tokenize pairs (sources as the encoder reads them); drop those that would not fit `max_len` positions.

    The target needs one extra position for BOS (decoder input) / EOS (decoder output).
    Returns the kept examples and the number dropped.
    """
    examples = [example for example in encode_each(pairs, tokenizer) if fits(example, max_len)]
    return examples, len(pairs) - len(examples)


def encode_each(pairs: Sequence[tuple[str, str]], tokenizer: Tokenizer | VocabTokenizer) -> list[Example]:
    """Every pair as an Example, in order, none dropped (``fits`` tells which ``encode_pairs`` keeps)."""
    srcs = tokenizer.encode_batch([src for src, _ in pairs])
    tgts = tokenizer.encode_target_batch([tgt for _, tgt in pairs])
    return [Example(src, tgt) for src, tgt in zip(srcs, tgts, strict=True)]


def fits(example: Example, max_len: int) -> bool:
    """Whether ``example`` fits ``max_len`` positions: its source, and its target with BOS (or EOS)."""
    return len(example.src) <= max_len and len(example.tgt) + 1 <= max_len


@dataclass
class Batch:
    """Padded tensors for one training step (teacher forcing).

    For the target "a b c": tgt_in = [BOS a b c], tgt_out = [a b c EOS]; the decoder
    reads tgt_in[t] and is trained to predict tgt_out[t].
    """

    src: torch.Tensor  # [B, S] long, padded with PAD_ID
    tgt_in: torch.Tensor  # [B, T] long: BOS + tgt, padded
    tgt_out: torch.Tensor  # [B, T] long: tgt + EOS, padded
    n_src_tokens: int  # non-pad tokens in src
    n_tgt_tokens: int  # non-pad tokens in tgt_out (what the loss is summed over)

    def __len__(self) -> int:
        """Number of sentences."""
        return self.src.size(0)

    def to(self, device: torch.device | str) -> Batch:
        """The same batch with its tensors on `device`."""
        return Batch(
            self.src.to(device), self.tgt_in.to(device), self.tgt_out.to(device),
            self.n_src_tokens, self.n_tgt_tokens,
        )


def collate(
    examples: Sequence[Example], pad_id: int = PAD_ID, bos_id: int = BOS_ID, eos_id: int = EOS_ID
) -> Batch:
    """Pad examples into a Batch; S = longest source, T = longest target + 1."""
    if not examples:
        raise ValueError("cannot collate an empty list of examples")
    srcs = [ex.src for ex in examples]
    tgts_in = [[bos_id, *ex.tgt] for ex in examples]
    tgts_out = [[*ex.tgt, eos_id] for ex in examples]
    return Batch(
        src=pad_rows(srcs, pad_id),
        tgt_in=pad_rows(tgts_in, pad_id),
        tgt_out=pad_rows(tgts_out, pad_id),
        n_src_tokens=sum(map(len, srcs)),
        n_tgt_tokens=sum(map(len, tgts_out)),
    )


def pad_rows(rows: list[list[int]], pad_id: int) -> torch.Tensor:
    """Right-pad id lists into a [len(rows), longest] long tensor."""
    out = torch.full((len(rows), max(map(len, rows))), pad_id, dtype=torch.long)
    for i, row in enumerate(rows):
        out[i, : len(row)] = torch.tensor(row, dtype=torch.long)
    return out


# Parallel corpora's reading, moved to parallel_text.py: importable from here, with a warning, for one more release.
MOVED = ("ReadReport", "read_parallel", "read_tsv", "stream_parallel", "stream_tsv", "corpus_lines", "differ_in_length",
         "nonempty_pairs", "tsv_hint")


def __getattr__(name: str) -> Any:
    if name in MOVED:
        from attnmt.text import parallel_text  # here, not at the top: parallel_text reads files through this module

        warnings.warn(f"attnmt.text.data.{name} moved to attnmt.text.parallel_text; the old place goes in the next "
                      "release", DeprecationWarning, stacklevel=2)
        return getattr(parallel_text, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
