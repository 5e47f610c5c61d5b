"""Translation speed: attnmt against Hugging Face Marian and CTranslate2 on the same weights.

    .venv/bin/python benchmarks/decode.py [--model runs/bench_multi30k] [--sentences 1000] [--base] [--contended]

The trained model (default: the one ``benchmarks/multi30k.py`` leaves in
runs/bench_multi30k) is exported with ``attnmt export`` to a Hugging Face Marian
directory and to CTranslate2 (float32 and int8), so every engine holds the same
weights.  ``--base`` measures instead a model of the paper's base size (d_model 512,
8 heads, d_ff 2048, 6 + 6 layers) with random weights and the given model's
tokenizer, exported the same way; random weights give meaningless natural lengths,
so it runs the fixed mode only.

"attnmt fp32" is what ``attnmt translate`` runs: the linear layers' weights
prepacked (attnmt.fast.packed) and the cached decoder step as one C++ call
(attnmt.fast.step), as are "attnmt int8" and "attnmt bf16" (bf16 weights; only
where the CPU multiplies bf16 natively).  Nine more run only when named in
``--engines``: "attnmt fp32 python step" and "attnmt int8 python step" are those
copies stepping in Python; "attnmt fp32 unpacked" keeps plain ``nn.Linear``;
"attnmt fp32 compiled" runs the decoder step under torch.compile (its warm-up batch
compiles: the slowest warm-up per engine is printed); "attnmt int8 1 thread" and
"attnmt bf16 1 thread" are what ``attnmt translate --threads 1`` runs; "attnmt fp32 1 thread" too,
and "attnmt fp32 auto threads" and "attnmt int8 auto threads" what it runs by default (one thread
per core other processes leave free, looked at again before each batch: attnmt.threads).

``--contended`` runs every engine's process beside a busy loop (benchmarks/contention.py) that
this script starts before the process and stops after it, and adds "attnmt fp32 1 thread" and
"attnmt fp32 auto threads" to the default engines; each engine's row then ends with the 1-minute
load average as the process of its fastest pass ended.

test_2016_flickr's first ``--sentences`` sources are tokenised once, sorted by
length and cut into batches of 32; every engine translates exactly those batches,
with 2 threads unless its name says 1 thread.  Each engine runs in a process of
its own, the engines taking turns, ``--rounds`` times, and each one's fastest pass
counts: machine noise hits all alike.  The peers run in processes that import only
what their users would: CTranslate2 (benchmarks/peers/ctranslate2_worker.py) imports
ctranslate2 and is fed the batches as pieces; beside torch's OpenMP runtime it ran
1.7-2.4x slower.  Hugging Face (benchmarks/peers/huggingface_worker.py) imports
torch and transformers and is fed ids in the export's Marian order.  CTranslate2
runs at 1 thread too: on a 2-core machine one thread can beat two.

Two modes:

- natural: each sentence until EOS (at most 1.5·src + 10 tokens), length penalty 0
  in every engine so they search the same objective.  Each engine's own stopping
  rule: attnmt's default and CTranslate2's end a sentence once no active hypothesis
  can beat the best finished one (exact with length penalty 0); Hugging Face's
  ``early_stopping=True`` once beam_size hypotheses are finished (its exact
  setting, ``"never"``, would be slower still);
- fixed: exactly 20 decoder steps per sentence (EOS forbidden before), so the
  work is identical whatever each engine would have produced.

Both with beam 4 and greedy.  Prints the CPU's model and flags, the instruction set
PyTorch's kernels picked, seconds, sentences/s, the ratio of each engine's time to
attnmt fp32's (> 1: attnmt fp32 is faster), test BLEU of each engine's natural
output (the same weights should score alike), and peak RSS.  Targets (issue 19):
attnmt fp32 at least as fast as CTranslate2 fp32 at its best thread count, and
attnmt's fastest mode faster than CTranslate2's fastest variant, in every column.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the Hub

# attnmt before torch: OpenMP's threads wait as they do in `attnmt translate` (attnmt.hardware)
import attnmt  # noqa: E402, F401

# isort: split
import torch  # noqa: E402
from contention import SAID, competing, load_average  # noqa: E402

from attnmt.checkpoint import (  # noqa: E402
    load_model_config,
    load_model_dir,
    save_model_config,
    save_weights,
)
from attnmt.decoding import DEFAULT, Decoding  # noqa: E402
from attnmt.decoding.search import beam_search, greedy_search  # noqa: E402
from attnmt.evaluate import score  # noqa: E402
from attnmt.fast import prepare  # noqa: E402
from attnmt.hardware import bf16_native, cpu_flags, cpu_model, user_environment  # noqa: E402
from attnmt.interop.export import export_ctranslate2, export_marian  # noqa: E402
from attnmt.interop.marian import marian_order  # noqa: E402
from attnmt.model import Transformer  # noqa: E402
from attnmt.text.data import (
    pad_rows,  # noqa: E402
    read_lines,  # noqa: E402
)
from attnmt.text.tokenizer_files import tokenizer_paths  # noqa: E402
from attnmt.threads import follow_free_cores, recheck  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TEST_SRC = ROOT / "data/multi30k/test_2016_flickr.en.gz"
TEST_REF = ROOT / "data/multi30k/test_2016_flickr.de.gz"
BATCH = 32
FIXED_STEPS = 20
THREADS = 2

# An engine translates one batch of token-id lists: (ids, beam, fixed) -> output id lists.
Engine = Callable[[list[list[int]], int, bool], list[list[int]]]


def rss_mib() -> float:
    """This process's peak RSS.  VmHWM, where Linux has it: ru_maxrss carries over from
    the parent through fork and exec, so a worker would report at least the parent's."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def natural_limit(batch: list[list[int]], max_positions: int) -> int:
    """Decoder steps that let the batch's longest source reach attnmt's default limit
    (1.5·src + 10 tokens) and its EOS, for the engines that take one limit per batch."""
    return DEFAULT.max_output_length(max(map(len, batch)), max_positions - 2) + 1


def attnmt_engine(model) -> Engine:
    c = model.config

    def run(batch: list[list[int]], beam: int, fixed: bool) -> list[list[int]]:
        recheck()  # as translate() does before each batch (where the engine follows the free cores)
        src = pad_rows(batch, c.pad_id)
        # fixed: FIXED_STEPS - 1 tokens, then the forced EOS = FIXED_STEPS decoder steps.
        limits = dict(max_len_a=0.0, max_len_b=FIXED_STEPS - 1, min_len=FIXED_STEPS - 1) if fixed else {}
        decoding = Decoding(beam_size=beam, alpha=0.0, **limits)
        if beam == 1:
            return greedy_search(model, src, decoding)
        hyps = beam_search(model, src, decoding)
        return [h[0].tokens for h in hyps]

    return run


PEERS_DIR = Path(__file__).resolve().parent / "peers"
# Peer engine -> (its worker script, the export it reads, its threads).
PEERS = {
    "HF Marian fp32": ("huggingface_worker.py", "marian", THREADS),
    "CTranslate2 fp32": ("ctranslate2_worker.py", "ct2", THREADS),
    "CTranslate2 int8": ("ctranslate2_worker.py", "ct2_int8", THREADS),
    "CTranslate2 fp32 1 thread": ("ctranslate2_worker.py", "ct2", 1),
    "CTranslate2 int8 1 thread": ("ctranslate2_worker.py", "ct2_int8", 1),
}
ENGINES = ("attnmt fp32", "attnmt fp32 python step", "attnmt fp32 unpacked", "attnmt fp32 compiled", "attnmt int8",
           "attnmt int8 python step", "attnmt bf16", "attnmt fp32 1 thread", "attnmt int8 1 thread",
           "attnmt bf16 1 thread", "attnmt fp32 auto threads", "attnmt int8 auto threads", *PEERS)
# Run only when named in --engines (or, the first two, with --contended):
OPT_IN = ("attnmt fp32 1 thread", "attnmt fp32 auto threads", "attnmt fp32 python step", "attnmt fp32 unpacked",
          "attnmt fp32 compiled", "attnmt int8 python step", "attnmt int8 1 thread", "attnmt bf16 1 thread",
          "attnmt int8 auto threads")
ONE_THREAD = " 1 thread"  # an engine named so runs on one thread (`attnmt translate --threads 1`)
AUTO_THREADS = " auto threads"  # ... on the free cores (`attnmt translate`, --threads 0)


def compiled(model):
    """A copy whose decoder step (``Transformer.decode``, the cache included) runs under
    torch.compile: inductor, dynamic shapes, weights frozen and prepacked by inductor.
    The warm-up batch pays for compiling (each search shape recompiles once)."""
    import copy

    import torch._inductor.config as inductor_config

    inductor_config.freezing = True
    model = copy.deepcopy(model).eval()
    model.decode = torch.compile(model.decode, dynamic=True)
    return model



def make_engine(name: str, model) -> Engine:
    """Engine ``name`` for the loaded attnmt model (the peers run in processes of their own)."""
    name = name.removesuffix(ONE_THREAD).removesuffix(AUTO_THREADS)
    if name == "attnmt fp32":
        return attnmt_engine(prepare(model))  # what `attnmt translate` runs
    if name == "attnmt fp32 python step":
        return attnmt_engine(prepare(model, fused_step=False))
    if name == "attnmt fp32 unpacked":
        return attnmt_engine(model)
    if name == "attnmt fp32 compiled":
        return attnmt_engine(compiled(model))
    if name == "attnmt int8":
        return attnmt_engine(prepare(model, int8=True))
    if name == "attnmt bf16":
        return attnmt_engine(prepare(model, bf16=True))
    if name == "attnmt int8 python step":
        return attnmt_engine(prepare(model, int8=True, fused_step=False))
    raise ValueError(f"{name} runs in a process of its own (benchmarks/peers), not here")


def export_all(model_dir: str, exports: Path, engines: list[str]) -> None:
    folders = {PEERS[name][1] for name in engines if name in PEERS}
    if "marian" in folders:
        export_marian(model_dir, exports / "marian")
    if "ct2" in folders:
        export_ctranslate2(model_dir, exports / "ct2")
    if "ct2_int8" in folders:
        export_ctranslate2(model_dir, exports / "ct2_int8", quantization="int8")


def base_model_dir(model_dir: str, out: Path) -> str:
    """A model of the paper's base size (d_model 512, 8 heads, d_ff 2048, 6 + 6 layers) in ``out``:
    random weights (seed 0), ``model_dir``'s tokenizer and vocabulary."""
    config = dataclasses.replace(load_model_config(Path(model_dir)), d_model=512, n_heads=8, d_ff=2048,
                                 encoder_layers=6, decoder_layers=6)
    out.mkdir()
    torch.manual_seed(0)
    save_model_config(config, out)
    save_weights(Transformer(config).eval(), out / "model.safetensors")
    for path in tokenizer_paths(Path(model_dir)):
        shutil.copy(path, out / path.name)
    return str(out)


def length_order(encoded: list[list[int]]) -> list[int]:
    """Sentence indices, shortest source first: the order batches are cut in and outputs come back."""
    return sorted(range(len(encoded)), key=lambda i: len(encoded[i]))


def test_batches(tokenizer, sentences: int) -> list[list[list[int]]]:
    """test_2016_flickr's first ``sentences`` sources as token ids, shortest first, in batches of BATCH."""
    encoded = [tokenizer.encode(s) for s in read_lines(TEST_SRC)[:sentences]]
    ordered = [encoded[i] for i in length_order(encoded)]
    return [ordered[i : i + BATCH] for i in range(0, len(ordered), BATCH)]


def worker(args: argparse.Namespace) -> None:
    """One engine, in a process of its own: a warm-up batch, then one timed pass per mode
    and beam; seconds, outputs and this process's peak RSS go to ``args.result`` as JSON."""
    if args.worker.endswith(AUTO_THREADS):
        follow_free_cores()
    else:
        torch.set_num_threads(1 if args.worker.endswith(ONE_THREAD) else THREADS)
    warnings.filterwarnings("ignore", message="Recommended: pip install sacremoses")
    model, tokenizer = load_model_dir(args.model)
    batches = test_batches(tokenizer, args.sentences)
    engine = make_engine(args.worker, model)
    runs = []
    for mode in args.modes.split(","):
        for beam in map(int, args.beams.split(",")):
            fixed = mode == "fixed"
            started = time.perf_counter()
            engine(batches[0], beam, fixed)  # warm-up
            warmup = time.perf_counter() - started
            started = time.perf_counter()
            outputs = [out for batch in batches for out in engine(batch, beam, fixed)]
            runs.append(dict(mode=mode, beam=beam, seconds=time.perf_counter() - started, outputs=outputs,
                             warmup=warmup))
    Path(args.result).write_text(json.dumps(dict(runs=runs, rss_mib=rss_mib(), load=load_average())))


def run_peer_worker(args: argparse.Namespace, engine: str, exports: Path, tokenizer, config) -> dict:
    """A peer in a process of its own that imports only what its users would (benchmarks/peers):
    CTranslate2 fed the batches as pieces, Hugging Face as ids in the export's Marian order; its
    outputs come back as attnmt token ids."""
    script, folder, threads = PEERS[engine]
    batches = test_batches(tokenizer, args.sentences)
    if folder == "marian":
        order = marian_order(config)  # Marian id -> attnmt id
        to_marian = {a: m for m, a in enumerate(order)}
        inputs = [[[to_marian[t] for t in row] for row in batch] for batch in batches]
    else:
        inputs = [[[tokenizer.id_to_piece(t) for t in row] for row in batch] for batch in batches]
    limits = [natural_limit(batch, config.max_positions) for batch in batches]
    job = exports / "peer_job.json"
    job.write_text(json.dumps(dict(
        batches=inputs, natural_limits=limits, fixed_steps=FIXED_STEPS, modes=args.modes.split(","),
        beams=[int(b) for b in args.beams.split(",")], threads=threads, batch=BATCH,
    ), ensure_ascii=False), encoding="utf-8")
    result = exports / "result.json"
    # The peer runs in the environment its users give it, without attnmt's OpenMP settings.
    subprocess.run([sys.executable, str(PEERS_DIR / script), "--model-dir", str(exports / folder),
                    "--input", str(job), "--result", str(result)], check=True, env=user_environment())
    answer = json.loads(result.read_text(encoding="utf-8"))
    if answer.get("torch_imported") or answer.get("attnmt_imported"):
        raise RuntimeError(f"the {engine} worker imported more than its users would: its timings would not count")
    for run in answer["runs"]:
        run["outputs"] = ([[order[t] for t in out] for out in run["outputs"]] if folder == "marian"
                          else [[tokenizer.piece_to_id(p) for p in out] for out in run["outputs"]])
    return answer


def run_worker(args: argparse.Namespace, engine: str, exports: Path) -> dict:
    result = exports / "result.json"
    command = [sys.executable, __file__, "--worker", engine, "--model", args.model, "--result", str(result),
               "--sentences", str(args.sentences), "--modes", args.modes, "--beams", args.beams]
    subprocess.run(command, check=True)
    return json.loads(result.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--modes", default="natural,fixed")
    parser.add_argument("--beams", default="4,1")
    parser.add_argument("--engines", default="",
                        help=f"comma-separated subset (default: all but {' and '.join(OPT_IN)})")
    parser.add_argument("--rounds", type=int, default=2, help="passes per engine; the fastest counts")
    parser.add_argument("--contended", action="store_true", help="run every engine beside a busy loop that this "
                        "script starts and stops (and add attnmt fp32 at 1 thread and at auto threads)")
    parser.add_argument("--base", action="store_true",
                        help="a base-size model (d512, 8 heads, ffn 2048, 6+6) with random weights, fixed mode only")
    for internal in ("--worker", "--result"):
        parser.add_argument(internal, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if not Path(args.model, "model.safetensors").exists():
        parser.error(f"{args.model} holds no trained model: run benchmarks/multi30k.py first, or give --model")
    skipped = OPT_IN if bf16_native()[0] else (*OPT_IN, "attnmt bf16")  # bf16 only where the CPU has it
    if args.contended:
        skipped = tuple(e for e in skipped if e not in ("attnmt fp32 1 thread", "attnmt fp32 auto threads"))
    wanted = args.engines.split(",") if args.engines else [e for e in ENGINES if e not in skipped]
    if "attnmt fp32" not in wanted or not set(wanted) <= set(ENGINES):
        parser.error(f"--engines: choose among {', '.join(ENGINES)}, attnmt fp32 included")
    with tempfile.TemporaryDirectory() as tmp:
        exports = Path(tmp)
        if args.base:
            args.model, args.modes = base_model_dir(args.model, exports / "base"), "fixed"
        model, tokenizer = load_model_dir(args.model)
        sources = read_lines(TEST_SRC)[: args.sentences]
        references = read_lines(TEST_REF)[: args.sentences]
        order = length_order([tokenizer.encode(s) for s in sources])
        export_all(args.model, exports, wanted)
        results: dict[str, list[dict]] = {name: [] for name in wanted}
        for _ in range(args.rounds):
            for name in wanted:
                with competing(args.contended):
                    results[name].append(run_peer_worker(args, name, exports, tokenizer, model.config)
                                         if name in PEERS else run_worker(args, name, exports))
                    results[name][-1].setdefault("load", load_average())

    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()} ({flags}); PyTorch kernels "
          f"{torch.backends.cpu.get_cpu_capability()}; precision fp32 unless the engine says int8 or bf16; "
          "CTranslate2 in a process importing only ctranslate2, Hugging Face one importing only torch + transformers")
    print(f"test_2016_flickr, {len(sources)} sentences in batches of {BATCH}, {THREADS} threads, "
          f"torch {torch.__version__}, model {'base size, random weights' if args.base else args.model} "
          f"({model.num_parameters() / 1e6:.1f}M parameters); "
          f"each engine in a process of its own, fastest of {args.rounds}" + (f"; {SAID}" if args.contended else ""))
    for index, first in enumerate(results["attnmt fp32"][0]["runs"]):
        mode, beam = first["mode"], first["beam"]
        fixed = mode == "fixed"
        seconds = {name: min(r["runs"][index]["seconds"] for r in rounds) for name, rounds in results.items()}
        print(f"\n{mode} lengths, beam {beam}" + (f" ({FIXED_STEPS} decoder steps per sentence)" if fixed else ""))
        width = max(map(len, results))
        print(f"  {'engine':<{width}} {'seconds':>8} {'sent/s':>8} {'tokens':>7} "
              f"{'attnmt fp32 faster by':>22}" + ("" if fixed else f" {'BLEU':>6}")
              + ("  load" if args.contended else ""))
        for name, rounds in results.items():
            outputs = rounds[0]["runs"][index]["outputs"]  # sorted by length, like ``order``
            line = (f"  {name:<{width}} {seconds[name]:>8.2f} {len(sources) / seconds[name]:>8.1f} "
                    f"{sum(map(len, outputs)):>7} {seconds[name] / seconds['attnmt fp32']:>21.2f}x")
            if not fixed:
                hyps = [""] * len(sources)
                for i, out in zip(order, outputs, strict=True):
                    hyps[i] = tokenizer.decode(out)
                line += f" {score(hyps, references).bleu:>6.1f}"
            if args.contended:  # the load average as the process of the engine's fastest pass ended
                line += f"  {min(rounds, key=lambda r: r['runs'][index]['seconds'])['load']}"
            print(line)
    print("\nslowest warm-up (first batch of a mode; compiling included) per engine: "
          + ", ".join(f"{name} {max(run['warmup'] for r in rounds for run in r['runs']):.1f} s"
                      for name, rounds in results.items()))
    print("peak RSS per engine process: "
          + ", ".join(f"{name} {max(r['rss_mib'] for r in rounds):.0f} MiB" for name, rounds in results.items()))


if __name__ == "__main__":
    main()
