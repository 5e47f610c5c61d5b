"""What training minimises and how its step size moves.

The loss is label-smoothed cross-entropy (paper, section 5.4); the learning rate
follows the paper's warm-up schedule (section 5.3).
"""

from __future__ import annotations

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

    Same value as :func:`label_smoothed_nll` (a test proves it), computed faster: the
    output projection and softmax run only on real (non-pad) target positions, and
    PyTorch's fused ``cross_entropy(label_smoothing=ε)`` does the rest.
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
        logits = self.model.output(states[real])  # [N, V], N = real target tokens
        return F.cross_entropy(logits.float(), tgt_out[real], label_smoothing=self.epsilon, reduction="sum")


def noam_schedule(step: int, d_model: int, warmup_steps: int, factor: float = 1.0) -> float:
    """lrate = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (paper, section 5.3)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)


def constant_schedule(step: int, warmup_steps: int, rate: float) -> float:
    """rate, reached linearly over the first warmup_steps: the usual schedule for fine-tuning."""
    return rate * min(1.0, max(step, 1) / max(warmup_steps, 1))
