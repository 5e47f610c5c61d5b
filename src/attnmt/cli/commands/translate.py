"""``attnmt translate``: lines in (a file or stdin, as they arrive), translations out, in the
formats of attnmt.cli.lines, with word alignments and confidences on request."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from functools import partial
from typing import TextIO

from attnmt.cli.document_options import DOCUMENT_FORMATS, OFFICE_FORMATS, add_document_options
from attnmt.cli.lines import FORMATS, INPUT_FORMATS, Inputs
from attnmt.cli.options import (
    add_batch_size_option,
    add_decoding_options,
    add_machine_options,
    add_model_options,
    add_shortlist_option,
    decoding,
    load_for_translation,
    positive_int,
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
    probability,
    quality_fields,
    quality_wanted,
)
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import Translation
from attnmt.documents.paragraphs import Paragraph
from attnmt.errors import ConfigError
from attnmt.inspect.trace import TranslationAttention

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


def batching(args: argparse.Namespace) -> dict:
    """The batch limits of --max-tokens and --batch-size, as keyword arguments of attnmt.decoding.translate."""
    return dict(max_tokens=args.max_tokens, max_sentences=args.batch_size)


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.cli.document_files import (
        reads_paragraphs,
        translate_document_input,
        translate_office_file,
        uses_documents,
    )
    from attnmt.cli.document_options import check_document_options, check_text_input, chosen_input_format, office_suffix
    from attnmt.cli.lines import is_stream, line_batches, output
    from attnmt.decoding.constraints import prefix_ids
    from attnmt.decoding.glossary import read_glossary
    from attnmt.text.data import read_lines

    given = args.input_format is not None
    args.input_format = chosen_input_format(args)
    args.format_from_extension = not given and (args.input_format != "text" or office_suffix(args) is not None)
    if not given and not args.format_from_extension:
        check_text_input(args.input)
    glossary = read_glossary(args.glossary) if args.glossary else None
    if args.n_best > args.beam:
        raise ConfigError(f"--n-best {args.n_best} needs --beam {args.n_best} or more (got --beam {args.beam})")
    options = decoding(args)
    if args.confidence and args.output_format != "jsonl":
        raise ConfigError("--confidence writes a probability per output piece: add --output-format jsonl")
    args.alignment_layer = alignment_layer(args)
    if args.n_best > 1 and args.output_format == "text":
        raise ConfigError("--n-best writes several translations per input line: add --output-format tsv or jsonl")
    check_document_options(args)
    model, tokenizer, _ = load_for_translation(args)
    args.calibration = load_quality_calibration(args)
    args.min_quality = below_quality_threshold(args)
    check_alignment_options(args, model.config.decoder_layers, model.config.n_heads)
    if args.prefix:  # named here; a JSONL line's own is named by its line (line_batch)
        prefix_ids(tokenizer, args.prefix, model.config.unk_id, "--prefix")
    if suffix := office_suffix(args):
        translate_office_file(args, suffix, model, tokenizer, options, glossary)
        return 0
    from_file = args.input not in (None, "-")
    args.streamed = not from_file and is_stream(sys.stdin.buffer)
    batches = [read_lines(args.input)] if from_file else line_batches(sys.stdin.buffer)
    with output(args.output) as out:
        if uses_documents(args):
            failed = translate_document_input(args, model, tokenizer, options, batches, out, glossary)
            return 1 if failed else 0
        translating = paragraph_batch if reads_paragraphs(args) else line_batch
        first_line, failed, where = 1, 0, args.input or "<stdin>"
        for read in batches:
            failed += translating(args, model, tokenizer, options, glossary, read, out, where, first_line)
            first_line += len(read)
    return 1 if failed else 0


def line_batch(args: argparse.Namespace, model, tokenizer, options: Decoding, glossary: Glossary | None,
               read: list[str], out: TextIO, where: str, first_line: int) -> int:
    """Writes the translations of JSONL input lines first_line, first_line + 1, …, each line's text
    one sentence, with its own glossary and prefix; returns how many lines the model failed on.
    A text without letters passes through as a text line's does (``passed_through``).  A malformed
    line stops the run, named (DataError): from a stream, after the lines before it are translated
    and written (attnmt.cli.lines.good_inputs_first); from a file, before any is."""
    from attnmt.cli.lines import good_inputs_first

    inputs, malformed = good_inputs_first(partial(checked_inputs, args, model, tokenizer, glossary, where), read,
                                          first_line)
    if malformed is not None and not args.streamed:
        raise malformed
    lost = translate_inputs(args, model, tokenizer, options, inputs, out, where, first_line)
    if malformed is not None:
        raise malformed
    return lost


def checked_inputs(args: argparse.Namespace, model, tokenizer, glossary: Glossary | None, where: str,
                   lines: list[str], first_line: int) -> Inputs:
    """JSONL lines first_line, first_line + 1, … as Inputs (attnmt.cli.lines.read_inputs), each
    line's own prefix checked: one the model cannot write is a DataError naming its line."""
    from attnmt.cli.lines import read_inputs
    from attnmt.decoding.constraints import prefix_ids

    inputs = read_inputs(lines, where, first_line, glossary, args.prefix)
    for number, prefix in enumerate(inputs.prefixes, start=first_line):
        if prefix and prefix != args.prefix:  # a JSONL line's own
            prefix_ids(tokenizer, prefix, model.config.unk_id, f'{where}:{number}: "prefix"')
    return inputs


def translate_inputs(args: argparse.Namespace, model, tokenizer, options: Decoding, inputs: Inputs, out: TextIO,
                     where: str, first_line: int) -> int:
    """line_batch's translations of ``inputs``, written; how many lines the model failed on.  The
    model reads each line without the bidirectional controls at its edges, which come back around
    its translation (``written``), as they do around a sentence of a text line."""
    from attnmt.cli.lines import ANY_LINE_BREAK, kept, write_hypotheses, write_texts
    from attnmt.decoding.translate import translate, translate_n_best
    from attnmt.documents.bidi import whole
    from attnmt.documents.flat import has_words
    from attnmt.documents.letterless import with_terms

    lines, guides = inputs.texts, dict(glossary=inputs.glossaries, prefix=inputs.prefixes)
    # blank: the model never sees it
    sentences = [line[slice(*whole(line))] if has_words(line) else "" for line in lines]
    # a line without letters passes through, its glossary's terms replaced (``2012`` -> ``zweitausendzwölf``)
    letterless = [with_terms(line, glossary) for line, glossary in zip(lines, inputs.glossaries, strict=True)]
    if not quality_wanted(args):
        found, lost = kept(partial(translate, model, tokenizer, sentences, options, **batching(args), **guides),
                           where, first_line)
        bare = [text if sentence else copy for copy, sentence, text in zip(letterless, sentences, found, strict=True)]
        texts = [written(*each) for each in zip(lines, sentences, bare, strict=True)]
        write_texts(out, texts, aligned_lines(args, model, tokenizer, lines, sentences, bare, texts),
                    breaks=ANY_LINE_BREAK)
        return lost
    searched, lost = kept(partial(translate_n_best, model, tokenizer, sentences, options, **batching(args),
                                  **guides, quality=assessor(args)), where, first_line)
    results = passed_through(args, model, tokenizer, lines, sentences, searched, letterless)
    assessments = [[h.assessment for h in hypotheses] for hypotheses in results]
    if args.output_format == "text":
        # no hypothesis: a blank line, as it was, or one the model failed on, empty
        bare = [below_quality(args, s, hs[0].text, found[0]) if hs else s if not s.strip() else ""
                for s, hs, found in zip(lines, results, assessments, strict=True)]
        texts = [below_quality(args, s, written(s, sentence, hs[0].text), found[0]) if hs else text
                 for s, sentence, hs, found, text in zip(lines, sentences, results, assessments, bare, strict=True)]
        copied = [bool(hs) and keeps_source(args, hs[0].assessment) for hs in results]
        write_texts(out, texts, aligned_lines(args, model, tokenizer, lines, sentences, bare, texts, copied),
                    breaks=ANY_LINE_BREAK)
    else:
        extras = [[{**(copy_extras(args, line) if keeps_source(args, a)
                       else hypothesis_extras(args, model, tokenizer, line, source, h.text)),
                    **quality_fields(a, args.output_format)} for h, a in zip(hypotheses, found, strict=True)]
                  for line, source, hypotheses, found in zip(lines, sentences, results, assessments, strict=True)]
        results = [[replace(h, text=written(line, source, h.text)) for h in hypotheses]
                   for line, source, hypotheses in zip(lines, sentences, results, strict=True)]
        results, extras = below_quality_results(args, lines, results, extras)
        write_hypotheses(out, first_line, results, args.output_format, extras)
    return lost


def written(line: str, sentence: str, translation: str) -> str:
    """What is written for the ``translation`` of a JSONL line read as ``sentence``: between the
    bidirectional controls at the line's edges, which the model did not read
    (attnmt.documents.bidi.rewrapped); a line passed through (no ``sentence``) and the empty
    translation of a line the model failed on, as they are."""
    from attnmt.documents.bidi import rewrapped

    return rewrapped(line, translation) if sentence and translation else translation


def passed_through(args: argparse.Namespace, model, tokenizer, lines: list[str], sentences: list[str],
                   searched: list[list[Translation]], letterless: list[str]) -> list[list[Translation]]:
    """``searched``, the hypotheses of ``sentences``, with each line that has no letter but is not
    blank (``123``, ``!!!``) in its place as it passes through, as plain text passes it through
    (attnmt.documents.paragraphs.paragraph): one hypothesis, ``letterless`` (the line, its
    glossary's terms replaced: letterless.with_terms), score 0, and the assessment ``attnmt score``
    gives the line and itself (quality 1, no flags: quality.passes_through), its terms or not."""
    copied = [k for k, (line, sentence) in enumerate(zip(lines, sentences, strict=True))
              if line.strip() and not sentence]
    found = assessor(args).assess(model, tokenizer, [lines[k] for k in copied], [lines[k] for k in copied])
    results = list(searched)
    for k, a in zip(copied, found, strict=True):
        results[k] = [Translation(letterless[k], 0, 0, a)]  # scores as a text line's: the sum of no sentence's
    return results


def aligned_lines(args: argparse.Namespace, model, tokenizer, lines: list[str], sentences: list[str], bare: list[str],
                  texts: list[str], copied: list[bool] | None = None) -> list | None:
    """--alignments of each line and its translation in text output (None without): of the
    ``sentences`` the model read and their translations as written without the controls at the
    line's edges (``bare``), numbering the words of the line and of what ``texts`` write
    (attnmt.documents.paragraphs.text_pairs, which reads past the controls); a line ``copied``
    (--below-quality source wrote it as its translation) is aligned word for word (copy_pairs),
    not by the model's attention over its copy."""
    from attnmt.documents.paragraphs import text_pairs
    from attnmt.inspect.align import align_batched

    if not args.alignments:
        return None
    copied = copied or [False] * len(lines)
    # blank: not aligned
    sources = [sentence if not copy else "" for sentence, copy in zip(sentences, copied, strict=True)]
    found = align_batched(model, tokenizer, sources, bare, args.alignment_layer, args.alignment_heads, args.max_tokens)
    return [copy_pairs(text) if copy else text_pairs([pairs], [source], [translation], line, text)
            for line, source, translation, text, pairs, copy
            in zip(lines, sources, bare, texts, found, copied, strict=True)]


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
        aligned = [copy_pairs(line) if p and keeps_source(args, p.hypotheses[0].assessment)
                   else joined_alignment(p, 0, traces(model, tokenizer, p, 0), args.alignment_layer,
                                         args.alignment_heads) if p else []
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


def check_alignment_options(args: argparse.Namespace, layers: int, heads: int) -> None:
    if args.alignments and not -layers <= args.alignment_layer < layers:
        raise ConfigError(f"--alignment-layer {args.alignment_layer}: the model has {layers} decoder layers "
                          f"(0 to {layers - 1}, or -1 to -{layers} from the last)")
    if args.alignment_heads and not all(-heads <= h < heads for h in args.alignment_heads):
        raise ConfigError(f"--alignment-heads {args.alignment_heads}: the model has heads 0 to {heads - 1} "
                          f"(or -1 to -{heads} from the last)")


def hypothesis_extras(args: argparse.Namespace, model, tokenizer, line: str, sentence: str, translation: str) -> dict:
    """What --alignments and --confidence add to one hypothesis of a JSONL line read as ``sentence``
    (one scoring pass for both): the alignment numbers the words of the line and of the
    ``translation`` as written (``written``: between the controls at the line's edges)."""
    from attnmt.documents.paragraphs import text_pairs
    from attnmt.inspect.align import pharaoh, trace_alignment, trace_extras
    from attnmt.inspect.trace import trace_translation

    if not (args.alignments or args.confidence):
        return {}
    trace = trace_translation(model, tokenizer, sentence, target=translation, warn=False) if sentence.strip() else None
    extras = trace_extras(trace, False, args.confidence)
    if not args.alignments:
        return extras
    pairs = trace_alignment(trace, args.alignment_layer, args.alignment_heads) if trace is not None else []
    aligned = text_pairs([pairs], [sentence], [translation], line, written(line, sentence, translation))
    return {"alignment": pharaoh(aligned), **extras}


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
                        "source into its empty target), srt, vtt, and docx, pptx, xlsx, odt, odp, ods, epub: "
                        "documents, markup carried through by word alignments (docs/documents.md). Default: the "
                        "input file's extension's (.html, .htm, .xhtml, .xml, .xlf, .xliff, .srt, .vtt, .docx, ...; "
                        "a markup file is then read whole, as the server "
                        "reads it), else text")
    p.add_argument("--glossary", metavar="TSV", help="terms the translations must use: 'source term<TAB>target "
                   "term' lines, # comments (docs/translating.md, Terminology)")
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
