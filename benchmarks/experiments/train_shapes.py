"""Seconds per training step of several model shapes on the same Multi30k batches, the shapes
alternated step by step in one process (so a slower or busier moment of the machine hits all alike).

    .venv/bin/python benchmarks/experiments/train_shapes.py [--steps 8] [--threads 2]

This is how configs/multi30k_en_de.yaml's shape was weighed for its 30-minute budget (issue 47;
docs/training.md, "How the config was chosen"): a shape that costs less a step takes more steps
in the time.  attnmt's TranslationLoss and fused Adam, as the trainer runs them, in fp32.
"""

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

from attnmt.hardware import cpu_flags, cpu_model
from attnmt.model import Transformer
from attnmt.train_config import load_config
from attnmt.training.objective import TranslationLoss

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/train_step.py's helpers
from train_step import multi30k_batches  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHAPES = {  # changes to configs/multi30k_en_de.yaml's model section
    "d_model 256, d_ff 1024": dict(d_model=256, d_ff=1024),
    "d_model 256, d_ff 512": dict(d_model=256, d_ff=512),
    "d_model 192, d_ff 768 (the config)": dict(d_model=192, d_ff=768),
    "d_model 128, d_ff 512, 4+4 layers": dict(d_model=128, d_ff=512, encoder_layers=4, decoder_layers=4),
}
WARMUP = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    config = load_config(ROOT / "configs/multi30k_en_de.yaml")
    tokenizer, batches = multi30k_batches(config, args.steps + WARMUP)
    base = config.model_config(tokenizer.vocab_size)

    steps, sizes = {}, {}
    for name, changes in SHAPES.items():
        torch.manual_seed(0)
        model = Transformer(replace(base, **changes))
        loss = TranslationLoss(model, config.label_smoothing)
        optimizer = torch.optim.Adam(model.parameters(), betas=config.adam_betas, eps=config.adam_eps, fused=True)

        def step(batch, loss=loss, optimizer=optimizer):
            (loss(batch.src, batch.tgt_in, batch.tgt_out) / batch.n_tgt_tokens).backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

        steps[name], sizes[name] = step, sum(p.numel() for p in model.parameters())

    seconds, tokens = dict.fromkeys(steps, 0.0), 0
    for i, batch in enumerate(batches):
        for name, step in steps.items():
            started = time.perf_counter()
            step(batch)
            if i >= WARMUP:
                seconds[name] += time.perf_counter() - started
        if i >= WARMUP:
            tokens += int(batch.n_tgt_tokens)
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); fp32, {args.threads} threads; {args.steps} Multi30k batches "
          f"(max_tokens {config.max_tokens}), shapes alternated step by step")
    first = next(iter(seconds))
    for name in steps:
        print(f"  {name:36s} {sizes[name] / 1e6:5.2f}M parameters  {tokens / seconds[name]:6.0f} target tokens/s  "
              f"{seconds[name] / args.steps:.3f} s/step  ({seconds[name] / seconds[first]:.2f}x the first)")


if __name__ == "__main__":
    main()
