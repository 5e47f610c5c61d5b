"""A resume reads what the run started with: the same corpora (their data position counts their batches)
and the same validation set (its best score and patience are counted on it), as corpora.json
(attnmt.training.run_dir) recorded them: a file is the same where its bytes are, wherever it is found.
A resume reads what it compares with once (RunRecord)."""

from __future__ import annotations

import json
import os
from functools import cached_property
from pathlib import Path

from attnmt import checkpoint as ckpt
from attnmt.errors import ConfigError, DataError, UserError
from attnmt.files import file_digest
from attnmt.text.data import read_lines
from attnmt.train_config import TrainConfig, load_config
from attnmt.training.run import METRIC_NAMES
from attnmt.training.run_dir import (
    BATCH_KEYS,
    TOKENIZER_KEYS,
    VALIDATION_KEYS,
    corpus_files,
    places_to_look,
    read_corpora,
    started_in,
)


class RunRecord:
    """What a resume of the run in ``folder`` compares with what it is given, each read once, when first
    asked for (where a resume first needs it, so that the first fault found is the one it was): its
    corpora.json, its train.yaml, and the digest of each file compared with corpora.json's.  The resume's
    own checks and the Trainer's (which guard a direct ``Trainer(resume=True)``) share one record, so that
    each file is hashed once a resume; a record lasts one resume, the files may change after it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.digests: dict[tuple[str, int, int], str] = {}  # by (full path, size, modification time)

    @cached_property
    def corpora(self) -> dict | None:
        """corpora.json (read_corpora): None for a run of an earlier release, which has none."""
        return read_corpora(self.folder)

    @cached_property
    def saved(self) -> TrainConfig:
        """train.yaml, as the run last wrote it (without this resume's overrides)."""
        return load_config(self.folder / ckpt.TRAIN_CONFIG)

    @cached_property
    def started(self) -> Path:
        """The directory the run started in (corpora.json's; the current one for a run of an earlier
        release without one), where a resume reads train.yaml's relative validation paths."""
        return Path(started_in(self.corpora, self.folder)) if self.corpora else Path()

    def validation(self) -> dict:
        """The validation files corpora.json recorded when the run started, by key ({} for a run of an
        earlier release, which recorded none)."""
        return (self.corpora or {}).get("validation", {})

    def digest(self, path: Path, info: os.stat_result) -> str:
        """The sha256 of the file ``path`` (``info`` its stat), hashed once in this record's resume."""
        key = (str(path), info.st_size, info.st_mtime_ns)
        if key not in self.digests:
            self.digests[key] = file_digest(path)
        return self.digests[key]


def check_same_corpora(config: TrainConfig, record: RunRecord) -> None:
    """Refuses a resume that would read other corpora than the run trained on (its data position counts
    their batches): a relative path read from another directory, a file changed or replaced, another
    file given.  A file moved with its bytes (a run directory moved with absolute paths, a copy) is the
    same.  A run directory of an earlier release has no corpora.json: nothing to check."""
    recorded, folder = record.corpora, record.folder
    if recorded is None:
        return
    started, files = started_in(recorded, folder), recorded["files"]
    given = corpus_files(config)
    new_run = f"start a new run with these corpora (init_from: {folder} keeps its weights)"
    if given.keys() != files.keys():
        raise ConfigError(f"{', '.join(given.values())}: not the corpora this run trained on "
                          f"({', '.join(file['given'] for file in files.values())}); {new_run}")
    for key, name in given.items():
        was = files[key]
        why = differs(name, was, record)
        if why and str(Path(name).resolve()) != was["path"]:
            # Resumed where the run started, the path is another one given (--train-src), not one read elsewhere.
            fix = ("give that one (a resume trains on the corpora it started with)" if Path(started) == Path.cwd()
                   else f"resume from {started}, where the run started (or give the corpora by absolute path)")
            raise DataError(f"{name}: not the file this run trained on, {was['path']} ({why}); {fix}, or {new_run}")
        if why and not Path(name).exists():  # gone, not changed: the run resumes from it where it is now
            raise DataError(f"{missing(key, name)}, or {new_run}")
        if why:
            raise DataError(f"{name}: not the file this run trained on ({why}): it changed since; put back the file "
                            f"the run trained on, or {new_run}")


def missing(key: str, name: str) -> str:
    """The line for a corpus file ``name`` (corpus_files' ``key``) that is gone, with what to do: a prepared
    directory moved or deleted is named as the folder (its header.json was "changed since")."""
    folder = Path(name).parent
    if key == "prepared_dir" and not folder.exists():
        return (f"{folder}: the prepared directory this run trained on is missing (no {folder.resolve()}); put it "
                "back, or give where it is now with --prepared-dir")
    return f"{name}: the file this run trained on is missing (no {Path(name).resolve()}); put it back"


def why_not(place: str, was: dict | None, record: RunRecord) -> str:
    """Why ``place`` is not the validation file ``was`` records ("" where it is: its bytes, wherever it
    is, as check_same_corpora takes a corpus); without a record (a run of an earlier release), "" where
    it exists."""
    if was:
        return differs(place, was, record)
    return "" if Path(place).is_file() else f"{Path(place).resolve()} cannot be read"


def found(places: list[str], was: dict | None, record: RunRecord) -> str | None:
    """The first of ``places`` that holds the validation file ``was`` records (why_not); None where none does."""
    return next((place for place in places if not why_not(place, was, record)), None)


def not_found(name: str, places: list[str], was: dict | None, what: str, record: RunRecord, aside: str = "") -> str:
    """Why none of ``places`` is the validation file ``name`` (``what`` says whose it is; ``aside`` ends
    the parenthesis): it is missing from each, or found with other bytes than ``was`` records (why, at each
    place looked at)."""
    there = [place for place in places if Path(place).is_file()]
    if not there:
        return f"{name}: {what} is missing (no {' nor '.join(str(Path(place).resolve()) for place in places)}{aside})"
    whys = "; ".join(why_not(place, was, record) for place in places)
    return f"{there[0]}: {what} is not the one it started with ({whys}{aside})"


def found_or_refused(name: str, places: list[str], was: dict | None, record: RunRecord, what: str,
                     instead: str) -> str:
    """The first of ``places`` that holds the validation file ``name`` (``was`` its bytes as corpora.json
    recorded them; None: the first that exists), for a command that reads a run's own validation file
    again; where none does, one line naming the places looked at (``what`` says whose file it is,
    ``instead`` what to do)."""
    path = found(places, was, record)
    if path is None:
        raise DataError(f"{not_found(name, places, was, what, record)}; {instead}")
    return path


def validation_places(saved: TrainConfig, config: TrainConfig, record: RunRecord) -> dict[str, list[str]]:
    """Where a resume of the run (``record``) looks for its validation set, by key (places_to_look):
    train.yaml's own paths (``saved``'s) where the run started (corpora.json's directory; the current
    one for a run of an earlier release without one) and from here; another path given where it is typed."""
    return {key: places_to_look(getattr(config, key), getattr(saved, key), record.started)
            for key in VALIDATION_KEYS}


def validation_files(config: TrainConfig, record: RunRecord) -> dict[str, str]:
    """The validation files a resume reads, by key: of validation_places's, the first that holds the
    bytes corpora.json recorded (check_same_validation refused the resume where none does)."""
    recorded = record.validation()
    return {key: found(places, recorded.get(key), record) or places[0]
            for key, places in validation_places(record.saved, config, record).items()}


def run_validation_set(config: TrainConfig, folder: Path, what: str, instead: str) -> tuple[str, str]:
    """The validation source and references of the run in ``folder`` (``config`` its train.yaml), found
    as a resume finds them (validation_places: where the run started, then from here, the first holding
    the bytes corpora.json recorded; the first that exists for a run of an earlier release), for a command
    that reads the run's own set again (keep_better_average, ``attnmt calibrate``): not a file of the same
    name in the current folder.  Where none is found, one line naming the places looked at (``what`` says
    whose file it is, ``instead`` what to do)."""
    record = RunRecord(folder)
    recorded = record.validation()
    files = {key: found_or_refused(getattr(config, key), places, recorded.get(key), record, what, instead)
             for key, places in validation_places(config, config, record).items()}
    return files["valid_src"], files["valid_tgt"]


def check_same_validation(config: TrainConfig, record: RunRecord, new_run: str) -> None:
    """Refuses a resume another validation set (--valid-src, --valid-tgt, or the run's own files changed
    since or gone), or, where a metric of translations picks the best step, another --eval-beam: the run's
    best score and patience count are of the set and beam it started with, and a score on another (an
    easier set, a wider beam) would be compared with them, its weights kept as the best for it.  The same
    bytes elsewhere (a file moved, by the bytes corpora.json recorded, or by the old file's lines in a run
    of an earlier release) are the same set; the places looked at are validation_places's."""
    saved, metric = record.saved, METRIC_NAMES[config.eval_metric]
    if config.eval_metric != "loss" and config.eval_beam != saved.eval_beam:
        raise ConfigError(f"--eval-beam: a resumed run keeps the beam its best {metric} and patience are counted "
                          f"with, {saved.eval_beam} ({new_run}); drop --eval-beam, or start a new run with it")
    recorded = record.validation()
    own = validation_places(saved, saved, record)  # train.yaml's files
    what = f"the validation file this run's best {metric} and patience are counted on"
    for key, places in validation_places(saved, config, record).items():
        given, kept, flag = getattr(config, key), getattr(saved, key), f"--{key.replace('_', '-')}"
        was = recorded.get(key)
        path = found(places, was, record)
        if path is None and given == kept:
            raise DataError(f"{not_found(kept, places, was, what, record, f'; {new_run}')}; put that file back, or "
                            f"give its copy with {flag}")
        if path is None and not Path(given).is_file():
            raise DataError(f"{flag}: {Path(given).resolve()} is missing; give a copy of the set the run started "
                            f"with, {kept}, or drop {flag}")
        if path is None or (not was and not same_lines(path, found(own[key], None, record) or own[key][0])):
            raise ConfigError(f"{flag}: a resumed run keeps the validation set its best {metric} and patience are "
                              f"counted on, {kept} ({new_run}); drop {flag}, or start a new run with it")


def same_lines(path: str, other: str) -> bool:
    """Whether two text files (plain or .gz) are one file, or hold the same lines; False where they are
    two and either cannot be read."""
    if Path(path).resolve() == Path(other).resolve():
        return True
    try:
        return read_lines(path) == read_lines(other)
    except (OSError, UserError):
        return False


def differs(name: str, was: dict, record: RunRecord) -> str:
    """Why the file ``name`` is not the one ``was`` describes ("" where it is); hashed once a resume
    (``record``'s)."""
    resolved = Path(name).resolve()
    try:
        info = resolved.stat()
    except OSError:
        return f"{resolved} cannot be read"
    where = "" if str(resolved) == was["path"] else f"here {resolved}, "
    if info.st_size != was["size"]:
        return f"{where}size {info.st_size:,} bytes, not {was['size']:,}"
    if where or info.st_mtime_ns != was["mtime_ns"]:
        if record.digest(resolved, info) != was["sha256"]:
            return f"{where}other bytes of the same size"
    return ""


def check_same_batches(config: TrainConfig, record: RunRecord) -> None:
    """Refuses a resume whose config cuts or orders the batches otherwise than the run started with (BATCH_KEYS, as
    corpora.json recorded them; a run of an earlier release recorded none).  An override of one is refused before
    (check_resume_overrides); one edited in train.yaml was followed without a word, the checkpoint's data position
    then counting other batches: some of the epoch's pairs trained twice, others skipped."""
    started = (record.corpora or {}).get("batches", {})
    for key in BATCH_KEYS:
        if key in started and getattr(config, key) != started[key]:
            raise ConfigError(f"{record.folder / ckpt.TRAIN_CONFIG}: {key} is {getattr(config, key)}, but the run "
                              f"started with {started[key]}, and its checkpoint's data position counts the batches "
                              f"cut and ordered so; put back {key}: {started[key]}, or start a new run with "
                              f"init_from: {record.folder}")


def check_same_metric(config: TrainConfig, record: RunRecord) -> None:
    """Refuses a resume whose train.yaml names another eval_metric than the run started with (as corpora.json
    recorded it; a run of an earlier release recorded none): an override is refused before
    (check_resume_overrides), but one edited in train.yaml was followed without a word, and the first BLEU was
    compared with a best score counted in loss (-4.3): every step "improved", the best weights and patience
    counted anew."""
    started = (record.corpora or {}).get("eval_metric")
    if started and config.eval_metric != started:
        raise ConfigError(f"{record.folder / ckpt.TRAIN_CONFIG}: eval_metric is {config.eval_metric}, but the run "
                          f"started with {started}, which its best step and patience are counted in; put back "
                          f"eval_metric: {started}, or start a new run with init_from: {record.folder}")


def check_same_tokenizer(config: TrainConfig, record: RunRecord) -> None:
    """Refuses a resume whose train.yaml changes what made the run's tokenizer (TOKENIZER_KEYS, as corpora.json
    recorded them; a run of an earlier release recorded none): an override is refused before
    (check_resume_overrides), but vocab_size edited in train.yaml was ignored without a word, the run going on with
    its tokenizer and embeddings of the old size, and the train.yaml it kept naming a size its model never had."""
    started = (record.corpora or {}).get("tokenizer", {})
    for key in TOKENIZER_KEYS:
        if key in started and getattr(config, key) != started[key]:
            back = f"remove {key}" if started[key] in (None, {}) else f"put back {key}: {as_yaml(started[key])}"
            raise ConfigError(f"{record.folder / ckpt.TRAIN_CONFIG}: {key} is {as_yaml(getattr(config, key))}, but "
                              f"the run started with {as_yaml(started[key])}, and a resumed run keeps the tokenizer "
                              f"(and embeddings) it started with; {back} (a new vocabulary is a new run, in another "
                              "out_dir)")


def as_yaml(value: object) -> str:
    """A config value as train.yaml may give it (JSON is YAML): 81, {"model_type": "bpe"}; none where unset."""
    return "none" if value is None else json.dumps(value)
