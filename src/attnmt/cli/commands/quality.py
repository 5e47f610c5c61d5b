"""``attnmt calibrate``: fit a model's quality score on a validation set; ``attnmt score``: the
quality, flags and word probabilities of translations written anywhere (attnmt.decoding.quality)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from attnmt.cli.commands.translate import add_model_run_options
from attnmt.cli.lines import print_out
from attnmt.cli.options import (
    add_decoding_options,
    check_not_given,
    decoding,
    file_name,
    glossary_files,
    language_code,
    load_for_translation,
    model_files,
    option_dests,
    read_glossary_files,
)
from attnmt.cli.score_sources import CALIBRATE_GLOSSARY, record_lines, source_texts
from attnmt.cli.translate_quality import probability, unmarked
from attnmt.decoding.quality_language import Languages
from attnmt.errors import ConfigError, DataError, UserError

if TYPE_CHECKING:  # quality estimation loads where ``attnmt score`` or ``calibrate`` runs, not for other commands
    from attnmt.decoding.quality import Assessment
    from attnmt.train_config import TrainConfig

SCORE_FORMATS = ("jsonl", "tsv")


def calibration_set(model_dir: str) -> tuple[TrainConfig, str, str]:
    """The model's training config (train.yaml) with the validation source and references it names, read
    as ``attnmt train`` reads a config (one that is not YAML, or no mapping, is one line naming it; it
    was PyYAML's traceback), and found as a resume finds them (resume_checks.run_validation_set: where
    the run started, with the bytes corpora.json recorded), not as named from the current folder."""
    from attnmt.config_file import read_config_file
    from attnmt.train_config import TrainConfig
    from attnmt.training.resume_checks import run_validation_set

    path = Path(model_dir) / "train.yaml"
    if not path.exists():
        raise ConfigError(f"{model_dir} has no train.yaml naming a validation set: give --src and --ref")
    values = read_config_file(path)
    if not (values.get("valid_src") and values.get("valid_tgt")):
        raise ConfigError(f"{path}: no valid_src and valid_tgt: give --src and --ref")
    config = TrainConfig.from_dict(values, source=str(path))
    return config, *run_validation_set(config, Path(model_dir), "the validation file the model's train.yaml names",
                                       "give --src and --ref")


def run_calibration_pairs(model_dir: str, say: Callable[[str], None]) -> tuple[str, str, list[tuple[str, str]]]:
    """The files of the run's validation set (calibration_set) and the pairs of it quality is fitted on:
    those the run's validation scored (attnmt.training.training_data.scored_pairs: none with an empty
    side or over its max_len; those left out counted in a line of ``say``), as the calibration at the
    run's end and keep_better_average fit on them, so that the same weights get the same calibration
    whichever of them fits it.  Every line was fitted on, a pair over max_len too."""
    from attnmt.checkpoint import load_model_config, load_tokenizer
    from attnmt.training.training_data import read_validation_text, scored_pairs

    config, src, ref = calibration_set(model_dir)
    text = read_validation_text(src, ref)
    tokenizer = load_tokenizer(Path(model_dir), load_model_config(Path(model_dir)))
    return src, ref, scored_pairs(text, tokenizer, config.max_len, say)[0]


def chrf_threshold(text: str) -> float:
    """An argparse type: a sentence chrF above 0 and at most 100 (at 0 every translation would be
    acceptable, above 100 none, and the fit would have nothing to tell apart)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value <= 100:  # nan and inf too
        raise argparse.ArgumentTypeError(f"a chrF threshold is above 0 and at most 100 (sentence chrF runs from 0 "
                                         f"to 100), got {text!r}")
    return value


def run_calibrate(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.cli.hypotheses import check_one_stdin, shown
    from attnmt.decoding.calibration import CHRF_THRESHOLD, calibrate, save_calibration
    from attnmt.decoding.inputs import fits_and_writes
    from attnmt.decoding.translate import translate
    from attnmt.documents.parted_lines import parted_references, sentence_references
    from attnmt.documents.pipeline import DocumentOptions

    if bool(args.src) != bool(args.ref):
        raise ConfigError("give both --src and --ref, or neither (the training config's validation set)")
    if not args.src:
        check_not_given(args, ["no_split", "source_lang", "target_lang"], "the run's own validation set is fitted "
                        "on a line a pair, as its training fitted it", "how --src and --ref's lines are split")
    check_one_stdin([("--src", args.src), ("--ref", args.ref)])  # "-" is stdin, as score reads it
    if args.src:
        src, (sources, references, records) = shown(args.src), read_given_pairs(args.src, args.ref)
        check_split_options(args, records)
    else:  # the run's own set, as its training calibrated on it
        src, _, pairs = run_calibration_pairs(args.model, print_out)
        sources, references = [s for s, _ in pairs], [r for _, r in pairs]
    model, tokenizer, _ = load_for_translation(args)
    if args.src:  # read as score reads them: sentence by sentence, one too long for the model part by part
        fits, writes = fits_and_writes(model, tokenizer)
        source_lang, target_lang = split_languages(args)
        sources, references = sentence_references(record_lines(sources, records), references, DocumentOptions(
            source_lang=source_lang, split=not (args.no_split or records)), target_lang, writes)
        sources, references = parted_references(sources, references, fits, writes,
                                                partial(translate, model, tokenizer, decoding=decoding(args),
                                                        max_tokens=args.max_tokens))
    calibration, table = calibrate(model, tokenizer, Path(args.model), sources, references, decoding(args),
                                   args.max_tokens,
                                   CHRF_THRESHOLD if args.chrf_threshold is None else args.chrf_threshold, args.weights)
    path = save_calibration(calibration, Path(args.model))
    print_out(f"quality: P(sentence chrF >= {calibration.chrf_threshold:g}), fitted on {calibration.sentences} "
              f"sentences of {src}")
    print_out(table.table())
    print_out(f"wrote {path}")
    return 0


def read_given_pairs(src: str, ref: str) -> tuple[list[str], list[str], bool]:
    """``--src`` and ``--ref``'s lines ("-": stdin), every one: as many in each, and a line blank in
    one blank in the other (both blank: a gap, left out by the fit), a line of invisible characters
    alone (a zero-width space) as blank as an empty one, as score reads it (``check_pairs``): the model
    reads no piece of it, and the pair was left out of the fit without a word.  ``--src`` is read as
    score reads it (``source_texts``): translate's JSONL input, read as text, was translated a JSON
    line at a time, and the fit on those translations flagged every reference low_quality.  Last,
    whether ``--src`` is such JSONL records."""
    from attnmt.cli.hypotheses import read_input, shown
    from attnmt.text.invisible import blank

    sources, records = source_texts(shown(src), read_input(src), CALIBRATE_GLOSSARY)
    references, src, ref = read_input(ref), shown(src), shown(ref)
    if len(sources) != len(references):
        raise DataError(f"{src} has {len(sources)} lines but {ref} has {len(references)}: give one reference a line")
    for number, (source, reference) in enumerate(zip(sources, references, strict=True), start=1):
        if blank(source) != blank(reference):
            empty, other = (src, ref) if blank(source) else (ref, src)
            raise DataError(f"{empty}:{number}: the line is blank and the same line of {other} is not: give "
                            "both sides of each pair, or leave both blank")
    return sources, references, records


def run_score(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.cli.hypotheses import check_one_stdin, shown
    from attnmt.cli.lines import output
    from attnmt.decoding.calibration import load_calibration
    from attnmt.decoding.elsewhere import assess_elsewhere
    from attnmt.decoding.inputs import fits_and_writes, sampling_with_terms
    from attnmt.decoding.quality import assess, blank_pair, with_empty
    from attnmt.decoding.translate import translate
    from attnmt.documents.paragraphs import assess_lines
    from attnmt.documents.pipeline import DocumentOptions
    from attnmt.output_checks import check_not_an_input, check_stdout_not_stdin

    if args.no_search:  # as evaluate --hyp refuses them: nothing is searched
        check_not_given(args, [*option_dests(add_decoding_options), "shortlist"],
                        "--no-search reads each translation alone, without translating its source",
                        "how the model's own translation is searched")
    check_one_stdin([("--src", args.src), ("--hyp", args.hyp)])
    inputs = {"--src": args.src, "--hyp": args.hyp, **glossary_files(args), **model_files(args)}
    if args.output in (None, "-"):
        check_stdout_not_stdin("--output", inputs, scores_name(args.hyp, args.output_format))
    check_not_an_input(args.output, "--output", inputs, scores_name(args.hyp, args.output_format))
    sources, translations, records = read_pairs(args.src, args.hyp)
    check_split_options(args, records, ("no_split",))  # its languages are its flags' too
    calibration = load_calibration(Path(args.model), args.weights)
    glossary = read_glossary_files(args)
    searching = None if args.no_search else decoding(args)  # --no-search searches nothing: its options wait
    if glossary and searching is not None and searching.sampling:  # refused before the model loads, as translate
        raise ConfigError(sampling_with_terms("--glossary", "--sampling-topk"))
    model, tokenizer, _ = load_for_translation(args)
    languages = known_languages(args)  # what the language and negation flags read
    own = None  # the model's translations, which find a long sentence's parts in its translation (line_pairs)
    if searching is None:
        assessing = partial(assess, model, tokenizer, calibration=calibration, max_tokens=args.max_tokens,
                            threshold=args.min_quality, languages=languages)
    else:  # the model's own translation searched with the terms, as translate searched it
        assessing = partial(assess_elsewhere, model, tokenizer, calibration=calibration, decoding=searching,
                            max_tokens=args.max_tokens, glossary=glossary, threshold=args.min_quality,
                            languages=languages)
        own = partial(translate, model, tokenizer, decoding=searching, max_tokens=args.max_tokens, glossary=glossary)
    source_lang, target_lang = split_languages(args)
    options = DocumentOptions(source_lang=source_lang, split=not (args.no_split or records))
    # the sentences translate joined around a term, and the symbols it left in them (the others it kept)
    fits, writes = fits_and_writes(model, tokenizer)
    found, failed = assessed_lines(partial(assess_lines, assessing, options=options, target_lang=target_lang,
                                           glossary=glossary, fits=fits, writes=writes, own=own,
                                           languages=languages),
                                   record_lines(sources, records), record_lines(translations, records),
                                   shown(args.src))
    found = with_empty(found, sources, translations, calibration, args.min_quality)  # quality 0, empty and low_quality
    scores = [a or blank_pair(calibration) for a in found]  # None is left for a blank pair alone (check_pairs)
    with output(args.output) as out:
        write_scores(out, translations, scores, args.output_format, failed)
    return 1 if failed else 0


def assessed_lines(assessing: Callable[[list[str], list[str]], list[Assessment | None]], sources: list[str],
                   translations: list[str], where: str) -> tuple[list[Assessment | None], set[int]]:
    """``assessing(sources, translations)``, and the indices of the lines it failed on: where the model
    fails on a sentence (its search or its forced pass raises), each line alone, so that only the lines
    it fails on alone go unscored, each named in one line as translate names the lines it does not
    translate (score raised the model's error, a traceback, and wrote nothing).  A UserError goes on."""
    try:
        return assessing(sources, translations), set()
    except UserError:
        raise
    except Exception:  # noqa: BLE001 - retried a line at a time below, where each failure is named
        pass
    found: list[Assessment | None] = []
    failed: set[int] = set()
    for i, (source, translation) in enumerate(zip(sources, translations, strict=True)):
        try:
            found += assessing([source], [translation])
        except UserError:
            raise
        except Exception as error:  # noqa: BLE001 - named, and the other lines scored
            print(f"attnmt: error: {where}:{i + 1}: not scored, the model failed on it ({type(error).__name__}: "
                  f"{error}); it has no line in the scores", file=sys.stderr)
            found.append(None)
            failed.add(i)
    return found, failed


def scores_name(hyp: str, output_format: str) -> str:
    """The file name an error suggests for the scores of the translations ``hyp``: x.de's are
    x.scores.jsonl.  Named after the stem alone, the scores of x.tsv in tsv were to go to x.tsv
    itself, and those of stdin to "-.jsonl"."""
    return f"{'' if hyp == '-' else Path(hyp).stem + '.'}scores.{output_format}"


def read_pairs(src: str, hyp: str) -> tuple[list[str], list[str], bool]:
    """The source lines and, line by line with them, their translations: the file ``hyp`` as text,
    or the best translation of each line where it is ``attnmt translate``'s tsv or jsonl output
    (attnmt.cli.hypotheses, as ``attnmt evaluate --hyp`` reads it; read as text, each line's JSON
    or row was scored, 0 and low_quality); the file ``src`` as text, or each line's "text" where it
    is translate's JSONL input (``source_texts``: last, whether it is); "-" reads stdin."""
    from attnmt.cli.hypotheses import best_translations, read_input, shown, with_blank_lines_at_end

    sources, records = source_texts(shown(src), read_input(src))
    translations, form = best_translations(shown(hyp), read_input(hyp))
    if form == "tsv":  # no row for a blank source line
        translations = with_blank_lines_at_end(translations, [sources])
    translations = unmarked(translations, form)
    check_pairs(shown(src), sources, shown(hyp), translations, tsv=form == "tsv")
    return sources, translations, records


def check_pairs(src: str, sources: list[str], hyp: str, translations: list[str], tsv: bool = False) -> None:
    """One translation a source line (counted as ``evaluate`` counts them, a TSV file's by its last
    row's line), and no translation without a source (a line out of step); an empty translation
    of a source is scored (quality.empty_translation); a side of invisible characters alone (a
    zero-width space) is as blank as an empty one (``blank``)."""
    from attnmt.cli.hypotheses import check_line_count
    from attnmt.text.invisible import blank

    check_line_count(hyp, len(translations), src, len(sources), "score needs one translation a source line", tsv)
    if not sources:
        raise DataError(f"{src} and {hyp} are empty: nothing to score")
    for number, (s, t) in enumerate(zip(sources, translations, strict=True), start=1):
        if blank(s) and not blank(t):
            raise DataError(f"{src}:{number}: the source is blank (nothing but spaces or invisible characters) "
                            "and the translation is not: give both, or leave both blank")


def write_scores(out: TextIO, translations: list[str], found: list[Assessment], output_format: str,
                 failed: AbstractSet[int] = frozenset()) -> None:
    """jsonl: {"line", "quality", "flags", "calibrated", "words": [[word, p], …]} a line
    (``calibrated`` whether the model has a calibration); tsv: line, quality, flags
    (comma-separated, "-" for none), translation (a tab in it written as \\t:
    attnmt.cli.lines.tsv_text), one record or row a line to str.splitlines (json_line's escapes);
    none for the lines ``failed`` (indices), which the model failed on."""
    from attnmt.cli.lines import tsv_text
    from attnmt.decoding.quality import shown_quality
    from attnmt.text.json_lines import json_line

    for line, (text, a) in enumerate(zip(translations, found, strict=True), start=1):
        if line - 1 in failed:  # named on stderr (``assessed_lines``)
            continue
        if output_format == "tsv":
            out.write(f"{line}\t{shown_quality(a.quality)}\t{','.join(a.flags) or '-'}\t{tsv_text(text)}\n")
        else:
            out.write(json_line({"line": line, **a.fields(), "words": a.words}))


def check_split_options(args: argparse.Namespace, records: bool,
                        options: tuple[str, ...] = ("no_split", "source_lang", "target_lang")) -> None:
    """``options`` (--no-split, --source-lang and --target-lang) refused where --src is translate's JSONL input
    (``records``), whose texts are read whole between their line breaks (record_lines), as translate
    refuses --no-split and --source-lang with JSONL input: they would do nothing.  Score's languages name
    those of its flags language and negation too (``known_languages``): there they are taken."""
    from attnmt.cli.hypotheses import shown

    if records:
        check_not_given(args, list(options), f"{shown(args.src)} is translate's JSONL "
                        "input, each record's text read whole between its line breaks", "how a line is split into "
                        "sentences")


def split_languages(args: argparse.Namespace) -> tuple[str, str]:
    """The languages whose rules split --src's and the translations' lines: --source-lang and
    --target-lang, each left out the model's (attnmt.model_languages: its training files'), else en,
    as translate splits a line by the model's source language.  By English rules, a de->en model's
    "a dog runs. the boy laughs." was read as two sentences where translate gave the model one."""
    known = known_languages(args)
    return known.source or args.source_lang, known.target or args.target_lang


def known_languages(args: argparse.Namespace) -> Languages:
    """The languages of --src and the translations as far as they are known, which the language rule
    reads: --source-lang and --target-lang where given, else the model's (attnmt.model_languages: its
    training files'), else None: not the splitter's default, en, which a German translation is not in."""
    from attnmt.model_languages import languages_from_training

    given = getattr(args, "given", ())
    source, target = languages_from_training(Path(args.model))
    return Languages(args.source_lang if "source_lang" in given else source,
                     args.target_lang if "target_lang" in given else target)


def add_sentence_options(p: argparse.ArgumentParser, sentences: str, translations: str) -> None:
    """--no-split, --source-lang and --target-lang: how score and calibrate split a line into the
    sentences translate gives the model (``sentences``: what is made of them; ``translations``: the
    option of the other side's file)."""
    p.add_argument("--no-split", action="store_true", help="read each line whole, as translate --no-split "
                   "translates it (default: sentence by sentence where both sides have as many, as translate "
                   f"assesses a line, {sentences})")
    p.add_argument("--source-lang", default="en", type=language_code, help="language code of --src for the "
                   "sentence splitter (default: the model's source language, as translate's, else en)")
    p.add_argument("--target-lang", default="en", type=language_code, help=f"language code of {translations} for "
                   "the sentence splitter and score's language flag (default: the model's target language, else en "
                   "for the splitter and none for the flag)")


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("calibrate", help="fit the model's quality score on a validation set "
                            "(the training config's, or --src/--ref) and store it in the model directory")
    add_model_run_options(p)
    p.add_argument("--src", type=file_name,
                   help="validation sources (default: valid_src of the model's train.yaml; - for stdin), or "
                   "translate's --input-format jsonl input (each line's \"text\"), as score reads them")
    p.add_argument("--ref", type=file_name, help="their reference translations (default: valid_tgt; - for stdin)")
    p.add_argument("--chrf-threshold", type=chrf_threshold,
                   help="a translation is acceptable at this sentence chrF or more (above 0, at most 100; default 50)")
    add_sentence_options(p, "each sentence a pair to fit on, as score reads a line", "--ref")
    p.set_defaults(run=run_calibrate)

    p = commands.add_parser("score", help="quality, flags and word probabilities of existing translations, "
                            "by forced decoding, each read against the model's own translation of its source where "
                            "the model has a calibration (docs/translating.md, Quality)")
    add_model_run_options(p)
    p.add_argument("--src", required=True, type=file_name,
                   help="source sentences, one a line (plain or .gz; - for stdin), or "
                   "translate's --input-format jsonl input (each line's \"text\")")
    p.add_argument("--hyp", required=True, type=file_name,
                   help="their translations, line by line with --src (- for stdin): a "
                   "translation a line, as attnmt translate writes text (with --alignments too), or its tsv (each "
                   "line's rank 1) or jsonl (each line's first hypothesis)")
    p.add_argument("--output-format", choices=SCORE_FORMATS, default="jsonl",
                   help="jsonl: an object a line with quality, flags, words; tsv: line, quality, flags, translation")
    p.add_argument("--output", help="output file, gzip-compressed where it ends in .gz (default: stdout)")
    add_sentence_options(p, "the line's quality its worst sentence's", "--hyp")
    p.add_argument("--glossary", metavar="FILE", type=file_name, action="append", help="the glossary --hyp was "
                   "translated with (translate's --glossary, each of its files again): a line without letters whose "
                   "translation is the line with its terms replaced, as translate writes it, is scored as translate "
                   "scores it (quality 1, no flags), a sentence beside such a part is read without it, as translate "
                   "read it, and each sentence is read against the model's own translation searched with its terms, "
                   "so that translate's output scores as translate scored it")
    p.add_argument("--min-quality", type=probability, metavar="Q",
                   help="the quality (0 to 1) under which a translation gets the low_quality flag, as translate's "
                        "--min-quality (default: the calibration's threshold, 0.5 without one)")
    p.add_argument("--no-search", action="store_true",
                   help="read each translation alone, without translating its source to read it against: about "
                   "5x faster, and a good translation the model would not have written reads as a poor one")
    p.set_defaults(run=run_score)
