"""The valid type of every config key, and the range of every numeric one, checked when a config is built.

A value outside its range would otherwise surface far from the config, or not at all:
``warmup_steps: 0`` divides by zero in the noam schedule at the first step, ``eval_every: 0``
takes a modulo by zero, ``lr_factor: -1`` climbs the loss instead of descending it, and
``label_smoothing: 1.5`` gives a negative loss that trains silently.  NaN is in no range.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import re
from dataclasses import dataclass, fields
from difflib import get_close_matches

import numpy as np

from attnmt.errors import ConfigError, UserError
from attnmt.hardware import MOST_THREADS
from attnmt.output_checks import check_not_stdout

# The largest size each model key may have: far beyond any translation model (the paper's big model has
# d_model 1024, d_ff 4096, 16 heads and 6 + 6 layers; sentences are tens of tokens), so that a config.json
# from a stranger cannot ask for terabytes before its weights are even read.  The model's total size is
# checked against the machine where it is loaded (attnmt.checkpoint.check_model_size).
SIZE_LIMITS = {"vocab_size": 1 << 21, "src_vocab_size": 1 << 21, "d_model": 1 << 15, "n_heads": 1 << 10,
               "encoder_layers": 1 << 10, "decoder_layers": 1 << 10, "d_ff": 1 << 17, "max_positions": 1 << 16}


@dataclass(frozen=True)
class Range:
    """Numbers from ``low`` to ``high``; ``above`` leaves ``low`` itself out and ``below`` ``high``.
    An infinite ``high`` is never reached: the number must be finite.  ``or_zero``: 0 too, where
    0 switches a limit off."""

    low: float
    high: float = math.inf
    above: bool = False
    below: bool = False
    says: str = ""  # what to use, in words, where the bare range would say too little
    or_zero: bool = False

    def holds(self, value: float) -> bool:
        if self.or_zero and value == 0:
            return True
        over_low = value > self.low if self.above else value >= self.low
        under_high = value < self.high if self.below or math.isinf(self.high) else value <= self.high
        return over_low and under_high  # both false for NaN

    def describe(self, whole: bool) -> str:
        """The range in words: "a whole number of at least 1", "a number from 0 to below 1", ..."""
        if self.says:
            return self.says
        kind = "a whole number" if whole else "a number"
        low, high = (f"{int(end):,}" if float(end).is_integer() else f"{end:g}" for end in (self.low, self.high))
        if math.isinf(self.high):
            return f"{kind} {'above' if self.above else 'of at least'} {low}"
        return f"{kind} {'above' if self.above else 'from'} {low} to {'below ' if self.below else ''}{high}"


AT_LEAST_0 = Range(0)
AT_LEAST_1 = Range(1)
ABOVE_0 = Range(0, above=True)
PROBABILITY = Range(0, 1, below=True)  # dropout and label smoothing: 1 would leave nothing to learn from
DROPOUT = Range(0, 1, below=True, says="a dropout probability from 0 to below 1")

# TrainConfig's numeric keys (None, where a key may be None, is always valid).
TRAIN_RANGES = {
    "max_len": AT_LEAST_1,
    # Under 1 no pair holds: the longer side always has at least the shorter's tokens.
    "max_length_ratio": Range(1, or_zero=True, says="a ratio of at least 1 (the longer side's tokens over the "
                              "shorter's), or 0 for no limit"),
    "prepare_workers": Range(0, says="a number of processes, or 0 for one per CPU core"),
    "vocab_size": Range(5, SIZE_LIMITS["vocab_size"]),  # the 4 special pieces and at least one more
    "max_tokens": AT_LEAST_1,
    "accumulate_steps": AT_LEAST_1,
    "label_smoothing": PROBABILITY,
    "late_dropout_epoch": Range(0, says="a number of passes over the data, or 0 for no late dropout"),
    "late_dropout": DROPOUT,
    "late_attention_dropout": DROPOUT,
    "late_dropout_min_epochs": Range(0, says="a number of passes over the data, or 0 for a run of any length"),
    "lr_factor": ABOVE_0,
    "learning_rate": Range(0, above=True, says="a rate above 0, or leave it unset for the noam schedule"),
    # 0 (no warm-up) only with a constant learning_rate: the noam schedule divides by warmup_steps
    "warmup_steps": AT_LEAST_0,
    "lr_cooldown": Range(0, 1, says="a share of the budget from 0 (none) to 1"),
    "adam_eps": ABOVE_0,
    "clip_norm": Range(0, says="a gradient norm above 0, or 0 for no clipping"),
    "max_steps": AT_LEAST_1,
    # torch.manual_seed takes 64 bits; each process of a distributed run adds 1000 · its rank
    "seed": Range(-(1 << 63), (1 << 63) - 1),
    "threads": Range(0, MOST_THREADS, says=f"a number of threads up to {MOST_THREADS:,}, or 0 to follow the free "
                     "cores"),
    "eval_every": AT_LEAST_1,
    "eval_beam": AT_LEAST_1,  # at most attnmt.decoding's MAX_BEAM: checked when a Trainer is built
    "patience": Range(0, says="a number of validations, or 0 to never stop early"),
    "save_every": Range(0, says="a number of steps, or 0 to save only at validation"),
    "keep_last": AT_LEAST_1,  # the latest checkpoint is the one a resume starts from
    "log_every": AT_LEAST_1,
}

SPECIAL_IDS = ("pad_id", "unk_id", "bos_id", "eos_id")  # TransformerConfig's token ids (check_special_ids)

# TransformerConfig's numeric keys besides its sizes (SIZE_LIMITS) and token ids.
MODEL_RANGES = {"dropout": DROPOUT, "attention_dropout": DROPOUT, "activation_dropout": DROPOUT}

ADAM_BETA = Range(0, 1, below=True)

# What ``tokenizer_options`` may set when attnmt trains a SentencePiece model
# (attnmt.text.tokenizer_training), checked when the config is read: SentencePiece itself refuses a
# wrong value only once the corpora are read, and then in its own words
# ("INTERNAL: src/trainer_interface.cc(94) [...]").
TOKENIZER_OPTIONS = ("model_type", "character_coverage", "user_defined_symbols", "byte_fallback")
MODEL_TYPES = ("unigram", "bpe", "char", "word")  # SentencePiece's four; unigram and bpe are the ones to choose
CHARACTER_COVERAGE = Range(0.98, 1, says="a share of the characters from 0.98 to 1 (SentencePiece's limits)")


def whole_number(value: object) -> int | None:
    """``value`` as an int where it is a whole number of any numeric type (NumPy's integers, 4096.0),
    None where it is not one (a bool, 1.5, "2", NaN): the one reading of a Python caller's counts."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if number.is_integer() else None


def written_whole_number(text: str) -> int | None:
    """``text`` as an int where it is written in ASCII digits alone ("42", "007"), None where it is
    not ("", "-1", " 4", "4.0", a number of more digits than int() reads, 4300): the one reading of a
    count written in a file, a form, a header or a document.  ``str.isdigit`` alone is no such check:
    it is true of superscripts ("²"), which int() refuses, and of other scripts' digits ("٣"),
    which int() reads though no such count is meant."""
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # over sys.get_int_max_str_digits()
        return None


def plain_number(value: object) -> object:
    """``value``'s Python number where it is a 0-d tensor or array (``torch.tensor(0.5)``,
    ``np.array(3)``, what a reduction such as ``.mean()`` gives), ``value`` itself otherwise: a
    caller's one number read from a model or a score, for ``whole_number`` and ``finite_number``,
    which take no tensor (``bool(t)`` of one with more elements has no single meaning)."""
    item = getattr(value, "item", None)
    return item() if getattr(value, "ndim", None) == 0 and callable(item) else value


def finite_number(value: object) -> float | None:
    """``value`` as a float where it is a finite number of any numeric type (NumPy's float32 too),
    None where it is not one (a bool, "0.6", NaN, infinity)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return None
    return float(value)


def truth_value(value: object) -> bool | None:
    """``value`` as a bool where it is one, NumPy's ``np.True_`` and ``np.False_`` too (no bool to
    Python's isinstance, though a mask's element or a column's value), None where it is not one
    (1, "no": a number or a text is no switch)."""
    return bool(value) if isinstance(value, bool | np.bool_) else None


def check_function(value: object, name: str, call: str, optional: bool = True) -> None:
    """One clear error for an argument ``name`` that is no function (``call``: how it is called, as
    ``say(line)``), nor None where ``optional``: a text or a bool was taken without a word, and failed
    as "'str' object is not callable" once the work it was to follow had begun."""
    if not callable(value) and not (optional and value is None):
        expected = f"None or a function {call}" if optional else f"a function {call}"
        raise ConfigError(f"{name}: expected {expected}, got {type(value).__name__} {value!r:.60}")


def check_ranges(config: object, ranges: dict[str, Range]) -> None:
    """Raises a ConfigError naming the first key of the dataclass ``config`` whose number is out of its range."""
    types = {f.name: str(f.type) for f in fields(config)}
    for key, valid in ranges.items():
        value = getattr(config, key)
        if value is not None and not valid.holds(value):
            raise ConfigError(f"{key}={value}: use {valid.describe(whole=types[key].startswith('int'))}")


def check_special_ids(config: object, vocab_size: int) -> None:
    """Refuses a model config (a TransformerConfig, with SPECIAL_IDS' keys) whose special ids
    are out of the vocabulary or share an id: a search never writes pad or BOS, so an EOS on either's
    id would never end a sentence (such a model translated into garbage), and padding
    is masked out, so an EOS or unknown piece on its id would be too.  BOS alone may be pad: a model
    imported from Marian starts its decoder from <pad> (the import refuses any other start)."""
    ids = Range(0, vocab_size, below=True, says=f"an id from 0 to {vocab_size - 1} (below vocab_size)")
    check_ranges(config, dict.fromkeys(SPECIAL_IDS, ids))
    for i, first in enumerate(SPECIAL_IDS):
        for second in SPECIAL_IDS[i + 1:]:
            value = getattr(config, first)
            if value == getattr(config, second) and {first, second} != {"pad_id", "bos_id"}:
                raise ConfigError(f"{first} and {second} are both {value}: each special token needs an id of its "
                                  "own (a search never writes pad or BOS, so an EOS on their id would never end "
                                  "a sentence); only bos_id may be pad_id, as in models imported from Marian")


def check_even_d_model(d_model: object, whose: str, advice: str, error: type[UserError] = ConfigError) -> None:
    """The one rule for sinusoidal positions' width: an even d_model, a sine and a cosine for each
    frequency (attnmt's table fails on an odd one as the model is built; transformers' Marian computes
    one more sine than cosine).  ``whose`` and ``advice`` fit the message to its reader: a config's
    (what to change) or an import's (that it cannot be made)."""
    if isinstance(d_model, int) and d_model % 2:
        raise error(f"d_model={d_model}: {whose}sinusoidal positions need an even d_model{advice}")


def check_adam_betas(betas: object) -> tuple[float, float]:
    """Adam's β1 and β2 as two floats, each from 0 to below 1 (torch refuses others at the first step)."""
    usage = "use two numbers from 0 to below 1, like [0.9, 0.98]"
    if not (isinstance(betas, list | tuple) and len(betas) == 2):
        raise ConfigError(f"adam_betas={betas!r}: {usage}")
    try:
        pair = tuple(float(beta) for beta in betas if not isinstance(beta, bool))
    except (TypeError, ValueError):
        pair = ()
    if len(pair) != 2 or not all(ADAM_BETA.holds(beta) for beta in pair):
        raise ConfigError(f"adam_betas={list(betas)!r}: {usage}")
    return pair


def check_tokenizer_options(options: dict) -> None:
    """Refuses a ``tokenizer_options`` key attnmt does not pass on to SentencePiece, or a value it
    would refuse.  What SentencePiece takes is taken (its char and word models, numbers as symbols):
    a resumed run's train.yaml is read with this check too, and a run that trained must resume."""
    unknown = sorted(map(str, set(options) - set(TOKENIZER_OPTIONS)))
    if unknown:
        raise ConfigError(f"tokenizer_options: unknown tokenizer option(s) {', '.join(unknown)}; "
                          f"valid: {', '.join(TOKENIZER_OPTIONS)}")
    model_type = options.get("model_type", MODEL_TYPES[0])
    if str(model_type).lower() not in MODEL_TYPES:
        raise ConfigError(f"tokenizer_options: model_type={model_type!r}: use 'unigram' or 'bpe' (or 'char', 'word')")
    coverage = typed(options.get("character_coverage", 1.0), "float", "tokenizer_options: character_coverage")
    if not CHARACTER_COVERAGE.holds(coverage):
        raise ConfigError(f"tokenizer_options: character_coverage={coverage}: use {CHARACTER_COVERAGE.describe(False)}")
    typed(options.get("byte_fallback", False), "bool", "tokenizer_options: byte_fallback")
    symbols = options.get("user_defined_symbols") or []  # (a number is a symbol to SentencePiece: 2020)
    if not (isinstance(symbols, str) or isinstance(symbols, list) and all(
            isinstance(s, str | int | float) and not isinstance(s, bool) for s in symbols)):
        raise ConfigError(f"tokenizer_options: user_defined_symbols={symbols!r}: use a list of text, "
                          "e.g. ['>>de<<', '>>fr<<'] (or one text, the symbols apart by commas, as SentencePiece's)")


def checked_fields(cls: type, values: dict, source: str) -> dict:
    """Validates ``values`` against the dataclass ``cls``: unknown keys are named with the
    valid ones, and each value must have its field's type (YAML reads ``1e-9`` as a string,
    so numbers written as text are converted)."""
    if not isinstance(values, dict):
        raise ConfigError(f"{source}: expected a mapping of keys to values, got {type(values).__name__}")
    types = {f.name: str(f.type) for f in fields(cls)}
    unknown = sorted(map(str, set(values) - set(types)))  # str: YAML reads a key 1 as a number
    if unknown:
        named = ", ".join(with_nearest(key, list(types)) for key in unknown)
        raise ConfigError(f"{source}: unknown key(s) {named}; valid keys: {', '.join(types)}")
    return {key: typed(value, types[key], f"{source}: {key}") for key, value in values.items()}


def with_nearest(key: str, names: list[str]) -> str:
    """``key`` as an unknown key is named, with the valid name nearest it where one is near: a typo's fix
    (``eval_evry (did you mean eval_every?)``) was left to be found in a list of 47 keys."""
    near = get_close_matches(key, names, n=1)
    return f"{key} (did you mean {near[0]}?)" if near else key


NUMBER_TEXTS = (": max_time",)  # the text keys a bare number is meant for (parse_duration: seconds)


def typed(value, type_name: str, where: str):
    if value is None and "None" in type_name:
        return None
    base = type_name.split("|")[0].strip()
    if base == "bool":
        if isinstance(value, bool):
            return value
    elif base in ("int", "float"):
        if base == "int" and isinstance(value, numbers.Integral | str) and not isinstance(value, bool):
            with contextlib.suppress(ValueError):  # exactly: a float's 53 bits turned 2**53 + 1 into 2**53
                return int(value)
        if not isinstance(value, bool):
            try:
                number = float(value)
            except (TypeError, ValueError):
                number = None
            if number is not None and (base == "float" or number.is_integer()):
                return float(number) if base == "float" else int(number)
    elif base == "str":
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool) and where.endswith(NUMBER_TEXTS):
            return str(value)  # max_time: 90, seconds
        if isinstance(value, int | float) and not isinstance(value, bool):  # YAML read "out_dir: 007" as 7
            raise ConfigError(f"{where} must be text, got the number {value!r}: put it in quotes ('{value}', or "
                              "as you wrote it) to keep it as written")
    else:  # containers are checked by the config's own __post_init__
        return value
    raise ConfigError(f"{where} must be {type_words(type_name)}, got {as_written(value)}")


def as_written(value: object) -> str:
    """A value read from YAML as the user wrote it: ``true (a boolean)``, ``null``, not Python's True
    and None, which no one typed (``threads: true`` was refused as "got True"); others as repr shows them."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    return "null" if value is None else repr(value)


TYPE_WORDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "text", "None": "null",
              "dict": "a mapping {key: value}", "list": "a list [a, b]", "tuple": "a list [a, b]"}


def type_words(type_name: str) -> str:
    """A field's type in words: "int | None" is "a whole number or null", "dict[str, Any]" a mapping."""
    names = [name.strip() for name in type_name.split("|")]
    return " or ".join(TYPE_WORDS.get(name.partition("[")[0], name) for name in names)


# The keys that name a file or folder, of a config and of each corpus of its train list.
TRAIN_PATHS = ("train_src", "train_tgt", "valid_src", "valid_tgt", "train_tsv", "prepared_dir", "tokenizer",
               "target_tokenizer", "init_from", "out_dir")
CORPUS_PATHS = ("src", "tgt", "tsv", "valid_src", "valid_tgt")
# The optional ones among them, which a run reads as unset where empty: every release tested them for truth
# ("if config.tokenizer:"), so a templated config's tokenizer: "" was unset, and a run that has one resumes.
UNSET_WHEN_EMPTY = ("train_tsv", "prepared_dir", "tokenizer", "target_tokenizer", "init_from")


def check_paths(config: object, keys: tuple[str, ...]) -> None:
    """Refuses an empty path ("" or blanks) in one line naming its key.  Path("") is the current folder:
    a valid_src: "" was read as "cannot read .: is a directory" only after the corpora were prepared,
    an out_dir: "" trained into the folder the run started in.  (On the command line, '' is YAML's
    null: it unsets a key, as null does; an optional key that was read as unset where "", such as
    tokenizer, is None before this check: UNSET_WHEN_EMPTY.)  An out_dir "-" (stdout elsewhere), or "- ", is
    refused too, for the Python API as for the command line: a run writes a folder, and one named "-".
    None, in a key that cannot be unset (TrainConfig(valid_src=None) from Python: a config file's null is
    refused as it is read), is refused naming its key; it was a TypeError from deep inside the run.  So is
    any other value that is no path (TrainConfig(valid_src=3)), which failed as late; a pathlib.Path is
    kept as its text, which the run's train.yaml can hold, and so is a str of another type (NumPy's
    str_), which it cannot."""
    optional = {f.name for f in fields(config) if "None" in str(f.type)}
    for key in keys:
        value = getattr(config, key)
        if isinstance(value, os.PathLike) and isinstance(os.fspath(value), str) or (
                isinstance(value, str) and type(value) is not str):  # NumPy's str_: train.yaml cannot hold it
            value = str(os.fspath(value))
            setattr(config, key, value)
        if value is None and key not in optional:
            raise ConfigError(f"{key}=None: {key} cannot be unset; give a path as text (or leave {key} out for "
                              "its default)")
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{key}={value!r}: {key} is a path: give it as text (or leave {key} out for "
                              "its default)")
        if isinstance(value, str) and not value.strip():
            raise ConfigError(f"{key}: {value!r} is an empty path, which would be the current folder: give a "
                              f"file or folder, or leave {key} out")
        if key == "out_dir":
            check_not_stdout(value, key, "the model", "runs/model", kind="folder")


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")


def parse_duration(text: str | int | float) -> float:
    """ "30m" -> 1800.0 seconds; a bare number is seconds."""
    match = _DURATION.match(str(text))
    if not match:
        raise ConfigError(f"max_time={text!r}: use a number with s, m, h or d, e.g. '30m'")
    number, unit = float(match.group(1)), match.group(2) or "s"
    return number * {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
