"""Resident memory of a float32 copy whose decoder step and output layer are on AMX's bf16 tiles
(attnmt.fast.panels.TiledLinear), with the tiles made from the panels at each load (what the
prepared copy did up to its format 6) against stored in the copy and mapped beside the panels
(format 7): one copy of each kind, each loaded and run in a process of its own, in turn.

    .venv/bin/python benchmarks/experiments/tiles_mapped_rss.py DIR [--lines 1] [--rounds 2] [--shortlist]

DIR: benchmarks/opus_shape.py's --keep folder (its attnmt model, input.en and shortlist.tsv); the two
copies are written into DIR.  On a CPU without AMX-BF16 the tiles run on their model
(``csrc/amx_tile_model.h``, slow): the same tensors, read in the same pages, so the memory is what
an AMX CPU's would be, and the times are not worth reading.  Printed per process: the peak RSS
(``VmHWM``: ``ru_maxrss`` would count this process's own peak before it started the child) and, at
the child's end, the anonymous (the process's own) and file-backed (mapped) parts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

KINDS = ("made at load", "mapped")


def build(folder: Path) -> dict[str, Path]:
    """The two copies of DIR's model, every decoder-step layer and the output layer on the tiles."""
    import torch  # noqa: F401  (the extension's ops)

    from attnmt.checkpoint import load_model_dir
    from attnmt.fast import prepare
    from attnmt.fast.kernels import FloatKernel, KernelChoice, step_shapes
    from attnmt.fast.panels import embeddings_from_panels, tiles_run, use_float_panels
    from attnmt.fast.prepared_file import save_prepared

    model, _ = load_model_dir(folder / "attnmt")
    shapes = step_shapes(model.config)
    fast = prepare(model)
    use_float_panels(fast, KernelChoice.forced(FloatKernel.TILES, shapes), tiles_on_model=not tiles_run())
    embeddings_from_panels(fast)
    fast.kernel_choice = KernelChoice.forced(FloatKernel.TILES, shapes)
    paths = {kind: folder / f"tiles_{kind.replace(' ', '_')}.safetensors" for kind in KINDS}
    save_prepared(fast, paths["mapped"])
    use_float_panels(fast, KernelChoice.forced(FloatKernel.PANELS, shapes))  # panels only: tiles made at load
    save_prepared(fast, paths["made at load"])
    return paths


def child(path: Path, folder: Path, lines: int, shortlist: bool) -> None:
    """Loads the copy ``path`` as a CPU whose kernel choice took the tiles would, translates DIR's first
    ``lines`` lines, and prints its memory."""
    started = time.perf_counter()
    import torch  # noqa: F401

    from attnmt.checkpoint import open_model_dir
    from attnmt.decoding.options import Decoding
    from attnmt.decoding.translate import translate
    from attnmt.fast import panels, transformer
    from attnmt.fast.prepared_file import load_prepared
    from attnmt.fast.shortlist import Shortlist

    panels.tiles_chosen = lambda: True  # as on a CPU with AMX-BF16 whose choice took the tiles
    transformer.use_float_panels = partial(panels.use_float_panels, tiles_on_model=not panels.tiles_run())
    config, _, tokenizer = open_model_dir(folder / "attnmt")
    fast = load_prepared(path, config)
    if shortlist:
        fast.use_shortlist(Shortlist.load(folder / "shortlist.tsv"))
    loaded = time.perf_counter() - started
    sources = (folder / "input.en").read_text(encoding="utf-8").splitlines()[:lines]
    translate(fast, tokenizer, sources, Decoding(beam_size=4, max_len_a=0, max_len_b=40))
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    peak, anon, mapped = (int(status[name].split()[0]) / 1024 for name in ("VmHWM", "RssAnon", "RssFile"))
    print(f"{peak:8.0f} MiB {anon:8.0f} MiB {mapped:8.0f} MiB {loaded:8.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--lines", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--shortlist", action="store_true", help="restrict the output layer to DIR/shortlist.tsv")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.folder, args.lines, args.shortlist)
        return
    paths = build(args.folder)
    from attnmt.fast.panels import tiles_run
    from attnmt.hardware import cpu_flags, cpu_model

    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); tiles {'on AMX' if tiles_run() else 'on their model (no AMX here)'}; "
          f"{args.lines} line(s), beam 4, 40 output tokens{', shortlist' if args.shortlist else ''}")
    print(f"command: {' '.join(sys.argv)}")
    print(f"{'tiles':14} {'peak RSS':>12} {'anonymous':>12} {'file-backed':>12} {'loaded in':>10}")
    for _ in range(args.rounds):
        for kind in KINDS:
            command = [sys.executable, __file__, str(args.folder), "--child", str(paths[kind]),
                       "--lines", str(args.lines)] + (["--shortlist"] if args.shortlist else [])
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            print(f"{kind:14} {done.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
