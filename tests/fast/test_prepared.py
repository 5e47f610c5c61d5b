"""The int8 copy prepared once and memory-mapped at later starts (attnmt.fast.prepared): the panels
where the CPU has AVX512-VNNI, else (fbgemm: the lower-ISA run) the int8 weights fbgemm packs."""

import dataclasses
import os
import shutil
import warnings

import pytest
import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save_file
from support import EMBEDDING_TIES, NEEDS_EXTENSION_BUILD, PAIRS

from attnmt import checkpoint
from attnmt.checkpoint import WEIGHTS, load_model_config, load_model_dir, read_tensors, save_model_config, save_weights
from attnmt.config import TransformerConfig
from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.decoding.translate import translate
from attnmt.errors import ModelDirError
from attnmt.fast import extension, prepare, prepared, prepared_file
from attnmt.fast.int8 import DynamicInt8Linear, Int8PanelLinear, int8_panels_available, quantize_linear_layers
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelEmbedding, PanelLinear
from attnmt.files import file_digest
from attnmt.hardware import bf16_native
from attnmt.model import Transformer

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not extension.available(), reason="the extension cannot be built here"),
]
SOURCES = [source for source, _ in PAIRS[:6]]


def logits(model, tokenizer) -> torch.Tensor:
    src = torch.tensor([tokenizer.encode(SOURCES[3])])
    tgt = torch.tensor([[model.config.bos_id, *tokenizer.encode(PAIRS[3][1])]])
    with torch.no_grad():
        return model(src, tgt)


def test_the_first_load_writes_the_copy_and_later_ones_map_it_with_the_same_numbers(trained_model, cache,
                                                                                     monkeypatch):
    model, tokenizer = load_model_dir(trained_model)
    reference = prepare(model, int8=True)
    if int8_panels_available():  # quantised from the weights file a layer at a time: no readable model loaded
        monkeypatch.setattr(prepared, "load_model_dir", lambda *args: pytest.fail("the whole model loaded"))
    first, _ = prepared.load_int8(trained_model)
    (written,) = cache.glob("int8-*.safetensors")
    monkeypatch.setattr(prepared, "prepare", lambda *args, **kwargs: pytest.fail("prepared again"))
    monkeypatch.setattr(prepared, "pack_layers", lambda *args, **kwargs: pytest.fail("quantised again"))
    later, later_tokenizer = prepared.load_int8(trained_model)
    for copy in (first, later):
        assert torch.equal(logits(copy, tokenizer), logits(reference, tokenizer))  # the same panels: bit for bit
        assert translate(copy, tokenizer, SOURCES) == translate(reference, tokenizer, SOURCES)
        assert copy.step is not None and copy.trained_parameters == model.num_parameters()
        assert not any(type(m) is torch.nn.Linear for m in copy.modules())
        assert type(copy.output) is (Int8PanelLinear if int8_panels_available() else DynamicInt8Linear)
    assert later_tokenizer.encode(SOURCES[0]) == tokenizer.encode(SOURCES[0])
    with safe_open(str(written), framework="pt") as file:
        names = set(file.keys())
    assert "src_embed.weight" in names and ("output.panels" if int8_panels_available() else "output.int8") in names
    assert not any("qkv_proj.weight" in name or name == "output.weight" for name in names)  # no float copy
    assert any(".self_attn.qkv_proj." in name for name in names)  # W_Q, W_K and W_V once, side by side
    assert not any(f".self_attn.{part}_proj." in name for name in names for part in "qkv")


def test_tied_embeddings_are_stored_once_and_stay_tied(trained_model, cache):
    model, _ = load_model_dir(trained_model)
    if not model.config.tie_embeddings:
        pytest.skip("the test model has separate embeddings")
    fast, _ = prepared.load_int8(trained_model)
    assert fast.tgt_embed.weight is fast.src_embed.weight
    with safe_open(str(next(cache.glob("int8-*.safetensors"))), framework="pt") as file:
        assert "tgt_embed.weight" not in set(file.keys())


def test_changed_weights_are_prepared_anew_not_read_from_the_stale_copy(trained_model, cache, tmp_path):
    model_dir = tmp_path / "model"
    shutil.copytree(trained_model, model_dir)
    before, tokenizer = prepared.load_int8(model_dir)
    model, _ = load_model_dir(model_dir)
    with torch.no_grad():
        model.output.bias.add_(1.0) if model.output.bias is not None else model.decoder_layers[0].norm1.bias.add_(1.0)
    save_weights(model, model_dir / WEIGHTS)
    after, _ = prepared.load_int8(model_dir)
    assert torch.equal(logits(after, tokenizer), logits(prepare(model, int8=True), tokenizer))
    assert not torch.equal(logits(after, tokenizer), logits(before, tokenizer))
    copies = list(cache.glob("int8-*.safetensors"))  # the earlier weights' copy stays: another folder may hold them
    (latest,) = [path for path in copies if file_digest(model_dir / WEIGHTS).startswith(path.name.split("-")[1])]
    assert len(copies) == 2
    with safe_open(str(latest), framework="pt") as file:
        assert file.metadata()["source"] == str((model_dir / WEIGHTS).resolve())


@pytest.mark.parametrize("precision", ["int8", "fp32"])
def test_an_upgrade_that_changes_the_format_replaces_the_older_copy(trained_model, cache, monkeypatch, precision):
    load = prepared.load_int8 if precision == "int8" else prepared.load_packed
    if precision == "fp32" and not torch.ops.attnmt.panels_available():
        pytest.skip("no float32 panels here: the float32 copy is not stored")
    load(trained_model)
    (older,) = cache.glob(f"{precision}-*.safetensors")
    other = prepared.load_packed if precision == "int8" else prepared.load_int8
    other(trained_model)  # the other precision's copy: not this one's older format
    others = set(cache.glob("*.safetensors")) - {older}
    monkeypatch.setattr(prepared_file, "FORMAT", prepared_file.FORMAT + 1)
    load(trained_model)
    (newer,) = cache.glob(f"{precision}-*-v{prepared_file.FORMAT}.safetensors")
    assert not older.exists() and set(cache.glob("*.safetensors")) == others | {newer}


def test_layers_copied_into_their_own_layout_at_load_are_read_not_mapped(trained_model, cache, monkeypatch):
    """fbgemm's int8 layers (and float32 ones on oneDNN) copy their weights as they load: the file's
    pages of those weights would otherwise stay resident beside the copy, as long as the file is mapped."""
    first, tokenizer = prepared.load_int8(trained_model)
    read, original = [], prepared_file.read_unmapped

    def spy(path, names):
        read.extend(names)
        return original(path, names)

    monkeypatch.setattr(prepared_file, "read_unmapped", spy)
    later, _ = prepared.load_int8(trained_model)
    copied = {name for name, m in later.named_modules() if type(m) in (DynamicInt8Linear, PackedLinear)}
    assert {name.rpartition(".")[0] for name in read} == copied
    assert translate(later, tokenizer, SOURCES) == translate(first, tokenizer, SOURCES)


def test_loading_the_int8_copy_shows_no_deprecation_warning_of_pytorchs(trained_model, cache):
    """fbgemm's int8 layers hold qint8 weights, whose making PyTorch 2.13 warns about as deprecated:
    a line on the stderr of every ``translate --int8`` run that the user can do nothing about."""
    first, tokenizer = prepared.load_int8(trained_model)
    was = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # the warning otherwise comes once a process: an earlier test may have had it
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            later, _ = prepared.load_int8(trained_model)
    finally:
        torch.set_warn_always(was)
    assert translate(later, tokenizer, SOURCES) == translate(first, tokenizer, SOURCES)


def test_tensors_read_unmapped_equal_the_mapped_ones_in_memory_of_their_own(tmp_path):
    path = tmp_path / "tensors.safetensors"
    stored = {"a.int8": torch.arange(-6, 6, dtype=torch.int8).view(3, 4),
              "a.scales": torch.tensor([0.5, 0.25]).double(), "a.zero_points": torch.tensor([0, 7]),
              "b.weight": torch.randn(2, 3), "b.bias": torch.randn(2).half()}
    save_file(stored, str(path))
    read = prepared_file.read_unmapped(path, {"a.int8", "a.scales", "a.zero_points", "b.weight", "b.bias"})
    assert read.keys() == stored.keys()
    for name, tensor in stored.items():
        assert read[name].dtype == tensor.dtype and torch.equal(read[name], tensor)
    read["b.weight"].zero_()  # its own memory: the file and a second read are unchanged
    assert torch.equal(prepared_file.read_unmapped(path, {"b.weight"})["b.weight"], stored["b.weight"])


def test_a_copy_removed_as_it_is_loaded_is_prepared_again(trained_model, cache, monkeypatch):
    prepared.load_int8(trained_model)
    (copy,) = cache.glob("int8-*.safetensors")
    load_prepared, removed = prepared.load_prepared, []

    def removed_first(path, config):  # another shell's attnmt cache --clear, between the check and the read
        if not removed:
            removed.append(path)
            path.unlink()
        return load_prepared(path, config)

    monkeypatch.setattr(prepared, "load_prepared", removed_first)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gone is not damaged: no warning
        fast, tokenizer = prepared.load_int8(trained_model)
    model, _ = load_model_dir(trained_model)
    assert removed == [copy] and copy.exists()  # prepared and written again
    assert translate(fast, tokenizer, SOURCES) == translate(prepare(model, int8=True), tokenizer, SOURCES)


def test_a_copy_removed_just_after_it_is_written_is_served_from_memory(trained_model, cache, monkeypatch):
    load_prepared = prepared.load_prepared

    def removed_first(path, config):
        path.unlink()  # another shell's attnmt cache --clear, between the write and the read
        return load_prepared(path, config)

    monkeypatch.setattr(prepared, "load_prepared", removed_first)
    fast, tokenizer = prepared.load_int8(trained_model)
    model, _ = load_model_dir(trained_model)
    assert not list(cache.glob("int8-*.safetensors"))
    assert translate(fast, tokenizer, SOURCES) == translate(prepare(model, int8=True), tokenizer, SOURCES)


def test_a_file_of_another_format_is_refused(trained_model, cache, monkeypatch):
    prepared.load_int8(trained_model)
    monkeypatch.setattr(prepared_file, "FORMAT", prepared_file.FORMAT + 1)
    (written,) = cache.glob("int8-*.safetensors")
    with pytest.raises(ValueError, match="format"):
        prepared_file.load_prepared(written, load_model_dir(trained_model)[0].config)


def test_an_unwritable_cache_warns_and_serves_the_copy_from_memory(trained_model, tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ATTNMT_CACHE", str(blocker))
    with pytest.warns(UserWarning, match="could not cache"):
        fast, tokenizer = prepared.load_int8(trained_model)
    model, _ = load_model_dir(trained_model)
    assert translate(fast, tokenizer, SOURCES) == translate(prepare(model, int8=True), tokenizer, SOURCES)


@pytest.mark.parametrize("bf16", [False, True])
def test_the_float_copy_built_a_layer_at_a_time_is_prepares_own(trained_model, cache, monkeypatch, bf16):
    """float32: built once (its panels stored in the cache), mapped from the cache after; bf16: built
    at every start (oneDNN's layout cannot be stored)."""
    if bf16 and not bf16_native()[0]:
        pytest.skip("bf16 layers need a CPU that multiplies bf16")
    model, tokenizer = load_model_dir(trained_model)
    reference = prepare(model, bf16=bf16)
    first, fast_tokenizer = prepared.load_packed(trained_model, bf16=bf16)
    if first.kernel_choice is not None:  # measured on this CPU: oneDNN for layers where it won (an AVX2 CPU)
        reference.kernel_choice = first.kernel_choice
        reference.finish(fused_step=True, on_cpu=True)
    stored = sorted(cache.glob("fp32-*.safetensors"))
    panels = not bf16 and torch.ops.attnmt.panels_available()
    assert len(stored) == panels
    if panels:
        monkeypatch.setattr(prepared, "pack_layers", lambda *args, **kwargs: pytest.fail("packed again"))
    later, _ = prepared.load_packed(trained_model, bf16=bf16)
    for fast in (first, later):
        assert torch.equal(logits(fast, tokenizer), logits(reference, tokenizer))  # the same layers, bit for bit
        assert translate(fast, fast_tokenizer, SOURCES) == translate(reference, tokenizer, SOURCES)
        assert fast.step is not None and fast.trained_parameters == model.num_parameters()
        kinds = {type(m) for m in fast.modules() if hasattr(m, "in_features")}  # no float32 nn.Linear left
        assert kinds == {type(m) for m in reference.modules() if hasattr(m, "in_features")}
        assert torch.nn.Linear not in kinds
        if model.config.tie_embeddings:
            assert fast.tgt_embed is fast.src_embed
        if isinstance(fast.output, PanelLinear) and model.config.tie_embeddings:  # the matrix held once
            assert type(fast.src_embed) is PanelEmbedding and fast.src_embed.panels is fast.output.panels
    if panels:
        with safe_open(str(stored[0]), framework="pt") as file:
            names = set(file.keys())
        assert "decoder_layers.0.self_attn.qkv_proj.panels" in names
        assert not any(f".self_attn.{part}_proj." in name for name in names for part in "qkv")
        if isinstance(later.output, PanelLinear) and model.config.tie_embeddings:
            assert "output.panels" in names and not names & {"src_embed.weight", "tgt_embed.weight"}


@pytest.mark.parametrize("ties", [*EMBEDDING_TIES.values(), {"output_bias": True, "norm_first": True}],
                         ids=[*EMBEDDING_TIES, "output bias, pre-norm"])
def test_the_copies_built_from_the_file_a_layer_at_a_time_are_prepares_own_for_each_way_of_tying(
        trained_copy, cache, monkeypatch, ties):
    """load_int8 and load_packed build their copy from the weights file a layer at a time (no
    readable model where the panels run): bit for bit prepare's copy of the loaded model, the tied
    matrices read from where the file stores them once."""
    config = dataclasses.replace(load_model_config(trained_copy), **ties)
    if config.src_vocab_size is not None:  # the folder's one tokenizer: the same pieces, a table of their own
        config = dataclasses.replace(config, src_vocab_size=config.vocab_size)
    torch.manual_seed(3)
    model = Transformer(config).eval()
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if name.endswith("bias"):  # the zeros they start as would hide a bias left out
                parameter.normal_()
    save_model_config(config, trained_copy)
    save_weights(model, trained_copy / WEIGHTS)
    src = torch.randint(4, config.vocab_size, (3, 7))
    for options in ({}, {"int8": True}):
        reference = prepare(model, **options)
        load = prepared.load_int8 if options else prepared.load_packed
        for _ in range(2):  # built, then mapped from the cache
            with monkeypatch.context() as patched:
                if int8_panels_available():
                    patched.setattr(prepared, "load_model_dir", lambda *args: pytest.fail("the whole model loaded"))
                fast, _ = load(trained_copy)
            if fast.kernel_choice is not None:  # the float32 layers on the kernels measured fastest here
                reference.kernel_choice = fast.kernel_choice
                reference.finish(fused_step=True, on_cpu=True)
            with torch.no_grad():
                assert torch.equal(fast(src, src), reference(src, src))
            assert greedy_search(fast, src) == greedy_search(reference, src)
            beam = Decoding(beam_size=3)
            assert beam_search(fast, src, beam) == beam_search(reference, src, beam)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_weights_stored_in_16_bits_give_the_copies_of_the_readable_models_float32(trained_copy, cache, dtype):
    """A weights file saved in float16 or bfloat16: the readable model copies it into float32; the
    copies built from the file a layer at a time mapped its LayerNorms as they were, and the C++
    step refused them (a traceback from every float32 translate)."""
    tensors = read_tensors(trained_copy / WEIGHTS)
    save_file({name: tensor.to(dtype) for name, tensor in tensors.items()}, str(trained_copy / WEIGHTS))
    model, tokenizer = load_model_dir(trained_copy)
    for load, options in ((prepared.load_packed, {}), (prepared.load_int8, {"int8": True})):
        reference = prepare(model, **options)
        for _ in range(2):  # built, then mapped from the cache
            fast, _ = load(trained_copy)
            if fast.kernel_choice is not None:  # the float32 layers on the kernels measured fastest here
                reference.kernel_choice = fast.kernel_choice
                reference.finish(fused_step=True, on_cpu=True)
            assert torch.equal(logits(fast, tokenizer), logits(reference, tokenizer))
            assert translate(fast, tokenizer, SOURCES) == translate(reference, tokenizer, SOURCES)
            assert all(t.dtype != dtype for t in fast.state_dict().values())


@pytest.mark.parametrize("default", [torch.bfloat16, torch.float64])
def test_the_copies_loaded_under_another_default_dtype_translate_as_under_float32(trained_model, cache,
                                                                                 host_default_dtype, default):
    """A host program that runs other models in bfloat16 and then loads attnmt's: the int8 copy's
    scales were bfloat16's (other translations), and timing the step's kernels on inputs of the
    default dtype failed the load.  The readable model and both copies, prepared anew under the
    default, translate as under float32."""
    searches = (Decoding(beam_size=4), Decoding(beam_size=1))

    def translations() -> list[list[str]]:
        shutil.rmtree(cache, ignore_errors=True)  # each copy prepared (and its kernels timed) anew
        loaded = [load_model_dir(trained_model), prepared.load_int8(trained_model), prepared.load_packed(trained_model)]
        return [translate(model, tokenizer, SOURCES, decoding) for model, tokenizer in loaded for decoding in searches]

    expected = translations()
    host_default_dtype(default)
    assert translations() == expected


def test_a_weights_file_that_does_not_fit_is_one_line_naming_it(trained_model, tmp_path, cache):
    model_dir = tmp_path / "model"
    shutil.copytree(trained_model, model_dir)
    tensors = read_tensors(model_dir / WEIGHTS)
    renamed = next(name for name in tensors if name.endswith("norm1.bias"))
    tensors["something.else"] = tensors.pop(renamed)
    save_file(tensors, str(model_dir / WEIGHTS))
    with pytest.raises(ModelDirError, match=f"{WEIGHTS}: weights do not match.*{renamed}.*something.else"):
        prepared.load_packed(model_dir)


def test_a_cached_int8_copy_is_loaded_without_checking_its_weights_again(trained_model, cache, monkeypatch):
    """Its name holds the weights' sha256 and the config's, checked as it was prepared: the check builds a model,
    as loading the copy does (issue 44, a one-line job's start-up)."""
    prepared.load_int8(trained_model)  # checked, prepared and stored
    monkeypatch.setattr(checkpoint, "check_weights_fit", lambda *args: pytest.fail("checked again"))
    assert prepared.load_int8(trained_model)[0].step is not None


@pytest.mark.parametrize("threads", [1, 2])
def test_fbgemm_layers_packed_on_threads_equal_torch_aos_own_layers(threads):
    """fbgemm_layers (built 1x1, packed on PyTorch's threads) multiply exactly as the layers torch.ao
    quantised: on every CPU, whatever prepared.load_int8 picks there."""
    torch.manual_seed(0)
    originals = {}
    for name, (out, inputs) in {"wide": (300, 64), "square": (64, 64), "one": (1, 9)}.items():
        model = torch.nn.Sequential(torch.nn.Linear(inputs, out, bias=name != "square"))
        quantize_linear_layers(model)
        originals[name] = model[0]
    tensors = {}
    for name, layer in originals.items():
        weight = layer.weight()
        parts = (weight.int_repr(), weight.q_per_channel_scales(), weight.q_per_channel_zero_points())
        tensors |= {f"{name}.{part}": tensor for part, tensor in zip(prepared_file.FBGEMM_PARTS, parts, strict=True)}
        if layer.bias() is not None:
            tensors[f"{name}.bias"] = layer.bias()
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        shapes = {name: list(layer.weight().shape) for name, layer in originals.items()}
        built = prepared_file.fbgemm_layers(tensors, shapes)
    finally:
        torch.set_num_threads(before)
    assert not tensors  # every stored tensor taken
    for name, layer in originals.items():
        x = torch.randn(5, layer.in_features)
        assert (built[name].in_features, built[name].out_features) == (layer.in_features, layer.out_features)
        assert torch.equal(built[name](x), layer(x))
        assert (built[name].bias() is None) == (layer.bias() is None)


def test_a_damaged_remembered_digest_is_computed_again_not_trusted(tmp_path, cache):
    """A memo of file_digest that is no sha256 (a crash, a hand edit) would make every check against
    the weights' digest (the prepared copy, quality.json) fail, or pass wrongly."""
    import hashlib

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"some weights")
    right = hashlib.sha256(b"some weights").hexdigest()
    assert file_digest(weights) == right
    memos = list((cache / "digests").iterdir())
    assert [memo.read_text() for memo in memos] == [right]
    for memo in memos:
        memo.write_text("0000\n")
    assert file_digest(weights) == right
    assert right in [memo.read_text() for memo in memos]


def test_weights_rewritten_in_place_with_their_old_mtime_are_hashed_again(tmp_path, cache):
    """cp -p, rsync --inplace, touch -r: the same path, inode, size and modification time, other
    bytes; only the inode's change time (which no user can set) tells."""
    import hashlib

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"old weights")
    assert file_digest(weights) == hashlib.sha256(b"old weights").hexdigest()
    before = weights.stat()
    weights.write_bytes(b"new weights")
    os.utime(weights, ns=(before.st_atime_ns, before.st_mtime_ns))
    while weights.stat().st_ctime_ns == before.st_ctime_ns:  # the kernel's coarse clock: still the first write's tick
        os.utime(weights, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = weights.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    assert file_digest(weights) == hashlib.sha256(b"new weights").hexdigest()


def test_a_renamed_model_folder_reuses_its_prepared_copy(trained_model, cache, tmp_path, monkeypatch):
    """The copy is named by the weights' content: a moved or copied model is hashed once more, not prepared."""
    model_dir = tmp_path / "model"
    shutil.copytree(trained_model, model_dir)
    prepared.load_int8(model_dir)
    moved = model_dir.rename(tmp_path / "moved")
    monkeypatch.setattr(prepared, "prepare", lambda *args, **kwargs: pytest.fail("prepared again"))
    prepared.load_int8(moved)
    assert len(list(cache.glob("int8-*.safetensors"))) == 1


def test_a_prepared_copy_of_a_model_without_activation_dropout_keeps_its_name(tmp_path, monkeypatch, cache):
    """The name hashes the config: the key's None made every model's prepared copies new (a3d27b9's digest)."""
    monkeypatch.setattr(prepared_file, "tiles_allowed", lambda: False)
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    assert "-1c7c8744a6d6fae9-" in prepared_file.prepared_path(tmp_path / "model.safetensors", TransformerConfig(),
                                                               "fp32").name


def test_a_full_cache_disk_warns_and_serves_the_copy_from_memory(trained_model, cache, monkeypatch):
    """safetensors says a failed write as a SafetensorError: the same one-line warning as an unwritable cache."""
    def disk_full(*args, **kwargs):
        raise SafetensorError("Error while serializing: I/O error: No space left on device (os error 28)")

    monkeypatch.setattr(prepared_file, "save_file", disk_full)
    with pytest.warns(UserWarning, match="could not cache the inference copy .*no space left on device"):
        fast, tokenizer = prepared.load_int8(trained_model)
    model, _ = load_model_dir(trained_model)
    assert translate(fast, tokenizer, SOURCES) == translate(prepare(model, int8=True), tokenizer, SOURCES)
    assert not list(cache.glob("*.safetensors")) and not list(cache.glob(".*"))  # nothing half-written left
