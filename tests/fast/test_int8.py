"""int8 inference copies (attnmt.fast.int8)."""

import torch

from attnmt.fast import prepare
from attnmt.fast.int8 import Int8PanelLinear
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
