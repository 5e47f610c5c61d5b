"""What a file given as training or validation text is, before it is read one sentence a line: a
spreadsheet, an Office, PDF or RTF document, a translation memory (TMX, XML) where one side's text is wanted
(a memory is read as a corpus's one file: is_tmx), a WMT test set's SGML, a tar archive, or compressed text whose
name does not say so (.gz, .xz and .bz2 are read through their compression; an OPUS download's zip, .zst and .7z
are not) is refused in one line saying what it is and what to give instead.
Read as text, each was "invalid UTF-8 (byte 0x85); convert the file to UTF-8, e.g. with iconv", advice that
cannot help, a .tmx as train_tsv "expected 'source<TAB>target' with exactly one tab", and an .sgm's markup
lines were scored as sentences."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from attnmt.errors import ConfigError, DataError
from attnmt.text.data import BROKEN_STREAM, OLE_SIGNATURE, ZIP_START, check_readable, open_bytes
from attnmt.text.encodings import utf16_without_bom
from attnmt.text.parallel_text import check_parallel_files, check_utf8
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training.run_dir import VALIDATION_KEYS

AS_TEXT = ("give UTF-8 text of one sentence a line, or of 'source<TAB>target' a line for a tsv (from a "
           "spreadsheet, its two columns saved as tab-separated UTF-8 text)")
AS_GZIP = ("decompress it first, or name it for its compression: a name ending in .gz, .xz or .bz2 is read "
           "through gzip, xz or bzip2 (zstd and 7-Zip are not read)")
# The first bytes of the files parallel text is often kept in that hold no plain text: what each is, what to do.
NOT_TEXT = {ZIP_START: ("a zip archive (an OPUS download, an .xlsx, .ods or .docx file)", AS_TEXT),
            OLE_SIGNATURE: ("an Office 97-2003 file (.xls, .doc)", AS_TEXT),
            b"%PDF-": ("a PDF document", AS_TEXT), b"{\\rtf": ("an RTF document", AS_TEXT),
            b"\xfd7zXZ\x00": ("compressed with xz", AS_GZIP), b"\x28\xb5\x2f\xfd": ("compressed with zstd", AS_GZIP),
            b"7z\xbc\xaf\x27\x1c": ("a 7-Zip archive", AS_GZIP),
            b"PAR1": ("an Apache Parquet file (as Hugging Face datasets export a corpus)", AS_TEXT)}
BZIP2 = re.compile(rb"BZh[1-9]1AY&SY")  # a bzip2 stream's start: its block size, then a block's magic number
# A tar archive (a corpus release's .tar, .tar.gz) says so past its first member's name: read as text, that header
# was glued to the first pair (and each later member's to its first), its end's zero bytes a line of their own.
TAR_MAGIC = re.compile(rb"ustar(\x0000|  \x00)")  # POSIX's and GNU's, at byte 257 of its first header
TAR_AT = 257
AS_TAR = "extract it first (tar -xf) and give the files in it"
AS_TMX_TEXT = ("a memory is read as a training corpus's one file: give it as train_tsv (or a train entry's tsv), its "
               "segments read in source_lang and target_lang; validation text is two files of one sentence a line")
# A WMT test set's SGML (newstest2014-deen-src.en.sgm): its root, then documents of <seg id="1">…</seg> lines.
WMT_SGML = re.compile(r"<(srcset|refset|tstset)\b")
AS_SEGMENTS = ("give the text of its <seg> elements, one a line (sacrebleu -t wmt14 -l en-de --echo src writes a "
               "WMT set so)")
HEAD = 1024  # bytes looked at: a TMX's root follows its XML declaration and, at most, a comment or DOCTYPE


def check_corpus_file(path: str | Path) -> None:
    """Refuses ``path`` where it is no regular file (check_read_again), or where its first bytes are those of
    a file NOT_TEXT names, or of XML (a TMX translation memory named as such, which is read as a corpus's one
    file alone: is_tmx).  A file that cannot be read passes: reading it names why."""
    check_read_again(path)
    head = file_head(path)
    if kind := packed_kind(head):
        raise DataError(f"{path}: {kind[0]}, not text: {kind[1]}")
    text = head_text(head).lstrip("\ufeff \t\r\n")
    if tmx_head(text):
        raise DataError(f"{path}: a TMX translation memory (XML), not one sentence a line: {AS_TMX_TEXT}")
    if WMT_SGML.match(text):
        raise DataError(f"{path}: a WMT test set in SGML (<srcset>, <seg>), not one sentence a line: {AS_SEGMENTS}")
    if text.startswith("<?xml"):
        raise DataError(f"{path}: an XML file, not one sentence a line: {AS_TEXT}")


def is_tmx(path: str | Path) -> bool:
    """Whether ``path`` (decompressed where its name says so) begins as a TMX translation memory, in UTF-8 or
    UTF-16, whatever its name; False for a file that cannot be read (reading it names why)."""
    return tmx_head(head_text(file_head(path)).lstrip("\ufeff \t\r\n"))


def tmx_head(text: str) -> bool:
    """Whether a file beginning with ``text`` (its white space and byte order mark left out) is a TMX memory."""
    return "<tmx" in text and text.startswith(("<?xml", "<tmx", "<!"))


def file_head(path: str | Path) -> bytes:
    """The first HEAD bytes of ``path``, through its compression; b"" where it cannot be read."""
    try:
        with open_bytes(path) as file:
            return file.read(HEAD)
    except (OSError, *BROKEN_STREAM):  # reading it names why
        return b""


def head_text(head: bytes) -> str:
    """A file's first bytes ``head`` as text, what cannot be read left out: UTF-16 where they are (the TMX a CAT tool
    exports often is, which was refused as UTF-16 to convert, and once converted as a TMX), else UTF-8."""
    utf16 = "utf-16" if head.startswith((b"\xff\xfe", b"\xfe\xff")) else utf16_without_bom(head)
    return head.decode(utf16 or "utf-8", "ignore")


def packed_kind(head: bytes) -> tuple[str, str] | None:
    """What a file whose first bytes are ``head`` (decompressed where its name says so) is and what to give instead,
    where it is no text of itself: an archive, a document, or compressed text; None otherwise."""
    if BZIP2.match(head):
        return "compressed with bzip2", AS_GZIP
    if TAR_MAGIC.match(head, TAR_AT):
        return "a tar archive", AS_TAR
    return next((kind for magic, kind in NOT_TEXT.items() if head.startswith(magic)), None)


def check_read_again(path: str | Path) -> None:
    """Refuses, unopened, a pipe (``<(xzcat tr.en.xz)``, /dev/stdin), a device or a socket: a run reads its
    text again and again (the tokenizer's training, the tokenising, corpora.json's digest, a resume's check),
    and each read after the first found what the first had left; the two sides then "differed in length"
    by counts that meant nothing, or the run trained on part of a corpus."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # missing or unreadable: reading it names why
        return
    kind = "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise DataError(f"{path}: {kind}, which can be read once, but a run reads its text several times (to train "
                        "the tokenizer, to tokenise it, to check a resume): write it to a file first")


def check_corpora_found(config: TrainConfig) -> None:
    """Refuses a run whose training text (not prepared_dir's) cannot be read, or is no text (check_corpus_file),
    naming the config key that gives it: a missing second corpus of a ``train:`` list was "cannot read b.en: no
    such file or directory", which left the user to find which entry, and which side, named it."""
    if config.prepared_dir:
        return
    for key, path in corpus_keys(config):
        try:
            check_readable(path)
            check_read_again(path)  # before is_tmx looks into it
            if not (key.endswith("tsv") and is_tmx(path)):
                check_corpus_file(path)
        except DataError as error:
            raise DataError(f"{key}: {error}") from None


def check_corpora_text(config: TrainConfig) -> None:
    """Refuses a run (not prepared_dir's) whose two files of a corpus differ in line count, or whose text holds a
    line that is no UTF-8, naming the corpus's keys, before a sentence is tokenised (``check_parallel_files``,
    ``check_utf8``): with a tokenizer given, the text before was tokenised first, hours on a large corpus,
    before the line saying so.  After check_corpora_found, so that a file that is no text is named as such,
    not as a file of another line count."""
    if config.prepared_dir:
        return
    for prefix, spec in corpus_prefixes(config):
        files = spec.files()
        try:
            if "tsv" in files:
                if not is_tmx(files["tsv"]):  # a memory's XML declares its encoding: reading it names a fault
                    check_utf8(files["tsv"])
            else:
                check_parallel_files(files["src"], files["tgt"])
        except DataError as error:
            raise DataError(f"{', '.join(prefix + role for role in files)}: {error}") from None


def corpus_keys(config: TrainConfig) -> list[tuple[str, str]]:
    """Each training file with the key the config gives it by: ``train[1].src``, or ``train_src``."""
    return [(f"{prefix}{role}", path) for prefix, spec in corpus_prefixes(config)
            for role, path in spec.files().items()]


def corpus_prefixes(config: TrainConfig) -> list[tuple[str, CorpusSpec]]:
    """Each corpus with how the config's keys for its files begin: ``train[1].``, or ``train_``."""
    if config.train is None:
        return [("train_", config.corpora()[0])]
    return [(f"train[{i}].", spec) for i, spec in enumerate(config.corpora())]


def check_found_here(config: TrainConfig, started: Path) -> None:
    """Refuses, in one line naming the key, the file and the folders, a run started again from its train.yaml
    (trainer.started_again) whose relative path to a file it reads is not found from the current folder:
    train.yaml keeps the paths as typed, relative to the folder the run started in (``started``, as
    corpora.json recorded it), and started again from another, the run said "valid_src: cannot read
    ok/val.en: no such file or directory", naming neither."""
    here, there = Path.cwd().resolve(), started.resolve()
    for key, path in relative_inputs(config):
        if Path(path).exists():
            continue
        if there != here and (there / path).exists():
            raise ConfigError(f"{key}: {path} is not in the current folder, {here}, but in {there}, where the run "
                              "started: its train.yaml's relative paths are read from the current folder, so start "
                              f"it again from there (cd {there})")
        nor = f", nor in {there}, where the run started" if there != here else ", where the run started"
        raise DataError(f"{key}: cannot read {path}: it is not in the current folder, {here}{nor}; put it back, or "
                        "start the run again from the folder that holds it")


def relative_inputs(config: TrainConfig) -> list[tuple[str, str]]:
    """The files and folders a run of ``config`` reads by a relative path, with the keys that name them: its
    corpora (not where it trains from prepared_dir), validation sets, tokenizers, prepared_dir and init_from."""
    named = [] if config.prepared_dir else corpus_keys(config)
    named += [(key, getattr(config, key))
              for key in (*VALIDATION_KEYS, "tokenizer", "target_tokenizer", "prepared_dir", "init_from")]
    if config.train is not None:
        named += [(prefix + key, getattr(spec, key)) for prefix, spec in corpus_prefixes(config)
                  for key in VALIDATION_KEYS]
    return [(key, path) for key, path in named if path and not os.path.isabs(os.path.expanduser(path))]
