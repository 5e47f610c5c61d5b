"""``attnmt serve``: the HTTP API and web page of attnmt.app.serve over one loaded model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attnmt.app.options import add_batch_size_option, add_machine_options, add_model_options, load_for_translation


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.app.serve import ServeSettings, serve

    if args.max_batch is not None:
        print(f"attnmt: note: --max-batch is now --batch-size {args.max_batch}; the old name goes in the next release",
              file=sys.stderr)
    batch = args.max_batch if args.max_batch is not None else args.batch_size
    settings = ServeSettings(max_batch=batch, batch_window_ms=args.batch_window_ms)
    model, tokenizer, parameters = load_for_translation(args)
    serve(model, tokenizer, Path(args.model).resolve().name, args.host, args.port, settings, parameters)
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("serve", help="serve a model: HTTP API (POST /translate) and a web page with attention")
    add_model_options(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=int, default=8000)
    add_batch_size_option(p, "texts translated together (1: one at a time)", default=32)
    p.add_argument("--max-batch", type=int, help=argparse.SUPPRESS)  # the name of --batch-size until 0.1
    p.add_argument("--batch-window-ms", type=float, default=5.0, help="how long a lone request waits for company")
    add_machine_options(p)
    p.set_defaults(run=run)
