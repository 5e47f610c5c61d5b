"""What training minimises and how its step size moves.

The loss is label-smoothed cross-entropy (paper, section 5.4); the learning rate
follows the paper's warm-up schedule (section 5.3).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.attention import padding_mask
from attnmt.hardware import kernel_loaded
from attnmt.model import Transformer


def label_smoothed_nll(
    logits: Tensor, target: Tensor, epsilon: float, pad_id: int
) -> tuple[Tensor, Tensor]:
    """Cross-entropy against a target distribution that keeps 1-ε on the right token
    and spreads ε uniformly over the vocabulary (paper, section 5.4).

    logits [B, T, V], target [B, T].  Returns (smoothed loss, plain NLL), each
    summed over the non-pad target tokens.
    """
    log_probs = F.log_softmax(logits.float(), dim=-1)  # [B, T, V]
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # [B, T]
    uniform = -log_probs.mean(dim=-1)  # [B, T] cross-entropy against the uniform distribution
    real = target != pad_id
    loss = (1.0 - epsilon) * nll + epsilon * uniform
    return loss[real].sum(), nll[real].sum()


class TranslationLoss(nn.Module):
    """The training objective as one module (so DistributedDataParallel can wrap it).

    Same value and gradients as :func:`label_smoothed_nll` on the model's logits (tests
    prove it), computed faster and in less memory: the output projection and the loss run
    only on real (non-pad) target positions, a block of rows at a time (:class:`OutputLoss`),
    so the float32 [tokens, vocabulary] logits and their softmax never exist whole.
    """

    def __init__(self, model: Transformer, epsilon: float) -> None:
        super().__init__()
        self.model = model
        self.epsilon = epsilon
        self.workspace = Workspace()

    def forward(self, src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        """src [B, S], tgt_in/tgt_out [B, T] -> smoothed loss summed over real target tokens."""
        pad_id = self.model.config.pad_id
        memory = self.model.encode(src)
        states = self.model.decoder_states(tgt_in, memory, padding_mask(src, pad_id))  # [B, T, d]
        real = tgt_out != pad_id
        output = self.model.output
        return OutputLoss.apply(states[real], output.weight, output.bias, tgt_out[real], self.epsilon,
                                self.workspace)


class Workspace:
    """Scratch tensors kept from one step to the next, each grown to the largest size asked.

    ``OutputLoss`` needs tens of megabytes of scratch a step ([tokens, vocabulary] and blocks of
    it).  glibc serves every allocation over 32 MiB with a fresh mmap, so without a workspace
    each step's first touch of those pages faulted them in again: system time that cost a bf16
    step on a 2-core Xeon about 7 % of its time (benchmarks/results/train_step_speed_xeon_amx.txt).
    """

    def __init__(self) -> None:
        self.buffers: dict[str, Tensor] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: torch.dtype, device: torch.device) -> Tensor:
        """An uninitialised tensor of ``shape``, the same memory each call with ``name``."""
        size = math.prod(shape)
        kept = self.buffers.get(name)
        if kept is None or kept.numel() < size or kept.dtype != dtype or kept.device != device:
            grown = size if kept is None else max(size, kept.numel() * 5 // 4)  # fewer regrowths
            kept = self.buffers[name] = torch.empty(grown, dtype=dtype, device=device)
        return kept[:size].view(shape)


class OutputLoss(torch.autograd.Function):
    """Σ label-smoothed cross-entropy of softmax(h Wᵀ + b) against target, for h [N, d],
    W [V, d], b [V] or None, target [N]; ROWS rows at a time.

    The gradient of the loss with respect to a row's logits is known in closed form,
    softmax - (1-ε)·onehot(target) - ε/V, so the forward pass computes it and, after the
    last block, the gradients for h, W and b; the backward pass only scales them.  Each block's
    logits are written where their gradient will be kept (in float32; under bf16 autocast,
    into a float32 block that is then rounded into the bf16 gradient) and turned into it in
    place: log-softmax, row by row while the row is in cache, then exp.  The constant -ε/V is
    never written: it adds a rank-one term to each gradient, -ε/V·ΣW to h's rows,
    -ε/V·Σh to W's rows and -ε·N/V to b, added after the matmuls.  A row's mean logit,
    for the ε term of the loss, is h·ΣW/V + mean(b).  Nothing is computed twice and no
    [N, V] float32 tensor exists beside the gradient.  Under bf16 autocast the matmuls run
    in bf16, the softmax and the sums in float32, as autocast would do them.
    """

    ROWS = 2048  # rows per block: under bf16, the float32 block is 2048 × V (64 MB at 8,000 pieces)

    @staticmethod
    def forward(ctx, h: Tensor, weight: Tensor, bias: Tensor | None, target: Tensor, epsilon: float,
                workspace: Workspace | None = None) -> Tensor:
        dtype = torch.get_autocast_dtype(h.device.type) if torch.is_autocast_enabled(h.device.type) else weight.dtype
        needs_grad = any(ctx.needs_input_grad[:3])  # False under torch.no_grad(): the loss alone
        n, vocab = h.size(0), weight.size(0)
        with torch.autocast(h.device.type, enabled=False):
            x, w = h.to(dtype), weight.to(dtype)
            w_sum = w.sum(0, dtype=torch.float32)  # [d]: a row's logits sum to h·ΣW + Σb
            b_mean = 0.0 if bias is None else bias.float().mean()
            total = torch.zeros((), dtype=torch.float32, device=h.device)
            room = workspace or Workspace()
            d_logits = room.get("gradient", (n, vocab), dtype, h.device) if needs_grad else None
            fused = fused_loss_runs(h, dtype)
            for start in range(0, n, OutputLoss.ROWS):
                rows = slice(start, start + OutputLoss.ROWS)
                count = x[rows].size(0)
                if dtype == torch.float32:  # the logits, with their bias, where the gradient will be
                    block = d_logits[rows] if needs_grad else room.get("block", (count, vocab), dtype, h.device)
                    if bias is not None:
                        torch.addmm(bias, x[rows], w.T, out=block)
                    else:
                        torch.mm(x[rows], w.T, out=block)
                    if fused:
                        total += torch.ops.attnmt.smoothed_loss_rows(
                            block, None, target[rows], epsilon, block if needs_grad else None).sum()
                        continue
                else:
                    product = torch.mm(x[rows], w.T, out=room.get("product", (count, vocab), dtype, h.device))
                    if fused:
                        total += torch.ops.attnmt.smoothed_loss_rows(
                            product, None if bias is None else bias.float(), target[rows], epsilon,
                            d_logits[rows] if needs_grad else None).sum()
                        continue
                    block = room.get("block", (count, vocab), torch.float32, h.device).copy_(product)
                    if bias is not None:
                        block += bias
                mean = x[rows].float() @ w_sum / vocab + b_mean
                total += OutputLoss.block(block, target[rows], mean, epsilon, needs_grad)
                if needs_grad and dtype != torch.float32:
                    d_logits[rows] = block
            grad_h = grad_w = grad_b = None
            if needs_grad:  # one matmul each: summing per-block float32 products of W's size costs more
                uniform = epsilon / vocab
                grad_h = (d_logits @ w).float().sub_(uniform * w_sum).to(h.dtype)
                grad_w = (d_logits.T @ x).float().sub_(uniform * x.sum(0, dtype=torch.float32)).to(weight.dtype)
                if bias is not None:
                    grad_b = (d_logits.sum(0, dtype=torch.float32) - uniform * n).to(bias.dtype)
        ctx.grads = (grad_h, grad_w, grad_b)
        return total

    @staticmethod
    def block(logits: Tensor, target: Tensor, mean: Tensor, epsilon: float, gradient: bool) -> Tensor:
        """A block's summed loss, (1-ε)·NLL + ε·(cross-entropy against uniform), given its
        float32 logits [n, V] and their mean per row [n].  With ``gradient``, turns ``logits``
        into softmax - (1-ε)·onehot(target): the gradient with respect to the logits but for
        the constant -ε/V; otherwise ``logits`` is left as its log-softmax."""
        target = target[:, None]
        picked = logits.gather(1, target).squeeze(1)
        torch.log_softmax(logits, 1, out=logits)  # row by row, in place
        log_prob = logits.gather(1, target).squeeze(1)  # [n]
        log_total = picked - log_prob  # log Σ exp(logits) of each row
        loss = (-(1.0 - epsilon) * log_prob + epsilon * (log_total - mean)).sum()
        if gradient:
            logits.exp_().scatter_add_(1, target, torch.full_like(log_prob[:, None], epsilon - 1.0))
        return loss

    @staticmethod
    def backward(ctx, grad_total: Tensor):
        grads = ctx.grads
        del ctx.grads
        return *(None if g is None else g * grad_total for g in grads), None, None, None


def fused_loss_runs(h: Tensor, dtype: torch.dtype) -> bool:
    """Whether ``OutputLoss`` turns logits into the loss and its gradient with the C++ extension's
    one pass per row (csrc/smoothed_loss.cpp) for ``h``'s rows computed in ``dtype``."""
    return kernel_loaded("smoothed_loss_rows", h.device, dtype)


def noam_schedule(step: int, d_model: int, warmup_steps: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (paper, section 5.3)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)


def constant_schedule(step: int, warmup_steps: int, rate: float) -> float:
    """rate, reached linearly over the first warmup_steps: the usual schedule for fine-tuning."""
    return rate * min(1.0, max(step, 1) / max(warmup_steps, 1))


def cooldown(rate: float, done: float, share: float) -> float:
    """``rate`` scaled down linearly to zero over the last ``share`` of the training budget.

    ``done``: the share of the budget spent, 0 to 1 (of max_steps or max_time).  A schedule that
    knows where its budget ends can anneal into it, where one that does not leaves the last
    weights at a rate still high; checkpoint averaging makes up for part of that.  A cool-down
    over the last fifth matches a schedule fitted to the whole budget (Hägele et al. 2024,
    "Scaling laws and compute-optimal training beyond fixed training durations").
    """
    if share <= 0:
        return rate
    return rate * max(0.0, min(1.0, (1.0 - done) / share))
