"""``attnmt attention``, ``explain`` and ``plot``: pictures of attention and the tutorials' figures."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.cli.lines import print_out
from attnmt.cli.options import add_model_dir_option, add_model_options, language_code, model_dir_of, whole_number
from attnmt.decoding import DEFAULT, MAX_BEAM, Decoding
from attnmt.errors import ConfigError

if TYPE_CHECKING:  # figures imports matplotlib (attnmt[plot]): loaded only by the commands that draw
    from attnmt.inspect.figures import PictureNames


def cmd_attention(args: argparse.Namespace, extra: dict[str, str]) -> int:
    """The pictures of the translation ``translate`` gives: the text split into sentences as
    translate splits it (``paragraph_sentences``; the server traces the same ones), one folder a
    sentence under --out where there are several.  One sentence, and a text read whole
    (--no-split, its lines and tabs too), is traced as typed, URLs, e-mail addresses and file names in it, as
    before the split; a --target is one sentence's translation, or the whole text's."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.documents.pipeline import DocumentOptions, paragraph_sentences
    from attnmt.inspect.figures import PictureNames, write_attention_figures
    from attnmt.output_checks import check_not_stdout

    check_not_stdout(args.out, "--out", "the pictures", "attention", kind="folder")
    if not args.sentence.strip():
        raise ConfigError('nothing to show: give a sentence to translate, e.g. "A man rides a bike."')
    if not args.out:
        raise ConfigError('--out is empty: give the folder to write the pictures into, e.g. --out attention '
                          '("." for this one)')
    if args.target is not None and not args.target.strip():  # else the pictures of </s> alone
        raise ConfigError('--target is empty: give the translation whose attention to show, e.g. --target '
                          '"Ein Mann fährt Rad." (or leave --target out for the model\'s own)')
    sentences = [args.sentence.strip()]  # --no-split, or one sentence: the text as typed, its URLs in it
    if not args.no_split:
        split = paragraph_sentences(args.sentence, DocumentOptions(source_lang=args.source_lang))
        if len(split) > 1:  # each as translate gives it to the model (a URL or e-mail address kept out)
            sentences = split
    if args.target is not None and len(sentences) > 1:
        raise ConfigError(f"--target: the text has {len(sentences)} sentences; give one sentence and its "
                          "translation at a time (or --no-split to read the text whole)")
    model, tokenizer = load_model_dir(args.model, args.weights)
    decoding = Decoding(beam_size=args.beam)
    folders = sentence_folders(Path(args.out), len(sentences))
    names = PictureNames.of_config(model.config)
    warn_earlier_pictures(Path(args.out), folders, names)
    for number, (sentence, folder) in enumerate(zip(sentences, folders, strict=True), start=1):
        paths = write_attention_figures(model, tokenizer, sentence, folder, target=args.target, decoding=decoding)
        which = f"sentence {number} of {len(sentences)} ({sentence!r}): " if len(sentences) > 1 else ""
        print_out(f"{which}wrote {len(paths)} files to {os.path.join(folder, '')}: {', '.join(p.name for p in paths)}")
    several = f" (one folder a sentence, {folders[0].name} to {folders[-1].name})" if len(sentences) > 1 else ""
    print_out(f"open {folders[0] / names.VIEWER} in a browser to explore every layer and head{several}")
    return 0


def sentence_folders(out: Path, count: int) -> list[Path]:
    """Where each of ``count`` sentences' pictures go: ``out`` itself for one, else
    out/sentence1, out/sentence2, … (numbered to the same width, so that they sort in order)."""
    if count == 1:
        return [out]
    return [out / f"sentence{number:0{len(str(count))}d}" for number in range(1, count + 1)]


def warn_earlier_pictures(out: Path, folders: list[Path], names: PictureNames) -> None:
    """A warning naming what an earlier run left in ``out`` that this one does not write over: its
    sentence folders past this run's (a text of three, then of two: sentence3/), its PNGs of layers
    this model lacks (``names``: those of this run's pictures; a 5-layer model's, then a 2-layer
    one's: cross_layer4.png), or its pictures of one sentence beside this run's folders; the files
    are the user's to remove, not this command's."""
    import warnings

    from attnmt.errors import AttnmtWarning

    if not out.is_dir():
        return
    earlier = [path for path in sorted(out.iterdir()) if path.is_dir() and re.fullmatch(r"sentence\d+", path.name)
               and path not in folders]
    for folder in folders:
        if folder.is_dir():
            earlier += [path for path in sorted(folder.iterdir()) if names.beyond(path.name)]
    if folders != [out] and (out / names.VIEWER).is_file():
        earlier.append(out / names.VIEWER)
    if earlier:
        listed = ", ".join(path.relative_to(out).as_posix() + ("/" if path.is_dir() else "") for path in earlier)
        warnings.warn(f"{out} still holds pictures of an earlier run ({listed}) that this one does not replace: "
                      "remove them, or give another --out", AttnmtWarning, stacklevel=2)


def cmd_explain(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.inspect.explain import explain, load_example

    print_out(explain(load_example(args.matrices, args.heads, args.causal)))
    return 0


def cmd_plot(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.inspect import figures
    from attnmt.output_checks import check_not_stdout

    default = Path(f"{args.figure}.png")
    if args.out == "":  # else the default file, without a word
        raise ConfigError(f"--out is empty: give the PNG to write, e.g. --out {default}")
    check_not_stdout(args.out, "--out", "the figure", str(default))
    if args.figure == "positional-encoding":
        if args.d_model % 2 or args.d_model < 2 or args.positions < 1:
            raise ConfigError(f"need an even --d-model >= 2 and --positions >= 1, got {args.d_model}, {args.positions}")
        fig = figures.plot_positional_encoding(args.positions, args.d_model)
    elif args.figure == "softmax-scaling":
        fig = figures.plot_softmax_scaling()
    else:
        from attnmt.inspect.training_curves import plot_training

        model_dir = Path(model_dir_of(args))
        fig, default = plot_training(model_dir), model_dir / "training.png"
    out = figures.save_figure(fig, Path(args.out) if args.out is not None else default)
    print_out(f"wrote {out}")
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("attention", help="translate a sentence; write attention heatmaps and an HTML viewer "
                             "(attnmt[plot])")
    p.add_argument("sentence", help='the sentence to translate, e.g. "A man rides a bike." (a text of several: '
                   'split into sentences as translate splits it)')
    add_model_options(p)
    p.add_argument("--out", default="attention", help="directory to write the PNGs and attention.html into "
                   "(default: attention)")
    p.add_argument("--beam", type=whole_number(1, MAX_BEAM), default=DEFAULT.beam_size,
                   help="beam size (1 = greedy)")
    p.add_argument("--target", help="show the attention of this translation instead of the model's own")
    p.add_argument("--no-split", action="store_true", help="read the text whole, as one sequence (its lines "
                   "too), instead of sentence by sentence (several sentences: a folder each under --out)")
    p.add_argument("--source-lang", default="en", type=language_code, help="source language code for the sentence "
                   "splitter, as translate's (default en)")
    p.set_defaults(run=cmd_attention)

    p = commands.add_parser("explain", help="compute attention step by step on a small example, with shapes")
    p.add_argument("matrices", nargs="?", help="JSON or .npz file with X, Wq, Wk, Wv [, Wo, heads, mask] "
                                               "(default: the tutorial's 2-token example)")
    p.add_argument("--heads", type=int, help="number of heads (default: the file's "
                   "heads, or 1; the tutorial example's 2 without a file)")
    p.add_argument("--causal", action="store_true", help="apply the decoder's causal mask")
    p.set_defaults(run=cmd_explain)

    p = commands.add_parser("plot", help="the tutorials' figures: positional-encoding, softmax-scaling, training "
                            "(attnmt[plot])")
    figures = p.add_subparsers(dest="figure", required=True)
    f = figures.add_parser("positional-encoding", help="the sin/cos pattern, interleaved and half/half layouts")
    f.add_argument("--positions", type=int, default=64, help="positions to draw, 1 or more (default: 64)")
    f.add_argument("--d-model", type=int, default=128, help="the encoding's width, even (default: 128)")
    figures.add_parser("softmax-scaling", help="why scores are divided by √d_k: softmax of N(0, 100²) samples")
    f = figures.add_parser("training", help="loss, learning rate and validation BLEU from MODEL_DIR/log.jsonl")
    add_model_dir_option(f)
    for f in figures.choices.values():
        f.add_argument("--out", help="PNG to write (default: FIGURE.png here; MODEL_DIR/training.png for training)")
    p.set_defaults(run=cmd_plot)
