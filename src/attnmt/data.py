"""Parallel text in, padded batches out.

    read_parallel / read_tsv   files -> (source, target) sentence pairs
    encode_pairs               pairs -> token-id Examples, too-long ones filtered
    TokenBatcher               Examples -> Batches of about `max_tokens` tokens each

Batching by tokens rather than sentences, from length-sorted examples, keeps
padding low and the cost of every step about the same (the paper's batches held
~25000 source and ~25000 target tokens).
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from attnmt.errors import DataError
from attnmt.tokenizer import BOS_ID, EOS_ID, PAD_ID, Tokenizer, VocabTokenizer

UTF8_BOM = b"\xef\xbb\xbf"


@dataclass
class ReadReport:
    """What reading (and encoding) a corpus kept and dropped.

    `pairs` counts the pairs returned by the reader; `filtered_long` is filled in by
    the caller from `encode_pairs`, and `max_len` (if set) names its limit in `summary`.
    """

    pairs: int
    skipped_empty: int
    filtered_long: int = 0
    max_len: int | None = None

    def summary(self) -> str:
        """One human line, e.g. "read 29000 pairs (skipped 3 empty, filtered 12 longer than
        256 tokens)"."""
        notes = []
        if self.skipped_empty:
            notes.append(f"skipped {self.skipped_empty} empty")
        if self.filtered_long:
            limit = f"longer than {self.max_len} tokens" if self.max_len else "too long"
            notes.append(f"filtered {self.filtered_long} {limit}")
        detail = f" ({', '.join(notes)})" if notes else ""
        return f"read {self.pairs} pairs{detail}"


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file, plain or gzip-compressed (by a `.gz` suffix).

    Only the line ending ("\\n" or "\\r\\n") is removed; a leading byte-order mark too.
    """
    path = Path(path)
    return decode_lines(_read_bytes(path), str(path))


def decode_lines(data: bytes, source: str) -> list[str]:
    """Splits UTF-8 bytes into lines at "\n" only (never at the other characters
    ``str.splitlines`` breaks on, such as U+2028), so line N is what ``wc -l`` counts as N.
    ``source`` names the file (or stdin) in the error for invalid UTF-8.
    """
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise DataError(
            f"{source}:{line}: invalid UTF-8 (byte 0x{data[err.start]:02x}); "
            "convert the file to UTF-8, e.g. with iconv"
        ) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _read_bytes(path: Path) -> bytes:
    """Raw bytes of `path`, gunzipped if its name ends in `.gz`."""
    if path.suffix != ".gz":
        return path.read_bytes()
    try:
        with gzip.open(path, "rb") as f:
            return f.read()
    except (gzip.BadGzipFile, EOFError) as err:
        raise DataError(f"{path}: not a valid gzip file ({err})") from None


def read_parallel(
    src_path: str | Path, tgt_path: str | Path
) -> tuple[list[tuple[str, str]], ReadReport]:
    """Aligned sentence pairs from two files, line i of one translating line i of the other.

    Text is stripped; a pair with an empty side is skipped and counted in the report.
    """
    src_lines, tgt_lines = read_lines(src_path), read_lines(tgt_path)
    if len(src_lines) != len(tgt_lines):
        raise DataError(
            f"parallel files differ in length: {src_path} has {len(src_lines)} lines, "
            f"{tgt_path} has {len(tgt_lines)}; line i of one must translate line i of the other"
        )
    return _keep_nonempty(zip(src_lines, tgt_lines, strict=True))


def read_tsv(path: str | Path) -> tuple[list[tuple[str, str]], ReadReport]:
    """Sentence pairs from one file of "source<TAB>target" lines.

    Empty lines, and pairs with an empty side, are skipped and counted in the report.
    """
    raw_pairs = []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            raw_pairs.append(("", ""))  # counted as skipped by _keep_nonempty
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            raise DataError(
                f"{path}:{number}: expected 'source<TAB>target' with exactly one tab, "
                f"found {len(fields) - 1} tabs"
            )
        raw_pairs.append((fields[0], fields[1]))
    return _keep_nonempty(raw_pairs)


def _keep_nonempty(
    raw_pairs: Iterable[tuple[str, str]],
) -> tuple[list[tuple[str, str]], ReadReport]:
    """Strip both sides; drop (and count) pairs where either side is then empty."""
    pairs, skipped = [], 0
    for src, tgt in raw_pairs:
        src, tgt = src.strip(), tgt.strip()
        if src and tgt:
            pairs.append((src, tgt))
        else:
            skipped += 1
    return pairs, ReadReport(pairs=len(pairs), skipped_empty=skipped)


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
    srcs = tokenizer.encode_batch([src for src, _ in pairs])
    tgts = tokenizer.encode_target_batch([tgt for _, tgt in pairs])
    examples = [
        Example(src, tgt)
        for src, tgt in zip(srcs, tgts, strict=True)
        if len(src) <= max_len and len(tgt) + 1 <= max_len
    ]
    return examples, len(pairs) - len(examples)


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


def batch_cost(n_sentences: int, max_src_len: int, max_tgt_len: int) -> int:
    """Padded positions a batch occupies: sentences x the longer of source and target + 1."""
    return n_sentences * max(max_src_len, max_tgt_len + 1)


def token_budget_batches(examples: Sequence[Example], max_tokens: int) -> list[list[int]]:
    """Cut examples sorted by (tgt len, src len) into consecutive batches of cost <= max_tokens.

    An example that alone exceeds the budget still gets a batch of its own.
    """
    order = sorted(range(len(examples)), key=lambda i: (len(examples[i].tgt), len(examples[i].src)))
    batches: list[list[int]] = []
    current: list[int] = []
    src_len = tgt_len = 0
    for i in order:
        src, tgt = len(examples[i].src), len(examples[i].tgt)
        grown = batch_cost(len(current) + 1, max(src_len, src), max(tgt_len, tgt))
        if current and grown > max_tokens:
            batches.append(current)
            current, src_len, tgt_len = [], 0, 0
        current.append(i)
        src_len, tgt_len = max(src_len, src), max(tgt_len, tgt)
    if current:
        batches.append(current)
    return batches


class TokenBatcher:
    """Batches by a token budget from length-sorted buckets; reproducible shuffled order;
    resumable.

    The batches are cut once; each epoch only their order changes, shuffled with
    `random.Random(seed + epoch)`. With `world_size` > 1 every rank cuts and shuffles
    the same list, which is truncated to a multiple of `world_size`, and rank r takes
    batches r, r + world_size, ...; so all ranks take the same number of steps.
    """

    def __init__(
        self,
        examples: list[Example],
        max_tokens: int = 4096,
        seed: int = 0,
        shuffle: bool = True,
        rank: int = 0,
        world_size: int = 1,
        special_ids: tuple[int, int, int] = (PAD_ID, BOS_ID, EOS_ID),
    ) -> None:
        if not examples:
            raise ValueError("TokenBatcher needs at least one example")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be positive, got {max_tokens}")
        if not 0 <= rank < world_size:
            raise ValueError(f"rank must be in 0..world_size-1, got rank={rank}, "
                             f"world_size={world_size}")
        self.examples = examples
        self.seed = seed
        self.shuffle = shuffle
        self.rank = rank
        self.world_size = world_size
        self.special_ids = special_ids  # (pad, bos, eos) of the model: a Marian model's differ
        self.batches = token_budget_batches(examples, max_tokens)
        if len(self.batches) < world_size:
            raise ValueError(
                f"only {len(self.batches)} batches of {max_tokens} tokens for {world_size} "
                "ranks; lower max_tokens or use fewer ranks"
            )
        self.epoch = 0
        self.position = 0  # index of the next batch within self.epoch

    def batches_per_epoch(self) -> int:
        """Batches this rank takes per epoch."""
        return len(self.batches) // self.world_size

    def epoch_batches(self, epoch: int) -> list[list[int]]:
        """Example indices of this rank's batches in `epoch`, in order; deterministic in
        (seed, epoch)."""
        order = list(range(len(self.batches)))
        if self.shuffle:
            random.Random(self.seed + epoch).shuffle(order)
        order = order[: self.batches_per_epoch() * self.world_size]
        return [list(self.batches[b]) for b in order[self.rank :: self.world_size]]

    def __iter__(self) -> Iterator[Batch]:
        """Endless Batches from (self.epoch, self.position) on.

        The state advances before each yield, so `state_dict()` taken after consuming
        a batch points at the next one. After an epoch's last batch position equals
        batches_per_epoch(); the epoch rolls over when the next batch is requested.
        """
        while True:
            batches = self.epoch_batches(self.epoch)
            while self.position < len(batches):
                indices = batches[self.position]
                self.position += 1
                yield collate([self.examples[i] for i in indices], *self.special_ids)
            self.epoch += 1
            self.position = 0

    def state_dict(self) -> dict[str, int]:
        """Where iteration stands: {"epoch": ..., "position": ...}."""
        return {"epoch": self.epoch, "position": self.position}

    def load_state_dict(self, state: dict[str, int]) -> None:
        """Continue from a `state_dict()`; call before iterating."""
        for key in ("epoch", "position"):
            if not isinstance(state.get(key), int):
                raise ValueError(f"batcher state needs an integer {key!r}, got {state!r}")
        if not 0 <= state["position"] <= self.batches_per_epoch():
            raise ValueError(
                f"batcher state position {state['position']} is outside 0.."
                f"{self.batches_per_epoch()}; was it saved with other data or max_tokens?"
            )
        self.epoch, self.position = state["epoch"], state["position"]
