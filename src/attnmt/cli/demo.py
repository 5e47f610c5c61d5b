"""``attnmt demo``: the whole tool in one command, on the bundled Multi30k corpus.

Trains within a time budget, keeps the better of the best checkpoint and the
checkpoint average, scores the test set with sacreBLEU, and translates a few
sentences, and draws the attention of one of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from decimal import Decimal
from pathlib import Path

from attnmt.checkpoint import CHECKPOINTS, list_checkpoints, load_model_dir
from attnmt.cli.commands.train import TEST_REF, TEST_SRC, load_training_kernels
from attnmt.cli.lines import print_out
from attnmt.decoding import DEFAULT
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError, json_value
from attnmt.evaluate import score
from attnmt.files import LOCK, write_text
from attnmt.inspect.figures import write_attention_figures
from attnmt.text.parallel_text import read_parallel
from attnmt.train_config import TrainConfig, load_config
from attnmt.training.averaging import keep_better_average
from attnmt.training.run_dir import RunLock
from attnmt.training.trainer import Trainer

EXAMPLES = [
    "A man rides a bike down the street.",
    "Two dogs are playing in the snow.",
    "A little girl in a pink dress is climbing the stairs.",
    "A group of people are standing in front of a building.",
]
# A demo's folder holds this file: RUNNING from when the demo claims the folder, and what its training
# wrote (training_record) once it ends; an earlier release's demo left it empty.
MARKER = ".attnmt-demo"
RUNNING = {"demo": "running"}
# What a training run writes into its folder, which the demo writes at its own folder's top level alone.
RUN_MARKS = (LOCK, "log.jsonl", CHECKPOINTS)


def training_record(out: Path) -> dict:
    """What tells the training in ``out`` apart: its log.jsonl (SHA-256) and its checkpoints' names.  A
    run trained on there since (``attnmt train --resume``) appends to the log and adds checkpoints."""
    log = out / "log.jsonl"
    return {"log.jsonl": hashlib.sha256(log.read_bytes()).hexdigest() if log.is_file() else None,
            "checkpoints": [path.name for path in list_checkpoints(out)]}


def recorded_training(out: Path) -> dict | None:
    """The training_record the demo in ``out`` wrote into its MARKER; None where it recorded none: an
    earlier release's demo (an empty file), or one killed before it ended (RUNNING)."""
    try:
        record = json_value((out / MARKER).read_text(encoding="utf-8"))
    except ValueError:
        return None
    return record if isinstance(record, dict) and "checkpoints" in record else None


def runs_started(log: Path) -> int:
    """How many runs wrote into the log.jsonl ``log``: each run, a resume too, starts with a "runtime" record."""
    if not log.is_file():
        return 0
    records = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json_value(line))
        except ValueError:  # a line a kill cut short
            continue
    return sum(isinstance(record, dict) and "runtime" in record for record in records)


def trained_since(out: Path) -> bool:
    """Whether a run trained in the demo folder ``out`` after its demo: its log.jsonl or checkpoints are
    not those the demo recorded, or, where the demo recorded none (an earlier release's, or one killed),
    its log.jsonl shows a second run started there (``attnmt train --resume``: the demo starts one)."""
    if not (out / MARKER).exists():
        return False  # a new folder
    recorded = recorded_training(out)
    if recorded is None:
        return runs_started(out / "log.jsonl") > 1
    return recorded != training_record(out)


def nested_run(out: Path) -> Path | None:
    """The first folder below ``out``'s top level that holds a training run's files (RUN_MARKS): a run
    trained into a subfolder (``--out_dir runs/demo/finetune``), which emptying ``out`` would delete."""
    for folder, subfolders, files in sorted(os.walk(out)):
        if Path(folder) != out and set(RUN_MARKS) & {*subfolders, *files}:
            return Path(folder)
    return None


def check_demo_alone(out: Path) -> None:
    """Refuses (ConfigError, one line) to empty the demo folder ``out`` where it holds training the demo
    did not do: a run nested in a subfolder, or the demo's own run trained on since."""
    nested = nested_run(out)
    if nested is not None:
        raise ConfigError(f"{nested} holds a training run that 'attnmt demo' did not write, and a demo into {out} "
                          f"would delete it; move it out of {out}, or choose another --out")
    if trained_since(out):
        raise ConfigError(f"{out} was trained on since 'attnmt demo' wrote it (its log.jsonl and checkpoints are "
                          f"not the demo's: 'attnmt train --resume {out}'); choose another --out, or remove it "
                          "yourself")


def claim_out_dir(out: Path) -> RunLock:
    """Holds ``out`` (RunLock: a training run's hold on its out_dir) and empties it for a new demo, marked
    RUNNING.  A previous demo's folder is emptied only while it holds what that demo trained, and no one
    holds it: a demo or run still running there ("DIR is in use by another training run (process N)"),
    a run trained on there since, and a run nested in it are not deleted under their owner (one line
    each).  Any other existing directory is left alone."""
    if out.exists() and not (out / MARKER).exists():
        raise ConfigError(f"{out} exists and was not written by 'attnmt demo'; choose another --out")
    lock = RunLock.claim(out, key="--out")
    try:
        check_demo_alone(out)
    except ConfigError:
        lock.release()
        raise
    write_text(out / MARKER, json.dumps(RUNNING))  # first: a demo stopped while it empties the folder
    for path in out.iterdir():  # leaves one the next demo replaces, not one "not written by attnmt demo"
        if path.name in (LOCK, MARKER):  # LOCK held: another claim waits on this file
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return lock


def run_demo(config_path: str, out: str, minutes: float, overrides: dict[str, str | None]) -> None:
    # Written out in full: max_time reads digits, not 1e-05 (str() of a float so small) or inf.
    max_time = f"{Decimal(repr(minutes)):f}m"
    config = load_config(config_path, {**overrides, "max_time": max_time, "out_dir": out})
    out_dir = Path(out)
    lock = claim_out_dir(out_dir)
    try:  # held through the scoring too: a second demo would empty the folder under it
        train_and_show(config, config_path, out_dir, minutes)
    finally:  # atomic: cut short, the marker stays RUNNING, which the next demo replaces
        try:
            write_text(out_dir / MARKER, json.dumps(training_record(out_dir)))
        finally:
            lock.release()


def train_and_show(config: TrainConfig, config_path: str, out_dir: Path, minutes: float) -> None:
    """The demo in ``out_dir``, which the caller holds: trains, keeps the better average, scores the
    test set, translates the examples and draws the attention of the first."""
    print_out(f"== training {config_path} for {minutes:g} minutes into {out_dir}")
    started = time.perf_counter()
    load_training_kernels()
    result = Trainer(config, held=True).train()  # its last line gives the best validation score
    print_out(f"== trained {result.step} steps in {(time.perf_counter() - started) / 60:.1f} min "
              "(wall clock, with validation)")
    picked = keep_better_average(out_dir)
    print_out(f"== validation BLEU, beam {DEFAULT.beam_size}: "
              + ", ".join(f"{name} {bleu:.2f}" for name, bleu in picked.items())
              + f"; keeping {max(picked, key=picked.get)}")

    model, tokenizer = load_model_dir(out_dir)
    pairs, _ = read_parallel(TEST_SRC, TEST_REF)
    sources, references = zip(*pairs, strict=True)
    hypotheses = translate(model, tokenizer, sources, DEFAULT)
    (out_dir / "test_2016_flickr.hyp.de").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    print_out(f"== test_2016_flickr (beam {DEFAULT.beam_size}, α {DEFAULT.alpha}):\n{score(hypotheses, references)}")
    print_out("== examples")
    for source, target in zip(EXAMPLES, translate(model, tokenizer, EXAMPLES), strict=True):
        print_out(f"  {source}\n  -> {target}")
    figures = write_attention_figures(model, tokenizer, EXAMPLES[0], out_dir / "attention")
    print_out(f"== attention of {EXAMPLES[0]!r}: {len(figures)} figures in {out_dir}/attention/ "
              f"(open {out_dir}/attention/attention.html in a browser)")
    print_out(f"== written: model {out_dir}/ (model.safetensors, config.json, spm.model, train.yaml), "
              f"log {out_dir}/log.jsonl, test translations {out_dir}/test_2016_flickr.hyp.de")
