"""A vocabulary shortlist: each batch's output layer computes only the pieces its sources may need.

With 58,101 target pieces, the output layer is most of a decoding step's arithmetic
(docs/design/fast-decoder.md).  A lexical shortlist, as Marian and the WMT efficiency systems use it,
keeps per batch the union of

- the ``frequent`` target pieces seen most often (function words, punctuation), and
- for each source piece in the batch, the ``per_source`` target pieces that co-occur with it
  most (Dice coefficient over sentence pairs: 2·c(s, t) / (c(s) + c(t))),

plus EOS and UNK, and the pieces a search of the batch forces or steers to (a prefix's, a glossary's
terms: ``FastTransformer.allow``, as Marian adds them).  The output layer's rows for those pieces are
gathered once per batch.  The search's steps get the logits of those pieces only
(``ShortlistOutput.columns_only``; the inference copy maps the chosen columns back to the
vocabulary's ids); the model's other calls for logits (an uncached step, a whole sequence at once)
get [.., V] with -inf for every other piece.  Either way the search's softmax runs over the
shortlist, as in Marian and CTranslate2's ``use_vmap``: its scores and log-probs are the shortlist's.
A teacher-forced pass that scores a given translation (its quality, ``--confidence``, ``attnmt
score``) reads the whole layer instead (``FastTransformer.whole_vocabulary_logits``): a piece off the
list gets its own probability, not 0, and a quality does not depend on the shortlist.

File (``attnmt shortlist`` writes it, ``attnmt translate --shortlist`` reads it), UTF-8 text::

    # attnmt shortlist 1 <source vocabulary size> <target vocabulary size>
    <source id> TAB <target id> [TAB <target id> ...]      (one line per source piece)
    * TAB <target id> [TAB ...]                             (the frequent pieces)

The ids are the model's own: a shortlist belongs to the vocabulary it was built for.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.decoding import MAX_BEAM
from attnmt.errors import ConfigError, OutputError
from attnmt.fast.int8 import Int8PanelLinear
from attnmt.fast.next_tokens import FusedNextTokens
from attnmt.fast.panels import PanelLinear
from attnmt.files import write_text

HEADER = "# attnmt shortlist 1"
# Beam search asks for 2 · beam candidates per row: a batch's shortlist never holds fewer ids.
MIN_COLUMNS = 2 * MAX_BEAM + 16
ALWAYS = "*"


class Shortlist:
    """Target ids per source id, and the ids always kept; ``path``: the file it was read from, if any
    (a model with other vocabularies refuses it naming the file's header line)."""

    def __init__(self, per_source: dict[int, list[int]], always: list[int], source_size: int,
                 target_size: int, path: Path | None = None) -> None:
        self.per_source, self.always = per_source, always
        self.source_size, self.target_size = source_size, target_size
        self.path = path

    @classmethod
    def build(cls, pairs: Iterable[tuple[Sequence[int], Sequence[int]]], source_size: int, target_size: int,
              per_source: int = 50, frequent: int = 500) -> Shortlist:
        """From sentence pairs of ids (a parallel corpus, or sources with the model's own translations)."""
        source_count, target_count, together = Counter(), Counter(), defaultdict(Counter)
        for source, target in pairs:
            targets = set(target)
            target_count.update(targets)
            for s in set(source):
                source_count[s] += 1
                together[s].update(targets)
        lists = {s: [t for t, _ in sorted(counts.items(), key=lambda item: (
                     -2 * item[1] / (source_count[s] + target_count[item[0]]), item[0]))[:per_source]]
                 for s, counts in together.items()}
        always = [t for t, _ in target_count.most_common(frequent)]
        return cls(lists, always, source_size, target_size)

    def save(self, path: str | Path) -> None:
        """Writes ``path`` atomically (attnmt.files): a kill or a full disk midway leaves the old file
        or none, never one cut short, whose last list would load a piece or a number short."""
        lines = [f"{HEADER} {self.source_size} {self.target_size}",
                 "\t".join([ALWAYS, *map(str, self.always)])]
        lines += ["\t".join(map(str, [s, *targets])) for s, targets in sorted(self.per_source.items())]
        write_text(Path(path), "\n".join(lines) + "\n", raises=OutputError)

    @classmethod
    def load(cls, path: str | Path) -> Shortlist:
        """Reads ``path``; a malformed line, a source piece or the ``*`` line given twice (or a file that
        is not UTF-8) stops with the file and line, and a file without the ``*`` line or without any
        source piece's line (which ``attnmt shortlist`` always writes: cut short) with the file."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ConfigError(f"--shortlist {path}: {error.strerror}") from None
        try:
            lines = data.decode("utf-8").splitlines()
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ConfigError(f"{path}:{line}: not an attnmt shortlist (byte 0x{data[error.start]:02x} is not "
                              "UTF-8); write one with 'attnmt shortlist'") from None
        head = lines[0].split() if lines else []
        if head[:-2] != HEADER.split() or not all(part.isdecimal() for part in head[-2:]):
            raise ConfigError(f"{path}:1: not an attnmt shortlist (expected '{HEADER} SOURCE_SIZE TARGET_SIZE')")
        source_size, target_size = int(head[-2]), int(head[-1])
        per_source: dict[int, list[int]] = {}
        always: list[int] | None = None
        first_line: dict[int | None, int] = {}  # each key's line: a key given twice is refused
        for number, line in enumerate(lines[1:], start=2):
            fields = line.split("\t")
            try:
                ids = [int(f) for f in fields[1:]]
                key = None if fields[0] == ALWAYS else int(fields[0])
            except ValueError:
                raise ConfigError(f"{path}:{number}: expected ids separated by tabs, got {line[:60]!r}") from None
            if any(not 0 <= t < target_size for t in ids) or (key is not None and not 0 <= key < source_size):
                raise ConfigError(f"{path}:{number}: an id outside the vocabularies ({source_size}, {target_size})")
            if key in first_line:
                what = f"a second '{ALWAYS}' line" if key is None else f"source piece {key} given again"
                raise ConfigError(f"{path}:{number}: {what} (first on line {first_line[key]}); "
                                  "write the shortlist again with 'attnmt shortlist'")
            first_line[key] = number
            if key is None:
                always = ids
            else:
                per_source[key] = ids
        if always is None or not per_source:  # 'attnmt shortlist' writes both: the file was cut short
            missing = ("no line at all after its header" if always is None and not per_source else
                       f"no '{ALWAYS}' line (the frequent pieces)" if always is None else "no source piece's line")
            raise ConfigError(f"{path}: holds no shortlist ({missing}); cut short? "
                              "write it again with 'attnmt shortlist'")
        return cls(per_source, always, source_size, target_size, path)

    def ids_for(self, src: Tensor, keep: Sequence[int]) -> Tensor:
        """The sorted target ids a batch of sources src [B, S] may need, ``keep`` (EOS, UNK) included."""
        wanted = set(self.always) | set(keep)
        for s in set(src.flatten().tolist()):
            wanted.update(self.per_source.get(s, ()))
        filler = iter(range(self.target_size))
        while len(wanted) < min(MIN_COLUMNS, self.target_size):  # room for the widest beam's candidates
            wanted.add(next(filler))
        return torch.tensor(sorted(wanted), dtype=torch.long)


class ShortlistOutput(nn.Module):
    """The output layer of an inference copy, restricted to the ids ``restrict`` was last given in
    the calling thread: their logits as the full layer computes them, -inf for every other piece.

    The restriction is the thread's own (``threading.local``): a batch is encoded and searched in
    one thread, and another thread's batch, encoded meanwhile with the same copy, would otherwise
    swap its shortlist in under this one's search (its steps' columns mapped to the other's ids)."""

    def __init__(self, full: nn.Module, vocab_size: int) -> None:
        super().__init__()
        self.full, self.vocab_size = full, vocab_size
        self.weight = self.bias = None  # PanelLinear, Int8PanelLinear and torch.ao's int8 Linear select their own rows
        if hasattr(full, "packed"):  # attnmt.fast.packed.PackedLinear: its float weight, unpacked once
            self.weight, self.bias = full.packed.to_dense().float(), full.bias
        elif isinstance(full, nn.Linear):
            self.weight, self.bias = full.weight, full.bias
        self.batch = threading.local()  # this thread's batch: ids, column (id -> its column, or -1), part

    @property
    def ids(self) -> Tensor | None:
        """The ids of this thread's batch, sorted; None before it restricts the layer (the whole layer)."""
        return getattr(self.batch, "ids", None)

    def restrict(self, ids: Tensor) -> None:
        column = torch.full((self.vocab_size,), -1, dtype=torch.long)
        column[ids] = torch.arange(ids.numel())
        if isinstance(self.full, Int8PanelLinear):
            part = Int8PanelLinear.from_panels(self.full.panels.select(ids))
        elif isinstance(self.full, PanelLinear):
            weight, bias = self.full.rows(ids), None if self.full.bias is None else self.full.bias[ids]
            # on the panels where the whole layer is (the same sums as its, and not PyTorch's BLAS: MKL's
            # products ran at about half the panels' rate on an AMD EPYC, shortlist_panels_epyc_zen4_s47.txt)
            part = PanelLinear(weight, bias) if type(self.full) is PanelLinear else partial(F.linear, weight=weight,
                                                                                            bias=bias)
        elif self.weight is None:
            part = quantized_rows(self.full, ids)
        else:
            weight, bias = self.weight[ids], None if self.bias is None else self.bias[ids]
            part = partial(F.linear, weight=weight, bias=bias)
        self.batch.ids, self.batch.column, self.batch.part = ids, column, part

    def columns_only(self, x: Tensor) -> Tensor:
        """[..., d_model] -> the logits of the shortlisted ids only [..., len(ids)], in their order."""
        return self.batch.part(x)

    def columns(self, ids: Sequence[int]) -> list[int]:
        """The columns of those of ``ids`` that the shortlist holds."""
        column = self.batch.column
        return [int(column[i]) for i in ids if column[i] >= 0]

    def vocabulary_ids(self, columns: Tensor) -> Tensor:
        """Columns of ``columns_only``'s logits -> the vocabulary's ids."""
        return self.batch.ids[columns]

    def forward(self, x: Tensor) -> Tensor:
        ids = self.ids
        if ids is None:
            return self.full(x)
        logits = x.new_full((*x.shape[:-1], self.vocab_size), float("-inf"))
        return logits.index_copy_(-1, ids, self.batch.part(x))


def quantized_rows(layer: nn.Module, ids: Tensor) -> nn.Module:
    """torch.ao's dynamic int8 Linear (CPUs without the int8 panels) restricted to output rows ``ids``:
    the same int8 values and scales, so each row's products are the full layer's."""
    from attnmt.fast.int8 import int8_linear

    weight, bias = layer.weight(), layer.bias()
    rows = torch.quantize_per_channel(weight.dequantize()[ids], weight.q_per_channel_scales()[ids],
                                      weight.q_per_channel_zero_points()[ids], 0, torch.qint8)
    return int8_linear(rows, None if bias is None else bias[ids])


def use_shortlist(model: nn.Module, shortlist: Shortlist) -> None:
    """The inference copy ``model`` (attnmt.fast.FastTransformer) restricts its output layer to
    ``shortlist`` for each batch it encodes (``FastTransformer.use_shortlist``)."""
    model.use_shortlist(shortlist)


class ShortlistNextTokens(FusedNextTokens):
    """The inference copy's next tokens from logits over a shortlist's columns (its cached step's):
    banned ids become columns, chosen columns ids again; ``full_width`` spreads the columns over
    the whole vocabulary (-inf elsewhere) for work that reads logits by id."""

    def __init__(self, output: ShortlistOutput, key_value_bytes: int = 4) -> None:
        super().__init__(key_value_bytes=key_value_bytes)
        self.output = output

    def narrow(self, logits: Tensor) -> bool:
        return logits.size(-1) != self.output.vocab_size

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int],
                      outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor]:
        if not self.narrow(logits):
            return super().top_log_probs(logits, k, banned, outside)
        top, columns, normaliser = super().top_log_probs(logits, k, self.output.columns(banned),
                                                         self.output.columns(outside))
        return top, self.output.vocabulary_ids(columns), normaliser

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        if not self.narrow(logits):
            return super().best_tokens(logits, banned)
        return self.output.vocabulary_ids(super().best_tokens(logits, self.output.columns(banned)))

    def full_width(self, logits: Tensor) -> Tensor:
        if not self.narrow(logits):
            return logits
        wide = logits.new_full((*logits.shape[:-1], self.output.vocab_size), float("-inf"))
        return wide.index_copy_(-1, self.output.ids, logits)
