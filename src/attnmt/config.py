"""Training configuration: a YAML file, validated key by key.

A config has a ``model:`` section (the fields of :class:`TransformerConfig`) and
training keys at the top level.  Every key is checked: a misspelled one is an
error that names it and lists the valid ones.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from attnmt.model import ConfigError, TransformerConfig, checked_fields


@dataclass
class TrainConfig:
    """Everything ``attnmt train`` needs.  Paths are relative to the current directory."""

    # data
    train_src: str = "data/multi30k/train.en.gz"
    train_tgt: str = "data/multi30k/train.de.gz"
    valid_src: str = "data/multi30k/val.en.gz"
    valid_tgt: str = "data/multi30k/val.de.gz"
    train_tsv: str | None = None  # one "source<TAB>target" file instead of train_src/train_tgt
    max_len: int = 128  # pairs with more subword tokens on either side are filtered
    tokenizer: str | None = None  # an existing SentencePiece model; trained on the data when None
    vocab_size: int = 8000
    # model
    model: dict[str, Any] = field(default_factory=dict)
    # optimisation
    max_tokens: int = 4096  # token budget per batch
    accumulate_steps: int = 1
    label_smoothing: float = 0.1
    lr_factor: float = 2.0
    warmup_steps: int = 4000
    adam_betas: tuple[float, float] = (0.9, 0.98)
    adam_eps: float = 1e-9
    clip_norm: float = 0.0  # 0 = no gradient clipping
    on_nonfinite: str = "skip"  # a NaN/inf loss: "skip" the batch, or "stop" with the last good checkpoint
    precision: str = "auto"  # "auto" (bf16 where the CPU has it), "bf16" or "fp32"
    max_steps: int = 100_000
    max_time: str | None = None  # wall-clock budget, e.g. "30m", "2h", "90s"
    seed: int = 1
    threads: int = 0  # torch threads; 0 = leave PyTorch's default
    device: str = "auto"  # "auto" (a GPU when there is one), "cpu" or "cuda"
    # validation and checkpoints
    eval_every: int = 500
    eval_bleu: bool = True
    eval_beam: int = 1  # beam size for validation BLEU (1 = greedy, fastest)
    patience: int = 0  # stop after this many evaluations without a better BLEU; 0 = never
    keep_last: int = 5
    log_every: int = 50
    out_dir: str = "runs/model"

    def __post_init__(self) -> None:
        if not (isinstance(self.adam_betas, list | tuple) and len(self.adam_betas) == 2):
            raise ConfigError(f"adam_betas must be two numbers like [0.9, 0.98], got {self.adam_betas!r}")
        self.adam_betas = tuple(float(b) for b in self.adam_betas)
        if not isinstance(self.model, dict):
            raise ConfigError(f"model must be a mapping of model keys, got {self.model!r}")
        if self.precision not in ("auto", "bf16", "fp32"):
            raise ConfigError(f"precision={self.precision!r}: use 'auto', 'bf16' or 'fp32'")
        if self.on_nonfinite not in ("skip", "stop"):
            raise ConfigError(f"on_nonfinite={self.on_nonfinite!r}: use 'skip' or 'stop'")
        if self.max_time is not None:
            parse_duration(self.max_time)
        TransformerConfig.from_dict(self.model, source="model")

    def model_config(self, vocab_size: int) -> TransformerConfig:
        """The model section, with the vocabulary size the tokenizer really has."""
        return TransformerConfig.from_dict({**self.model, "vocab_size": vocab_size}, source="model")

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["adam_betas"] = list(self.adam_betas)
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any], source: str = "config") -> TrainConfig:
        try:
            return cls(**checked_fields(cls, values, source))
        except TypeError as error:
            raise ConfigError(f"{source}: {error}") from None


def load_config(path: str | Path, overrides: dict[str, str] | None = None) -> TrainConfig:
    """Reads a YAML config and applies ``--key value`` overrides (``model.d_model`` for model keys)."""
    path = Path(path)
    try:
        values = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values at the top level")
    for key, text in (overrides or {}).items():
        set_override(values, key, text)
    return TrainConfig.from_dict(values, source=str(path))


def set_override(values: dict[str, Any], key: str, text: str) -> None:
    """Sets ``key`` (dotted for nested sections) from command-line text parsed as YAML."""
    *parents, leaf = key.split(".")
    target = values
    for part in parents:
        target = target.setdefault(part, {})
    target[leaf] = yaml.safe_load(text)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")


def parse_duration(text: str | int | float) -> float:
    """ "30m" -> 1800.0 seconds; a bare number is seconds."""
    match = _DURATION.match(str(text))
    if not match:
        raise ConfigError(f"max_time={text!r}: use a number with s, m, h or d, e.g. '30m'")
    number, unit = float(match.group(1)), match.group(2) or "s"
    return number * {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
