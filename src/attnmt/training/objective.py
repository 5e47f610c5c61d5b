"""What training minimises and how its step size moves.

The loss is label-smoothed cross-entropy (paper, section 5.4); the learning rate
follows the paper's warm-up schedule (section 5.3).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.attention import padding_mask
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
    so the [tokens, vocabulary] logits never exist whole.
    """

    def __init__(self, model: Transformer, epsilon: float) -> None:
        super().__init__()
        self.model = model
        self.epsilon = epsilon

    def forward(self, src: Tensor, tgt_in: Tensor, tgt_out: Tensor) -> Tensor:
        """src [B, S], tgt_in/tgt_out [B, T] -> smoothed loss summed over real target tokens."""
        pad_id = self.model.config.pad_id
        memory = self.model.encode(src)
        states = self.model.decoder_states(tgt_in, memory, padding_mask(src, pad_id))  # [B, T, d]
        real = tgt_out != pad_id
        output = self.model.output
        return OutputLoss.apply(states[real], output.weight, output.bias, tgt_out[real], self.epsilon)


class OutputLoss(torch.autograd.Function):
    """Σ label-smoothed cross-entropy of softmax(h Wᵀ + b) against target, for h [N, d],
    W [V, d], b [V] or None, target [N]; one block of ROWS rows at a time.

    The gradient of the loss with respect to a row's logits is known in closed form,
    softmax - ((1-ε)·onehot(target) + ε/V), so each block's gradients for h, W and b are
    computed with its forward while its logits are in cache, and the backward pass only
    scales them.  The [N, V] logits (hundreds of MB at 8,000 pieces) and their softmax are
    never stored, and nothing is computed twice.  Under bf16 autocast the two matmuls per
    block run in bf16, the softmax and the sums in float32, as autocast would do them.
    """

    ROWS = 512  # a block's logits: 512 × V float32, a few MB

    @staticmethod
    def forward(ctx, h: Tensor, weight: Tensor, bias: Tensor | None, target: Tensor, epsilon: float) -> Tensor:
        dtype = torch.get_autocast_dtype(h.device.type) if torch.is_autocast_enabled(h.device.type) else weight.dtype
        needs_grad = any(ctx.needs_input_grad[:3])  # False under torch.no_grad(): the loss alone
        with torch.autocast(h.device.type, enabled=False):
            w = weight.to(dtype)
            total = torch.zeros((), dtype=torch.float32, device=h.device)
            grads = (torch.empty(h.shape, dtype=torch.float32, device=h.device), torch.zeros_like(weight),
                     None if bias is None else torch.zeros_like(bias)) if needs_grad else None
            for start in range(0, h.size(0), OutputLoss.ROWS):
                rows = slice(start, start + OutputLoss.ROWS)
                x = h[rows].to(dtype)
                logits = (x @ w.T).float()  # [n, V]
                if bias is not None:
                    logits += bias
                total += OutputLoss.block_loss(logits, target[rows], epsilon)
                if grads is not None:
                    OutputLoss.block_grads(logits, target[rows], epsilon, x, w, rows, grads)
        if grads is not None:
            ctx.grads = grads
            ctx.h_dtype = h.dtype
        return total

    @staticmethod
    def block_loss(logits: Tensor, target: Tensor, epsilon: float) -> Tensor:
        """(1-ε)·NLL + ε·(cross-entropy against uniform), summed over a block's rows."""
        normaliser = logits.logsumexp(dim=-1)  # [n]
        nll = normaliser - logits.gather(1, target[:, None]).squeeze(1)
        uniform = normaliser - logits.mean(dim=-1)
        return ((1.0 - epsilon) * nll + epsilon * uniform).sum()

    @staticmethod
    def block_grads(logits: Tensor, target: Tensor, epsilon: float, x: Tensor, w: Tensor, rows: slice,
                    grads: tuple[Tensor, Tensor, Tensor | None]) -> None:
        """Adds a block's gradients: d loss / d logits = softmax - (1-ε)·onehot - ε/V."""
        grad_h, grad_w, grad_b = grads
        d_logits = logits.softmax(dim=-1).sub_(epsilon / logits.size(1))  # in place of the logits' copy
        d_logits.scatter_add_(1, target[:, None], torch.full_like(d_logits[:, :1], epsilon - 1.0))
        if grad_b is not None:
            grad_b += d_logits.sum(0)
        d_logits = d_logits.to(w.dtype)
        grad_h[rows] = d_logits @ w
        grad_w += (d_logits.T @ x).float()

    @staticmethod
    def backward(ctx, grad_total: Tensor):
        grad_h, grad_w, grad_b = ctx.grads
        del ctx.grads
        return ((grad_h * grad_total).to(ctx.h_dtype), grad_w * grad_total,
                None if grad_b is None else grad_b * grad_total, None, None)


def noam_schedule(step: int, d_model: int, warmup_steps: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (paper, section 5.3)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)


def constant_schedule(step: int, warmup_steps: int, rate: float) -> float:
    """rate, reached linearly over the first warmup_steps: the usual schedule for fine-tuning."""
    return rate * min(1.0, max(step, 1) / max(warmup_steps, 1))
