"""A recipe search matched to a CPU's clock: several configs trained side by side, each for the
steps it would reach in the same minutes on the CPU that the recipe is for, scored on the
validation set only.

    python benchmarks/experiments/recipe_sweep.py --out /tmp/sweep --steps 3700 \\
        --run "A 1.0" --run "A_drop02 1.0 model.dropout=0.2" \\
        --run "B_d256 0.842 model.d_model=256 model.d_ff=1024"

Each ``--run "NAME FACTOR KEY=VALUE ..."`` trains the base config (``--config``) with those
overrides for ``round(FACTOR * --steps)`` steps and no time limit.  FACTOR is the config's
training speed on the target CPU relative to the base config's (target tokens/s, measured there
with the same precision, over a few hundred steps: 80 steps once were 7 % off); ``--steps`` is
what the base config reaches in the budget on that CPU.
So a faster device (a lent GPU, with bf16 as on a bf16 CPU) answers "which config is best after
30 minutes on a 2-core CPU" in a few minutes, step for step with what the CPU would do: the
learning-rate schedule and its cool-down follow max_steps exactly as they follow max_time there.

The runs go in parallel (``--parallel``), each with ``--threads`` CPU threads.  After training,
each run's best checkpoint and the averages of its last 3 and 5 are translated (beam 4, α 0.6)
on ``--device`` and scored against the validation references; the best of the three is the
run's figure, as ``benchmarks/multi30k.py`` keeps it.  The test set is not read.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from attnmt.checkpoint import WEIGHTS

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CONFIG = ROOT / "configs/multi30k_en_de.yaml"


def parse_run(text: str, steps: int) -> dict:
    name, factor, *overrides = text.split()
    flags = []
    for item in overrides:
        key, _, value = item.partition("=")
        if not value:
            raise SystemExit(f"--run {text!r}: {item!r} is not KEY=VALUE")
        flags += [f"--{key}", value]
    return {"name": name, "factor": float(factor), "steps": round(float(factor) * steps),
            "overrides": overrides, "flags": flags}


def train(run: dict, config: str, out: Path, threads: int, device: str, deadline: float | None) -> dict:
    model_dir = out / run["name"]
    log = out / f"{run['name']}.train.log"
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    command = [sys.executable, "-m", "attnmt", "train", config, "--max-steps", str(run["steps"]),
               "--max-time", "null", "--threads", str(threads), "--device", device,
               "--out-dir", str(model_dir), *run["flags"]]
    started = time.perf_counter()
    with log.open("w") as sink:
        try:
            status = subprocess.run(command, stdout=sink, stderr=subprocess.STDOUT, env=env,
                                    timeout=deadline and max(deadline - time.time(), 1)).returncode
        except subprocess.TimeoutExpired:
            status = "stopped at the deadline"
    return {**run, "status": status, "train_seconds": round(time.perf_counter() - started, 1),
            "model_dir": str(model_dir)}


def score(run: dict, device: str) -> dict:
    """The run's validation BLEU at beam 4, in a process of its own (so that runs score in parallel)."""
    model_dir = Path(run["model_dir"])
    if not (model_dir / WEIGHTS).exists():
        return run
    scored = subprocess.run([sys.executable, __file__, "--score-one", str(model_dir), "--device", device],
                            capture_output=True, text=True)
    if scored.returncode != 0:
        return {**run, "score_error": scored.stderr[-2000:]}
    return {**run, **json.loads(scored.stdout.splitlines()[-1])}


def score_one(model_dir: Path, device: str) -> dict:
    import torch

    from attnmt import checkpoint as ckpt
    from attnmt.decoding import Decoding
    from attnmt.decoding.translate import translate
    from attnmt.evaluate import bleu
    from attnmt.fast import prepare
    from attnmt.text.parallel_text import read_parallel
    from attnmt.train_config import load_config
    from attnmt.training.averaging import write_candidates

    records = [json.loads(line) for line in (model_dir / "log.jsonl").read_text().splitlines()]
    evals = [r for r in records if r.get("valid_bleu") is not None]
    steps = [r["step"] for r in records if "step" in r]
    config = load_config(model_dir / ckpt.TRAIN_CONFIG)
    sources, references = zip(*read_parallel(config.valid_src, config.valid_tgt)[0], strict=True)
    beam4 = {}
    for name, weights in write_candidates(model_dir).items():
        model, tokenizer = ckpt.load_model_dir(model_dir, weights)
        fast = prepare(model.to(device)) if device != "cpu" else model
        with torch.inference_mode():
            beam4[name] = round(bleu(translate(fast, tokenizer, sources, Decoding(beam_size=4, alpha=0.6)),
                                     references), 2)
    last = evals[-1] if evals else {}
    return {"steps_done": max(steps, default=0), "final_valid_loss": last.get("valid_loss"),
            "greedy_valid_bleu": [(r["step"], r["valid_bleu"]) for r in evals],
            "valid_bleu_beam4": beam4, "kept": max(beam4.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(DEFAULT_CONFIG))
    parser.add_argument("--score-one", help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, help="steps the base config reaches on the target CPU")
    parser.add_argument("--run", action="append", default=[], help='"NAME FACTOR KEY=VALUE ..."')
    parser.add_argument("--out")
    parser.add_argument("--device", default="auto", help="where to train and translate: auto, cpu or cuda")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="CPU threads per run")
    parser.add_argument("--minutes", type=float, help="stop training what is still running after this long and "
                        "score the checkpoints it has (its steps_done says where it stopped)")
    parser.add_argument("--summary", help="where to write the results (default OUT/sweep.json), rewritten after "
                        "each run is scored")
    args = parser.parse_args()
    if args.score_one:
        print(json.dumps(score_one(Path(args.score_one), args.device)))
        return
    if not args.run or not args.steps or not args.out:
        parser.error("--steps, --out and at least one --run are needed")

    import torch

    device = args.device if args.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    runs = [parse_run(text, args.steps) for text in args.run]
    if len({run["name"] for run in runs}) != len(runs):
        raise SystemExit("--run: every name must differ")
    deadline = time.time() + args.minutes * 60 if args.minutes else None

    def train_and_score(run: dict) -> dict:
        run = train(run, args.config, out, args.threads, device, deadline)
        if run["status"] != 0:
            print(f"{run['name']}: training status {run['status']!r}, see {out / run['name']}.train.log", flush=True)
        return score(run, device)

    summary = Path(args.summary or out / "sweep.json")
    results = []
    with ThreadPoolExecutor(args.parallel) as pool:
        for future in as_completed([pool.submit(train_and_score, run) for run in runs]):
            results.append(future.result())
            print(json.dumps({k: v for k, v in results[-1].items() if k not in ("flags", "greedy_valid_bleu")}),
                  flush=True)
            summary.write_text(json.dumps({
                "command": " ".join(sys.argv), "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu",
                "torch": torch.__version__, "base_steps": args.steps, "runs": results}, indent=1) + "\n")
    print(f"\n{'run':<14} {'steps':>6} {'valid loss':>10} {'best':>6} {'avg3':>6} {'avg5':>6}  overrides")
    for r in results:
        b = r.get("valid_bleu_beam4", {})
        print(f"{r['name']:<14} {r['steps']:>6} {r.get('final_valid_loss') or float('nan'):>10.3f} "
              f"{b.get('best', float('nan')):>6.2f} {b.get('average of last 3', float('nan')):>6.2f} "
              f"{b.get('average of last 5', float('nan')):>6.2f}  {' '.join(r['overrides'])}")


if __name__ == "__main__":
    main()
