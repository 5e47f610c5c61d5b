"""The fused step's float32 panel kernel, on whichever instruction set it picks here, against
oneDNN's prepacked matmul in float32 and in bf16, for decoder matmul shapes at 32 and 128 rows.

    .venv/bin/python benchmarks/experiments/panel_isa.py
    ATEN_CPU_CAPABILITY=avx2 .venv/bin/python benchmarks/experiments/panel_isa.py   # the AVX2 kernel

Microseconds per call (mean of 200 after one warm-up), 2 threads.  "bf16" is oneDNN's matmul of
bf16 inputs and weights (AMX where the CPU has it); "bf16 + casts" adds the float32 → bf16 → float32
conversions the bf16 layers pay.
"""

import torch
from panel_kernel import per_call_us  # beside this script

from attnmt.fast import extension
from attnmt.fast.packed import PackedLinear
from attnmt.hardware import cpu_flags, cpu_model

SHAPES = [(32, 256, 768), (32, 256, 1024), (128, 256, 1024), (32, 512, 2048), (128, 512, 2048), (128, 2048, 512),
          (128, 512, 1536)]


def micros(call) -> float:
    """The mean of 200 calls after one warm-up (the counts of benchmarks/results/panel_isa_xeon.txt)."""
    return per_call_us(call, repeats=200, warmup=1)


def main() -> None:
    torch.set_num_threads(2)
    assert extension.available(), "the fused extension could not be built"
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); PyTorch kernels {torch.backends.cpu.get_cpu_capability()}; "
          f"panel kernel {torch.ops.attnmt.panel_isa()}; 2 threads; microseconds per call")
    print(f"{'rows x K -> N':>18} {'panels':>8} {'oneDNN fp32':>12} {'oneDNN bf16':>12} {'bf16 + casts':>13}")
    for rows, k, n in SHAPES:
        x, w, b = torch.randn(rows, k), torch.randn(n, k), torch.randn(n)
        panels = torch.ops.attnmt.pack_panels(w)
        packed = PackedLinear(w, b)
        w16 = torch.ops.mkldnn._reorder_linear_weight(w.bfloat16(), rows)
        x16 = x.bfloat16()
        times = [
            micros(lambda: torch.ops.attnmt.panel_linear(x, panels, b, n, None, False)),  # noqa: B023
            micros(lambda: packed(x)),  # noqa: B023
            micros(lambda: torch.ops.mkldnn._linear_pointwise(x16, w16, None, "none", [], "")),  # noqa: B023
            micros(lambda: torch.ops.mkldnn._linear_pointwise(x.bfloat16(), w16, None, "none", [], "").float()),  # noqa: B023
        ]
        cells = zip(times, (8, 12, 12, 13), strict=True)
        print(f"{f'{rows} x {k} -> {n}':>18} " + " ".join(f"{t:>{width}.0f}" for t, width in cells))


if __name__ == "__main__":
    main()
