"""``attnmt translate`` and ``attnmt evaluate``: the fast copy of a model, the options they share,
lines in and out (attnmt.app.lines), and scores (attnmt.evaluate)."""

from __future__ import annotations

import argparse
import json
import sys

from attnmt.app.lines import FORMATS
from attnmt.errors import ConfigError

DEVICES = ("cpu", "cuda", "mps")
INT8_HELP = "int8 linear layers (dynamic quantisation): faster on CPU, BLEU within ~0.5"
BF16_HELP = ("bf16 linear layers on CPU: fastest where the CPU has AVX512-BF16 or AMX (slow elsewhere), "
             "BLEU within ~0.5")


def whole_number(least: int):
    """An argparse type: a whole number >= least."""

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {least}, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        return value

    return check


positive_int = whole_number(1)  # a beam of 0 has no hypothesis to keep


def load_for_translation(args: argparse.Namespace):
    """The model of --model/--weights on --device with --threads, as the fast copy (int8 linear
    layers with --int8, bf16 ones with --bf16), and its tokenizer."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.fast import prepare
    from attnmt.fast.prepared import load_int8

    if args.threads > 0:
        torch_threads(args.threads)
    if args.int8 and args.device == "cpu":  # prepared once, then memory-mapped (attnmt.fast.prepared)
        fast, tokenizer = load_int8(args.model, args.weights)
    else:
        model, tokenizer = load_model_dir(args.model, args.weights)
        fast = prepare(model.to(args.device), int8=args.int8, bf16=args.bf16)
    if args.shortlist:
        from attnmt.fast.shortlist import Shortlist, use_shortlist

        use_shortlist(fast, Shortlist.load(args.shortlist))
    return fast, tokenizer


def torch_threads(count: int) -> None:
    import torch

    torch.set_num_threads(count)


def decoding(args: argparse.Namespace) -> dict:
    """The search settings that translate and evaluate share, as keyword arguments."""
    return dict(beam_size=args.beam, alpha=args.alpha, max_len_a=args.max_len_a, max_len_b=args.max_len_b,
                max_tokens=args.max_tokens, max_sentences=args.batch_size)


def cmd_translate(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.app.lines import line_batches, write_hypotheses, write_texts
    from attnmt.data import read_lines
    from attnmt.inspect.align import align
    from attnmt.translate import translate, translate_n_best

    if args.n_best > args.beam:
        raise ConfigError(f"--n-best {args.n_best} needs --beam {args.n_best} or more (got --beam {args.beam})")
    if args.confidence and args.output_format != "jsonl":
        raise ConfigError("--confidence writes a probability per output piece: add --output-format jsonl")
    if args.n_best > 1 and args.output_format == "text":
        raise ConfigError("--n-best writes several translations per input line: add --output-format tsv or jsonl")
    model, tokenizer = load_for_translation(args)
    layers = model.config.decoder_layers
    if args.alignments and not -layers <= args.alignment_layer < layers:
        raise ConfigError(f"--alignment-layer {args.alignment_layer}: the model has {layers} decoder layers "
                          f"(0 to {layers - 1}, or -1 to -{layers} from the last)")
    heads = model.config.n_heads
    if args.alignment_heads and not all(0 <= h < heads for h in args.alignment_heads):
        raise ConfigError(f"--alignment-heads {args.alignment_heads}: the model has heads 0 to {heads - 1}")
    from_file = args.input not in (None, "-")
    batches = [read_lines(args.input)] if from_file else line_batches(sys.stdin.buffer)
    out = open(args.output, "w", encoding="utf-8") if args.output not in (None, "-") else sys.stdout
    try:
        first_line = 1
        for lines in batches:
            if args.output_format == "text":
                texts = translate(model, tokenizer, lines, **decoding(args))
                aligned = (align(model, tokenizer, lines, texts, args.alignment_layer, args.alignment_heads)
                           if args.alignments else None)
                write_texts(out, texts, aligned)
            else:
                results = translate_n_best(model, tokenizer, lines, args.n_best, **decoding(args))
                extras = [[hypothesis_extras(args, model, tokenizer, source, h.text) for h in hypotheses]
                          for source, hypotheses in zip(lines, results, strict=True)]
                write_hypotheses(out, first_line, results, args.output_format, extras)
            first_line += len(lines)
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def hypothesis_extras(args: argparse.Namespace, model, tokenizer, source: str, translation: str) -> dict:
    """What --alignments and --confidence add to one hypothesis of ``translate``."""
    from attnmt.inspect.align import align_one, pharaoh
    from attnmt.translate import token_confidence

    extras = {}
    if args.alignments:
        extras["alignment"] = pharaoh(align_one(model, tokenizer, source, translation, args.alignment_layer,
                                                 args.alignment_heads))
    if args.confidence:
        extras["confidence"] = [[piece, round(p, 4)] for piece, p in token_confidence(model, tokenizer, source,
                                                                                      translation)]
    return extras


def cmd_evaluate(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.data import read_lines
    from attnmt.evaluate import score
    from attnmt.translate import translate

    if args.hyp:
        if args.model or args.src:
            raise ConfigError("give either --hyp (score that file) or --model and --src (translate, then score)")
        hypotheses = read_lines(args.hyp)
    elif args.model and args.src:
        model, tokenizer = load_for_translation(args)
        hypotheses = translate(model, tokenizer, read_lines(args.src), **decoding(args))
    else:
        raise ConfigError("nothing to score: give --model and --src to translate, or --hyp with translations")
    scores = score(hypotheses, read_lines(args.ref))
    print(json.dumps(scores.sacrebleu_json, indent=1, ensure_ascii=False) if args.json else scores)
    return 0


def add_decoding_options(p: argparse.ArgumentParser) -> None:
    """The search, batching and machine options of translate and evaluate."""
    p.add_argument("--beam", type=positive_int, default=4, help="beam size (1 = greedy)")
    p.add_argument("--alpha", type=float, default=0.6, help="length penalty α")
    p.add_argument("--max-len-a", type=float, default=1.5, help="at most a·source length + b output tokens")
    p.add_argument("--max-len-b", type=whole_number(0), default=10, help="see --max-len-a")
    p.add_argument("--max-tokens", type=positive_int, default=4096, help="padded source tokens per batch")
    p.add_argument("--batch-size", type=whole_number(0), default=None,
                   help="sentences per batch at most (0: --max-tokens decides; default: 64 where the C++ "
                        "decoder step runs, which decodes larger batches slower, else 0)")
    p.add_argument("--device", choices=DEVICES, default="cpu")
    p.add_argument("--threads", type=int, default=0, help="PyTorch CPU threads (0: its default)")
    precision = p.add_mutually_exclusive_group()
    precision.add_argument("--int8", action="store_true", help=INT8_HELP)
    precision.add_argument("--bf16", action="store_true", help=BF16_HELP)
    p.add_argument("--shortlist", metavar="FILE", help="compute the output layer only for the target pieces this "
                   "vocabulary shortlist allows each batch (written by 'attnmt shortlist')")


def add_translation_commands(commands: argparse._SubParsersAction) -> None:
    for name, run, doc in (("translate", cmd_translate, "translate lines of text"),
                           ("evaluate", cmd_evaluate, "score translations with sacreBLEU (BLEU, chrF, TER): "
                            "a model's of --src, or an existing --hyp file")):
        p = commands.add_parser(name, help=doc)
        p.add_argument("--model", required=name == "translate", help="model directory written by 'attnmt train'")
        p.add_argument("--weights", help="another weights file (e.g. averaged.safetensors)")
        add_decoding_options(p)
        p.set_defaults(run=run)
        if name == "translate":
            p.add_argument("input", nargs="?", help="input file, plain or .gz (default: stdin, translated as "
                           "lines arrive when it is a terminal or a pipe)")
            p.add_argument("output", nargs="?", help="output file (default: stdout)")
            p.add_argument("--n-best", type=positive_int, default=1, help="hypotheses per input line (<= --beam; "
                           "with --output-format tsv or jsonl)")
            p.add_argument("--output-format", choices=FORMATS, default="text",
                           help="text: the best translation a line; tsv: line, rank, score, log-prob, translation "
                           "per hypothesis; jsonl: one object per input line (docs: attnmt.app.lines)")
            p.add_argument("--alignments", action="store_true", help="word alignments from cross-attention, "
                           "Pharaoh pairs (source word-target word): 'translation ||| 0-0 1-1' in text format")
            p.add_argument("--alignment-layer", type=int, default=-1,
                           help="decoder layer whose cross-attention aligns (default -1, the last)")
            p.add_argument("--alignment-heads", type=lambda text: [int(h) for h in text.split(",")],
                           help="heads of that layer to average, e.g. 0,2 (default: all)")
            p.add_argument("--confidence", action="store_true", help="each output piece's probability "
                           "(with --output-format jsonl)")
        else:
            p.add_argument("--src", help="source file to translate with --model (plain or .gz)")
            p.add_argument("--hyp", help="translations to score as they are, instead of --model and --src")
            p.add_argument("--ref", required=True, help="reference translations, line by line")
            p.add_argument("--json", action="store_true", help="print JSON as 'sacrebleu -f json' does")
