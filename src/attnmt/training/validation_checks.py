"""Two mistakes in naming a run's validation set that no error shows, only scores that mean nothing:

- the validation pairs are training pairs (all, or a large share): the validation measures how well
  the model remembers, not how it translates, and early stopping never sees it overfit;
- valid_src and valid_tgt are swapped: the validation source is in the target language, so its
  loss and BLEU stay poor however well the model learns.

Both are found cheaply, once, when a new run starts from text: the first MOST_PAIRS training pairs
are streamed once, keeping a hash of each validation pair (and of each pair swapped) and the words
of the first VOCABULARY_PAIRS training pairs.  A run from a prepared directory is not checked: it
starts without reading the text, and a larger corpus is read only that far, so that the check
costs a few seconds at most.  Stock phrases ("Yes.", "Thank you.") are in any corpus and any
held-out set alike, so validation pairs of fewer than MIN_WORDS source words are not counted.
A warning is a line of the run's log; nothing is refused.

A third is found at no cost: valid_src or valid_tgt left at its default, Multi30k's English-German
set (read where the run starts in the attnmt repository), while the run trains on other corpora.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from attnmt.errors import UserError
from attnmt.text.parallel_text import ReadReport
from attnmt.train_config import TrainConfig
from attnmt.training.run_dir import VALIDATION_KEYS
from attnmt.training.tokenize_corpora import text_pairs

# The share of validation pairs found among the training pairs (as they are, or swapped) that warns.
OVERLAP_SHARE = 0.5
# Validation pairs of fewer source words are stock phrases, found in held-out sets too: not counted.
MIN_WORDS = 3
# The training pairs read at most (about a second of reading per million short pairs).
MOST_PAIRS = 1_000_000
# Training pairs whose words stand for each side's vocabulary (enough for a language's common words).
VOCABULARY_PAIRS = 50_000
# How much more of a validation side's words the other training side must know to read as swapped.
SWAPPED_MARGIN = 0.2


def check_validation_set(config: TrainConfig, pairs: list[tuple[str, str]], log: Callable[[str], None]) -> None:
    """Warns (``log``, once each) where the validation ``pairs`` (of config.valid_src and valid_tgt)
    are mostly training pairs, or read as the training pairs swapped; or, in their place, where they
    are the default set of a run on other corpora (defaulted_validation_keys).  Corpora that cannot be read
    as text (a prepared run whose text files are gone) are not checked."""
    where = f"{config.valid_src}, {config.valid_tgt}"
    if defaults := defaulted_validation_keys(config):
        # a set the user never named scores a model of other text: another domain at best, other languages
        # or sides swapped at worst; whatever it overlaps, the fix is the same
        keys = " and ".join(defaults)
        log(f"warning: {keys} {'are' if len(defaults) > 1 else 'is'} left at the default, Multi30k's English-German "
            f"validation set ({where}), but the run trains on other corpora: give your validation set in valid_src "
            "and valid_tgt")
        return
    if config.prepared_dir:
        return
    counted = [pair for pair in pairs if words(pair[0]) >= MIN_WORDS]
    valid = Counter(hash(pair) for pair in counted)  # a line given twice counts twice
    swapped = Counter(hash((tgt, src)) for src, tgt in counted)
    found, found_swapped = set(), set()
    src_words: set[str] = set()
    tgt_words: set[str] = set()
    read = 0
    try:
        for spec in config.corpora():
            for number, pair in enumerate(text_pairs(spec, ReadReport(0, 0))):
                if read == MOST_PAIRS:
                    break
                read += 1
                if number < VOCABULARY_PAIRS:
                    src_words.update(pair[0].lower().split())
                    tgt_words.update(pair[1].lower().split())
                key = hash(pair)
                if key in valid:
                    found.add(key)
                elif key in swapped:
                    found_swapped.add(key)
    except (OSError, UserError):
        return
    lines = sum(valid[key] for key in found)
    if counted and lines >= OVERLAP_SHARE * len(counted):
        log(f"warning: {lines} of the {len(counted)} validation pairs of {MIN_WORDS} or more words ({where}) are in "
            "the training data too: the validation scores measure memory, not translation; give a held-out "
            "validation set")
    sources, targets = [src for src, _ in pairs], [tgt for _, tgt in pairs]
    if (counted and sum(swapped[key] for key in found_swapped) >= OVERLAP_SHARE * len(counted)) or (
            known(sources, tgt_words) > known(sources, src_words) + SWAPPED_MARGIN
            and known(targets, src_words) > known(targets, tgt_words) + SWAPPED_MARGIN):
        log(f"warning: the validation set reads as the training data with its sides swapped: {config.valid_src} "
            f"is in the training targets' language, {config.valid_tgt} in the sources': swap valid_src and valid_tgt")


def defaulted_validation_keys(config: TrainConfig) -> list[str]:
    """valid_src and valid_tgt, those left at their defaults (Multi30k's English-German validation
    set), where the run trains on other corpora than Multi30k's; none where it trains on those."""
    trained = [{side: same_file(path) for side, path in spec.files().items()} for spec in config.corpora()]
    if trained == [{"src": same_file(TrainConfig.train_src), "tgt": same_file(TrainConfig.train_tgt)}]:
        return []
    return [key for key in VALIDATION_KEYS if getattr(config, key) == getattr(TrainConfig, key)]


def same_file(path: str | Path) -> Path:
    """``path`` as the file it names, however it is written (``./data/…``, an absolute path)."""
    return Path(path).resolve()


def words(line: str) -> int:
    """The words of ``line``: its pieces between spaces that hold a letter or digit (a stop
    written apart, as tokenised corpora write it, is none)."""
    return sum(any(c.isalnum() for c in piece) for piece in line.split())


def known(lines: Iterable[str], words: set[str]) -> float:
    """The share of the words of ``lines`` (lowercased, split at spaces) that are in ``words``."""
    tokens = [word for line in lines for word in line.lower().split()]
    return sum(word in words for word in tokens) / max(len(tokens), 1)
