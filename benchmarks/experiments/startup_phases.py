"""Where a one-line int8 job's start-up goes after ``import torch`` (issue 44), two source trees of attnmt taking turns.

    .venv/bin/python benchmarks/experiments/startup_phases.py MODEL_DIR INPUT OLD_SRC NEW_SRC [--rounds 8]

Each round runs, for OLD_SRC then NEW_SRC (the ``src`` folders of two checkouts), ``attnmt translate --model MODEL_DIR
--beam 4 --threads 2 --max-len-a 0 --max-len-b 40 --no-split --int8 INPUT OUT`` (benchmarks/opus_shape.py's start-up
job) as a fresh process that marks the CPU time (user+sys of all its threads: time.process_time) and wall time of each
phase: ``import torch``, the rest of ``import attnmt``, the commands' modules (attnmt.cli.main), up to loading the
model, loading it (load_for_translation: config, tokenizer, the int8 copy mapped), up to the search, the search
(first_searched: the steps of the one line), and writing and exiting.  The process is the ``attnmt`` command as
``python -m attnmt`` starts it (attnmt.errors.started_as_the_command: it freezes what the imports made), entered
through attnmt.cli.main.entry; its os._exit is where the last mark is taken.  Printed: each phase's median and least
CPU milliseconds for each tree, the sum after ``import torch`` (and that sum less the search's), the whole process's
(user+sys, wait4's), the wall times of those two, and whether the trees wrote the same translations.
CPU time counts the OpenMP workers' spinning too: on a loaded machine the search's is noise, so the phases before it
are the ones to compare there.  ``import torch`` is marked apart, so it runs before attnmt's import holds the cyclic
collector off (attnmt/__init__.py): a little slower than in the command.  Compile both trees to bytecode first
(``python -m compileall -q SRC``), as benchmarks/opus_shape.py does, or each start compiles them.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MARK = "PHASES "


def job(model: str, source: str, output: str) -> list[str]:
    return ["translate", "--model", model, "--beam", "4", "--threads", "2", "--max-len-a", "0", "--max-len-b", "40",
            "--no-split", "--int8", source, output]


def child(arguments: list[str]) -> None:
    """Runs the command ``arguments`` in this process, printing its phases' (CPU, wall) seconds as one JSON line."""
    marks = [("start", time.process_time(), time.perf_counter())]

    def mark(name: str) -> None:
        marks.append((name, time.process_time(), time.perf_counter()))

    sys.orig_argv = [sys.executable, "-m", "attnmt", *arguments]  # the command, as attnmt reads it at its import
    import torch  # noqa: F401

    mark("import torch")
    import attnmt  # noqa: F401

    mark("import attnmt")
    import attnmt.cli.commands.translate as command
    import attnmt.cli.main as main
    import attnmt.decoding.translate as decoding

    mark("commands' modules")
    for module, name, phase in ((command, "load_for_translation", "model loaded"),
                                (decoding, "first_searched", "line searched")):
        setattr(module, name, marked(getattr(module, name), mark, phase))
    exit_now = os._exit

    def report(code: int) -> None:
        mark("written, exiting")
        phases = {name: (cpu - marks[i][1], wall - marks[i][2]) for i, (name, cpu, wall) in enumerate(marks[1:])}
        phases["after import torch"] = (marks[-1][1] - marks[1][1], marks[-1][2] - marks[1][2])
        phases["the same, search aside"] = tuple(a - b for a, b in zip(phases["after import torch"],
                                                                      phases["line searched"], strict=True))
        print(MARK + json.dumps(phases), file=sys.stderr)
        exit_now(code)

    os._exit = report
    sys.argv = ["attnmt", *arguments]
    main.entry()


def marked(function, mark, phase: str):
    """``function``, marking the phase up to its call ("up to " + ``phase``) and ``phase`` when it returns."""
    @functools.wraps(function)
    def call(*args, **kwargs):
        mark(f"up to {phase}")
        try:
            return function(*args, **kwargs)
        finally:
            mark(phase)
    return call


def run(src: str, arguments: list[str]) -> dict[str, list[float]]:
    """The phases of one job with attnmt from ``src``, and the whole process's (CPU, wall): its user+sys
    (wait4's) and the seconds from its start to its exit."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--child", *arguments], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": src})
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    said = process.stderr.read() if process.stderr else ""
    lines = [line for line in said.splitlines() if line.startswith(MARK)]
    if status or not lines:
        raise SystemExit(f"the job failed with {src}: {said[-2000:]}")
    return {**json.loads(lines[0][len(MARK):]), "whole process": [usage.ru_utime + usage.ru_stime, wall]}


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("model", "input", "old_src", "new_src"):
        parser.add_argument(name)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    trees = {"old": args.old_src, "new": args.new_src}
    with tempfile.TemporaryDirectory() as folder:
        outputs = {name: str(Path(folder) / f"{name}.txt") for name in trees}
        runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, src in trees.items():  # old, new, old, new: the load falls on both alike
                runs[name].append(run(src, job(args.model, args.input, outputs[name])))
        same = len({Path(output).read_text(encoding="utf-8") for output in outputs.values()}) == 1
    print(f"{'phase (CPU ms)':<24}" + "".join(f"{f'{name} median':>12}{f'{name} least':>12}" for name in trees))
    for phase in runs["old"][0]:
        cells = [(statistics.median(r[phase][0] for r in runs[name]), min(r[phase][0] for r in runs[name]))
                 for name in trees]
        print(f"{phase:<24}" + "".join(f"{1000 * median:12.1f}{1000 * least:12.1f}" for median, least in cells))
    for phase in ("after import torch", "whole process"):
        walls = ", ".join(f"{name} {1000 * statistics.median(r[phase][1] for r in runs[name]):.0f} "
                          f"(least {1000 * min(r[phase][1] for r in runs[name]):.0f})" for name in trees)
        print(f"wall ms, {phase}: median {walls}")
    print(f"{args.rounds} rounds; the same translations: {same}")


if __name__ == "__main__":
    main()
