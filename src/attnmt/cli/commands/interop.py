"""``attnmt export`` and ``import``: to and from Hugging Face Marian and CTranslate2."""

from __future__ import annotations

import argparse
import shlex

from attnmt.cli.lines import print_out
from attnmt.cli.options import add_model_options, file_name
from attnmt.errors import ConfigError


def cmd_export(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.interop.export import export_ctranslate2, export_marian, reading_notes
    from attnmt.output_checks import check_not_stdout

    check_not_stdout(args.out, "--out", f"the {args.format} model", f"{args.format}-model", kind="folder")
    if args.format == "marian":
        if args.quantization:
            raise ConfigError("--quantization applies to --format ctranslate2 only")
        out = export_marian(args.model, args.out, args.weights)
    else:
        out = export_ctranslate2(args.model, args.out, args.quantization, args.weights)
    notes = reading_notes(args.model)  # read before the success line, which is the command's last step
    print_out(f"wrote a {args.format} model to {out}")
    for note in notes:
        print_out(note)
    return 0


def cmd_import(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.interop.marian_import import import_marian
    from attnmt.output_checks import check_not_stdout

    check_not_stdout(args.out, "--out", "the model", "model", kind="folder")
    out = import_marian(args.from_marian, args.out)
    # quoted as a shell reads it: a folder named "opus models/en-de" is one argument there
    command = shlex.join(["attnmt", "translate", "--model", str(out)])
    print_out(f"wrote an attnmt model directory to {out}; try: {command}")
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    from attnmt.interop import QUANTIZATIONS

    p = commands.add_parser("export", help="export a model to Hugging Face Marian or CTranslate2 (attnmt[export])")
    add_model_options(p)
    p.add_argument("--format", required=True, choices=("marian", "ctranslate2"))
    p.add_argument("--out", required=True, help="directory to write (new or empty)")
    p.add_argument("--quantization", choices=QUANTIZATIONS, help="CTranslate2 weight type, e.g. int8")
    p.set_defaults(run=cmd_export)

    p = commands.add_parser("import", help="turn a local Hugging Face Marian (OPUS-MT) model into an attnmt model")
    p.add_argument("--from-marian", required=True, metavar="HF_DIR", type=file_name, help="directory with config.json, "
                   "model weights, source.spm, target.spm and vocab.json")
    p.add_argument("--out", required=True, help="attnmt model directory to write (new or empty)")
    p.set_defaults(run=cmd_import)
