"""How much of attnmt's translation time is the linear layers' arithmetic?

    .venv/bin/python benchmarks/experiments/linear_floor.py [--sentences 1000] [--beams 1,4]
        [--model runs/bench_multi30k]

Runs what ``benchmarks/decode.py`` times for "attnmt fp32" (the packed model of
``attnmt translate``, test_2016_flickr in length-sorted batches of 32, exactly 20
decoder steps per sentence), records every linear-layer call (layer and input
shape), then replays those calls back to back on random inputs of the same shapes.
The calls are recorded from the same packed model stepping in Python (the fused
C++ step makes the same matmuls, with the residual adds and the activation fused
in, out of Python's sight); the full run is the fused one.  The replay runs each
call on the kernel the fused run uses for it: the decoder layers' matmuls on the
step's AVX2 panel kernel (where the build has it), the rest through PackedLinear.
The replay is the floor that any decoder built on these matmul kernels stands on:
the time left over (full run minus replay) is all the rest — attention, layer
norms, softmax, top-k, bookkeeping and per-op overhead — and is all that
engineering outside the matmul library can remove.  Fastest of ``--rounds``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.fast import extension, packed, prepare
from attnmt.fast.packed import PackedLinear
from attnmt.fast.step import FusedDecoderStep

ROOT = Path(__file__).resolve().parents[2]


def linear_calls(engine, batches: list[list[list[int]]], beam: int) -> list[tuple[PackedLinear, torch.Size]]:
    """Every linear-layer call (layer, input shape) of translating ``batches`` at fixed length."""
    calls = []
    forward = PackedLinear.forward

    def recording(layer: PackedLinear, x: torch.Tensor) -> torch.Tensor:
        calls.append((layer, x.shape))
        return forward(layer, x)

    engine(batches[0], beam, True)  # warm-up, not recorded
    packed.PackedLinear.forward = recording
    try:
        for batch in batches:
            engine(batch, beam, True)
    finally:
        packed.PackedLinear.forward = forward
    return calls


def replayer(model) -> Callable[[PackedLinear, torch.Tensor], torch.Tensor]:
    """Runs a recorded call on the kernel the fused step uses for that layer: its own panels,
    keyed by the packed weight they were made from."""
    panels = {}
    if FusedDecoderStep.supports(model) and extension.available():
        # a layer has no panels where the build lacks the kernel: then its calls replay on oneDNN
        panels = {id(linear.weight): linear.panels for linear in FusedDecoderStep(model).weights.linear_layers()
                  if linear.panels is not None}

    def run(layer: PackedLinear, x: torch.Tensor) -> torch.Tensor:
        if id(layer.packed) in panels:
            rows = x.reshape(-1, x.size(-1))
            return torch.ops.attnmt.panel_linear(rows, panels[id(layer.packed)], layer.bias, layer.out_features,
                                                 None, False)
        return layer(x)

    return run


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/decode.py's helpers
    from decode import BATCH, THREADS, attnmt_engine, test_batches

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--beams", default="1,4")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    model, tokenizer = load_model_dir(args.model)
    batches = test_batches(tokenizer, args.sentences)
    engine = attnmt_engine(prepare(model))
    unfused = prepare(model, fused_step=False)
    recorder = attnmt_engine(unfused)  # the same matmuls, each a Python call
    replay_call = replayer(unfused)
    print(f"test_2016_flickr, {sum(map(len, batches))} sentences in batches of {BATCH}, 20 decoder steps each, "
          f"{THREADS} threads, torch {torch.__version__}, fastest of {args.rounds}")
    for beam in map(int, args.beams.split(",")):
        calls = linear_calls(recorder, batches, beam)
        inputs = {shape: torch.randn(shape) for _, shape in calls}
        flops = sum(2 * layer.in_features * layer.out_features * shape.numel() // shape[-1] for layer, shape in calls)
        full, replay = float("inf"), float("inf")
        with torch.inference_mode():
            for _ in range(args.rounds):
                started = time.perf_counter()
                for batch in batches:
                    engine(batch, beam, True)
                full = min(full, time.perf_counter() - started)
                started = time.perf_counter()
                for layer, shape in calls:
                    replay_call(layer, inputs[shape])
                replay = min(replay, time.perf_counter() - started)
        print(f"  {'greedy' if beam == 1 else f'beam {beam}'}: full run {full:.2f} s; its {len(calls):,} linear "
              f"calls replayed back to back {replay:.2f} s ({replay / full:.0%} of it; {flops / 1e9:.0f} GFLOP "
              f"at {flops / replay / 1e9:.0f} GFLOP/s); everything else {full - replay:.2f} s")


if __name__ == "__main__":
    main()
