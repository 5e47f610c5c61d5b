"""Load test of `attnmt serve` on loopback: requests/s, latency percentiles, errors, what batching buys,
and whether the server's memory stays flat under a long load.

    .venv/bin/python benchmarks/serve_load.py --model runs/demo            # 1,000 requests from 32 clients
    .venv/bin/python benchmarks/serve_load.py --requests 100 --clients 8   # a quick look
    .venv/bin/python benchmarks/serve_load.py --soak 300 --clients 64      # 5 minutes, LibreTranslate's API
    .venv/bin/python benchmarks/serve_load.py --threads-compare --contended --rounds 3  # a shared machine

Comparison (the default): the same load runs twice against a fresh server each
time: with batching (the server's ``--batch-size 32``) and one request at a time
(``--batch-size 1``); the speed-up is the ratio of their requests/s.

Soak (``--soak SECONDS``): one batched server under ``--clients`` for that long;
its resident memory (VmRSS) is read every 5 s, and the growth from the end of the
warm-up (``--warmup``, default 30 s of load) to the end is reported (target:
at most 10 %).  With ``--req-limit N`` the server limits each address to N
requests a minute, and its 429 answers are counted apart from errors.

Threads (``--threads-compare``): the batched server at ``--threads 0`` (its default:
as many threads as the cores other processes leave free, attnmt.threads), 1 and 2,
in turn, ``--rounds`` times; each round's requests/s of auto and of 2 threads are
divided by the same round's 1 thread.  With ``--contended`` every run, server
start to its stop, goes beside a busy loop that the benchmark starts and stops
(benchmarks/contention.py): a shared machine.  The rule (issue 44): the server at
its automatic count beside another busy process is never slower than at 1 thread
(a count fixed at 2 there is: docs/performance.md, "Threads").

Each client sends one Multi30k test sentence, waits for the answer, and sends the
next: through LibreTranslate's API (``--api libretranslate``, the default:
``{"q": ..., "source": "en", "target": "de"}``, the server's default beam 4) or
attnmt's own (``--api attnmt``: ``POST /v1/translate {"text": ..., "beam": B}``).
The server's access log goes to a temporary file.

Without ``--model`` an untrained model of the Multi30k config's shape is built
(tokenizer trained on 10,000 training lines): its translations are nonsense,
but each runs to its length limit, so the work per request is real.

Everything is bounded: the request count and ``--max-seconds`` per run (the run
stops early and says so), or the soak's duration.  The server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import httpx2
from contention import SAID, competing, load_average

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ROOT / "data/multi30k/test_2016_flickr.en.gz"
TRAIN_EN, TRAIN_DE = ROOT / "data/multi30k/train.en.gz", ROOT / "data/multi30k/train.de.gz"
RSS_EVERY = 5.0  # seconds between memory readings


def build_untrained_model(folder: Path) -> Path:
    """A Multi30k-shaped model (d_model 256, 3+3 layers) with random weights and a real tokenizer."""
    import torch

    from attnmt.checkpoint import save_model_config, save_weights
    from attnmt.model import Transformer, TransformerConfig
    from attnmt.text.data import read_lines
    from attnmt.text.tokenizer import Tokenizer

    lines = read_lines(TRAIN_EN)[:10_000] + read_lines(TRAIN_DE)[:10_000]
    tokenizer = Tokenizer.train(lines, vocab_size=8000)
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=256, n_heads=4, encoder_layers=3,
                               decoder_layers=3, d_ff=1024, max_positions=256)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save(folder / "spm.model")
    save_model_config(config, folder)
    save_weights(Transformer(config), folder / "model.safetensors")
    return folder


@dataclass
class Run:
    """What one load run measured."""

    mode: str
    sent: int = 0
    errors: list[str] = field(default_factory=list)
    limited: int = 0  # 429 answers to a server started with --req-limit
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests only
    seconds: float = 0.0
    batches: int = 0
    translated: int = 0
    stopped_early: bool = False
    load: str = "?"  # the 1-minute load average as the load ended
    server_cores: float = 0.0  # the server's CPU time over the load's wall time
    client_cores: float = 0.0  # the same for this process, the clients
    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds into the load, bytes)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000 if ordered else float("nan")

    def rss_growth(self, warmup: float) -> tuple[float, float, float] | None:
        """(MiB after the warm-up, MiB at the end, growth in %), or None without readings after it."""
        after = [rss for t, rss in self.rss if t >= warmup]
        if len(after) < 2:
            return None
        first, last = after[0] / 2**20, after[-1] / 2**20
        return round(first, 1), round(last, 1), round(100 * (last - first) / first, 2)

    def summary(self, warmup: float) -> dict:
        return {
            "mode": self.mode, "requests": self.sent, "errors": len(self.errors), "rate_limited": self.limited,
            "requests_per_s": round(len(self.latencies) / self.seconds, 2) if self.seconds else 0.0,
            "p50_ms": round(self.percentile(50), 1), "p95_ms": round(self.percentile(95), 1),
            "p99_ms": round(self.percentile(99), 1),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 1) if self.latencies else float("nan"),
            "mean_batch": round(self.translated / self.batches, 2) if self.batches else 0.0,
            "seconds": round(self.seconds, 2), "stopped_early": self.stopped_early, "load_average": self.load,
            "server_cores": round(self.server_cores, 2), "client_cores": round(self.client_cores, 2),
            "rss_mib_after_warmup_end_growth_pct": self.rss_growth(warmup),
        }


THREAD_COUNTS = ((0, "auto threads"), (1, "1 thread"), (2, "2 threads"))  # --threads, and how it is shown


def thread_ratios(results: list[dict]) -> list[dict]:
    """Per round, requests/s at auto threads and at 2 threads over that round's at 1 thread (printed)."""
    ratios = []
    for first in range(0, len(results), len(THREAD_COUNTS)):
        rate = {name: results[first + i]["requests_per_s"] for i, (_, name) in enumerate(THREAD_COUNTS)}
        ratio = {"round": first // len(THREAD_COUNTS) + 1}
        if not rate["1 thread"]:
            print(f"round {ratio['round']}: no request answered at 1 thread: no ratio", flush=True)
        else:
            ratio |= {name: round(rate[name] / rate["1 thread"], 3) for name in ("auto threads", "2 threads")}
            print(f"round {ratio['round']}: requests/s against 1 thread: auto {ratio['auto threads']:.3f}x, "
                  f"2 threads {ratio['2 threads']:.3f}x", flush=True)
        ratios.append(ratio)
    return ratios


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(args: argparse.Namespace, port: int, max_batch: int, threads: int, log: IO[str]) -> subprocess.Popen:
    command = [sys.executable, "-m", "attnmt", "serve", "--model", f"en-de={args.model}", "--port", str(port),
               "--batch-size", str(max_batch), "--threads", str(threads)]
    if args.req_limit:
        command += ["--req-limit", str(args.req_limit)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, text=True)


async def wait_until_healthy(client: httpx2.AsyncClient, server: subprocess.Popen, log: IO[str],
                             timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the server exited with status {server.returncode}: {log.read()[-2000:]}")
        try:
            return (await client.get("/health")).json()
        except httpx2.TransportError:
            await asyncio.sleep(0.2)
    raise TimeoutError(f"the server did not answer /health within {timeout:.0f} s")


def ask(api: str, sentence: str, beam: int) -> tuple[str, dict]:
    """The path and JSON body of one request."""
    if api == "libretranslate":
        return "/translate", {"q": sentence, "source": "en", "target": "de"}
    return "/v1/translate", {"text": sentence, "beam": beam}


def answered(api: str, body: dict) -> bool:
    return isinstance(body.get("translatedText"), str) if api == "libretranslate" else len(body["translations"]) == 1


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used (its /proc stat's utime + stime, read as attnmt.threads reads its own)."""
    from attnmt.threads import TICKS_PER_S, own_ticks

    return own_ticks(Path(f"/proc/{pid}/stat").read_text(encoding="ascii")) / TICKS_PER_S


def resident_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))


async def watch_memory(run: Run, pid: int, start: float) -> None:
    while True:
        run.rss.append((time.perf_counter() - start, resident_bytes(pid)))
        await asyncio.sleep(RSS_EVERY)


async def load(client: httpx2.AsyncClient, pid: int, run: Run, args: argparse.Namespace, sentences: list[str],
               requests: int | None, seconds: float) -> None:
    """``args.clients`` loops, each sending its next request as soon as its last one is answered,
    for ``requests`` requests (None: until ``seconds`` have passed)."""
    numbers = iter(range(requests)) if requests is not None else itertools.count()
    deadline = time.monotonic() + seconds

    async def one_client() -> None:
        for number in numbers:  # shared iterator: each request is sent by exactly one client
            if time.monotonic() > deadline:
                run.stopped_early = requests is not None
                return
            run.sent += 1
            path, body = ask(args.api, sentences[number % len(sentences)], args.beam)
            start = time.perf_counter()
            try:
                answer = await client.post(path, json=body)
                if answer.status_code == 429 and args.req_limit:
                    run.limited += 1
                elif answer.status_code == 200 and answered(args.api, answer.json()):
                    run.latencies.append(time.perf_counter() - start)
                else:
                    run.errors.append(f"HTTP {answer.status_code}: {answer.text[:200]}")
            except (httpx2.HTTPError, ValueError, KeyError) as error:
                run.errors.append(f"{type(error).__name__}: {error}")

    start, server_cpu, client_cpu = time.perf_counter(), cpu_seconds(pid), time.process_time()
    watcher = asyncio.create_task(watch_memory(run, pid, start))
    try:
        await asyncio.gather(*(one_client() for _ in range(args.clients)))
    finally:
        watcher.cancel()
    run.seconds = time.perf_counter() - start
    run.server_cores = (cpu_seconds(pid) - server_cpu) / run.seconds
    run.client_cores = (time.process_time() - client_cpu) / run.seconds
    run.load = load_average()
    run.rss.append((run.seconds, resident_bytes(pid)))


async def measure(mode: str, max_batch: int, args: argparse.Namespace, sentences: list[str],
                  requests: int | None, seconds: float, threads: int | None = None) -> Run:
    """One run against a fresh server (``threads``: its --threads; None: ``args.threads``), beside a busy
    loop from the server's start to its stop where ``args.contended``."""
    port = free_port()
    run = Run(mode)
    limits = httpx2.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log, competing(args.contended):
        server = start_server(args, port, max_batch, args.threads if threads is None else threads, log)
        try:
            async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits,
                                          timeout=httpx2.Timeout(120.0)) as client:
                await wait_until_healthy(client, server, log)
                for sentence in sentences[:3]:  # warm-up, not counted
                    path, body = ask(args.api, sentence, args.beam)
                    await client.post(path, json=body)
                before = (await client.get("/health")).json()
                await load(client, server.pid, run, args, sentences, requests, seconds)
                after = (await client.get("/health")).json()
                run.batches = after["batches"] - before["batches"]
                run.translated = after["translated"] - before["translated"]
        finally:
            server.terminate()
            server.wait(timeout=60)
    return run


def report(runs: list[Run], args: argparse.Namespace) -> list[dict]:
    results = [run.summary(args.warmup) for run in runs]
    width = max(28, *(len(r["mode"]) + 2 for r in results))
    print(f"\n{'mode':<{width}}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'429s':>7}"
          f"{'batch':>7}{'load':>7}{'server':>8}{'client':>8}")
    for r in results:
        note = "  (stopped at --max-seconds)" if r["stopped_early"] else ""
        print(f"{r['mode']:<{width}}{r['requests_per_s']:>8.1f}{r['p50_ms']:>9.0f}{r['p95_ms']:>9.0f}"
              f"{r['p99_ms']:>9.0f}{r['errors']:>8}{r['rate_limited']:>7}{r['mean_batch']:>7.1f}{r['load_average']:>7}"
              f"{r['server_cores']:>8.2f}{r['client_cores']:>8.2f}{note}")
        if growth := r["rss_mib_after_warmup_end_growth_pct"]:
            print(f"{'':<28}server RSS {growth[0]} MiB after {args.warmup:.0f} s of load, {growth[1]} MiB at the "
                  f"end: {growth[2]:+.1f} %")
    for run in runs:
        for error in run.errors[:3]:
            print(f"{run.mode}: {error}", file=sys.stderr)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="model directory (default: build an untrained Multi30k-shaped one)")
    parser.add_argument("--api", choices=("libretranslate", "attnmt"), default="libretranslate")
    parser.add_argument("--requests", type=int, default=1000, help="requests per run (comparison)")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--beam", type=int, default=4, help="beam size (--api attnmt)")
    parser.add_argument("--max-batch", type=int, default=32, help="the batched server's --batch-size")
    parser.add_argument("--threads", type=int, default=0, help="the server's PyTorch threads (0: its default)")
    parser.add_argument("--max-seconds", type=float, default=300, help="time limit of each comparison run")
    parser.add_argument("--soak", type=float, help="instead: one batched run of this many seconds, memory watched")
    parser.add_argument("--warmup", type=float, default=30, help="seconds of soak before the memory baseline")
    parser.add_argument("--req-limit", type=int, help="the server's requests per minute per address")
    parser.add_argument("--threads-compare", action="store_true",
                        help="instead: the batched server at --threads 0 (auto), 1 and 2 in turn, --rounds times")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of --threads-compare")
    parser.add_argument("--contended", action="store_true",
                        help="every run beside a busy loop that the benchmark starts and stops")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if min(args.requests, args.clients, args.max_batch, args.rounds) < 1:
        parser.error("--requests, --clients, --max-batch and --rounds must be at least 1")
    if args.threads_compare and args.soak:
        parser.error("--threads-compare and --soak are two different runs: choose one")

    from attnmt.text.data import read_lines

    sentences = [line for line in read_lines(SENTENCES) if line.strip()]
    model_name = str(args.model or "untrained Multi30k-shaped model")
    with tempfile.TemporaryDirectory() as scratch:
        if args.model is None:
            print("building an untrained Multi30k-shaped model (no --model given) ...", flush=True)
            args.model = build_untrained_model(Path(scratch) / "untrained")
        if args.soak:
            print(f"soak: {args.clients} clients for {args.soak:.0f} s through {args.api}'s API ...", flush=True)
            runs = [asyncio.run(measure(f"soak (max_batch {args.max_batch})", args.max_batch, args, sentences,
                                        None, args.soak))]
        elif args.threads_compare:
            runs = []
            for round_ in range(1, args.rounds + 1):
                for threads, name in THREAD_COUNTS:
                    mode = f"round {round_}: {name}"
                    print(f"{mode}: {args.requests} requests from {args.clients} clients ...", flush=True)
                    runs.append(asyncio.run(measure(mode, args.max_batch, args, sentences, args.requests,
                                                    args.max_seconds, threads)))
        else:
            runs = []
            for mode, max_batch in ((f"batched (max_batch {args.max_batch})", args.max_batch), ("one at a time", 1)):
                print(f"{mode}: {args.requests} requests from {args.clients} clients ...", flush=True)
                runs.append(asyncio.run(measure(mode, max_batch, args, sentences, args.requests, args.max_seconds)))

    results = report(runs, args)
    from attnmt.hardware import cpu_flags, cpu_model

    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_int8"}))
    summary = {"runs": results, "model": model_name, "api": args.api, "clients": args.clients,
               "cpu_cores": os.cpu_count(), "machine": platform.machine(), "cpu": f"{cpu_model()} ({flags})",
               "contended": args.contended, "command": " ".join(sys.argv)}
    beam = f"beam {args.beam}" if args.api == "attnmt" else "the server's default beam"
    print(f"command: {summary['command']}\nCPU {summary['cpu']}, {os.cpu_count()} cores; model {model_name}; "
          f"{args.api}'s API, {beam}; {args.clients} clients" + (f"; {SAID}" if args.contended else ""))
    if args.threads_compare:
        summary["against_1_thread"] = thread_ratios(results)
    elif not args.soak and results[1]["requests_per_s"]:
        summary["speedup"] = round(results[0]["requests_per_s"] / results[1]["requests_per_s"], 2)
        print(f"batching speed-up: {summary['speedup']:.2f}x requests/s ({args.clients} clients, "
              f"{os.cpu_count()} CPU cores, {platform.machine()})", flush=True)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    if any(run.errors for run in runs):
        sys.exit(1)


if __name__ == "__main__":
    main()
