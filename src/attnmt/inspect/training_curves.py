"""The training figure: a model directory's log.jsonl read back (``read_training_log``) and drawn
as loss, learning rate and validation BLEU (or chrF) against steps (``plot_training``).

Apart from attnmt.inspect.figures, whose figure size and labels it shares, as it reads a file a run
writes rather than a model's attention.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from matplotlib.figure import Figure

from attnmt.errors import AttnmtWarning, ModelDirError, json_value
from attnmt.files import appended_lines
from attnmt.inspect.figures import DPI, one_line

TRAINING_KEYS = ("step", "loss", "lr")  # what plot_training draws of a training record
VALIDATION_KEYS = ("step", "valid_loss")


def read_training_log(model_dir: Path) -> tuple[list[dict], list[dict]]:
    """MODEL_DIR/log.jsonl -> (training records with "loss", validation records with "valid_loss").
    A last line cut short (the run was killed, or is still writing it) is left out with a warning."""
    path = Path(model_dir) / "log.jsonl"
    if not path.is_file():
        raise ModelDirError(f"{path}: no training log; is {model_dir} a model directory written by 'attnmt train'?")
    train: list[dict] = []
    valid: list[dict] = []
    lines, unfinished = appended_lines(path.read_bytes())
    if unfinished is not None:
        warnings.warn(AttnmtWarning(f"{path}, line {len(lines) + 1}: left out, unfinished (no newline ends it: "
                                    "the run is still writing it, or was killed)"), stacklevel=2)
    for number, raw in enumerate(lines, start=1):
        try:
            record = json_value(raw) if raw.strip() else None
        except ValueError as error:  # not JSON, or not UTF-8
            raise ModelDirError(f"{path}, line {number}: not valid JSON ({error})") from None
        if record is None:
            continue
        if not isinstance(record, dict):
            raise ModelDirError(f"{path}, line {number}: not a JSON object")
        kind, records = (TRAINING_KEYS, train) if "loss" in record else (VALIDATION_KEYS, valid)
        if "loss" not in record and "valid_loss" not in record:
            continue  # another kind of record (the run's start, a note)
        missing = [key for key in kind if not isinstance(record.get(key), int | float)]
        if missing:
            raise ModelDirError(f"{path}, line {number}: the record has no number for {', '.join(missing)}")
        records.append(record)
    if not train and not valid:
        raise ModelDirError(f"{path}: no training or validation records yet")
    return last_per_step(train), last_per_step(valid)


def last_per_step(records: list[dict]) -> list[dict]:
    """Each step's last record, in step order: a run killed between two checkpoints and resumed
    logged the steps after the checkpoint twice (a log of attnmt 0.1; a resume now drops the first)."""
    return sorted({record["step"]: record for record in records}.values(), key=lambda record: record["step"])


def plot_training(model_dir: Path) -> Figure:
    """Loss, learning rate and validation BLEU (or chrF) against steps, from the training log."""
    train, valid = read_training_log(model_dir)
    fig = Figure(figsize=(13, 3.8), dpi=DPI, layout="constrained")
    loss, lr, bleu = fig.subplots(1, 3, sharex=True)
    steps = [r["step"] for r in train]
    marker = "o" if len(steps) == 1 else None  # a line through one point draws nothing: show the point
    loss.plot(steps, [r["loss"] for r in train], marker=marker, label="training loss")
    loss.plot([r["step"] for r in valid], [r["valid_loss"] for r in valid], marker="o", label="validation loss")
    loss.set_title("loss (label-smoothed cross-entropy per token)", fontsize=10)
    loss.legend()
    lr.plot(steps, [r["lr"] for r in train], marker=marker, color="tab:green")
    lr.set_title("learning rate", fontsize=10)
    key, name = next(((k, n) for k, n in (("valid_bleu", "BLEU"), ("valid_chrf", "chrF"))
                      if any(r.get(k) is not None for r in valid)), ("valid_bleu", "BLEU"))
    scored = [r for r in valid if r.get(key) is not None]
    bleu.plot([r["step"] for r in scored], [r[key] for r in scored], marker="o", color="tab:purple")
    bleu.set_title(f"validation {name}" if scored else "validation BLEU (none in the log)", fontsize=10)
    for ax in (loss, lr, bleu):
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
    name = one_line(Path(model_dir).resolve().name)  # "." is named as the folder it is
    fig.suptitle(f"Training of {name}", parse_math=False)
    return fig
