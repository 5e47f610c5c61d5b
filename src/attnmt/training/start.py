"""What a training run starts from: its tokenizer, the model's shape, and the weights.

    a new run    the tokenizer files the config names (or those of its prepared_dir), or SentencePiece
                 trained on the training text (tokenizer_options), reading a leading language tag among
                 its pieces alone, as Marian does; the model section with the tokenizer's vocabulary
                 sizes and language_token_alone; random weights
    init_from    a model directory's tokenizer, shape and weights (attnmt's, or one imported from
                 Marian, which keeps Marian's ids and conventions); the config may repeat them
                 but not change them, except for the dropout
    a resume     the run directory's own config.json and tokenizer; weights from its checkpoint
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from attnmt import checkpoint as ckpt
from attnmt.config import TransformerConfig, checked_fields
from attnmt.errors import ConfigError, DataError, ModelDirError, UserError
from attnmt.files import write_text
from attnmt.text.id_layout import attnmt_layout
from attnmt.text.long_lines import OVER_LONGEST
from attnmt.text.parallel_text import ReadReport
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.tokenizer_files import read_tokenizer
from attnmt.text.tokenizer_training import as_trained, sentencepiece_options, train_sentencepiece, trained_options
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.train_config import CorpusSpec, TrainConfig, load_config
from attnmt.trained_lengths import read_longest_source
from attnmt.training.corpus import read_header
from attnmt.training.corpus_files import check_corpora_found, check_corpora_text
from attnmt.training.resume_checks import (
    RunRecord,
    check_same_batches,
    check_same_corpora,
    check_same_metric,
    check_same_tokenizer,
    check_same_validation,
    found_or_refused,
)
from attnmt.training.run import METRIC_NAMES
from attnmt.training.run_dir import BATCH_KEYS, TOKENIZER_KEYS, VALIDATION_KEYS, places_to_look
from attnmt.training.tokenize_corpora import text_pairs

DEFAULT_VOCAB_SIZE = 8000
# Model keys a fine-tuning run (or a resume) may set anew: they change training, not the function.
TRAINING_ONLY_KEYS = ("dropout", "attention_dropout", "activation_dropout")
# Model keys the tokenizer decides.
VOCABULARY_SIZES = ("vocab_size", "src_vocab_size")
# The model key saying how a leading language tag is read: alone (Marian's way) in a new run, unless set false.
LANGUAGE_TOKEN_ALONE = "language_token_alone"


@dataclass
class Start:
    tokenizer: Tokenizer | VocabTokenizer
    model_config: TransformerConfig
    weights: Path | None = None  # safetensors to start from; None: random initial weights (or a resume's checkpoint)
    fine_tuned: bool = False  # the run's first weights were a trained model's (init_from), resumed or not
    # The longest source the first weights were trained on (attnmt.trained_lengths): none yet for random
    # weights; init_from's record; None where that model has none, and so neither does this run's.
    longest_trained: int | None = 0


def run_start(config: TrainConfig, say: Callable[[str], None]) -> Start:
    """Where a new run starts: ``init_from``'s model, or a new tokenizer and random weights."""
    check_corpora_found(config)  # before a tokenizer is trained on the files found
    check_corpora_text(config)
    if config.init_from:
        return from_model(config)
    tokenizer = new_tokenizer(config, say)
    separate = tokenizer.source_vocab_size if tokenizer.separate_vocabs else None
    model_config = config.model_config(tokenizer.vocab_size, separate)
    if LANGUAGE_TOKEN_ALONE not in config.model and isinstance(tokenizer, Tokenizer):
        # true only where it changes ids: the config.json of a model without language tags stays as it was
        alone = tokenizer.language_token_alone and bool(tokenizer.language_tokens)
        model_config = replace(model_config, language_token_alone=alone)
    return Start(tokenizer, model_config)


def resumed(config: TrainConfig, record: RunRecord) -> Start:
    """A resumed run's tokenizer and shape, as its directory recorded them (weights: its checkpoint)."""
    check_same_corpora(config, record)
    model_config = ckpt.load_model_config(record.folder)
    return Start(ckpt.load_tokenizer(record.folder, model_config), training_settings(config, model_config),
                 fine_tuned=bool(config.init_from))


def check_resume_overrides(config: TrainConfig, record: RunRecord) -> None:
    """Refuses an override a resumed run could not follow: its directory, what made its tokenizer and
    first weights, what cut and ordered its batches (its checkpoint's data position counts them in the
    seed's order: another seed would train some of this epoch's batches twice and skip others), and the
    metric its best score and patience count are in are fixed (the model keys are checked against
    config.json by training_settings, the corpora, validation set and beam by resume_checks)."""
    saved, run_dir = record.saved, record.folder
    new_run = f"init_from: {run_dir} starts a new run from its weights"
    fixed = {"out_dir": f"writes into its own directory, {run_dir}",
             "init_from": "continues from its checkpoint's weights",
             **dict.fromkeys(TOKENIZER_KEYS, f"keeps the tokenizer it started with (in {run_dir})"),
             **dict.fromkeys(BATCH_KEYS, "keeps the batches it started with, in their order (its "
                                                     f"checkpoint's data position counts them; {new_run})"),
             "eval_metric": f"keeps the metric its best step and patience are counted in, "
                            f"{METRIC_NAMES[saved.eval_metric]} ({new_run})"}
    for key, why in fixed.items():
        given, kept = getattr(config, key), getattr(saved, key)
        if key == "out_dir" and Path(given).resolve() == Path(kept).resolve():
            continue  # the run's own directory, spelt another way
        if given != kept:
            flag = f"--{key.replace('_', '-')}"
            raise ConfigError(f"{flag}: a resumed run {why}; drop {flag}, or start a new run with it")
    check_same_shape(config, record)
    check_same_batches(config, record)
    check_same_metric(config, record)
    check_same_tokenizer(config, record)
    check_same_corpora(config, record)  # first: a corpus changed since is named so, the validation set or not
    check_same_validation(config, record, new_run)


def check_same_shape(config: TrainConfig, record: RunRecord) -> None:
    """Refuses a resume whose model section gives another shape than the run's model (its config.json), naming
    where it came from: an override (``--model.d-model 64``: drop it) or train.yaml edited since (put back the
    model's value).  training_settings, which the resume reached later, spoke of a run that "starts from a
    trained model" and said to remove the key from a config the user never gave."""
    model_config = ckpt.load_model_config(record.folder)
    given = checked_fields(TransformerConfig, config.model, "model")
    saved = checked_fields(TransformerConfig, record.saved.model, "model")
    for key, value in given.items():
        kept = getattr(model_config, key)
        if key in TRAINING_ONLY_KEYS + VOCABULARY_SIZES or value == kept:
            continue
        shape = f"a resumed run keeps the shape of its model ({record.folder / ckpt.MODEL_CONFIG}: {key} {kept!r})"
        if key in saved and saved[key] == value:
            raise ConfigError(f"{record.folder / ckpt.TRAIN_CONFIG}: model.{key} is {value!r}, but {shape}; put "
                              f"back {key}: {kept!r} under model:")
        flag = f"--model.{key.replace('_', '-')}"
        raise ConfigError(f"{flag}: {shape}; drop {flag}")


def corpus_validation_files(specs: list[CorpusSpec], record: RunRecord) -> dict[str, tuple[str, str]]:
    """Where a resume of the run (``record``) reads each corpus's own validation set (its loss is
    logged), by corpus name: as validation_files finds the run's, a path its train.yaml gives where the
    run started, else from here (corpora.json records no bytes of these: the first that exists), another
    (an overridden ``train`` list's) where it is typed; one found nowhere is refused naming where it looked."""
    kept = {spec.name: spec for spec in record.saved.corpora()}
    def where(spec: CorpusSpec, key: str) -> str:
        places = places_to_look(getattr(spec, key), getattr(kept.get(spec.name), key, None), record.started)
        return found_or_refused(getattr(spec, key), places, None, record,
                                f"the validation file of corpus {spec.name} ({key})", "put that file back")
    return {spec.name: (where(spec, "valid_src"), where(spec, "valid_tgt")) for spec in specs if spec.valid_src}


def keep_overrides(config: TrainConfig, run_dir: Path) -> list[str]:
    """Writes a resume's overrides (--max-steps 400) into the run's train.yaml, so that the next resume
    continues with them, not with the values they replaced; returns lines saying so."""
    path = run_dir / ckpt.TRAIN_CONFIG
    saved = load_config(path).to_dict()
    # the directory's own name, and the validation set as it was: a resume reads that set where the run
    # started, or a copy of its bytes that --valid-src names for this resume alone (check_same_validation)
    values = {**config.to_dict(), **{key: saved[key] for key in ("out_dir", *VALIDATION_KEYS)}}
    changed = {name: value for key in values for name, value in changes(key, values[key], saved[key]).items()}
    if not changed:
        return []
    write_text(path, yaml.safe_dump(values, sort_keys=False))
    return [f"{path}: {', '.join(f'{key} {value}' for key, value in changed.items())} from now on (this resume's "
            "overrides)"]


def changes(key: str, value: object, saved: object) -> dict[str, object]:
    """What ``key`` sets anew, ``value`` where the run's train.yaml had ``saved``: a section's changed keys
    alone, dotted (model.dropout 0.2), for a resume keeps the rest of the section (attnmt.train_config.load_config)."""
    if value == saved:
        return {}
    if not isinstance(value, dict) or not isinstance(saved, dict):
        return {key: value}
    return {f"{key}.{name}": value.get(name) for name in {**saved, **value} if value.get(name) != saved.get(name)}


def new_tokenizer(config: TrainConfig, say: Callable[[str], None]) -> Tokenizer | VocabTokenizer:
    """The config's SentencePiece files, the one its prepared_dir was made with, or models trained on
    its corpora (one joint, or one per side); reading sources as the model section says, a leading
    language tag alone unless it sets language_token_alone: false."""
    source_eos = bool(config.model.get("source_eos", TransformerConfig.source_eos))
    reading = {"source_eos": source_eos, LANGUAGE_TOKEN_ALONE: bool(config.model.get(LANGUAGE_TOKEN_ALONE, True))}
    if config.prepared_dir:  # one missing or not prepared is refused now, not after a tokenizer is trained
        header = read_header(Path(config.prepared_dir))
        if not config.tokenizer:
            tokenizer = read_tokenizer(Path(config.prepared_dir), **reading)
            check_prepared_vocabulary(config, header, tokenizer, say)
            return tokenizer
    shared = config.shared_vocab is not False
    if config.target_tokenizer and shared:
        raise ConfigError("target_tokenizer: a separate target model needs shared_vocab: false")
    if config.tokenizer:
        if not shared and not config.target_tokenizer:
            raise ConfigError("shared_vocab: false with a given tokenizer: name the target side's model "
                              "in target_tokenizer too (or leave both unset to train them)")
        files = [("tokenizer", config.tokenizer)]
        if not shared:
            files.append(("target_tokenizer", config.target_tokenizer))
        return Tokenizer(*(read_model(key, path) for key, path in files), **reading)
    size = config.vocab_size or DEFAULT_VOCAB_SIZE
    check_has_text(config)
    say(f"training {'a joint' if shared else 'a source and a target'} {size}-piece SentencePiece "
        "model on the training corpora")
    sides = {(0, 1): "the training text"} if shared else {(0,): "the source side's training text",
                                                           (1,): "the target side's training text"}
    try:
        protos = [train_sentencepiece(corpus_sentences(config, side), size, config.seed, text, say,
                                      **config.tokenizer_options) for side, text in sides.items()]
        return Tokenizer(*protos, **reading)
    except UserError:
        raise  # bad training data: the message names the file and line
    except ValueError as error:  # SentencePiece refused: the options, when there are any, are the suspects
        raise ConfigError(f"tokenizer_options: {error}" if config.tokenizer_options else str(error)) from None


def corpus_sentences(config: TrainConfig, sides: tuple[int, ...]) -> Iterator[str]:
    """The training corpora's sentences of ``sides`` (0: source, 1: target), streamed."""
    for spec in config.corpora():
        for pair in text_pairs(spec, ReadReport(0, 0)):
            yield from (pair[side] for side in sides)


def check_prepared_vocabulary(config: TrainConfig, header: dict, tokenizer: Tokenizer | VocabTokenizer,
                              say: Callable[[str], None]) -> None:
    """A run from a prepared directory takes the directory's tokenizer: a vocab_size, shared_vocab or
    tokenizer_options in the config must be what it was made with, or the run would silently train
    another vocabulary than asked (and its train.yaml record the one asked for).  ``header``: the
    directory's header.json, as new_tokenizer read it."""
    folder = Path(config.prepared_dir)
    trained_for = header.get("vocab_size")  # None: given files, or a directory of attnmt 0.1
    sizes = dict.fromkeys((tokenizer.source_vocab_size, tokenizer.vocab_size))  # one size, or the two sides'
    if config.vocab_size is not None and config.vocab_size != trained_for and list(sizes) != [config.vocab_size]:
        pieces = "- and ".join(map(str, sizes))
        raise ConfigError(f"vocab_size: {config.vocab_size}, but {folder} was prepared with a {pieces}-piece "
                          "tokenizer, which a run from it keeps; remove vocab_size, or run 'attnmt prepare' again "
                          "with it")
    if config.shared_vocab is not None and config.shared_vocab == tokenizer.separate_vocabs:
        made = "separate vocabularies" if tokenizer.separate_vocabs else "one joint vocabulary"
        raise ConfigError(f"shared_vocab: {str(config.shared_vocab).lower()}, but {folder} was prepared with "
                          f"{made}, which a run from it keeps; remove shared_vocab, or run 'attnmt prepare' "
                          "again with it")
    check_prepared_options(config, folder, header, say)


def check_prepared_options(config: TrainConfig, folder: Path, header: dict, say: Callable[[str], None]) -> None:
    """The config's tokenizer_options against those the prepared directory's tokenizer was trained with
    (SentencePiece's own defaults filled in on both sides).  A header without them: a tokenizer that
    was given (null), nothing to compare; none at all, a directory of an earlier attnmt, which did not
    record them: a run with tokenizer_options is told that it keeps the directory's tokenizer."""
    if "tokenizer_options" not in header:
        if config.tokenizer_options:
            say(f"{folder} does not record the tokenizer_options it was prepared with (an earlier attnmt "
                f"prepared it): this run keeps its tokenizer, whatever tokenizer_options says")
        return
    made = header["tokenizer_options"]  # as sentencepiece_options gave them (an earlier attnmt: as written)
    if made is not None and sentencepiece_options(config.tokenizer_options) != sentencepiece_options(made):
        defaults = sentencepiece_options({})  # which a config need not write
        made = {key: value for key, value in made.items() if defaults.get(key) != value}
        raise ConfigError(f"tokenizer_options: {as_written(config.tokenizer_options)}, but {folder} was prepared with "
                          f"{as_written(made)}, whose tokenizer a run from it keeps; give the tokenizer_options it was "
                          "prepared with, or run 'attnmt prepare' again with these")


def as_written(options: dict) -> str:
    """tokenizer_options as a config writes them: {model_type: bpe}; none: 'none (a unigram model)'."""
    return yaml.safe_dump(options, default_flow_style=True).strip() if options else "none (a unigram model)"


def check_has_text(config: TrainConfig) -> None:
    """Refuses corpora without a single pair to train SentencePiece on (it would fail naming no file), saying
    so where their lines were too long to read (LONGEST_LINE): a document a line, or a file without line breaks,
    was said to have no text."""
    report = ReadReport(0, 0)
    for spec in config.corpora():
        pairs = text_pairs(spec, report)
        try:
            if next(pairs, None) is not None:
                return
        finally:
            pairs.close()
    files = [path for spec in config.corpora() for path in spec.files().values()]
    unread = (f" ({report.skipped_long} with a line over {OVER_LONGEST}, which is no sentence: give one sentence a "
              "line)") if report.skipped_long else ""
    raise DataError(f"{', '.join(files)}: no pair with text on both sides to train the tokenizer on{unread}; "
                    "give training corpora that have some")


def read_model(key: str, path: str) -> bytes:
    try:
        return attnmt_layout(Path(path).read_bytes())
    except OSError as error:
        raise ConfigError(f"{key}: cannot read {path} ({error.strerror})") from None
    except ValueError as error:
        raise ConfigError(f"{key}: {path} is not a usable SentencePiece model ({error})") from None


def from_model(config: TrainConfig) -> Start:
    """Fine-tuning: the tokenizer, shape and weights of the model directory ``init_from``."""
    model_dir = Path(config.init_from)
    try:
        model_config = ckpt.load_model_config(model_dir)  # first: it names another program's model for what it is
        if not (model_dir / ckpt.WEIGHTS).is_file():
            raise ModelDirError(f"{model_dir} is not a model directory (it needs {ckpt.MODEL_CONFIG} and "
                                f"{ckpt.WEIGHTS}); give one written by 'attnmt train' or 'attnmt import'")
        tokenizer = ckpt.load_tokenizer(model_dir, model_config)
        longest = read_longest_source(model_dir)
    except ModelDirError as error:
        raise ConfigError(f"init_from: {error}") from None
    check_same_vocabulary(config, tokenizer, model_dir)
    if config.max_len > model_config.longest_input:  # the config's own model section is checked in TrainConfig
        raise ConfigError(f"max_len={config.max_len}: {model_dir}'s model reads at most {model_config.longest_input} "
                          f"tokens a sentence (max_positions {model_config.max_positions}, BOS and EOS besides); "
                          "lower max_len")
    return Start(tokenizer, training_settings(config, model_config), model_dir / ckpt.WEIGHTS, fine_tuned=True,
                 longest_trained=longest)


def training_settings(config: TrainConfig, model_config: TransformerConfig) -> TransformerConfig:
    """``model_config`` with the config's dropout; any other model key must repeat its value."""
    given = checked_fields(TransformerConfig, config.model, "model")
    for key, value in given.items():
        if key not in TRAINING_ONLY_KEYS + VOCABULARY_SIZES and value != getattr(model_config, key):
            raise ConfigError(
                f"model.{key}: {value!r} differs from the model's {getattr(model_config, key)!r}; a run that "
                f"starts from a trained model keeps its shape: remove model.{key} "
                f"(only {', '.join(TRAINING_ONLY_KEYS[:-1])} and {TRAINING_ONLY_KEYS[-1]} may change)")
    return replace(model_config, **{key: given[key] for key in TRAINING_ONLY_KEYS if key in given})


def check_same_vocabulary(config: TrainConfig, tokenizer: Tokenizer | VocabTokenizer, model_dir: Path) -> None:
    """With init_from the vocabulary settings may only repeat the model's: its ids are in the weights.
    tokenizer_options are compared with those its SentencePiece models record they were trained with."""
    model = f"{model_dir}'s"
    protos = dict.fromkeys(tokenizer.model_protos) if config.tokenizer_options else ()  # each side's, once
    own = [trained_options(proto) for proto in protos]
    if any(as_trained(config.tokenizer_options) != options for options in own):
        defaults = as_trained({})  # which a config need not write
        trained = {key: value for key, value in own[0].items() if defaults.get(key) != value}
        raise ConfigError(f"tokenizer_options: {as_written(config.tokenizer_options)} differs from {model} tokenizer, "
                          f"trained with {as_written(trained)}; init_from keeps the model's tokenizer: remove "
                          "tokenizer_options")
    if config.vocab_size not in (None, tokenizer.vocab_size):
        raise ConfigError(f"vocab_size: {config.vocab_size} differs from {model} {tokenizer.vocab_size}; remove it")
    if config.shared_vocab not in (None, not tokenizer.separate_vocabs):
        raise ConfigError(f"shared_vocab: {config.shared_vocab} differs from {model} vocabularies; remove it")
    for key, proto in (("tokenizer", tokenizer.model_protos[0]), ("target_tokenizer", tokenizer.model_protos[1])):
        path = getattr(config, key)
        given = read_model(key, path) if path else None
        if given is not None and given != attnmt_layout(proto):
            pieces = Tokenizer(given).vocab_size
            raise ConfigError(f"{key}: {path} ({pieces} pieces) is not the tokenizer of {model_dir} "
                              f"({tokenizer.vocab_size} pieces); remove {key} to use the model's own")
