"""Where a training step's time goes: torch.profiler over Multi30k training steps, per op.

    .venv/bin/python benchmarks/experiments/train_profile.py [--precision bf16] [--steps 7] [--matmuls]

The Multi30k config's model, Multi30k batches (max_tokens 4096), the trainer's loss and
precision (bf16 under autocast, as the trainer runs it), fused Adam; three warm-up steps,
then ``--steps`` timed and profiled ones.  Prints seconds per step and the ops by self CPU time.

``--matmuls``: instead of the table, the step's matrix products (mm, addmm, bmm) by shape:
their time and rate inside the step, the same shapes timed alone (fresh contiguous inputs,
each repeated while its data is in cache), and the MFU the step would have if everything
but its matrix products took no time: the ceiling that the matrix library sets.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

from attnmt.fast import extension
from attnmt.hardware import bound_kernel_caches, cpu_model
from attnmt.model import Transformer
from attnmt.train_config import load_config
from attnmt.training.objective import TranslationLoss
from attnmt.training.trainer import autocast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/train_step.py's helpers
from train_step import matmul_peak_gflops, multi30k_batches  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/multi30k_en_de.yaml")
    parser.add_argument("--precision", choices=("fp32", "bf16"), default="bf16")
    parser.add_argument("--steps", type=int, default=7)
    parser.add_argument("--matmuls", action="store_true", help="the matrix products' share and rate, by shape")
    args = parser.parse_args()
    bound_kernel_caches()
    extension.available()  # training's CPU kernels, as `attnmt train` loads them
    config = load_config(args.config)
    tokenizer, batches = multi30k_batches(config, args.steps + 3)
    torch.manual_seed(0)
    model = Transformer(config.model_config(tokenizer.vocab_size))
    loss = TranslationLoss(model, config.label_smoothing)
    optimizer = torch.optim.Adam(model.parameters(), betas=config.adam_betas, eps=config.adam_eps, fused=True)

    def step(batch):
        with autocast(args.precision, torch.device("cpu")):
            value = loss(batch.src, batch.tgt_in, batch.tgt_out)
        (value / batch.n_tgt_tokens).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    for batch in batches[:3]:
        step(batch)
    started = time.perf_counter()
    for batch in batches[3:]:
        step(batch)
    seconds = (time.perf_counter() - started) / args.steps
    with profile(activities=[ProfilerActivity.CPU], record_shapes=args.matmuls) as profiler:
        for batch in batches[3:]:
            step(batch)
    print(f"CPU {cpu_model()}; PyTorch kernels {torch.backends.cpu.get_cpu_capability()}; {args.precision}, "
          f"{torch.get_num_threads()} threads; {seconds:.3f} s/step unprofiled, {args.steps} steps profiled")
    if args.matmuls:
        matmul_report(profiler.events(), args.steps, seconds, DTYPES[args.precision])
    else:
        print(profiler.key_averages().table(sort_by="self_cpu_time_total", row_limit=30, max_name_column_width=60))


MATMULS = {"aten::mm": (0, 1), "aten::addmm": (1, 2), "aten::bmm": (0, 1)}  # the operands' places
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def matmul_report(events, steps: int, seconds: float, dtype: torch.dtype) -> None:
    """The profiled steps' matrix products grouped by operand shapes: time inside the step, and
    the same products timed alone."""

    groups: dict[tuple, list[float]] = defaultdict(lambda: [0, 0.0])  # calls, seconds
    by_op: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # FLOPs, seconds
    for event in events:
        if event.name in MATMULS:
            a, b = (tuple(event.input_shapes[i]) for i in MATMULS[event.name])
            groups[a, b][0] += 1
            groups[a, b][1] += event.self_cpu_time_total / 1e6
            by_op[event.name][0] += 2 * torch.Size(a).numel() * b[-1]
            by_op[event.name][1] += event.self_cpu_time_total / 1e6
    peak = matmul_peak_gflops(dtype)
    rows, flops, inside, alone = [], 0.0, 0.0, 0.0
    for (a, b), (calls, time_inside) in groups.items():
        flop = 2 * torch.Size(a).numel() * b[-1]
        time_alone = calls * product_seconds(a, b, dtype)
        flops, inside, alone = flops + calls * flop, inside + time_inside, alone + time_alone
        rows.append((time_inside, a, b, calls, calls * flop))
    print(f"measured {dtype} matmul peak (2048x2048): {peak:.0f} GFLOP/s")
    print(f"matrix products: {inside / steps * 1e3:.0f} ms of the step's {seconds * 1e3:.0f} ms, "
          f"{flops / inside / 1e9:.0f} GFLOP/s inside the step ({flops / inside / 1e9 / peak:.0%} of the peak); "
          f"the same products alone: {alone / steps * 1e3:.0f} ms, {flops / alone / 1e9:.0f} GFLOP/s "
          f"({flops / alone / 1e9 / peak:.0%})")
    print(f"MFU of the step: {flops / steps / seconds / 1e9 / peak:.0%}; if everything but the matrix products "
          f"took no time: {flops / inside / 1e9 / peak:.0%}")
    print("inside the step, by operator: " + ", ".join(
        f"{name} {seconds_ / steps * 1e3:.0f} ms/step at {flop / seconds_ / 1e9:.0f} GFLOP/s"
        for name, (flop, seconds_) in by_op.items()))
    print(f"{'A':>18} {'B':>18} {'calls/step':>10} {'ms/step':>8} {'GFLOP/s':>8} {'alone':>8}")
    for time_inside, a, b, calls, flop in sorted(rows, reverse=True)[:20]:
        time_alone = calls * product_seconds(a, b, dtype)
        print(f"{str(list(a)):>18} {str(list(b)):>18} {calls / steps:10.1f} {time_inside / steps * 1e3:8.1f} "
              f"{flop / time_inside / 1e9:8.0f} {flop / time_alone / 1e9:8.0f}")


_alone: dict[tuple, float] = {}


def product_seconds(a: tuple, b: tuple, dtype: torch.dtype, repeats: int = 5) -> float:
    """One A @ B of these shapes on fresh contiguous operands, the best of ``repeats``."""
    if (a, b, dtype) not in _alone:
        x, y = torch.randn(a, dtype=dtype), torch.randn(b, dtype=dtype)
        x @ y
        best = float("inf")
        for _ in range(repeats):
            started = time.perf_counter()
            x @ y
            best = min(best, time.perf_counter() - started)
        _alone[a, b, dtype] = best
    return _alone[a, b, dtype]


if __name__ == "__main__":
    main()
