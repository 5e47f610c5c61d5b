"""The inference copies loaded for translating: int8 and float32 prepared once and memory-mapped at
every later start, bf16 packed a layer at a time.

Preparing the int8 copy of a model (attnmt.fast.prepare) reads the float32 weights, quantises
every linear layer and packs it into panels for the int8 kernel.  At OPUS-MT's size (74M
parameters, 58,101 pieces) that took seconds at every start and held the float32 weights
beside the int8 ones (docs/design/fast-decoder.md).  So the first
``load_int8`` of a model writes what the int8 copy holds (each layer's panels, column sums,
scales and bias; the embeddings, LayerNorms and other float tensors) to one safetensors file
in the cache, and every later one maps that file into memory and builds the modules around
its tensors without copying them:

- no float32 copy of the linear layers exists in the serving process, and only the pages
  actually read are resident (an embedding row per token seen); several processes serving the
  same model share those pages;
- safetensors: no pickle, nothing in the file is executed;
- the file is named by the sha256 of the weights file and of the model's config, by the int8
  kernel this process runs and by the format's version, so changed weights, a changed config,
  another CPU or another attnmt never meet a stale file; hashing the weights (0.3-0.4 s for
  284 MB) is done once per weights file and remembered by its identity (device, inode, size,
  modification and change time in ns: every rewrite changes the change time, even one whose
  modification time was set back, as cp -p or rsync --inplace do);
- writing the file deletes the same copy in older formats, a load marks it read (a small file
  beside it), and it records the weights file it was first prepared from: what ``attnmt cache``
  lists and prunes (attnmt.fast.cache_contents).

The cache is ``$ATTNMT_CACHE/prepared`` (default ``~/.cache/attnmt``), beside the compiled
extension; where it cannot be written, the copy is used from memory as before.  With the int8
panel kernels (AMX, AVX512-VNNI, AVX2) the panels themselves are stored and mapped; without the
extension (fbgemm) the int8 weights and their scales are, and fbgemm packs them at every start
(a copy in fbgemm's layout, but no float32 copy and no quantising); what fbgemm or oneDNN copies
at every start is read from the file, not mapped, so that it is not resident twice
(``read_unmapped``).  The int8 copy's file (``int8-...-KERNEL-chosen-CPU-v6``) also holds the
int8 kernel chosen by timing on each decoder-step shape (attnmt.fast.kernels.measure_int8), where
more than one runs.  Without the extension ``load_int8`` is ``load_model_dir`` + ``prepare``.

The first time, the int8 copy is quantised from the weights file a layer at a time where the int8
panels run (``pack_layers``): neither the readable model nor a float32 copy of all its weights is
made on the way (the first start's peak halved at OPUS-MT's size).

The float32 copy (``load_packed``) goes through the same cache where the C++ step runs with the
float panel kernels (``fp32-...-chosen-CPU-v6``: each layer's panels and bias, attnmt.fast.panels.
PanelLinear, or, for a decoder-step layer whose shape oneDNN multiplied faster on this CPU, its
plain weight, packed for oneDNN at each load; and that kernel choice with its timings,
attnmt.fast.kernels, measured when the copy is first built; no embedding table where the embeddings
are tied to the output layer's panels, attnmt.fast.panels.PanelEmbedding); the first time, and for bf16
(oneDNN's layout is opaque to PyTorch) every time, it is built a layer at a time from the weights
file, without the readable model or a second float32 copy beside it.

The file itself (its name, what it holds, writing and mapping it) is attnmt.fast.prepared_file.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from torch import Tensor, nn

from attnmt.checkpoint import load_model_dir, open_model_dir, weights_mismatch
from attnmt.errors import AttnmtWarning, ModelDirError
from attnmt.fast import extension
from attnmt.fast.cache_contents import mark_read, remove_older_formats
from attnmt.fast.int8 import Int8PanelLinear, int8_panels_available, use_int8_kernels
from attnmt.fast.kernels import KernelChoice, asked_kernel, measure, measure_int8, step_shapes
from attnmt.fast.packed import Bf16PackedLinear, FusedQKVAttention, PackedLinear, fuse_self_attention, packing_available
from attnmt.fast.panels import PanelLinear, float_panels_for
from attnmt.fast.prepared_file import load_prepared, prepared_path, save_prepared
from attnmt.fast.transformer import FastTransformer, check_bf16, check_switches, prepare
from attnmt.files import atomic_write, drop_cached_pages
from attnmt.model import Transformer, TransformerConfig
from attnmt.model_languages import languages_from_training
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import read_longest_source
from attnmt.uninitialised import uninitialised


def load_int8(model_dir: str | Path, weights: str | Path | None = None
              ) -> tuple[FastTransformer, Tokenizer | VocabTokenizer]:
    """The int8 inference copy of a model directory and its tokenizer, from the cache when it holds
    it (written there the first time): what ``attnmt translate --int8`` and ``serve --int8`` run."""
    if not extension.available():
        return load_int8_now(model_dir, weights)
    config, weights_path, tokenizer = open_model_dir(model_dir, weights, cached_int8)
    longest = read_longest_source(model_dir)  # a damaged record is refused before the seconds of preparing
    def build() -> FastTransformer:
        if packing_available() and int8_panels_available():  # quantised a layer at a time from the file
            fast = pack_layers(config, weights_path, int8=True)
        else:
            fast = load_int8_now(model_dir, weights)[0]
        if isinstance(fast.output, Int8PanelLinear) and fast.step is not None:  # each step shape on its fastest kernel
            fast.int8_choice = measure_int8(step_shapes(config), output=(config.vocab_size, config.d_model))
            use_int8_kernels(fast, fast.int8_choice)
        return fast

    fast = through_cache(prepared_path(weights_path, config), config, build, weights_path)
    fast.longest_trained = longest  # as load_model_dir gives it: a copy mapped from the cache has none of its own
    fast.target_lang = languages_from_training(Path(model_dir))[1]
    return fast, tokenizer


def cached_int8(config: TransformerConfig, weights: Path) -> bool:
    """Whether the int8 copy of ``weights`` with ``config`` is cached for this process's kernels: it was
    prepared after open_model_dir checked them (its name holds their sha256 and the config's), so they
    need no check again, for which a model was built, as the copy's loading builds one (issue 44)."""
    return weights.is_file() and prepared_path(weights, config).is_file()


def through_cache(path: Path, config: TransformerConfig, build: Callable[[], FastTransformer],
                  source: Path) -> FastTransformer:
    """The inference copy stored at ``path``, mapped and marked read; where there is none (or it is
    damaged), the one ``build`` returns, stored there first with the weights file ``source`` it was
    prepared from, the same copy's older formats deleted (attnmt.fast.cache_contents).  A copy
    ``save_prepared`` cannot store, or a cache that cannot be written, is served as built."""
    if path.is_file():
        try:
            fast = load_prepared(path, config)
            mark_read(path)
            return fast
        except FileNotFoundError:  # removed as it was read (attnmt cache --prune in another shell)
            pass
        except (ValueError, KeyError, RuntimeError, SafetensorError, OSError) as error:  # damaged: written anew
            warnings.warn(f"attnmt: {path} is unreadable ({error}); preparing it again", AttnmtWarning, stacklevel=2)
    fast = build()
    if not storable(fast):
        return fast
    try:
        atomic_write(path, partial(save_prepared, fast, source=source))
    except (OSError, ModelDirError) as error:
        warnings.warn(f"attnmt: could not cache the inference copy in {path.parent} ({error}); "
                      "it will be prepared again at the next start", AttnmtWarning, stacklevel=2)
        return fast
    try:
        remove_older_formats(path)
    except OSError:
        pass  # another user's files, or a folder that may not be changed: they stay
    del fast  # serve the mapped file: the same memory behaviour on the first start as on later ones,
    drop_cached_pages(path)  # ... which its pages left in the page cache by the write would not give
    try:
        return load_prepared(path, config)
    except FileNotFoundError:  # removed since it was written: served from memory
        return build()


def storable(fast: FastTransformer) -> bool:
    """Whether every linear layer of ``fast`` is one ``save_prepared`` stores: not oneDNN's, except
    float32 ones the kernel choice put there (stored as their plain weight, packed at each load)."""
    chosen = fast.kernel_choice is not None
    return not any(isinstance(m, PackedLinear) and not (chosen and type(m) is PackedLinear) for m in fast.modules())


def load_int8_now(model_dir: str | Path, weights: str | Path | None
                  ) -> tuple[FastTransformer, Tokenizer | VocabTokenizer]:
    """The int8 copy prepared from the float32 weights, as without a cache."""
    model, tokenizer = load_model_dir(model_dir, weights)
    return prepare(model, int8=True), tokenizer


def load_packed(model_dir: str | Path, weights: str | Path | None = None, bf16: bool = False
                ) -> tuple[FastTransformer, Tokenizer | VocabTokenizer]:
    """The float32 inference copy of a model directory (``bf16``: its bf16 copy) and its tokenizer,
    built from the weights file one linear layer at a time: what ``attnmt translate`` and ``serve``
    run on the CPU without --int8.

    Float32 layers go into the panel kernels' layout where the C++ step runs
    (attnmt.fast.PanelLinear), stored in the cache the first time and mapped after, as the
    int8 copy is; elsewhere, and bf16, for oneDNN at every start (its layout is opaque to PyTorch
    and cannot be stored).  When built, each layer is read through a mapping of its own that
    closes once it is packed, so the float32 linear layers are never all resident beside their
    packed copies (as they are when a loaded model is prepared).  The embeddings and LayerNorms
    stay mapped from the file: only the pages read become resident (an embedding row per piece
    seen); embeddings tied to an output layer on the panels read their rows from its panels.  The
    numbers are those of ``prepare(load_model_dir(...))``."""
    check_switches(bf16=bf16)
    if not packing_available():
        model, tokenizer = load_model_dir(model_dir, weights)
        return prepare(model, bf16=bf16), tokenizer
    if bf16:
        check_bf16(on_cpu=True)
    config, path, tokenizer = open_model_dir(model_dir, weights)
    longest = read_longest_source(model_dir)
    build = partial(pack_layers, config, path, bf16=bf16)
    if bf16 or not (extension.available() and torch.ops.attnmt.panels_available()):
        fast = build()  # oneDNN's layers: nothing to store
    else:
        fast = through_cache(prepared_path(path, config, "fp32"), config, build, path)
    fast.longest_trained = longest  # as load_model_dir gives it: a copy built from the weights alone has none
    fast.target_lang = languages_from_training(Path(model_dir))[1]
    return fast, tokenizer


def pack_layers(config: TransformerConfig, path: Path, bf16: bool = False, int8: bool = False) -> FastTransformer:
    """``load_packed``'s copy (``int8``: ``load_int8``'s, where the int8 panels run), built from the
    weights file ``path`` one linear layer at a time: the numbers of ``prepare(load_model_dir(...))``
    without the readable model, or the copy of all its weights that ``prepare`` makes."""
    fast = FastTransformer.__new__(FastTransformer)
    with uninitialised():
        Transformer.__init__(fast, config)
        fast.trained_parameters = fast.num_parameters()
        stored = stored_names(fast, path)
        fuse_self_attention(fast, weights=False)
    kind: Callable[[Tensor, Tensor | None], nn.Module] = (
        Int8PanelLinear.from_weights if int8 else Bf16PackedLinear if bf16
        else PanelLinear if float_panels_for(fast) else PackedLinear)
    layer = partial(packed_layer, kind, path, stored)
    for parent_name, parent in list(fast.named_modules()):
        prefix = f"{parent_name}." if parent_name else ""
        if isinstance(parent, FusedQKVAttention):
            parent.qkv_proj = layer([f"{prefix}{part}_proj" for part in "qkv"])
        for name, child in parent.named_children():
            if type(child) is nn.Linear:
                setattr(parent, name, layer([prefix + name]))
    with safe_open(str(path), framework="pt") as file:  # the rest stays mapped (float32 ones: as_float32)
        tensors = {key: as_float32(file.get_tensor(key)) for key in {stored[name] for name in fast.state_dict()}}
    fast.load_state_dict({name: tensors[stored[name]] for name in fast.state_dict()}, assign=True)
    fast.eval().requires_grad_(False)
    if kind is PanelLinear:  # the C++ step's float32 layers: each shape on the kernel measured fastest here
        asked, shapes = asked_kernel(), step_shapes(config)  # or on the one the user set
        fast.kernel_choice = (KernelChoice.forced(asked, shapes) if asked
                              else measure(shapes, output=(config.vocab_size, config.d_model)))
    fast.finish(fused_step=True, on_cpu=True)
    return fast


def as_float32(tensor: Tensor) -> Tensor:
    """A weights file's float tensor in float32, as the readable model's parameters hold it (copied
    into them: load_model_dir): a file saved in float16 or bfloat16 gave the C++ step LayerNorms it
    refused.  A float32 one is returned as it is (still mapped)."""
    return tensor.float() if tensor.is_floating_point() else tensor


def stored_names(model: nn.Module, path: Path) -> dict[str, str]:
    """Each of ``model``'s state-dict names -> the name the weights file holds it under (a tied
    matrix is stored once, under one of its names); a file that does not fit is one line."""
    with safe_open(str(path), framework="pt") as file:
        keys = set(file.keys())
    groups: dict[int, list[str]] = {}
    for name, tensor in model.state_dict().items():
        groups.setdefault(tensor.untyped_storage().data_ptr(), []).append(name)
    stored, missing = {}, []
    for names in groups.values():
        present = [name for name in names if name in keys]
        if present:
            stored |= dict.fromkeys(names, present[0])
        else:
            missing += names
    if missing or keys - stored.keys():
        raise weights_mismatch(path, missing, keys - stored.keys())
    return stored


def packed_layer(kind: Callable[[Tensor, Tensor | None], nn.Module], path: Path, stored: dict[str, str],
                 names: list[str]) -> nn.Module:
    """The layers ``names`` of the weights file, side by side, as one packed layer; read through a
    mapping of their own, closed again when this returns."""
    with safe_open(str(path), framework="pt") as file:
        parts = [[file.get_tensor(stored[f"{name}.{part}"]) for name in names if f"{name}.{part}" in stored]
                 for part in ("weight", "bias")]
    weight = parts[0][0] if len(names) == 1 else torch.cat(parts[0])
    bias = (parts[1][0] if len(names) == 1 else torch.cat(parts[1])) if parts[1] else None
    return kind(weight, bias)
