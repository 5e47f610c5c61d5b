"""How often a streamed beam search rewrites the text it has shown (``POST /translate/stream``).

    .venv/bin/python benchmarks/experiments/stream_rewrites.py --model runs/bench_multi30k --beam 4

Streams the first ``--sentences`` Multi30k validation sentences through the server's stream
function (attnmt.server.streaming.run_stream, the model as loaded from its directory) and counts
the streams where some event's text does not extend the one before it; checks on the way that
each stream ends with ``translate``'s translation.  Prints one rewritten stream as an example.
"""

from __future__ import annotations

import argparse
import threading
from itertools import pairwise
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.hardware import cpu_model
from attnmt.server.models import ServedModel
from attnmt.server.streaming import run_stream
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="runs/bench_multi30k")
    parser.add_argument("--source", default=str(ROOT / "data/multi30k/val.en.gz"))
    parser.add_argument("--sentences", type=int, default=150)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    served = ServedModel(*load_model_dir(args.model))
    decoding = Decoding(beam_size=args.beam)
    sentences = read_lines(args.source)[: args.sentences]
    rewritten, example = 0, None
    for sentence in sentences:
        events: list[str] = []
        final = run_stream(served, sentence, decoding, events.append, threading.Event())
        if final != translate(served.model, served.tokenizer, [sentence], decoding)[0] or events[-1:] != [final]:
            raise SystemExit(f"the stream of {sentence!r} did not end with translate's translation")
        if any(not later.startswith(earlier) for earlier, later in pairwise(events)):
            rewritten += 1
            example = example or (sentence, events)
    print(f"{args.model}, beam {args.beam}: {rewritten} of {len(sentences)} streams rewrote their text at least once "
          f"(CPU: {cpu_model()})")
    if example:
        print(f"e.g. {example[0]!r}:", *example[1], sep="\n  ")


if __name__ == "__main__":
    main()
