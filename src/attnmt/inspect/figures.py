"""Pictures of attention: a translation's attention (attnmt.inspect.trace) by layer and head as
heatmaps (``plot_attention``, ``plot_heads``, ``plot_head_average``) and the HTML viewer's page,
and the figures the Transformer tutorials draw: ``plot_positional_encoding``,
``plot_softmax_scaling``, and ``plot_training`` (from MODEL_DIR/log.jsonl, in
attnmt.inspect.training_curves).

Every figure is a ``matplotlib.figure.Figure`` made without pyplot: nothing global
changes (a notebook keeps its backend and shows the returned figure), and PNGs are
drawn by the Agg renderer.  What comes from the user (the pieces, the sentence, the model folder's
name) is drawn as written, ``parse_math=False``: matplotlib reads the text between two ``$`` as
mathtext, which drops the dollars or fails on an underscore.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import re
import unicodedata
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from torch import Tensor

from attnmt.config import TransformerConfig
from attnmt.decoding import DEFAULT, Decoding
from attnmt.errors import AttnmtWarning, ConfigError, OutputError
from attnmt.files import atomic_write, make_folder
from attnmt.inspect.trace import AXIS_TITLES, KINDS, PieceCodec, TranslationAttention, check_layer, trace_translation
from attnmt.inspect.viewer import write_viewer
from attnmt.layers import sinusoidal_table
from attnmt.model import Transformer

DPI = 100
CMAP = colormaps["Blues"].with_extremes(bad=(0.0, 0.0, 0.0, 0.0))  # masked cells: transparent
LABEL_CHARS = 20  # a longer piece is cut to this many characters, "…" the last (attention.html shows it whole)
SENTENCE_CHARS = 60  # as much of the sentence as a grid's title shows
LABEL_SIZE, TITLE_SIZE, SUPTITLE_SIZE = 8, 9, 10  # points


# --- heatmaps --------------------------------------------------------------------


def cell_inches(rows: int, cols: int) -> float:
    """Side of one heatmap cell: large for short sentences, small enough that long ones still fit."""
    return min(0.3, max(0.14, 5.0 / max(rows, cols)))


def shortened(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the last of them "…", where it is longer."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def text_inches(text: str, points: float) -> float:
    """About how wide ``text`` is drawn: 0.65 em a character (DejaVu Sans' wider letters), twice that
    for the wide ones of East Asian scripts.  An estimate, so that no figure has to be drawn to be sized."""
    ems = sum(1.3 if unicodedata.east_asian_width(c) in "WF" else 0.65 for c in text)
    return ems * points / 72


def new_figure(panels_wide: int, panels_high: int, rows: list[str], cols: list[str], title: str) -> Figure:
    """A figure whose heatmap cells keep their size (``cell_inches``) next to labels of any length,
    as wide as its title needs; the labels are the pieces as ``draw_heatmap`` writes them."""
    cell = cell_inches(len(rows), len(cols))
    row_labels = max(text_inches(label, LABEL_SIZE) for label in rows)
    col_labels = max(text_inches(label, LABEL_SIZE) for label in cols)
    width = panels_wide * (len(cols) * cell + 0.4) + row_labels + 1.9  # + the axis title and the colour bar
    height = panels_high * (len(rows) * cell + 0.5) + col_labels + 1.2  # + the titles and the axis title
    width = max(width, text_inches(title, SUPTITLE_SIZE) + 0.4)
    return Figure(figsize=(width, height), dpi=DPI, layout="compressed")


def draw_heatmap(ax: Axes, weights: np.ndarray, rows: list[str], cols: list[str], kind: str, title: str):
    """One [queries, keys] matrix on ``ax``, labelled with the pieces; returns the image (for a colour bar).

    The decoder self-attention's upper triangle (future positions, masked) is left
    undrawn: it shows the background, not a colour.
    """
    if kind == "decoder_self":
        weights = np.ma.masked_array(weights, mask=np.triu(np.ones_like(weights, dtype=bool), k=1))
    image = ax.imshow(weights, cmap=CMAP, vmin=0.0, vmax=1.0, interpolation="nearest", aspect="equal")
    ax.set_xticks(range(len(cols)), cols, rotation=90, fontsize=LABEL_SIZE, parse_math=False)
    ax.set_yticks(range(len(rows)), rows, fontsize=LABEL_SIZE, parse_math=False)
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=TITLE_SIZE, parse_math=False)
    return image


def one_line(text: str) -> str:
    """``text`` for a title: each run of control characters and line breaks (a text read whole with
    --no-split keeps its CR, tab, vertical tab) one space, where the font has no glyph for them."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+", " ", text)


def sentence_title(trace: TranslationAttention) -> str:
    """As much of the traced sentence as a grid's title shows, on one line."""
    return shortened(one_line(trace.sentence), SENTENCE_CHARS)


def tick_labels(trace: TranslationAttention, kind: str) -> tuple[list[str], list[str]]:
    """The rows' and the columns' pieces as the heatmaps label them: a word in a script the vocabulary
    lacks is one piece, and written whole it would leave the cells no room."""
    rows, cols = trace.labels(kind)
    return [shortened(piece, LABEL_CHARS) for piece in rows], [shortened(piece, LABEL_CHARS) for piece in cols]


def plot_attention(trace: TranslationAttention, kind: str, layer: int, head: int | None = None) -> Figure:
    """One heatmap: ``kind`` attention of ``layer``, one ``head`` or (None) the mean over heads (both
    counted from 0); ConfigError naming those there are for a kind, a layer or a head the model lacks."""
    weights = layer_weights(trace, kind, layer)  # [H, Q, K]
    rows, cols = tick_labels(trace, kind)
    if head is not None and (isinstance(head, bool) or not isinstance(head, numbers.Integral)
                             or not -weights.size(0) <= head < weights.size(0)):
        raise ConfigError(f"head={head!r}: each layer has {weights.size(0)} heads (head=0 to {weights.size(0) - 1}, "
                          f"-1 to -{weights.size(0)} from the last, or None for their mean)")
    matrix = weights.mean(0) if head is None else weights[head]
    which = "mean of heads" if head is None else f"head {head}"
    title = f"{KINDS[kind]}, layer {layer}, {which}"
    fig = new_figure(1, 1, rows, cols, title)
    ax = fig.add_subplot()
    image = draw_heatmap(ax, matrix.numpy(), rows, cols, kind, title)
    ax.set_ylabel(AXIS_TITLES[kind][0], fontsize=LABEL_SIZE)
    ax.set_xlabel(AXIS_TITLES[kind][1], fontsize=LABEL_SIZE)
    fig.colorbar(image, ax=ax, shrink=0.8, label="attention weight")
    return fig


def layer_weights(trace: TranslationAttention, kind: str, layer: int) -> Tensor:
    """The ``kind`` attention of ``layer`` [H, Q, K]; ConfigError naming the layers there are for one
    the model lacks (a layer counted from 1, as a paper counts them, is one too many at the top);
    -1 is the last, as everywhere in attnmt (``align``, ``--alignment-layer``)."""
    weights = trace.weights(kind)  # [L, H, Q, K]
    check_layer(layer, weights.size(0), kind)
    return weights[layer]


def plot_grid(trace: TranslationAttention, kind: str, matrices: Tensor, titles: list[str], suptitle: str) -> Figure:
    """matrices [N, Q, K] as a grid of heatmaps (at most 4 a row) sharing one colour bar."""
    rows, cols = tick_labels(trace, kind)
    wide = min(len(titles), 4)
    high = math.ceil(len(titles) / wide)
    fig = new_figure(wide, high, rows, cols, suptitle)
    axes = fig.subplots(high, wide, squeeze=False).flatten()
    for i, (ax, matrix, title) in enumerate(zip(axes, matrices, titles, strict=False)):
        image = draw_heatmap(ax, matrix.numpy(), rows, cols, kind, title)
        # The panels share their pieces: name rows on the left edge, columns along the bottom.
        ax.tick_params(labelleft=i % wide == 0, labelbottom=i + wide >= len(titles))
    for ax in axes[len(titles):]:
        ax.set_axis_off()
    fig.supylabel(AXIS_TITLES[kind][0], fontsize=TITLE_SIZE)
    fig.supxlabel(AXIS_TITLES[kind][1], fontsize=TITLE_SIZE)
    fig.suptitle(suptitle, fontsize=SUPTITLE_SIZE, parse_math=False)
    fig.colorbar(image, ax=list(axes), shrink=0.6, label="attention weight")
    return fig


def plot_heads(trace: TranslationAttention, kind: str, layer: int) -> Figure:
    """Every head of one layer, side by side."""
    weights = layer_weights(trace, kind, layer)  # [H, Q, K]
    titles = [f"head {h}" for h in range(weights.size(0))]
    return plot_grid(trace, kind, weights, titles, f"{KINDS[kind]}, layer {layer}: {sentence_title(trace)}")


def plot_head_average(trace: TranslationAttention, kind: str) -> Figure:
    """The mean over heads, one panel per layer."""
    means = trace.weights(kind).mean(dim=1)  # [L, Q, K]
    titles = [f"layer {i}" for i in range(means.size(0))]
    return plot_grid(trace, kind, means, titles, f"{KINDS[kind]}, mean of heads: {sentence_title(trace)}")


def save_figure(fig: Figure, path: Path) -> Path:
    """Writes a PNG (or the format ``path``'s extension names: .svg, .pdf, ...) of exactly figsize ×
    dpi pixels (no tight cropping, so sizes are predictable); ConfigError for a format matplotlib
    does not write."""
    kind = path.suffix.lstrip(".").lower() or "png"
    formats = fig.canvas.get_supported_filetypes()
    if kind not in formats:
        raise ConfigError(f"{path}: figures are written as {', '.join('.' + f for f in sorted(formats))}, "
                          f"not .{kind}: give a name ending in .png")
    with missing_glyphs_told_once():
        atomic_write(path, lambda tmp: fig.savefig(tmp, format=kind, dpi=fig.dpi, facecolor="white"), OutputError)
    return path


MISSING_GLYPH = re.compile(r"Glyph (\d+) \(.*\) missing from font\(s\) (.+?)\.?$")  # matplotlib's warning


class MissingGlyphs(AttnmtWarning):
    """The figures' font lacks characters of their texts, which show as boxes: all of them in one
    warning, where matplotlib warns for each character of each text it draws."""

    def __init__(self, chars: list[str], fonts: list[str], hint: str = "") -> None:
        self.chars, self.fonts = list(dict.fromkeys(chars)), list(dict.fromkeys(fonts))
        super().__init__(f"the figures' font ({', '.join(self.fonts)}) lacks glyphs for "
                         f"{shortened(''.join(self.chars), LABEL_CHARS)!r}: those labels show boxes{hint}")


@contextlib.contextmanager
def missing_glyphs_told_once(hint: str = "") -> Iterator[None]:
    """Gathers matplotlib's warnings of missing glyphs within the block (72 lines for one sentence in
    Chinese) into one MissingGlyphs, ``hint`` added to it; other warnings pass on as they came."""
    chars: list[str] = []
    fonts: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        missing = MISSING_GLYPH.match(str(warning.message))
        if isinstance(warning.message, MissingGlyphs):  # a figure's own, within a block of several
            chars, fonts = chars + warning.message.chars, fonts + warning.message.fonts
        elif missing:
            chars, fonts = chars + [chr(int(missing[1]))], fonts + [missing[2]]
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    if chars:
        warnings.warn(MissingGlyphs(chars, fonts, hint), stacklevel=3)


@dataclass
class PictureNames:
    """The files ``write_trace_figures`` writes for ``layers[kind]`` layers of each kind (KINDS' order),
    and the pattern that reads a layer's PNG back: named once, for ``attnmt attention``'s warning of an
    earlier run's pictures too.  A layer's heads share one PNG: their number names nothing."""

    layers: dict[str, int]
    VIEWER: ClassVar[str] = "attention.html"
    LAYER_PNG: ClassVar[re.Pattern[str]] = re.compile(rf"({'|'.join(KINDS)})_layer(\d+)\.png")

    @classmethod
    def of_config(cls, c: TransformerConfig) -> PictureNames:
        return cls({"cross": c.decoder_layers, "encoder": c.encoder_layers, "decoder_self": c.decoder_layers})

    @classmethod
    def of_trace(cls, trace: TranslationAttention) -> PictureNames:
        return cls({kind: trace.weights(kind).size(0) for kind in KINDS})

    @staticmethod
    def layer_png(kind: str, layer: int) -> str:  # all heads of one layer
        return f"{kind}_layer{layer}.png"

    @staticmethod
    def mean_png(kind: str) -> str:  # the mean of heads, one panel per layer
        return f"{kind}_mean.png"

    def names(self) -> list[str]:
        """Every file's name, in the order they are written."""
        names: list[str] = []
        for kind, count in self.layers.items():
            names += [self.layer_png(kind, layer) for layer in range(count)] + [self.mean_png(kind)]
        return names + [self.VIEWER]

    def beyond(self, name: str) -> bool:
        """Whether ``name`` is a ``layer_png`` of a layer past these (a deeper model's, counted from 0)."""
        match = self.LAYER_PNG.fullmatch(name)
        return match is not None and int(match[2]) >= self.layers[match[1]]


def write_trace_figures(trace: TranslationAttention, out_dir: Path) -> list[Path]:
    """Writes the files ``PictureNames`` names: each kind's PNGs of all heads, a layer each, and of
    the mean of heads, and the interactive viewer; returns their paths."""
    out_dir = make_folder(Path(out_dir), OutputError)
    names, paths = PictureNames.of_trace(trace), []
    with missing_glyphs_told_once(hint=f"; {names.VIEWER}, drawn by the browser, shows them"):
        for kind, count in names.layers.items():
            for layer in range(count):
                paths.append(save_figure(plot_heads(trace, kind, layer), out_dir / names.layer_png(kind, layer)))
            paths.append(save_figure(plot_head_average(trace, kind), out_dir / names.mean_png(kind)))
    paths.append(write_viewer(trace.to_dict(), out_dir / names.VIEWER))
    return paths


def write_attention_figures(
    model: Transformer, tokenizer: PieceCodec, sentence: str, out_dir: Path,
    target: str | None = None, decoding: Decoding = DEFAULT,
) -> list[Path]:
    """Translates one sentence and writes its attention heatmaps and HTML viewer into out_dir."""
    trace = trace_translation(model, tokenizer, sentence, target=target, decoding=decoding)
    return write_trace_figures(trace, out_dir)


# --- the tutorials' figures ----------------------------------------------------------


def plot_positional_encoding(positions: int = 64, d_model: int = 128) -> Figure:
    """The sinusoidal encodings (positions × dimensions), the paper's interleaved layout and the half/half one."""
    fig = Figure(figsize=(11, 4.5), dpi=DPI, layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    layouts = {"interleaved": "interleaved (paper): sin even, cos odd dims", "half": "half/half: all sin, then all cos"}
    for ax, (layout, title) in zip(axes, layouts.items(), strict=True):
        table = sinusoidal_table(positions, d_model, layout).numpy()  # [positions, d_model]
        image = ax.imshow(table, cmap="RdBu", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("dimension")
    axes[0].set_ylabel("position")
    fig.suptitle(f"Sinusoidal positional encoding, d_model = {d_model}")
    fig.colorbar(image, ax=list(axes), shrink=0.8)
    return fig


def plot_softmax_scaling(samples: int = 20_000, std: float = 100.0, seed: int = 0) -> Figure:
    """Why attention divides by √d_k: softmax of large scores collapses onto one element.

    Dot products of d_k-dimensional vectors with unit-variance entries have variance
    d_k; here d_k = std², so the scores are N(0, std²) and √d_k = std.
    """
    generator = torch.Generator().manual_seed(seed)
    scores = torch.randn(samples, generator=generator, dtype=torch.float64) * std
    d_k = std**2
    fig = Figure(figsize=(13, 3.8), dpi=DPI, layout="constrained")
    hist, plain, scaled = fig.subplots(1, 3)
    hist.hist(scores.numpy(), bins=100, color="tab:blue")
    hist.set_title(f"{samples:,} scores ~ N(0, {std:g}²)", fontsize=10)
    hist.set_xlabel("score")
    for ax, weights, title in (
        (plain, scores.softmax(0), "softmax(x): collapses onto one element"),
        (scaled, (scores / math.sqrt(d_k)).softmax(0), f"softmax(x / √d_k), d_k = {d_k:g}: spread out"),
    ):
        ax.plot(weights.numpy(), linewidth=0.6, color="tab:red")
        ax.set_title(f"{title}\nlargest weight {weights.max():.4f}", fontsize=10)
        ax.set_xlabel("element")
        ax.set_ylabel("softmax weight")
    return fig
