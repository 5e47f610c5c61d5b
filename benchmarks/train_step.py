"""Training throughput: attnmt against the same model built from torch.nn.Transformer.

    .venv/bin/python benchmarks/train_step.py [--config configs/multi30k_en_de.yaml] [--steps 12]
        [--precision auto|fp32|bf16]

Both models have the Multi30k config's sizes, get the same Multi30k token batches in
the same order (and then the same unpadded batches of 256 × 16 random tokens, the
shape a peer's own benchmark would use), the same precision (``auto``: the one the trainer picks on this CPU;
bf16 is autocast on both sides, as the trainer does), and Adam.  The peer is written the way its
documentation shows (nn.Transformer with a causal mask and key padding masks, tied
embeddings, cross_entropy with label smoothing over every position, torch.optim.Adam
with its defaults).  Prints the CPU, the precision, real and padded tokens, target
tokens/s of each, the ratio (target ≥ 1.2), the model FLOP utilisation against this
machine's measured matmul peak in that precision, and peak RSS.
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from attnmt.fast import extension
from attnmt.hardware import cpu_flags, cpu_model, resolve_precision
from attnmt.layers import sinusoidal_table
from attnmt.model import Transformer
from attnmt.text.data import Batch, encode_pairs
from attnmt.text.parallel_text import read_parallel
from attnmt.text.tokenizer import Tokenizer
from attnmt.train_config import load_config
from attnmt.training.batching import TokenBatcher
from attnmt.training.corpus import TokenCorpus
from attnmt.training.objective import TranslationLoss
from attnmt.training.trainer import autocast

ROOT = Path(__file__).resolve().parents[1]

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


class TorchTransformer(nn.Module):
    """The same architecture from torch.nn parts."""

    def __init__(self, vocab: int, d: int, heads: int, layers: int, ff: int, dropout: float) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.register_buffer("pe", sinusoidal_table(1024, d), persistent=False)
        self.dropout = nn.Dropout(dropout)
        self.transformer = nn.Transformer(d, heads, layers, layers, ff, dropout, batch_first=True)
        self.output = nn.Linear(d, vocab, bias=False)
        self.output.weight = self.embed.weight
        self.scale = math.sqrt(d)

    def forward(self, src, tgt_in):
        def embed(tokens):
            return self.dropout(self.embed(tokens) * self.scale + self.pe[: tokens.size(1)])

        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1))
        hidden = self.transformer(embed(src), embed(tgt_in), tgt_mask=causal, tgt_is_causal=True,
                                  src_key_padding_mask=src == 0, memory_key_padding_mask=src == 0)
        return self.output(hidden)


def multi30k_batches(config, count: int) -> tuple[Tokenizer, list[Batch]]:
    """A config's tokenizer, trained on its training corpora, and the first ``count`` token batches
    of them (max_tokens, seed 0): what the training benchmarks and experiments time.  The config's
    relative paths are read from the repository root."""
    pairs, _ = read_parallel(ROOT / config.train_src, ROOT / config.train_tgt)
    tokenizer = Tokenizer.train([s for p in pairs for s in p], config.vocab_size)
    examples, _ = encode_pairs(pairs, tokenizer, config.max_len)
    stream = iter(TokenBatcher(TokenCorpus.from_examples(examples), config.max_tokens, seed=0))
    return tokenizer, [next(stream) for _ in range(count)]


def matmul_peak_gflops(dtype: torch.dtype, size: int = 2048, repeats: int = 10, tries: int = 3) -> float:
    """The best of ``tries`` timings: on a shared machine the slower ones measure the neighbours."""
    a, b = torch.randn(size, size, dtype=dtype), torch.randn(size, size, dtype=dtype)
    a @ b
    best = 0.0
    for _ in range(tries):
        started = time.perf_counter()
        for _ in range(repeats):
            a @ b
        best = max(best, 2 * size**3 * repeats / (time.perf_counter() - started) / 1e9)
    return best


def unpadded_batches(count: int, vocab: int, rows: int = 256, length: int = 16) -> list[Batch]:
    """Batches without padding: every sentence ``length`` random tokens, on both sides."""
    generator = torch.Generator().manual_seed(0)
    batches = []
    for _ in range(count):
        src, tgt = (torch.randint(4, vocab, (rows, length), generator=generator) for _ in range(2))
        tgt_in = torch.cat([torch.full((rows, 1), 2), tgt[:, :-1]], dim=1)
        batches.append(Batch(src, tgt_in, tgt, src.numel(), tgt.numel()))
    return batches


def step_flops(batch, d: int, layers: int, ff: int, vocab: int) -> float:
    """Matmul FLOPs of one training step (forward + backward = 3 × forward), padding included."""
    b, s = batch.src.shape
    t = batch.tgt_in.size(1)
    encoder = layers * b * s * (2 * 4 * d * d + 2 * 2 * d * ff + 2 * 2 * s * d)
    decoder = layers * b * (t * (2 * 4 * d * d + 2 * 2 * d * d + 2 * 2 * d * ff + 2 * 2 * t * d + 2 * 2 * s * d)
                            + s * 2 * 2 * d * d)
    output = 2 * batch.n_tgt_tokens * d * vocab
    return 3 * (encoder + decoder + output)


def main() -> None:
    extension.available()  # training's CPU kernels, as `attnmt train` loads them
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/multi30k_en_de.yaml")
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--precision", choices=("auto", "fp32", "bf16"), default="auto",
                        help="auto: what the trainer picks on this CPU")
    parser.add_argument("--compile", action="store_true",
                        help="also attnmt under torch.compile (dynamic shapes); 4 warm-up steps, not 2")
    args = parser.parse_args()
    warmup = 4 if args.compile else 2
    precision, why = resolve_precision(args.precision, torch.device("cpu"))
    config = load_config(args.config)
    tokenizer, batches = multi30k_batches(config, args.steps + warmup)
    m = config.model_config(tokenizer.vocab_size)

    def attnmt_step(compiled: bool):
        torch.manual_seed(0)
        model = Transformer(m)
        loss = TranslationLoss(model, config.label_smoothing)
        if compiled:
            # Measured, not adopted: no faster than eager here (the trainer does not compile).
            loss = torch.compile(loss, dynamic=True)
        optimizer = torch.optim.Adam(model.parameters(), betas=config.adam_betas, eps=config.adam_eps, fused=True)

        def step(batch):
            with autocast(precision, torch.device("cpu")):
                value = loss(batch.src, batch.tgt_in, batch.tgt_out)
            (value / batch.n_tgt_tokens).backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

        return step

    theirs = TorchTransformer(m.vocab_size, m.d_model, m.n_heads, m.encoder_layers, m.d_ff, m.dropout)
    theirs_opt = torch.optim.Adam(theirs.parameters(), betas=config.adam_betas, eps=config.adam_eps)

    def step_theirs(batch):
        with autocast(precision, torch.device("cpu")):
            logits = theirs(batch.src, batch.tgt_in)
            loss = F.cross_entropy(logits.flatten(0, 1).float(), batch.tgt_out.flatten(), ignore_index=0,
                                   label_smoothing=config.label_smoothing)
        loss.backward()
        theirs_opt.step()
        theirs_opt.zero_grad(set_to_none=True)

    steps = {"attnmt": attnmt_step(False), "torch.nn.Transformer": step_theirs}
    if args.compile:
        steps["attnmt compiled"] = attnmt_step(True)
    unpadded = unpadded_batches(len(batches), m.vocab_size)
    seconds = dict.fromkeys(steps, 0.0)
    seconds_unpadded = dict.fromkeys(("attnmt", "torch.nn.Transformer"), 0.0)
    warmup_seconds = 0.0
    for i, (batch, plain) in enumerate(zip(batches, unpadded, strict=True)):  # interleaved: noise hits all alike
        for name, step in steps.items():
            started = time.perf_counter()
            step(batch)
            if i >= warmup:
                seconds[name] += time.perf_counter() - started
            elif name == "attnmt compiled":
                warmup_seconds += time.perf_counter() - started
        for name in seconds_unpadded:
            started = time.perf_counter()
            steps[name](plain)
            if i >= warmup:
                seconds_unpadded[name] += time.perf_counter() - started
    timed = batches[warmup:]
    tokens = sum(b.n_tgt_tokens for b in timed)
    flops = sum(step_flops(b, m.d_model, m.encoder_layers, m.d_ff, m.vocab_size) for b in timed)
    flops_unpadded = sum(step_flops(b, m.d_model, m.encoder_layers, m.d_ff, m.vocab_size) for b in unpadded[warmup:])
    tokens_unpadded = sum(b.n_tgt_tokens for b in unpadded[warmup:])
    peak = matmul_peak_gflops(DTYPES[precision])
    real = sum(b.n_src_tokens + b.n_tgt_tokens for b in timed)
    padded = sum(b.src.numel() + b.tgt_in.numel() for b in timed)
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"command: {' '.join(sys.argv)}")
    print(f"CPU {cpu_model()} ({flags}); PyTorch kernels {torch.backends.cpu.get_cpu_capability()}; "
          f"precision {precision} ({why})")
    print(f"tokens (source + target): {real} real, {padded} with padding ({real / padded:.0%} real)")
    print(f"training step, Multi30k batches (max_tokens {config.max_tokens}), d_model {m.d_model}, "
          f"{m.encoder_layers}+{m.decoder_layers} layers, vocab {m.vocab_size}, {precision}, "
          f"{torch.get_num_threads()} threads, {len(timed)} steps"
          + (f"; attnmt compiled: its {warmup} warm-up steps, compiling included, took {warmup_seconds:.0f} s"
             if args.compile else ""))
    print(f"measured {precision} matmul peak (2048x2048): {peak:.0f} GFLOP/s")

    def report(name: str, total: float, tokens: int, flops: float) -> None:
        print(f"{name:<46} {tokens / total:>8.0f} target tokens/s   {total / len(timed):.2f} s/step   "
              f"MFU {flops / total / 1e9 / peak:.0%}")

    for name, total in seconds.items():
        report(name, total, tokens, flops)
    for name, total in seconds_unpadded.items():
        report(f"{name}, unpadded 256x16 batches", total, tokens_unpadded, flops_unpadded)
    for name in (n for n in seconds if n.startswith("attnmt")):
        print(f"ratio {name} / torch.nn.Transformer: {seconds['torch.nn.Transformer'] / seconds[name]:.2f}x")
    print(f"ratio attnmt / torch.nn.Transformer, unpadded batches: "
          f"{seconds_unpadded['torch.nn.Transformer'] / seconds_unpadded['attnmt']:.2f}x")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
