"""Data at scale: prepare a synthetic corpus of millions of pairs, train on it, and compare with Multi30k.

    .venv/bin/python benchmarks/data_scale.py                     # 5 M pairs, 50 steps (the targets)
    .venv/bin/python benchmarks/data_scale.py --pairs 200000      # a quicker look

1. A SentencePiece model is trained on Multi30k (the config's vocab_size).
2. A synthetic corpus is written once into --work: --pairs sentence pairs, the source of
   5–40 words (uniform), its target of the source's length times 0.8–1.25 (uniform, rounded,
   kept within 5–40) as translations are; the words drawn from Multi30k's English and German
   training text with their frequencies there.
3. ``attnmt prepare`` prepares it (a subprocess; its wall time, startup included, gives
   pairs/s; its peak RSS is the largest sum over its process tree, sampled every 0.1 s).
4. ``attnmt train``'s Trainer runs --steps steps on the prepared data, then the same run on
   Multi30k given as text (prepared on the fly), each in a fresh process, so each peak RSS
   (ru_maxrss) is its own; the RSS after the last step, between steps, is printed beside it
   (the peak is a moment inside a step).  "First step" is the time from launching the
   process to the end of its first optimiser step.  Model and batches: the Multi30k config
   (d_model 256, 3+3 layers, max_tokens 4096), validation loss only, at the end.

Targets (issue 22): training peak RSS <= 1.5 GiB and within 10% of the Multi30k run; first
step within 15 s of start on prepared data; preparation >= 50,000 pairs/s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
MULTI30K = ROOT / "data/multi30k"
GIB = 2**30


def word_sampler(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Multi30k's words of one language and their frequencies."""
    from attnmt.text.data import read_lines

    counts = Counter(word for line in read_lines(path) for word in line.split())
    words, freq = zip(*counts.items(), strict=True)
    return np.array(words, dtype=object), np.array(freq, dtype=np.float64) / sum(freq)


def synthetic_lengths(pairs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Words per source sentence (5–40) and per target: the source's times 0.8–1.25, within 5–40."""
    rng = np.random.default_rng(seed)
    src = rng.integers(5, 41, size=pairs)
    return src, np.clip(np.rint(src * rng.uniform(0.8, 1.25, size=pairs)), 5, 40).astype(np.int64)


def write_synthetic(path: Path, language: str, all_lengths: np.ndarray, seed: int) -> None:
    words, p = word_sampler(MULTI30K / f"train.{language}.gz")
    rng = np.random.default_rng(seed)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for start in range(0, len(all_lengths), 100_000):
            lengths = all_lengths[start : start + 100_000]
            drawn = words[rng.choice(len(words), size=int(lengths.sum()), p=p)]
            ends = np.cumsum(lengths)
            out.writelines(" ".join(drawn[end - n : end]) + "\n" for n, end in zip(lengths, ends, strict=True))
    tmp.rename(path)


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (0 once it is gone)."""
    try:
        rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir()
                    for c in (task / "children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return 0
    return rss + sum(tree_rss(child) for child in children)


def run_sampled(command: list[str]) -> tuple[float, int, str]:
    """Runs ``command``; returns its wall seconds, the peak RSS of its process tree, and its stdout."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        time.sleep(0.1)
    out = process.stdout.read()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed with status {process.returncode}")
    return time.perf_counter() - started, peak, out


def child_train(config_path: str, launched: float) -> None:
    """In a fresh process: the Trainer, timing its first step; prints a JSON line of results."""
    import resource

    from attnmt.train_config import load_config
    from attnmt.training.trainer import Trainer

    class TimedTrainer(Trainer):
        first_step_at: float | None = None

        def train_step(self, batches):
            result = super().train_step(batches)
            self.first_step_at = self.first_step_at or time.time()
            self.rss_after_step = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            return result

    trainer = TimedTrainer(load_config(config_path), progress=False)
    result = trainer.train()
    print(json.dumps({"first_step_s": trainer.first_step_at - launched, "steps": result.step,
                      "rss_after_last_step": trainer.rss_after_step,
                      "precision": trainer.precision,
                      "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))


def train_run(config: dict, work: Path, name: str) -> dict:
    path = work / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    shutil.rmtree(config["out_dir"], ignore_errors=True)  # the last run's model: a new run refuses its checkpoints
    launched = time.time()
    run = subprocess.run([sys.executable, __file__, "--child-train", str(path), str(launched)], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"training on {name} failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def training_config(args: argparse.Namespace, work: Path, name: str, **data) -> dict:
    from attnmt.train_config import load_config

    config = load_config(ROOT / args.config).to_dict()
    config.update(tokenizer=str(work / "spm.model"), precision=args.precision, max_steps=args.steps, max_time=None,
                  eval_every=10**9, eval_metric="loss", tensorboard=False, log_every=10,
                  out_dir=str(work / f"model_{name}"), **data)
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5_000_000)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--config", default="configs/multi30k_en_de.yaml")
    parser.add_argument("--precision", choices=("auto", "fp32", "bf16"), default="auto", help="of both training runs")
    parser.add_argument("--work", default="runs/data_scale", help="synthetic corpus, prepared data, models")
    parser.add_argument("--child-train", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_train:
        return child_train(args.child_train[0], float(args.child_train[1]))

    from attnmt.hardware import cpu_flags, cpu_model
    from attnmt.text.parallel_text import read_parallel
    from attnmt.text.tokenizer import Tokenizer

    work = ROOT / args.work
    work.mkdir(parents=True, exist_ok=True)
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "amx_bf16"}))
    print(f"CPU: {cpu_model()} ({os.cpu_count()} cores; {flags}); Python {platform.python_version()}")
    pairs, _ = read_parallel(MULTI30K / "train.en.gz", MULTI30K / "train.de.gz")
    vocab_size = training_config(args, work, "x")["vocab_size"]
    Tokenizer.train([s for p in pairs for s in p], vocab_size, seed=1).save(work / "spm.model")
    corpus = {lang: work / f"synthetic_{args.pairs}.{lang}" for lang in ("en", "de")}
    lengths = synthetic_lengths(args.pairs, seed=0)
    for seed, (lang, path) in enumerate(corpus.items(), start=1):
        if not path.exists():
            started = time.perf_counter()
            write_synthetic(path, lang, lengths[seed - 1], seed)
            print(f"wrote {path.name} ({path.stat().st_size / GIB:.2f} GiB) in {time.perf_counter() - started:.0f} s")

    synthetic = training_config(args, work, "synthetic", train_src=str(corpus["en"]), train_tgt=str(corpus["de"]),
                                prepared_dir=str(work / f"prepared_{args.pairs}"))
    config_path = work / "synthetic.yaml"
    config_path.write_text(yaml.safe_dump(synthetic))
    seconds, prepare_rss, out = run_sampled([sys.executable, "-m", "attnmt", "prepare", str(config_path)])
    print(out.strip())
    print(f"prepare: {args.pairs} pairs in {seconds:.1f} s = {args.pairs / seconds:,.0f} pairs/s (target >= 50,000); "
          f"peak RSS of its process tree {prepare_rss / GIB:.2f} GiB")

    big = train_run(synthetic, work, "synthetic")
    small = train_run(training_config(args, work, "multi30k", train_src=str(MULTI30K / "train.en.gz"),
                                      train_tgt=str(MULTI30K / "train.de.gz")), work, "multi30k")
    print(f"training, {args.steps} steps, precision {big['precision']}:")
    for name, run in ((f"prepared synthetic ({args.pairs} pairs)", big), ("Multi30k text (29,000 pairs)", small)):
        print(f"  {name}: peak RSS {run['peak_rss'] / GIB:.3f} GiB (after the last step "
              f"{run['rss_after_last_step'] / GIB:.3f}), first step {run['first_step_s']:.1f} s after launch")
    ratio = big["peak_rss"] / small["peak_rss"]
    print(f"targets: training RSS {big['peak_rss'] / GIB:.2f} GiB <= 1.5: {big['peak_rss'] <= 1.5 * GIB}; "
          f"{ratio:.3f} x Multi30k's <= 1.10: {ratio <= 1.10}; first step {big['first_step_s']:.1f} s <= 15: "
          f"{big['first_step_s'] <= 15}; preparation {args.pairs / seconds:,.0f} pairs/s >= 50,000: "
          f"{args.pairs / seconds >= 50_000}")


if __name__ == "__main__":
    main()
