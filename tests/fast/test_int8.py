"""int8 inference copies (attnmt.fast.int8)."""

import copy

import pytest
import torch
from torch import nn

from attnmt.fast import prepare, transformer
from attnmt.fast.int8 import DynamicInt8Linear, Int8PanelLinear, int8_panels_available, quantize_linear_layers
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


needs_panels = pytest.mark.skipif(
    not int8_panels_available(), reason="the CPU lacks AVX2, or the extension cannot be built: torch.ao's int8 runs"
)


@needs_panels
@pytest.mark.parametrize("default", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("n", "k", "bias"), [(48, 64, True), (1, 32, False), (37, 19, True), (300, 128, False)])
def test_panels_quantised_straight_from_float_are_those_made_through_torch_ao(host_default_dtype, default, n, k, bias):
    """Int8PanelLinear.from_float skips torch.ao's layer (its fbgemm packing, unpacked again by the
    panels): the same int8 weights, scales and bias in the same panels, whatever the default dtype."""
    torch.manual_seed(n)
    linear = nn.Linear(k, n, bias=bias)
    with torch.no_grad():
        linear.weight[0].zero_()  # a row of zeros: its scale is the observer's eps
        linear.weight[-1, 0] = 40.0  # one large weight in a row
    through_ao = nn.Sequential(copy.deepcopy(linear))
    quantize_linear_layers(through_ao)
    host_default_dtype(default)
    straight, expected = Int8PanelLinear.from_float(linear), Int8PanelLinear(through_ao[0])
    assert (straight.out_features, straight.in_features) == (n, k)
    for ours, theirs in zip(straight.panels.tensors(), expected.panels.tensors(), strict=True):
        assert ours.dtype == theirs.dtype and torch.equal(ours, theirs)
    x = torch.randn(5, k, dtype=torch.float32)
    assert torch.equal(straight(x), expected(x))


@needs_panels
def test_prepare_int8_gives_the_copy_torch_ao_s_layers_gave(monkeypatch):
    """The whole copy: prepare(int8=True) as it was made before, every nn.Linear through torch.ao's
    int8 Linear and then the panels, has the same panels in every layer and the same outputs."""
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=61, d_model=32, n_heads=4, encoder_layers=2,
                                          decoder_layers=2, d_ff=72)).eval()
    straight = prepare(model, int8=True)

    def through_torch_ao(copy_: nn.Module) -> None:
        quantize_linear_layers(copy_)
        for parent in list(copy_.modules()):
            for name, child in parent.named_children():
                if type(child) is DynamicInt8Linear:
                    setattr(parent, name, Int8PanelLinear(child))

    monkeypatch.setattr(transformer, "quantize_into_panels", through_torch_ao)
    expected = prepare(model, int8=True)
    ours = {name: m for name, m in straight.named_modules() if isinstance(m, Int8PanelLinear)}
    theirs = {name: m for name, m in expected.named_modules() if isinstance(m, Int8PanelLinear)}
    assert ours.keys() == theirs.keys() and "output" in ours and "decoder_layers.1.self_attn.qkv_proj" in ours
    assert not any(type(m) is nn.Linear for m in straight.modules())
    for name, layer in ours.items():
        for a, b in zip(layer.panels.tensors(), theirs[name].panels.tensors(), strict=True):
            assert torch.equal(a, b), name
    src, tgt = torch.randint(4, 61, (3, 9)), torch.randint(4, 61, (3, 6))
    with torch.inference_mode():
        assert torch.equal(straight(src, tgt), expected(src, tgt))
