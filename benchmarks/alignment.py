"""Alignment error rate of attnmt's cross-attention word alignments, layer by layer.

    .venv/bin/python benchmarks/alignment.py --model runs/bench_multi30k

Fourteen short test_2016_flickr pairs, aligned by hand for this benchmark (sure links
only, words as split by spaces, punctuation attached).  Each reference translation is
force-decoded and aligned from one decoder layer's cross-attention (mean of heads);
AER = 1 - 2|A ∩ S| / (|A| + |S|) over all pairs.  Prints the CPU and the command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attnmt.checkpoint import load_model_dir
from attnmt.hardware import cpu_model
from attnmt.inspect.align import align
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parent.parent
# test_2016_flickr line (from 0) -> sure links "source word-target word", aligned by hand.
GOLD = {
    0: "0-0 1-1 2-2 3-3 4-4 5-5 6-8 7-8 8-7",
    4: "0-0 1-1 2-1 3-2 4-3 5-4 6-4 7-5",
    8: "0-0 1-1 2-2 3-3 4-4 5-5",
    14: "0-0 1-1 2-2 3-3 4-4 5-5",
    18: "0-0 1-1 2-2 3-2 4-3 5-4 6-5 7-8 8-5",
    20: "0-0 1-5 2-2 3-2 4-3 5-4",
    26: "0-0 1-1 2-2 3-3 4-4 5-5",
    30: "0-0 1-1 2-2 3-3 4-3 5-4 6-5 7-6 8-6",
    32: "0-0 1-1 2-2 3-2 4-3 5-3 6-4",
    36: "0-0 1-1 2-2 3-3 4-5 5-6",
    38: "0-0 1-1 2-2 3-3 4-3 5-4 6-5 7-6",
    40: "0-0 1-1 2-2 3-3 4-4 5-4 6-5 7-6 8-7",
    42: "0-0 1-1 2-2 3-3 4-4",
    44: "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7 8-8",
}


def links(text: str) -> set[tuple[int, int]]:
    return {tuple(map(int, pair.split("-"))) for pair in text.split()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    args = parser.parse_args()
    model, tokenizer = load_model_dir(args.model)
    sources = read_lines(ROOT / "data/multi30k/test_2016_flickr.en.gz")
    references = read_lines(ROOT / "data/multi30k/test_2016_flickr.de.gz")
    lines = sorted(GOLD)
    gold = [links(GOLD[i]) for i in lines]
    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()}; model {args.model}; {len(lines)} hand-aligned pairs, "
          f"{sum(map(len, gold))} sure links")
    for layer in range(model.config.decoder_layers):
        found = align(model, tokenizer, [sources[i] for i in lines], [references[i] for i in lines], layer=layer)
        hits = sum(len(set(a) & g) for a, g in zip(found, gold, strict=True))
        total = sum(map(len, found)) + sum(map(len, gold))
        print(f"decoder layer {layer}: AER {1 - 2 * hits / total:.3f} "
              f"(precision {hits / sum(map(len, found)):.3f}, recall {hits / sum(map(len, gold)):.3f})")


if __name__ == "__main__":
    main()
