"""A prepared inference copy's file in the cache: its name, what it holds, and how it is written
and mapped back.

    prepared_path   where the copy of some weights with some config lies, for this CPU and kernel
    save_prepared   what an int8 or float32 FastTransformer holds, to one safetensors file
    load_prepared   that file's tensors mapped (not copied) into a FastTransformer again

Apart from attnmt.fast.prepared, which decides when a copy is read from the cache, built or
stored (``load_int8``, ``load_packed``): this is the file format alone, and ``FORMAT`` its version,
which ``attnmt cache`` reads too (attnmt.fast.cache_contents).  Why the copy is stored and mapped
at all is the story of attnmt.fast.prepared's docstring.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save, save_file
from torch import Tensor, nn

from attnmt.errors import json_value
from attnmt.fast import extension, int8
from attnmt.fast.int8 import DynamicInt8Linear, Int8PanelLinear, int8_linear
from attnmt.fast.kernels import Int8Choice, KernelChoice, asked_kernel
from attnmt.fast.mapped_pages import MappedPages
from attnmt.fast.packed import PackedLinear, fuse_self_attention
from attnmt.fast.panels import (
    PanelEmbedding,
    PanelLinear,
    TiledLinear,
    embeddings_from_panels,
    tiles_allowed,
    tiles_run,
)
from attnmt.fast.transformer import FastTransformer
from attnmt.files import file_digest
from attnmt.hardware import cpu_flags, cpu_model, onednn_isa_cap
from attnmt.model import Transformer, TransformerConfig
from attnmt.uninitialised import uninitialised

# Bump when what is stored, or how, changes, or the speed of a kernel a stored choice timed.
FORMAT = 9
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
    kernels measured on this CPU, or the one ATTNMT_FLOAT32_KERNEL sets; so a cache shared by several
    machines keeps one copy per CPU: attnmt.fast.kernels)."""
    config_digest = hashlib.sha256(json.dumps(config.to_dict(), sort_keys=True).encode()).hexdigest()[:16]
    asked = asked_kernel() if precision == "fp32" else None  # ATTNMT_FLOAT32_KERNEL: a copy of its own
    kernel = (f"{int8_kernel()}-chosen-{cpu_digest()}" if precision == "int8"
              else f"{asked}-chosen-{cpu_digest()}" if asked else f"chosen-{cpu_digest(tiles=tiles_allowed())}")
    name = f"{precision}-{file_digest(weights)[:32]}-{config_digest}-{kernel}-v{FORMAT}.safetensors"
    return cache_folder() / name


def cpu_digest(tiles: bool = False) -> str:
    """This CPU's model, flags and oneDNN cap, hashed: what a copy's kernel choice holds for.  ``tiles``:
    for a float32 copy whose choice could take the tiles (attnmt.fast.panels.tiles_allowed), a copy
    of its own."""
    said = "|tiles" if tiles else ""
    return hashlib.sha256(f"{cpu_model()}|{sorted(cpu_flags())}|{onednn_isa_cap()}{said}".encode()).hexdigest()[:12]


def int8_kernel() -> str:
    """What multiplies the int8 copy's layers in this process: "amx", "vnni", "avx2" (the panels) or
    "fbgemm" (torch.ao's layers)."""
    kernel = int8.int8_kernel()
    return "fbgemm" if kernel == "none" else kernel


def save_prepared(fast: FastTransformer, path: Path, source: Path | None = None) -> None:
    """Writes what the int8 or float32 copy ``fast`` holds to ``path`` (safetensors), with the weights
    file ``source`` it was prepared from (for ``attnmt cache``)."""
    tensors: dict[str, Tensor] = {}
    shapes: dict[str, list[int]] = {}
    fbgemm: dict[str, list[int]] = {}
    floats: dict[str, list[int]] = {}
    tiled: list[str] = []  # float32 layers on AMX's tiles: their tiles stored beside their panels
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
            if isinstance(module, TiledLinear):
                tiled.append(name)
                tensors[f"{name}.tiles"] = module.tiles
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
                    float_panels=json.dumps(floats), float_tiles=json.dumps(tiled), onednn=json.dumps(onednn),
                    aliases=json.dumps(aliases),
                    embeddings_from_panels=json.dumps(from_panels), trained_parameters=str(fast.trained_parameters))
    if fast.kernel_choice is not None:
        metadata["kernel_choice"] = fast.kernel_choice.to_json()
    if fast.int8_choice is not None:
        metadata["int8_choice"] = fast.int8_choice.to_json()
    if source is not None:
        metadata["source"] = str(Path(source).resolve())
    metadata["padding"] = ""
    metadata["padding"] = aligning_padding(tensors, metadata)
    write_tensors(tensors, path, metadata)
    misaligned = data_start(path) % ALIGN
    if misaligned:  # written again, its header padded: the header's length moves every tensor in the file
        metadata["padding"] += " " * (ALIGN - misaligned)  # a multiple of 8, as safetensors pads the header
        write_tensors(tensors, path, metadata)


def aligning_padding(tensors: dict[str, Tensor], metadata: dict[str, str]) -> str:
    """The spaces that, as the value of the metadata's "padding" (empty in ``metadata``), put the data of
    ``tensors`` saved with ``metadata`` on a multiple of ALIGN: known before the file is written, which
    was otherwise written twice (its header's length moves every tensor; 0.45-0.65 s of a copy's first
    start each time).  The header's length comes from safetensors' own header for the same names and
    dtypes with no data: its order of the tensors, with their real sizes, written as compactly as it
    writes JSON.  Where that header is not the one predicted, "" (``save_prepared`` pads and writes the
    file again)."""
    probe = save({name: torch.empty(0, dtype=tensor.dtype) for name, tensor in tensors.items()}, metadata)
    length = int.from_bytes(probe[:8], "little")
    written = probe[8:8 + length]
    header = json.loads(written)
    if compact_json(header) != written.rstrip(b" "):
        return ""
    offset = 0
    for name in header:
        if name != "__metadata__":
            size = tensors[name].numel() * tensors[name].element_size()
            header[name] = dict(header[name], shape=list(tensors[name].shape), data_offsets=[offset, offset + size])
            offset += size
    padded = -(-len(compact_json(header)) // 8) * 8  # safetensors pads the header with spaces to a multiple of 8
    return " " * ((-(8 + padded)) % ALIGN)


def compact_json(value: object) -> bytes:
    """JSON as safetensors writes its header: no spaces, UTF-8 unescaped."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def write_tensors(tensors: dict[str, Tensor], path: Path, metadata: dict[str, str]) -> None:
    """safetensors' ``save_file``, whose failed write (a full disk: "I/O error: No space left on
    device (os error 28)") raises the OSError it is, not a SafetensorError: what the writers around
    it (attnmt.files.atomic_write) and a cache that cannot take the copy expect and say in one line."""
    try:
        save_file(tensors, str(path), metadata=metadata)
    except SafetensorError as error:
        found = re.search(r"\(os error (\d+)\)", str(error))
        if found is None:
            raise
        code = int(found[1])
        raise OSError(code, os.strerror(code), str(path)) from error


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
    layers = {name: panel_layer(tensors, name, n, k) for name, (n, k) in json_value(metadata["panels"]).items()}
    layers |= fbgemm_layers(tensors, json_value(metadata.get("fbgemm", "{}")))
    layers |= {name: PanelLinear.from_panels(tensors.pop(f"{name}.panels"), tensors.pop(f"{name}.bias", None),
                                                   out, inputs)
               for name, (out, inputs) in json_value(metadata.get("float_panels", "{}")).items()}
    for name in json_value(metadata.get("float_tiles", "[]")):  # mapped too: not made from the panels again
        layers[name] = TiledLinear(layers[name], model=not tiles_run(), tiles=tensors.pop(f"{name}.tiles"))
    layers |= {name: PackedLinear(tensors.pop(f"{name}.weight"), tensors.pop(f"{name}.bias", None))
               for name in json_value(metadata.get("onednn", "{}"))}
    if "kernel_choice" in metadata:
        fast.kernel_choice = KernelChoice.from_json(metadata["kernel_choice"])
    if "int8_choice" in metadata:
        fast.int8_choice = Int8Choice.from_json(metadata["int8_choice"])
    for name, canonical in json_value(metadata["aliases"]).items():
        tensors[name] = tensors[canonical]
    from_panels = json_value(metadata.get("embeddings_from_panels", "[]"))
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
    fast.encoder_pages = MappedPages.of([m.panels for m in fast.encoder_layers.modules() if isinstance(m, PanelLinear)],
                                        path)
    return fast


def repacked_names(metadata: dict[str, str], names: list[str]) -> set[str]:
    """The stored tensors of the layers that copy their weights into a layout of their own at each
    load (fbgemm's int8 layers, the float32 layers the kernel choice put on oneDNN)."""
    layers = set(json_value(metadata.get("fbgemm", "{}"))) | set(json_value(metadata.get("onednn", "{}")))
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
        header = json_value(file.read(int.from_bytes(file.read(8), "little")))
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
