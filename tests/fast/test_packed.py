"""Prepacked linear layers (attnmt.fast.packed): the same numbers and translations as the float model."""

import copy
import io
import pickle

import pytest
import torch
from torch import nn

from attnmt.attention import MultiHeadAttention
from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.errors import ConfigError
from attnmt.fast import prepare
from attnmt.fast.int8 import Int8PanelLinear, int8_panels_available
from attnmt.fast.packed import Bf16PackedLinear, FusedQKVAttention, PackedLinear, packing_available
from attnmt.fast.panels import PanelLinear
from attnmt.hardware import bf16_native
from attnmt.model import Transformer, TransformerConfig

pytestmark = pytest.mark.skipif(not packing_available(), reason="this PyTorch build has no oneDNN")


def small_model(seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    config = TransformerConfig(vocab_size=60, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=2,
                               d_ff=64, dropout=0.1, max_positions=64)
    return Transformer(config).train()


def test_packed_linear_computes_x_times_w_transposed_plus_b():
    torch.manual_seed(0)
    linear = nn.Linear(16, 24)
    packed = PackedLinear(linear.weight, linear.bias)
    for shape in ([1, 16], [5, 16], [3, 7, 16], [32, 1, 16]):  # any number of rows and leading dims
        x = torch.randn(shape)
        with torch.no_grad():
            torch.testing.assert_close(packed(x), linear(x), atol=1e-5, rtol=1e-5)


def test_packed_linear_refuses_inputs_that_need_a_gradient():
    linear = nn.Linear(4, 4)
    with pytest.raises(RuntimeError, match="inference"):
        PackedLinear(linear.weight, linear.bias)(torch.randn(2, 4, requires_grad=True))


def test_every_linear_layer_is_packed_and_the_original_model_is_left_alone():
    model = small_model()
    packed = prepare(model)
    assert not packed.training and model.training
    assert not any(type(m) is nn.Linear for m in packed.modules())
    assert all(type(m) is nn.Linear for m in (model.output, model.decoder_layers[0].feed_forward.linear1))
    attention = packed.encoder_layers[0].self_attn
    assert attention.qkv_proj.out_features == 3 * 32
    assert type(model.decoder_layers[0].self_attn) is MultiHeadAttention
    # Where the C++ step runs with the panel kernels, every layer holds one copy, in the panels' layout
    # (the step's and the Python layers' alike); elsewhere oneDNN's.
    layer = packed.decoder_layers[0]
    layers = [attention.qkv_proj, layer.self_attn.qkv_proj, layer.cross_attn.k_proj, layer.feed_forward.linear2,
              packed.output]
    panels = packed.step is not None and torch.ops.attnmt.panels_available()
    assert all(type(m) is (PanelLinear if panels else PackedLinear) for m in layers)
    assert all(type(m) is PackedLinear for m in prepare(model, fused_step=False).modules() if hasattr(m, "relu"))


def test_packed_model_gives_the_float_models_logits_and_attention():
    model = small_model().eval()
    packed = prepare(model)
    src, tgt = torch.randint(4, 60, (3, 9)), torch.randint(4, 60, (3, 6))
    src[0, 6:] = 0  # padding
    with torch.inference_mode():
        logits, trace = model(src, tgt, return_attention=True)
        fast_logits, fast_trace = packed(src, tgt, return_attention=True)
    torch.testing.assert_close(fast_logits, logits, atol=1e-4, rtol=1e-4)
    for ours, theirs in zip(fast_trace.cross, trace.cross, strict=True):
        torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("beam", [1, 3])
def test_packed_model_translates_like_the_float_model(beam):
    model = small_model(seed=1).eval()
    packed = prepare(model)
    src = torch.randint(4, 60, (5, 8))
    src[1, 5:] = 0
    if beam == 1:
        assert greedy_search(packed, src) == greedy_search(model, src)
    else:
        decoding = Decoding(beam_size=beam)
        fast, exact = beam_search(packed, src, decoding), beam_search(model, src, decoding)
        assert [[h.tokens for h in n_best] for n_best in fast] == [[h.tokens for h in n_best] for n_best in exact]


@pytest.mark.parametrize(("default", "int8"), [(torch.float64, False), (torch.float64, True), (torch.bfloat16, False),
                                                (torch.bfloat16, True)])
def test_a_model_prepared_under_another_default_dtype_translates_as_under_float32(host_default_dtype, default, int8):
    """A host program whose default dtype was float64 or bfloat16 could not prepare a float32 model:
    the copy was built in the default dtype, and the step refused its norms."""
    model = small_model(seed=1).eval()
    src = torch.randint(4, 60, (5, 8))
    expected = greedy_search(prepare(model, int8=int8), src)
    host_default_dtype(default)
    fast = prepare(model, int8=int8)
    assert {t.dtype for t in fast.state_dict().values() if t.is_floating_point()} <= {torch.float32, torch.float16}
    assert greedy_search(fast, src) == expected


def test_fused_qkv_projection_equals_the_three_projections():
    torch.manual_seed(0)
    attention = MultiHeadAttention(32, 4)
    x = torch.randn(2, 5, 32)
    with torch.no_grad():
        separate = (attention.project_q(x), *attention.project_kv(x, x))
        stacked = attention.project_qkv(x)  # the readable layer: the three weights concatenated per call
        fused = FusedQKVAttention(attention).project_qkv(x)  # the inference copy's: one layer made once
    for one, other in zip(stacked, separate, strict=True):
        torch.testing.assert_close(one, other)
    for one, other in zip(fused, separate, strict=True):
        torch.testing.assert_close(one, other)


def test_fused_qkv_attention_keeps_no_separate_projections_and_gives_their_numbers():
    """The copy holds W_Q, W_K and W_V once, as qkv_proj (a prepared copy stored them twice, 36 MiB of
    OPUS-MT's); queries, keys, values and weights asked for alone come out of it, equal."""
    torch.manual_seed(0)
    attention = MultiHeadAttention(32, 4)
    fused = FusedQKVAttention(attention)
    assert {name for name, _ in fused.named_children()} == {"qkv_proj", "out_proj"}
    assert set(fused.state_dict()) == {"qkv_proj.weight", "qkv_proj.bias", "out_proj.weight", "out_proj.bias"}
    x, other = torch.randn(2, 5, 32), torch.randn(2, 7, 32)
    mask = torch.rand(2, 1, 5, 7) > 0.3
    mask[..., 0] = True
    with torch.no_grad():
        torch.testing.assert_close(fused.project_q(x), attention.project_q(x))
        for key, value in ((x, x), (other, x[:, :1].expand(2, 7, 32))):
            for one, theirs in zip(fused.project_kv(key, value), attention.project_kv(key, value), strict=True):
                torch.testing.assert_close(one, theirs)
        torch.testing.assert_close(fused.weights(x, other, mask), attention.weights(x, other, mask))
        torch.testing.assert_close(fused.weights(x, x), attention.weights(x, x))
        for one, theirs in zip(fused(x, other, other, mask, need_weights=True),
                               attention(x, other, other, mask, need_weights=True), strict=True):
            torch.testing.assert_close(one, theirs)


def test_a_prepared_copy_has_no_separate_self_attention_projections():
    """The copy has no self-attention q_proj, k_proj or v_proj (the cross-attention keeps its own:
    its queries and its keys read different inputs)."""
    model = Transformer(TransformerConfig(vocab_size=60, d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1,
                                          d_ff=64)).eval()
    fast = prepare(model)
    names = set(fast.state_dict()) | {name for name, _ in fast.named_modules()}
    assert not any(".self_attn." + part in name for name in names for part in ("q_proj", "k_proj", "v_proj"))
    assert any(name.startswith("decoder_layers.0.cross_attn.q_proj") for name in names)


def test_fused_qkv_attention_keeps_its_layers_on_the_attentions_device():
    """On a GPU, every layer stays there (an out_proj left on the CPU failed every GPU translation);
    PyTorch's meta device stands for the GPU here: copying out of it onto the CPU raises."""
    attention = MultiHeadAttention(32, 4).to("meta")
    fused = FusedQKVAttention(attention)
    assert {name: p.device.type for name, p in fused.named_parameters() if p.device.type != "meta"} == {}
    assert fused.qkv_proj.weight.shape == (96, 32)


@pytest.mark.parametrize("activation, int8", [("relu", False), ("relu", True), ("gelu", False)])
def test_a_feed_forward_relu_runs_inside_its_first_layer_with_the_same_result(activation, int8):
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=60, d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1,
                                          d_ff=64, activation=activation)).eval()
    fast = prepare(model, int8=int8)
    block, original = fast.encoder_layers[0].feed_forward, model.encoder_layers[0].feed_forward
    ours = isinstance(block.linear1, (PackedLinear, PanelLinear, Int8PanelLinear))  # int8 without VNNI: torch.ao's
    assert ours == (not int8 or int8_panels_available())
    fused = activation == "relu" and ours
    assert getattr(block.linear1, "relu", False) == fused and isinstance(block.activation, nn.Identity) == fused
    x = torch.randn(2, 5, 32) * 3
    with torch.inference_mode():
        hidden = block.linear1(x)
        if fused:
            assert bool((hidden >= 0).all()) and bool((hidden == 0).any())
        if not int8:  # float32: the same numbers as the readable block, up to rounding
            torch.testing.assert_close(block(x), original(x), atol=1e-5, rtol=1e-5)
        else:  # int8: the readable block's numbers within the quantisation's error
            assert (block(x) - original(x)).abs().max() < 0.05 * original(x).abs().max()


def bf16(t: torch.Tensor) -> torch.Tensor:
    """t rounded to the nearest bf16, as float32."""
    return t.bfloat16().float()


needs_bf16 = pytest.mark.skipif(not bf16_native()[0], reason="oneDNN runs bf16 only where the CPU multiplies bf16")


@needs_bf16
def test_bf16_packed_linear_multiplies_bf16_rounded_inputs_and_weights_and_adds_the_bias_in_float():
    torch.manual_seed(0)
    linear = nn.Linear(64, 40)
    layer = Bf16PackedLinear(linear.weight, linear.bias)
    x = torch.randn(9, 64)
    with torch.no_grad():
        expected = bf16(bf16(x) @ bf16(linear.weight).T) + linear.bias
        torch.testing.assert_close(layer(x), expected, atol=1e-5, rtol=2 ** -8)  # the product: one bf16 rounding


@needs_bf16
def test_the_bf16_model_gives_the_float_models_logits_within_bf16_precision():
    model = small_model().eval()
    fast = prepare(model, bf16=True)
    assert all(type(m) is not nn.Linear for m in fast.modules())
    src, tgt = torch.randint(4, 60, (3, 7)), torch.randint(4, 60, (3, 5))
    with torch.no_grad():
        exact, approx = model(src, tgt), fast(src, tgt)
    assert 0 < (exact - approx).abs().max() < 0.05 * exact.abs().max()


def test_bf16_layers_are_refused_with_a_reason_where_the_cpu_does_not_multiply_bf16(monkeypatch):
    monkeypatch.setattr("attnmt.fast.transformer.bf16_native", lambda: (False, "the CPU has neither"))
    with pytest.raises(ConfigError, match="AVX512-BF16 or AMX.*the CPU has neither.*; use float32 or int8 linear "
                                          "layers instead$"):  # no command named: translate, score, serve all refuse
        prepare(small_model().eval(), bf16=True)


def test_preparing_a_prepared_copy_again_is_one_config_error_saying_what_to_do():
    fast = prepare(small_model().eval())
    with pytest.raises(ConfigError, match=r"^this model is a prepared copy already \(attnmt.fast.FastTransformer\): "
                                          r"translate with it as it is, or prepare the Transformer it was made from"):
        prepare(fast, int8=True)


@pytest.mark.parametrize("options", [{}, {"int8": True}, {"fused_step": False}])
@pytest.mark.parametrize("write", [pickle.dumps, copy.deepcopy, lambda fast: torch.save(fast, io.BytesIO())],
                         ids=["pickle", "deepcopy", "torch.save"])
def test_a_prepared_copy_refuses_to_be_pickled_saying_to_prepare_in_the_worker(options, write):
    """It was a RuntimeError naming attnmt.DecoderStep (or Int8Panels, or an opaque tensor's storage):
    what a pool of spawned workers handed the copy failed with."""
    with pytest.raises(TypeError, match=r"^a prepared model cannot be pickled: pass the model \(or its folder\) to "
                                        r"the worker and call prepare there$"):
        write(prepare(small_model().eval(), **options))


@pytest.mark.parametrize("int8", [False, True])
def test_preparing_no_model_is_one_config_error_naming_the_argument(int8):
    """``prepare(None)`` was an AttributeError naming ``config``."""
    with pytest.raises(ConfigError, match=r"^model: expected an attnmt Transformer, got NoneType; "):
        prepare(None, int8=int8)


def test_preparing_a_compiled_model_prepares_the_transformer_it_wraps():
    """``prepare(torch.compile(model))`` was refused as no Transformer ("got OptimizedModule").  The
    wrapper compiles nothing until it is called, so wrapping costs no compiler here."""
    model = small_model().eval()
    fast, from_compiled = prepare(model), prepare(torch.compile(model))
    src = torch.randint(4, 60, (3, 8))
    assert type(from_compiled) is type(fast) and from_compiled.step is not None
    assert greedy_search(from_compiled, src) == greedy_search(fast, src)


@pytest.mark.parametrize("switch", ["int8", "bf16", "fused_step"])
def test_a_switch_that_is_no_bool_is_one_config_error_naming_it(switch):
    """``prepare(model, int8="no")`` built int8 layers: "no" is true to ``if``."""
    with pytest.raises(ConfigError, match=rf"^prepare option {switch}: expected true or false, got 'no'$"):
        prepare(small_model().eval(), **{switch: "no"})


def test_int8_and_bf16_together_is_one_config_error_naming_both():
    """It was a bare ValueError, not the UserError the other prepare options give."""
    with pytest.raises(ConfigError, match=r"^prepare options int8 and bf16: choose int8 or bf16 linear layers, "
                                          r"not both$"):
        prepare(small_model().eval(), int8=True, bf16=True)
