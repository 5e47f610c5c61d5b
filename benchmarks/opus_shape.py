"""A model of OPUS-MT's size and layout, as whole processes: attnmt against CTranslate2.

    .venv/bin/python benchmarks/opus_shape.py [--rounds 2] [--lines 500] [--keep DIR] [--contended]

Builds, from random weights (seed 0), a Hugging Face Marian directory shaped like OPUS-MT
en-de: d_model 512, 8 heads, ffn 2048, 6 + 6 layers, swish, one shared vocabulary of 58,101
pieces in Marian's layout (``</s>`` 0, ``<unk>`` 1, ``<pad>`` last), tied embeddings.  Its
SentencePiece model is trained on Multi30k (8,000 pieces); the rest of the vocabulary is filler
pieces that the SentencePiece model never produces, as in a real OPUS-MT vocabulary most pieces
are rare.  Then, each with its own tool and in its own process:

- ``attnmt import --from-marian`` writes the attnmt model directory;
- ``ct2-transformers-converter`` (CTranslate2's converter) writes float32 and int8 copies;
- ``attnmt shortlist`` builds a vocabulary shortlist from Multi30k's training pairs (50 target
  pieces per source piece, the 500 most frequent always), given to CTranslate2 as its vmap
  (``--vocab_mapping``, then ``use_vmap``) and to ``attnmt translate --shortlist``.

The job: ``--lines`` lines of about 30 source pieces (two Multi30k test sentences joined),
beam 4, at most 40 output tokens (random weights almost never choose ``</s>``, so every
sentence takes 40 steps in every engine: the token counts printed show it).  Every job is one
process timed from its start to its exit (interpreter, imports, loading included):

- ``python -m attnmt translate --model M --beam 4 --threads 2 --max-len-a 0 --max-len-b 40
  --no-split [--int8] [--shortlist FILE]`` (``--no-split``: each line whole, as CTranslate2
  translates it; by default attnmt would split the two joined sentences and translate each),
  also at ``--threads 1`` and ``--threads 0`` ("auto threads": one per core other processes
  leave free, attnmt's default); "attnmt fp32 panels" and "attnmt fp32 onednn" run float32 with
  every decoder-step layer on one kernel (``ATTNMT_FLOAT32_KERNEL``), where "attnmt fp32" times them;
  "attnmt fp32 no tiles" (and "... no tiles shortlist") leaves AMX's bf16 tiles out of that timing
  (``ATTNMT_FLOAT32_TILES=0``: on a CPU with AMX-BF16; elsewhere the same as "attnmt fp32");
- benchmarks/peers/ctranslate2_translate.py (ctranslate2 and sentencepiece only, ``</s>``
  appended to each source as Marian models expect, batches of 32), float32, int8 and int8 with
  the vmap, at 1 and at 2 threads; float32 at 2 threads also with ``ONEDNN_MAX_CPU_ISA=AVX2`` ("... onednn
  avx2"), which a CTranslate2 user on an AVX-512 EPYC may set: its oneDNN float32 GEMM runs faster there so.

Start-up is the same command on a one-line file.  Peak RSS is each process's own (``wait4``).
``--contended`` runs every process beside a busy loop (benchmarks/contention.py) that this script
starts before the process and stops after it; the load column is the 1-minute load average as
the fastest run ended.
The jobs take turns, ``--rounds`` times, and each one's fastest counts.  attnmt's modules are
compiled to bytecode first, as a pip install leaves them (an editable install under
``PYTHONDONTWRITEBYTECODE=1`` would compile them at every start: about 0.2 s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from contention import SAID, competing, load_average

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"
CT2_SCRIPT = Path(__file__).resolve().parent / "peers" / "ctranslate2_translate.py"
VOCAB = 58_101  # OPUS-MT en-de's vocabulary
SPM_PIECES = 8_000
SHAPE = dict(d_model=512, encoder_attention_heads=8, decoder_attention_heads=8, encoder_ffn_dim=2048,
             decoder_ffn_dim=2048, encoder_layers=6, decoder_layers=6, activation_function="swish")
MAX_OUTPUT = 40
BEAM = 4


def marian_vocabulary(pieces: list[str]) -> dict[str, int]:
    """OPUS-MT's layout: </s> 0, <unk> 1, the SentencePiece model's pieces, filler pieces, <pad> last."""
    vocab = {"</s>": 0, "<unk>": 1}
    for piece in pieces:
        vocab.setdefault(piece, len(vocab))
    filler = 0
    while len(vocab) < VOCAB - 1:
        vocab.setdefault(f"▁filler{filler}", len(vocab))
        filler += 1
    vocab["<pad>"] = VOCAB - 1
    return vocab


def build_marian(folder: Path) -> None:
    """The random-weight OPUS-MT-shaped Hugging Face Marian directory."""
    import sentencepiece as spm
    import torch
    import transformers

    from attnmt.text.data import read_lines
    from attnmt.text.tokenizer_training import train_sentencepiece

    sentences = read_lines(DATA / "train.en.gz") + read_lines(DATA / "train.de.gz")
    proto = train_sentencepiece(sentences, SPM_PIECES)
    processor = spm.SentencePieceProcessor(model_proto=proto)
    pieces = [processor.id_to_piece(i) for i in range(processor.get_piece_size())
              if not (processor.is_control(i) or processor.is_unknown(i))]
    vocab = marian_vocabulary(pieces)
    pad = vocab["<pad>"]
    config = transformers.MarianConfig(
        vocab_size=VOCAB, decoder_vocab_size=VOCAB, share_encoder_decoder_embeddings=True, **SHAPE,
        max_position_embeddings=512, scale_embedding=True, pad_token_id=pad, decoder_start_token_id=pad,
        eos_token_id=0, forced_eos_token_id=0, dropout=0.1, attention_dropout=0.0, activation_dropout=0.0,
        architectures=["MarianMTModel"],
    )
    torch.manual_seed(0)
    transformers.MarianMTModel(config).eval().save_pretrained(folder)
    for name in ("source.spm", "target.spm"):
        (folder / name).write_bytes(proto)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (folder / "tokenizer_config.json").write_text(json.dumps(dict(
        source_lang="en", target_lang="de", model_max_length=512, separate_vocabs=False)), encoding="utf-8")


def convert(folder: Path) -> None:
    """attnmt's import and CTranslate2's converter, each in its own process, from ``folder / 'hf'``;
    then one shortlist from Multi30k's training pairs, for attnmt and (as a vmap) for CTranslate2."""
    hf = folder / "hf"
    attnmt = [sys.executable, "-m", "attnmt"]
    subprocess.run([*attnmt, "import", "--from-marian", str(hf), "--out", str(folder / "attnmt")], check=True)
    subprocess.run([*attnmt, "shortlist", "--model", str(folder / "attnmt"), "--source", str(DATA / "train.en.gz"),
                    "--target", str(DATA / "train.de.gz"), "--out", str(folder / "shortlist.tsv")], check=True)
    pieces = {i: piece for piece, i in json.loads((hf / "vocab.json").read_text(encoding="utf-8")).items()}
    write_vmap(folder / "shortlist.tsv", pieces, folder / "vmap.txt")
    beside = Path(sys.executable).with_name("ct2-transformers-converter")  # a virtual environment's
    converter = beside if beside.exists() else shutil.which("ct2-transformers-converter")  # pip --target or --user
    if converter is None:
        sys.exit("opus_shape.py: ct2-transformers-converter is neither beside this Python nor on PATH")
    vmap = ["--vocab_mapping", str(folder / "vmap.txt")]
    for kind, extra in (("fp32", vmap), ("int8", ["--quantization", "int8", *vmap])):
        subprocess.run([str(converter), "--model", str(hf), "--output_dir", str(folder / f"ct2_{kind}"),
                        "--copy_files", "source.spm", "target.spm", *extra], check=True,
                       stdout=subprocess.DEVNULL)


def compile_bytecode() -> None:
    """attnmt's modules as bytecode beside their sources, as pip's install leaves them."""
    import importlib.util

    package = importlib.util.find_spec("attnmt").submodule_search_locations[0]
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=True, stdout=subprocess.DEVNULL)


def write_vmap(shortlist: Path, pieces: dict[int, str] | list[str], vmap: Path) -> None:
    """attnmt's shortlist (ids) as CTranslate2's vocabulary map (``pieces``: each id's piece; an empty
    source: always kept)."""
    lines = []
    for line in shortlist.read_text(encoding="utf-8").splitlines()[1:]:
        source, *targets = line.split("\t")
        key = "" if source == "*" else pieces[int(source)]
        lines.append(key + "\t" + " ".join(pieces[int(t)] for t in targets))
    vmap.write_text("\n".join(lines) + "\n", encoding="utf-8")


def input_lines(count: int, join: int = 2) -> list[str]:
    """``count`` lines, each ``join`` consecutive Multi30k test sentences joined (two: about 30
    pieces; eight: about 120, the long inputs of a paragraph left unsplit)."""
    gz = DATA / "test_2016_flickr.en.gz"
    import gzip

    sentences = gzip.open(gz, "rt", encoding="utf-8").read().splitlines()
    return [" ".join(sentences[(join * i + j) % len(sentences)] for j in range(join)) for i in range(count)]


def jobs(folder: Path, max_output: int = MAX_OUTPUT) -> dict[str, list[str]]:
    """Job name -> the command that translates INPUT into OUTPUT."""
    def attnmt(threads: int, *extra: str) -> list[str]:
        return [sys.executable, "-m", "attnmt", "translate", "--model", str(folder / "attnmt"), "--beam", str(BEAM),
                "--threads", str(threads), "--max-len-a", "0", "--max-len-b", str(max_output), "--no-split", *extra]

    shortlist = ("--shortlist", str(folder / "shortlist.tsv"))
    commands = {"attnmt fp32": attnmt(2), "attnmt fp32 1 thread": attnmt(1), "attnmt fp32 auto threads": attnmt(0),
                "attnmt fp32 shortlist": attnmt(2, *shortlist),
                "attnmt int8": attnmt(2, "--int8"), "attnmt int8 auto threads": attnmt(0, "--int8"),
                "attnmt int8 shortlist": attnmt(2, "--int8", *shortlist), "attnmt int8 1 thread": attnmt(1, "--int8"),
                "attnmt int8 shortlist 1 thread": attnmt(1, "--int8", *shortlist)}
    for kernel in ("panels", "onednn"):  # every float32 step layer on one kernel, untimed (a prepared copy of its own)
        commands[f"attnmt fp32 {kernel}"] = ["env", f"ATTNMT_FLOAT32_KERNEL={kernel}", *attnmt(2)]
    # float32's own products only: AMX's bf16 tiles left out of the kernels timed (attnmt.fast.panels.TILES_VARIABLE)
    commands["attnmt fp32 no tiles"] = ["env", "ATTNMT_FLOAT32_TILES=0", *attnmt(2)]
    commands["attnmt fp32 no tiles shortlist"] = ["env", "ATTNMT_FLOAT32_TILES=0", *attnmt(2, *shortlist)]
    for kind, vmap in (("fp32", ""), ("fp32", " vmap"), ("int8", ""), ("int8", " vmap")):
        for threads in (1, 2):
            commands[f"CTranslate2 {kind}{vmap} {threads} thread{'s' * (threads > 1)}"] = [
                sys.executable, str(CT2_SCRIPT), str(folder / f"ct2_{kind}"), "--threads", str(threads),
                "--beam", str(BEAM), "--max-length", str(max_output), "--append-eos", *["--use-vmap"] * bool(vmap)]
    # CTranslate2's float32 with oneDNN capped at AVX2: on an AVX-512 EPYC (Zen 4) its oneDNN GEMM ran faster so
    # (benchmarks/results/ct2_onednn_isa_epyc_zen4_s47.txt). CTranslate2 multiplies with oneDNN on AMD CPUs and
    # with MKL on Intel ones (CT2_USE_MKL), where this variable leaves its float32 GEMM as it is.
    for vmap in ("", " vmap"):
        commands[f"CTranslate2 fp32{vmap} 2 threads onednn avx2"] = [
            "env", "ONEDNN_MAX_CPU_ISA=AVX2", *commands[f"CTranslate2 fp32{vmap} 2 threads"]]
    return {name: [*command, "INPUT", "OUTPUT"] for name, command in commands.items()}


def run(command: list[str], source: Path, output: Path, contended: bool = False) -> tuple[float, float, str]:
    """(seconds, peak RSS in MiB, the load average at its end) of the whole process; with
    ``contended``, beside a busy loop."""
    command = [str(source) if c == "INPUT" else str(output) if c == "OUTPUT" else c for c in command]
    with competing(contended):
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        load = load_average()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, load


def folder_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs per job; the fastest counts")
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--join", type=int, default=2, help="test sentences per line (8: long inputs)")
    parser.add_argument("--max-output", type=int, default=MAX_OUTPUT, help="output tokens per line")
    parser.add_argument("--jobs", default="", help="comma-separated subset of the jobs (default: all)")
    parser.add_argument("--keep", help="build the models in this folder (reused when it holds them)")
    parser.add_argument("--contended", action="store_true", help="run every process beside a busy loop "
                        "that this script starts and stops")
    parser.add_argument("--build", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        build_marian(Path(args.build) / "hf")
        return convert(Path(args.build))
    # This process stays small (no torch): a child's peak RSS counts what it shared with its parent
    # between fork and exec, so the models are built in a process of their own.
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        if not (folder / "ct2_int8" / "model.bin").exists():
            folder.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, __file__, "--build", str(folder)], check=True)
        source, one_line = folder / "input.en", folder / "one_line.en"
        lines = input_lines(args.lines, args.join)
        source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        one_line.write_text(lines[0] + "\n", encoding="utf-8")
        commands = jobs(folder, args.max_output)
        compile_bytecode()
        if args.jobs:
            commands = {name: commands[name] for name in args.jobs.split(",")}
        whole: dict[str, list[tuple[float, float, str]]] = {name: [] for name in commands}
        start: dict[str, list[tuple[float, float, str]]] = {name: [] for name in commands}
        tokens: dict[str, int] = {}
        for _ in range(args.rounds):
            for name, command in commands.items():
                start[name].append(run(command, one_line, folder / "one_line.out", args.contended))
                output = folder / f"{name}.out"
                whole[name].append(run(command, source, output, args.contended))
                tokens[name] = sum(len(line.split()) for line in output.read_text(encoding="utf-8").splitlines())
        sizes = {"attnmt": folder_mib(folder / "attnmt"), "fp32": folder_mib(folder / "ct2_fp32"),
                 "int8": folder_mib(folder / "ct2_int8")}
    from attnmt.hardware import cpu_flags, cpu_model

    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_int8"}))
    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()} ({flags}); OPUS-MT en-de shape, random weights "
          f"({VOCAB:,} pieces); {args.lines} lines of {args.join} test sentences, beam {BEAM}, "
          f"at most {args.max_output} output tokens; "
          f"whole processes; fastest of {args.rounds}" + (f"; {SAID}" if args.contended else ""))
    print(f"on disk: attnmt model directory {sizes['attnmt']:.0f} MiB, CTranslate2 fp32 {sizes['fp32']:.0f} MiB, "
          f"int8 {sizes['int8']:.0f} MiB")
    columns = ("seconds", "lines/s", "words out", "peak RSS", "start-up", "its RSS", "load")
    rows = [[name, f"{min(whole[name])[0]:.2f}", f"{args.lines / min(whole[name])[0]:.1f}", str(tokens[name]),
             f"{max(r for _, r, _ in whole[name]):.0f} MiB", f"{min(start[name])[0]:.2f} s",
             f"{max(r for _, r, _ in start[name]):.0f} MiB", min(whole[name])[2]] for name in commands]
    width = max(map(len, commands))
    lines = ["  " + "job".ljust(width) + "".join(c.rjust(11) for c in columns)]
    lines += ["  " + row[0].ljust(width) + "".join(cell.rjust(11) for cell in row[1:]) for row in rows]
    lines.append("start-up: the same command on a one-line file; RSS: each process's peak (wait4's ru_maxrss); "
                 "load: the 1-minute load average as the fastest run ended")
    lines += [f"  {name}: {' '.join(command)}" for name, command in commands.items()]
    print("\n".join(lines))

if __name__ == "__main__":
    main()
