"""A whole file job: ``attnmt translate`` against a CTranslate2 user's script, as processes.

    .venv/bin/python benchmarks/translate_file.py [--model runs/bench_multi30k] [--rounds 2] [--join 8]
        [--shortlist FILE]

The input is 3,000 English lines, always the same: Multi30k's val (1,014) and test_2016_flickr
(1,000) sources, then the first 986 lines of train.  Each job is one process timed from its start
to its exit, the interpreter's start, imports and model loading included, with beam 4 and 2 CPU
threads or fewer:

- ``python -m attnmt translate --model M --beam 4 --threads 2 --no-split [--int8 | --bf16] input output``;
- benchmarks/peers/ctranslate2_translate.py, a CTranslate2 user's script (ctranslate2 and
  sentencepiece only: read, tokenise with the export's SentencePiece model, ``translate_batch`` with
  beam 4 and batches of 32, detokenise, write), on ``attnmt export --format ctranslate2`` of the same
  weights, float32 and int8, at 1 thread and at 2 (on a 2-core machine 1 can be faster).

attnmt's modules are compiled to bytecode first (benchmarks/opus_shape.py says why).
Each runs with its own defaults otherwise (attnmt's length penalty α 0.6, CTranslate2's 1.0).  The
jobs take turns, ``--rounds`` times, and each one's fastest counts.  Start-up is timed apart: the
same command on a one-line file.  BLEU is scored on the 2,014 held-out lines (val and test; the
train lines were seen in training).

``--join N``: each line is N consecutive lines joined (8: about 120 pieces, a paragraph left
unsplit), held-out with held-out, references joined alike.  ``--shortlist FILE`` (``attnmt
shortlist``'s) adds int8 jobs restricted by it: ``attnmt translate --shortlist FILE`` and
CTranslate2 with the same shortlist as its vocabulary map (``vmap.txt`` in its int8 export,
``use_vmap``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from opus_shape import compile_bytecode, write_vmap

from attnmt.evaluate import score
from attnmt.hardware import bf16_native, cpu_flags, cpu_model, user_environment
from attnmt.text.data import read_lines
from attnmt.text.tokenizer import Tokenizer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"
CT2_SCRIPT = Path(__file__).resolve().parent / "peers" / "ctranslate2_translate.py"


def input_lines(lang: str, join: int = 1) -> tuple[list[str], int]:
    """The benchmark's 3,000 lines in ``lang`` (en: sources, de: references), ``join`` at a time
    joined into one, and how many of them are held-out lines (first)."""
    held_out = read_lines(DATA / f"val.{lang}.gz") + read_lines(DATA / f"test_2016_flickr.{lang}.gz")
    train = read_lines(DATA / f"train.{lang}.gz")[: 3000 - len(held_out)]
    def joined(lines: list[str]) -> list[str]:
        return [" ".join(lines[i:i + join]) for i in range(0, len(lines) - join + 1, join)]
    return joined(held_out) + joined(train), len(held_out) // join


def jobs(model: str, exports: Path, shortlist: str | None = None) -> dict[str, list[str]]:
    """Job name -> the command that translates INPUT into OUTPUT."""
    # --no-split: one line, one translation, as CTranslate2's script does (attnmt splits lines into
    # sentences by default).
    attnmt = [sys.executable, "-m", "attnmt", "translate", "--model", model, "--beam", "4", "--threads", "2",
              "--no-split"]
    commands = {"attnmt fp32": attnmt, "attnmt int8": [*attnmt, "--int8"]}
    if bf16_native()[0]:
        commands["attnmt bf16"] = [*attnmt, "--bf16"]
    if shortlist:
        commands["attnmt int8 shortlist"] = [*attnmt, "--int8", "--shortlist", shortlist]
    for kind in ("fp32", "int8", *["int8 vmap"] * bool(shortlist)):
        for threads in (2, 1):
            commands[f"CTranslate2 {kind} {threads} thread{'s' * (threads > 1)}"] = [
                sys.executable, str(CT2_SCRIPT), str(exports / kind.split()[0]), "--threads", str(threads),
                *["--use-vmap"] * ("vmap" in kind)]
    return {name: [*command, "INPUT", "OUTPUT"] for name, command in commands.items()}


def run(command: list[str], source: Path, output: Path) -> float:
    """Seconds the whole process took, in the environment the user started this script in (without
    the OpenMP settings importing attnmt put in it: each engine sets its own)."""
    command = [str(source) if c == "INPUT" else str(output) if c == "OUTPUT" else c for c in command]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=user_environment())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    parser.add_argument("--rounds", type=int, default=2, help="runs per job; the fastest counts")
    parser.add_argument("--join", type=int, default=1, help="input lines per line (8: long inputs)")
    parser.add_argument("--shortlist", help="attnmt shortlist's file: add int8 jobs restricted by it (vmap)")
    args = parser.parse_args()
    from attnmt.interop.export import export_ctranslate2

    (sources, held_out), (references, _) = input_lines("en", args.join), input_lines("de", args.join)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        export_ctranslate2(args.model, tmp / "fp32")
        export_ctranslate2(args.model, tmp / "int8", quantization="int8")
        if args.shortlist:  # the shortlist's ids as the pieces they are (the export orders them its own way)
            tokenizer = Tokenizer.load(Path(args.model) / "spm.model")
            pieces = {i: tokenizer.id_to_piece(i) for i in range(tokenizer.vocab_size)}
            write_vmap(Path(args.shortlist), pieces, tmp / "int8" / "vmap.txt")
        source, one_line = tmp / "input.en", tmp / "one_line.en"
        source.write_text("".join(line + "\n" for line in sources), encoding="utf-8")
        one_line.write_text(sources[0] + "\n", encoding="utf-8")
        commands = jobs(args.model, tmp, args.shortlist)
        compile_bytecode()
        seconds: dict[str, list[float]] = {name: [] for name in commands}
        startup: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                startup[name].append(run(command, one_line, tmp / "one_line.out"))
                seconds[name].append(run(command, source, tmp / f"{name}.out"))
        bleu = {name: score(read_lines(tmp / f"{name}.out")[:held_out], references[:held_out]).bleu
                for name in commands}

    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()} ({flags}); {len(sources)} lines "
          f"({args.join} joined a line), beam 4, "
          f"model {args.model}; whole processes, start-up included; fastest of {args.rounds}")
    width = max(map(len, commands))
    print(f"  {'job':<{width}} {'seconds':>8} {'lines/s':>8} {'start-up':>9} {'attnmt fp32 faster by':>22} "
          f"{f'BLEU ({held_out:,} held-out)':>22}")
    best = {name: min(times) for name, times in seconds.items()}
    for name in commands:
        print(f"  {name:<{width}} {best[name]:>8.2f} {len(sources) / best[name]:>8.1f} {min(startup[name]):>8.2f}s "
              f"{best[name] / best['attnmt fp32']:>21.2f}x {bleu[name]:>22.1f}")
    print("start-up: the same command on a one-line file (interpreter, imports, loading, one sentence)")
    for name, command in commands.items():
        print(f"  {name}: {' '.join(command)}")


if __name__ == "__main__":
    main()
