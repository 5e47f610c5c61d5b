"""A training run's configuration (TrainConfig, read from YAML by ``load_config``) and its corpora
(CorpusSpec); the model's shape, its ``model:`` section, is attnmt.config's TransformerConfig.

A training config has a ``model:`` section (the fields of TransformerConfig) and training keys at
the top level.  Every key is checked: a misspelled one is an error that names it and lists the
valid ones, and every number must be in its key's range (attnmt.config_ranges).  ``--key value``
overrides from the command line are read by attnmt.config_options.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from attnmt.config import TransformerConfig
from attnmt.config_file import read_config_file
from attnmt.config_options import set_override
from attnmt.config_ranges import (
    ABOVE_0,
    CORPUS_PATHS,
    TRAIN_PATHS,
    TRAIN_RANGES,
    UNSET_WHEN_EMPTY,
    check_adam_betas,
    check_paths,
    check_ranges,
    check_tokenizer_options,
    checked_fields,
    parse_duration,
    typed,
)
from attnmt.errors import ConfigError
from attnmt.model_languages import code_in_name, languages_from_training
from attnmt.text.language_codes import is_language_code


@dataclass
class TrainConfig:
    """Everything ``attnmt train`` needs.  Paths are relative to the current directory."""

    # data
    train_src: str = "data/multi30k/train.en.gz"  # source side of the training pairs, one sentence a line (.gz is fine)
    train_tgt: str = "data/multi30k/train.de.gz"  # target side, line by line with train_src
    valid_src: str = "data/multi30k/val.en.gz"  # validation source (loss, BLEU, model selection)
    valid_tgt: str = "data/multi30k/val.de.gz"  # validation references
    train_tsv: str | None = None  # one "source<TAB>target" file (or a TMX memory) instead of train_src/train_tgt
    train: list[dict[str, Any]] | None = None  # several corpora instead: [{src: A, tgt: B, weight: 2}, {tsv: C}]
    prepared_dir: str | None = None  # a directory 'attnmt prepare' wrote for these corpora; None: prepare on the fly
    # The languages translated, which pick a TMX memory's two (train_tsv may name one) and tell a tsv's header from
    # its first pair; None: init_from's, else (but for a train list, which may hold several pairs) those valid_src's
    # and valid_tgt's names end in (val.en, val.de).
    source_lang: str | None = None  # the source's language code (en, pt-BR)
    target_lang: str | None = None  # the target's
    max_len: int = 128  # pairs with more subword tokens on either side are filtered
    max_length_ratio: float = 3.0  # pairs with one side over this many times the other's tokens are filtered; 0: off
    # None: kept in a corpus whose two files' names end in one language (train.noisy.en, train.clean.en).
    keep_untranslated: bool | None = None  # pairs whose source is their target: kept (true) or dropped (false)
    prepare_workers: int = 0  # processes tokenising the corpora in parallel; 0 = one per CPU core
    tokenizer: str | None = None  # an existing SentencePiece model (any: ids are mapped); None: trained on the data
    target_tokenizer: str | None = None  # with shared_vocab false: the target side's model (tokenizer: the source's)
    vocab_size: int | None = None  # pieces in each SentencePiece vocabulary trained on the data (None: 8000)
    shared_vocab: bool | None = None  # one vocabulary and embedding for both sides (None: true, or init_from's)
    tokenizer_options: dict[str, Any] = field(default_factory=dict)  # model_type, character_coverage, ...
    init_from: str | None = None  # fine-tune: start from this model directory's weights, architecture and tokenizer
    # model
    model: dict[str, Any] = field(default_factory=dict)
    # optimisation
    max_tokens: int = 4096  # token budget per batch
    accumulate_steps: int = 1  # batches per optimiser update (gradient accumulation)
    label_smoothing: float = 0.1  # ε of label smoothing (the paper: 0.1)
    late_dropout_epoch: float = 0.0  # passes over the training data after which late_dropout applies; 0: never
    late_dropout: float | None = None  # model.dropout from late_dropout_epoch on (None: unchanged)
    late_attention_dropout: float | None = None  # model.attention_dropout from late_dropout_epoch on (None: unchanged)
    late_dropout_min_epochs: float = 0.0  # late dropout only in runs whose budget reaches this many passes; 0: any
    lr_factor: float = 2.0  # lrate = lr_factor · d_model^-0.5 · min(step^-0.5, step · warmup_steps^-1.5)
    learning_rate: float | None = None  # a constant rate after warm-up, not noam's (e.g. 1e-4 to fine-tune)
    warmup_steps: int = 4000  # steps of linear warm-up before the inverse-square-root decay
    lr_cooldown: float = 0.0  # the last share of max_steps or max_time over which the rate falls to zero; 0: none
    adam_betas: tuple[float, float] = (0.9, 0.98)  # Adam β1, β2 (the paper: 0.9, 0.98)
    adam_eps: float = 1e-9  # Adam ε (the paper: 1e-9)
    clip_norm: float = 0.0  # 0 = no gradient clipping
    on_nonfinite: str = "skip"  # a NaN/inf loss: "skip" the batch, or "stop" with the last good checkpoint
    precision: str = "auto"  # "auto" (bf16 where the CPU has it), "bf16" or "fp32"
    max_steps: int = 100_000  # stop after this many optimiser steps
    max_time: str | None = None  # wall-clock budget, e.g. "30m", "2h", "90s"
    seed: int = 1  # seeds initial weights, batch order and dropout
    threads: int = 0  # torch threads; 0 = as many as the cores other processes leave free (attnmt.threads)
    device: str = "auto"  # "auto" (a GPU when there is one), "cpu", "cuda", "cuda:N" (GPU N) or "mps"
    # validation and checkpoints
    eval_every: int = 500  # steps between validations, each with a checkpoint
    eval_metric: str = "bleu"  # what picks the best weights: "bleu", "chrf" or "loss" (eval_bleu: false = "loss")
    eval_beam: int = 1  # beam size for validation BLEU (1 = greedy, fastest)
    patience: int = 0  # stop after this many evaluations without a better BLEU; 0 = never
    save_every: int = 0  # steps between checkpoints besides those at each validation; 0 = only at validation
    tensorboard: bool = True  # TensorBoard event files in MODEL_DIR/tensorboard (with the tensorboard package)
    keep_last: int = 5  # checkpoints kept (the best one is kept besides)
    log_every: int = 50  # steps between training-loss lines in log.jsonl
    out_dir: str = "runs/model"  # the model directory to write

    def __post_init__(self) -> None:
        for key in UNSET_WHEN_EMPTY:
            if getattr(self, key) == "":
                setattr(self, key, None)
        self.adam_betas = check_adam_betas(self.adam_betas)
        check_ranges(self, TRAIN_RANGES)
        if self.warmup_steps < 1 and self.learning_rate is None:
            raise ConfigError(f"warmup_steps={self.warmup_steps}: the noam schedule (learning_rate unset) needs "
                              "at least 1 step of warm-up")
        if not isinstance(self.model, dict):
            raise ConfigError(f"model must be a mapping of model keys, got {self.model!r}")
        if self.precision not in ("auto", "bf16", "fp32"):
            raise ConfigError(f"precision={self.precision!r}: use 'auto', 'bf16' or 'fp32'")
        if not DEVICE.fullmatch(str(self.device)):
            raise ConfigError(f"device={self.device!r}: use 'auto', 'cpu', 'cuda', 'cuda:N' (the GPU numbered N) "
                              "or 'mps'")
        if self.eval_metric not in ("bleu", "chrf", "loss"):
            raise ConfigError(f"eval_metric={self.eval_metric!r}: use 'bleu', 'chrf' or 'loss'")
        if self.on_nonfinite not in ("skip", "stop"):
            raise ConfigError(f"on_nonfinite={self.on_nonfinite!r}: use 'skip' or 'stop'")
        if self.max_time is not None and not parse_duration(self.max_time) > 0:
            raise ConfigError(f"max_time={self.max_time!r}: use a time above 0, e.g. '30m' (or leave it unset)")
        if not isinstance(self.tokenizer_options, dict):
            raise ConfigError(f"tokenizer_options must be a mapping such as {{model_type: bpe}}, "
                              f"got {self.tokenizer_options!r}")
        check_tokenizer_options(self.tokenizer_options)
        if self.late_dropout_epoch and self.late_dropout is None and self.late_attention_dropout is None:
            raise ConfigError(f"late_dropout_epoch={self.late_dropout_epoch} changes nothing: set late_dropout "
                              "or late_attention_dropout too (or late_dropout_epoch: 0)")
        model = TransformerConfig.from_dict(self.model, source="model")
        if (self.init_from is None or "max_positions" in self.model) and self.max_len > model.longest_input:
            raise ConfigError(f"max_len={self.max_len} needs model.max_positions of at least {self.max_len + 2} "
                              f"(a sentence's tokens, BOS and EOS), got {model.max_positions}: raise "
                              "model.max_positions or lower max_len")
        check_paths(self, TRAIN_PATHS)
        check_languages(self)
        if isinstance(self.train, list):
            self.train = [text_paths(entry) for entry in self.train]
        self.check_one_kind_of_corpus()
        if self.keep_untranslated is not True:  # true: a copy task's corpus may be one file on both sides
            check_two_sides(self, UNSET_BY_DEFAULT)
        check_two_sides(self, ("valid_src", "valid_tgt"))
        self.corpora()

    def check_one_kind_of_corpus(self) -> None:
        """Refuses train_src/train_tgt set beside train_tsv or train, which would be ignored.  Their
        defaults count as unset: a saved train.yaml holds every key, the defaults included."""
        given = {key: getattr(self, key) for key in UNSET_BY_DEFAULT if getattr(self, key) != getattr(TrainConfig, key)}
        other = "train_tsv" if self.train_tsv else "train" if self.train is not None else None
        if given and other:
            keys = " and ".join(given)
            options = " ".join(f"--{key.replace('_', '-')} null" for key in given)
            remove = f"remove {keys} (on the command line: {options})"
            instead = (f"list them in train as {{src: {self.train_src}, tgt: {self.train_tgt}}}, or {remove}"
                       if other == "train" else f"{remove}, or train_tsv")
            raise ConfigError(f"{keys} ({', '.join(given.values())}) and {other} are both set, but a run reads "
                              f"{other} alone: {instead}")

    def corpora(self) -> list[CorpusSpec]:
        """The training corpora: the ``train`` list, or else ``train_tsv``, or else ``train_src``/``train_tgt``."""
        if self.train is None:
            files = {"tsv": self.train_tsv} if self.train_tsv else {"src": self.train_src, "tgt": self.train_tgt}
            source_lang, target_lang = self.languages()
            return [CorpusSpec(**files, name="corpus0", source_lang=source_lang, target_lang=target_lang)]
        if self.train_tsv:
            raise ConfigError("train_tsv and train are both set: list the tsv file in train as {tsv: FILE}")
        if not isinstance(self.train, list) or not self.train:
            raise ConfigError(f"train must be a list of corpora like [{{src: A, tgt: B}}], got {self.train!r}")
        corpora = [CorpusSpec.from_dict(entry, f"train[{i}]", i) for i, entry in enumerate(self.train)]
        for i, corpus in enumerate(corpora if self.keep_untranslated is not True else []):
            try:
                check_two_sides(corpus, ("src", "tgt"))
            except ConfigError as error:
                raise ConfigError(f"train[{i}]: {error}") from None
        names = [corpus.name for corpus in corpora]
        if len(set(names)) < len(names):
            raise ConfigError(f"train: corpus names must differ, got {names}")
        for corpus in corpora:  # the keys', not languages() guessed from one pair's files: a list may hold several
            corpus.source_lang = corpus.source_lang or self.source_lang
            corpus.target_lang = corpus.target_lang or self.target_lang
        return corpora

    def languages(self) -> tuple[str | None, str | None]:
        """The languages translated: source_lang and target_lang where given, else init_from's (its training
        files' names, attnmt.model_languages), else the codes valid_src's and valid_tgt's names end in, where
        they are two; None for a language none of them names."""
        known = languages_from_training(Path(self.init_from)) if self.init_from else (None, None)
        if None in known:
            named = (code_in_name(self.valid_src), code_in_name(self.valid_tgt))
            known = named if named[0] != named[1] else (None, None)
        return self.source_lang or known[0], self.target_lang or known[1]

    def model_config(self, vocab_size: int, src_vocab_size: int | None = None) -> TransformerConfig:
        """The model section, with the vocabulary sizes the tokenizer really has.

        Separate vocabularies (src_vocab_size) cannot share one embedding: the target's is
        then tied to the output projection only."""
        values = {**self.model, "vocab_size": vocab_size}
        if src_vocab_size is not None:
            if self.model.get("tie_embeddings"):
                raise ConfigError("model.tie_embeddings: true shares one matrix between source and target, but "
                                  "shared_vocab is false; remove it (tie_output ties the target embedding only)")
            values.update(src_vocab_size=src_vocab_size, tie_embeddings=False,
                          tie_output=self.model.get("tie_output", True))
        return TransformerConfig.from_dict(values, source="model")

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["adam_betas"] = list(self.adam_betas)
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any], source: str = "config") -> TrainConfig:
        """Builds a config from ``values`` read from ``source`` (a file), whose name each error begins with."""
        checked = checked_fields(cls, upgraded(values, source), source)
        try:
            return cls(**checked)
        except (ConfigError, TypeError) as error:
            raise ConfigError(f"{source}: {error}") from None


def upgraded(values: dict[str, Any], source: str) -> dict[str, Any]:
    """A training config as attnmt's first models saved it, in today's keys: ``eval_bleu:
    true/false`` is ``eval_metric: bleu/loss``; an ``eval_metric`` given beside it wins, as it did."""
    if not isinstance(values, dict) or "eval_bleu" not in values:
        return values
    values = dict(values)
    eval_bleu = typed(values.pop("eval_bleu"), "bool", f"{source}: eval_bleu")
    if values.get("eval_metric") is None:
        values["eval_metric"] = "bleu" if eval_bleu else "loss"
    return values


@dataclass
class CorpusSpec:
    """One training corpus of a ``train:`` list: two aligned files or one tsv file, its sampling weight,
    and optionally a validation set of its own (its loss is logged; valid_src/valid_tgt pick the best weights)."""

    src: str | None = None  # source side, one sentence a line
    tgt: str | None = None  # target side, line by line with src
    tsv: str | None = None  # one "source<TAB>target" file (or a TMX memory) instead of src/tgt
    weight: float = 1.0  # batches are drawn from the corpora in proportion to their weights
    valid_src: str | None = None  # this corpus's own validation source
    valid_tgt: str | None = None  # and references
    name: str = ""  # in the log (valid_loss_NAME); default corpus0, corpus1, ...
    source_lang: str | None = None  # this corpus's languages; None: the run's (TrainConfig.source_lang)
    target_lang: str | None = None

    def __post_init__(self) -> None:
        """Checked as a ``train:`` entry is (from_dict names the entry): a CorpusSpec built in Python with
        a path that is no path (``src=3``) was taken, and failed where the run read it.  A pathlib.Path
        is kept as its text."""
        check_paths(self, CORPUS_PATHS)
        if (self.tsv is None) == (self.src is None and self.tgt is None) or (self.src is None) != (self.tgt is None):
            raise ConfigError("give either src and tgt, or tsv")
        self.weight = typed(self.weight, "float", "weight")
        if not ABOVE_0.holds(self.weight):
            raise ConfigError(f"weight must be positive and finite, got {self.weight}")
        if (self.valid_src is None) != (self.valid_tgt is None):
            raise ConfigError("give both valid_src and valid_tgt, or neither")
        # src and tgt: checked by TrainConfig.corpora, which knows whether a copy corpus is meant
        check_two_sides(self, ("valid_src", "valid_tgt"))
        self.name = typed(self.name, "str", "name")
        check_languages(self)

    @classmethod
    def from_dict(cls, values: dict, source: str, index: int) -> CorpusSpec:
        """The ``train:`` entry ``values``, the ``index``-th, which errors name as ``source`` (``train[0]``)."""
        checked = checked_fields(cls, text_paths(values), source)
        try:
            spec = cls(**checked)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None
        spec.name = spec.name or f"corpus{index}"
        return spec

    def files(self) -> dict[str, str]:
        """The text this corpus is read from: {"src": ..., "tgt": ...} or {"tsv": ...}."""
        return {"tsv": self.tsv} if self.tsv else {"src": self.src, "tgt": self.tgt}


def check_two_sides(holder: TrainConfig | CorpusSpec, keys: tuple[str, str]) -> None:
    """Refuses a source key and its target key naming one file (``train_tgt: tr.en``, a typo away, or
    the same file spelled ./tr.en): each sentence would be its own translation, and the run would learn
    to copy its input, or score its sources against themselves, for hours and without a word."""
    source, target = (getattr(holder, key) for key in keys)
    if source is None or target is None:
        return
    try:
        same = os.path.normpath(source) == os.path.normpath(target) or os.path.samefile(source, target)
    except OSError:  # one is missing: the reading names it
        return
    if same:
        copy = "" if keys[0].startswith("valid") else " (or, for a copy task in one language, keep_untranslated: true)"
        raise ConfigError(f"{keys[0]} and {keys[1]} both name {source}, so each sentence would be its own "
                          f"translation: give the target side's file in {keys[1]}{copy}")


def check_languages(holder: TrainConfig | CorpusSpec) -> None:
    """Refuses a source_lang or target_lang that is no language code (``English``, ``en de``), naming its key."""
    for key in ("source_lang", "target_lang"):
        value = getattr(holder, key)
        if value is not None and not is_language_code(value):
            raise ConfigError(f"{key}={value!r}: give a language code, as BCP 47 writes it (en, de, pt-BR)")


def text_paths(entry: object) -> object:
    """A ``train:`` entry with each path given as a pathlib.Path as its text, as TrainConfig keeps its own
    paths (check_paths), which train.yaml can hold; anything else as it is, for its own checks to name."""
    if not isinstance(entry, dict):
        return entry
    return {key: os.fspath(value) if key in CORPUS_PATHS and isinstance(value, os.PathLike)
            and isinstance(os.fspath(value), str) else value for key, value in entry.items()}


def load_config(path: str | Path, overrides: dict[str, str | None] | None = None, merge: bool = False) -> TrainConfig:
    """Reads a YAML config and applies ``--key value`` overrides (``model.d_model`` for model keys);
    ``merge``, for a resume: a section given whole changes only the keys it names (set_override).

    An error in the file names the file.  One that comes with the overrides does not, to send no
    one looking in the file for a value typed on the command line (``--warmup-steps 0``): where the
    file's own values are refused otherwise, or not at all, the error is the command line's."""
    path = Path(path)
    values = read_config_file(path)
    given = copy.deepcopy(values)
    for key, text in (overrides or {}).items():
        set_override(values, key, text, OVERRIDABLE, earlier=EARLIER_KEYS, unsettable=UNSET_BY_DEFAULT, merge=merge)
    unset = [key for key in (overrides or {}) if key in UNSET_BY_DEFAULT and key not in values]
    if unset and not values.get("train_tsv") and values.get("train") is None:  # its default, Multi30k, came back
        options = " ".join(f"--{key.replace('_', '-')} null" for key in unset)
        raise ConfigError(f"{options} leaves no training data: give --train-tsv FILE (or a train list) with it")
    try:
        return TrainConfig.from_dict(values, source=str(path))
    except ConfigError as error:
        if values == given or str(error) == refusal(given, str(path)):
            raise
        raise ConfigError(str(error).removeprefix(f"{path}: ")) from None


def check_paths_from_here(config: TrainConfig, path: str | Path, overrides: Iterable[str] = ()) -> None:
    """Refuses a relative path of the config file ``path`` (not one of ``overrides``, typed on the command line)
    that is missing from the current folder but is there beside the config: paths are read from the current
    folder, so ``attnmt train project/c.yaml`` run outside ``project`` said "cannot read tr.en: no such file",
    the file in plain sight.  out_dir, which a run makes, is not looked for; a ~ is refused (check_no_tilde)."""
    folder = Path(path).parent
    keys = [key for key in TRAIN_PATHS if key not in overrides]
    given = [(key, getattr(config, key)) for key in keys]
    if "train" not in overrides and isinstance(config.train, list):
        given += [(f"train[{i}]: {key}", entry.get(key)) for i, entry in enumerate(config.train)
                  for key in CORPUS_PATHS]
    for key in set(TRAIN_PATHS) & set(overrides):  # --out-dir=~/x: a shell reads no ~ after "="
        check_no_tilde(f"--{key.replace('_', '-')}", getattr(config, key))
    for key, value in given:
        check_no_tilde(f"{path}: {key}", value)
        relative = isinstance(value, str) and not os.path.isabs(value) and key != "out_dir"
        if relative and not os.path.exists(value) and (folder / value).exists():
            raise ConfigError(f"{path}: {key}: {value} is not in the current folder ({Path.cwd()}), but is beside the "
                              f"config, {folder / value}: paths in a config are read from the current folder; run "
                              f"from {folder}, or write {folder / value} in the config")


def check_no_tilde(named: str, value: object) -> None:
    """Refuses a path (``named`` by its config file and key, or its option) that starts with ~ where no folder
    of that name is here: only a shell reads ~ as a home folder, and not in a config or after "=" (--out-dir=~/x),
    so ``~/corpus/tr.en`` was "no such file", and out_dir ``~/runs/x`` made a folder named ~ in the current
    one (which ``rm -r ~`` would take for the home folder)."""
    if not isinstance(value, str) or not value.startswith("~"):
        return
    if not Path(Path(value).parts[0]).is_dir():
        raise ConfigError(f"{named}: {value}: this ~ would be a folder named ~, not the home folder (only a shell "
                          f"reads it so, and not in a config or after '='): write {os.path.expanduser(value)}")


def refusal(values: dict[str, Any], source: str) -> str | None:
    """What TrainConfig.from_dict says of ``values``, if it refuses them."""
    try:
        TrainConfig.from_dict(values, source)
    except ConfigError as error:
        return str(error)
    return None


# The dataclass each section of a config sets, by the dotted prefix of its keys on the command line.
OVERRIDABLE: dict[str, type] = {"": TrainConfig, "model": TransformerConfig}

# Keys of earlier releases' configs that upgraded() reads as today's: valid overrides too.
EARLIER_KEYS = ("eval_bleu",)

# Keys whose default counts as unset (check_one_kind_of_corpus): null or '' on the command line unsets them.
UNSET_BY_DEFAULT = ("train_src", "train_tgt")

DEVICE = re.compile(r"auto|cpu|cuda(:\d+)?|mps")  # what TrainConfig.device may name
