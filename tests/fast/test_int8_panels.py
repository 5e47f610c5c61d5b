"""The int8 panel layers (attnmt.fast.int8.Int8PanelLinear, csrc/int8_panels.cpp): AMX, AVX512-VNNI, AVX2."""

import os
import subprocess
import sys

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD, int8_product_written_out
from torch import nn

from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search
from attnmt.fast import extension, prepare
from attnmt.fast.int8 import (
    Int8PanelLinear,
    activation_levels,
    int8_kernel,
    int8_kernels,
    int8_panels_available,
    quantize_linear_layers,
)
from attnmt.fast.step import Linears
from attnmt.hardware import cpu_flags
from attnmt.model import Transformer, TransformerConfig

pytestmark = NEEDS_EXTENSION_BUILD
needs_panels = pytest.mark.skipif(
    not int8_panels_available(), reason="the CPU lacks AVX2, or the extension cannot be built: torch.ao's int8 runs"
)


def torch_ao_layer(k: int, n: int, bias: bool = True) -> nn.Module:
    layer = nn.Sequential(nn.Linear(k, n, bias=bias))
    quantize_linear_layers(layer)
    return layer[0]


def same_quantisation_written_out(x: torch.Tensor, layer: nn.Module) -> torch.Tensor:
    """support.int8_product_written_out with the torch.ao layer's weights and this process's kernel's levels."""
    weight = layer.weight()
    return int8_product_written_out(x, weight.int_repr(), weight.q_per_channel_scales().float(), activation_levels(),
                                    layer.bias())


@needs_panels
@pytest.mark.parametrize("rows, k, n", [(1, 32, 16), (5, 50, 40), (13, 256, 768), (29, 64, 80), (3, 7, 5),
                                        (10, 64, 48), (15, 64, 48), (20, 32, 40), (22, 32, 40), (7, 64, 44),
                                        (9, 96, 28)])
@pytest.mark.parametrize("threads", [1, 2])
def test_the_product_is_the_same_quantisation_written_out(rows, k, n, threads):
    """The rows left after whole blocks go in one block of their own size: after blocks of 8
    (AVX512-VNNI) 1, 5 (5, 13, 29), 3, 2 (10), 7 (15), 4 (20), 6 (22); after blocks of 4 (AVX2) 1
    (1, 5, 13, 29), 2 (10, 22), 3 (3, 15); AMX tiles take 16 rows, padded.  80 columns end in a
    single panel; K = 50 and 7 a partial group of 4.  A panel's columns are written 8 at a time, masked only where
    fewer than 8 are left: 40 and 80 end on a whole 8, 44 and 28 on 4 after a whole 8 (AVX2), 5 within the first."""
    torch.manual_seed(rows)
    layer, x = torch_ao_layer(k, n), torch.randn(rows, k)
    ours, residual = Int8PanelLinear(layer), torch.randn(rows, n)
    expected = same_quantisation_written_out(x, layer)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        product = ours(x)
        with_residual = ours.panels.linear(x, residual, True)
    finally:
        torch.set_num_threads(before)
    close = dict(atol=1e-5, rtol=1e-5)  # the same integers; float32 scaling in another order
    torch.testing.assert_close(product, expected, **close)
    torch.testing.assert_close(with_residual, (expected + residual).relu(), **close)


@needs_panels
def test_without_a_bias_and_for_a_row_of_zeros():
    torch.manual_seed(1)
    layer = torch_ao_layer(24, 20, bias=False)
    x = torch.randn(3, 24)
    x[1] = 0
    y = Int8PanelLinear(layer)(x)
    assert torch.equal(y[1], torch.zeros(20))
    torch.testing.assert_close(y, same_quantisation_written_out(x, layer), atol=1e-5, rtol=1e-5)


@needs_panels
def test_it_is_within_int8_rounding_of_the_float_layer():
    """Weights and inputs each off by at most half a step of 127 (inputs: of 63 on AVX2): about 1 % of a
    product of 256 terms."""
    torch.manual_seed(2)
    linear = nn.Linear(256, 64)
    x = torch.randn(32, 256)
    with torch.no_grad():
        exact = linear(x)
        layer = nn.Sequential(linear)
        quantize_linear_layers(layer)
        approx = Int8PanelLinear(layer[0])(x)
    assert 0 < (approx - exact).abs().max() < 0.02 * exact.abs().max()


@needs_panels
def test_leading_dimensions_pass_through_and_the_wrong_width_is_refused():
    layer = Int8PanelLinear(torch_ao_layer(16, 8))
    assert layer(torch.randn(2, 3, 16)).shape == (2, 3, 8)
    with pytest.raises(RuntimeError, match="x must be float"):
        layer.panels.linear(torch.randn(4, 15), None, False)


def test_the_int8_copy_uses_the_panel_layers_where_it_can_and_torch_aos_elsewhere():
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=50, d_model=32, n_heads=4, encoder_layers=1,
                                          decoder_layers=1, d_ff=64)).eval()
    fast = prepare(model, int8=True)
    for layer in (fast.output, fast.encoder_layers[0].feed_forward.linear1, fast.decoder_layers[0].self_attn.qkv_proj):
        assert (type(layer) is Int8PanelLinear) == int8_panels_available()
    assert fast.step is not None
    assert fast.step.weights.linears is (Linears.INT8_PANELS if int8_panels_available() else Linears.INT8)


@pytest.mark.skipif(int8_kernel() != "amx",
                    reason="AMX-INT8 is not in use here: the tests above ran the AVX512-VNNI kernel")
def test_the_avx512_vnni_kernel_too_where_amx_runs_by_default():
    """ONEDNN_MAX_CPU_ISA below AMX keeps the kernel on AVX512-VNNI: the same product tests, run that way."""
    env = dict(os.environ, ONEDNN_MAX_CPU_ISA="AVX512_CORE_VNNI")
    check = [sys.executable, "-c", "from attnmt.fast.int8 import int8_kernel; print(int8_kernel())"]
    assert subprocess.run(check, env=env, capture_output=True, text=True, check=True).stdout.strip() == "vnni"
    tests = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__, "-k", "written_out or zeros"]
    run = subprocess.run(tests, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]


def in_a_new_process(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env), capture_output=True, text=True)


def test_the_int8_kernel_waits_for_python_to_say_whether_amx_is_allowed():
    """ONEDNN_MAX_CPU_ISA is read in Python only (attnmt.hardware.amx_allowed): the extension has no
    reading of its own to fall back on, so asking it first is an error."""
    run = in_a_new_process("import torch; from attnmt.fast import extension; extension.available(); "
                           "torch.ops.attnmt.int8_kernel()")
    assert run.returncode != 0 and "call allow_amx first" in run.stderr


def test_the_int8_kernel_keeps_what_python_told_it():
    """AMX refused by Python (as for ONEDNN_MAX_CPU_ISA=AVX2) means no AMX, whatever the environment
    says later; telling it otherwise afterwards is an error rather than a silent switch."""
    run = in_a_new_process("import torch; from attnmt.fast import extension; extension.available(); "
                           "torch.ops.attnmt.allow_amx(False); print(torch.ops.attnmt.int8_kernel()); "
                           "torch.ops.attnmt.allow_amx(True)", ONEDNN_MAX_CPU_ISA="ALL")
    assert run.stdout.split() in (["vnni"], ["avx2"], ["none"])
    assert "already told AMX is not allowed" in run.stderr


@needs_panels
def test_a_lower_aten_cpu_capability_leaves_the_avx2_kernel():
    assert "avx2" in cpu_flags()
    code = ("import torch; from attnmt.fast.int8 import int8_kernel, activation_levels; "
            "print(int8_kernel(), activation_levels())")
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["avx2", "63"]
    assert extension.available()


@needs_panels
@pytest.mark.parametrize("sign", [1, -1])
def test_the_largest_products_are_summed_exactly(sign):
    """Every weight -128 (or 127) times every input at the row's maximum: the largest pairs the AVX2
    kernel's 16-bit sums meet (2 · 127 · 128), and the largest int32 sums of the others.  A saturated
    sum would be off by thousands of steps."""
    k, n = 2048, 24
    w = torch.full((n, k), -128 if sign > 0 else 127, dtype=torch.int8)
    w[5, ::2] = 127  # a column of alternating signs
    scales, bias = torch.full((n,), 1e-3), torch.zeros(n)
    x = torch.full((3, k), 2.5 * sign)
    x[1, 1::2] = -2.5 * sign
    x[2] = torch.linspace(-1, 1, k)
    panels = torch.ops.attnmt.pack_int8_panels(w, scales, bias)
    expected = int8_product_written_out(x, w, scales, activation_levels(), bias)
    torch.testing.assert_close(panels.linear(x, None, False), expected, atol=1e-6, rtol=1e-6)


@pytest.mark.skipif(int8_kernel() not in ("vnni", "amx"),
                    reason="the AVX2 kernel is the one the tests above ran here, or none runs")
def test_the_avx2_kernel_too_where_a_wider_one_runs():
    """ATEN_CPU_CAPABILITY=avx2 keeps the kernel on AVX2 (7-bit inputs): the product tests, run that way."""
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    tests = [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider", __file__, "-k",
             "written_out or zeros or rounding or exactly or leaves_the_avx2"]
    run = subprocess.run(tests, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, summary


needs_tile_model = pytest.mark.skipif(
    "vnni" not in int8_kernels(), reason="the model of the AMX tiles runs beside the AVX512-VNNI kernel only"
)


def panels_on(kernel: str, w: torch.Tensor, scales: torch.Tensor, bias: torch.Tensor | None) -> torch.ScriptObject:
    panels = torch.ops.attnmt.pack_int8_panels(w, scales, bias)
    panels.use_kernel(kernel)
    return panels


@needs_tile_model
@pytest.mark.parametrize("rows, k, n", [(1, 32, 16), (3, 7, 5), (16, 64, 32), (17, 130, 50), (32, 256, 48),
                                        (45, 100, 33), (70, 64, 768), (64, 512, 2080)])
@pytest.mark.parametrize("threads", [1, 2])
def test_the_amx_kernel_on_a_model_of_the_tiles_gives_the_vnni_kernels_numbers_to_the_bit(rows, k, n, threads):
    """pairs_amx run on amx_tile_model (csrc/amx_tile_model.h), which follows the Intel SDM's tile
    instructions: the same quantised rows and exact int32 sums as AVX512-VNNI, so the same floats.
    Rows 1, 16, 17, 32, 45, 64 and 70: one row tile, whole and partial pairs of them, several; an odd
    number of panels (n 5, 33, 50, 2080); K = 7 and 130 a partial tile of 64.  Only 64 × 512 × 2080
    splits its panel pairs between 2 threads: the AMX grain gives a thread at least 2^24
    multiply-adds, and the one-pass top log-probs a slice of at least 32 pairs."""
    torch.manual_seed(rows * 1000 + k)
    w, scales = torch.randint(-128, 128, (n, k), dtype=torch.int8), torch.rand(n) / 100
    bias, x, residual = torch.randn(n), torch.randn(rows, k), torch.randn(rows, n)
    vnni, tiles = panels_on("vnni", w, scales, bias), panels_on("amx_model", w, scales, bias)
    assert tiles.kernel() == "amx_model" and activation_levels(tiles.kernel()) == 127
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        assert torch.equal(tiles.linear(x, None, False), vnni.linear(x, None, False))
        assert torch.equal(tiles.linear(x, residual, True), vnni.linear(x, residual, True))
        forced = torch.randint(0, n, (rows,))
        for ours, theirs in zip(tiles.top_log_probs(x, min(3, n), [1], forced),
                                vnni.top_log_probs(x, min(3, n), [1], forced), strict=True):
            torch.testing.assert_close(ours, theirs, rtol=0, atol=0)
    finally:
        torch.set_num_threads(before)
    expected = int8_product_written_out(x, w, scales, 127, bias)
    torch.testing.assert_close(tiles.linear(x, None, False), expected, atol=1e-5, rtol=1e-5)


@needs_tile_model
@pytest.mark.parametrize("beam", [1, 4])
def test_an_int8_translation_with_every_layer_on_the_modelled_tiles_is_the_vnni_kernels(beam):
    """The whole int8 copy, encoder, C++ decoder step and one-pass output layer, on the AMX kernel
    (modelled): the same hypotheses with the same log-probabilities as on AVX512-VNNI."""
    torch.manual_seed(3)
    model = Transformer(TransformerConfig(vocab_size=60, d_model=64, n_heads=4, encoder_layers=2, decoder_layers=2,
                                          d_ff=128, max_positions=64)).eval()
    src = torch.randint(4, 60, (3, 9))
    src[2, 4:] = 0
    found = {}
    for kernel in ("vnni", "amx_model"):
        fast = prepare(model, int8=True)
        layers = [m for m in fast.modules() if isinstance(m, Int8PanelLinear)]
        assert fast.step is not None and fast.output in layers and len(layers) > 10
        for layer in layers:
            layer.panels.use_kernel(kernel)
        decoding = Decoding(beam_size=beam, n_best=beam, max_len_a=0, max_len_b=12)
        found[kernel] = [[(h.tokens, h.token_log_probs) for h in n_best] for n_best in beam_search(fast, src, decoding)]
    assert found["amx_model"] == found["vnni"]
    assert any(len(tokens) > 3 for n_best in found["vnni"] for tokens, _ in n_best)


@pytest.mark.skipif("amx" not in int8_kernels(), reason="no AMX-INT8 here: the tiles themselves cannot be run")
def test_on_a_cpu_with_amx_the_tiles_give_the_models_numbers():
    """Where AMX runs, the hardware and the model of it agree to the bit: the model is what the tests
    above hold the kernel to on other CPUs."""
    torch.manual_seed(5)
    for rows, k, n in [(1, 64, 16), (17, 130, 50), (45, 512, 100)]:
        w, scales, x = torch.randint(-128, 128, (n, k), dtype=torch.int8), torch.rand(n) / 100, torch.randn(rows, k)
        amx, model = panels_on("amx", w, scales, None), panels_on("amx_model", w, scales, None)
        assert torch.equal(amx.linear(x, None, False), model.linear(x, None, False))
