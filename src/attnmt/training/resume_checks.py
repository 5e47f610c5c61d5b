"""A resume reads what the run started with: the same corpora (their data position counts their batches)
and the same validation set (its best score and patience are counted on it), as corpora.json
(attnmt.training.run_dir) recorded them, read where the run started."""

from __future__ import annotations

from pathlib import Path

from attnmt.config import TrainConfig
from attnmt.errors import ConfigError, DataError, UserError
from attnmt.files import file_digest
from attnmt.text.data import read_lines
from attnmt.training.run import METRIC_NAMES
from attnmt.training.run_dir import VALIDATION_KEYS, corpus_files, read_corpora, started_dir, started_in


def check_same_corpora(config: TrainConfig, folder: Path) -> None:
    """Refuses a resume that would read other corpora than the run trained on (its data position counts
    their batches): a relative path read from another directory, a file changed or replaced, another
    file given.  A file moved with its bytes (a run directory moved with absolute paths, a copy) is the
    same.  A run directory of an earlier release has no corpora.json: nothing to check."""
    recorded = read_corpora(folder)
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
        why = differs(name, was)
        if why and str(Path(name).resolve()) != was["path"]:
            raise DataError(f"{name}: not the file this run trained on, {was['path']} ({why}); resume from "
                            f"{started}, where the run started (or give the corpora by absolute path), or {new_run}")
        if why:
            raise DataError(f"{name}: not the file this run trained on ({why}): it changed since; put back the file "
                            f"the run trained on, or {new_run}")


def validation_files(saved: TrainConfig, config: TrainConfig, folder: Path) -> dict[str, str]:
    """Where a resume of the run in ``folder`` reads its validation set, by key: train.yaml's own path
    (``saved``'s) where the run started (corpora.json's directory; the current one for a run of an
    earlier release without one), as the corpora's are; another path given (--valid-src) where it is typed."""
    started = started_dir(folder)
    files = {key: (getattr(config, key), getattr(saved, key)) for key in VALIDATION_KEYS}
    return {key: str(started / kept) if kept and given == kept else given for key, (given, kept) in files.items()}


def check_same_validation(saved: TrainConfig, config: TrainConfig, folder: Path, new_run: str) -> None:
    """Refuses a resume another validation set (--valid-src, --valid-tgt, or the run's own files changed
    since), or, where a metric of translations picks the best step, another --eval-beam: the run's best
    score and patience count are of the set and beam it started with, and a score on another (an easier
    set, a wider beam) would be compared with them, its weights kept as the best for it.  The same lines
    elsewhere (a file moved, by the bytes corpora.json recorded, or by the old file's lines in a run of an
    earlier release) are the same set; the files are those validation_files reads."""
    metric = METRIC_NAMES[config.eval_metric]
    if config.eval_metric != "loss" and config.eval_beam != saved.eval_beam:
        raise ConfigError(f"--eval-beam: a resumed run keeps the beam its best {metric} and patience are counted "
                          f"with, {saved.eval_beam} ({new_run}); drop --eval-beam, or start a new run with it")
    corpora = read_corpora(folder)
    recorded = corpora.get("validation", {}) if corpora else {}
    own = validation_files(saved, saved, folder)  # train.yaml's files, where the run started
    for key, path in validation_files(saved, config, folder).items():
        kept, flag = getattr(saved, key), f"--{key.replace('_', '-')}"
        why = differs(path, recorded[key]) if key in recorded else ""
        if why and path == own[key]:
            raise DataError(f"{path}: the validation file this run's best {metric} and patience are counted on is "
                            f"not the one it started with ({why}; {new_run}); put that file back, or give its "
                            f"copy with {flag}")
        if why or (key not in recorded and not same_lines(path, own[key])):
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


def differs(name: str, was: dict) -> str:
    """Why the file ``name`` is not the one ``was`` describes ("" where it is)."""
    resolved = Path(name).resolve()
    try:
        info = resolved.stat()
    except OSError:
        return f"{resolved} cannot be read"
    where = "" if str(resolved) == was["path"] else f"here {resolved}, "
    if info.st_size != was["size"]:
        return f"{where}size {info.st_size:,} bytes, not {was['size']:,}"
    if where or info.st_mtime_ns != was["mtime_ns"]:
        if file_digest(resolved) != was["sha256"]:
            return f"{where}other bytes of the same size"
    return ""
