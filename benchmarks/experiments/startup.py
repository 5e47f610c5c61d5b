"""A one-line job's start-up (issue 44), two source trees of attnmt taking turns: wall seconds and modules loaded.

    .venv/bin/python benchmarks/experiments/startup.py MODEL_DIR OLD_SRC NEW_SRC [--rounds 15]

OLD_SRC and NEW_SRC are the ``src`` folders of two checkouts (``git worktree add --detach /tmp/base COMMIT``);
each job runs as a fresh process with PYTHONPATH set to one of them, the two trees alternating within each round,
so that a shared machine's load falls on both alike.  The jobs: ``attnmt translate`` of a one-line .txt file
(float32, and ``--int8`` with its prepared copy cached by a first run), the same line from a pipe, ``attnmt
--help``, ``python -c "import attnmt"``, and ``import torch`` alone (the floor).  Printed: each job's median wall
seconds for each tree, their ratio new/old, and the modules each loaded (``python -X importtime``'s lines, which
do not depend on the load); and whether the two trees wrote the same translations.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = "A man in an orange hat starring at something.\n"


def jobs(model: str, folder: Path) -> dict[str, tuple[list[str], str]]:
    """Each job's arguments to python and its standard input."""
    source = folder / "in.txt"
    source.write_text(LINE, encoding="utf-8")
    translate = ["-m", "attnmt", "translate", "--model", model]
    return {"txt fp32": ([*translate, str(source), str(folder / "fp32.txt")], ""),
            "txt int8": ([*translate, "--int8", str(source), str(folder / "int8.txt")], ""),
            "pipe fp32": (translate, LINE),
            "--help": (["-m", "attnmt", "--help"], ""),
            "import attnmt": (["-c", "import attnmt"], ""),
            "import torch": (["-c", "import torch"], "")}


def run(src: str, argv: list[str], stdin: str, *extra: str) -> tuple[float, subprocess.CompletedProcess]:
    """Wall seconds of ``python EXTRA ARGV`` with attnmt from ``src``, and its result."""
    env = {**os.environ, "PYTHONPATH": src}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *extra, *argv], input=stdin, capture_output=True, text=True, env=env,
                          timeout=600)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with {src}: {done.stderr[-2000:]}")
    return seconds, done


def modules_loaded(src: str, argv: list[str], stdin: str) -> int:
    """How many modules the job imports: one ``import time:`` line each, after the header."""
    _, done = run(src, argv, stdin, "-X", "importtime")
    return sum(line.startswith("import time:") for line in done.stderr.splitlines()) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("old_src")
    parser.add_argument("new_src")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    trees = {"old": args.old_src, "new": args.new_src}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        each = jobs(args.model, work)
        outputs = {}
        for name, src in trees.items():  # the int8 copy prepared and cached, the C++ step built: not timed
            outputs[name] = [run(src, argv, stdin)[1].stdout for argv, stdin in each.values()]
            outputs[name] += [(work / f"{kind}.txt").read_text(encoding="utf-8") for kind in ("fp32", "int8")]
        seconds: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for job, (argv, stdin) in each.items():
                for name, src in trees.items():  # old, new, old, new: the load falls on both alike
                    seconds.setdefault((job, name), []).append(run(src, argv, stdin)[0])
        print(f"{'job':<14} {'old s':>7} {'new s':>7} {'new/old':>8} {'old modules':>12} {'new modules':>12}")
        for job, (argv, stdin) in each.items():
            old, new = (statistics.median(seconds[job, name]) for name in trees)
            counts = [modules_loaded(src, argv, stdin) for src in trees.values()]
            print(f"{job:<14} {old:7.3f} {new:7.3f} {new / old:8.3f} {counts[0]:12d} {counts[1]:12d}")
        print(f"medians of {args.rounds} rounds; the same translations: {outputs['old'] == outputs['new']}")


if __name__ == "__main__":
    main()
