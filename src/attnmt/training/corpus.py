"""Prepared training data: every corpus as flat token arrays on disk, read pair by pair as batches need them.

A prepared directory (written by ``attnmt prepare``, or on the fly by ``attnmt train``)::

    header.json       format version, the tokenizer's fingerprint, settings, and per corpus
                      its source files, counts, array types and filter report
    spm.model         the tokenizer that made it
    corpus0/          one folder per corpus, six raw arrays (no header of their own):
      src.tokens      every kept source sentence's ids, back to back    [total source tokens]
      src.starts      where pair i's source begins in src.tokens        [pairs] int64
      src.lengths     how many ids it has                               [pairs] uint16 (or int32)
      tgt.tokens, tgt.starts, tgt.lengths   the same for the target

Pair i's source is ``src.tokens[src.starts[i] : src.starts[i] + src.lengths[i]]``.  Only the
lengths are read into memory (4 bytes a pair), for batching; the tokens and starts stay on
disk and a batch reads just its own pairs, so training memory does not grow with the corpus.

They are read with ``os.pread`` (ArrayFile), not through memory maps: a memory map keeps
every page it has touched, and the kernel maps 16 neighbouring pages on each touch, so
scattered reads made a large training run's RSS grow batch after batch (docs/training.md,
"Large corpora"); read with pread, the pages stay in the kernel's page cache (shared,
reclaimable) and RSS stays flat.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attnmt.errors import DataError, json_value
from attnmt.text.data import Example
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer

FORMAT_VERSION = 1
HEADER = "header.json"
SIDES = ("src", "tgt")
PREPARE_AGAIN = "run 'attnmt prepare CONFIG' again"
# How a leading language tag among a SentencePiece model's pieces is read (Tokenizer.language_token_alone).
TAG_READING = {True: "alone, as Marian reads it", False: "after a '▁' (as models from before language_token_alone do)"}
CHECK_CHUNK = 1 << 24  # ids read at a time when a token file's ids are checked (32 or 64 MB)


def tokenizer_fingerprint(tokenizer: Tokenizer | VocabTokenizer, language_token_alone: bool | None = None) -> str:
    """SHA-256 of what turns text into ids (the SentencePiece models, a Marian vocabulary, whether
    sources end with </s>, whether a leading language tag among the pieces is read alone, which a
    tokenizer without such a tag leaves out): prepared ids are only valid with the same.
    ``language_token_alone``: the fingerprint of ``tokenizer`` reading a tag so (None: as it does)."""
    if language_token_alone is None:
        language_token_alone = isinstance(tokenizer, Tokenizer) and tokenizer.language_token_alone
    digest = hashlib.sha256()
    for proto in tokenizer.model_protos:
        digest.update(hashlib.sha256(proto).digest())
    if isinstance(tokenizer, VocabTokenizer):
        vocabularies = (tokenizer.source_vocab, tokenizer.target_vocab)
        digest.update(json.dumps(vocabularies, sort_keys=True, ensure_ascii=False).encode())
    elif language_token_alone and tokenizer.language_tokens:  # read after a "▁" (SentencePiece's way) ids differ
        digest.update(b"leading language token alone")
    digest.update(b"source </s>" if tokenizer.source_eos else b"")
    return digest.hexdigest()


def smallest_uint(largest: int) -> np.dtype:
    """uint16 when every value up to ``largest`` fits (a vocabulary of 32000: 2 bytes a token), else int32."""
    return np.dtype(np.uint16) if largest <= np.iinfo(np.uint16).max else np.dtype(np.int32)


class ArrayFile:
    """A 1-D array in a raw binary file, read by index or slice with ``os.pread`` (never mapped)."""

    def __init__(self, path: Path, dtype: np.dtype, count: int) -> None:
        self.file = open(path, "rb")  # open while the corpus is read, closed with it
        self.dtype, self.count = dtype, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, key: int | slice) -> np.ndarray:
        start, stop, _ = key.indices(self.count) if isinstance(key, slice) else (key, key + 1, 1)
        size = self.dtype.itemsize
        values = np.frombuffer(os.pread(self.file.fileno(), (stop - start) * size, start * size), self.dtype)
        return values if isinstance(key, slice) else values[0]

    def read(self) -> np.ndarray:
        """The whole array, in memory."""
        return self[0 : self.count]

    def value_range(self) -> tuple[int, int]:
        """The smallest and largest value, read CHECK_CHUNK values at a time (memory stays bounded);
        (0, -1) when empty."""
        chunks = (self[start : start + CHECK_CHUNK] for start in range(0, self.count, CHECK_CHUNK))
        ranges = [(int(chunk.min()), int(chunk.max())) for chunk in chunks]
        return (min(low for low, _ in ranges), max(high for _, high in ranges)) if ranges else (0, -1)


@dataclass(frozen=True)
class Side:
    """One side (source or target) of a corpus: ids back to back, and each pair's start and length."""

    tokens: np.ndarray | ArrayFile  # [total tokens] the ids of every sentence, concatenated
    starts: np.ndarray | ArrayFile  # [pairs] int64: where each sentence begins in tokens
    lengths: np.ndarray  # [pairs] each sentence's number of ids

    def ids(self, i: int) -> list[int]:
        start = int(self.starts[i])
        return self.tokens[start : start + int(self.lengths[i])].tolist()

    @classmethod
    def from_lists(cls, rows: Sequence[list[int]], dtype: np.dtype) -> Side:
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        starts = np.cumsum(lengths) - lengths
        tokens = np.fromiter((i for row in rows for i in row), dtype=dtype, count=int(lengths.sum()))
        return cls(tokens, starts, lengths.astype(smallest_uint(int(lengths.max(initial=0)))))


@dataclass(frozen=True)
class TokenCorpus:
    """Sentence pairs as ids (prepared on disk or built in memory); ``examples`` fetches a batch's pairs."""

    src: Side
    tgt: Side

    def __len__(self) -> int:
        return len(self.src.lengths)

    def examples(self, indices: Sequence[int] | np.ndarray) -> list[Example]:
        """The pairs at ``indices``, in that order, as Examples (ids without BOS/EOS)."""
        return [Example(self.src.ids(i), self.tgt.ids(i)) for i in map(int, indices)]

    @classmethod
    def from_examples(cls, examples: Sequence[Example]) -> TokenCorpus:
        """An in-memory corpus of ``examples`` (a validation set, a test's handful of pairs)."""
        largest = max((i for ex in examples for i in (*ex.src, *ex.tgt)), default=0)
        dtype = smallest_uint(largest)
        return cls(Side.from_lists([ex.src for ex in examples], dtype),
                   Side.from_lists([ex.tgt for ex in examples], dtype))


def array_files(entry: dict) -> dict[str, tuple[np.dtype, int]]:
    """Each of a corpus's array files with its element type and length, as its header entry records them."""
    files = {}
    for side in SIDES:
        files[f"{side}.tokens"] = (np.dtype(entry["token_dtype"]), entry[f"{side}_tokens"])
        files[f"{side}.starts"] = (np.dtype(np.int64), entry["pairs"])
        files[f"{side}.lengths"] = (np.dtype(entry["length_dtype"]), entry["pairs"])
    return files


def read_header(folder: Path) -> dict:
    """The header of a prepared directory, its format version checked."""
    path = folder / HEADER
    if not path.is_file():
        why = f"no {HEADER}" if folder.is_dir() else "a file" if folder.exists() else "there is no such folder"
        raise DataError(f"{folder}: not a prepared corpus directory ({why}); {PREPARE_AGAIN}")
    try:
        header = json_value(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: not valid JSON ({err}); {PREPARE_AGAIN}") from None
    version = header.get("version") if isinstance(header, dict) else None
    if version != FORMAT_VERSION:
        raise DataError(f"{folder}: prepared in format version {version}, this attnmt reads version "
                        f"{FORMAT_VERSION}; {PREPARE_AGAIN}")
    missing = sorted({"tokenizer_sha256", "max_len", "max_length_ratio", "corpora"} - header.keys())
    if missing:
        raise DataError(f"{path}: lacks {', '.join(missing)}; {PREPARE_AGAIN}")
    return header


def check_tokenizer(folder: Path, header: dict, tokenizer: Tokenizer | VocabTokenizer, tokenizer_source: str) -> None:
    """Refuses ids made by another tokenizer: they would silently mean other pieces."""
    found, expected = header["tokenizer_sha256"], tokenizer_fingerprint(tokenizer)
    if found != expected and isinstance(tokenizer, Tokenizer) and tokenizer.language_tokens:
        alone = not tokenizer.language_token_alone
        if found == tokenizer_fingerprint(tokenizer, alone):  # the same tokenizer, the tag read the other way
            raise DataError(f"{folder} was prepared reading a leading language tag ({min(tokenizer.language_tokens)}) "
                            f"{TAG_READING[alone]}, this run reads it {TAG_READING[not alone]}: {PREPARE_AGAIN}")
    if found != expected:
        raise DataError(f"{folder} was prepared with another tokenizer (sha256 {found[:12]}…, {tokenizer_source} "
                        f"is {expected[:12]}…): prepare it again with this tokenizer, or leave tokenizer unset "
                        f"to train with the directory's own")


def open_corpus(folder: Path, entry: dict, vocab_sizes: tuple[int, int]) -> TokenCorpus:
    """One corpus of a prepared directory, its lengths in memory; every file's size is checked against the header,
    and the ids of each side against its vocabulary (``vocab_sizes``: source, target)."""
    arrays = {}
    for name, (dtype, count) in array_files(entry).items():
        path = folder / entry["folder"] / name
        expected = dtype.itemsize * count
        size = path.stat().st_size if path.is_file() else None
        if size != expected:
            found = "missing" if size is None else f"{size} bytes"
            raise DataError(f"{path}: {found}, the header says {expected} bytes (truncated or from another "
                            f"preparation); {PREPARE_AGAIN}")
        arrays[name] = ArrayFile(path, dtype, count)
    for side, vocab_size in zip(SIDES, vocab_sizes, strict=True):
        check_ids(folder / entry["folder"] / f"{side}.tokens", arrays[f"{side}.tokens"], vocab_size)
    sides = [Side(arrays[f"{side}.tokens"], arrays[f"{side}.starts"],
                  arrays[f"{side}.lengths"].read())  # in memory: batching reads them all
             for side in SIDES]
    return TokenCorpus(*sides)


def check_ids(path: Path, tokens: ArrayFile, vocab_size: int) -> None:
    """Refuses a token file with an id outside 0 .. vocab_size - 1 (a damaged file, or one another program
    wrote), which the embedding would meet mid-training as an IndexError.  The ids are read, not a maximum
    the header recorded at preparation: a file damaged since would pass that.  One pass over the file,
    as each epoch makes, cheap beside the tokenising that wrote it."""
    low, high = tokens.value_range()
    if low < 0 or high >= vocab_size:
        raise DataError(f"{path}: holds id {high if high >= vocab_size else low}, outside the vocabulary "
                        f"0..{vocab_size - 1} of the tokenizer it was prepared with (damaged, or written by "
                        f"another program); {PREPARE_AGAIN}")


class SideWriter:
    """Appends one side's encoded chunks to its token file; keeps the lengths (and so the starts) in memory."""

    def __init__(self, folder: Path, side: str, token_dtype: np.dtype) -> None:
        self.folder, self.side, self.token_dtype = folder, side, token_dtype
        self.file = open(folder / f"{side}.tokens", "wb")  # closed by finish
        self.lengths: list[np.ndarray] = []
        self.tokens = 0

    def add(self, tokens: np.ndarray, lengths: np.ndarray) -> None:
        self.file.write(tokens.astype(self.token_dtype, copy=False).tobytes())
        self.lengths.append(lengths)
        self.tokens += len(tokens)

    def finish(self, keep: np.ndarray, length_dtype: np.dtype) -> None:
        """Writes the starts and lengths of the pairs ``keep`` selects (the token file keeps every pair's ids:
        pairs dropped as duplicates only after encoding cost their bytes, not an index entry)."""
        self.file.close()
        lengths = np.concatenate(self.lengths) if self.lengths else np.zeros(0, np.int64)
        starts = np.cumsum(lengths) - lengths
        starts[keep].astype(np.int64).tofile(self.folder / f"{self.side}.starts")
        lengths[keep].astype(length_dtype).tofile(self.folder / f"{self.side}.lengths")
