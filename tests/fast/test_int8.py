"""int8 inference copies (attnmt.fast.int8)."""

import copy

import pytest
import torch
from torch import nn

from attnmt.fast import prepare
from attnmt.fast.int8 import Int8PanelLinear, quantize_linear_layers
from attnmt.model import Transformer, TransformerConfig


def test_prepare_int8_makes_int8_linear_layers_and_leaves_the_float_model_alone():
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=50, d_model=32, n_heads=4, encoder_layers=1,
                                          decoder_layers=1, d_ff=64)).eval()
    quantized = prepare(model, int8=True)
    assert type(model.output) is torch.nn.Linear
    assert not hasattr(model.decoder_layers[0].self_attn, "qkv_proj")
    for layer in (quantized.output, quantized.decoder_layers[0].self_attn.qkv_proj):
        assert type(layer) is Int8PanelLinear or "quantized" in type(layer).__module__
    src, tgt = torch.randint(4, 50, (3, 7)), torch.randint(4, 50, (3, 5))
    with torch.no_grad():
        exact, approx = model(src, tgt), quantized(src, tgt)
    assert 0 < (exact - approx).abs().max() < 0.1 * exact.abs().max()


@pytest.mark.parametrize("default", [torch.bfloat16, torch.float64])
def test_int8_weights_and_scales_are_those_of_float32_whatever_the_default_dtype(host_default_dtype, default):
    """torch.ao's observer kept each channel's min and max in the default dtype: under a host's
    bfloat16 default the weights were rounded to bfloat16 before their scales were taken, and some
    int8 weights came out another number (other translations).  float64 holds float32's values
    exactly, and stays as it was."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 48))
    expected = copy.deepcopy(model)
    quantize_linear_layers(expected)
    host_default_dtype(default)
    quantize_linear_layers(model)
    weight, reference = model[0].weight(), expected[0].weight()
    assert torch.equal(weight.q_per_channel_scales(), reference.q_per_channel_scales())
    assert torch.equal(weight.int_repr(), reference.int_repr())
