"""What quality does to ``attnmt translate``'s output: the assessor its translations are assessed
with, --min-quality (and the threshold --below-quality and --review take without it), and what
--below-quality writes in place of a translation under it."""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.decoding.quality_language import Languages
from attnmt.decoding.translate import Translation

# Quality estimation is imported where a job asks for it (``quality_wanted``, --min-quality, --below-quality): a
# plain translation never loads it (issue 44).
if TYPE_CHECKING:
    from attnmt.decoding.calibration import Calibration
    from attnmt.decoding.quality import Assessment, Assessor

BELOW = ("keep", "mark", "source")
MARK = "[needs review] "


def probability(text: str) -> float:
    """An argparse type: a number from 0 to 1, with one message for any other text (under 0, inf
    and nan were "a finite number >= 0", which left the upper limit unsaid)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:  # nan too
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
    if args.min_quality is None and args.below_quality != "keep":
        from attnmt.decoding.quality import low_quality_threshold

        return low_quality_threshold(args.calibration)
    return args.min_quality


def load_quality_calibration(args: argparse.Namespace) -> Calibration | None:
    """The model directory's quality calibration where the output needs one (ModelDirError for one
    fitted on other weights than those loaded: --weights, else the directory's), else None."""
    if not quality_wanted(args):
        return None
    from attnmt.decoding.calibration import load_calibration

    return load_calibration(Path(args.model), args.weights)


def assessor(args: argparse.Namespace) -> Assessor:
    """How translations are assessed: with the model's calibration, low_quality under --min-quality, the
    language rule reading --target-lang, else the model's target language (``model_languages``: where its
    training files name it), and the source's where it is known as well."""
    from attnmt.decoding.quality import Assessor

    return Assessor(args.calibration, args.min_quality, args.max_tokens, assessed_languages(args))


def assessed_languages(args: argparse.Namespace) -> Languages:
    """The languages the language and negation rules read: --target-lang, else the model's, and
    --source-lang where it is known (given, or the model's); a document's --review reads them too."""
    source = args.source_lang if getattr(args, "source_lang_known", False) else None
    return Languages(source, getattr(args, "target_lang", None))


def quality_fields(a: Assessment | None, output_format: str) -> dict:
    """What tsv and jsonl add to a hypothesis, after its other fields: quality and flags (and in jsonl
    whether the quality is calibrated); nothing for a blank line.  tsv writes the quality with 4
    decimals cut down (shown_quality), as ``attnmt score`` and the review table do."""
    if a is None:
        return {}
    from attnmt.decoding.quality import shown_quality

    fields = a.fields()
    return fields if output_format == "jsonl" else {"quality": shown_quality(a.quality), "flags": fields["flags"]}


def below_quality(args: argparse.Namespace, source: str, text: str, a: Assessment | None) -> str:
    """``text``, or what --below-quality writes instead where its quality is under --min-quality:
    keep (as it is), mark (MARK before it) or source (the source line; text output without
    --alignments or --prefix keeps the source of each sentence under it instead:
    attnmt.cli.document_files.uses_documents)."""
    if not is_under(args, a):
        return text
    return {"keep": text, "mark": MARK + text if text else MARK.rstrip(), "source": source}[args.below_quality]


def unmarked(translations: list[str], form: str) -> list[str]:
    """``translations`` read back from translate's output in ``form`` (attnmt.cli.hypotheses), each
    without the mark --below-quality mark writes before it (MARK, or MARK alone for an empty
    translation) where ``form`` is text or alignments, the outputs that carry it: ``score --hyp``
    and ``evaluate --hyp`` read the mark as the mark, not as two words of the translation.  tsv and
    jsonl, which translate never marks, as they are."""
    if form not in ("text", "alignments"):
        return translations
    return ["" if text == MARK.rstrip() else text.removeprefix(MARK) for text in translations]


def is_under(args: argparse.Namespace, a: Assessment | None) -> bool:
    """Whether --below-quality acts on a hypothesis assessed ``a``: its quality is under
    --min-quality, or it is empty (flagged so, its source having words) at any threshold, 0
    included, as a review turns it down (attnmt.documents.review.under_threshold)."""
    if args.min_quality is None or a is None:
        return False
    from attnmt.decoding.quality import EMPTY

    return a.quality < args.min_quality or EMPTY in a.flags


def marked_pairs(args: argparse.Namespace, pairs: list[tuple[int, int]], a: Assessment | None) -> list[tuple[int, int]]:
    """``pairs``, the word alignment of a translation assessed ``a``, as pairs of what
    ``below_quality`` writes for it: where --below-quality mark puts MARK before it, each of the
    translation's words is that many words on, and the mark's words are aligned to none (text
    output; tsv and jsonl carry no mark)."""
    if args.below_quality != "mark" or not is_under(args, a):
        return pairs
    return [(s, t + len(MARK.split())) for s, t in pairs]


def keeps_source(args: argparse.Namespace, a: Assessment | None) -> bool:
    """Whether --below-quality source writes the source line in place of a hypothesis assessed ``a``."""
    return args.below_quality == "source" and is_under(args, a)


def copy_pairs(source: str) -> list[tuple[int, int]]:
    """The word alignment of a source line written as its own translation: each word with itself
    (Pharaoh's words, split at whitespace, as --alignments numbers them)."""
    return [(k, k) for k in range(len(source.split()))]


def copy_extras(args: argparse.Namespace, source: str) -> dict:
    """What --alignments and --confidence add to a source line written in place of a hypothesis:
    its own alignment (``copy_pairs``), and no confidence, as the model wrote none of its pieces;
    not the turned-down translation's, whose words and pieces are not the line's."""
    extras: dict = {}
    if args.alignments:
        extras["alignment"] = " ".join(f"{s}-{t}" for s, t in copy_pairs(source))  # Pharaoh's pairs
    if args.confidence:
        extras["confidence"] = []
    return extras


def below_quality_results(args: argparse.Namespace, sources: list[str], results: list[list[Translation]],
                          extras: list[list[dict]]) -> tuple[list[list[Translation]], list[list[dict]]]:
    """tsv and jsonl: with --below-quality source, a line's hypotheses under --min-quality give way
    to the source line, once, at the rank of the first of them (with --n-best, the same line
    again at each would differ only in scores that are not its own), its extras the copy's
    (``copy_extras``, which the caller gives such a hypothesis); its score, log_prob, quality and
    flags stay the turned-down translation's: they say why the source stands there.  keep and
    mark leave them (their flags hold low_quality)."""
    if args.min_quality is None or args.below_quality != "source":
        return results, extras
    kept_results, kept_extras = [], []
    for source, hypotheses, more in zip(sources, results, extras, strict=True):
        found: list[Translation] = []
        found_extras: list[dict] = []
        copied = False
        for h, extra in zip(hypotheses, more, strict=True):
            if keeps_source(args, h.assessment):
                if copied:
                    continue
                copied, h = True, replace(h, text=source)
            found.append(h)
            found_extras.append(extra)
        kept_results.append(found)
        kept_extras.append(found_extras)
    return kept_results, kept_extras
