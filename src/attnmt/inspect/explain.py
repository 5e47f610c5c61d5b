"""``attnmt explain``: attention computed step by step on a small example, every matrix printed with its shape.

Single head (Vaswani et al., 2017, eq. 1), row-vector convention as in the paper::

    Q = X W_Q    K = X W_K    V = X W_V
    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V

Multi-head: W_Q, W_K, W_V hold the h heads' projections side by side; each head
attends in its own d_k = (columns of W_Q) / h dimensions, the heads' outputs are
concatenated and W_O maps them back::

    MultiHead(X) = Concat(head_1, …, head_h) W_O

The softmax and the weighted sum come from attnmt's own
``scaled_dot_product_attention``, and the multi-head part runs through
``MultiHeadAttention`` itself, so what is printed is what the model computes.

The default example is the tutorial's: inputs a¹ = (1, 1), a² = (1, 0); W_Q gives
q¹ = (1, 2), q² = (1, 1); W_K gives k¹ = (1, 0), k² = (0, 1) and W_V gives V = I.
"""

from __future__ import annotations

import json
import math
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from numpy.lib.npyio import NpzFile
from torch import Tensor

from attnmt.attention import MultiHeadAttention, causal_mask, merge_heads, scaled_dot_product_attention
from attnmt.errors import ConfigError, json_value

TUTORIAL_EXAMPLE = {
    "X": [[1, 1], [1, 0]],
    "Wq": [[1, 1], [0, 1]],
    "Wk": [[0, 1], [1, -1]],  # X Wk = I: k¹ = (1, 0), k² = (0, 1)
    "Wv": [[0, 1], [1, -1]],  # X Wv = I: V = I, so the outputs are the attention weights
    "Wo": [[1, 0], [0, 1]],
    "heads": 2,
}
MATRICES = ("X", "Wq", "Wk", "Wv", "Wo")
KEYS = (*MATRICES, "heads", "mask")
CELL_WIDTH = 7  # a printed number's column: "  -1.00"; wider where a number needs it
# From here on a number prints in four significant digits ("1e+200"), not two decimals, which
# wrote 1e200 as 201 digits and pushed its neighbours hundreds of columns away.
LARGEST_FIXED = 1e9


TUTORIAL = "the tutorial example"  # how messages name the example given by no file


@dataclass
class Example:
    """x [n, d_model]; wq, wk [d_model, h·d_k]; wv [d_model, h·d_v]; wo [h·d_v, d_model] or None (none
    given: one head's output is A·V, several heads' concatenation is mapped by the identity);
    mask bool [n, n] (True = may attend) or None; source names where they came from, for errors."""

    x: Tensor
    wq: Tensor
    wk: Tensor
    wv: Tensor
    wo: Tensor | None
    heads: int
    mask: Tensor | None = None
    source: str = TUTORIAL  # the file it came from, as messages name it


def load_example(path: str | Path | None = None, heads: int | None = None, causal: bool = False) -> Example:
    """The tutorial's example, or matrices from a JSON file or a NumPy .npz file.

    Keys: X, Wq, Wk, Wv (required in a file), Wo (default: none for one head, the identity for
    several), heads
    (default 1), mask (n × n of 0/1, 1 = may attend; or "causal").  ``heads`` and
    ``causal`` given here override the file.
    """
    values = dict(TUTORIAL_EXAMPLE) if path is None else read_values(Path(path))
    source = TUTORIAL if path is None else str(path)
    for key in ("X", "Wq", "Wk", "Wv"):
        if key not in values:
            raise ConfigError(f"{source}: missing key {key!r}; give X, Wq, Wk, Wv (and optionally Wo, heads, mask)")
    tensors = {key: as_matrix(values[key], key, source) for key in MATRICES if key in values}
    x = tensors["X"]
    mask = values.get("mask")
    if causal or mask == "causal":
        mask = causal_mask(x.size(0))
    elif mask is not None:
        mask = as_matrix(mask, "mask", source)
        if not ((mask == 0) | (mask == 1)).all():
            raise ConfigError(f"{source}: mask holds values other than 0 and 1 (1: the query may attend to the key)")
        mask = mask != 0
    count = heads if heads is not None else values.get("heads", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ConfigError(f"{source}: heads must be a whole number of 1 or more, got {count!r}")
    if "Wo" not in tensors and tensors["Wv"].size(1) != x.size(1) and count > 1:
        raise ConfigError(f"{source}: give Wo, {tensors['Wv'].size(1)} × {x.size(1)} (Wv's columns × X's): "
                          "it can be the identity only where Wv has as many columns as X")
    example = Example(x, tensors["Wq"], tensors["Wk"], tensors["Wv"], tensors.get("Wo"), count, mask, source)
    check_shapes(example)
    return example


def read_values(path: Path) -> dict:
    """The values a file names (``KEYS``).  Any other key is refused: a misspelt one ("Heads",
    "mask_") would leave its default in place without a word."""
    values = read_file(path)
    unknown = [key for key in values if key not in KEYS]
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}; the keys are {', '.join(KEYS)} "
                          "(names are case-sensitive)")
    return values


def read_file(path: Path) -> dict:
    if path.is_dir():
        raise ConfigError(f"{path}: is a folder; give a JSON or NumPy .npz file with X, Wq, Wk, Wv")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    if path.suffix.lower() == ".npz":
        return read_npz(path)
    try:
        values = json_value(path.read_text(encoding="utf-8-sig"))  # a BOM, as Windows editors write, is read past
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid JSON ({error}); give a JSON object or a NumPy .npz file") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: expected a JSON object with keys X, Wq, Wk, Wv")
    return values


def read_npz(path: Path) -> dict:
    """The arrays of a NumPy .npz file (numpy.savez), never unpickled: numpy's own error for a file
    that is no .npz ("contains pickled (object) data", for any bytes it cannot place) would mislead."""
    refused = f"{path}: not a NumPy .npz file of number arrays; write one with numpy.savez(path, X=…, Wq=…, …) " \
              "or give a JSON file"
    try:
        arrays = np.load(path, allow_pickle=False)
    except (ValueError, EOFError, OSError, zipfile.BadZipFile):
        raise ConfigError(refused) from None
    if not isinstance(arrays, NpzFile):  # a .npy file: one array, without the names X, Wq, …
        raise ConfigError(refused)
    with arrays:
        try:
            return {key: arrays[key].tolist() for key in arrays.files}
        except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error):  # a damaged or object array
            raise ConfigError(refused) from None


def as_matrix(value, key: str, source: str) -> Tensor:
    try:
        matrix = torch.tensor(value, dtype=torch.float64)
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{source}: {key} is not a matrix of numbers ({error})") from None
    if matrix.dim() != 2:
        raise ConfigError(f"{source}: {key} must be a matrix (a list of rows), got shape {list(matrix.shape)}")
    if not torch.isfinite(matrix).all():  # JSON's NaN and Infinity, or a number past float64's ±1.8e308
        raise ConfigError(f"{source}: {key} holds a value that is not a finite number (NaN, Infinity, or beyond "
                          "±1.8e308); give finite numbers")
    return matrix


def check_finite(e: Example, step: str, keys: str, matrix: Tensor) -> None:
    """ConfigError where a step's product of finite inputs overflowed float64 (1e200 · 1e200): its
    infinities would turn the softmax into NaN, and the steps printed into nonsense."""
    if not torch.isfinite(matrix).all():
        raise ConfigError(f"{e.source}: {step} overflows (a number beyond ±1.8e308); give {keys} smaller values")


def check_shapes(e: Example) -> None:
    source = e.source
    n, d_model = e.x.shape
    # Wo maps the heads' outputs side by side (one head's alone) back to d_model
    expected = {"Wq": (d_model, e.wq.size(1)), "Wk": (d_model, e.wq.size(1)), "Wv": (d_model, e.wv.size(1)),
                "Wo": (e.wv.size(1), d_model)}
    for key, matrix in zip(("Wq", "Wk", "Wv", "Wo"), (e.wq, e.wk, e.wv, e.wo), strict=True):
        if matrix is not None and tuple(matrix.shape) != expected[key]:
            raise ConfigError(f"{source}: {key} has shape {list(matrix.shape)}, expected {list(expected[key])} "
                              f"(X is {n} × {d_model}; Wk must match Wq; Wo has as many rows as Wv has columns "
                              "and as many columns as X)")
    if e.heads < 1 or e.wq.size(1) % e.heads or e.wv.size(1) % e.heads:
        raise ConfigError(f"{source}: heads={e.heads} must divide the columns of Wq ({e.wq.size(1)}) "
                          f"and of Wv ({e.wv.size(1)})")
    if e.mask is not None and tuple(e.mask.shape) != (n, n):
        raise ConfigError(f"{source}: mask has shape {list(e.mask.shape)}, expected [{n}, {n}] (queries × keys)")


def number(value: float) -> str:
    """A matrix entry as printed: two decimals ("2522490.81"), or "1e+200" from LARGEST_FIXED up."""
    return f"{value:.2f}" if abs(value) < LARGEST_FIXED else f"{value:.4g}"


def show(name: str, matrix: Tensor, note: str = "", masked: Tensor | None = None) -> list[str]:
    """A named matrix with its shape, a ``number`` each; ``masked`` entries print as -inf.

    Columns are right-aligned, one width for the whole matrix: ``CELL_WIDTH``, or the widest
    number and a space where one is wider (1234.50 beside -999.25), so that neighbours never
    run together into one number."""
    lines = [f"{name}  {list(matrix.shape)}" + (f"   {note}" if note else "")]
    cells = [["-inf" if masked is not None and masked[i, j] else number(v) for j, v in enumerate(row)]
             for i, row in enumerate(matrix.tolist())]
    width = max([CELL_WIDTH - 1, *(len(cell) for row in cells for cell in row)]) + 1
    lines += ["   " + "".join(cell.rjust(width) for cell in row) for row in cells]
    return lines + [""]


def explain_single_head(e: Example) -> tuple[list[str], Tensor]:
    """The steps of eq. 1, and the outputs A·V [n, d_v]."""
    q, k, v = e.x @ e.wq, e.x @ e.wk, e.x @ e.wv
    d_k = q.size(-1)
    scores = q @ k.T
    for step, keys, matrix in (("Q = X·W_Q", "X and Wq", q), ("K = X·W_K", "X and Wk", k),
                               ("V = X·W_V", "X and Wv", v), ("Q·Kᵀ", "X, Wq and Wk", scores)):
        check_finite(e, step, keys, matrix)
    masked = None if e.mask is None else ~e.mask
    out, weights = scaled_dot_product_attention(q, k, v, e.mask, need_weights=True)
    lines = ["== Scaled dot-product attention: softmax(Q Kᵀ / √d_k) V", ""]
    lines += show("X (one input vector a^i per row)", e.x)
    lines += show("Q = X·W_Q (queries q^i)", q)
    lines += show("K = X·W_K (keys k^i)", k)
    lines += show("V = X·W_V (values v^i)", v)
    lines += show("Q·Kᵀ (row i: q^i · k^j for every key j)", scores)
    lines += show(f"Q·Kᵀ / √d_k   (d_k = {d_k}, √d_k = {math.sqrt(d_k):.2f})", scores / math.sqrt(d_k),
                  masked=masked, note="" if masked is None else "(masked: -inf, the key may not be seen)")
    lines += show("A = softmax(Q·Kᵀ / √d_k), by row", weights,
                  note="row sums: " + " ".join(f"{s:.2f}" for s in weights.sum(-1).tolist()))
    lines += show("A·V (outputs b^i)", out)
    return lines, out


def attention_module(e: Example) -> MultiHeadAttention:
    """attnmt's MultiHeadAttention holding the example's matrices (W_O: the identity where none is given)."""
    d_model, h = e.x.size(1), e.heads
    wo = e.wo if e.wo is not None else torch.eye(d_model, dtype=torch.float64)
    mha = MultiHeadAttention(d_model, h, bias=False, d_k=e.wq.size(1) // h, d_v=e.wv.size(1) // h).double()
    with torch.no_grad():  # nn.Linear computes x Wᵀ, so it stores the transposes
        for linear, w in ((mha.q_proj, e.wq), (mha.k_proj, e.wk), (mha.v_proj, e.wv), (mha.out_proj, wo)):
            linear.weight.copy_(w.T)
    return mha


def same_as_the_modules(shown: Tensor, module_out: Tensor) -> None:
    """The steps shown are the module's own: their float64 result equal to MultiHeadAttention's within
    torch.testing.assert_close's float64 tolerances (|a - b| <= 1e-7 + 1e-7·|b|).  Not assert_close itself, whose
    first call imports torch.distributed and SymPy: 0.8 s of CPU, more than the command's own work."""
    if shown.shape != module_out.shape or not torch.allclose(shown, module_out, rtol=1e-7, atol=1e-7):
        raise AssertionError(f"the steps shown are not MultiHeadAttention's: {shown} != {module_out}")


def explain_one_head_w_o(e: Example, out: Tensor, wo: Tensor) -> list[str]:
    """One head with a W_O given: MultiHead(X) = head_1 W_O, the outputs A·V [n, d_v] mapped to [n, d_model]."""
    mapped = out @ wo
    check_finite(e, "(A·V)·W_O", "X, Wv and Wo", mapped)
    with torch.no_grad():
        module_out, _ = attention_module(e)(e.x[None], e.x[None], e.x[None], e.mask)
    same_as_the_modules(mapped, module_out[0])
    lines = [f"== Output projection: one head, W_O maps d_v = {wo.size(0)} back to d_model = {wo.size(1)}", ""]
    return lines + show("W_O", wo) + show("MultiHead(X) = (A·V)·W_O", mapped)


def explain_multi_head(e: Example) -> list[str]:
    h = e.heads
    d_k, d_v = e.wq.size(1) // h, e.wv.size(1) // h
    mha = attention_module(e)
    with torch.no_grad():
        x = e.x[None]  # [1, n, d_model]
        q, (k, v) = mha.project_q(x), mha.project_kv(x, x)  # [1, h, n, d_k], [1, h, n, d_k], [1, h, n, d_v]
        heads, weights = scaled_dot_product_attention(q, k, v, e.mask, need_weights=True)
        concat = merge_heads(heads)  # [1, n, h·d_v]
        out = mha.out_proj(concat)
        module_out, _ = mha(x, x, x, e.mask)
    for i in range(h):  # a head's scores can overflow where all heads' sum did not (1e308 + 1e308 - 1e308)
        check_finite(e, f"Q_{i}·K_{i}ᵀ", "X, Wq and Wk", weights[0, i])
    check_finite(e, "Concat(…)·W_O", "X, Wv and Wo", out)
    same_as_the_modules(out, module_out)
    lines = [f"== Multi-head attention: {h} heads, d_k = {e.wq.size(1)} / {h} = {d_k}, d_v = {d_v}", ""]
    lines += show("Q = X·W_Q, all heads side by side", q.transpose(1, 2).flatten(2)[0])
    for i in range(h):
        q_cols, v_cols = f"{i * d_k}..{(i + 1) * d_k - 1}", f"{i * d_v}..{(i + 1) * d_v - 1}"
        lines.append(f"-- head {i}: columns {q_cols} of Q and K, {v_cols} of V")
        lines += show(f"Q_{i}", q[0, i]) + show(f"K_{i}", k[0, i]) + show(f"V_{i}", v[0, i])
        lines += show(f"A_{i} = softmax(Q_{i}·K_{i}ᵀ / √{d_k})", weights[0, i],
                      note="row sums: " + " ".join(f"{s:.2f}" for s in weights[0, i].sum(-1).tolist()))
        lines += show(f"head_{i} = A_{i}·V_{i}", heads[0, i])
    lines += show("Concat(head_0, …) (the heads side by side)", concat[0])
    lines += show("W_O", mha.out_proj.weight.T)
    lines += show("MultiHead(X) = Concat(…)·W_O", out[0])
    return lines


def explain(example: Example | None = None) -> str:
    """The whole step-by-step computation as printable text (the tutorial's example by default)."""
    e = example if example is not None else load_example()
    lines, out = explain_single_head(e)
    if e.heads > 1:
        lines += explain_multi_head(e)
    elif e.wo is not None:
        lines += explain_one_head_w_o(e, out, e.wo)
    return "\n".join(lines)
