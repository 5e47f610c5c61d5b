"""The ``added`` flag's tail (attnmt.decoding.quality_added.tail_added) alone, under each setting of its last two
conditions: how many pairs of each kind of quality_added.py's and quality_labelled.py's it flags, read from one
forced pass each (no search: the tail reads the text's own pass).  ADDED_AFTER_LEAD and ADDED_CONTRAST were chosen
on these counts.

    .venv/bin/python benchmarks/experiments/quality_added_tail.py MODEL_DIR
"""

from __future__ import annotations

import argparse
from collections import Counter
from itertools import product
from unittest import mock

import quality_added  # this folder is on the path when the script runs
import quality_labelled
import torch

import attnmt.decoding.quality_added as tail
from attnmt.checkpoint import load_model_dir
from attnmt.decoding.forced import forced_passes
from attnmt.decoding.inputs import cut
from attnmt.decoding.quality import translation_ids
from attnmt.decoding.quality_measures import end_attention

KINDS = ("phrase added", "hallucinated addition", "good", "good, held-out")  # of quality_labelled.py's
AFTER_LEAD = (0.0, -2.0, -3.0, -4.0)  # 0.0: any
CONTRAST = (-100.0, 2.0, 3.0, 4.0)  # -100.0: none


def readings(model_dir: str, rows: list[tuple[str, str, str]]) -> list[tuple[str, list, list, str, list]]:
    """(kind, attention to the source's end, log-probs, translation, spans) of each row, from its forced pass."""
    model, tokenizer = load_model_dir(model_dir)
    longest, found = model.config.longest_input, []
    for start in range(0, len(rows), 64):
        chunk = rows[start:start + 64]
        sources = [cut(tokenizer.encode(s), longest, tokenizer.source_eos) for _, s, _ in chunk]
        targets = [translation_ids(tokenizer, t, longest) for _, _, t in chunk]
        for i, forced in forced_passes(model, sources, targets, 4096):
            kind, source, text = chunk[i]
            pieces = cut(tokenizer.pieces(source), len(forced.source), tokenizer.source_eos)
            found.append((kind, end_attention(forced.cross, pieces), forced.log_probs, text,
                          tokenizer.target_spans(text)[:len(forced.target)]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rows = quality_added.labelled_pairs() + [r for r in quality_labelled.labelled_pairs(300) if r[0] in KINDS]
    with torch.inference_mode():
        read = readings(args.model, rows)
    for after, contrast in product(AFTER_LEAD, CONTRAST):
        with mock.patch.object(tail, "ADDED_AFTER_LEAD", after), mock.patch.object(tail, "ADDED_CONTRAST", contrast):
            flagged = Counter(kind for kind, at_end, lps, text, spans in read if tail.tail_added(at_end, lps, text,
                                                                                                  spans))
        print(f"after lead {after:5.1f}, contrast {contrast:6.1f}: "
              + ", ".join(f"{kind} {flagged[kind]}" for kind in dict.fromkeys(k for k, *_ in read)))


if __name__ == "__main__":
    main()
