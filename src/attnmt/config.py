"""Configuration: the model's shape (TransformerConfig).  A training run's (TrainConfig, from YAML) is
attnmt.train_config's; ``from attnmt.config import TrainConfig, CorpusSpec, load_config`` still gives it.

The model's keys are checked as a training config's ``model:`` section is: an unknown one is an error
that names it and lists the valid ones, and every number must be in its key's range
(attnmt.config_ranges).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from attnmt.config_ranges import (
    MODEL_RANGES,
    SIZE_LIMITS,
    check_even_d_model,
    check_ranges,
    check_special_ids,
    checked_fields,
    truth_value,
)
from attnmt.errors import ConfigError
from attnmt.layers import ACTIVATIONS, POSITIONAL_LAYOUTS

# The parts a model config names, and the names each key may take.
CHOICES = {"positional": ("sinusoidal", "learned", "none"), "positional_layout": POSITIONAL_LAYOUTS,
           "activation": tuple(ACTIVATIONS)}


@dataclass
class TransformerConfig:
    """The model's shape.  Defaults are the paper's base model (Table 3)."""

    vocab_size: int = 8000  # output vocabulary (and source vocabulary, unless src_vocab_size)
    d_model: int = 512  # width of every layer's input and output
    n_heads: int = 8  # attention heads; d_model / n_heads dimensions each
    encoder_layers: int = 6  # encoder layers (the paper: 6)
    decoder_layers: int = 6  # decoder layers (the paper: 6)
    d_ff: int = 2048  # inner width of the feed-forward sublayers
    dropout: float = 0.1  # dropout on embeddings and sublayer outputs (the paper: 0.1)
    attention_dropout: float = 0.0  # dropout on the attention weights
    max_positions: int = 1024  # longest sequence, BOS and EOS included
    norm_first: bool = False  # False: post-norm as in the paper; True: pre-norm
    positional: str = "sinusoidal"  # "sinusoidal", "learned" or "none"
    positional_layout: str = "interleaved"  # "interleaved" (paper) or "half" (sin…, cos…)
    activation: str = "relu"  # "relu" (paper), "gelu" or "swish"
    tie_embeddings: bool = True  # share source/target embeddings and the output projection
    scale_embeddings: bool = True  # multiply embeddings by √d_model
    # Imported (Marian) models: a source vocabulary of its own, an output projection
    # sharing only the target embedding, and a bias on the logits.
    src_vocab_size: int | None = None  # None: the source uses the target's vocab_size
    tie_output: bool = False  # with tie_embeddings off: output projection = target embedding
    output_bias: bool = False  # logits = x Wᵀ + b (Marian's final_logits_bias)
    pad_id: int = 0  # padding token id
    unk_id: int = 1  # unknown-piece id
    bos_id: int = 2  # beginning-of-sentence id (the decoder starts from it)
    eos_id: int = 3  # end-of-sentence id
    source_eos: bool = True  # the source ends with </s> (as in Marian and fairseq); see from_saved for old models
    activation_dropout: float | None = None  # after the feed-forward's activation (None: dropout's); later: added later
    language_token_alone: bool = False  # a leading >>de<< among the source pieces read alone, as by Marian; see to_dict

    def __post_init__(self) -> None:
        for key, most in SIZE_LIMITS.items():
            value, least = getattr(self, key), 0 if key.endswith("_layers") else 1
            if key == "src_vocab_size" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
                raise ConfigError(f"{key}={value!r}: must be a whole number from {least} to {most:,}")
        check_ranges(self, MODEL_RANGES)
        check_special_ids(self, self.vocab_size)
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        for key, allowed in CHOICES.items():  # else a model dir's config.json fails deep in attnmt.layers
            if getattr(self, key) not in allowed:
                named = ", ".join(repr(name) for name in allowed[:-1])
                raise ConfigError(f"{key}={getattr(self, key)!r}: use {named} or {allowed[-1]!r}")
        if self.positional == "sinusoidal":
            check_even_d_model(self.d_model, "", " (a sine and a cosine for each frequency); use an even one, or "
                                                 "positional: learned")
        for key in (f.name for f in fields(self) if f.type == "bool"):  # as from_dict's reading refuses them
            if (switch := truth_value(getattr(self, key))) is None:
                raise ConfigError(f"{key} must be true or false, got {getattr(self, key)!r}")
            setattr(self, key, switch)  # np.True_ kept would be no JSON in config.json
        if self.tie_embeddings and self.src_vocab_size not in (None, self.vocab_size):
            raise ConfigError(f"src_vocab_size={self.src_vocab_size} differs from vocab_size={self.vocab_size}, "
                              "but tie_embeddings shares one matrix between them; set tie_embeddings: false")

    @property
    def longest_input(self) -> int:
        """The most tokens of a source or target sentence: max_positions less room for BOS and EOS."""
        return self.max_positions - 2

    def parameter_count(self) -> int:
        """How many numbers the model's parameters hold (a shared matrix once), from the shape alone:
        what a model of this config allocates is known before anything is allocated."""
        d, vocab = self.d_model, self.vocab_size
        attention = 4 * (d * d + d)  # W_Q, W_K, W_V, W_O and their biases
        feed_forward = 2 * d * self.d_ff + self.d_ff + d
        encoder_layer = attention + feed_forward + 2 * 2 * d  # + two LayerNorms
        decoder_layer = 2 * attention + feed_forward + 3 * 2 * d
        embeddings = (self.src_vocab_size or vocab) * d + (0 if self.tie_embeddings else vocab * d)
        output = (0 if self.tie_embeddings or self.tie_output else vocab * d) + (vocab if self.output_bias else 0)
        positions = self.max_positions * d if self.positional == "learned" else 0
        final_norms = 2 * 2 * d if self.norm_first else 0
        return (embeddings + output + positions + final_norms
                + self.encoder_layers * encoder_layer + self.decoder_layers * decoder_layer)

    def memory_bytes(self) -> int:
        """Bytes of float32 the model holds: its parameters and the sinusoidal position table."""
        table = self.max_positions * self.d_model if self.positional == "sinusoidal" else 0
        return 4 * (self.parameter_count() + table)

    def to_dict(self) -> dict:
        """config.json's keys.  An unset activation_dropout and a false language_token_alone (true only for models
        trained with a language tag among their pieces since it came) are left out, as before there were such
        keys: an earlier attnmt loads the model, and prepared copies (named by this dict's digest) keep their names."""
        values = asdict(self)
        for key, unset in (("activation_dropout", None), ("language_token_alone", False)):
            if values[key] is unset:
                del values[key]
        return values

    @classmethod
    def from_dict(cls, values: dict, source: str = "model config") -> TransformerConfig:
        """Builds a config, naming any unknown key and the valid ones, and the source of a wrong value."""
        checked = checked_fields(cls, values, source)
        try:
            return cls(**checked)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None

    @classmethod
    def from_saved(cls, values: dict, source: str = "model config") -> TransformerConfig:
        """Reads a model directory's config.json, as any release wrote it.  Release 0.1.0 wrote no
        ``source_eos`` and trained its models without a source </s>, so there a missing key means
        false; everywhere else (new models, a training config's ``model:``) the default is true."""
        if isinstance(values, dict) and "source_eos" not in values:
            values = {**values, "source_eos": False}
        return cls.from_dict(values, source)


# A training run's config, once defined here and still read from here (``from attnmt.config import
# load_config``): looked up in attnmt.train_config when asked for, as that module imports this one.
TRAINING_NAMES = ("TrainConfig", "CorpusSpec", "load_config")


def __getattr__(name: str) -> object:
    """attnmt.train_config's TrainConfig, CorpusSpec and load_config, imported when first asked for."""
    if name in TRAINING_NAMES:
        import attnmt.train_config

        return getattr(attnmt.train_config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
