"""``attnmt serve``: the HTTP API and web page of attnmt.app.serve over one loaded model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attnmt.app.options import (
    add_batch_size_option,
    add_machine_options,
    add_model_options,
    add_shortlist_option,
    load_for_translation,
)


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.app.serve import ServeSettings, serve

    if args.max_batch is not None:
        print(f"attnmt: note: --max-batch is now --batch-size {args.max_batch}; the old name goes in the next release",
              file=sys.stderr)
    batch = args.max_batch if args.max_batch is not None else args.batch_size
    settings = ServeSettings(max_batch=batch, batch_window_ms=args.batch_window_ms,
                             header_timeout_s=args.header_timeout, body_timeout_s=args.body_timeout,
                             shutdown_timeout_s=args.shutdown_timeout)
    model, tokenizer, parameters = load_for_translation(args)
    serve(model, tokenizer, Path(args.model).resolve().name, args.host, args.port, settings, parameters,
          allowed_hosts=args.allowed_host)
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("serve", help="serve a model: HTTP API (POST /translate) and a web page with attention")
    add_model_options(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=int, default=8000)
    add_batch_size_option(p, "texts translated together (1: one at a time)", default=32)
    p.add_argument("--max-batch", type=int, help=argparse.SUPPRESS)  # the name of --batch-size until 0.1
    p.add_argument("--batch-window-ms", type=float, default=5.0, help="how long a lone request waits for company")
    p.add_argument("--header-timeout", type=float, default=10.0, help="seconds a connection may stay silent "
                   "(opened, or answered) before it is closed")
    p.add_argument("--body-timeout", type=float, default=30.0, help="seconds a request body may take to arrive "
                   "after its headers (then 408)")
    p.add_argument("--shutdown-timeout", type=float, default=10.0, help="seconds that requests in flight get "
                   "to finish on SIGTERM or Ctrl-C")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME", help="a Host name to answer "
                   "to besides localhost (on loopback; elsewhere: any name unless this is given), e.g. behind a proxy")
    add_machine_options(p)
    add_shortlist_option(p)
    p.set_defaults(run=run)
