"""Dropout for training: 16 random bits per element, hashed in one C++ pass where it can be.

``nn.Dropout`` draws one random number per element, a large share of a small model's training
step on a CPU (docs/design/fast-decoder.md).  Here each element gets 16 random bits, so p is
rounded to a multiple of 1/65536 (0.1 -> 0.100006), in one of two ways:

- on a CPU, for float32 and bfloat16, where the process has loaded the C++ extension
  (attnmt.fast.extension; ``attnmt train`` loads it): the bits are a hash of a 64-bit key and
  the element's place (csrc/dropout.cpp), one pass over the tensor forward and one backward,
  with no mask kept between them;
- otherwise: one 64-bit draw serves four elements, and the {0, scale} mask is kept.

The two give different masks from the same seed.  Either way the randomness comes from
PyTorch's default generator (the hash's key is one draw from it): ``torch.manual_seed`` makes
it repeatable and checkpoints restore it.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.hardware import kernel_loaded

LEVELS = 1 << 16  # of every LEVELS values, round(p · LEVELS) are zeroed


def dropout(x: Tensor, p: float) -> Tensor:
    """x with each element zeroed with probability p (rounded to a multiple of 1/65536) and the
    rest scaled by 1 / (1 - p): training's dropout, for the modules and for attention weights."""
    check_probability(p)
    dropped, scale = levels(p)
    if dropped == 0:
        return x
    if dropped == LEVELS:
        return x * 0.0
    if hashed_dropout_runs(x):
        return HashedDropout.apply(x, draw_key(), dropped, scale)
    words = torch.empty((x.numel() + 3) // 4, dtype=torch.int64, device=x.device)
    bits = words.random_(-(1 << 63), None).view(torch.int16)[: x.numel()].view(x.shape)
    keep = bits >= dropped - LEVELS // 2  # int16 runs from -LEVELS/2 to LEVELS/2 - 1
    # One multiplication by a {0, scale} mask: the backward pass is one more.
    return x * torch.where(keep, x.new_tensor(scale), x.new_zeros(()))


def check_probability(p: float, where: str = "") -> None:
    """ValueError where ``p`` is no probability (``where``, "attention_dropout: ", names it): p = -0.5
    zeroed half the elements and scaled the rest by 0.667, p = 2 failed later inside torch, and
    attention's fused kernel says a negative p is "dropout > 0", which it does not support."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{where}dropout probability must be between 0 and 1, got {p}")


def levels(p: float) -> tuple[int, float]:
    """(the values of every LEVELS zeroed, the survivors' scale) for dropout probability p."""
    dropped = round(p * LEVELS)
    return dropped, (LEVELS / (LEVELS - dropped) if dropped < LEVELS else 0.0)


class Dropout(nn.Module):
    """Dropout (Srivastava et al., 2014): in training, zeroes each element with probability p
    and scales the rest by 1 / (1 - p); in eval mode, the identity.  See the module's notes."""

    def __init__(self, p: float = 0.1) -> None:
        super().__init__()
        check_probability(p)
        self.p = p

    def forward(self, x: Tensor) -> Tensor:
        return dropout(x, self.p) if self.training else x

    def after_relu(self, x: Tensor) -> Tensor:
        """Dropout(ReLU(x)): the feed-forward's, in one pass each way where the hashed path runs."""
        dropped, scale = levels(self.p)
        if self.training and 0 < dropped < LEVELS and hashed_dropout_runs(x):
            return HashedReluDropout.apply(x, draw_key(), dropped, scale)
        return self(F.relu(x))

    def extra_repr(self) -> str:
        return f"p={self.p}"


def draw_key() -> int:
    """A hashed mask's key: one 63-bit draw from PyTorch's default generator."""
    return int(torch.empty((), dtype=torch.int64).random_())


def hashed_dropout_runs(x: Tensor) -> bool:
    """Whether ``Dropout`` takes the C++ extension's hashed path for ``x``."""
    return kernel_loaded("hashed_dropout", x.device, x.dtype)


class HashedDropout(torch.autograd.Function):
    """x · mask(key) · scale, the mask hashed from (key, place) anew in the backward pass."""

    @staticmethod
    def forward(ctx, x: Tensor, key: int, dropped: int, scale: float) -> Tensor:
        ctx.mask = (key, dropped, scale)
        return torch.ops.attnmt.hashed_dropout(x, key, dropped, scale)

    @staticmethod
    def backward(ctx, grad: Tensor):
        return torch.ops.attnmt.hashed_dropout(grad, *ctx.mask), None, None, None


class HashedReluDropout(torch.autograd.Function):
    """mask(key) · scale · ReLU(x).  The backward pass needs only the output, which the next linear
    layer keeps anyway: an element passes its gradient where it is positive."""

    @staticmethod
    def forward(ctx, x: Tensor, key: int, dropped: int, scale: float) -> Tensor:
        out = torch.ops.attnmt.hashed_relu_dropout(x, key, dropped, scale)
        ctx.save_for_backward(out)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, grad: Tensor):
        (out,) = ctx.saved_tensors
        return torch.ops.attnmt.relu_dropout_backward(grad, out, ctx.scale), None, None, None
