"""What a vocabulary shortlist costs in BLEU: a trained model's held-out sets translated with its
whole vocabulary and with shortlists of several sizes, float32 and int8.

    .venv/bin/python benchmarks/shortlist_bleu.py --model runs/m30k_20k [--per-source 10,20,50] [--own]

The model should have a vocabulary large enough for a shortlist to matter; with Multi30k the
largest is about 20,000 pieces (docs/performance.md: ``attnmt train configs/multi30k_en_de.yaml
--vocab-size 24000``).  Each shortlist is ``attnmt shortlist`` from Multi30k's training pairs with
``--per-source N --frequent 500`` (``--own``: also one from the training sources and the model's
own translations, N = 50), written beside the model as ``shortlist_N.tsv`` and reused.  Each
score is ``attnmt evaluate --beam 4 --threads 2 --json --width 2 [--int8] [--shortlist FILE]`` on
Multi30k's val and test_2016_flickr, in its own process (2 decimals: shortlists differ by hundredths).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"
ATTNMT = [sys.executable, "-m", "attnmt"]


def shortlists(model: Path, sizes: list[int], own: bool) -> dict[str, Path]:
    """Name -> the shortlist file, built where it is not there yet."""
    files = {}
    for size in sizes:
        files[f"training pairs, {size} a piece"] = build(model, f"shortlist_{size}.tsv", size, with_targets=True)
    if own:
        files["own translations, 50 a piece"] = build(model, "shortlist_own_50.tsv", 50, with_targets=False)
    return files


def build(model: Path, name: str, size: int, with_targets: bool) -> Path:
    out = model / name
    if not out.exists():
        targets = ["--target", str(DATA / "train.de.gz")] * with_targets
        subprocess.run([*ATTNMT, "shortlist", "--model", str(model), "--source", str(DATA / "train.en.gz"), *targets,
                        "--per-source", str(size), "--frequent", "500", "--out", str(out)], check=True,
                       stderr=subprocess.DEVNULL)
    return out


def bleu(model: Path, test: str, int8: bool, shortlist: Path | None) -> float:
    command = [*ATTNMT, "evaluate", "--model", str(model), "--src", str(DATA / f"{test}.en.gz"), "--ref",
               str(DATA / f"{test}.de.gz"), "--beam", "4", "--threads", "2", "--json", "--width", "2",
               *["--int8"] * int8, *(["--shortlist", str(shortlist)] if shortlist else [])]
    scores = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return next(score["score"] for score in scores if score["name"] == "BLEU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a trained attnmt model directory")
    parser.add_argument("--per-source", default="10,20,50", help="shortlist sizes: target pieces per source piece")
    parser.add_argument("--own", action="store_true", help="also a shortlist from the model's own translations")
    args = parser.parse_args()
    model = Path(args.model)
    files = {"none (the whole vocabulary)": None} | shortlists(
        model, [int(n) for n in args.per_source.split(",")], args.own)
    tests = ("val", "test_2016_flickr")
    print(f"command: {' '.join(sys.argv)}\nBLEU, beam 4, 2 threads; model {model}")
    print("| shortlist | " + " | ".join(f"{test} {precision}" for test in tests for precision in ("fp32", "int8"))
          + " |\n|---|" + "---|" * 2 * len(tests))
    for name, shortlist in files.items():
        scores = [bleu(model, test, int8, shortlist) for test in tests for int8 in (False, True)]
        print(f"| {name} | " + " | ".join(f"{score:.2f}" for score in scores) + " |", flush=True)


if __name__ == "__main__":
    main()
