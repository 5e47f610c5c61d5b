"""What a file job's review costs: the same text file through ``attnmt serve``'s ``POST /v1/files``
with and without ``review=true``, taking turns.

    .venv/bin/python benchmarks/experiments/file_review.py --model runs/multi30k_en_de [--lines 200] [--rounds 5]

The file is the first ``--lines`` English lines of Multi30k's test_2016_flickr.  The server is
``attnmt serve --model M --threads 2`` as a user starts it; each job is timed from its POST to its
``done`` event (its events followed as a client follows them), and by the CPU time the server
process spent meanwhile (all its threads: steadier than the wall clock on a shared machine).  The
two kinds alternate, the first of each round swapped; each kind's median is reported, with the
review's rows.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from attnmt.hardware import cpu_model

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "data/multi30k/test_2016_flickr.en.gz"


def healthy(url: str, server: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"attnmt serve exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"attnmt serve did not answer {url}/health within {timeout:.0f} s")


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system, all its threads (Linux's /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def submitted(url: str, data: bytes, review: bool) -> dict:
    """POST /v1/files: ``data`` as test.txt, with ``review``; the submit answer."""
    boundary = "attnmt-benchmark-boundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="review"\r\n\r\n{str(review).lower()}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="test.txt"\r\n'
            f"Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{url}/v1/files", body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def job_seconds(url: str, data: bytes, review: bool) -> tuple[float, dict]:
    """Seconds from the POST to the job's ``done`` event (its events followed), and the submit answer."""
    start = time.perf_counter()
    job = submitted(url, data, review)
    with urllib.request.urlopen(url + job["events_url"], timeout=600) as events:
        for line in events:
            if line.startswith(b"event: error"):
                raise SystemExit(f"the job failed: {events.read(2000)!r}")
            if line.strip() == b"event: done":
                break
    return time.perf_counter() - start, job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--lines", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with gzip.open(SOURCE, "rt", encoding="utf-8") as f:
        data = "".join(line for _, line in zip(range(args.lines), f, strict=False)).encode()
    url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen([sys.executable, "-m", "attnmt", "serve", "--model", args.model, "--port",
                               str(args.port), "--threads", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        healthy(url, server)
        times: dict[bool, list[float]] = {False: [], True: []}
        cpu: dict[bool, list[float]] = {False: [], True: []}
        _, reviewed = job_seconds(url, data, True)  # warm-up: the first job's imports and first batches
        for round_ in range(args.rounds):
            for review in ((False, True) if round_ % 2 == 0 else (True, False)):
                before = cpu_seconds(server.pid)
                seconds, _ = job_seconds(url, data, review)
                times[review].append(seconds)
                cpu[review].append(cpu_seconds(server.pid) - before)
        with urllib.request.urlopen(url + reviewed["review_url"], timeout=60) as answer:
            table = json.load(answer)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"CPU: {cpu_model()}; attnmt serve --threads 2; {args.lines} lines of {SOURCE.name}; "
          f"{args.rounds} rounds, alternated")
    for kind, seconds in times.items():
        print(f"review={str(kind).lower():5}  wall: median {statistics.median(seconds):.3f} s, fastest "
              f"{min(seconds):.3f} s, all {json.dumps([round(s, 3) for s in seconds])}")
        print(f"{'':12}  server CPU: median {statistics.median(cpu[kind]):.2f} s, all "
              f"{json.dumps([round(s, 2) for s in cpu[kind]])}")
    for name, found in (("wall", times), ("server CPU", cpu)):
        ratio = statistics.median(found[True]) / statistics.median(found[False])
        print(f"{name}, median with review / without: {ratio:.3f}")
    print(f"review: {len(table['rows'])} of {table['sentences']} sentences under {table['threshold']} "
          f"(calibrated: {table['calibrated']})")


if __name__ == "__main__":
    main()
