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
    so the float32 [tokens, vocabulary] logits and their softmax never exist whole.
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
    softmax - ((1-ε)·onehot(target) + ε/V), so the forward pass computes it block by block
    and, after the last block, the gradients for h, W and b; the backward pass only scales
    them.  The float32 [N, V] logits and their softmax (hundreds of MB at 8,000 pieces)
    exist one block at a time; only their gradient is kept whole, in the matmuls'
    precision, and nothing is computed twice.  Under bf16 autocast the matmuls run in bf16, the softmax and the sums
    in float32, as autocast would do them.
    """

    ROWS = 256  # a block's logits: 256 × V float32, a few MB

    @staticmethod
    def forward(ctx, h: Tensor, weight: Tensor, bias: Tensor | None, target: Tensor, epsilon: float) -> Tensor:
        dtype = torch.get_autocast_dtype(h.device.type) if torch.is_autocast_enabled(h.device.type) else weight.dtype
        needs_grad = any(ctx.needs_input_grad[:3])  # False under torch.no_grad(): the loss alone
        with torch.autocast(h.device.type, enabled=False):
            x, w = h.to(dtype), weight.to(dtype)
            total = torch.zeros((), dtype=torch.float32, device=h.device)
            d_logits = torch.empty(h.size(0), weight.size(0), dtype=dtype, device=h.device) if needs_grad else None
            for start in range(0, h.size(0), OutputLoss.ROWS):
                rows = slice(start, start + OutputLoss.ROWS)
                logits = (x[rows] @ w.T).float()  # [n, V]
                if bias is not None:
                    logits += bias
                loss, d_block = OutputLoss.block(logits, target[rows], epsilon)
                total += loss
                if needs_grad:
                    d_logits[rows] = d_block
            grad_h = grad_w = grad_b = None
            if needs_grad:  # one matmul each: summing per-block float32 products of W's size costs more
                grad_h = (d_logits @ w).to(h.dtype)
                grad_w = (d_logits.T @ x).to(weight.dtype)
                grad_b = None if bias is None else d_logits.sum(0, dtype=torch.float32).to(bias.dtype)
        ctx.grads = (grad_h, grad_w, grad_b)
        return total

    @staticmethod
    def block(logits: Tensor, target: Tensor, epsilon: float) -> tuple[Tensor, Tensor]:
        """A block's summed loss, (1-ε)·NLL + ε·(cross-entropy against uniform), and its
        gradient with respect to the logits, softmax - (1-ε)·onehot(target) - ε/V.
        Overwrites ``logits`` [n, V]."""
        logits -= logits.amax(dim=1, keepdim=True)  # log-softmax = logits - log Σ exp(logits)
        picked, mean = logits.gather(1, target[:, None]).squeeze(1), logits.mean(dim=1)  # [n]
        probs = logits.exp_()
        total = probs.sum(dim=1, keepdim=True)  # [n, 1]
        log_total = total.log().squeeze(1)
        loss = ((1.0 - epsilon) * (log_total - picked) + epsilon * (log_total - mean)).sum()
        d_logits = torch.addcmul(torch.tensor(-epsilon / probs.size(1)), probs, total.reciprocal_())
        d_logits.scatter_add_(1, target[:, None], torch.full_like(d_logits[:, :1], epsilon - 1.0))
        return loss, d_logits

    @staticmethod
    def backward(ctx, grad_total: Tensor):
        grads = ctx.grads
        del ctx.grads
        return *(None if g is None else g * grad_total for g in grads), None, None


def noam_schedule(step: int, d_model: int, warmup_steps: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (paper, section 5.3)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)


def constant_schedule(step: int, warmup_steps: int, rate: float) -> float:
    """rate, reached linearly over the first warmup_steps: the usual schedule for fine-tuning."""
    return rate * min(1.0, max(step, 1) / max(warmup_steps, 1))
