"""Where a training step's time goes: torch.profiler over Multi30k training steps, per op.

    .venv/bin/python benchmarks/experiments/train_profile.py [--precision bf16] [--steps 7]

The Multi30k config's model, Multi30k batches (max_tokens 4096), the trainer's loss and
precision (bf16 under autocast, as the trainer runs it), fused Adam; three warm-up steps,
then ``--steps`` timed and profiled ones.  Prints seconds per step and the ops by self CPU time.
"""

from __future__ import annotations

import argparse
import time

import torch
from torch.profiler import ProfilerActivity, profile

from attnmt.batching import TokenBatcher
from attnmt.config import load_config
from attnmt.corpus import TokenCorpus
from attnmt.data import encode_pairs, read_parallel
from attnmt.hardware import bound_kernel_caches, cpu_model
from attnmt.model import Transformer
from attnmt.tokenizer import Tokenizer
from attnmt.training.objective import TranslationLoss
from attnmt.training.trainer import autocast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/multi30k_en_de.yaml")
    parser.add_argument("--precision", choices=("fp32", "bf16"), default="bf16")
    parser.add_argument("--steps", type=int, default=7)
    args = parser.parse_args()
    bound_kernel_caches()
    config = load_config(args.config)
    pairs, _ = read_parallel(config.train_src, config.train_tgt)
    tokenizer = Tokenizer.train([s for p in pairs for s in p], config.vocab_size)
    examples, _ = encode_pairs(pairs, tokenizer, config.max_len)
    stream = iter(TokenBatcher(TokenCorpus.from_examples(examples), config.max_tokens, seed=0))
    batches = [next(stream) for _ in range(args.steps + 3)]
    torch.manual_seed(0)
    model = Transformer(config.model_config(tokenizer.vocab_size))
    loss = TranslationLoss(model, config.label_smoothing)
    optimizer = torch.optim.Adam(model.parameters(), betas=config.adam_betas, eps=config.adam_eps, fused=True)

    def step(batch):
        with autocast(args.precision, torch.device("cpu")):
            value = loss(batch.src, batch.tgt_in, batch.tgt_out)
        (value / batch.n_tgt_tokens).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    for batch in batches[:3]:
        step(batch)
    started = time.perf_counter()
    for batch in batches[3:]:
        step(batch)
    seconds = (time.perf_counter() - started) / args.steps
    with profile(activities=[ProfilerActivity.CPU]) as profiler:
        for batch in batches[3:]:
            step(batch)
    print(f"CPU {cpu_model()}; PyTorch kernels {torch.backends.cpu.get_cpu_capability()}; {args.precision}, "
          f"{torch.get_num_threads()} threads; {seconds:.3f} s/step unprofiled, {args.steps} steps profiled")
    print(profiler.key_averages().table(sort_by="self_cpu_time_total", row_limit=30, max_name_column_width=60))


if __name__ == "__main__":
    main()
