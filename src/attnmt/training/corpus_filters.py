"""The filters a corpus passes through as it is prepared (attnmt.training.tokenize_corpora), each counted in
the corpus's report line:

- empty: either side empty after stripping, or invisible characters alone (attnmt.text.invisible.blank);
- too long: more than ``max_len`` ids on the source, or on the target with BOS/EOS;
- length ratio: the longer side has more than ``max_length_ratio`` times the shorter's ids;
- untranslated: the source side's text is the target side's, character for character (a line a web-crawled
  corpus such as ParaCrawl or CCMatrix left in the source language): copies teach the model to copy its
  input, the most harmful noise Khayrallah and Koehn (2018) measured, and cleaners drop them (Bicleaner's
  hard rules, OpusFilter's configs).  Where both sides are one language (spelling correction, paraphrase,
  a copy task), such a pair is a lesson, "this needs no change": it is kept and counted (``keep_untranslated``);
- duplicates: the same ids on both sides as an earlier pair (so the same text after
  SentencePiece's normalisation), found by a 64-bit hash: a chance collision between two
  different pairs among 40 M is about 1 in 20,000.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import chain

import numpy as np

from attnmt.model_languages import code_in_name
from attnmt.text.data import encode_pairs
from attnmt.text.long_lines import OVER_LONGEST
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.train_config import CorpusSpec, TrainConfig


@dataclass
class Filters:
    max_len: int
    max_length_ratio: float  # 0: no limit
    # Pairs whose source is their target: kept (True), dropped (False); None: kept in a corpus whose two files'
    # names end in one language (train.noisy.en, train.clean.en), dropped elsewhere (for_corpus decides).
    keep_untranslated: bool | None = None

    @classmethod
    def of(cls, config: TrainConfig) -> Filters:
        return cls(config.max_len, config.max_length_ratio, config.keep_untranslated)

    def keeps_ratio(self, src_len: int, tgt_len: int) -> bool:
        ratio = self.max_length_ratio
        return not ratio or max(src_len, tgt_len) <= ratio * min(src_len, tgt_len)

    def for_corpus(self, spec: CorpusSpec) -> Filters:
        """These filters as they apply to ``spec``'s pairs: keep_untranslated decided (never None)."""
        keep = self.keep_untranslated
        if keep is None:
            codes = {code_in_name(path) for path in (spec.src, spec.tgt)} if spec.tsv is None else {None}
            keep = None not in codes and len(codes) == 1
        return replace(self, keep_untranslated=keep)


@dataclass
class FilterReport:
    """What preparing one corpus read, dropped (by rule) and kept."""

    read: int = 0
    empty: int = 0
    too_long: int = 0
    length_ratio: int = 0
    duplicates: int = 0
    kept: int = 0
    untranslated: int = 0  # none in a header written before it was counted
    # Skipped as they were read (none in a header of attnmt 0.1): pairs with a line over LONGEST_LINE bytes, and
    # tsv lines with another number of tabs than one (and the first one's line number).
    long_lines: int = 0
    malformed: int = 0
    first_malformed: int = 0
    header: str = ""  # a tsv's first line, left out for naming the columns ("en<TAB>de"); none before it was
    unpaired: int = 0  # a TMX memory's units without a segment in one of the two languages, and the first one's line
    first_unpaired: int = 0
    languages: str = ""  # the two a TMX memory was read in ("en -> de"): its header's srclang may say the other way
    # Whether the untranslated pairs were kept (a same-language corpus), not dropped; False in a header written
    # before they could be.
    kept_untranslated: bool = False

    def summary(self, filters: Filters) -> str:
        """One line: "read 29000 pairs, kept 28990; dropped 0 empty, 0 untranslated, 2 over 128 tokens, 8 over length
        ratio 4, 0 duplicates", after "pairs" a tsv's header line left out (" after a header line (en<TAB>de, left
        out)"), and where there were any, ", 1 with a line over 1 MiB (not read), 2 without exactly
        one tab (the first: line 17)".  A corpus that keeps its untranslated pairs says so instead of dropping
        them: "read 300 pairs (101 untranslated, kept: one language on both sides), kept 300; dropped 0 empty,
        0 over 128 tokens, ..."."""
        skipped = [f"{self.long_lines} with a line over {OVER_LONGEST} (not read)"] if self.long_lines else []
        if self.malformed:
            skipped.append(f"{self.malformed} without exactly one tab (the first: line {self.first_malformed})")
        if self.unpaired:
            skipped.append(f"{self.unpaired} translation units without both languages (the first: line "
                           f"{self.first_unpaired})")
        read = f"read {self.read} pairs" + (f" after a header line ({self.header}, left out)" if self.header else "")
        read += f" ({self.languages}, from a TMX memory)" if self.languages else ""
        untranslated = [f"{self.untranslated} untranslated"]
        if self.kept_untranslated:
            read += f" ({self.untranslated} untranslated, kept: one language on both sides)"
            untranslated = []
        return (f"{read}, kept {self.kept}; dropped {', '.join([f'{self.empty} empty', *untranslated])}, "
                f"{self.too_long} over {filters.max_len} tokens, {self.length_ratio} over length ratio "
                f"{filters.max_length_ratio:g}, {', '.join([f'{self.duplicates} duplicates', *skipped])}")


    def dropped_all(self, filters: Filters) -> str:
        """Why a corpus kept no pair, for the line refusing it: "of 120 pairs read, 120 with an empty side", each
        rule that dropped some with its count, and the setting that would keep them."""
        if not self.read:
            return "its files hold no line of text"
        causes = [(self.empty, "with an empty side"),
                  (self.untranslated * (not self.kept_untranslated),
                   "untranslated (source = target; keep_untranslated: true keeps them, for a corpus in one language)"),
                  (self.too_long, f"over max_len {filters.max_len} tokens"),
                  (self.length_ratio, f"over max_length_ratio {filters.max_length_ratio:g}"),
                  (self.long_lines, f"with a line over {OVER_LONGEST}"), (self.malformed, "without exactly one tab"),
                  (self.unpaired, "translation units without both languages")]
        return f"of {self.read} pairs read, {', '.join(f'{count} {why}' for count, why in causes if count)}"


@dataclass
class EncodedChunk:
    """One chunk's kept pairs as arrays: ids back to back, each pair's lengths and hash."""

    src_tokens: np.ndarray
    src_lengths: np.ndarray
    tgt_tokens: np.ndarray
    tgt_lengths: np.ndarray
    hashes: np.ndarray  # [pairs] int64: equal for pairs with equal ids on both sides
    too_long: int
    length_ratio: int
    untranslated: int  # read; dropped unless filters.keep_untranslated


def encode_chunk(pairs: list[tuple[str, str]], tokenizer: Tokenizer | VocabTokenizer, filters: Filters) -> EncodedChunk:
    """Counts a chunk's untranslated pairs and drops them unless ``filters`` (decided for the corpus:
    Filters.for_corpus) keeps them, tokenises the others (through encode_pairs, which drops the too long)
    and drops those over the length ratio; what is left becomes arrays (int32 here: the writer narrows them
    to the corpus's type)."""
    translated = [pair for pair in pairs if pair[0] != pair[1]]
    examples, too_long = encode_pairs(pairs if filters.keep_untranslated else translated, tokenizer, filters.max_len)
    kept = [ex for ex in examples if filters.keeps_ratio(len(ex.src), len(ex.tgt))]
    src_tokens, src_lengths = side_arrays([ex.src for ex in kept])
    tgt_tokens, tgt_lengths = side_arrays([ex.tgt for ex in kept])
    # Python's hash of a tuple of ints is the same in every process (only str and bytes hashes are salted).
    hashes = np.fromiter((hash((tuple(ex.src), tuple(ex.tgt))) for ex in kept), dtype=np.int64, count=len(kept))
    return EncodedChunk(src_tokens, src_lengths, tgt_tokens, tgt_lengths, hashes, too_long, len(examples) - len(kept),
                        len(pairs) - len(translated))


def side_arrays(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """One side's ids back to back [total ids] and each pair's length [pairs], int32."""
    lengths = np.fromiter(map(len, rows), dtype=np.int32, count=len(rows))
    return np.fromiter(chain.from_iterable(rows), dtype=np.int32, count=int(lengths.sum())), lengths
