"""``attnmt shortlist``: a vocabulary shortlist for a model (attnmt.fast.shortlist), from a parallel
corpus or from source text and the model's own translations of it."""

from __future__ import annotations

import argparse

from attnmt.cli.options import add_model_options, file_name, model_files, positive_int
from attnmt.errors import ConfigError


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding.translate import translate
    from attnmt.fast import prepare
    from attnmt.fast.shortlist import Shortlist
    from attnmt.output_checks import check_not_an_input, check_not_stdout
    from attnmt.text.data import read_lines

    check_not_stdout(args.out, "--out", "the shortlist", "shortlist.tsv")
    check_not_an_input(args.out, "--out", {"--source": args.source, "--target": args.target, **model_files(args)},
                       "shortlist.tsv")
    sources = read_lines(args.source)
    if not any(line.strip() for line in sources):  # else the shortlist holds no piece but EOS and UNK
        raise ConfigError(f"--source {args.source} has no text: give the sentences to count the shortlist from")
    if args.target:
        targets = read_lines(args.target)
        if len(targets) != len(sources):
            raise ConfigError(f"--target {args.target} has {len(targets)} lines, --source {args.source} "
                              f"{len(sources)}: a parallel corpus has one translation per line")
        if not any(line.strip() for line in targets):
            raise ConfigError(f"--target {args.target} has no text: give the translations of --source, or leave "
                              "--target out and the model translates it")
    model, tokenizer = load_model_dir(args.model, args.weights)
    if not args.target:  # the model's own translations: the pieces it will want to write
        targets = translate(prepare(model, int8=True), tokenizer, sources)
    c = model.config
    pairs = zip(tokenizer.encode_batch(sources), tokenizer.encode_target_batch(targets), strict=True)
    shortlist = Shortlist.build(pairs, c.src_vocab_size or c.vocab_size, c.vocab_size, args.per_source,
                                args.frequent)
    shortlist.save(args.out)
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("shortlist", help="build a vocabulary shortlist for 'attnmt translate --shortlist': "
                            "the target pieces each source piece may need, from parallel text or the model's "
                            "own translations")
    add_model_options(p)
    p.add_argument("--source", required=True, type=file_name,
                   help="source-side text, a sentence per line (plain or .gz)")
    p.add_argument("--target", type=file_name,
                   help="its translations, line by line (default: the model translates --source)")
    p.add_argument("--out", required=True, help="shortlist file to write")
    p.add_argument("--per-source", type=positive_int, default=50,
                   help="target pieces kept per source piece (those co-occurring most: Dice coefficient)")
    p.add_argument("--frequent", type=positive_int, default=500,
                   help="the most frequent target pieces, always kept")
    p.set_defaults(run=run)
