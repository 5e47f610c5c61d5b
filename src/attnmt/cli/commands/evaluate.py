"""``attnmt evaluate``: sacreBLEU's BLEU, chrF and TER of a model's translations of --src, or of
an existing --hyp file (any of translate's output formats: attnmt.cli.hypotheses), against one
--ref or more."""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING

from attnmt.cli.commands.translate import add_model_run_options
from attnmt.cli.lines import print_out
from attnmt.cli.options import (
    batching,
    check_not_given,
    decoding,
    file_name,
    load_for_translation,
    option_dests,
    whole_number,
)
from attnmt.errors import ConfigError, DataError

if TYPE_CHECKING:
    from attnmt.decoding import Decoding
    from attnmt.inspect.trace import PieceCodec
    from attnmt.model import Transformer


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.cli.hypotheses import best_translations, check_one_stdin, read_input, shown, with_blank_lines_at_end
    from attnmt.cli.translate_quality import unmarked
    from attnmt.evaluate import SACREBLEU_WIDTH, TEXT_WIDTH, score

    if args.hyp and (args.model or args.src):
        raise ConfigError("give either --hyp (score that file) or --model and --src (translate, then score)")
    if not (args.hyp or (args.model and args.src)):
        raise ConfigError("nothing to score: give --model and --src to translate, or --hyp with translations")
    if args.hyp:
        check_no_model_options(args)
    check_one_stdin([("--hyp", args.hyp), ("--src", args.src), *(("--ref", ref) for ref in args.ref)])
    references = [read_input(ref) for ref in args.ref]
    lines = read_input(args.hyp or args.src)
    if args.hyp:
        hypotheses, form = best_translations(shown(args.hyp), lines)
        hypotheses = unmarked(hypotheses, form)  # translate --below-quality mark's mark is no word
        if form == "tsv":
            hypotheses = with_blank_lines_at_end(hypotheses, references)
        check_line_counts(args.hyp, len(hypotheses), args.ref, references, tsv=form == "tsv")
    else:
        check_line_counts(args.src, len(lines), args.ref, references)  # before the model is loaded
        model, tokenizer, _ = load_for_translation(args)
        hypotheses = translated_whole(model, tokenizer, lines, decoding(args), batching(args))
    width = args.width
    if width is None:  # each format's own: the JSON's is sacreBLEU's command's, which it copies
        width = SACREBLEU_WIDTH if args.json else TEXT_WIDTH
    scores = score(hypotheses, *references, width=width)
    print_out(scores.json_text() if args.json else scores.text(width))
    return 0


def translated_whole(model: Transformer, tokenizer: PieceCodec, lines: list[str], decoding: Decoding,
                     batches: dict) -> list[str]:
    """Each line translated whole, as one sentence (``translate``), but for a line longer than the
    model reads whole (its ``longest_part``: the longest source it was trained on, lengths.json), which
    is parted first as ``attnmt translate --no-split`` parts it (attnmt.documents.sentences.fitting_parts):
    read whole, a 138-word line got 28 words from the Multi30k demo model, where translate wrote 129.
    A line that translate passes through as it is (no letter, or one: ``letterless.reaches_model``)
    passes through here too: the model wrote "S" for "12345"."""
    from attnmt.decoding.inputs import fits_and_writes
    from attnmt.decoding.translate import translate
    from attnmt.documents import translate_text
    from attnmt.documents.letterless import reaches_model
    from attnmt.documents.pipeline import DocumentOptions
    from attnmt.text.invisible import blank

    fits = fits_and_writes(model, tokenizer).fits
    long = [i for i, line in enumerate(lines) if not blank(line) and not (reaches_model(line) and fits(line))]
    apart = set(long)
    hypotheses = translate(model, tokenizer, ["" if i in apart else line for i, line in enumerate(lines)], decoding,
                           **batches)
    parted = translate_text(model, tokenizer, [lines[i] for i in long], decoding, DocumentOptions(split=False))
    for i, translation in zip(long, parted, strict=True):
        hypotheses[i] = translation
    return hypotheses


def check_no_model_options(args: argparse.Namespace) -> None:
    """--hyp scores translations already made: an option that chooses the model, its search, its
    batches or its machine would do nothing, and is refused where given rather than silently ignored."""
    dests = [dest for dest in option_dests(partial(add_model_run_options, model_required=False))
             if dest not in ("model", "verbose")]
    check_not_given(args, dests, "--hyp scores translations already made",
                    "the model and how it translates --src")


def check_line_counts(path: str, count: int, refs: list[str], references: list[list[str]],
                      tsv: bool = False) -> None:
    """One line of each reference file for each line of ``path``, and at least one (a TSV file
    has a line's rows, but none for a blank line: its count is its last row's line, or that of the
    references where they end in blank lines, with_blank_lines_at_end)."""
    from attnmt.cli.hypotheses import check_line_count, shown

    for ref, lines in zip(refs, references, strict=True):
        check_line_count(path, count, ref, len(lines), "evaluate needs exactly one reference line per line", tsv)
    if not count:
        raise DataError(f"{shown(path)} and {shown(refs[0])} are empty: nothing to score")


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("evaluate", help="score translations with sacreBLEU (BLEU, chrF, TER): "
                            "a model's of --src, or an existing --hyp file")
    add_model_run_options(p, model_required=False)
    p.add_argument("--src", type=file_name, help="source file to translate with --model (plain or .gz; - for stdin)")
    p.add_argument("--hyp", type=file_name,
                   help="translations to score as they are, instead of --model and --src (- for stdin): "
                   "attnmt translate's output, text (with --alignments too), tsv (each line's rank 1) or jsonl "
                   "(each line's best hypothesis)")
    p.add_argument("--ref", required=True, action="append", type=file_name,
                   help="reference translations, line by line (- for stdin); --ref again for another reference of "
                   "the same lines (sacreBLEU's nrefs)")
    p.add_argument("--json", action="store_true", help="print JSON as 'sacrebleu -f json' does")
    p.add_argument("--width", type=whole_number(0), metavar="N", help="decimals of each score, as sacrebleu's -w "
                   "(default: 1 with --json, as sacrebleu prints them; 2 otherwise)")
    p.set_defaults(run=run)
