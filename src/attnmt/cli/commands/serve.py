"""``attnmt serve``: LibreTranslate's API, attnmt's API and the web page of attnmt.server.app over
one or more loaded models, one per language pair."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from attnmt.cli.options import (
    add_batch_size_option,
    add_machine_options,
    add_shortlist_option,
    file_name,
    finite_number,
    load_for_translation,
    positive_int,
    whole_number,
)


def load_served(pair: str | None, folder: str, args: argparse.Namespace):
    """The ServedModel of one --model: its inference copy, named by its pair (given, or from its
    training files' names) or else its folder's name, and the resident memory its loading added; the
    pair's target is the language its glossary terms are read in (Transformer.target_lang)."""
    from attnmt.decoding.calibration import load_calibration
    from attnmt.model_languages import languages_from_training
    from attnmt.server.models import ServedModel, resident_bytes

    calibration = load_calibration(Path(folder), args.weights)  # one of other weights: refused before any loading
    before = resident_bytes()
    model, tokenizer, parameters = load_for_translation(argparse.Namespace(**{**vars(args), "model": folder}))
    source, target = pair.split("-") if pair else languages_from_training(Path(folder))
    model.target_lang = target
    name = pair or (f"{source}-{target}" if source else Path(folder).resolve().name)
    return ServedModel(model, tokenizer, name, source, target, parameters, max(0, resident_bytes() - before) or None,
                       calibration)


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.errors import ConfigError
    from attnmt.server.access import Access, MetricsAccess, read_api_keys, read_metrics_key
    from attnmt.server.app import ServeSettings, serve
    from attnmt.server.models import split_model_argument

    if args.max_batch is not None and args.batch_size is not None:  # the old name quietly won
        raise ConfigError(f"--max-batch is the old name of --batch-size: give --batch-size {args.batch_size} alone")
    if args.max_batch is not None:
        print(f"attnmt: note: --max-batch is now --batch-size {args.max_batch}; the old name goes in the next release",
              file=sys.stderr)
    models = [split_model_argument(argument) for argument in args.model]
    for option, value in (("--weights", args.weights), ("--shortlist", args.shortlist)):
        if value and len(models) > 1:
            raise ConfigError(f"{option} belongs to one model: give it with a single --model")
    batch = next((size for size in (args.batch_size, args.max_batch) if size is not None), ServeSettings.max_batch)
    settings = ServeSettings(max_batch=batch, batch_window_ms=args.batch_window_ms, max_request_chars=args.char_limit,
                             header_timeout_s=args.header_timeout, body_timeout_s=args.body_timeout,
                             shutdown_timeout_s=args.shutdown_timeout, quality=args.quality,
                             allow_macros=args.allow_macros, **file_limits(args))
    access = Access(read_api_keys(args.api_keys) if args.api_keys else None, args.req_limit)
    metrics_access = MetricsAccess(args.metrics_access == "loopback",
                                   read_metrics_key(args.metrics_key_file) if args.metrics_key_file else None)
    served = [load_served(pair, folder, args) for pair, folder in models]
    serve(served, args.host, args.port, settings, access, args.cors_origins, args.log_text, args.allowed_host,
          metrics_access)
    return 0


SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")


def web_origins(text: str) -> list[str]:
    """An argparse type: --cors-origins' comma-separated origins, each stripped (``"a, b"``) and
    written as a browser's ``Origin`` header writes them: lower-cased, without the scheme's
    default port (attnmt.server.access.serialised_origin).  Only an exact match lets a page in,
    so an item that is no bare origin (``is_web_origin``) would never match: it is refused, named."""
    from attnmt.server.access import serialised_origin

    origins = [item for item in (part.strip() for part in text.split(",")) if item]
    for item in origins:
        if not is_web_origin(item):
            raise argparse.ArgumentTypeError(f"{item!r} is not a web origin: give scheme://host[:port] as a "
                                             "browser sends it, without a path, e.g. https://app.example.org")
    return [serialised_origin(item) for item in origins]


def is_web_origin(item: str) -> bool:
    """Whether ``item`` is ``scheme://host[:port]`` alone: no path (not even "/"), query, user or
    port that is no number from 0 to 65535; or ``null``, the origin a browser sends for a page
    opened from a file or a sandboxed frame.  Scheme and host in any case (urlsplit lower-cases
    the scheme alone, so ``HTTP://LOCALHOST:3000`` is compared lower-cased): they match so."""
    if item.lower() == "null":
        return True
    parts = urlsplit(item)
    try:
        parts.port  # noqa: B018 - read for its ValueError
    except ValueError:
        return False
    return bool(SCHEME.fullmatch(parts.scheme) and parts.hostname and "@" not in parts.netloc
                and item.lower() == f"{parts.scheme}://{parts.netloc}".lower())


def file_limits(args: argparse.Namespace) -> dict:
    """The file limits given on the command line, as ServeSettings fields (the others keep its defaults)."""
    given = {"max_file_bytes": args.max_file_bytes, "max_file_jobs": args.file_jobs, "file_ttl_s": args.file_ttl}
    return {key: value for key, value in given.items() if value is not None}


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("serve", help="serve models: LibreTranslate's API, attnmt's API and a web page "
                                          "with attention (attnmt[serve])")
    p.add_argument("--model", required=True, action="append", metavar="[SRC-TGT=]MODEL_DIR",
                   help="model directory written by 'attnmt train', with its language pair for LibreTranslate's "
                        "clients (en-de=runs/en_de); repeat for several models, one per pair")
    p.add_argument("--weights", type=file_name, help="another weights file (e.g. averaged.safetensors; one --model "
                   "only)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=whole_number(0, 65535), default=8000,
                   help="TCP port to listen on, 0 to 65535 (default 8000)")
    add_batch_size_option(p, "texts translated together (1: one at a time)", least=1)
    p.add_argument("--max-batch", type=positive_int, help=argparse.SUPPRESS)  # the name of --batch-size until 0.1
    p.add_argument("--batch-window-ms", type=finite_number(0), default=5.0,
                   help="how long a lone request waits for company")
    p.add_argument("--header-timeout", type=finite_number(1), default=10.0,
                   help="seconds a connection may stay silent (opened, or answered) before it is closed")
    p.add_argument("--body-timeout", type=finite_number(1), default=30.0,
                   help="seconds a request body may take to arrive after its headers (then 408)")
    p.add_argument("--shutdown-timeout", type=finite_number(1), default=10.0,
                   help="seconds that requests in flight get to finish on SIGTERM or Ctrl-C")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME", help="a Host name to answer "
                   "to besides localhost (on loopback; elsewhere: any name unless this is given), e.g. behind a proxy")
    p.add_argument("--api-keys", metavar="FILE", type=file_name,
                   help="require an API key: one a line, optionally followed by "
                   "its requests per minute, char-limit=N (its characters per request, in place of --char-limit) "
                   "and chars-per-minute=N")
    p.add_argument("--req-limit", type=positive_int, help="requests per minute per client address (default: none)")
    p.add_argument("--char-limit", type=positive_int, default=20_000,
                   help="characters per request, all its texts together")
    p.add_argument("--max-file-bytes", type=positive_int, help="largest file translated (POST /translate_file, "
                   "/v1/files, the page; default 10 MiB)")
    p.add_argument("--file-jobs", type=positive_int, help="files translated at once (default 2; one more is refused "
                   "with 503 until one is done; LibreTranslate's and DeepL's file routes wait, as many at most)")
    p.add_argument("--file-ttl", type=finite_number(1),
                   help="seconds a translated file is kept for download (default 3600)")
    p.add_argument("--allow-macros", action="store_true", help="translate office files with macros (.docm, .pptm, "
                   ".xlsm, or any holding vbaProject.bin), keeping their macros (refused otherwise, and not listed "
                   "in /frontend/settings)")
    p.add_argument("--cors-origins", type=web_origins, default=[], help="comma-separated web origins whose pages "
                   "may call the API, each scheme://host[:port] (default: none)")
    p.add_argument("--metrics-access", choices=("open", "loopback"), default="open",
                   help="who may read GET /metrics: anyone who reaches the server (default, as Prometheus "
                        "expects) or only clients on this machine")
    p.add_argument("--metrics-key-file", metavar="FILE", type=file_name,
                   help="GET /metrics also needs the key in FILE: "
                   "Authorization: Bearer KEY (Prometheus: authorization: {credentials_file: FILE})")
    p.add_argument("--quality", action="store_true", help="LibreTranslate's /translate and the stream's end also "
                   "carry each translation's quality, flags and calibrated (one more pass of the model per text; "
                   "/v1/translate asks per request with return_quality)")
    p.add_argument("--log-text", action="store_true", help="the access log also holds each request's texts")
    add_machine_options(p)
    add_shortlist_option(p)
    p.set_defaults(run=run)
