"""The training step with this tree's output-and-loss (``OutputLoss``) against another version's,
alternated step by step in one process (so a slower or busier moment of the machine hits both alike).

    git show REV:src/attnmt/training/objective.py > /tmp/objective_before.py
    .venv/bin/python benchmarks/experiments/output_loss_ab.py /tmp/objective_before.py [--steps 12]

Two copies of the Multi30k config's model, the same Multi30k batches (max_tokens 4096), each
with its own fused Adam; fp32 (or bf16 autocast, as the trainer runs it, with ``--precision
bf16``), 2 threads.  The first two steps are not timed; the order of the two
alternates from step to step.  Prints both losses of the first steps (they must agree: the two
compute the same function), target tokens/s of each, the seconds spent in ``OutputLoss`` (its
forward pass computes the gradients too) and the speed ratio.
"""

import argparse
import copy
import importlib.util
import sys
import time
from pathlib import Path

import torch

from attnmt.hardware import cpu_flags, cpu_model
from attnmt.model import Transformer
from attnmt.train_config import load_config
from attnmt.training import objective
from attnmt.training.trainer import autocast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/train_step.py's helpers
from train_step import multi30k_batches  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WARMUP = 2


def timed(module, seconds: dict, name: str) -> None:
    """Counts the seconds spent in ``module.OutputLoss.apply``."""
    apply = module.OutputLoss.apply

    def counted(*args):
        started = time.perf_counter()
        result = apply(*args)
        seconds[name] += time.perf_counter() - started
        return result

    module.OutputLoss.apply = counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path, help="another version's src/attnmt/training/objective.py")
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--precision", choices=("fp32", "bf16"), default="fp32")
    args = parser.parse_args()
    torch.set_num_threads(2)
    spec = importlib.util.spec_from_file_location("baseline_objective", args.baseline)
    baseline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(baseline)

    config = load_config(ROOT / "configs/multi30k_en_de.yaml")
    tokenizer, batches = multi30k_batches(config, args.steps + WARMUP)
    torch.manual_seed(0)
    model = Transformer(config.model_config(tokenizer.vocab_size))

    in_loss = {"before": 0.0, "this tree": 0.0}
    steps = {}
    for name, module in (("before", baseline), ("this tree", objective)):
        timed(module, in_loss, name)
        copy_ = copy.deepcopy(model)
        loss = module.TranslationLoss(copy_, config.label_smoothing)
        optimizer = torch.optim.Adam(copy_.parameters(), betas=config.adam_betas, eps=config.adam_eps, fused=True)

        def step(batch, loss=loss, optimizer=optimizer) -> float:
            torch.manual_seed(1)  # the same dropout masks on both sides
            with autocast(args.precision, torch.device("cpu")):
                value = loss(batch.src, batch.tgt_in, batch.tgt_out) / batch.n_tgt_tokens
            value.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            return value.item()

        steps[name] = step

    seconds, tokens = dict.fromkeys(steps, 0.0), 0
    for i, batch in enumerate(batches):
        if i == WARMUP:
            in_loss.update(dict.fromkeys(in_loss, 0.0))
        order = list(steps) if i % 2 == 0 else list(reversed(steps))
        values = {}
        for name in order:
            started = time.perf_counter()
            values[name] = steps[name](batch)
            if i >= WARMUP:
                seconds[name] += time.perf_counter() - started
        if i >= WARMUP:
            tokens += int(batch.n_tgt_tokens)
        if i < 3:
            print(f"step {i + 1} loss: " + ", ".join(f"{name} {value:.6f}" for name, value in values.items()))
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); {args.precision}, 2 threads; {args.steps} Multi30k batches (max_tokens "
          f"{config.max_tokens}), d_model {config.model['d_model']}, vocab {tokenizer.vocab_size}; "
          "alternated step by step")
    for name in steps:
        print(f"  {name:10s} {tokens / seconds[name]:6.0f} target tokens/s  {seconds[name] / args.steps:.3f} s/step  "
              f"OutputLoss {in_loss[name] / args.steps:.3f} s/step")
    print(f"  this tree / before, speed: {seconds['before'] / seconds['this tree']:.3f}")


if __name__ == "__main__":
    main()
