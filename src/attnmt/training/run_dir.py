"""The directory a training run writes, guarded: claimed before any work, kept from a new run where it
holds a model, and bound to its corpora.

    RunLock           an exclusive hold on MODEL_DIR/.lock for the whole run: a second ``attnmt train``
                      on the same directory is refused in one line (both would write log.jsonl and
                      checkpoints into it, of two vocabularies); an out_dir that is a file, or cannot
                      be written, is refused before the tokenizer is trained or a corpus prepared.
                      ``attnmt prepare`` holds its --out the same way, as it replaces the folder whole
    check_run_to_resume
                      a folder to resume is a run's: not missing, a file, or without its train.yaml
    check_new_run_dir a new run's out_dir holds no model (weights, a calibration, checkpoints): a run
                      would write its own files (RUN_FILES) over a trained or shipped model's, silently
    corpora.json      what the run trained on (each corpus file's full path, size, time and SHA-256),
                      which a resume must read again: train.yaml keeps the paths as typed, relative
                      to the directory the run started in (attnmt.training.resume_checks compares them)
    run_inputs        every file a run is made of or reads again on a resume, which no command's output
                      may be written over (model_inputs, for commands that only load the model: every
                      weights file too, less the corpora where corpora.json cannot be read)
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attnmt import checkpoint as ckpt
from attnmt.errors import ConfigError, DataError, ModelDirError, json_value
from attnmt.files import LOCK, file_in_the_way, write_failure, write_text
from attnmt.text.tokenizer_files import SEPARATE_TOKENIZERS, TOKENIZER
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import LENGTHS

if TYPE_CHECKING:  # the training's own modules, which a command that only loads a model does not (issue 44)
    from attnmt.train_config import TrainConfig

CORPORA = "corpora.json"
# What a run writes into its out_dir besides its checkpoints (and .lock): a model's weights, config,
# tokenizer, quality calibration and the length of its training sentences, and the run's own config,
# corpora and logs.
# The text files a config names that a run reads (its tokenizer's keys aside).
INPUT_KEYS = ("train_src", "train_tgt", "train_tsv", "valid_src", "valid_tgt")
RUN_FILES = (ckpt.WEIGHTS, ckpt.MODEL_CONFIG, TOKENIZER, *SEPARATE_TOKENIZERS, *VocabTokenizer.FILES,
             VocabTokenizer.TARGET_VOCAB, ckpt.CALIBRATION, ckpt.TRAIN_CONFIG, CORPORA, LENGTHS, "log.jsonl",
             "train.log", "tensorboard")


# Who holds a folder, as its lock file says after the process id, in the words a refused claim
# shows; a lock file of an earlier release has the process id alone: a training run's.
HOLDERS = {"train": "another training run", "prepare": "attnmt prepare"}


class RunLock:
    """``flock`` on ``folder/.lock``, which holds the holder's process id and what it is (HOLDERS).
    The kernel lets go of it when the process ends however it ends (a kill -9 included), so a lock
    file left behind is free."""

    def __init__(self, folder: Path, fd: int, made: list[Path]) -> None:
        self.folder, self.fd, self.made = folder, fd, made  # made: the folders the claim made, deepest first

    @classmethod
    def claim(cls, folder: Path, holder: str = "train", key: str = "out_dir") -> RunLock:
        """Makes ``folder`` where it is missing and holds it for ``holder`` (a key of HOLDERS);
        ModelDirError in one line where it is a file, cannot be made or written, or another process
        holds it (the line names the option, ``key``, that gives another)."""
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise ModelDirError(f"out_dir: {folder} is a file, not a directory; give a directory to train into")
        lock = cls(folder, -1, [path for path in (folder, *folder.parents) if not path.exists()])
        try:
            folder.mkdir(parents=True, exist_ok=True)
            while lock.fd < 0:
                fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
                lock.fd = fd if holds(fd, folder / LOCK, key) else -1
            os.ftruncate(lock.fd, 0)
            os.write(lock.fd, f"{os.getpid()} {holder}\n".encode())
        except BaseException as error:
            lock.release()
            if isinstance(error, FileExistsError | NotADirectoryError):
                above = file_in_the_way(folder)
                raise ModelDirError(f"out_dir: {folder}: {above} is a file, not a directory") from None
            if isinstance(error, OSError):
                raise ModelDirError(f"out_dir: cannot write into {folder}: {write_failure(error)}") from None
            raise
        return lock

    def __del__(self) -> None:  # a Trainer built and never trained lets go when it goes
        self.release()

    def release(self) -> None:
        """Lets go, removing the lock file (and the directories the claim made, where nothing else came
        into them: a run refused before its first write leaves nothing behind).  A lock file that is
        not the one held stays: ``attnmt prepare`` replaces the folder, lock file and all, and the
        lock file there now is another process's."""
        if self.fd >= 0:
            if same_file(self.folder / LOCK, self.fd):  # while still held: no one waits on the old file
                (self.folder / LOCK).unlink(missing_ok=True)
            os.close(self.fd)
            self.fd = -1
        made, self.made = self.made, []
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break  # the run wrote into it: it stays, and the folders above it


def claim(folder: Path, is_main: bool, held: bool = False) -> RunLock:
    """The run's hold on ``folder``: rank 0's (the rank that writes); on the other ranks, and where the
    caller holds it already (``held``: attnmt demo, from before it empties the folder until it has
    scored the model), one that holds nothing."""
    return RunLock.claim(folder) if is_main and not held else RunLock(Path(folder), -1, [])


def check_new_run_dir(config: TrainConfig, config_file: str | Path | None = None) -> None:
    """Refuses a new run an out_dir that holds a run's or a model's files (ConfigError, one line), before
    any work: the run would write its own weights, config, tokenizer and train.yaml over them and append
    to their log, silently.  A run with checkpoints is continued with --resume; a model without (a
    shipped one, or a run's checkpoints removed) may be started from with init_from.  A folder of a
    run that stopped before it saved any weights (its config, train.yaml and log alone) holds
    nothing to lose, and the same command is run into it again, as before.  So is a tokenizer the
    config names that is one of those files, or the config itself (check_inputs_kept)."""
    folder = Path(config.out_dir)
    if ckpt.list_checkpoints(folder):
        raise ConfigError(f"{folder} already holds checkpoints: continue it with 'attnmt train --resume {folder}' "
                          "or choose another out_dir")
    found = [name for name in RUN_FILES if (folder / name).exists()]
    found += sorted(path.name for path in folder.glob("*.safetensors") if path.name not in found)
    if any(name.endswith(".safetensors") for name in found) or ckpt.CALIBRATION in found:
        start = f" (init_from: {folder} starts from its weights)" if ckpt.WEIGHTS in found else ""
        raise ConfigError(f"{folder} already holds {', '.join(found)}, which a new run would replace: choose "
                          f"another out_dir{start}, or remove them")
    check_inputs_kept(config, folder, config_file)


def check_inputs_kept(config: TrainConfig, folder: Path, config_file: str | Path | None = None) -> None:
    """Refuses a file the run reads (a tokenizer, a corpus or validation file the config names, the config
    ``config_file`` itself) where the run writes one of its own files (written_files) in ``folder``: a plain
    spm_train model given as out_dir's spm.model was replaced by the run's copy in attnmt's id layout, and a
    config saved as out_dir's train.yaml (out_dir: .) by the run's, the user's comments gone.  A run's file
    that is a link is written through (attnmt.files.atomic_file replaces its target): an input the link
    points to is refused too."""
    written = {path: name for name in written_files(config)
               for path in (folder.resolve() / name, (folder / name).resolve())}
    read = [(f"{key}: {given}", "tokenizer" if key.endswith("tokenizer") else "file", given)
            for key in ("tokenizer", "target_tokenizer", *INPUT_KEYS) if (given := getattr(config, key))]
    if config_file:
        read.append((f"the config {config_file}", "config", config_file))
    for named, what, given in read:
        name = written.get(Path(given).resolve())
        if name:
            raise ConfigError(f"{named} is in out_dir {folder}, where the run writes its own {name}: choose "
                              f"another out_dir, or move the {what} out of it")


def written_files(config: TrainConfig) -> tuple[str, ...]:
    """The files of RUN_FILES a new run of ``config`` writes: of the tokenizer's, spm.model, or with
    shared_vocab false spm.source.model and spm.target.model (a user's spm.model beside a run of
    separate vocabularies is never written).  The tokenizer init_from's model or a prepared_dir gives may
    be of any kind: its files are not known before it is read, and all are kept."""
    if config.init_from or (config.prepared_dir and not config.tokenizer):
        return RUN_FILES
    own = SEPARATE_TOKENIZERS if config.shared_vocab is False else (TOKENIZER,)
    others = {TOKENIZER, *SEPARATE_TOKENIZERS, *VocabTokenizer.FILES, VocabTokenizer.TARGET_VOCAB} - {*own}
    return tuple(name for name in RUN_FILES if name not in others)


def check_run_to_resume(folder: Path, key: str = "--resume") -> None:
    """Refuses (ModelDirError, one line naming ``key``) a ``folder`` to resume that is no training run's:
    missing, a file, or without the train.yaml every run writes first; where it read that train.yaml
    straight away, the line named a path inside it ("FILE/train.yaml: … (Not a directory)").  A train.yaml
    emptied since (one line naming it) was read as every key's default, and refused for one the user never
    touched ("max_tokens is 4096, but the run started with 60")."""
    expected = f"{key} {folder}: expected a training run's folder (the out_dir 'attnmt train' wrote)"
    if not folder.exists():
        raise ModelDirError(f"{expected}; there is no such folder")
    if not folder.is_dir():
        raise ModelDirError(f"{expected}, not a file")
    if not (folder / ckpt.TRAIN_CONFIG).exists():
        inside = run_holding(folder)
        raise ModelDirError(f"{expected}; it is {inside[1]} of the run {inside[0]}: give {key} {inside[0]}" if inside
                            else f"{expected}; it holds no {ckpt.TRAIN_CONFIG}")
    from attnmt.config_file import read_config_file  # YAML's reader: train_settings says why here

    if not read_config_file(folder / ckpt.TRAIN_CONFIG):
        raise ModelDirError(f"{folder / ckpt.TRAIN_CONFIG}: holds no settings (emptied or cut short), where 'attnmt "
                            "train' wrote the run's; put them back: the config the run started with, and the overrides "
                            "it was given")


def run_holding(folder: Path) -> tuple[Path, str] | None:
    """The run whose checkpoints folder, or one of whose checkpoints, ``folder`` is, with which of the two it
    is in words; None where it is neither.  Given to --resume or --model, such a folder was refused as
    one holding no train.yaml, or no checkpoints ("a run saves them into …/checkpoints/checkpoints")."""
    if folder.name == ckpt.CHECKPOINTS and (folder.parent / ckpt.TRAIN_CONFIG).is_file():
        return folder.parent, "the checkpoints folder"
    run = folder.parent.parent
    if ckpt.STEP_FOLDER.fullmatch(folder.name) and folder.parent.name == ckpt.CHECKPOINTS and (
            run / ckpt.TRAIN_CONFIG).is_file():
        return run, "a checkpoint"
    return None


def holds(fd: int, path: Path, key: str = "out_dir") -> bool:
    """Takes the lock on ``fd`` without waiting; False where the file was replaced meanwhile (its
    holder removed it on release: the caller opens the new one).  Held by another: ModelDirError,
    naming the holder and the option (``key``) that gives another folder."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            os.close(fd)
            raise
        pid, _, holder = os.pread(fd, 64, 0).decode(errors="replace").strip().partition(" ")
        os.close(fd)
        by = f"process {pid}" if pid.isdigit() else "another process"
        raise ModelDirError(f"{path.parent} is in use by {HOLDERS.get(holder, HOLDERS['train'])} ({by}): wait for "
                            f"it to end, or give another {key}") from None
    same = same_file(path, fd)
    if not same:
        os.close(fd)
    return same


def same_file(path: Path, fd: int) -> bool:
    """Whether ``path`` is the file open as ``fd`` (False where it is gone)."""
    try:
        found, held = os.stat(path), os.fstat(fd)
    except FileNotFoundError:
        return False
    return (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)


def corpus_files(config: TrainConfig) -> dict[str, str]:
    """The files a run's batches index, by what names them in the config: the prepared directory's
    header (which records its corpora), or each training corpus's text files ("corpus0.src", ...)."""
    from attnmt.training.corpus import HEADER

    if config.prepared_dir:
        return {"prepared_dir": str(Path(config.prepared_dir) / HEADER)}
    return {f"{spec.name}.{role}": path for spec in config.corpora() for role, path in spec.files().items()}


VALIDATION_KEYS = ("valid_src", "valid_tgt")  # the validation set the best score and patience are counted on
# What cuts a run's corpora into batches and orders them: a resume's data position counts those batches.
BATCH_KEYS = ("max_tokens", "max_len", "max_length_ratio", "keep_untranslated", "seed")
# What made a run's tokenizer, and so its embeddings' size: a resume keeps both.
TOKENIZER_KEYS = ("tokenizer", "target_tokenizer", "vocab_size", "shared_vocab", "tokenizer_options")


def record_corpora(config: TrainConfig, folder: Path) -> None:
    """Writes corpora.json: the files this new run trains on (each as written and its file_identity),
    the directory it started in, what cuts them into batches (BATCH_KEYS), what made its tokenizer (TOKENIZER_KEYS)
    and the metric its best step and patience are counted in (eval_metric): a resume checks them (resume_checks)."""
    from attnmt.training.tokenize_corpora import file_identity

    files = {key: {"given": path, **file_identity(path)} for key, path in corpus_files(config).items()}
    validation = {}
    for key in VALIDATION_KEYS:  # which a resume may give again elsewhere (check_same_validation)
        with suppress(DataError):
            validation[key] = {"given": getattr(config, key), **file_identity(getattr(config, key))}
    batches = {key: getattr(config, key) for key in BATCH_KEYS}
    tokenizer = {key: getattr(config, key) for key in TOKENIZER_KEYS}
    write_text(folder / CORPORA, json.dumps({"cwd": os.getcwd(), "files": files, "validation": validation,
                                             "batches": batches, "tokenizer": tokenizer,
                                             "eval_metric": config.eval_metric}, indent=1))


def read_corpora(folder: Path) -> dict[str, Any] | None:
    """The run in ``folder``'s corpora.json, as record_corpora wrote it; None where there is none (a run
    of an earlier release).  One that cannot be read, or holds no "files" record (emptied, cut short,
    edited by hand), is a ModelDirError naming it: what the run trained on is unknown."""
    path = folder / CORPORA
    if not path.is_file():
        return None
    try:
        recorded = json_value(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelDirError(f"{path}: cannot read the record of the corpora this run trained on ({error}); put "
                            "back the corpora.json 'attnmt train' wrote") from None
    files = recorded.get("files") if isinstance(recorded, dict) else None
    if not isinstance(files, dict) or not all(isinstance(file, dict) and "path" in file for file in files.values()):
        raise ModelDirError(f"{path}: not the record of the corpora 'attnmt train' writes (no \"files\" with each "
                            "file's path); put back the corpora.json 'attnmt train' wrote")
    return recorded


def started_in(recorded: dict[str, Any], folder: Path) -> str:
    """The directory the run in ``folder`` started in, as its corpora.json ``recorded`` it: train.yaml's
    relative paths are read from there on a resume."""
    started = recorded.get("cwd")
    if not isinstance(started, str):
        raise ModelDirError(f"{folder / CORPORA}: it does not say the directory the run started in (\"cwd\"); put "
                            "back the corpora.json 'attnmt train' wrote")
    return started


def recorded_corpora(folder: Path) -> dict[str, str]:
    """The full paths of the files the run in ``folder`` trained on, as its corpora.json recorded them,
    by what names them in its config ({} where there is none: a run of an earlier release)."""
    recorded = read_corpora(folder)
    return {} if recorded is None else {key: file["path"] for key, file in recorded["files"].items()}


def run_inputs(folder: Path) -> dict[str, str]:
    """The files of the model or run in ``folder`` that an output must not be written over, by the name
    an error gives each: its own files (RUN_FILES), every checkpoint's weights and trainer state, and
    what its train.yaml reads on a resume (the validation sets, the tokenizer files) besides the corpora
    it trained on.  Replaced, each would leave a model that no longer loads, or a run that no longer
    resumes or averages; a folder that is no run (a shipped model) has its own files alone."""
    folder = Path(folder)
    corpora = {f"run's training data ({key})": path for key, path in recorded_corpora(folder).items()}
    return {**own_files(folder), **corpora, **configured_inputs(folder)}


def model_inputs(folder: Path) -> dict[str, str]:
    """run_inputs for a command that only loads the model in ``folder`` (translate, score, shortlist),
    and every weights file there (weights_files): where its corpora.json cannot be read, the corpora
    alone go unprotected.  The model loads without that file, and a check that keeps outputs off the
    run's files must not make it unusable (as configured_inputs reads an unreadable train.yaml)."""
    try:
        inputs = run_inputs(folder)
    except ModelDirError:
        inputs = {**own_files(Path(folder)), **configured_inputs(Path(folder))}
    return {**weights_files(Path(folder)), **inputs}


def weights_files(folder: Path) -> dict[str, str]:
    """Every weights file (*.safetensors) in ``folder`` and in its checkpoints' folders, by name: besides
    model.safetensors, the averages ``attnmt average`` and the demo write (averaged.safetensors,
    averaged_last3.safetensors) and a checkpoint's weights kept without its trainer state, any of which
    --weights loads.  ``attnmt average`` keeps its own rule (averaging_inputs): a new average may
    replace an old one."""
    checkpoints = folder / ckpt.CHECKPOINTS
    return {**{f"model's {path.name}": str(path) for path in sorted(folder.glob("*.safetensors"))},
            **{f"checkpoint {path.parent.name}'s {path.name}": str(path)
               for path in sorted(checkpoints.glob("*/*.safetensors"))}}


def own_files(folder: Path) -> dict[str, str]:
    """The files the model or run in ``folder`` wrote itself (RUN_FILES, each checkpoint's), by name."""
    return {**{f"model's {name}": str(folder / name) for name in RUN_FILES},
            **{f"checkpoint {checkpoint.name}'s {name}": str(checkpoint / name)
               for checkpoint in ckpt.list_checkpoints(folder) for name in (ckpt.WEIGHTS, ckpt.TRAINER_STATE)}}


def train_settings(folder: Path) -> dict[str, Any]:
    """The settings of the train.yaml in ``folder`` (read_config_file); {} where there is none.  YAML's reader is loaded
    only where there is one: a model imported from Marian has none (issue 44: 0.015 s of its one-line job's start)."""
    if not (folder / ckpt.TRAIN_CONFIG).is_file():
        return {}
    from attnmt.config_file import read_config_file
    return read_config_file(folder / ckpt.TRAIN_CONFIG)


def configured_inputs(folder: Path) -> dict[str, str]:
    """The validation sets and tokenizer files the run in ``folder`` names in its train.yaml, by their keys,
    at each place a resume looks for them (places_to_look): relative to the directory it started in
    (corpora.json's; else the current one), and as named from here, where a moved run's are found; {}
    where there is no train.yaml, or one that cannot be read (the model still translates: nothing to
    protect there)."""
    try:
        values = train_settings(folder)
    except ConfigError:
        return {}
    try:
        started = Path((read_corpora(folder) or {}).get("cwd") or "")
    except (ModelDirError, TypeError):  # unreadable, or no directory in it: read from here, as without one
        started = Path()
    keys = {key: values.get(key) for key in VALIDATION_KEYS}
    corpora = values.get("train")
    for i, corpus in enumerate(corpora if isinstance(corpora, list) else []):
        keys.update({f"train[{i}].{key}": corpus.get(key) for key in VALIDATION_KEYS
                     if isinstance(corpus, dict)})
    named = [("validation data", key, path) for key, path in keys.items()]
    named += [("tokenizer", key, values.get(key)) for key in ("tokenizer", "target_tokenizer")]
    inputs = {}
    for what, key, path in named:
        if isinstance(path, str) and path:
            first, *others = places_to_look(path, path, started)
            inputs.update({f"run's {what} ({key})": first,
                           **{f"run's {what} ({key}, as found from here)": place for place in others}})
    return inputs


def places_to_look(given: str, kept: str | None, started: Path) -> list[str]:
    """Where a resume looks for the validation file ``given``: train.yaml's own path (``kept``) where the
    run started (``started``), then as typed from the current folder (a run folder moved with its files, a
    path an earlier release's resume wrote relative to its own folder); another path (--valid-src) where
    it is typed.  Two spellings of one file are looked at once."""
    if not kept or given != kept:
        return [given]
    places: dict[Path, str] = {}
    for place in (str(started / kept), kept):
        places.setdefault(Path(place).resolve(), place)
    return list(places.values())
