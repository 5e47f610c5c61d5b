"""``attnmt translate``: lines in (a file or stdin, as they arrive), translations out, in the
formats of attnmt.cli.lines, with word alignments and confidences on request."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from attnmt.cli.document_options import DOCUMENT_FORMATS, OFFICE_FORMATS, add_document_options, input_named
from attnmt.cli.lines import FORMATS, INPUT_FORMATS
from attnmt.cli.options import (
    add_batch_size_option,
    add_decoding_options,
    add_machine_options,
    add_model_options,
    add_shortlist_option,
    batching,
    check_file_name,
    decoding,
    file_name,
    load_for_translation,
    positive_int,
    read_glossary_files,
)
from attnmt.cli.translate_quality import (
    BELOW,
    MARK,
    assessor,
    below_quality,
    below_quality_results,
    below_quality_threshold,
    copy_extras,
    copy_pairs,
    keeps_source,
    load_quality_calibration,
    marked_pairs,
    probability,
    quality_fields,
    quality_wanted,
)
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import check_target_terms, sampling_with_terms
from attnmt.errors import ConfigError
from attnmt.inspect.trace import TranslationAttention, repeated_head

if TYPE_CHECKING:  # the lines of --n-best, --alignments, --confidence: loaded where they are asked for (issue 44)
    from attnmt.documents.paragraphs import Paragraph

BATCH_SIZE_HELP = ("sentences per batch at most (0: --max-tokens decides; default: 64 where the C++ decoder step "
                   "runs, which decodes larger batches slower, fewer for a large vocabulary, else 0)")


def add_model_run_options(p: argparse.ArgumentParser, model_required: bool = True) -> None:
    """What translate and evaluate share: the model, the search, the batches, the machine."""
    add_model_options(p, required=model_required)
    add_decoding_options(p)
    add_batching_options(p)
    add_machine_options(p)
    add_shortlist_option(p)


def add_batching_options(p: argparse.ArgumentParser) -> None:
    """--max-tokens and --batch-size, the batch limits of translate and evaluate."""
    p.add_argument("--max-tokens", type=positive_int, default=MAX_TOKENS, help="padded source tokens per batch")
    add_batch_size_option(p, BATCH_SIZE_HELP)


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.cli.document_files import (
        declared_page,
        marked_text,
        piped_page,
        reads_paragraphs,
        translate_declared_page,
        translate_document_input,
        translate_marked_text,
        translate_office_file,
        uses_documents,
    )
    from attnmt.cli.document_options import (
        check_document_options,
        check_text_input,
        chosen_input_format,
        model_languages,
        office_suffix,
    )
    from attnmt.cli.lines import is_stream, output
    from attnmt.text.data import check_readable

    check_file_name(args.input, "input")
    given = args.input_format_given = args.input_format is not None
    args.input_format = chosen_input_format(args)
    args.format_from_extension = not given and args.input_format != "text"
    if not given and office_suffix(args) is None and args.input_format != "jsonl":  # a text format, by its name
        check_text_input(args.input)
    model_languages(args)
    glossary = read_glossary_files(args)  # a termbase's languages: the options given, else the model's
    check_document_options(args)  # first: a document refuses --n-best and --confidence, whatever the format
    check_keep_lines(args)
    options = decoding(args)  # --n-best's beam, or no --n-best with sampling (which would refuse the beam)
    if glossary and options.sampling:
        raise ConfigError(sampling_with_terms("--glossary", "--sampling-topk"))
    if args.confidence and args.output_format != "jsonl":
        raise ConfigError("--confidence writes a probability per output piece: add --output-format jsonl")
    args.alignment_layer = alignment_layer(args)
    if args.n_best > 1 and args.output_format == "text":
        raise ConfigError("--n-best writes several translations per input line: add --output-format tsv or jsonl")
    if args.input not in (None, "-"):
        check_readable(args.input)
    check_against_model(args, glossary)
    model, tokenizer, _ = load_for_translation(args)
    if args.target_lang:  # given, or the model's own: a model imported from Marian records none
        model.target_lang = args.target_lang  # the language its glossary terms are read in
    args.calibration = load_quality_calibration(args)
    args.min_quality = below_quality_threshold(args)
    if suffix := office_suffix(args):
        translate_office_file(args, suffix, model, tokenizer, options, glossary)
        return 0
    piped = piped_page(args)  # a page or subtitles from stdin or a pipe, read once: for their encoding and lines
    if (marked := marked_text(args, piped)) is not None:  # plain text in UTF-16: line by line, written in it
        return 1 if translate_marked_text(args, marked, model, tokenizer, options, glossary) else 0
    if (page := declared_page(args, piped)) is not None:  # in the encoding it declares or marks: read and written in it
        translate_declared_page(args, page, model, tokenizer, options, glossary)
        return 0
    from_file = args.input not in (None, "-")
    args.streamed = not from_file and is_stream(sys.stdin.buffer)
    batches = input_batches(args, piped)
    with output(args.output) as out:
        if uses_documents(args):
            failed = translate_document_input(args, model, tokenizer, options, batches, out, glossary)
            return 1 if failed else 0
        from attnmt.cli.translate_jsonl import line_batch  # JSONL's texts, read whole: loaded for them only

        translating = paragraph_batch if reads_paragraphs(args) else line_batch
        first_line, failed, where = 1, 0, args.input or "<stdin>"
        for read in batches:
            failed += translating(args, model, tokenizer, options, glossary, read, out, where, first_line)
            first_line += len(read)
    return 1 if failed else 0


def input_batches(args: argparse.Namespace, piped: bytes | None) -> Iterable[list[str]]:
    """The input's lines, in the batches they are translated in: a page from stdin or a pipe from the
    bytes read once for its declaration (attnmt.cli.document_files.piped_page), as stdin's are read;
    a file's whole; a pipe given by name whole, its start checked as stdin's is; stdin's other lines as
    they arrive (attnmt.cli.lines.line_batches)."""
    from attnmt.cli.document_files import input_name, pipe_bytes
    from attnmt.cli.formats import check_piped_text
    from attnmt.cli.lines import line_batches
    from attnmt.text.data import decode_lines, read_lines

    if piped is not None:
        return [decode_lines(piped, input_name(args))]
    if args.input in (None, "-"):
        return line_batches(sys.stdin.buffer)
    if Path(args.input).is_file():
        return [read_lines(args.input)]
    # a pipe given by name (<(cat report.pdf)), which check_text_input cannot look into without
    # reading it: read whole, as a file is, and its start checked as stdin's is
    check_piped_text(data := pipe_bytes(args.input), args.input)
    return [decode_lines(data, args.input)]


def paragraph_batch(args: argparse.Namespace, model, tokenizer, options: Decoding, glossary: Glossary | None,
                    lines: list[str], out: TextIO, where: str, first_line: int) -> int:
    """Writes the translations of plain-text lines first_line, first_line + 1, …, each split into
    sentences as the server splits a text (attnmt.documents.paragraphs: hypotheses, alignments and
    confidences joined from the sentences'); returns how many lines the model failed on (each
    named, its output empty).  Text output keeps a file's byte order mark and line endings, as
    the lines that go through attnmt.documents alone keep them (output_style: a file comes whole,
    as one batch)."""
    from attnmt.cli.document_files import output_style
    from attnmt.cli.document_options import document_options
    from attnmt.cli.lines import line_by_line, write_hypotheses, write_texts
    from attnmt.documents.paragraphs import joined_alignment, translate_texts_n_best

    translating = partial(translate_texts_n_best, model, tokenizer, decoding=options, options=document_options(args),
                          glossary=glossary, prefix=args.prefix, **batching(args),
                          quality=assessor(args) if quality_wanted(args) else None)
    bom, endings = output_style(args.input) if args.output_format == "text" else ("", None)  # read with the lines
    paragraphs, lost = line_by_line(translating, lines, where, first_line, lost=None)
    if args.output_format == "text":  # a blank line as it was (its spaces too); a failed one empty
        # the translation's own words, numbered past a mark that below_quality writes before them
        aligned = [copy_pairs(line) if p and keeps_source(args, p.hypotheses[0].assessment)
                   else marked_pairs(args, joined_alignment(p, 0, traces(model, tokenizer, p, 0), args.alignment_layer,
                                                            args.alignment_heads), p.hypotheses[0].assessment)
                   if p else []
                   for line, p in zip(lines, paragraphs, strict=True)] if args.alignments else None
        texts = [below_quality(args, line, p.hypotheses[0].text, p.hypotheses[0].assessment) if p else ""
                 for line, p in zip(lines, paragraphs, strict=True)]
        out.write(bom)
        write_texts(out, texts, aligned, endings)
        return lost
    results = [p.hypotheses if p and line.strip() else [] for p, line in zip(paragraphs, lines, strict=True)]
    assessments = [[h.assessment for h in hypotheses] for hypotheses in results]
    extras = [[{**paragraph_extras(args, model, tokenizer, p, rank), **quality_fields(a, args.output_format)}
               for rank, a in enumerate(found)]
              for p, found in zip(paragraphs, assessments, strict=True)]
    results, extras = below_quality_results(args, lines, results, extras)
    write_hypotheses(out, first_line, results, args.output_format, extras)
    return lost


def traces(model, tokenizer, paragraph: Paragraph | None, rank: int) -> list[TranslationAttention]:
    """The scoring passes of a line's sentences in its hypothesis ``rank`` (none for a failed line)."""
    from attnmt.documents.paragraphs import sentence_traces

    return sentence_traces(model, tokenizer, paragraph, rank) if paragraph else []


def paragraph_extras(args: argparse.Namespace, model, tokenizer, paragraph: Paragraph, rank: int) -> dict:
    """What --alignments and --confidence add to a split line's hypothesis ``rank`` (a copy's, where
    --below-quality source writes the line in its place: copy_extras)."""
    from attnmt.documents.paragraphs import joined_extras

    if not (args.alignments or args.confidence):
        return {}
    if keeps_source(args, paragraph.hypotheses[rank].assessment):
        return copy_extras(args, paragraph.text)
    return joined_extras(paragraph, rank, traces(model, tokenizer, paragraph, rank), args.alignments, args.confidence,
                         args.alignment_layer, args.alignment_heads)


def alignment_layer(args: argparse.Namespace) -> int:
    """--alignment-layer (-1, the last, where not given); it and --alignment-heads choose what
    --alignments reads, and are refused without it rather than left to do nothing."""
    given = [name for name, value in (("--alignment-layer", args.alignment_layer),
                                      ("--alignment-heads", args.alignment_heads)) if value is not None]
    if given and not args.alignments:
        raise ConfigError(f"{' and '.join(given)} choose{'s' * (len(given) == 1)} the attention word alignments "
                          "are read from: add --alignments")
    return -1 if args.alignment_layer is None else args.alignment_layer


def check_against_model(args: argparse.Namespace, glossary: Glossary | None) -> None:
    """The options that must fit the model, checked against its config.json (and, for --prefix and
    the glossary, its tokenizer) before its weights load: a mistake is named at once, not after
    seconds of loading, nor hidden behind a broken weights file's error.  --prefix is named here,
    before any input is read; a JSONL line's own prefix and terms are named by its line (line_batch)."""
    from attnmt.checkpoint import load_model_config, load_tokenizer
    from attnmt.decoding.term_ids import prefix_ids

    config = load_model_config(args.model)
    check_alignment_options(args, config.decoder_layers, config.n_heads)
    if not (args.prefix or glossary):  # the tokenizer is read again with the weights: only where needed
        return
    tokenizer = load_tokenizer(Path(args.model), config)
    if args.prefix:
        prefix_ids(tokenizer, args.prefix, config.unk_id, "--prefix")
    check_target_terms(tokenizer, config.unk_id, [glossary])  # its places: the file's lines


def check_keep_lines(args: argparse.Namespace) -> None:
    """--keep-lines keeps the lines of a hard-wrapped paragraph of plain text, which only plain text
    written as text has (attnmt.cli.document_files.translate_input): elsewhere it would do nothing, as
    where an option writes or guides each line alone (``per_line_options``)."""
    if not args.keep_lines:
        return
    if args.input_format != "text":
        raise ConfigError(f"--keep-lines keeps the lines of plain text's paragraphs: {input_named(args)} is read as "
                          f"{args.input_format}, so it would do nothing: leave it out")
    if given := per_line_options(args):
        raise ConfigError(f"--keep-lines keeps the lines of plain text's paragraphs: with {' and '.join(given)} each "
                          "line is translated alone already, so it would do nothing: leave it out")


def per_line_options(args: argparse.Namespace) -> list[str]:
    """The options given that have plain text translated a line at a time, a hard-wrapped paragraph's lines
    too (attnmt.cli.document_files.uses_documents: none where it goes through attnmt.documents)."""
    from attnmt.cli.document_files import uses_documents

    if uses_documents(args):
        return []
    given = [("--output-format " + args.output_format, args.output_format != "text"),
             ("--alignments", args.alignments), ("--prefix", bool(args.prefix)), ("--glossary", bool(args.glossary)),
             ("--min-quality", args.min_quality is not None)]
    return [name for name, on in given if on]


def check_alignment_options(args: argparse.Namespace, layers: int, heads: int) -> None:
    if args.alignments and not -layers <= args.alignment_layer < layers:
        raise ConfigError(f"--alignment-layer {args.alignment_layer}: the model has {layers} decoder layers "
                          f"(0 to {layers - 1}, or -1 to -{layers} from the last)")
    given = ",".join(map(str, args.alignment_heads or []))  # as the option is written (0,2), not a list ([0, 2])
    if args.alignment_heads and not all(-heads <= h < heads for h in args.alignment_heads):
        raise ConfigError(f"--alignment-heads {given}: the model has heads 0 to {heads - 1} "
                          f"(or -1 to -{heads} from the last)")
    twice = repeated_head(args.alignment_heads, heads) if args.alignment_heads else None
    if twice:
        raise ConfigError(f"--alignment-heads {given}: {twice}")


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("translate", help="translate lines of text")
    add_model_run_options(p)
    p.add_argument("input", nargs="?", help="input file, plain or .gz (default: stdin, translated as "
                   "lines arrive when it is a terminal or a pipe)")
    p.add_argument("output", nargs="?", help="output file (gzip-compressed where it ends in .gz), which appears "
                   "(or replaces the previous one) once complete (default: stdout)")
    p.add_argument("--n-best", type=positive_int, default=DEFAULT.n_best,
                   help="distinct hypotheses per input line, at most (<= --beam; with --output-format tsv or jsonl)")
    p.add_argument("--input-format", choices=(*INPUT_FORMATS, *DOCUMENT_FORMATS, *OFFICE_FORMATS),
                   help='text: a sentence or paragraph a line; jsonl: {"text": ..., "glossary": {"source term": '
                        '"target term"}, "prefix": ...} a line (glossary and prefix optional); html (a page, or a '
                        "fragment a line), xhtml (a page, written as XML), xml (a fragment a line), xliff (each "
                        "source into its empty target), srt, vtt, ass (ASS/SSA: each Dialogue's text), markdown "
                        "(code, links and layout kept), and docx, pptx, xlsx, odt, odp, ods, epub: documents, markup "
                        "carried through by word alignments (docs/documents.md). Default: the input file's "
                        "extension's (.jsonl, .html, .htm, .xhtml, .xml, .xlf, .xliff, .srt, .vtt, .webvtt, .ass, "
                        ".ssa, .md, .resx, .ts (Qt Linguist), .docx, .sdlxliff, ...; a markup file is then read whole, "
                        "as the server reads it), else text")
    p.add_argument("--glossary", metavar="FILE", type=file_name, action="append", help="terms the translations "
                   "must use: 'source term<TAB>target term' lines, # comments; a .csv file of 'source,target' rows "
                   "(DeepL's); a .json file of {\"source term\": \"target term\"}; a .tbx termbase, its terms in "
                   "--source-lang and --target-lang (docs/translating.md, Terminology); --glossary again for "
                   "another file, whose terms are added")
    p.add_argument("--prefix", help="text every translation starts with (JSONL lines may give their own)")
    p.add_argument("--output-format", choices=FORMATS, default="text",
                   help="text: the best translation a line; tsv: a row per hypothesis, its columns line, rank, "
                   "score, log_prob, translation, alignment (with --alignments), quality, flags; jsonl: an object "
                   "per input line, each hypothesis with those fields, calibrated, and confidence with "
                   "--confidence. See docs/translating.md, Output formats")
    p.add_argument("--alignments", action="store_true", help="word alignments from cross-attention, "
                   "Pharaoh pairs (source word-target word): 'translation ||| 0-0 1-1' in text format")
    p.add_argument("--alignment-layer", type=int,
                   help="with --alignments: the decoder layer whose cross-attention aligns (default -1, the last)")
    p.add_argument("--alignment-heads", type=heads_list, help="with --alignments: the heads of that layer to "
                   "average, e.g. 0,2; -1 is the last, and a list starting with a minus takes an '=': "
                   "--alignment-heads=-2,-1 (default: all)")
    p.add_argument("--confidence", action="store_true", help="each output piece's probability "
                   "(with --output-format jsonl)")
    p.add_argument("--min-quality", type=probability, metavar="Q",
                   help="the quality (0 to 1) under which a translation needs review: it gets the low_quality flag "
                        "and --below-quality applies (docs/translating.md, Quality)")
    p.add_argument("--below-quality", choices=BELOW, default="keep",
                   help=f"under --min-quality (else the threshold of the low_quality flag: the calibration's, 0.5 "
                        f"without one): keep the translation, mark it ('{MARK.strip()}' before it, in text output), "
                        "or write the source text instead: in text output, of each sentence under it (with "
                        "--alignments or --prefix, and in tsv and jsonl, of the whole line)")
    add_document_options(p)
    p.add_argument("--keep-lines", action="store_true", help="translate each line of a plain text file alone, a "
                   "hard-wrapped paragraph's too (default: a paragraph wrapped at a width, an e-mail's or a book's, "
                   "is translated whole and filled again to its width; docs/documents.md, Plain text)")
    p.set_defaults(run=run)


def heads_list(text: str) -> list[int]:
    """An argparse type: comma-separated head numbers, e.g. 0,2; a negative one counts from the
    last (-1), as ``align``'s heads and --alignment-layer count.  The model's count is checked
    once it is loaded (``check_alignment_options``)."""
    try:
        return [int(head) for head in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected head numbers separated by commas, e.g. 0,2 (-1: the last), "
                                         f"got {text!r}") from None
