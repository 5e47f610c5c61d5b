"""The command line: ``attnmt train | translate | evaluate | average | demo``.

User mistakes (a bad config key, a missing file, a broken model directory)
print one clear line and exit with status 2, never a stack trace.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from attnmt.checkpoint import ModelDirError
from attnmt.data import DataError
from attnmt.model import ConfigError

USER_ERRORS = (ConfigError, DataError, ModelDirError, FileNotFoundError, IsADirectoryError)


def parse_overrides(extra: Sequence[str]) -> dict[str, str]:
    """``--key value`` pairs left over by argparse -> {"key": "value"} (``model.d_model`` for nested keys)."""
    overrides: dict[str, str] = {}
    items = list(extra)
    while items:
        key = items.pop(0)
        if not key.startswith("--") or not items:
            raise ConfigError(f"expected '--key value' overrides, got {key!r}")
        overrides[key[2:].replace("-", "_")] = items.pop(0)
    return overrides


def cmd_train(args: argparse.Namespace, extra: list[str]) -> int:
    from attnmt.config import load_config
    from attnmt.train import resume, train

    overrides = parse_overrides(extra)
    if args.resume:
        result = resume(args.resume, overrides)
    elif args.config:
        result = train(load_config(args.config, overrides))
    else:
        raise ConfigError("give a CONFIG.yaml to train, or --resume MODEL_DIR")
    print(f"best validation BLEU {result.best_bleu:.2f} at step {result.best_step}; model: {result.model_dir}")
    return 0


def read_input(path: str | None) -> list[str]:
    if path is None or path == "-":
        return sys.stdin.read().splitlines()
    from attnmt.data import read_lines

    return read_lines(path)


def cmd_translate(args: argparse.Namespace, extra: list[str]) -> int:
    from attnmt.checkpoint import load_model_dir
    from attnmt.decode import translate

    model, tokenizer = load_model_dir(args.model, args.weights)
    outputs = translate(model, tokenizer, read_input(args.input), beam_size=args.beam, alpha=args.alpha)
    text = "".join(line + "\n" for line in outputs)
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


def cmd_evaluate(args: argparse.Namespace, extra: list[str]) -> int:
    from attnmt.checkpoint import load_model_dir
    from attnmt.data import read_lines
    from attnmt.decode import translate
    from attnmt.evaluate import score

    model, tokenizer = load_model_dir(args.model, args.weights)
    hypotheses = translate(model, tokenizer, read_lines(args.src), beam_size=args.beam, alpha=args.alpha)
    scores = score(hypotheses, read_lines(args.ref))
    print(json.dumps(scores.as_dict(), indent=2) if args.json else scores)
    return 0


def cmd_average(args: argparse.Namespace, extra: list[str]) -> int:
    from attnmt.checkpoint import average_checkpoints, list_checkpoints

    chosen = list_checkpoints(Path(args.model_dir))[-args.last:]
    out = Path(args.out) if args.out else Path(args.model_dir) / "averaged.safetensors"
    average_checkpoints(chosen, out)
    print(f"averaged {len(chosen)} checkpoints ({', '.join(p.name for p in chosen)}) into {out}")
    return 0


def cmd_demo(args: argparse.Namespace, extra: list[str]) -> int:
    from attnmt.demo import run_demo

    run_demo(args.config, args.out, args.minutes, parse_overrides(extra))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="attnmt", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("train", help="train a model from a YAML config (extra --key value pairs override it)")
    p.add_argument("config", nargs="?", help="YAML config, e.g. configs/multi30k_en_de.yaml")
    p.add_argument("--resume", metavar="MODEL_DIR", help="continue a run exactly where it stopped")
    p.set_defaults(run=cmd_train)

    for name, run, doc in (("translate", cmd_translate, "translate lines of text"),
                           ("evaluate", cmd_evaluate, "translate a file and score it with sacreBLEU and chrF")):
        p = commands.add_parser(name, help=doc)
        p.add_argument("--model", required=True, help="model directory written by 'attnmt train'")
        p.add_argument("--weights", help="another weights file (e.g. averaged.safetensors)")
        p.add_argument("--beam", type=int, default=4, help="beam size (1 = greedy)")
        p.add_argument("--alpha", type=float, default=0.6, help="length penalty α")
        p.set_defaults(run=run)
        if name == "translate":
            p.add_argument("input", nargs="?", help="input file (default: stdin)")
            p.add_argument("output", nargs="?", help="output file (default: stdout)")
        else:
            p.add_argument("--src", required=True, help="source file (plain or .gz)")
            p.add_argument("--ref", required=True, help="reference translations")
            p.add_argument("--json", action="store_true", help="print JSON")

    p = commands.add_parser("average", help="average the last N checkpoints' weights")
    p.add_argument("model_dir")
    p.add_argument("--last", type=int, default=5)
    p.add_argument("--out", help="weights file to write (default MODEL_DIR/averaged.safetensors)")
    p.set_defaults(run=cmd_average)

    p = commands.add_parser("demo", help="train on Multi30k within a time budget, score it and translate examples")
    p.add_argument("--minutes", type=float, default=15.0, help="training time budget")
    p.add_argument("--config", default="configs/multi30k_en_de.yaml")
    p.add_argument("--out", default="runs/demo", help="model directory to write")
    p.set_defaults(run=cmd_demo)
    return parser


def split_overrides(argv: list[str], flags: set[str]) -> tuple[list[str], list[str]]:
    """Separates ``--key value`` overrides from a command's own arguments (``flags`` take a value too).

    Done by hand because argparse would take an override's value for the optional CONFIG.
    """
    own, overrides = argv[:1], []
    items = argv[1:]
    while items:
        item = items.pop(0)
        if item in flags or item in ("-h", "--help") or not item.startswith("--"):
            own.append(item)
            if item in flags and items:
                own.append(items.pop(0))
        else:
            overrides.append(item)
            if items:
                overrides.append(items.pop(0))
    return own, overrides


OWN_FLAGS = {"train": {"--resume"}, "demo": {"--minutes", "--config", "--out"}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if argv and argv[0] in OWN_FLAGS:
        argv, extra = split_overrides(argv, OWN_FLAGS[argv[0]])
    args = parser.parse_args(argv)
    try:
        return args.run(args, extra)
    except USER_ERRORS as error:
        print(f"attnmt: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("attnmt: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
