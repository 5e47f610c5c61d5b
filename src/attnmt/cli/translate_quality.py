"""What quality does to ``attnmt translate``'s output: the assessor its translations are assessed
with, --min-quality (and the threshold --below-quality and --review take without it), and what
--below-quality writes in place of a translation under it."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.cli.options import finite_number

if TYPE_CHECKING:
    from attnmt.decoding.calibration import Calibration
    from attnmt.decoding.quality import Assessment, Assessor
    from attnmt.decoding.translate import Translation

BELOW = ("keep", "mark", "source")
MARK = "[needs review] "


def probability(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    value = finite_number(0)(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"a quality is from 0 to 1, got {text!r}")
    return value


def quality_wanted(args: argparse.Namespace) -> bool:
    """Whether to assess the translations: tsv and jsonl carry quality and flags, --min-quality,
    --below-quality and --review read them."""
    return (args.output_format != "text" or args.min_quality is not None or args.below_quality != "keep"
            or args.review is not None)


def below_quality_threshold(args: argparse.Namespace) -> float | None:
    """--min-quality; where --below-quality mark or source comes without it, the threshold of the
    low_quality flag (the calibration's, else quality.LOW_QUALITY), as --review takes it: the
    translations it acts on are those the flag marks, not none."""
    from attnmt.decoding.quality import low_quality_threshold

    if args.min_quality is None and args.below_quality != "keep":
        return low_quality_threshold(args.calibration)
    return args.min_quality


def load_quality_calibration(args: argparse.Namespace) -> Calibration | None:
    """The model directory's quality calibration where the output needs one (ModelDirError for one
    fitted on other weights than those loaded: --weights, else the directory's), else None."""
    from attnmt.decoding.calibration import load_calibration

    return load_calibration(Path(args.model), args.weights) if quality_wanted(args) else None


def assessor(args: argparse.Namespace) -> Assessor:
    """How translations are assessed: with the model's calibration, low_quality under --min-quality."""
    from attnmt.decoding.quality import Assessor

    return Assessor(args.calibration, args.min_quality, args.max_tokens)


def quality_fields(a: Assessment | None, output_format: str) -> dict:
    """What tsv and jsonl add to a hypothesis, after its other fields: quality and flags (and in jsonl
    whether the quality is calibrated); nothing for a blank line.  tsv writes the quality with 4
    decimals, as ``attnmt score`` and the review table do."""
    if a is None:
        return {}
    fields = a.fields()
    return fields if output_format == "jsonl" else {"quality": f"{a.quality:.4f}", "flags": fields["flags"]}


def below_quality(args: argparse.Namespace, source: str, text: str, a: Assessment | None) -> str:
    """``text``, or what --below-quality writes instead where its quality is under --min-quality:
    keep (as it is), mark (MARK before it) or source (the source line; text output without
    --alignments or --prefix keeps the source of each sentence under it instead:
    attnmt.cli.document_files.uses_documents)."""
    if args.min_quality is None or a is None or a.quality >= args.min_quality:
        return text
    return {"keep": text, "mark": MARK + text, "source": source}[args.below_quality]


def below_quality_results(args: argparse.Namespace, sources: list[str], results: list[list[Translation]],
                          assessments: list[list]) -> list[list[Translation]]:
    """tsv and jsonl: --below-quality source puts the source line in place of a hypothesis under
    --min-quality; keep and mark leave it (its flags hold low_quality)."""
    if args.min_quality is None or args.below_quality != "source":
        return results
    return [[replace(h, text=below_quality(args, s, h.text, a)) for h, a in zip(hs, found, strict=True)]
            for s, hs, found in zip(sources, results, assessments, strict=True)]
