"""CTranslate2 as its users run it, for benchmarks/decode.py: a process that imports ctranslate2
and the standard library only (no torch, no attnmt: a second OpenMP runtime beside CTranslate2's
slowed it 1.7-2.4x on 2 cores).

    python benchmarks/peers/ctranslate2_worker.py --model-dir CT2_DIR --input batches.json --result out.json

The parent tokenises; ``batches.json`` holds {"batches": [[[piece, …], …], …] (sorted by length),
"natural_limits": [decoding steps per batch], "fixed_steps", "modes", "beams", "threads", "batch"}.
The result holds, per mode and beam, the warm-up and timed seconds and the output pieces, this
process's peak RSS, and whether torch was ever imported here (it must not be).
"""

import argparse
import json
import sys
import time
from pathlib import Path

import ctranslate2


def peak_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--result", required=True)
    args = parser.parse_args()
    job = json.loads(Path(args.input).read_text(encoding="utf-8"))
    translator = ctranslate2.Translator(args.model_dir, device="cpu", intra_threads=job["threads"], inter_threads=1)

    def run(index: int, beam: int, fixed: bool) -> list[list[str]]:
        steps = job["fixed_steps"]
        limits = (dict(min_decoding_length=steps, max_decoding_length=steps) if fixed
                  else dict(max_decoding_length=job["natural_limits"][index]))
        results = translator.translate_batch(job["batches"][index], beam_size=beam, length_penalty=0.0,
                                             max_batch_size=job["batch"], **limits)
        return [r.hypotheses[0] for r in results]

    runs = []
    for mode in job["modes"]:
        for beam in job["beams"]:
            fixed = mode == "fixed"
            started = time.perf_counter()
            run(0, beam, fixed)  # warm-up
            warmup = time.perf_counter() - started
            started = time.perf_counter()
            outputs = [out for index in range(len(job["batches"])) for out in run(index, beam, fixed)]
            runs.append(dict(mode=mode, beam=beam, seconds=time.perf_counter() - started, outputs=outputs,
                             warmup=warmup))
    result = dict(runs=runs, rss_mib=peak_rss_mib(), torch_imported="torch" in sys.modules)
    Path(args.result).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
