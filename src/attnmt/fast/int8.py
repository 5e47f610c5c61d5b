"""int8 inference: dynamic quantisation of the linear layers.

Every ``nn.Linear`` (attention projections, feed-forward, output projection) gets int8
weights, quantised once per output channel; activations are quantised on the fly, row
by row, at each call, and the int8 matmul accumulates in int32.  Embeddings, LayerNorm
and the attention arithmetic stay in float32.  BLEU stays within about 0.5 of float32
(docs/performance.md).
"""

from __future__ import annotations

import warnings

import torch
from torch import nn


def quantize_linear_layers(model: nn.Module) -> None:
    """In place: every ``nn.Linear`` becomes torch.ao's dynamically quantised int8 Linear."""
    # torch.ao.quantization is deprecated in favour of torchao, which is not a
    # dependency; the eager dynamic path still works on CPU and is what we use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        quantize_dynamic(model, {nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8, inplace=True)
