"""Float32 layers on AMX's bf16 tiles (csrc/split_tiles.cpp, attnmt.fast.panels.TiledLinear): each
float32 split into bf16 pieces, their products summed in float32.  Held to float64 products on the
model of the tiles (amx_tile_model.h) on any CPU with AVX-512, and the tiles to their model where
the CPU has AMX."""

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD, PAIRS

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError
from attnmt.fast import extension, panels, prepare, prepared_file
from attnmt.fast.kernels import FloatKernel, KernelChoice, faster, measure, step_shapes
from attnmt.fast.panels import (
    PanelLinear,
    TiledLinear,
    embeddings_from_panels,
    tiles_chosen,
    tiles_run,
    use_float_panels,
)
from attnmt.fast.step import FusedDecoderStep, layer_linears
from attnmt.model import TransformerConfig

ops = torch.ops.attnmt if extension.available() else None
pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not extension.available() or not ops.split_tiles_run(True),
                       reason="the model of the tiles needs the extension and the AVX-512 panels"),
]
on_amx = pytest.mark.skipif(not tiles_run() if ops is not None else True, reason="this CPU has no AMX-BF16 tiles here")
# |error| / Σ|x·w| of each output: 2 pieces drop the products below 2^-16 of the largest; 3 are float32 sums.
BOUNDS = {2: 2.0 ** -15, 3: 2.0 ** -20}
# Rows, N, K: one row, a partial row tile, two row tiles and a partial third; N and K off every multiple.
SHAPES = [(1, 7, 5), (3, 40, 33), (16, 16, 32), (17, 33, 64), (40, 100, 200), (33, 48, 70)]


def operands(rows: int, n: int, k: int, seed: int = 0) -> tuple[torch.Tensor, ...]:
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(rows, k, generator=g) * 3, torch.randn(n, k, generator=g) / 7, torch.randn(n, generator=g),
            torch.randn(rows, n, generator=g))


def relative_error(y: torch.Tensor, x: torch.Tensor, w: torch.Tensor, expected: torch.Tensor) -> float:
    scale = x.double().abs() @ w.double().abs().T + 1e-30
    return float(((y.double() - expected) / scale).abs().max())


@pytest.mark.parametrize("pieces", [2, 3])
@pytest.mark.parametrize(("rows", "n", "k"), SHAPES)
def test_the_tiles_give_x_w_plus_b_to_their_pieces_precision(pieces, rows, n, k):
    x, w, b, residual = operands(rows, n, k)
    tiles = ops.pack_split_tiles(ops.pack_panels(w), pieces)
    exact = x.double() @ w.double().T + b.double()
    y = ops.split_tile_linear(x, tiles, b, n, None, False, True)
    assert relative_error(y, x, w, exact) < BOUNDS[pieces]
    with_residual = ops.split_tile_linear(x, tiles, b, n, residual, True, True)
    assert relative_error(with_residual, x, w, (exact + residual.double()).clamp(min=0)) < BOUNDS[pieces]
    assert (with_residual >= 0).all()


def test_two_pieces_are_more_precise_than_one_bf16_product_and_three_as_precise_as_float32():
    x, w, b, _ = operands(24, 64, 256, seed=1)
    exact = x.double() @ w.double().T + b.double()
    one = x.bfloat16().float() @ w.bfloat16().float().T + b
    errors = [relative_error(one, x, w, exact)]
    for pieces in (2, 3):
        tiles = ops.pack_split_tiles(ops.pack_panels(w), pieces)
        errors.append(relative_error(ops.split_tile_linear(x, tiles, b, 64, None, False, True), x, w, exact))
    float32 = relative_error(ops.panel_linear(x, ops.pack_panels(w), b, 64, None, False), x, w, exact)
    assert errors[0] > 16 * errors[1] and errors[1] > 4 * errors[2]
    assert errors[2] < 4 * float32  # the float32 sums' own rounding, of twice as many sums


def test_the_pieces_of_each_weight_add_up_to_it():
    w = torch.randn(20, 45) * torch.logspace(-20, 20, 45)
    tiles = ops.pack_split_tiles(ops.pack_panels(w), 3).float()  # [2 panels, 3 pieces, 64 / 2, 16, 2]
    padded = tiles.permute(1, 0, 3, 2, 4).reshape(3, 32, 64)  # [piece, row, k]
    pieces = padded[:, :20, :45]
    assert torch.equal(pieces[0], w.bfloat16().float())
    assert torch.equal(pieces.double().sum(0).float(), w)  # 3 × 8 bits hold float32's 24
    assert not padded[:, 20:].any() and not padded[:, :, 45:].any()


def test_a_nan_or_infinity_in_x_spoils_its_own_row_only():
    x, w, b, _ = operands(3, 20, 40)
    x[1, 7] = float("nan")
    x[2, 3] = float("inf")
    y = ops.split_tile_linear(x, ops.pack_split_tiles(ops.pack_panels(w), 2), b, 20, None, False, True)
    assert torch.isfinite(y[0]).all() and torch.isnan(y[1]).all() and not torch.isfinite(y[2]).any()


def test_the_output_layers_choice_on_the_tiles_is_that_of_their_logits():
    x, w, b, _ = operands(9, 300, 48, seed=2)
    tiles = ops.pack_split_tiles(ops.pack_panels(w), 2)
    logits = ops.split_tile_linear(x, tiles, b, 300, None, False, True)
    values, ids, normalisers, forced = ops.split_tile_top_log_probs(x, tiles, b, 300, 4, [0, 2], None, True)
    masked = logits.clone()
    masked[:, [0, 2]] = float("-inf")
    assert torch.equal(ids, masked.topk(4).indices)
    torch.testing.assert_close(normalisers, logits.logsumexp(1))
    torch.testing.assert_close(values, masked.topk(4).values - logits.logsumexp(1, keepdim=True))


def test_tiles_that_do_not_fit_x_are_refused_in_one_line():
    x, w, b, _ = operands(2, 20, 40)
    tiles = ops.pack_split_tiles(ops.pack_panels(w), 2)
    with pytest.raises(RuntimeError, match="tiles must be pack_split_tiles' output for a W of 20 rows and 72"):
        ops.split_tile_linear(torch.randn(2, 72), tiles, b, 20, None, False, True)
    with pytest.raises(RuntimeError, match="2 or 3 pieces, not 4"):
        ops.pack_split_tiles(ops.pack_panels(w), 4)


@pytest.mark.skipif(ops is not None and tiles_run(), reason="this CPU runs the tiles")
def test_the_tiles_themselves_are_refused_where_the_cpu_has_none():
    x, w, b, _ = operands(2, 20, 40)
    with pytest.raises(RuntimeError, match="cannot use AMX-BF16 tiles"):
        ops.split_tile_linear(x, ops.pack_split_tiles(ops.pack_panels(w), 2), b, 20, None, False, False)


@on_amx
@pytest.mark.parametrize("pieces", [2, 3])
@pytest.mark.parametrize(("rows", "n", "k"), [*SHAPES, (128, 512, 512)])
def test_the_cpus_tiles_give_their_models_sums(pieces, rows, n, k):
    x, w, b, residual = operands(rows, n, k)
    tiles = ops.pack_split_tiles(ops.pack_panels(w), pieces)
    for args in ((None, False), (residual, True)):
        model = ops.split_tile_linear(x, tiles, b, n, *args, True)
        amx = ops.split_tile_linear(x, tiles, b, n, *args, False)
        assert relative_error(amx, x, w, model.double()) < 2.0 ** -18


def tiled(model, tiles_on_model: bool = True):
    """The fast copy of ``model`` with every decoder-step layer on the tiles."""
    fast = prepare(model)
    use_float_panels(fast, KernelChoice.forced(FloatKernel.TILES, step_shapes(model.config)), tiles_on_model)
    embeddings_from_panels(fast)
    fast.step = FusedDecoderStep(fast)
    return fast


def test_the_step_on_the_tiles_gives_the_readable_models_translations(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    fast = tiled(model)
    assert type(fast.output) is TiledLinear and type(fast.decoder_layers[0].feed_forward.linear1) is TiledLinear
    assert type(fast.encoder_layers[0].feed_forward.linear1) is PanelLinear  # the encoder stays on the panels
    assert all(layer.tiles is not None for layer in fast.step.weights.linear_layers())
    sources = [source for source, _ in PAIRS[:6]]
    assert translate(fast, tokenizer, sources) == translate(model, tokenizer, sources)
    states = torch.randn(5, model.config.d_model)
    torch.testing.assert_close(fast.output(states), model.output(states), atol=1e-4, rtol=1e-4)


def test_a_choice_of_the_tiles_read_where_they_are_not_chosen_stays_on_the_panels(trained_model):
    if tiles_chosen():
        pytest.skip("the tiles run here and are allowed")
    model, _ = load_model_dir(trained_model)
    fast = prepare(model)
    fast.kernel_choice = KernelChoice.forced(FloatKernel.TILES, step_shapes(model.config))
    fast.finish(fused_step=True, on_cpu=True)
    assert type(fast.output) is PanelLinear and all(layer.tiles is None for layer in fast.step.weights.linear_layers())


def mapped_from(tensor: torch.Tensor) -> str:
    """The file whose mapping holds ``tensor``'s data in this process ("" for memory of its own)."""
    address = tensor.data_ptr()
    with open("/proc/self/maps") as maps:
        for line in maps:
            span, *_, name = line.split(maxsplit=5)
            start, end = (int(edge, 16) for edge in span.split("-"))
            if start <= address < end:
                return name.strip() if "/" in name else ""
    return ""


def test_a_prepared_copy_on_the_tiles_maps_them_back_rather_than_making_them_from_the_panels(trained_model,
                                                                                            tmp_path, monkeypatch):
    """Made at each load, the tiles read every panel of their layers, which stayed resident beside
    them (at OPUS-MT's size about 200 MB of an AMX Xeon's fp32 job); stored, both are mapped, and
    under a shortlist the output layer's tiles are never read at all."""
    model, tokenizer = load_model_dir(trained_model)
    fast = tiled(model)
    fast.kernel_choice = KernelChoice.forced(FloatKernel.TILES, step_shapes(model.config))
    path = tmp_path / "copy.safetensors"
    prepared_file.save_prepared(fast, path)
    monkeypatch.setattr(panels, "tiles_chosen", lambda: True)  # as where the tiles run and are allowed
    loaded = prepared_file.load_prepared(path, model.config)
    layers = [loaded.output, *(m for layer in loaded.decoder_layers for m in layer_linears(layer).values())]
    assert layers and all(type(layer) is TiledLinear for layer in layers)
    assert type(loaded.encoder_layers[0].feed_forward.linear1) is PanelLinear
    assert loaded.decoder_layers[0].feed_forward.linear1.relu
    for layer in layers:
        assert mapped_from(layer.tiles) == str(path) and mapped_from(layer.panels) == str(path)
        assert torch.equal(layer.tiles, ops.pack_split_tiles(layer.panels, 2))
    assert all(layer.tiles is not None for layer in loaded.step.weights.linear_layers())
    sources = [source for source, _ in PAIRS[:6]]
    assert translate(loaded, tokenizer, sources) == translate(fast, tokenizer, sources)


def test_tiles_that_do_not_fit_their_panels_are_refused_at_load():
    layer = PanelLinear(torch.randn(40, 70), None)
    tiles = ops.pack_split_tiles(layer.panels, 2)
    with pytest.raises(ValueError, match="do not hold a 40 × 70 layer"):
        TiledLinear(layer, model=True, tiles=tiles[:, :, :-1])
    with pytest.raises(ValueError, match="do not hold"):
        TiledLinear(layer, model=True, tiles=tiles.float())
    assert torch.equal(TiledLinear(layer, model=True, tiles=tiles).tiles, tiles)


def test_a_layer_leaves_the_tiles_for_the_panels_or_onednn_with_its_relu(trained_model):
    model, _ = load_model_dir(trained_model)
    fast = tiled(model)
    layer = fast.decoder_layers[0].feed_forward.linear1
    assert layer.relu
    x = torch.randn(4, layer.in_features)
    for kernel in (FloatKernel.PANELS, FloatKernel.ONEDNN):
        fast = tiled(model)
        use_float_panels(fast, KernelChoice.forced(kernel, step_shapes(model.config)))
        moved = fast.decoder_layers[0].feed_forward.linear1
        assert type(moved) is not TiledLinear and moved.relu
        torch.testing.assert_close(moved(x), layer(x), atol=1e-4, rtol=1e-4)


def test_another_kernel_than_the_panels_is_chosen_only_by_its_margin():
    best = {FloatKernel.PANELS: 1.0, FloatKernel.ONEDNN: 0.95, FloatKernel.TILES: 0.5}
    assert faster(best, 1.10) is FloatKernel.TILES
    assert faster({**best, FloatKernel.TILES: 0.93}, 1.10) is FloatKernel.PANELS
    assert faster({**best, FloatKernel.ONEDNN: 0.4}, 1.10) is FloatKernel.ONEDNN


@pytest.mark.parametrize(("said", "chosen"), [("1", True), (" 1\n", True), ("0", False), (" 0 ", False), (None, True),
                                              ("", True)])
def test_the_tiles_are_timed_where_they_run_unless_left_out(monkeypatch, said, chosen):
    monkeypatch.setattr(panels, "tiles_run", lambda: True)
    monkeypatch.setattr(panels, "cpu_flags", lambda: {"avx2", "avx512f", "amx_bf16"})
    if said is None:
        monkeypatch.delenv("ATTNMT_FLOAT32_TILES", raising=False)
    else:
        monkeypatch.setenv("ATTNMT_FLOAT32_TILES", said)
    assert panels.tiles_chosen() is chosen
    monkeypatch.setattr(panels, "tiles_run", lambda: False)
    assert not panels.tiles_chosen()


@pytest.mark.parametrize("said", ["yes", "2", "off"])
def test_another_value_of_the_tiles_variable_is_one_line(monkeypatch, said):
    monkeypatch.setattr(panels, "cpu_flags", lambda: {"avx2", "avx512f", "amx_bf16"})
    monkeypatch.setenv("ATTNMT_FLOAT32_TILES", said)
    with pytest.raises(ConfigError, match=rf"^ATTNMT_FLOAT32_TILES={said!r}: give 0 .* or 1, or leave it unset"):
        panels.tiles_allowed()


def test_allowing_the_tiles_prepares_a_float32_copy_of_its_own_and_leaves_the_int8_copys_name(monkeypatch,
                                                                                                 tmp_path):
    """A float32 copy prepared without the tiles holds a choice that never timed them, and the other way
    round; the int8 copy's choice never involves them."""
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights")
    config = TransformerConfig(vocab_size=40, d_model=16, n_heads=2, d_ff=32)
    names = {}
    for asked in (False, True):
        monkeypatch.setattr(prepared_file, "tiles_allowed", lambda asked=asked: asked)
        names[asked] = {p: prepared_file.prepared_path(weights, config, p).name for p in ("fp32", "int8")}
    assert names[False]["fp32"] != names[True]["fp32"] and names[False]["int8"] == names[True]["int8"]


def test_the_tiles_are_allowed_only_on_a_cpu_with_amx_bf16_and_without_building_the_extension(monkeypatch):
    monkeypatch.setenv("ATTNMT_FLOAT32_TILES", "1")
    monkeypatch.setattr(panels, "cpu_flags", lambda: {"avx2", "avx512f"})
    assert not panels.tiles_allowed()
    monkeypatch.setattr(panels, "cpu_flags", lambda: {"avx2", "avx512f", "amx_bf16"})
    monkeypatch.setattr(panels, "int8_kernel", lambda: pytest.fail("asking read the extension"))
    assert panels.tiles_allowed()


def test_the_kernel_choice_times_the_tiles_where_they_run_and_the_variable_is_unset(monkeypatch):
    if not tiles_run():
        pytest.skip("the tiles do not run on this CPU")
    monkeypatch.delenv("ATTNMT_FLOAT32_TILES", raising=False)
    assert set(measure([(64, 96)], rows=16).timings[(64, 96)]) == set(FloatKernel)
    monkeypatch.setenv("ATTNMT_FLOAT32_TILES", "0")
    assert FloatKernel.TILES not in measure([(64, 96)], rows=16).timings[(64, 96)]
