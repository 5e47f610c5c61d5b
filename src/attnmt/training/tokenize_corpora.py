"""Text corpora -> a prepared directory (corpus.py): tokenised once, in parallel, filtered, written atomically.

    text ─ stream in chunks ─ worker processes: encode_pairs, length filters ─ append to the arrays
                                                                    └─ duplicates dropped at the end

The text is streamed: only a few chunks of sentences are in memory at a time, and
per pair only its two lengths and an 8-byte hash, so preparing 40 M pairs needs about
0.5 GB beyond the chunks.  The filters, each counted in the report, and why each drops what it
drops: attnmt.training.corpus_filters.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.pool
import os
import signal
import tempfile
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict
from functools import partial
from itertools import chain, islice
from pathlib import Path
from typing import Any

import numpy as np

from attnmt.decoding.glossary_headers import csv_header
from attnmt.errors import ConfigError, DataError
from attnmt.files import LOCK, atomic_folder, file_digest, file_in_the_way, write_failure
from attnmt.text.language_codes import is_language_code
from attnmt.text.parallel_text import ReadReport, nonempty_pairs, stream_parallel, stream_tsv
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.tokenizer_files import read_tokenizer, save_tokenizer
from attnmt.text.translation_memory import stream_tmx
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training.corpus import (
    FORMAT_VERSION,
    HEADER,
    PREPARE_AGAIN,
    SideWriter,
    TokenCorpus,
    check_tokenizer,
    open_corpus,
    read_header,
    smallest_uint,
    tokenizer_fingerprint,
)
from attnmt.training.corpus_files import check_corpus_file, check_read_again, is_tmx
from attnmt.training.corpus_filters import EncodedChunk, FilterReport, Filters, encode_chunk

CHUNK_PAIRS = 10_000  # pairs per task sent to a worker: large enough to hide the cost of sending it


_worker_settings: tuple[Tokenizer | VocabTokenizer, Filters] | None = None  # set once in each worker process


def _start_worker(tokenizer: Tokenizer | VocabTokenizer | Path, filters: Filters, reads: tuple[bool, bool]) -> None:
    """A worker's set-up.  Its signals are put back to what a plain process does: forked, it inherited
    the command's handlers (attnmt.cli.main raises Terminated on SIGTERM), and the pool ends its
    workers with SIGTERM, each of which then printed a traceback.  Ctrl-C reaches the whole process
    group: the command stops the pool; a worker ignores it.  ``tokenizer``: the folder its files were
    saved in where the worker was not forked (encoded_chunks), read as ``reads`` says (source_eos,
    language_token_alone)."""
    global _worker_settings
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if isinstance(tokenizer, Path):
        tokenizer = read_tokenizer(tokenizer, *reads)
    _worker_settings = (tokenizer, filters)


class EncodingPool(multiprocessing.pool.Pool):
    """A Pool whose workers end quietly when the command is gone, and that tells a worker that died from one
    at work.  Killed while they encoded (SIGKILL alone, as ``kill -9`` or the OOM killer sends it), its workers'
    results had nowhere to go, and each printed two BrokenPipeError tracebacks under the shell's "Killed"."""

    def __init__(self, processes: int, *args: Any, **kwargs: Any) -> None:
        self.size, self.started = processes, 0  # the pool's workers, and the processes made for them
        super().__init__(processes, *args, **kwargs)

    def Process(self, ctx, *args, **kwds):  # noqa: N802 (multiprocessing's name for the hook that makes each worker)
        self.started += 1
        return ctx.Process(*args, **{**kwds, "target": partial(_quiet_when_orphaned, kwds["target"])})

    def result(self, pending: multiprocessing.pool.AsyncResult) -> EncodedChunk:
        """``pending``'s chunk once encoded.  A worker never ends while there is work, so one made beyond the
        first ``size`` replaces a dead one: Pool makes another, forever, and a task sent to the dead one never
        returns (a worker the OOM killer ended; spawned by a script with no ``__main__`` guard, every worker,
        as it started)."""
        while not pending.ready():
            pending.wait(0.5)
            if self.started > self.size:
                raise ConfigError(DEAD_WORKER)
        return pending.get()


DEAD_WORKER = ("a worker process tokenising the corpora died: it was killed (out of memory, or by a signal), or, where "
               "processes are spawned (macOS, Windows, Python 3.14 on Linux), the script preparing the corpora does "
               "so outside 'if __name__ == \"__main__\":', where each worker runs it again and dies as it starts "
               "(or give prepare_workers: 1)")


def _quiet_when_orphaned(work: Callable[..., None], *args: Any) -> None:
    """multiprocessing's worker loop, ``work``, where a result that cannot be sent (the pipe's reader, the
    command, is gone) ends the worker without a word: nobody is left to read it or the traceback."""
    try:
        work(*args)
    except BrokenPipeError:
        return


def _encode_in_worker(pairs: list[tuple[str, str]]) -> EncodedChunk:
    return encode_chunk(pairs, *_worker_settings)


def encoded_chunks(chunks: Iterator[list[tuple[str, str]]], tokenizer: Tokenizer | VocabTokenizer, filters: Filters,
                   workers: int, context: multiprocessing.context.BaseContext | None = None) -> Iterator[EncodedChunk]:
    """``chunks`` encoded in order, by ``workers`` processes when there is more than one chunk.

    At most two chunks per worker are in flight, so the text is never read much ahead
    of the encoding (Pool.imap would read the whole corpus into its queue).  A forked worker has the
    tokenizer already; one spawned (``context``: multiprocessing's default where None) reads it from a
    temporary folder: pickled, it was larger than a pipe holds, and the write of it to a worker that died
    at start-up blocked for ever.
    """
    head = list(islice(chunks, 2))
    if len(head) < 2 or workers < 2:  # a small corpus: starting processes would cost more than it saves
        yield from (encode_chunk(chunk, tokenizer, filters) for chunk in chain(head, chunks))
        return
    context = context or multiprocessing.get_context()
    reads = (tokenizer.source_eos, isinstance(tokenizer, Tokenizer) and tokenizer.language_token_alone)
    with tempfile.TemporaryDirectory(prefix="attnmt-tokenizer-") as folder:
        given: Tokenizer | VocabTokenizer | Path = tokenizer
        if context.get_start_method() != "fork":
            save_tokenizer(tokenizer, Path(folder))
            given = Path(folder)
        with EncodingPool(workers, _start_worker, (given, filters, reads), context=context) as pool:
            pending: deque = deque()
            for chunk in chain(head, chunks):
                pending.append(pool.apply_async(_encode_in_worker, (chunk,)))
                if len(pending) >= 2 * workers:
                    yield pool.result(pending.popleft())
            while pending:
                yield pool.result(pending.popleft())
            pool.close()  # the workers end on their own; leaving the with block would kill them (SIGTERM)
            pool.join()


def text_pairs(spec: CorpusSpec, report: ReadReport) -> Iterator[tuple[str, str]]:
    """The corpus's stripped non-empty pairs, streamed; ``report`` counts them and the empty ones.  A file
    that is no text (a spreadsheet, a TMX memory as one side) is refused first (check_corpus_file); a TMX
    memory as the one file of pairs is read in the corpus's languages (stream_tmx)."""
    languages = (spec.source_lang, spec.target_lang)
    for path in spec.files().values():
        check_read_again(path)  # first: a pipe looked into has lost what was looked at
    if spec.tsv and is_tmx(spec.tsv):
        return nonempty_pairs(stream_tmx(spec.tsv, languages, report), report)
    for path in spec.files().values():
        check_corpus_file(path)
    if spec.tsv:
        return nonempty_pairs(without_header(stream_tsv(spec.tsv, report), spec.tsv, report, languages), report)
    return nonempty_pairs(stream_parallel(spec.src, spec.tgt), report)


def without_header(raw: Iterator[tuple[str, str]], path: str, report: ReadReport,
                   languages: tuple[str | None, str | None] = (None, None)) -> Iterator[tuple[str, str]]:
    """A tsv's raw pairs, the first left out where it names the columns rather than translating (``en<TAB>de``,
    ``"source"<TAB>"target"`` as pandas and spreadsheets head a sheet; in quotes or not: a file whose quotes stay
    part of its cells has them around it too), as ``is_header`` tells with the ``languages`` translated, and kept
    in ``report.header``: it was trained on as a pair."""
    first = next(raw, None)
    if first is None:
        return
    cells = [side.strip().strip('"') for side in first]
    if all(cells) and is_header(cells, path, languages):
        report.header = "<TAB>".join(cells)
    else:
        yield first
    yield from raw


def is_header(cells: list[str], path: str, languages: tuple[str | None, str | None]) -> bool:
    """Whether a tsv's first line ``cells`` heads its columns, as a glossary's header is told (csv_header): where
    the ``languages`` translated are known, it names those (``no<TAB>ja``, English "no" and German "ja", is then a
    pair, where without them two codes of ISO 639-1 are a header); one naming others (``de<TAB>en`` for en -> de,
    columns the wrong way round, another pair's ``en<TAB>fr``, or ``English<TAB>French`` by name) is a DataError,
    before the run trains on them."""
    if None in languages:
        return csv_header(cells, f"{path}:1", None, None)
    try:
        if csv_header(cells, f"{path}:1", *languages):  # German names too, where the languages are known: Englisch
            return True
        if not csv_header(cells, f"{path}:1", None, None) or all(map(is_language_code, cells)):
            return False  # words, or two codes of other languages, neither translated at its place (no, ja)
    except DataError:  # named the wrong way round, or one of them another language: said in a corpus's words
        pass
    raise DataError(f"{path}:1: the header names the columns {cells[0]} -> {cells[1]}, and the run translates "
                    f"{languages[0]} -> {languages[1]} (source_lang and target_lang, or init_from's, or the "
                    "validation files' names): swap the columns where they are the wrong way round, or give "
                    "this pair's corpus")


def chunked(pairs: Iterable[tuple[str, str]], size: int) -> Iterator[list[tuple[str, str]]]:
    """Lists of ``size`` pairs (the last one shorter), taken from the stream as they are needed."""
    pairs = iter(pairs)
    while chunk := list(islice(pairs, size)):
        yield chunk


def tokenize_corpus(spec: CorpusSpec, index: int, tokenizer: Tokenizer | VocabTokenizer, folder: Path, filters: Filters,
                   workers: int) -> dict:
    """Writes one corpus into ``folder``/corpus``index``; returns its header entry."""
    entry = {"name": spec.name, "folder": f"corpus{index}", "files": spec.files(),
             "sources": {role: file_identity(path) for role, path in spec.files().items()},
             "token_dtype": smallest_uint(max(tokenizer.vocab_size, tokenizer.source_vocab_size) - 1).name,
             "length_dtype": smallest_uint(filters.max_len).name}
    (folder / entry["folder"]).mkdir()
    writers = [SideWriter(folder / entry["folder"], side, np.dtype(entry["token_dtype"])) for side in ("src", "tgt")]
    filters = filters.for_corpus(spec)
    read, report, hashes = ReadReport(0, 0), FilterReport(kept_untranslated=bool(filters.keep_untranslated)), []
    for chunk in encoded_chunks(chunked(text_pairs(spec, read), CHUNK_PAIRS), tokenizer, filters, workers):
        writers[0].add(chunk.src_tokens, chunk.src_lengths)
        writers[1].add(chunk.tgt_tokens, chunk.tgt_lengths)
        hashes.append(chunk.hashes)
        report.too_long += chunk.too_long
        report.length_ratio += chunk.length_ratio
        report.untranslated += chunk.untranslated
    all_hashes = np.concatenate(hashes) if hashes else np.zeros(0, np.int64)
    keep = np.zeros(len(all_hashes), dtype=bool)
    keep[np.unique(all_hashes, return_index=True)[1]] = True  # each hash's first pair
    for writer in writers:
        writer.finish(keep, np.dtype(entry["length_dtype"]))
    report.read = read.pairs + read.skipped_empty + read.skipped_long + read.malformed + read.unpaired
    report.empty, report.long_lines = read.skipped_empty, read.skipped_long
    report.malformed, report.first_malformed, report.header = read.malformed, read.first_malformed, read.header
    report.unpaired, report.first_unpaired, report.languages = read.unpaired, read.first_unpaired, read.languages
    report.kept = int(keep.sum())
    report.duplicates = len(keep) - report.kept
    return {**entry, "pairs": report.kept, "src_tokens": writers[0].tokens, "tgt_tokens": writers[1].tokens,
            "report": asdict(report)}


def tokenize_corpora(corpora: list[CorpusSpec], tokenizer: Tokenizer | VocabTokenizer, out: str | Path,
                     filters: Filters, workers: int = 0, log: Callable[[str], None] = print,
                     vocab_size: int | None = None, tokenizer_options: dict | None = None) -> Path:
    """Prepares ``corpora`` into the directory ``out``, atomically: everything is written into a
    temporary sibling that replaces ``out`` only when complete, so an interrupted preparation
    never leaves a directory that looks prepared.  ``workers``: 0 = one per CPU core.
    ``vocab_size`` and ``tokenizer_options``: what the tokenizer was trained with (it may have fewer
    pieces), kept in the header so that a run can tell whether its config asks for this tokenizer;
    None: it was given."""
    out = Path(out)
    check_out(out)

    def fill(tmp: Path) -> None:
        entries = []
        for index, spec in enumerate(corpora):
            entries.append(tokenize_corpus(spec, index, tokenizer, tmp, filters, workers or os.cpu_count() or 1))
            log(f"{spec.name}: {FilterReport(**entries[-1]['report']).summary(filters)}")
        save_tokenizer(tokenizer, tmp)
        header = {"format": "attnmt prepared corpora", "version": FORMAT_VERSION,
                  "tokenizer_sha256": tokenizer_fingerprint(tokenizer), "vocab_size": vocab_size,
                  "tokenizer_options": tokenizer_options, **asdict(filters), "corpora": entries}
        (tmp / HEADER).write_text(json.dumps(header, indent=1), encoding="utf-8")

    return atomic_folder(out, fill)


def check_out(out: Path) -> None:
    """Refuses, in one line and before any work, a directory ``out`` that a preparation could not
    replace: a file, a path under a file, a folder of other things, or one it cannot write beside
    (the preparation is written into a temporary sibling first).  A lock file alone is no content:
    the folder's holder (a preparation that just began) is named when prepare_config claims it."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out} is a file, not a directory: give a new or empty directory to prepare into")
    if out.is_dir() and not (out / HEADER).is_file() and any(entry.name != LOCK for entry in out.iterdir()):
        raise ConfigError(f"{out} exists and is not a prepared directory: give an empty or new directory")
    above = file_in_the_way(out)  # the nearest folder above that exists
    if not above.is_dir():
        raise ConfigError(f"{out}: {above} is a file, not a directory")
    try:
        tempfile.TemporaryFile(dir=above).close()
    except OSError as error:
        raise ConfigError(f"{out}: cannot write into {above}: {write_failure(error)}") from None


def open_prepared(folder: str | Path, config: TrainConfig, tokenizer: Tokenizer | VocabTokenizer, tokenizer_source: str,
                  log: Callable[[str], None] = print, resumed: bool = False) -> list[TokenCorpus]:
    """The corpora of a prepared directory (lengths in memory, ids on disk), after checking that it holds
    what ``config`` asks for (the same corpora, filters and format) and was made by ``tokenizer``.
    ``resumed``: a resumed run, whose header.json its resume found the one it trained on
    (resume_checks.check_same_corpora): the arrays are its data, so the text files are compared by where
    they are, not by their bytes (``same_place``): "run 'attnmt prepare' again" for a file edited since led
    to data the resume then refused."""
    folder = Path(folder)
    header = read_header(folder)
    check_tokenizer(folder, header, tokenizer, tokenizer_source)
    filters = Filters.of(config)
    wanted = [spec.files() for spec in config.corpora()]
    found = [entry["files"] for entry in header["corpora"]]
    same = len(wanted) == len(found) and all(map(same_place if resumed else same_corpus, wanted, header["corpora"]))
    if not same and wanted == found:  # the same paths, as header.json records its sources: name those changed
        changed = [files[role] for files, entry in zip(wanted, header["corpora"], strict=True) for role in files
                   if not same_file(files[role], entry["sources"][role], entry["files"][role])]
        raise DataError(f"{', '.join(changed)}: changed since {folder} was prepared from "
                        f"{'it' if len(changed) == 1 else 'them'}: {PREPARE_AGAIN}")
    if not same or (header["max_len"], header["max_length_ratio"]) != (filters.max_len, filters.max_length_ratio):
        raise DataError(f"{folder} was prepared from {found} with max_len {header['max_len']}, max_length_ratio "
                        f"{header['max_length_ratio']}; the config asks for {wanted} with max_len {filters.max_len}, "
                        f"max_length_ratio {filters.max_length_ratio}: {PREPARE_AGAIN}")
    check_untranslated(folder, config.corpora(), header["corpora"], filters)
    corpora = []
    for spec, entry in zip(config.corpora(), header["corpora"], strict=True):
        corpora.append(open_corpus(folder, entry, (tokenizer.source_vocab_size, tokenizer.vocab_size)))
        log(f"{spec.name}: {FilterReport(**entry['report']).summary(filters)} (prepared in {folder})")
    return corpora


def check_untranslated(folder: Path, specs: list[CorpusSpec], entries: list[dict], filters: Filters) -> None:
    """Refuses a prepared directory whose corpus dropped its untranslated pairs where ``filters`` keep them, or
    kept them where they drop them (keep_untranslated, or the corpus's file names, say otherwise now)."""
    for spec, entry in zip(specs, entries, strict=True):
        kept = entry["report"].get("kept_untranslated", False)
        if kept == filters.for_corpus(spec).keep_untranslated:
            continue
        setting = filters.keep_untranslated
        why = (f"keep_untranslated: {str(setting).lower()}" if setting is not None else
               f"keep_untranslated unset, and its files' names {'say no' if kept else 'end in'} one language")
        raise DataError(f"{folder} was prepared {'keeping' if kept else 'dropping'} the untranslated pairs of "
                        f"{spec.name}, the config {'drops' if kept else 'keeps'} them ({why}): {PREPARE_AGAIN}")


def file_identity(path: str) -> dict:
    """What tells a corpus file from another, kept in header.json (and a run's corpora.json): its full
    path, size, modification time, and the SHA-256 of its bytes (reading it costs little beside
    tokenising it; remembered per file: attnmt.files.file_digest)."""
    resolved = Path(path).resolve()
    try:
        info = resolved.stat()
        digest = file_digest(resolved)
    except OSError as error:
        raise DataError(f"cannot read {path}: {(error.strerror or str(error)).lower()}") from None
    return {"path": str(resolved), "size": info.st_size, "mtime_ns": info.st_mtime_ns, "sha256": digest}


def same_corpus(files: dict[str, str], entry: dict) -> bool:
    """Whether the corpus files a config names (``files``: role -> path) are those ``entry`` (of
    header.json) was prepared from: the same bytes, however the path is written.  A directory of an
    earlier release recorded only the paths as written: those must match.  A file that is gone
    matches by its path (a prepared directory is what training reads)."""
    if "sources" not in entry:
        return files == entry["files"]
    return files.keys() == entry["sources"].keys() and all(
        same_file(files[role], entry["sources"][role], entry["files"][role]) for role in files)


def same_place(files: dict[str, str], entry: dict) -> bool:
    """Whether the corpus files a config names (``files``: role -> path) are where those ``entry`` (of header.json)
    was prepared from are, as written or resolved, whatever their bytes now (a resumed run's check: open_prepared)."""
    sources = entry.get("sources", {})
    return files.keys() == entry["files"].keys() and all(
        path == entry["files"][role] or str(Path(path).resolve()) == sources.get(role, {}).get("path")
        for role, path in files.items())


def same_file(path: str, recorded: dict, written: str) -> bool:
    """Whether ``path`` is the file ``recorded`` (file_identity) describes, first written as ``written``."""
    resolved = Path(path).resolve()
    try:
        info = resolved.stat()
    except OSError:
        return str(resolved) == recorded["path"] or path == written
    if info.st_size != recorded["size"]:
        return False
    if str(resolved) == recorded["path"] and info.st_mtime_ns == recorded["mtime_ns"]:
        return True  # unchanged, without reading it again
    return file_identity(path)["sha256"] == recorded["sha256"]


# The functions' earlier names ("prepare" also named the inference copy, attnmt.fast.prepare):
# importable, with a warning, for one more release.
RENAMED = {"prepare": "tokenize_corpora", "prepare_corpus": "tokenize_corpus"}


def __getattr__(name: str) -> Any:
    if name in RENAMED:
        warnings.warn(f"attnmt.training.tokenize_corpora.{name} is now {RENAMED[name]}; the old name goes in the next "
                      "release", DeprecationWarning, stacklevel=2)
        return globals()[RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
