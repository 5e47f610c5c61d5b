"""Load test of `attnmt serve` on loopback: requests/s, latency percentiles, errors, and what batching buys.

    .venv/bin/python benchmarks/serve_load.py --model runs/demo            # 1,000 requests from 32 clients
    .venv/bin/python benchmarks/serve_load.py --requests 100 --clients 8   # a quick look

The same load runs twice against a fresh server each time: with batching
(``--max-batch 32``) and one request at a time (``--max-batch 1``); the speed-up
is the ratio of their requests/s.  Each client sends one Multi30k test sentence
(``{"text": ..., "beam": 4}``), waits for the answer, and sends the next.

Without ``--model`` an untrained model of the Multi30k config's shape is built
(tokenizer trained on 10,000 training lines): its translations are nonsense,
but each runs to its length limit, so the work per request is real.

Everything is bounded: the request count, and ``--max-seconds`` per run (the run
stops early and says so).  The server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
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

import httpx2

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ROOT / "data/multi30k/test_2016_flickr.en.gz"
TRAIN_EN, TRAIN_DE = ROOT / "data/multi30k/train.en.gz", ROOT / "data/multi30k/train.de.gz"


def build_untrained_model(folder: Path) -> Path:
    """A Multi30k-shaped model (d_model 256, 3+3 layers) with random weights and a real tokenizer."""
    import torch

    from attnmt.checkpoint import save_model_config, save_weights
    from attnmt.data import read_lines
    from attnmt.model import Transformer, TransformerConfig
    from attnmt.tokenizer import Tokenizer

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
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests only
    seconds: float = 0.0
    batches: int = 0
    translated: int = 0
    stopped_early: bool = False

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000 if ordered else float("nan")

    def summary(self) -> dict:
        return {
            "mode": self.mode, "requests": self.sent, "errors": len(self.errors),
            "requests_per_s": round(len(self.latencies) / self.seconds, 2) if self.seconds else 0.0,
            "p50_ms": round(self.percentile(50), 1), "p95_ms": round(self.percentile(95), 1),
            "p99_ms": round(self.percentile(99), 1),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 1) if self.latencies else float("nan"),
            "mean_batch": round(self.translated / self.batches, 2) if self.batches else 0.0,
            "seconds": round(self.seconds, 2), "stopped_early": self.stopped_early,
        }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(model: Path, port: int, max_batch: int, threads: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "attnmt", "serve", "--model", str(model), "--port", str(port),
               "--batch-size", str(max_batch), "--threads", str(threads)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


async def wait_until_healthy(client: httpx2.AsyncClient, server: subprocess.Popen, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with status {server.returncode}: {server.stderr.read()}")
        try:
            return (await client.get("/health")).json()
        except httpx2.TransportError:
            await asyncio.sleep(0.2)
    raise TimeoutError(f"the server did not answer /health within {timeout:.0f} s")


async def load(client: httpx2.AsyncClient, run: Run, sentences: list[str], requests: int, clients: int,
               beam: int, max_seconds: float) -> None:
    """``clients`` loops, each sending its next request as soon as its last one is answered."""
    numbers = iter(range(requests))
    deadline = time.monotonic() + max_seconds

    async def one_client() -> None:
        for number in numbers:  # shared iterator: each request is sent by exactly one client
            if time.monotonic() > deadline:
                run.stopped_early = True
                return
            run.sent += 1
            start = time.perf_counter()
            try:
                answer = await client.post("/translate", json={"text": sentences[number % len(sentences)],
                                                               "beam": beam})
                if answer.status_code == 200 and len(answer.json()["translations"]) == 1:
                    run.latencies.append(time.perf_counter() - start)
                else:
                    run.errors.append(f"HTTP {answer.status_code}: {answer.text[:200]}")
            except (httpx2.HTTPError, ValueError, KeyError) as error:
                run.errors.append(f"{type(error).__name__}: {error}")

    start = time.perf_counter()
    await asyncio.gather(*(one_client() for _ in range(clients)))
    run.seconds = time.perf_counter() - start


async def measure(mode: str, max_batch: int, args: argparse.Namespace, sentences: list[str]) -> Run:
    port = free_port()
    server = start_server(args.model, port, max_batch, args.threads)
    run = Run(mode)
    limits = httpx2.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    try:
        async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits,
                                      timeout=httpx2.Timeout(120.0)) as client:
            await wait_until_healthy(client, server)
            for sentence in sentences[:3]:  # warm-up, not counted
                await client.post("/translate", json={"text": sentence, "beam": args.beam})
            before = (await client.get("/health")).json()
            await load(client, run, sentences, args.requests, args.clients, args.beam, args.max_seconds)
            after = (await client.get("/health")).json()
            run.batches = after["batches"] - before["batches"]
            run.translated = after["translated"] - before["translated"]
    finally:
        server.terminate()
        server.wait(timeout=30)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="model directory (default: build an untrained Multi30k-shaped one)")
    parser.add_argument("--requests", type=int, default=1000, help="requests per run")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--max-batch", type=int, default=32, help="the batched server's --max-batch")
    parser.add_argument("--threads", type=int, default=0, help="the server's PyTorch threads (0: its default)")
    parser.add_argument("--max-seconds", type=float, default=300, help="time limit of each run")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if min(args.requests, args.clients, args.max_batch) < 1:
        parser.error("--requests, --clients and --max-batch must be at least 1")

    from attnmt.data import read_lines

    sentences = [line for line in read_lines(SENTENCES) if line.strip()]
    model_name = str(args.model or "untrained Multi30k-shaped model")
    with tempfile.TemporaryDirectory() as scratch:
        if args.model is None:
            print("building an untrained Multi30k-shaped model (no --model given) ...", flush=True)
            args.model = build_untrained_model(Path(scratch) / "untrained")
        runs = []
        for mode, max_batch in ((f"batched (max_batch {args.max_batch})", args.max_batch), ("one at a time", 1)):
            print(f"{mode}: {args.requests} requests from {args.clients} clients ...", flush=True)
            runs.append(asyncio.run(measure(mode, max_batch, args, sentences)))

    results = [run.summary() for run in runs]
    print(f"\n{'mode':<24}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'batch':>7}")
    for r in results:
        note = "  (stopped at --max-seconds)" if r["stopped_early"] else ""
        print(f"{r['mode']:<24}{r['requests_per_s']:>8.1f}{r['p50_ms']:>9.0f}{r['p95_ms']:>9.0f}{r['p99_ms']:>9.0f}"
              f"{r['errors']:>8}{r['mean_batch']:>7.1f}{note}")
    speedup = results[0]["requests_per_s"] / results[1]["requests_per_s"] if results[1]["requests_per_s"] else 0.0
    print(f"batching speed-up: {speedup:.2f}x requests/s ({args.clients} clients, beam {args.beam}, "
          f"{os.cpu_count()} CPU cores, {platform.machine()})", flush=True)
    for run in runs:
        for error in run.errors[:3]:
            print(f"{run.mode}: {error}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "speedup": round(speedup, 2), "model": model_name,
                                         "clients": args.clients, "beam": args.beam}, indent=2) + "\n")
    if any(run.errors for run in runs):
        sys.exit(1)


if __name__ == "__main__":
    main()
