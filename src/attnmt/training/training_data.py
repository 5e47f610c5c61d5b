"""What a training run reads: its corpora (prepared arrays on disk) and validation sets.

With ``prepared_dir`` the corpora come from a directory ``attnmt prepare`` wrote; without,
the text is prepared on the fly into a temporary directory, by the same code, so both
paths give the same batches (the next run deletes such a directory that a killed run left
behind).  Either way memory holds only the lengths of the pairs (for batching), not the pairs.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import zip_longest
from pathlib import Path
from tempfile import TemporaryDirectory

from attnmt.errors import ConfigError, DataError
from attnmt.orphans import remove_orphans
from attnmt.text.data import Batch, Example, encode_each, fits
from attnmt.text.parallel_text import ReadReport, corpus_lines, differ_in_length, nonempty_pairs
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.tokenizer_training import sentencepiece_options
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training.batching import TokenBatcher, WeightedBatcher, fixed_batches
from attnmt.training.corpus import TokenCorpus, read_header
from attnmt.training.corpus_files import check_corpus_file
from attnmt.training.corpus_filters import FilterReport
from attnmt.training.run_dir import VALIDATION_KEYS, RunLock
from attnmt.training.start import DEFAULT_VOCAB_SIZE, run_start
from attnmt.training.tokenize_corpora import Filters, check_out, open_prepared, tokenize_corpora

# An on-the-fly preparation's folder in the system's temporary folder: attnmt-prepared-PID-XXXXXXXX,
# named after the process that reads it, so that a later run can tell one whose process was killed.
SCRATCH_PREFIX = "attnmt-prepared-"
SCRATCH = re.compile(rf"^{SCRATCH_PREFIX}(\d+)-[a-z0-9_]{{8}}$")
# The validation set a run reads where valid_src and valid_tgt are left unset: Multi30k's English-German
# one, which only a run started in the attnmt repository finds.
DEFAULT_VALIDATION = {key: getattr(TrainConfig, key) for key in VALIDATION_KEYS}


@dataclass
class TrainingData:
    tokenizer: Tokenizer | VocabTokenizer
    specs: list[CorpusSpec]
    corpora: list[TokenCorpus]  # one per spec
    scratch: TemporaryDirectory | None = None  # holds an on-the-fly preparation for as long as it is read

    @property
    def pairs(self) -> int:
        """The training pairs of all corpora, as kept by the filters (each corpus's lengths are in memory)."""
        return sum(len(corpus) for corpus in self.corpora)

    @property
    def longest_source(self) -> int:
        """The most tokens of a kept pair's source, </s> included where the model reads one (what the
        model learns to read whole: attnmt.trained_lengths), from the lengths in memory."""
        return max(int(corpus.src.lengths.max(initial=0)) for corpus in self.corpora)

    def batcher(self, config: TrainConfig, rank: int, world_size: int,
                special_ids: tuple[int, int, int]) -> TokenBatcher | WeightedBatcher:
        """This rank's stream of training batches: one corpus's, or batches drawn from several by weight."""
        batchers = []
        for spec, corpus in zip(self.specs, self.corpora, strict=True):
            try:
                batchers.append(TokenBatcher(corpus, config.max_tokens, config.seed, rank=rank, world_size=world_size,
                                             special_ids=special_ids))
            except ConfigError as error:  # too few batches for the processes: which corpus
                raise ConfigError(f"{spec.name}: {error}") from None
        if len(batchers) == 1:
            return batchers[0]
        return WeightedBatcher(batchers, [spec.weight for spec in self.specs], config.seed)


def load_training_data(config: TrainConfig, tokenizer: Tokenizer | VocabTokenizer,
                       log: Callable[[str], None], resumed: bool = False) -> TrainingData:
    """The corpora, read from prepared_dir (made by ``tokenizer``, or refused; ``resumed``: as open_prepared
    reads a resumed run's) or prepared now."""
    specs = config.corpora()
    source = config.tokenizer or "this run's tokenizer"
    if config.prepared_dir:
        folder = Path(config.prepared_dir)
        data = TrainingData(tokenizer, specs, open_prepared(folder, config, tokenizer, source, log, resumed))
    else:
        for orphan in remove_orphaned_scratch():
            log(f"removed {orphan}, left by a run that was killed")
        scratch = TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
        # The reports are logged as it prepares, not again when it opens.
        folder = tokenize_corpora(specs, tokenizer, Path(scratch.name) / "prepared",
                         Filters.of(config), config.prepare_workers, log)
        corpora = open_prepared(folder, config, tokenizer, source, log=lambda line: None)
        data = TrainingData(tokenizer, specs, corpora, scratch)
    check_some_kept(specs, data.corpora, read_header(folder)["corpora"], Filters.of(config))
    return data


def check_some_kept(specs: list[CorpusSpec], corpora: list[TokenCorpus], entries: list[dict], filters: Filters) -> None:
    """Refuses a corpus the filters left without a pair, saying which dropped its pairs (``entries``: header.json's):
    "check its files, max_len and max_length_ratio" sent the user to the lengths for a column left empty."""
    for spec, corpus, entry in zip(specs, corpora, entries, strict=True):
        if not len(corpus):
            files = " and ".join(spec.files().values())
            raise ConfigError(f"{spec.name}: no training pairs left after filtering {files}: "
                              f"{FilterReport(**entry['report']).dropped_all(filters)}")


def remove_orphaned_scratch() -> list[Path]:
    """Deletes the preparations in the temporary folder whose process is gone (a SIGKILL, a power
    cut: no clean-up ran); returns them.  One whose process lives, or may, is left alone."""
    return remove_orphans(Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*"), SCRATCH)


@dataclass
class ValidationText:
    """A validation set as its files hold it, read before the tokenizer exists: the keys naming it, its
    files, its pairs (stripped; those with an empty side left out), the lines each file has, and the pairs
    with a line over LONGEST_LINE bytes, left out unread."""

    keys: tuple[str, str]
    files: tuple[str, str]
    pairs: list[tuple[str, str]]
    lines: int
    unread: int = 0

    def refusal(self, reasons: str) -> DataError:
        """The error for a set left without a pair to score, ``reasons`` saying why."""
        return DataError(f"{', '.join(self.keys)}: {', '.join(self.files)}: no validation pair to score ({reasons}); "
                         "give a validation set with at least one pair")


def read_validation_text(src: str, tgt: str, keys: tuple[str, str] = VALIDATION_KEYS) -> ValidationText:
    """A validation set's files (named by ``keys`` in the config), checked as the training files are:
    readable, UTF-8, as many lines each (blank ones past the other's end aside), a pair at least.  A run
    reads them before it trains its tokenizer and prepares its corpora, so that a mistake in them is one
    line naming its key at once, not after hours.  A key left at its default names that default:
    Multi30k's set, in the attnmt repository, is no file the user named."""
    sides = []
    for key, path in zip(keys, (src, tgt), strict=True):
        try:
            check_corpus_file(path)
            sides.append(list(corpus_lines(path)))
        except DataError as error:
            if path != DEFAULT_VALIDATION.get(key):
                raise DataError(f"{key}: {error}") from None
            raise DataError(f"{key} is left at its default, Multi30k's {path} from the attnmt repository, which cannot "
                            f"be used here ({error}); give your validation set in {' and '.join(keys)}") from None
    shorter, longer = sorted(sides, key=len)
    if any(line.strip() for line in longer[len(shorter):]):  # blank lines past the other's end misalign nothing
        raise DataError(f"{', '.join(keys)}: {differ_in_length(src, len(sides[0]), tgt, len(sides[1]))}")
    report = ReadReport(0, 0)
    pairs = list(nonempty_pairs(zip_longest(sides[0], sides[1], fillvalue=""), report))
    text = ValidationText(keys, (src, tgt), pairs, len(longer), report.skipped_long)
    if not text.pairs:
        raise text.refusal(f"{report.skipped_empty} with an empty side, {report.skipped_long} over max_len")
    return text


def validation_set(text: ValidationText, tokenizer: Tokenizer | VocabTokenizer, config: TrainConfig,
                   special_ids: tuple[int, int, int], log: Callable[[str], None]) -> tuple[list[tuple[str, str]],
                                                                                            list[Batch]]:
    """The pairs of a validation set (for BLEU) and its batches (for the loss), length-sorted: the same
    pairs for both (``scored_pairs``), so that the two measures speak of the same sentences."""
    pairs, examples = scored_pairs(text, tokenizer, config.max_len, log)
    return pairs, fixed_batches(TokenCorpus.from_examples(examples), config.max_tokens, special_ids)


def scored_pairs(text: ValidationText, tokenizer: Tokenizer | VocabTokenizer, max_len: int,
                 log: Callable[[str], None]) -> tuple[list[tuple[str, str]], list[Example]]:
    """The pairs of a validation set that a run scores, with their Examples: those within ``max_len``.
    A pair over it is left out: the model is trained on none so long, and the loss's batches cannot hold
    one longer than the model's positions.  The validation during training, the calibration at its end and
    keep_better_average all use these pairs, so that each speaks of the same sentences.  Pairs left out
    are counted in a line of ``log``; a set left without one is refused naming its keys and files."""
    examples = encode_each(text.pairs, tokenizer)
    kept = [i for i, example in enumerate(examples) if fits(example, max_len)]
    # A line of over LONGEST_LINE (1 MiB) is over any max_len: a SentencePiece piece holds at most 16 letters.
    empty, too_long = text.lines - len(text.pairs) - text.unread, len(examples) - len(kept) + text.unread
    if not kept:
        raise text.refusal(f"{empty} with an empty side, {too_long} over max_len {max_len}")
    if empty or too_long:
        log(f"validation set {', '.join(text.files)}: {len(kept)} of {text.lines} pairs scored ({empty} with an "
            f"empty side, {too_long} longer than max_len {max_len})")
    return [text.pairs[i] for i in kept], [examples[i] for i in kept]


def prepare_config(config: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> Path:
    """``attnmt prepare``: the config's corpora, tokenised by the tokenizer a run of it would start with
    (its files, init_from's, or one trained now), filtered by its settings, into ``out``.  ``out`` is
    held (RunLock) from before the tokenizer is trained until it is replaced: a second preparation,
    or a training run, into it is refused in one line (each would delete what the other writes)."""
    check_out(Path(out))  # before the tokenizer is trained
    lock = RunLock.claim(Path(out), holder="prepare", key="--out")
    try:
        tokenizer = run_start(replace(config, prepared_dir=None), log).tokenizer
        given = config.tokenizer or config.init_from
        trained_for = None if given else config.vocab_size or DEFAULT_VOCAB_SIZE
        return tokenize_corpora(config.corpora(), tokenizer, out, Filters.of(config), config.prepare_workers, log,
                                trained_for, None if given else sentencepiece_options(config.tokenizer_options))
    finally:
        lock.release()
