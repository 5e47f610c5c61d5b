"""Hugging Face Marian as its users run it, for benchmarks/decode.py: a process that imports torch,
transformers and the standard library only (no attnmt).

    python benchmarks/peers/huggingface_worker.py --model-dir MARIAN_DIR --input batches.json --result out.json

The parent tokenises and maps the ids to the export's Marian order; ``batches.json`` holds
{"batches": [[[marian id, …], …], …] (sorted by length), "natural_limits": [new tokens per batch],
"fixed_steps", "modes", "beams", "threads"}.  The result holds, per mode and beam, the warm-up and
timed seconds and the output ids (Marian's, without pad and EOS), this process's peak RSS, and
whether attnmt was ever imported here (it must not be).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the Hub

import torch  # noqa: E402
import transformers  # noqa: E402


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
    torch.set_num_threads(job["threads"])
    transformers.logging.set_verbosity_error()  # not its notes on our explicit length settings
    model = transformers.MarianMTModel.from_pretrained(args.model_dir).eval()
    pad, eos = model.config.pad_token_id, model.config.eos_token_id

    @torch.inference_mode()
    def run(index: int, beam: int, fixed: bool) -> list[list[int]]:
        batch = job["batches"][index]
        ids = torch.full((len(batch), max(map(len, batch))), pad)
        for i, row in enumerate(batch):
            ids[i, : len(row)] = torch.tensor(row)
        steps = job["fixed_steps"]
        limits = (dict(min_new_tokens=steps, max_new_tokens=steps) if fixed
                  else dict(max_new_tokens=job["natural_limits"][index]))
        out = model.generate(input_ids=ids, attention_mask=(ids != pad).long(), num_beams=beam, do_sample=False,
                             length_penalty=0.0, early_stopping=beam > 1, **limits)
        return [[t for t in row[1:].tolist() if t not in (pad, eos)] for row in out]

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
    result = dict(runs=runs, rss_mib=peak_rss_mib(), attnmt_imported="attnmt" in sys.modules)
    Path(args.result).write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()
