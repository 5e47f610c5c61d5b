"""The int8 decoder step's kernel per layer shape, chosen by timing (attnmt.fast.kernels.measure_int8):
every int8 panel kernel reads the same panels, each layer runs the one it is told, and the prepared
int8 copy keeps the choice it measured."""

import pytest
import torch
from safetensors import safe_open
from support import NEEDS_EXTENSION_BUILD, PAIRS, int8_product_written_out

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate
from attnmt.fast import int8, kernels, prepare, prepared
from attnmt.fast.int8 import (
    Int8PanelLinear,
    activation_levels,
    int8_kernel,
    int8_kernels,
    int8_panels_available,
    use_int8_kernels,
)
from attnmt.fast.kernels import Int8Choice, faster_int8, measure_int8
from attnmt.model import Transformer, TransformerConfig

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not int8_panels_available(), reason="no int8 panel kernel runs here (torch.ao's layers)"),
]
several = pytest.mark.skipif(len(int8_kernels()) < 2 if int8_panels_available() else True,
                             reason="one int8 panel kernel runs here: nothing to choose between")
SOURCES = [source for source, _ in PAIRS[:6]]
LEVELS = {"amx": 127, "vnni": 127, "avx2": 63}


def test_the_kernels_that_run_here_start_with_the_widest():
    assert int8_kernels()[0] == int8_kernel()
    assert set(int8_kernels()) <= set(LEVELS) and "avx2" in int8_kernels()


def test_each_layer_runs_the_kernel_it_is_told_and_a_shortlist_keeps_it():
    torch.manual_seed(0)
    w, scales = torch.randint(-128, 128, (40, 70), dtype=torch.int8), torch.rand(40) / 100
    x = torch.randn(9, 70)
    panels = torch.ops.attnmt.pack_int8_panels(w, scales, None)
    assert panels.kernel() == int8_kernel()
    for kernel in int8_kernels():
        panels.use_kernel(kernel)
        assert panels.kernel() == kernel and activation_levels(kernel) == LEVELS[kernel]
        expected = int8_product_written_out(x, w, scales, LEVELS[kernel])
        torch.testing.assert_close(panels.linear(x, None, False), expected, atol=1e-5, rtol=1e-5)
        chosen = panels.select(torch.tensor([7, 3, 39]))
        assert chosen.kernel() == kernel
        torch.testing.assert_close(chosen.linear(x, None, False), expected[:, [7, 3, 39]], atol=1e-5, rtol=1e-5)


def test_a_kernel_that_does_not_run_here_is_refused_in_one_line():
    panels = torch.ops.attnmt.pack_int8_panels(torch.ones(16, 8, dtype=torch.int8), torch.ones(16), None)
    missing = next(kernel for kernel in (*LEVELS, "sse") if kernel not in int8_kernels())
    with pytest.raises(RuntimeError, match=f"the int8 kernel '{missing}' does not run in this process"):
        panels.use_kernel(missing)
    assert panels.kernel() == int8_kernel()


@several
def test_measuring_times_every_kernel_on_every_shape_and_keeps_the_fastest():
    shapes = [(48, 32), (5000, 64)]
    choice = measure_int8(shapes, rows=8, output=(5000, 64))
    assert set(choice.kernels) == set(shapes)
    for shape, kernel in choice.kernels.items():
        timings = choice.timings[shape]
        assert set(timings) == set(int8_kernels()) and all(ms > 0 for ms in timings.values())
        assert kernel == faster_int8(timings)
    again = Int8Choice.from_json(choice.to_json())  # the timings rounded to 0.1 µs
    assert again.kernels == choice.kernels
    assert all(again.timings[shape] == pytest.approx(choice.timings[shape], abs=1e-4) for shape in shapes)
    assert choice.kernel_for(7, 7) is None  # a shape it does not name: the widest


def test_a_kernel_of_7_bit_activations_is_chosen_only_where_it_is_clearly_faster(monkeypatch):
    """AVX2's 7 bits against AVX512-VNNI's 8 within noise of each other: two measurements on one machine
    chose differently and translated differently.  Made-up timings (ms): AVX2 is chosen only where it is
    more than 10 % faster than the fastest 8-bit kernel."""
    timings = {(1, 1): {"vnni": 1.00, "avx2": 0.95}, (2, 2): {"vnni": 1.00, "avx2": 0.80},
               (3, 3): {"amx": 1.20, "vnni": 1.00, "avx2": 0.95}, (4, 4): {"amx": 0.90, "vnni": 1.00, "avx2": 0.85}}
    monkeypatch.setattr(int8, "int8_kernels", lambda: ("amx", "vnni", "avx2"))
    monkeypatch.setattr(kernels, "timed_shapes", lambda shapes, rows, calls: timings)
    choice = measure_int8(list(timings))
    assert choice.kernels == {(1, 1): "vnni", (2, 2): "avx2", (3, 3): "vnni", (4, 4): "amx"}
    assert choice.timings == timings


@several
def test_the_prepared_int8_copy_stores_the_choice_and_later_loads_reuse_it(trained_model, cache, monkeypatch):
    """The output projection forced onto the narrowest kernel, the rest onto the widest: the copy as
    built, and as loaded from the cache, multiply each layer on its kernel (the encoder on the widest)."""
    model, tokenizer = load_model_dir(trained_model)
    output_shape = (model.config.vocab_size, model.config.d_model)
    widest, narrowest = int8_kernels()[0], int8_kernels()[-1]
    monkeypatch.setattr(prepared, "measure_int8", lambda shapes, output=None: Int8Choice(
        {shape: narrowest if shape == output_shape else widest for shape in shapes}))
    first, _ = prepared.load_int8(trained_model)
    (written,) = cache.glob("int8-*.safetensors")
    with safe_open(str(written), framework="pt") as file:
        assert Int8Choice.from_json(file.metadata()["int8_choice"]) == first.int8_choice
    monkeypatch.setattr(prepared, "measure_int8", lambda shapes, output=None: pytest.fail("measured again"))
    later, _ = prepared.load_int8(trained_model)
    outputs = []
    for fast in (first, later):
        assert type(fast.output) is Int8PanelLinear and fast.output.panels.kernel() == narrowest
        assert fast.decoder_layers[0].feed_forward.linear1.panels.kernel() == widest
        assert fast.encoder_layers[0].feed_forward.linear1.panels.kernel() == widest
        outputs.append(translate(fast, tokenizer, SOURCES))
    assert outputs[0] == outputs[1]
    assert outputs[0] == [target for _, target in PAIRS[:6]]  # the tiny model knows its pairs by heart


@several
def test_a_shape_the_choice_does_not_name_goes_back_to_the_widest_kernel():
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=50, d_model=32, n_heads=4, encoder_layers=1,
                                          decoder_layers=1, d_ff=64)).eval()
    fast = prepare(model, int8=True)
    narrowest = int8_kernels()[-1]
    use_int8_kernels(fast, Int8Choice({(50, 32): narrowest}))
    ff1 = fast.decoder_layers[0].feed_forward.linear1
    assert fast.output.panels.kernel() == narrowest and ff1.panels.kernel() == int8_kernel()
    ff1.panels.use_kernel(narrowest)
    use_int8_kernels(fast, Int8Choice({}))
    assert fast.output.panels.kernel() == ff1.panels.kernel() == int8_kernel()
