"""One cached decoder step of the C++ step (decode_top: the stack, the output layer and beam search's
choice), timed alone, at given rows and threads: the step apart from the rest of a translation job.

    .venv/bin/python benchmarks/decoder_step.py --model runs/opus_shape/attnmt [--int8]
        [--rows 104] [--position 20] [--steps 8] [--threads 2,1] [--rounds 3]

Random sources of 30 pieces, ``--rows`` / 4 sentences of beam 4: a first position, the beam widened,
then steps with random reorders within each beam up to ``--position``, untimed; then ``--steps``
steps timed, each with its wall and this process's CPU time (user + sys).  The thread counts take
turns within each round.  Prints each thread count's median milliseconds a step per round.  Two
builds compare by running this script once with each tree's ``PYTHONPATH=<tree>/src``, alternated.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

from attnmt.attention import padding_mask
from attnmt.checkpoint import load_model_dir
from attnmt.fast import prepare

BEAM = 4


def timed_steps(fast, rows: int, position: int, steps: int) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of each of ``steps`` steps after ``position`` untimed ones."""
    sentences = rows // BEAM
    src = torch.randint(4, fast.config.vocab_size, (sentences, 30))
    src_mask = padding_mask(src, 0)
    times = []
    with torch.inference_mode():
        memory = fast.encode(src)
        cache = fast.start_decoding(memory)
        current = sentences
        for t in range(position + steps):
            tokens = torch.randint(4, fast.config.vocab_size, (current, 1))
            wall, cpu = time.perf_counter(), os.times()
            fast.decode_top(tokens, memory, src_mask, cache, BEAM, [])
            after = os.times()
            if t >= position:
                used = (after.user + after.system) - (cpu.user + cpu.system)
                times.append(((time.perf_counter() - wall) * 1e3, used * 1e3))
            beams = torch.arange(rows) // BEAM * BEAM + torch.randint(0, BEAM, (rows,))
            cache.reorder(torch.arange(sentences).repeat_interleave(BEAM) if t == 0 else beams)
            current = rows
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--int8", action="store_true")
    parser.add_argument("--rows", type=int, default=104)
    parser.add_argument("--position", type=int, default=20)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--threads", default="2,1")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    model, _ = load_model_dir(args.model)
    fast = prepare(model, int8=args.int8)
    torch.manual_seed(0)
    for round_ in range(args.rounds):
        for threads in (int(n) for n in args.threads.split(",")):
            torch.set_num_threads(threads)
            times = timed_steps(fast, args.rows, args.position, args.steps)
            print(f"round {round_} threads {threads} rows {args.rows}: "
                  f"wall {statistics.median(w for w, _ in times):.1f} ms, "
                  f"cpu {statistics.median(c for _, c in times):.1f} ms a step", flush=True)


if __name__ == "__main__":
    main()
