"""``attnmt translate --format html|xml|srt|vtt`` and paragraph splitting of plain text (attnmt.documents).

- ``text`` (the default): each line is split into sentences (``--no-split``: translated whole,
  as before), URLs and e-mail addresses kept as they are; one output line per input line.
- ``html``: a whole document (the input starts with ``<!DOCTYPE`` or ``<html>``) is translated
  as one page; anything else is one HTML fragment a line.
- ``xml``: one XML fragment a line (text with inline elements).
- ``srt``, ``vtt``: a subtitle file; cue text translated, numbering and timings kept.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TextIO

from attnmt.decoding import Decoding
from attnmt.documents.markup import is_document, translate_markup
from attnmt.documents.pipeline import DocumentOptions, ModelTranslator, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.errors import ConfigError

DOCUMENT_FORMATS = ("text", "html", "xml", "srt", "vtt")


def check_document_options(args: argparse.Namespace) -> None:
    """Documents come out as documents: one translation, no per-line extras."""
    if args.format != "text" and (args.output_format != "text" or args.alignments or args.confidence):
        raise ConfigError(f"--format {args.format} writes the translated {args.format}: leave out --output-format, "
                          "--n-best, --alignments and --confidence")


def uses_documents(args: argparse.Namespace) -> bool:
    """Whether ``translate`` goes through attnmt.documents: any markup or subtitle format, or plain
    text split into sentences (not with per-line alignments, n-best lists or confidences)."""
    if args.format != "text":
        return True
    return not args.no_split and args.output_format == "text" and not args.alignments


def document_options(args: argparse.Namespace) -> DocumentOptions:
    return DocumentOptions(source_lang=args.source_lang, target_lang=args.target_lang, split=not args.no_split,
                           attributes=tuple(name.strip() for name in args.attributes.split(",") if name.strip()))


def translate_document_input(args: argparse.Namespace, model, tokenizer, decoding: Decoding,
                             batches: Iterable[list[str]], out: TextIO) -> None:
    """Reads the input (lines as they arrive for text, whole otherwise), writes the translation."""
    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size)
    options = document_options(args)
    where = args.input if args.input not in (None, "-") else "<stdin>"
    if args.format == "text":
        for lines in batches:
            out.write("".join(line + "\n" for line in translate_lines(lines, translator, options)))
            out.flush()
        return
    text = "".join(line + "\n" for lines in batches for line in lines)
    if args.format in ("srt", "vtt"):
        out.write(translate_subtitle_text(text, translator, options, where))
    elif args.format == "html" and is_document(text):
        out.write(translate_markup([text], translator, options, where=where)[0])
    else:
        lines = text.split("\n")[:-1]
        translated = translate_markup(lines, translator, options, xml=args.format == "xml", where=where, unit="line")
        out.write("".join(line + "\n" for line in translated))
    out.flush()


def add_document_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=DOCUMENT_FORMATS, default="text",
                   help="what the input is: text (a sentence or paragraph a line), html (a page, or a fragment "
                   "a line), xml (a fragment a line), srt or vtt subtitles; markup is carried through by word "
                   "alignments (docs/documents.md)")
    p.add_argument("--no-split", action="store_true", help="translate each line (HTML block, cue) whole instead "
                   "of sentence by sentence")
    p.add_argument("--source-lang", default="en", help="source language code for the sentence splitter "
                   "(default en)")
    p.add_argument("--target-lang", help="written into an HTML page's lang attribute")
    p.add_argument("--attributes", default=",".join(DocumentOptions.attributes),
                   help="HTML attributes whose values are translated, comma-separated ('' for none; default: "
                   "%(default)s)")

