"""Attention pictures: the trace of a translation, its heatmaps, the tutorials' figures and their commands."""

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from attnmt import checkpoint as ckpt
from attnmt.cli.main import main
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning, ConfigError, ModelDirError
from attnmt.inspect.figures import (
    DPI,
    PictureNames,
    cell_inches,
    missing_glyphs_told_once,
    plot_attention,
    plot_head_average,
    plot_heads,
    plot_positional_encoding,
    plot_softmax_scaling,
    save_figure,
    write_trace_figures,
)
from attnmt.inspect.trace import trace_translation
from attnmt.inspect.training_curves import plot_training, read_training_log
from attnmt.layers import sinusoidal_table
from attnmt.model import Transformer, TransformerConfig
from attnmt.text import tokenizer_files
from attnmt.text.tokenizer import Tokenizer

CORPUS = ["a man rides a bike", "ein mann fährt ein fahrrad", "two dogs play in the snow",
          "zwei hunde spielen im schnee", "a woman reads a book", "eine frau liest ein buch",
          "the child plays", "das kind spielt"]
SENTENCE, TARGET = "a man rides a bike", "ein mann fährt ein fahrrad"
SHORT, SHORT_TARGET = "the child plays", "das kind spielt"
WHITE = (255, 255, 255)


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return Tokenizer.train(CORPUS * 4, vocab_size=50)


@pytest.fixture(scope="module")
def model(tokenizer) -> Transformer:
    """Untrained but seeded: its attention is as real as a trained model's, only less sharp."""
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_heads=4, encoder_layers=2,
                               decoder_layers=2, d_ff=64, dropout=0.0, max_positions=64)
    return Transformer(config).eval()


@pytest.fixture(scope="module")
def one_layer_model(tokenizer) -> Transformer:
    """``model`` with one layer a side and two heads: six figures of two panels, not nine of four, for
    tests of what every figure's titles and labels draw, which each figure draws alike whatever its size."""
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_heads=2, encoder_layers=1,
                               decoder_layers=1, d_ff=64, dropout=0.0, max_positions=64)
    return Transformer(config).eval()


@pytest.fixture(scope="module")
def trace(model, tokenizer):
    return trace_translation(model, tokenizer, SENTENCE, target=TARGET)


def pixels(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def test_trace_holds_every_layer_and_head_and_each_row_sums_to_one(trace):
    S, T = len(trace.source), len(trace.target_in)
    assert trace.encoder.shape == (2, 4, S, S)
    assert trace.decoder_self.shape == (2, 4, T, T)
    assert trace.cross.shape == (2, 4, T, S)
    for kind in ("encoder", "decoder_self", "cross"):
        torch.testing.assert_close(trace.weights(kind).sum(-1), torch.ones(trace.weights(kind).shape[:-1]))


def test_trace_is_labelled_with_the_subword_pieces_and_no_padding(trace, tokenizer):
    target_pieces = [tokenizer.id_to_piece(i) for i in tokenizer.encode_target(TARGET)]
    assert trace.source == tokenizer.pieces(SENTENCE) and trace.source[-1] == "</s>"
    assert trace.target_in == ["<s>", *target_pieces]
    assert trace.target_out == [*target_pieces, "</s>"]
    assert trace.translation == TARGET
    assert "<pad>" not in trace.source + trace.target_in + trace.target_out


def test_trace_without_a_target_shows_the_models_own_translation(model, tokenizer):
    greedy = trace_translation(model, tokenizer, SENTENCE, decoding=Decoding(beam_size=1))
    assert greedy.translation == translate(model, tokenizer, [SENTENCE], Decoding(beam_size=1))[0]
    beam = trace_translation(model, tokenizer, SENTENCE, decoding=Decoding(beam_size=4))
    assert beam.translation == translate(model, tokenizer, [SENTENCE], Decoding(beam_size=4))[0]


def test_decoder_self_attention_is_zero_above_the_diagonal(trace):
    T = len(trace.target_in)
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    assert (trace.decoder_self[..., future] == 0).all()


@pytest.mark.parametrize("kind, rows, cols", [
    ("cross", "target_out", "source"),
    ("encoder", "source", "source"),
    ("decoder_self", "target_out", "target_in"),
])
def test_heatmap_axes_carry_the_tokens(trace, kind, rows, cols):
    ax = plot_attention(trace, kind, layer=1, head=2).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == getattr(trace, rows)
    assert [t.get_text() for t in ax.get_xticklabels()] == getattr(trace, cols)


@pytest.mark.parametrize(("layer", "head", "message"), [
    (2, None, r"^layer=2: the model has 2 layers of cross-attention \(decoder → encoder\) \(layer=0 to 1, -1 to -2 "
              r"from the last\)$"),
    (-3, None, r"^layer=-3: the model has 2 layers"),
    (0, 4, r"^head=4: each layer has 4 heads \(head=0 to 3, -1 to -4 from the last, or None for their mean\)$"),
    # No integer: an IndexError, matplotlib's TypeError and a TypeError before.
    (1.5, None, r"^layer=1.5: the model has 2 layers of cross-attention"),
    (True, None, r"^layer=True: the model has 2 layers of cross-attention"),
    (0, "0", r"^head='0': each layer has 4 heads \(head=0 to 3"),
    (0, True, r"^head=True: each layer has 4 heads"),
])
def test_a_layer_or_head_the_model_lacks_is_one_config_error_naming_those_it_has(trace, layer, head, message):
    with pytest.raises(ConfigError, match=message):
        plot_attention(trace, "cross", layer=layer, head=head)
    if head is None:
        with pytest.raises(ConfigError, match=message):
            plot_heads(trace, "cross", layer)


@pytest.mark.parametrize("kind", ["crossx", ["cross"]])
def test_a_kind_of_attention_there_is_not_is_one_config_error_as_a_layer_is(trace, kind):
    """It was a plain ValueError (a list: a TypeError, unhashable), where a layer or head is a ConfigError."""
    with pytest.raises(ConfigError, match=rf"^unknown attention kind {re.escape(repr(kind))}: use one of cross, "):
        plot_attention(trace, kind, layer=0)


def test_negative_layers_and_heads_count_from_the_last_as_elsewhere_in_attnmt(trace):
    last = plot_attention(trace, "cross", layer=-1, head=-1).axes[0].images[0].get_array()
    same = plot_attention(trace, "cross", layer=1, head=3).axes[0].images[0].get_array()
    assert (last == same).all()
    numpy = plot_attention(trace, "cross", layer=np.int64(1), head=np.int64(3)).axes[0].images[0].get_array()
    assert (numpy == same).all()  # NumPy's integers are integers


def test_decoder_self_attention_image_leaves_the_upper_triangle_empty(trace, tmp_path):
    fig = plot_attention(trace, "decoder_self", layer=0, head=0)
    image = pixels(save_figure(fig, tmp_path / "self.png"))
    weights = trace.decoder_self[0, 0]
    n = weights.size(0)
    x0, y0, width, height = fig.axes[0].get_window_extent().bounds  # display pixels, origin bottom left

    def cell(i: int, j: int) -> tuple:
        x, y = x0 + (j + 0.5) * width / n, y0 + height - (i + 0.5) * height / n
        return tuple(image[image.shape[0] - int(y), int(x)])

    for i in range(n):
        for j in range(n):
            if j > i:
                assert cell(i, j) == WHITE, f"future cell ({i}, {j}) is drawn"
            elif weights[i, j] > 0.05:
                assert cell(i, j) != WHITE, f"cell ({i}, {j}) of weight {weights[i, j]:.2f} is not drawn"


def drawn(fig: Figure) -> tuple[list[Text], object]:
    """The figure's visible texts, and the renderer that placed them (constrained layout runs on drawing)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return [text for text in fig.findobj(Text) if text.get_visible() and text.get_text()], canvas.get_renderer()


@pytest.mark.parametrize("kind", ["cross", "encoder"])
@pytest.mark.parametrize("plot", [lambda trace, kind: plot_heads(trace, kind, 0), plot_head_average,
                                  lambda trace, kind: plot_attention(trace, kind, 0)], ids=["heads", "mean", "one"])
def test_a_long_piece_leaves_the_heatmaps_their_size_and_every_text_inside_the_figure(model, tokenizer, plot, kind):
    """A word in a script the vocabulary lacks is one piece: its label squeezed the heatmaps to a few
    pixels, pushed the titles out of the figure and the grid's title onto the panels' own."""
    trace = trace_translation(model, tokenizer, "a man " + "Þ" * 30, target="ein mann")
    assert "Þ" * 30 in trace.source
    fig = plot(trace, kind)
    texts, renderer = drawn(fig)
    outside = [text.get_text() for text in texts
               if not fig.bbox.padded(1).contains(*text.get_window_extent(renderer).p0)
               or not fig.bbox.padded(1).contains(*text.get_window_extent(renderer).p1)]
    assert outside == []
    if fig.get_suptitle():
        suptitle = next(text for text in texts if text.get_text() == fig.get_suptitle()).get_window_extent(renderer)
        assert not any(ax.title.get_window_extent(renderer).overlaps(suptitle) for ax in fig.axes if ax.get_title())
    rows, cols = (len(labels) for labels in trace.labels(kind))
    heatmap = fig.axes[0].get_window_extent(renderer)
    assert min(heatmap.width / cols, heatmap.height / rows) >= 0.9 * cell_inches(rows, cols) * DPI
    assert "Þ" * 19 + "…" in [label.get_text() for label in fig.axes[0].get_xticklabels()]


def test_head_grid_has_a_panel_per_head_and_the_average_one_per_layer(trace):
    assert [ax.get_title() for ax in plot_heads(trace, "cross", 0).axes[:4]] == [f"head {h}" for h in range(4)]
    assert [ax.get_title() for ax in plot_head_average(trace, "cross").axes[:2]] == ["layer 0", "layer 1"]
    mean = plot_head_average(trace, "cross").axes[1].images[0].get_array()
    np.testing.assert_allclose(mean, trace.cross[1].mean(0).numpy(), atol=1e-6)


def test_positional_encoding_figure_shows_both_layouts():
    fig = plot_positional_encoding(positions=20, d_model=16)
    interleaved, half = (ax.images[0].get_array() for ax in fig.axes[:2])
    np.testing.assert_allclose(interleaved, sinusoidal_table(20, 16, "interleaved").numpy())
    np.testing.assert_allclose(half, sinusoidal_table(20, 16, "half").numpy())


def test_softmax_scaling_figure_shows_the_collapse_that_scaling_prevents():
    fig = plot_softmax_scaling()
    counts = sum(patch.get_height() for patch in fig.axes[0].patches)
    plain, scaled = (ax.lines[0].get_ydata() for ax in fig.axes[1:3])
    assert counts == len(plain) == 20_000
    assert plain.max() > 0.99  # N(0, 100²) scores: softmax puts almost everything on one element
    assert scaled.max() < 0.01  # divided by √d_k = 100: N(0, 1) scores, weight spread out


def write_log(model_dir: Path, lines: list[str]) -> None:
    model_dir.mkdir(parents=True, exist_ok=True)
    (model_dir / "log.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.mark.parametrize("line, message", [
    (b'{"step": 10, "loss": 6.0}', "line 2: the record has no number for lr"),
    (b'{"step": 10, "loss": "\xff"}', "line 2: not valid JSON"),
    (b"[1, 2]", "line 2: not a JSON object"),
])
def test_a_training_log_record_that_cannot_be_drawn_is_named_by_its_line(tmp_path, line, message):
    write_log(tmp_path, [json.dumps({"step": 5, "loss": 7.0, "lr": 1e-4})])
    with open(tmp_path / "log.jsonl", "ab") as log:
        log.write(line + b"\n")
    with pytest.raises(ModelDirError, match=f"log.jsonl, {message}"):
        read_training_log(tmp_path)


def test_training_figure_plots_loss_learning_rate_and_bleu_against_steps(tmp_path):
    write_log(tmp_path, [
        json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4, "tokens_per_s": 900, "elapsed": 1.0}),
        json.dumps({"step": 20, "loss": 5.0, "lr": 2e-4, "tokens_per_s": 900, "elapsed": 2.0}),
        json.dumps({"step": 20, "valid_loss": 5.5, "valid_ppl": 244.7, "valid_bleu": 3.2, "elapsed": 2.0,
                    "eval_seconds": 0.5}),
    ])
    loss, lr, bleu = plot_training(tmp_path).axes
    assert list(loss.lines[0].get_xydata().tolist()) == [[10, 6.0], [20, 5.0]]
    assert list(loss.lines[1].get_xydata().tolist()) == [[20, 5.5]]
    assert list(lr.lines[0].get_ydata()) == [1e-4, 2e-4]
    assert list(bleu.lines[0].get_xydata().tolist()) == [[20, 3.2]]


def test_training_figure_of_the_current_folder_is_titled_with_its_name(tmp_path, monkeypatch):
    write_log(tmp_path / "run", [json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4})])
    monkeypatch.chdir(tmp_path / "run")
    assert plot_training(Path(".")).get_suptitle() == "Training of run"  # "Training of ", before


def test_training_figure_names_the_bad_log_line(tmp_path):
    write_log(tmp_path, [json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4}), "{not json"])
    with pytest.raises(ModelDirError, match=r"log.jsonl, line 2"):
        plot_training(tmp_path)


def save_model_dir(model: Transformer, tokenizer: Tokenizer, model_dir: Path) -> Path:
    model_dir.mkdir(parents=True)
    ckpt.save_weights(model, model_dir / ckpt.WEIGHTS)
    ckpt.save_model_config(model.config, model_dir)
    tokenizer.save(model_dir / tokenizer_files.TOKENIZER)
    return model_dir


def test_attention_command_writes_nonblank_heatmaps_of_the_expected_size_and_the_viewer(
    model, tokenizer, tmp_path, capsys
):
    model_dir = save_model_dir(model, tokenizer, tmp_path / "model")
    out = tmp_path / "figures"
    argv = ["attention", "--model", str(model_dir), SHORT, "--target", SHORT_TARGET, "--out", str(out)]
    assert main(argv) == 0
    expected = {f"{kind}_{part}.png" for kind in ("cross", "encoder", "decoder_self")
                for part in ("layer0", "layer1", "mean")} | {"attention.html"}
    assert {path.name for path in out.iterdir()} == expected
    assert "attention.html" in capsys.readouterr().out

    trace = trace_translation(model, tokenizer, SHORT, target=SHORT_TARGET)
    for kind in ("cross", "encoder", "decoder_self"):
        expected = plot_heads(trace, kind, 0).bbox.size  # figure inches × DPI, in pixels
        np.testing.assert_allclose(Image.open(out / f"{kind}_layer0.png").size, expected, atol=1)
    for png in out.glob("*.png"):
        image = pixels(png)
        assert (image != 255).any(axis=2).mean() > 0.05, f"{png.name} is (almost) blank"
        colours = np.unique(image.astype(np.int32) @ np.array([1 << 16, 1 << 8, 1]))
        assert len(colours) > 50, f"{png.name} has too few colours for a heatmap"


def test_characters_the_font_lacks_are_one_warning_for_all_the_figures(one_layer_model, tokenizer, tmp_path):
    trace = trace_translation(one_layer_model, tokenizer, "一只狗在跑。", target=SHORT_TARGET)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write_trace_figures(trace, tmp_path)  # matplotlib's "Glyph … missing" for each character of each text, before
    assert len(caught) == 1 and issubclass(caught[0].category, AttnmtWarning)
    assert str(caught[0].message).endswith("lacks glyphs for '一只狗在跑。': those labels show boxes; "
                                           "attention.html, drawn by the browser, shows them")


def test_warnings_other_than_missing_glyphs_pass_on_as_they_came():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with missing_glyphs_told_once():
            matplotlibs = "Glyph 19968 (\\N{CJK UNIFIED IDEOGRAPH-4E00}) missing from font(s) DejaVu Sans."
            warnings.warn(matplotlibs, UserWarning, stacklevel=1)
            warnings.warn("something else", UserWarning, stacklevel=1)
    assert [str(warning.message) for warning in caught] == [
        "something else", "the figures' font (DejaVu Sans) lacks glyphs for '一': those labels show boxes"]


def test_attention_command_explains_an_empty_sentence(model, tokenizer, tmp_path, capsys):
    model_dir = save_model_dir(model, tokenizer, tmp_path / "model")
    assert main(["attention", "--model", str(model_dir), " "]) == 2
    assert "give a sentence" in capsys.readouterr().err


@pytest.mark.parametrize("sentence", ["\u200b", "\x01"])  # not blank to str.strip, but no pieces to the tokenizer
def test_attention_command_explains_a_sentence_with_no_pieces_in_one_line(model, tokenizer, tmp_path, capsys, sentence):
    model_dir = save_model_dir(model, tokenizer, tmp_path / "model")
    assert main(["attention", "--model", str(model_dir), sentence, "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == ("attnmt: error: nothing to show: the sentence has no pieces to translate (it is "
                                       "blank, or holds only characters the tokenizer drops); give one, e.g. "
                                       '"A man rides a bike."\n')


def recorded_figures(monkeypatch) -> list[tuple[str, Path, str | None]]:
    """attnmt attention with a stand-in for the pictures: (sentence, folder, target) of each
    sentence it is asked to show, in order; it says it wrote cross_mean.png and attention.html."""
    from attnmt.inspect import figures

    shown = []

    def record(model, tokenizer, sentence, out_dir, target=None, decoding=None):
        shown.append((sentence, out_dir, target))
        return [out_dir / "cross_mean.png", out_dir / "attention.html"]

    monkeypatch.setattr(figures, "write_attention_figures", record)
    return shown


def test_attention_command_shows_each_sentence_of_a_text_as_translate_splits_it(model, tokenizer, tmp_path, capsys,
                                                                               monkeypatch):
    shown, model_dir = recorded_figures(monkeypatch), save_model_dir(model, tokenizer, tmp_path / "model")
    text, out = "a man rides a bike. the child plays.", tmp_path / "two"
    assert main(["attention", "--model", str(model_dir), text, "--out", str(out)]) == 0
    # the whole text as one sentence, before: a translation translate never gives
    assert shown == [("a man rides a bike.", out / "sentence1", None), ("the child plays.", out / "sentence2", None)]
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"sentence 1 of 2 ('a man rides a bike.'): wrote 2 files to {out / 'sentence1'}/: " \
                         "cross_mean.png, attention.html"
    assert printed[-1] == f"open {out / 'sentence1' / 'attention.html'} in a browser to explore every layer and " \
                          "head (one folder a sentence, sentence1 to sentence2)"
    assert main(["attention", "--model", str(model_dir), text, "--no-split", "--out", str(out)]) == 0
    assert shown[-1] == (text, out, None)  # as translate --no-split reads it
    assert main(["attention", "--model", str(model_dir), text, "--target", "ein mann", "--out", str(out)]) == 2
    assert capsys.readouterr().err == "attnmt: error: --target: the text has 2 sentences; give one sentence and its " \
                                      "translation at a time (or --no-split to read the text whole)\n"


@pytest.mark.parametrize("text", ["a man rides\na bike.", "name:\tjohn smith", "a man. a bike."])
def test_attention_with_no_split_reads_a_text_of_lines_or_tabs_whole_with_a_target(model, tokenizer, tmp_path,
                                                                                  monkeypatch, text):
    shown, model_dir = recorded_figures(monkeypatch), save_model_dir(model, tokenizer, tmp_path / "model")
    out = tmp_path / "whole"  # refused, naming --no-split, and a folder a line without --target, before
    assert main(["attention", "--model", str(model_dir), text, "--no-split", "--out", str(out)]) == 0
    assert main(["attention", "--model", str(model_dir), text, "--no-split", "--target", "ein mann", "--out",
                 str(out)]) == 0
    assert shown == [(text, out, None), (text, out, "ein mann")]


@pytest.mark.parametrize("sentence", ["see https://example.com/a.b?x=1 for details.",
                                      "mail me at a.b@example.com today."])
def test_attention_on_one_sentence_traces_it_as_typed_with_its_url(model, tokenizer, tmp_path, monkeypatch, sentence):
    shown, model_dir = recorded_figures(monkeypatch), save_model_dir(model, tokenizer, tmp_path / "model")
    assert main(["attention", "--model", str(model_dir), f"  {sentence}\n", "--out", str(tmp_path / "o")]) == 0
    assert shown == [(sentence, tmp_path / "o", None)]  # "see for details.", before


def test_attention_into_a_folder_of_an_earlier_run_names_what_that_run_left(model, tokenizer, tmp_path,
                                                                            monkeypatch):
    """Its sentence3/ (or its one sentence's attention.html) stood beside the new pictures, unsaid."""
    from attnmt.inspect import figures

    model_dir, out = save_model_dir(model, tokenizer, tmp_path / "model"), tmp_path / "st"

    def write(model, tokenizer, sentence, out_dir, target=None, decoding=None):
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "attention.html").write_text(sentence)
        return [out_dir / "attention.html"]

    monkeypatch.setattr(figures, "write_attention_figures", write)
    assert main(["attention", "--model", str(model_dir), "a dog runs.", "--out", str(out)]) == 0
    with pytest.warns(AttnmtWarning, match=re.escape(f"{out} still holds pictures of an earlier run (attention.html)")):
        assert main(["attention", "--model", str(model_dir), "a man. a dog. a cat.", "--out", str(out)]) == 0
    with pytest.warns(AttnmtWarning, match=re.escape(f"{out} still holds pictures of an earlier run (sentence3/, "
                                                     "attention.html) that this one does not replace: remove them, "
                                                     "or give another --out")):
        assert main(["attention", "--model", str(model_dir), "a man. a dog.", "--out", str(out)]) == 0
    assert (out / "sentence3" / "attention.html").read_text() == "a cat."  # the user's to remove


def test_attention_command_names_the_folder_it_wrote_and_refuses_an_empty_one(model, tokenizer, tmp_path, capsys,
                                                                             monkeypatch):
    shown, model_dir = recorded_figures(monkeypatch), save_model_dir(model, tokenizer, tmp_path / "model")
    assert main(["attention", "--model", str(model_dir), SHORT, "--out", f"{tmp_path / 'sl'}/"]) == 0
    assert shown == [(SHORT, tmp_path / "sl", None)]
    assert capsys.readouterr().out.splitlines()[0] == f"wrote 2 files to {tmp_path / 'sl'}/: cross_mean.png, " \
                                                      "attention.html"  # sl//, before
    assert main(["attention", "--model", str(model_dir), SHORT, "--out", ""]) == 2  # "to /" and the files here, before
    assert capsys.readouterr().err == "attnmt: error: --out is empty: give the folder to write the pictures into, " \
                                      'e.g. --out attention ("." for this one)\n'
    assert len(shown) == 1


def test_plot_commands_write_the_tutorials_figures(tmp_path):
    write_log(tmp_path / "run", [json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4})])
    for argv, png in (
        (["plot", "positional-encoding", "--positions", "16", "--d-model", "8"], "pe.png"),
        (["plot", "softmax-scaling"], "softmax.png"),
        (["plot", "training", str(tmp_path / "run")], "training.png"),
    ):
        assert main([*argv, "--out", str(tmp_path / png)]) == 0
        assert Image.open(tmp_path / png).size[0] > 500


def test_figures_to_a_format_or_a_place_they_cannot_go_are_one_line(model, tokenizer, tmp_path, capsys):
    in_the_way = tmp_path / "notes.txt"
    in_the_way.write_text("a file\n")
    assert main(["plot", "softmax-scaling", "--out", str(tmp_path / "figure.txt")]) == 2
    assert capsys.readouterr().err.startswith(f"attnmt: error: {tmp_path / 'figure.txt'}: figures are written as ")
    assert main(["plot", "softmax-scaling", "--out", str(in_the_way / "figure.png")]) == 2
    assert capsys.readouterr().err.startswith(f"attnmt: error: could not write {in_the_way / 'figure.png'}: ")
    model_dir = save_model_dir(model, tokenizer, tmp_path / "model")
    assert main(["attention", "--model", str(model_dir), "a b", "--out", str(in_the_way)]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {in_the_way} is a file, not a folder: give a folder's name " \
                                      "(or remove the file)\n"
    assert main(["plot", "softmax-scaling", "--out", str(tmp_path / "figure.svg")]) == 0
    assert (tmp_path / "figure.svg").read_text().lstrip().startswith("<?xml")


def test_a_step_logged_twice_is_drawn_once_with_its_last_record(tmp_path):
    write_log(tmp_path, [json.dumps({"step": step, "loss": loss, "lr": 1e-4})
                         for step, loss in ((10, 6.0), (20, 5.0), (30, 4.0), (20, 4.9), (30, 3.9), (40, 3.0))])
    train, _ = read_training_log(tmp_path)  # killed after step 30 with a checkpoint at 10, resumed
    assert [(r["step"], r["loss"]) for r in train] == [(10, 6.0), (20, 4.9), (30, 3.9), (40, 3.0)]


@pytest.mark.parametrize("plot", [lambda trace: plot_heads(trace, "cross", 0),
                                  lambda trace: plot_head_average(trace, "encoder")], ids=["heads", "mean"])
def test_dollars_in_the_sentence_are_drawn_as_written_not_as_mathtext(model, tokenizer, tmp_path, plot):
    """A pair of "$" was read as mathtext: "$5 to my_var__x or $" failed on its "_", "$5 and $" lost its dollars."""
    trace = trace_translation(model, tokenizer, "Call $5 to my_var__x or $6.", target=SHORT_TARGET)
    fig = plot(trace)
    save_figure(fig, tmp_path / "dollars.png")
    assert fig.get_suptitle().endswith(": Call $5 to my_var__x or $6.")
    texts, _ = drawn(fig)
    assert [text.get_text() for text in texts if "$" in text.get_text() and text.get_parse_math()] == []
    assert "$5" in [label.get_text() for label in fig.axes[0].get_xticklabels()]  # a piece, as written


def test_dollars_in_the_model_folders_name_are_drawn_as_written(tmp_path):
    write_log(tmp_path / "run$1__2$", [json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4})])
    fig = plot_training(tmp_path / "run$1__2$")
    save_figure(fig, tmp_path / "training.png")  # a ValueError from the mathtext parser, before
    assert fig.get_suptitle() == "Training of run$1__2$"
    assert [text.get_text() for text in drawn(fig)[0] if "$" in text.get_text() and text.get_parse_math()] == []


def test_line_breaks_and_tabs_of_a_sentence_read_whole_are_spaces_in_the_titles(one_layer_model, tokenizer, tmp_path):
    """--no-split keeps them: the title showed a box for each, with a warning that the font lacks '\\r'."""
    trace = trace_translation(one_layer_model, tokenizer, "a man.\r\nthe child\tplays\x0b", target=SHORT_TARGET)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write_trace_figures(trace, tmp_path)
    assert [str(warning.message) for warning in caught] == []
    assert plot_heads(trace, "cross", 0).get_suptitle().endswith(": a man. the child plays ")


def test_an_unfinished_last_line_of_the_training_log_is_left_out_with_a_warning(tmp_path, capsys):
    """A run still writing, or killed while writing: "line 3: not valid JSON", and no figure, before."""
    write_log(tmp_path, [json.dumps({"step": 10, "loss": 6.0, "lr": 1e-4}),
                         json.dumps({"step": 20, "loss": 5.0, "lr": 2e-4})])
    with open(tmp_path / "log.jsonl", "a") as log:
        log.write('{"step": 30, "loss": 4.1, "lr": 0.00')
    with pytest.warns(AttnmtWarning, match=r"log.jsonl, line 3: left out, unfinished \(no newline ends it: the run "
                                           r"is still writing it, or was killed\)$"):
        train, _ = read_training_log(tmp_path)
    assert [record["step"] for record in train] == [10, 20]
    with pytest.warns(AttnmtWarning, match="line 3: left out, unfinished"):
        assert main(["plot", "training", str(tmp_path), "--out", str(tmp_path / "training.png")]) == 0
    with open(tmp_path / "log.jsonl", "a") as log:  # the line cut short is no longer the last: refused
        log.write("\n" + json.dumps({"step": 40, "loss": 3.0, "lr": 1e-4}) + "\n")
    with pytest.raises(ModelDirError, match=r"log.jsonl, line 3: not valid JSON"):
        read_training_log(tmp_path)


def test_a_log_of_one_training_record_draws_its_loss_and_learning_rate_as_points(tmp_path):
    """A line through one point draws nothing: both panels were empty."""
    write_log(tmp_path, [json.dumps({"step": 20, "loss": 8.8, "lr": 1e-4})])
    fig = plot_training(tmp_path)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())[..., :3].astype(int)
    for ax, colour in ((fig.axes[0], (31, 119, 180)), (fig.axes[1], (44, 160, 44))):  # tab:blue, tab:green
        x, y = ax.transData.transform((20, ax.lines[0].get_ydata()[0]))  # display pixels, origin bottom left
        assert np.abs(image[image.shape[0] - int(y), int(x)] - colour).max() < 10, ax.get_title()
def test_attention_into_a_folder_of_a_deeper_model_names_the_layers_this_one_does_not_draw(tokenizer, tmp_path,
                                                                                           monkeypatch):
    """A 5-layer model's layer 3 and 4 PNGs stood beside a 2-layer model's pictures, unsaid."""
    from attnmt.inspect import figures

    def model_dir(layers: int) -> Path:
        config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=8, n_heads=2, encoder_layers=layers,
                                   decoder_layers=layers, d_ff=16, dropout=0.0, max_positions=64)
        return save_model_dir(Transformer(config), tokenizer, tmp_path / f"model{layers}")

    def write(model, tokenizer, sentence, out_dir, target=None, decoding=None):  # the names the real one writes
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = [out_dir / name for name in PictureNames.of_config(model.config).names()]
        for path in paths:
            path.write_bytes(b"png")
        return paths

    monkeypatch.setattr(figures, "write_attention_figures", write)
    out, deep, shallow = tmp_path / "stale", model_dir(5), model_dir(2)
    assert main(["attention", "--model", str(deep), "a dog runs.", "--out", str(out)]) == 0
    with pytest.warns(AttnmtWarning, match=re.escape(
            f"{out} still holds pictures of an earlier run (cross_layer2.png, cross_layer3.png, cross_layer4.png, "
            "decoder_self_layer2.png, decoder_self_layer3.png, decoder_self_layer4.png, encoder_layer2.png, "
            "encoder_layer3.png, encoder_layer4.png) that this one does not replace")):
        assert main(["attention", "--model", str(shallow), "a dog runs.", "--out", str(out)]) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["attention", "--model", str(deep), "a dog runs.", "--out", str(out)]) == 0


def test_an_empty_target_or_plot_out_is_refused_as_an_empty_sentence_is(model, tokenizer, tmp_path, capsys,
                                                                      monkeypatch):
    shown, model_dir = recorded_figures(monkeypatch), save_model_dir(model, tokenizer, tmp_path / "model")
    for target in ("", "  "):  # pictures of </s> alone, before
        assert main(["attention", "--model", str(model_dir), SHORT, "--target", target, "--out",
                     str(tmp_path / "o")]) == 2
        assert capsys.readouterr().err == "attnmt: error: --target is empty: give the translation whose attention " \
                                          'to show, e.g. --target "Ein Mann fährt Rad." (or leave --target out ' \
                                          "for the model's own)\n"
    assert shown == []
    monkeypatch.chdir(tmp_path)
    assert main(["plot", "positional-encoding", "--out", ""]) == 2  # positional-encoding.png, before
    assert capsys.readouterr().err == "attnmt: error: --out is empty: give the PNG to write, e.g. --out " \
                                      "positional-encoding.png\n"
    assert list(tmp_path.glob("*.png")) == []


def test_the_picture_names_of_a_model_are_those_written_and_read_back_past_its_layers(tokenizer, tmp_path):
    """One place names the pictures, for write_trace_figures and for attention's warning of an earlier
    run's: 3 encoder layers and 1 decoder layer (2 heads, in one PNG a layer) give 8 files."""
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=8, n_heads=2, encoder_layers=3,
                               decoder_layers=1, d_ff=16, dropout=0.0, max_positions=64)
    names = PictureNames.of_config(config)
    assert names.names() == ["cross_layer0.png", "cross_mean.png", "encoder_layer0.png", "encoder_layer1.png",
                             "encoder_layer2.png", "encoder_mean.png", "decoder_self_layer0.png",
                             "decoder_self_mean.png", "attention.html"]
    trace = trace_translation(Transformer(config).eval(), tokenizer, SHORT, target=SHORT_TARGET)
    assert [path.name for path in write_trace_figures(trace, tmp_path)] == names.names()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(names.names())
    deeper = PictureNames.of_config(TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=8, n_heads=2,
                                                      encoder_layers=4, decoder_layers=2, d_ff=16)).names()
    assert [name for name in deeper if names.beyond(name)] == ["cross_layer1.png", "encoder_layer3.png",
                                                               "decoder_self_layer1.png"]
    assert not any(names.beyond(name) for name in ["cross_mean.png", "encoder_layer2.png", "other_layer9.png",
                                                   "cross_layer9.png.bak", "attention.html"])
