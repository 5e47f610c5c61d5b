"""The command line: ``attnmt prepare | train | translate | evaluate | average | demo | attention | explain | plot |
export | import | serve | shortlist``.

User mistakes (a bad config key, a missing file, a broken model directory)
print one clear line and exit with status 2, never a stack trace.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from attnmt import __version__
from attnmt.app.shortlisting import add_shortlist_command
from attnmt.app.translating import BF16_HELP, DEVICES, INT8_HELP, add_translation_commands, positive_int
from attnmt.errors import ConfigError, UserError

USER_ERRORS = (UserError, FileNotFoundError, IsADirectoryError)
# Optional dependencies, by the extra that installs them (pip install 'attnmt[serve]', or [all]).
EXTRAS = {"fastapi": "serve", "uvicorn": "serve", "matplotlib": "plot", "tensorboard": "tensorboard",
          "transformers": "export", "ctranslate2": "export"}


def cmd_train(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.config import load_config
    from attnmt.training.distributed import teardown
    from attnmt.training.trainer import resume, train

    overrides = extra
    if not (args.resume or args.config):
        raise ConfigError("give a CONFIG.yaml to train, or --resume MODEL_DIR")
    # Under torchrun: leave the process group before exiting.  Exiting with it alive
    # let gloo's threads be destroyed running ("terminate called without an active
    # exception", exit -6) now and then.
    try:
        result = resume(args.resume, overrides) if args.resume else train(load_config(args.config, overrides))
    except BaseException:
        teardown(finished=False)
        raise
    teardown()
    print(f"{result.best()}; model: {result.model_dir}")
    return 0


def cmd_prepare(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.config import load_config
    from attnmt.training.corpora import prepare_config

    config = load_config(args.config, extra)
    out = args.out or config.prepared_dir
    if not out:
        raise ConfigError("say where to write the prepared data: --out DIR, or prepared_dir in the config")
    prepare_config(config, out)
    print(f"prepared into {out}; train from it with: attnmt train {args.config} --prepared_dir {out}")
    return 0


def cmd_average(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.checkpoint import average_checkpoints, list_checkpoints

    chosen = list_checkpoints(Path(args.model_dir))[-args.last:]
    out = Path(args.out) if args.out else Path(args.model_dir) / "averaged.safetensors"
    average_checkpoints(chosen, out)
    print(f"averaged {len(chosen)} checkpoints ({', '.join(p.name for p in chosen)}) into {out}")
    return 0


def cmd_demo(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.app.demo import run_demo

    run_demo(args.config, args.out, args.minutes, extra)
    return 0


def cmd_export(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.interop.export import export_ctranslate2, export_marian, reading_note

    if args.format == "marian":
        if args.quantization:
            raise ConfigError("--quantization applies to --format ctranslate2 only")
        out = export_marian(args.model, args.out, args.weights)
    else:
        out = export_ctranslate2(args.model, args.out, args.quantization, args.weights)
    print(f"wrote a {args.format} model to {out}")
    if note := reading_note(args.model):
        print(note)
    return 0


def cmd_import(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.interop.export import import_marian

    out = import_marian(args.from_marian, args.out)
    print(f"wrote an attnmt model directory to {out}; try: attnmt translate --model {out}")
    return 0


def add_export_commands(commands: argparse._SubParsersAction) -> None:
    from attnmt.interop.export import QUANTIZATIONS

    p = commands.add_parser("export", help="export a model to Hugging Face Marian or CTranslate2 (attnmt[export])")
    p.add_argument("--model", required=True, help="model directory")
    p.add_argument("--weights", help="another weights file (e.g. averaged.safetensors)")
    p.add_argument("--format", required=True, choices=("marian", "ctranslate2"))
    p.add_argument("--out", required=True, help="directory to write (new or empty)")
    p.add_argument("--quantization", choices=QUANTIZATIONS, help="CTranslate2 weight type, e.g. int8")
    p.set_defaults(run=cmd_export)

    p = commands.add_parser("import", help="turn a local Hugging Face Marian (OPUS-MT) model into an attnmt model")
    p.add_argument("--from-marian", required=True, metavar="HF_DIR", help="directory with config.json, "
                   "model weights, source.spm, target.spm and vocab.json")
    p.add_argument("--out", required=True, help="attnmt model directory to write (new or empty)")
    p.set_defaults(run=cmd_import)


def cmd_serve(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.app.serve import ServeSettings, serve

    settings = ServeSettings(max_batch=args.max_batch, batch_window_ms=args.batch_window_ms)
    serve(args.model, args.host, args.port, args.weights, settings, args.threads, args.int8, args.device, args.bf16,
          shortlist=args.shortlist)
    return 0


def add_serve_command(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("serve", help="serve a model: HTTP API (POST /translate) and a web page with attention")
    p.add_argument("--model", required=True, help="model directory written by 'attnmt train'")
    p.add_argument("--weights", help="another weights file (e.g. averaged.safetensors)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--max-batch", type=positive_int, default=32, help="texts translated together (1: one at a time)")
    p.add_argument("--batch-window-ms", type=float, default=5.0, help="how long a lone request waits for company")
    p.add_argument("--threads", type=int, default=0, help="PyTorch CPU threads (0: its default)")
    precision = p.add_mutually_exclusive_group()
    precision.add_argument("--int8", action="store_true", help=INT8_HELP)
    precision.add_argument("--bf16", action="store_true", help=BF16_HELP)
    p.add_argument("--device", choices=DEVICES, default="cpu")
    p.add_argument("--shortlist", metavar="FILE", help="a vocabulary shortlist ('attnmt shortlist'): each batch's "
                   "output layer computes only the pieces it allows")
    p.set_defaults(run=cmd_serve)


def cmd_attention(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.checkpoint import load_model_dir
    from attnmt.inspect.figures import write_attention_figures

    if not args.sentence.strip():
        raise ConfigError('nothing to show: give a sentence to translate, e.g. "A man rides a bike."')
    model, tokenizer = load_model_dir(args.model, args.weights)
    paths = write_attention_figures(model, tokenizer, args.sentence, Path(args.out),
                                    target=args.target, beam_size=args.beam)
    print(f"wrote {len(paths)} files to {args.out}/: {', '.join(path.name for path in paths)}")
    print(f"open {paths[-1]} in a browser to explore every layer and head")
    return 0


def cmd_explain(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.inspect.explain import explain, load_example

    print(explain(load_example(args.matrices, args.heads, args.causal)))
    return 0


def cmd_plot(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.inspect import figures

    if args.figure == "positional-encoding":
        if args.d_model % 2 or args.d_model < 2 or args.positions < 1:
            raise ConfigError(f"need an even --d-model >= 2 and --positions >= 1, got {args.d_model}, {args.positions}")
        fig = figures.plot_positional_encoding(args.positions, args.d_model)
    elif args.figure == "softmax-scaling":
        fig = figures.plot_softmax_scaling()
    else:
        fig = figures.plot_training(Path(args.model_dir))
    default = Path(args.model_dir) / "training.png" if args.figure == "training" else Path(f"{args.figure}.png")
    out = figures.save_figure(fig, Path(args.out) if args.out else default)
    print(f"wrote {out}")
    return 0


def add_visual_commands(commands: argparse._SubParsersAction) -> None:
    """``attention``, ``explain`` and ``plot``: pictures of attention and the tutorials' figures."""
    p = commands.add_parser("attention", help="translate a sentence; write attention heatmaps and an HTML viewer")
    p.add_argument("sentence", help='the sentence to translate, e.g. "A man rides a bike."')
    p.add_argument("--model", required=True, help="model directory written by 'attnmt train'")
    p.add_argument("--weights", help="another weights file (e.g. averaged.safetensors)")
    p.add_argument("--out", default="attention", help="directory to write the PNGs and attention.html into")
    p.add_argument("--beam", type=positive_int, default=4, help="beam size (1 = greedy)")
    p.add_argument("--target", help="show the attention of this translation instead of the model's own")
    p.set_defaults(run=cmd_attention)

    p = commands.add_parser("explain", help="compute attention step by step on a small example, with shapes")
    p.add_argument("matrices", nargs="?", help="JSON or .npz file with X, Wq, Wk, Wv [, Wo, heads, mask] "
                                               "(default: the tutorial's 2-token example)")
    p.add_argument("--heads", type=int, help="number of heads (default: the file's, or 1)")
    p.add_argument("--causal", action="store_true", help="apply the decoder's causal mask")
    p.set_defaults(run=cmd_explain)

    p = commands.add_parser("plot", help="the tutorials' figures: positional-encoding, softmax-scaling, training")
    figures = p.add_subparsers(dest="figure", required=True)
    f = figures.add_parser("positional-encoding", help="the sin/cos pattern, interleaved and half/half layouts")
    f.add_argument("--positions", type=int, default=64)
    f.add_argument("--d-model", type=int, default=128)
    figures.add_parser("softmax-scaling", help="why scores are divided by √d_k: softmax of N(0, 100²) samples")
    f = figures.add_parser("training", help="loss, learning rate and validation BLEU from MODEL_DIR/log.jsonl")
    f.add_argument("model_dir")
    for f in figures.choices.values():
        f.add_argument("--out", help="PNG to write (default: FIGURE.png here; MODEL_DIR/training.png for training)")
    p.set_defaults(run=cmd_plot)


def torch_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "not installed"


def train_keys_help() -> str:
    """The keys a config (or an override) may set, for ``attnmt train --help``."""
    from attnmt.config import TrainConfig, TransformerConfig, describe_keys

    return "\n".join([
        "Any config key can be overridden: --key value, --key=value, or a bare --key for true;",
        "model keys are dotted (--model.d_model 512). Keys:",
        *[line for line in describe_keys(TrainConfig) if not line.startswith("  --model ")],
        *describe_keys(TransformerConfig, prefix="model."),
    ])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attnmt", description="The Transformer of 'Attention Is All You Need': train translation models, "
        "translate, score, look at attention, serve and export them. 'attnmt COMMAND --help' for each command.")
    parser.add_argument("--version", action="version", version=f"attnmt {__version__} (PyTorch {torch_version()})")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser(
        "prepare", help="tokenise and filter a config's training corpora once, into token arrays on disk "
        "that 'attnmt train' reads (--prepared_dir)", epilog="Overrides as for 'attnmt train'.")
    p.add_argument("config", help="YAML config naming the corpora, the tokenizer and the filters")
    p.add_argument("--out", help="directory to write (default: the config's prepared_dir)")
    p.set_defaults(run=cmd_prepare)

    p = commands.add_parser(
        "train", help="train a model from a YAML config (extra --key value pairs override it)",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=train_keys_help())
    p.add_argument("config", nargs="?", help="YAML config, e.g. configs/multi30k_en_de.yaml")
    p.add_argument("--resume", metavar="MODEL_DIR", help="continue a run exactly where it stopped")
    p.set_defaults(run=cmd_train)

    add_translation_commands(commands)
    add_shortlist_command(commands)

    p = commands.add_parser("average", help="average the last N checkpoints' weights")
    p.add_argument("model_dir")
    p.add_argument("--last", type=positive_int, default=5)
    p.add_argument("--out", help="weights file to write (default MODEL_DIR/averaged.safetensors)")
    p.set_defaults(run=cmd_average)

    p = commands.add_parser("demo", help="train on Multi30k within a time budget, score it and translate examples")
    p.add_argument("--minutes", type=float, default=15.0, help="training time budget")
    p.add_argument("--config", default="configs/multi30k_en_de.yaml")
    p.add_argument("--out", default="runs/demo", help="model directory to write")
    p.set_defaults(run=cmd_demo)
    add_visual_commands(commands)
    add_export_commands(commands)
    add_serve_command(commands)
    return parser


def split_overrides(argv: list[str], flags: set[str]) -> tuple[list[str], dict[str, str]]:
    """Separates config overrides from a command's own arguments (``flags`` take a value too).

    An override is ``--key value``, ``--key=value`` or a bare ``--key`` (true); nested keys
    are dotted (``--model.d_model 512``), and dashes in names read as underscores.  Done by
    hand because argparse would take an override's value for the optional CONFIG.
    """
    own, overrides = argv[:1], {}
    items = argv[1:]
    while items:
        item = items.pop(0)
        name, has_value, value = item.partition("=")
        if name in flags or item in ("-h", "--help") or not item.startswith("--"):
            own.append(item)
            if name in flags and not has_value and items:
                own.append(items.pop(0))
            continue
        key = name[2:].replace("-", "_")
        if not key:
            raise ConfigError(f"expected '--key value' overrides, got {item!r}")
        if has_value:
            overrides[key] = value
        elif items and not items[0].startswith("--"):
            overrides[key] = items.pop(0)
        else:
            overrides[key] = "true"  # a bare --flag switches a boolean key on
    return own, overrides


OWN_FLAGS = {"prepare": {"--out"}, "train": {"--resume"}, "demo": {"--minutes", "--config", "--out"}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: dict[str, str] = {}
    if argv and argv[0] in OWN_FLAGS:
        argv, extra = split_overrides(argv, OWN_FLAGS[argv[0]])
    args = parser.parse_args(argv)
    try:
        return args.run(args, extra)
    except USER_ERRORS as error:
        print(f"attnmt: error: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        extra = EXTRAS.get((error.name or "").split(".")[0])
        if extra is None:
            raise
        print(f"attnmt: error: 'attnmt {args.command}' needs {error.name}, from the {extra} extra: "
              f"pip install 'attnmt[{extra}]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("attnmt: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
