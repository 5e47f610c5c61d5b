"""int8 inference: dynamic quantisation of the linear layers.

Every ``nn.Linear`` (attention projections, feed-forward, output projection) gets
int8 weights, quantised once per output channel; activations are quantised on the
fly, row by row, at each call, and the int8 matmul accumulates in int32.
Embeddings, LayerNorm and the attention arithmetic stay in float32.  The model is
a copy: the float model is left as it was.  Use it for translating only; it cannot
be trained or saved back as float weights.

    model_int8 = quantize_int8(model)
    translate(model_int8, tokenizer, sentences)
"""

from __future__ import annotations

import copy
import warnings

import torch
from torch import nn

from attnmt.attention import fuse_all_qkv
from attnmt.fast.fused import FusedDecoderStep
from attnmt.fast.fused import available as fused_available
from attnmt.model import Transformer


def quantize_int8(model: Transformer, fused: bool = True) -> Transformer:
    """An eval-mode copy of ``model`` whose linear layers compute in int8.

    With ``fused`` the copy's cached decoder step runs as one C++ call (attnmt.fast.fused)
    where that can be built."""
    # torch.ao.quantization is deprecated in favour of torchao, which is not a
    # dependency; the eager dynamic path still works on CPU and is what we use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        model = copy.deepcopy(model).eval()
        fuse_all_qkv(model)  # self-attention's Q, K, V: one int8 matmul
        quantized = quantize_dynamic(model, {nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8)
    if fused and FusedDecoderStep.supports(quantized) and fused_available():
        quantized.fused_step = FusedDecoderStep(quantized)
    return quantized
