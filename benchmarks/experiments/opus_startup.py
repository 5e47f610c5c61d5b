"""Where an int8 start-up's time and memory go: each phase's seconds and the process's RSS after it,
preparing the int8 copy from the float32 weights (``load_model_dir`` + ``prepare``, as before the
prepared cache) against mapping the prepared copy (``attnmt.fast.prepared.load_int8``).

    .venv/bin/python benchmarks/experiments/opus_startup.py MODEL_DIR [--rounds 3]

MODEL_DIR: e.g. the attnmt directory ``benchmarks/opus_shape.py --keep DIR`` leaves in DIR/attnmt.
Each way runs in a fresh process (1 thread), ``--rounds`` times taking turns; the fastest counts.
The cache must hold the prepared copy already (run ``attnmt translate --int8`` once).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

PHASES = ("import torch", "import attnmt", "load", "first sentence")


def rss_mib() -> tuple[float, float]:
    """(RSS, peak RSS) of this process in MiB."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def child(model_dir: str, way: str) -> None:
    marks = [time.perf_counter()]
    memory = []

    def mark() -> None:
        marks.append(time.perf_counter())
        memory.append(rss_mib())

    import torch

    torch.set_num_threads(1)
    mark()
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding.translate import translate
    from attnmt.fast import prepare
    from attnmt.fast.prepared import load_int8

    mark()
    if way == "prepare":
        model, tokenizer = load_model_dir(model_dir)
        fast = prepare(model, int8=True)
        del model
    else:
        fast, tokenizer = load_int8(model_dir)
    mark()
    translate(fast, tokenizer, ["A man in an orange hat starring at something."])
    mark()
    seconds = [b - a for a, b in zip(marks, marks[1:], strict=False)]
    print(json.dumps(dict(seconds=seconds, rss=[m[0] for m in memory], peak=memory[-1][1])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.model_dir, args.child)
    results: dict[str, list[dict]] = {"prepare": [], "mapped": []}
    for _ in range(args.rounds):
        for way in results:
            started = time.perf_counter()
            out = subprocess.run([sys.executable, __file__, args.model_dir, "--child", way], check=True,
                                 capture_output=True, text=True).stdout
            results[way].append(dict(json.loads(out.splitlines()[-1]), whole=time.perf_counter() - started))
    from attnmt.hardware import cpu_model

    print(f"CPU {cpu_model()}, 1 thread; {args.model_dir}; fastest of {args.rounds} fresh processes per way")
    for way, runs in results.items():
        best = min(runs, key=lambda r: r["whole"])
        phases = ", ".join(f"{name} {s:.2f} s (RSS {r:.0f} MiB)"
                           for name, s, r in zip(PHASES, best["seconds"], best["rss"], strict=True))
        print(f"  {way}: whole process {best['whole']:.2f} s, peak RSS {best['peak']:.0f} MiB; {phases}")


if __name__ == "__main__":
    main()
