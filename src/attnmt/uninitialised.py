"""Modules built in float32 whatever torch's default dtype, and with their weights left as
allocated, for a model whose every weight is read next.

Apart from attnmt.checkpoint, which loads model directories through it, because it is not about
files: it is how a model is built without drawing the random numbers of its initialisation
(``torch.nn.init``), which a load would overwrite at once.  The inference copies that are built
from stored tensors (attnmt.fast.prepared) build their modules the same way.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.overrides import TorchFunctionMode


class Float32Weights(TorchFunctionMode):
    """Inside it, on this thread only, a tensor allocated with no dtype given (``torch.empty``, which
    is how nn.Linear, nn.Embedding and nn.LayerNorm allocate their weights) is float32, whatever
    torch's default dtype.  attnmt's weights files, its fast copies and its training all hold float32:
    a host program whose default is float64 or bfloat16 got a model of that dtype (float64: twice the
    memory) that ``attnmt.fast.prepare`` refused.  torch's default dtype itself is never changed: it
    belongs to the whole process, and to the host program."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.empty and kwargs.get("dtype") is None:
            kwargs = {**kwargs, "dtype": torch.float32}
        return func(*args, **kwargs)


def float32_weights() -> Float32Weights:
    """A context in which modules built have float32 weights, whatever torch's default dtype; for the
    thread that enters it only (``Float32Weights``)."""
    return Float32Weights()


class SkippedDraws(Float32Weights):
    """Inside it, on this thread only, ``torch.nn.init``'s random draws return their tensor untouched
    (``uninitialised``).  A TorchFunctionMode is the thread's own (``torch.device("meta")`` works
    the same way), so a model built on another thread meanwhile is initialised as ever; and nothing
    of torch's is replaced, so nothing can be left replaced."""

    # kaiming_uniform_ (nn.Linear), uniform_ (its bias), normal_ (nn.Embedding) come here themselves;
    # xavier_uniform_ and the other initialisers do not, but draw through the tensor's own methods.
    # Fills (LayerNorm's ones, a bias's zeros) still run: they are small, and cost no random numbers.
    SKIPPED = frozenset({nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.uniform_,
                         nn.init.normal_, nn.init.trunc_normal_, torch.Tensor.uniform_, torch.Tensor.normal_})

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in self.SKIPPED:
            return args[0] if args else kwargs["tensor"]
        return super().__torch_function__(func, types, args, kwargs)


def uninitialised() -> SkippedDraws:
    """A context in which modules built keep their float32 weights as allocated: ``torch.nn.init`` draws no
    random numbers, so the memory is never written (a large allocation is then never resident) and
    the draws cost no time; for a model whose every weight is loaded next.  It holds for the thread
    that enters it only: other threads' modules (a user's, another load's) are initialised as ever.
    (The meta device would allocate nothing at all, but its tensors share no storage: tied weights
    and the computed positional encodings would have to be set up again by hand.)"""
    return SkippedDraws()
