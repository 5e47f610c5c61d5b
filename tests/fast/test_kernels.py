"""The float32 decoder step's kernel per layer shape, chosen by timing (attnmt.fast.kernels): each
candidate gives the readable model's numbers, and the prepared copy keeps the choice it measured."""

import random
import string

import pytest
import torch
from safetensors import safe_open
from support import NEEDS_EXTENSION_BUILD, PAIRS
from torch import nn

from attnmt.attention import padding_mask
from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError
from attnmt.fast import extension, prepare, prepared, prepared_file
from attnmt.fast.kernels import (
    KERNEL_VARIABLE,
    STEP_PANELS_MARGIN,
    FloatKernel,
    KernelChoice,
    asked_kernel,
    faster,
    measure,
    step_shapes,
)
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelEmbedding, PanelLinear, TiledLinear, tiles_chosen

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not extension.available(), reason="the extension cannot be built here"),
    pytest.mark.skipif(extension.available() and not torch.ops.attnmt.panels_available(),
                       reason="this build has no float32 panel kernels: oneDNN is the only candidate"),
]
SOURCES = [source for source, _ in PAIRS[:6]]


def on(kernel: FloatKernel, model):
    """The fast copy of ``model`` with every decoder-step layer forced onto ``kernel``."""
    fast = prepare(model)
    fast.kernel_choice = KernelChoice.forced(kernel, step_shapes(model.config))
    fast.finish(fused_step=True, on_cpu=True)
    return fast


def step_logits(model, steps: int = 5) -> torch.Tensor:
    """Logits [rows, steps, V] of random tokens decoded one position at a time with a cache."""
    generator = torch.Generator().manual_seed(0)
    src = torch.randint(4, 30, (3, 7), generator=generator)
    src[1, 5:] = 0
    tokens = torch.randint(4, 30, (6, steps), generator=generator)
    src_mask = padding_mask(src, 0).repeat_interleave(2, dim=0)
    with torch.inference_mode():
        memory = model.encode(src).repeat_interleave(2, dim=0)
        cache = model.start_decoding(memory)
        return torch.cat([model.decode(tokens[:, t:t + 1], memory, src_mask, cache=cache) for t in range(steps)], 1)


@pytest.mark.parametrize("kernel", [FloatKernel.PANELS, FloatKernel.ONEDNN])  # the tiles: test_split_tiles.py
def test_each_candidate_kernel_gives_the_readable_models_steps_and_translations(trained_model, kernel):
    model, tokenizer = load_model_dir(trained_model)
    fast = on(kernel, model)
    assert fast.step is not None
    expected = PackedLinear if kernel is FloatKernel.ONEDNN else PanelLinear
    assert type(fast.output) is expected and type(fast.decoder_layers[0].feed_forward.linear1) is expected
    assert type(fast.encoder_layers[0].feed_forward.linear1) is PanelLinear  # the encoder stays on the panels
    assert type(fast.decoder_layers[0].cross_attn.k_proj) is PanelLinear
    # The C++ step multiplies on the layers as chosen (no panels of its own beside oneDNN's), and the
    # embeddings tied to the output layer read its panels only while it is on them.
    assert all((layer.panels is None) == (kernel is FloatKernel.ONEDNN) for layer in fast.step.weights.linear_layers())
    if model.config.tie_embeddings:
        assert type(fast.tgt_embed) is (nn.Embedding if kernel is FloatKernel.ONEDNN else PanelEmbedding)
        assert fast.src_embed is fast.tgt_embed
    torch.testing.assert_close(step_logits(fast), step_logits(model), atol=2e-5, rtol=1e-4)
    assert translate(fast, tokenizer, SOURCES) == translate(model, tokenizer, SOURCES)


def test_measuring_times_every_candidate_that_runs_here_on_every_shape_and_keeps_the_faster():
    shapes = [(48, 32), (32, 64)]
    choice = measure(shapes, rows=8)
    assert set(choice.kernels) == set(shapes)
    candidates = {FloatKernel.PANELS, FloatKernel.ONEDNN} | ({FloatKernel.TILES} if tiles_chosen() else set())
    for shape, kernel in choice.kernels.items():
        timings = choice.timings[shape]
        assert set(timings) == candidates and all(ms > 0 for ms in timings.values())
        assert kernel is faster(timings, STEP_PANELS_MARGIN)
        assert kernel is FloatKernel.PANELS or timings[kernel] * STEP_PANELS_MARGIN < timings[FloatKernel.PANELS]


def test_each_kernels_output_stage_gives_the_log_softmaxs_k_best_tokens():
    generator = torch.Generator().manual_seed(3)
    weight, bias = torch.randn(1000, 64, generator=generator), torch.randn(1000, generator=generator)
    x = torch.randn(9, 64, generator=generator)
    expected = torch.log_softmax(x @ weight.T + bias, dim=-1).topk(4)
    panels = PanelLinear(weight, bias)
    layers = [panels, PackedLinear(weight, bias)]
    if torch.ops.attnmt.split_tiles_run(True):  # the tiles' model (AVX-512): about 16 bits of each product
        layers.append(TiledLinear(panels, model=True))
    for layer in layers:
        top, tokens, *_ = layer.top_log_probs(x, 4)
        assert torch.equal(tokens, expected.indices), type(layer).__name__
        torch.testing.assert_close(top, expected.values, atol=2e-3, rtol=1e-4)


def test_measuring_times_the_output_projection_as_beam_search_calls_it_and_the_others_alone(monkeypatch):
    staged = []
    for layer in (PanelLinear, PackedLinear):
        monkeypatch.setattr(layer, "top_log_probs", lambda self, x, k, run=layer.top_log_probs: (
            staged.append((type(self), self.out_features, k)) or run(self, x, k)))
    choice = measure([(48, 32), (300, 32)], rows=8, output=(300, 32))
    assert set(choice.kernels) == {(48, 32), (300, 32)}
    assert {(layer, n, k) for layer, n, k in staged} == {(PanelLinear, 300, 4), (PackedLinear, 300, 4)}


def test_a_choice_reads_back_from_its_json_as_it_was():
    choice = KernelChoice({(1536, 512): FloatKernel.PANELS, (58101, 512): FloatKernel.ONEDNN},
                          {(1536, 512): {FloatKernel.PANELS: 0.5, FloatKernel.ONEDNN: 0.75},
                           (58101, 512): {FloatKernel.PANELS: 20.0, FloatKernel.ONEDNN: 12.25}})
    assert KernelChoice.from_json(choice.to_json()) == choice
    assert choice.kernel_for(7, 7) is FloatKernel.PANELS  # a shape it does not name


def test_the_prepared_copy_stores_the_choice_it_measured_and_later_loads_reuse_it(trained_model, cache, monkeypatch):
    model, tokenizer = load_model_dir(trained_model)
    output_shape = (model.config.vocab_size, model.config.d_model)
    monkeypatch.setattr(prepared, "measure", lambda shapes, output=None: KernelChoice(
        {shape: FloatKernel.ONEDNN if shape == output_shape else FloatKernel.PANELS for shape in shapes}))
    first, _ = prepared.load_packed(trained_model)
    (written,) = cache.glob("fp32-*.safetensors")
    with safe_open(str(written), framework="pt") as file:
        assert "output.weight" in set(file.keys())  # oneDNN's layer: its plain weight, packed at each load
        assert "src_embed.weight" in set(file.keys())  # no panels to read the embedding from
        assert KernelChoice.from_json(file.metadata()["kernel_choice"]) == first.kernel_choice
    monkeypatch.setattr(prepared, "measure", lambda shapes, output=None: pytest.fail("measured again"))
    later, _ = prepared.load_packed(trained_model)
    for fast in (first, later):
        assert type(fast.output) is PackedLinear and type(fast.decoder_layers[0].self_attn.qkv_proj) is PanelLinear
        assert type(fast.tgt_embed) is nn.Embedding
        assert torch.equal(step_logits(fast), step_logits(first))
        torch.testing.assert_close(step_logits(fast), step_logits(model), atol=2e-5, rtol=1e-4)
        assert translate(fast, tokenizer, SOURCES) == translate(model, tokenizer, SOURCES)


@pytest.mark.parametrize("output_kernel", list(FloatKernel))
def test_the_stored_tensors_start_64_bytes_aligned_so_the_panels_are_mapped_not_copied(trained_model, cache,
                                                                                      monkeypatch, output_kernel):
    """The header's length (the choice's JSON in it) would otherwise shift every tensor off the
    alignment PanelLinear.from_panels needs, which then copies each layer into the process."""
    config = load_model_dir(trained_model)[0].config
    output_shape = (config.vocab_size, config.d_model)
    monkeypatch.setattr(prepared, "measure", lambda shapes, output=None: KernelChoice(
        {shape: output_kernel if shape == output_shape else FloatKernel.PANELS for shape in shapes}))
    writes = []
    write = prepared_file.write_tensors
    monkeypatch.setattr(prepared_file, "write_tensors", lambda *args: writes.append(write(*args)))
    fast, _ = prepared.load_packed(trained_model)
    (written,) = cache.glob("fp32-*.safetensors")
    assert prepared_file.data_start(written) % 64 == 0
    assert len(writes) == 1  # the header's padding known beforehand: the file is not written again
    with safe_open(str(written), framework="pt") as file:
        mapped = file.get_tensor("decoder_layers.0.self_attn.qkv_proj.panels")
    assert mapped.data_ptr() % 64 == 0


@pytest.mark.parametrize("panels_ms, onednn_ms, margin, kernel", [
    (1.00, 0.97, 1.0, FloatKernel.ONEDNN), (1.00, 0.97, 1.10, FloatKernel.PANELS),
    (1.00, 0.85, 1.10, FloatKernel.ONEDNN), (0.90, 1.00, 1.0, FloatKernel.PANELS),
    (1.00, 0.99, STEP_PANELS_MARGIN, FloatKernel.PANELS), (1.00, 0.96, STEP_PANELS_MARGIN, FloatKernel.ONEDNN)])
def test_a_layer_leaves_the_panels_only_for_a_clear_win(panels_ms, onednn_ms, margin, kernel):
    """On the panels the search's choice comes out of the output layer's own pass: oneDNN, which
    writes the logits, must beat them by the output's margin there; elsewhere by the step's (2 %)."""
    assert faster({FloatKernel.PANELS: panels_ms, FloatKernel.ONEDNN: onednn_ms}, margin) is kernel


@pytest.mark.parametrize("value, kernel", [(None, None), ("", None), ("  ", None), ("panels", FloatKernel.PANELS),
                                           (" OneDNN\n", FloatKernel.ONEDNN)])
def test_attnmt_float32_kernel_sets_the_kernel_or_leaves_it_to_the_timing(monkeypatch, value, kernel):
    monkeypatch.delenv(KERNEL_VARIABLE, raising=False)
    if value is not None:
        monkeypatch.setenv(KERNEL_VARIABLE, value)
    assert asked_kernel() is kernel


@pytest.mark.parametrize("value", ["tiles", "fast", "panels,onednn", "1"])
def test_an_attnmt_float32_kernel_it_cannot_take_is_one_line_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv(KERNEL_VARIABLE, value)
    with pytest.raises(ConfigError, match=rf"^ATTNMT_FLOAT32_KERNEL={value!r}: give panels or onednn") as raised:
        asked_kernel()
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("kernel", [FloatKernel.PANELS, FloatKernel.ONEDNN])
def test_the_kernel_the_user_sets_is_a_prepared_copy_of_its_own_untimed_with_the_readable_models_output(
        trained_model, cache, monkeypatch, kernel):
    model, tokenizer = load_model_dir(trained_model)
    monkeypatch.setenv(KERNEL_VARIABLE, "")
    measured = prepared_file.prepared_path(trained_model / "model.safetensors", model.config, "fp32").name
    monkeypatch.setenv(KERNEL_VARIABLE, str(kernel))
    monkeypatch.setattr(prepared, "measure", lambda shapes, output=None: pytest.fail("timed a kernel the user set"))
    fast, _ = prepared.load_packed(trained_model)
    (written,) = cache.glob("fp32-*.safetensors")
    assert written.name != measured and f"-{kernel}-chosen-" in written.name
    assert fast.kernel_choice == KernelChoice.forced(kernel, step_shapes(model.config))
    assert type(fast.output) is (PackedLinear if kernel is FloatKernel.ONEDNN else PanelLinear)
    torch.testing.assert_close(step_logits(fast), step_logits(model), atol=2e-5, rtol=1e-4)
    assert translate(fast, tokenizer, SOURCES) == translate(model, tokenizer, SOURCES)
    later, _ = prepared.load_packed(trained_model)  # read back from the cache, still untimed
    assert later.kernel_choice == fast.kernel_choice
    assert all(line.endswith("(not timed)") for line in later.kernel_choice.describe())


def test_the_aligning_padding_is_known_before_the_file_is_written(tmp_path):
    """Any mix of dtypes, shapes (empty ones too) and metadata (quotes, backslashes, control
    characters, non-ASCII) lands on a multiple of 64 with the padding predicted."""
    rng = random.Random(0)
    dtypes = [torch.float32, torch.int8, torch.uint8, torch.float16, torch.bfloat16, torch.int32, torch.int64]
    for trial in range(60):
        tensors = {"".join(rng.choices(string.ascii_letters + "._", k=rng.randint(1, 24))):
                   torch.zeros([rng.randint(0, 40) for _ in range(rng.randint(1, 3))], dtype=rng.choice(dtypes))
                   for _ in range(rng.randint(1, 30))}
        noise = "".join(rng.choices(string.printable, k=rng.randint(0, 80)))
        metadata = {"source": f"/data/modèle \"{trial}\"\\x\n{noise}", "padding": ""}
        metadata["padding"] = prepared_file.aligning_padding(tensors, metadata)
        path = tmp_path / f"{trial}.safetensors"
        prepared_file.write_tensors(tensors, path, metadata)
        assert prepared_file.data_start(path) % prepared_file.ALIGN == 0, (trial, len(metadata["padding"]))
