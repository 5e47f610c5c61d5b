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
  modification time in ns: every rewrite changes one of them);
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
int8 kernel measured fastest on each decoder-step shape (attnmt.fast.kernels.measure_int8), where
more than one runs.  Without the extension ``load_int8`` is ``load_model_dir`` + ``prepare``.

The float32 copy (``load_packed``) goes through the same cache where the C++ step runs with the
float panel kernels (``fp32-...-chosen-CPU-v6``: each layer's panels and bias, attnmt.fast.panels.
PanelLinear, or, for a decoder-step layer whose shape oneDNN multiplied faster on this CPU, its
plain weight, packed for oneDNN at each load; and that kernel choice with its timings,
attnmt.fast.kernels, measured when the copy is first built; no embedding table where the embeddings
are tied to the output layer's panels, attnmt.fast.panels.PanelEmbedding); the first time, and for bf16
(oneDNN's layout is opaque to PyTorch) every time, it is built a layer at a time from the weights
file, without the readable model or a second float32 copy beside it.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from functools import partial
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save_file
from torch import Tensor, nn

from attnmt.checkpoint import load_model_dir, open_model_dir, weights_mismatch
from attnmt.errors import AttnmtWarning, ModelDirError
from attnmt.fast import extension, int8
from attnmt.fast.cache_contents import mark_read, remove_older_formats
from attnmt.fast.int8 import DynamicInt8Linear, Int8PanelLinear, int8_linear, use_int8_kernels
from attnmt.fast.kernels import Int8Choice, KernelChoice, measure, measure_int8, step_shapes
from attnmt.fast.packed import Bf16PackedLinear, FusedQKVAttention, PackedLinear, fuse_self_attention, packing_available
from attnmt.fast.panels import PanelEmbedding, PanelLinear, embeddings_from_panels, float_panels_for
from attnmt.fast.transformer import FastTransformer, check_bf16, prepare
from attnmt.files import atomic_write, drop_cached_pages, file_digest
from attnmt.hardware import cpu_flags, cpu_model, onednn_isa_cap
from attnmt.model import Transformer, TransformerConfig
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.uninitialised import uninitialised

# Bump when what is stored, or how, changes, or the speed of a kernel a stored choice timed.
FORMAT = 6
PANEL_PARTS = ("panels", "offsets", "scales", "bias")  # Int8Panels.tensors(), in order
EMBEDDINGS = ("src_embed", "tgt_embed")
FBGEMM_PARTS = ("int8", "scales", "zero_points")  # a torch.ao layer's per-channel int8 weight (its bias: "bias")
# The tensors' data starts on a multiple of this in the file, so that the panels mapped from it are
# aligned as the kernels read them (attnmt.fast.panels.PanelLinear.from_panels copies them otherwise:
# a copy of every layer in the process's own memory).  safetensors aligns the start to 8 bytes only.
ALIGN = 64


def cache_folder() -> Path:
    return extension.cache_root() / "prepared"


def prepared_path(weights: Path, config: TransformerConfig, precision: str = "int8") -> Path:
    """Where the ``precision`` ("int8", "fp32") copy of these weights with this config is cached for
    this process's kernels (int8: int8_kernel, and the int8 kernels measured on this CPU; float32: the
    kernels measured on this CPU; so a cache shared by several machines keeps one copy per CPU:
    attnmt.fast.kernels)."""
    config_digest = hashlib.sha256(json.dumps(asdict(config), sort_keys=True).encode()).hexdigest()[:16]
    kernel = f"{int8_kernel()}-chosen-{cpu_digest()}" if precision == "int8" else f"chosen-{cpu_digest()}"
    name = f"{precision}-{file_digest(weights)[:32]}-{config_digest}-{kernel}-v{FORMAT}.safetensors"
    return cache_folder() / name


def cpu_digest() -> str:
    """This CPU's model, flags and oneDNN cap, hashed: what a float32 copy's kernel choice holds for."""
    return hashlib.sha256(f"{cpu_model()}|{sorted(cpu_flags())}|{onednn_isa_cap()}".encode()).hexdigest()[:12]


def int8_kernel() -> str:
    """What multiplies the int8 copy's layers in this process: "amx", "vnni", "avx2" (the panels) or
    "fbgemm" (torch.ao's layers)."""
    kernel = int8.int8_kernel()
    return "fbgemm" if kernel == "none" else kernel


def load_int8(model_dir: str | Path, weights: str | Path | None = None
              ) -> tuple[FastTransformer, Tokenizer | VocabTokenizer]:
    """The int8 inference copy of a model directory and its tokenizer, from the cache when it holds
    it (written there the first time): what ``attnmt translate --int8`` and ``serve --int8`` run."""
    if not extension.available():
        return load_int8_now(model_dir, weights)
    config, weights_path, tokenizer = open_model_dir(model_dir, weights)
    def build() -> FastTransformer:
        fast = load_int8_now(model_dir, weights)[0]
        if isinstance(fast.output, Int8PanelLinear) and fast.step is not None:  # each step shape on its fastest kernel
            fast.int8_choice = measure_int8(step_shapes(config), output=(config.vocab_size, config.d_model))
            use_int8_kernels(fast, fast.int8_choice)
        return fast

    return through_cache(prepared_path(weights_path, config), config, build, weights_path), tokenizer


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


def save_prepared(fast: FastTransformer, path: Path, source: Path | None = None) -> None:
    """Writes what the int8 or float32 copy ``fast`` holds to ``path`` (safetensors), with the weights
    file ``source`` it was prepared from (for ``attnmt cache``)."""
    tensors: dict[str, Tensor] = {}
    shapes: dict[str, list[int]] = {}
    fbgemm: dict[str, list[int]] = {}
    floats: dict[str, list[int]] = {}
    onednn: dict[str, list[int]] = {}
    for name, module in fast.named_modules():
        if type(module) is PackedLinear:  # on oneDNN by the kernel choice: its plain weight
            onednn[name] = [module.out_features, module.in_features]
            tensors[f"{name}.weight"] = module.packed.to_dense().contiguous()
            if module.bias is not None:
                tensors[f"{name}.bias"] = module.bias
        elif isinstance(module, PanelLinear):
            floats[name] = [module.out_features, module.in_features]
            tensors[f"{name}.panels"] = module.panels
            if module.bias is not None:
                tensors[f"{name}.bias"] = module.bias
        elif isinstance(module, Int8PanelLinear):
            shapes[name] = list(module.panels.shape())
            for part, tensor in zip(PANEL_PARTS, module.panels.tensors(), strict=True):
                tensors[f"{name}.{part}"] = tensor
        elif type(module) is DynamicInt8Linear:
            weight, bias = module.weight(), module.bias()
            fbgemm[name] = list(weight.shape)
            parts = (weight.int_repr(), weight.q_per_channel_scales(), weight.q_per_channel_zero_points())
            tensors |= {f"{name}.{part}": tensor.contiguous() for part, tensor in zip(FBGEMM_PARTS, parts, strict=True)}
            if bias is not None:
                tensors[f"{name}.bias"] = bias.detach().contiguous()
    aliases: dict[str, str] = {}  # a tied tensor is stored once
    seen: dict[int, str] = {}
    for name, tensor in fast.state_dict().items():
        if name.rpartition(".")[0].removesuffix("._packed_params") in fbgemm:
            continue  # torch.ao's own entries (packed parameters, dtype): stored above
        key = tensor.untyped_storage().data_ptr()
        if key in seen:
            aliases[name] = seen[key]
        else:
            seen[key] = name
            tensors[name] = tensor.contiguous()
    from_panels = [name for name in EMBEDDINGS if isinstance(getattr(fast, name), PanelEmbedding)]  # no table stored
    metadata = dict(format=str(FORMAT), kernel=int8_kernel(), panels=json.dumps(shapes), fbgemm=json.dumps(fbgemm),
                    float_panels=json.dumps(floats), onednn=json.dumps(onednn), aliases=json.dumps(aliases),
                    embeddings_from_panels=json.dumps(from_panels), trained_parameters=str(fast.trained_parameters))
    if fast.kernel_choice is not None:
        metadata["kernel_choice"] = fast.kernel_choice.to_json()
    if fast.int8_choice is not None:
        metadata["int8_choice"] = fast.int8_choice.to_json()
    if source is not None:
        metadata["source"] = str(Path(source).resolve())
    metadata["padding"] = ""
    save_file(tensors, str(path), metadata=metadata)
    misaligned = data_start(path) % ALIGN
    if misaligned:  # written again, its header padded: the header's length moves every tensor in the file
        metadata["padding"] = " " * (ALIGN - misaligned)  # a multiple of 8, as safetensors pads the header
        save_file(tensors, str(path), metadata=metadata)


def data_start(path: Path) -> int:
    """Where a safetensors file's tensors begin: after the 8-byte header length and the header."""
    with open(path, "rb") as file:
        return 8 + int.from_bytes(file.read(8), "little")


def load_prepared(path: Path, config: TransformerConfig) -> FastTransformer:
    """The copy that ``save_prepared`` wrote, its tensors mapped from ``path``, not copied."""
    with safe_open(str(path), framework="pt") as file:
        metadata = file.metadata()
        if metadata.get("format") != str(FORMAT):
            raise ValueError(f"{path}: prepared-model format {metadata.get('format')}, expected {FORMAT}")
        repacked = repacked_names(metadata, file.keys())
        tensors = {name: file.get_tensor(name) for name in file.keys() if name not in repacked}  # noqa: SIM118
    tensors |= read_unmapped(path, repacked)
    fast = skeleton(config)
    fast.trained_parameters = int(metadata["trained_parameters"])
    layers = {name: panel_layer(tensors, name, n, k) for name, (n, k) in json.loads(metadata["panels"]).items()}
    layers |= fbgemm_layers(tensors, json.loads(metadata.get("fbgemm", "{}")))
    layers |= {name: PanelLinear.from_panels(tensors.pop(f"{name}.panels"), tensors.pop(f"{name}.bias", None),
                                                   out, inputs)
               for name, (out, inputs) in json.loads(metadata.get("float_panels", "{}")).items()}
    layers |= {name: PackedLinear(tensors.pop(f"{name}.weight"), tensors.pop(f"{name}.bias", None))
               for name in json.loads(metadata.get("onednn", "{}"))}
    if "kernel_choice" in metadata:
        fast.kernel_choice = KernelChoice.from_json(metadata["kernel_choice"])
    if "int8_choice" in metadata:
        fast.int8_choice = Int8Choice.from_json(metadata["int8_choice"])
    for name, canonical in json.loads(metadata["aliases"]).items():
        tensors[name] = tensors[canonical]
    from_panels = json.loads(metadata.get("embeddings_from_panels", "[]"))
    for name in from_panels:  # no table of their own: read from the output layer's panels (PanelEmbedding)
        setattr(fast, name, None)
    fast.load_state_dict(tensors, assign=True)
    for name, layer in layers.items():  # after the state dict: it has no entries for the linear layers
        parent, _, child = name.rpartition(".")
        setattr(fast.get_submodule(parent) if parent else fast, child, layer)
    embeddings_from_panels(fast)
    if any(getattr(fast, name) is None for name in from_panels):
        raise ValueError(f"{path}: the embeddings {from_panels} are to be read from panels the output layer lacks")
    fast.finish(fused_step=True, on_cpu=True)
    return fast


def repacked_names(metadata: dict[str, str], names: list[str]) -> set[str]:
    """The stored tensors of the layers that copy their weights into a layout of their own at each
    load (fbgemm's int8 layers, the float32 layers the kernel choice put on oneDNN)."""
    layers = set(json.loads(metadata.get("fbgemm", "{}"))) | set(json.loads(metadata.get("onednn", "{}")))
    return {name for name in names if name.rpartition(".")[0] in layers}


# safetensors' dtype names -> torch's, for the dtypes a prepared copy stores
DTYPES = {"F64": torch.float64, "F32": torch.float32, "BF16": torch.bfloat16, "F16": torch.float16,
          "I64": torch.int64, "I32": torch.int32, "I8": torch.int8, "U8": torch.uint8}


def read_unmapped(path: Path, names: set[str]) -> dict[str, Tensor]:
    """Tensors ``names`` of the safetensors file ``path``, read into memory of their own, not mapped:
    for the layers that are copied into another layout as they load.  A mapped page once read stays
    in the process's resident memory as long as the file is mapped (the whole serving life), beside
    that copy: at OPUS-MT's size 42 MB of float32 weights, or 79 MB of fbgemm's int8 ones."""
    tensors: dict[str, Tensor] = {}
    with open(path, "rb") as file:
        header = json.loads(file.read(int.from_bytes(file.read(8), "little")))
        start = file.tell()
        for name in sorted(names, key=lambda name: header[name]["data_offsets"][0]):  # in file order
            entry = header[name]
            begin, end = entry["data_offsets"]
            tensor = torch.empty(entry["shape"], dtype=DTYPES[entry["dtype"]])
            file.seek(start + begin)
            if file.readinto(tensor.reshape(-1).view(torch.uint8).numpy()) != end - begin:
                raise ValueError(f"{path}: {name} is cut short")
            tensors[name] = tensor
    return tensors


def panel_layer(tensors: dict[str, Tensor], name: str, n: int, k: int) -> Int8PanelLinear:
    """The int8 panel layer ``name`` around its stored panels (taken out of ``tensors``)."""
    parts = [tensors.pop(f"{name}.{part}") for part in PANEL_PARTS]
    return Int8PanelLinear.from_panels(torch.ops.attnmt.int8_panels_from(*parts, n, k))


# PyTorch 2.13 warns, once a process, that making a qint8 tensor is deprecated (pytorch/pytorch#184982).
# torch.ao's int8 Linear, the only way to fbgemm's int8 matmul, holds its weight as one, and every route
# to one (torch.quantize_per_channel included) warns alike: the warning is about attnmt's kernel, not
# about anything a user did or can change, so loading the int8 copy keeps it from them.
QINT8_DEPRECATION = r"torch\.quantize_per_tensor, torch\.quantize_per_channel and other quantized tensor creation"


def fbgemm_layers(tensors: dict[str, Tensor], shapes: dict[str, list[int]]) -> dict[str, nn.Module]:
    """torch.ao's int8 Linear for each layer of ``shapes`` (name -> [out_features, in_features]) from
    its stored weight (taken out of ``tensors``).  fbgemm packs each weight into its own layout at
    every load, the largest first, on as many threads as PyTorch's (the packing releases the GIL):
    about a second at OPUS-MT's size on one thread, half of it the output layer's
    (docs/performance.md, "OPUS-MT en-de's shape")."""
    layers, packs = {}, []
    with warnings.catch_warnings():  # here, not on the threads: the filters are the process's
        warnings.filterwarnings("ignore", message=QINT8_DEPRECATION, category=UserWarning)
        for name in shapes:
            parts = [tensors.pop(f"{name}.{part}") for part in FBGEMM_PARTS]
            weight = torch._make_per_channel_quantized_tensor(*parts, 0)
            layers[name] = int8_linear(weight, None, pack=False)
            packs.append((layers[name], weight, tensors.pop(f"{name}.bias", None)))
    packs.sort(key=lambda pack: -pack[1].numel())
    threads = min(torch.get_num_threads(), len(packs))
    if threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda pack: pack[0].set_weight_bias(pack[1], pack[2]), packs))
    else:
        for layer, weight, bias in packs:
            layer.set_weight_bias(weight, bias)
    return layers


def skeleton(config: TransformerConfig) -> FastTransformer:
    """An int8 or float32 FastTransformer's modules with uninitialised weights, each replaced by a stored one
    next, and no linear layer (the stored panels take their places)."""
    fast = FastTransformer.__new__(FastTransformer)
    with uninitialised():
        Transformer.__init__(fast, config)
        fuse_self_attention(fast, weights=False)
    for parent in list(fast.modules()):
        for name, child in parent.named_children():
            if type(child) is nn.Linear:  # every one is replaced by its stored panels
                setattr(parent, name, None)
    return fast.eval().requires_grad_(False)


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
    if not packing_available():
        model, tokenizer = load_model_dir(model_dir, weights)
        return prepare(model, bf16=bf16), tokenizer
    if bf16:
        check_bf16(on_cpu=True)
    config, path, tokenizer = open_model_dir(model_dir, weights)
    build = partial(pack_layers, config, path, bf16)
    if bf16 or not (extension.available() and torch.ops.attnmt.panels_available()):
        return build(), tokenizer  # oneDNN's layers: nothing to store
    return through_cache(prepared_path(path, config, "fp32"), config, build, path), tokenizer


def pack_layers(config: TransformerConfig, path: Path, bf16: bool) -> FastTransformer:
    """``load_packed``'s copy, built from the weights file ``path`` one linear layer at a time."""
    fast = FastTransformer.__new__(FastTransformer)
    with uninitialised():
        Transformer.__init__(fast, config)
        fast.trained_parameters = fast.num_parameters()
        stored = stored_names(fast, path)
        fuse_self_attention(fast, weights=False)
    kind = Bf16PackedLinear if bf16 else PanelLinear if float_panels_for(fast) else PackedLinear
    layer = partial(packed_layer, kind, path, stored)
    for parent_name, parent in list(fast.named_modules()):
        prefix = f"{parent_name}." if parent_name else ""
        if isinstance(parent, FusedQKVAttention):
            parent.qkv_proj = layer([f"{prefix}{part}_proj" for part in "qkv"])
        for name, child in parent.named_children():
            if type(child) is nn.Linear:
                setattr(parent, name, layer([prefix + name]))
    with safe_open(str(path), framework="pt") as file:  # the rest stays mapped
        tensors = {key: file.get_tensor(key) for key in {stored[name] for name in fast.state_dict()}}
    fast.load_state_dict({name: tensors[stored[name]] for name in fast.state_dict()}, assign=True)
    fast.eval().requires_grad_(False)
    if kind is PanelLinear:  # the C++ step's float32 layers: each shape on the kernel measured fastest here
        fast.kernel_choice = measure(step_shapes(config), output=(config.vocab_size, config.d_model))
    fast.finish(fused_step=True, on_cpu=True)
    return fast


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


def packed_layer(kind: type[PackedLinear | PanelLinear], path: Path, stored: dict[str, str], names: list[str]
                 ) -> PackedLinear | PanelLinear:
    """The layers ``names`` of the weights file, side by side, as one packed layer; read through a
    mapping of their own, closed again when this returns."""
    with safe_open(str(path), framework="pt") as file:
        parts = [[file.get_tensor(stored[f"{name}.{part}"]) for name in names if f"{name}.{part}" in stored]
                 for part in ("weight", "bias")]
    weight = parts[0][0] if len(names) == 1 else torch.cat(parts[0])
    bias = (parts[1][0] if len(names) == 1 else torch.cat(parts[1])) if parts[1] else None
    return kind(weight, bias)
