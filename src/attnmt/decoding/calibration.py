"""Calibrating ``quality`` for one model: the features' predicted chrF, mapped to P(acceptable).

    validation sources ─ translate ─ assess (features) ─┐
    validation references ─ sentence chrF ──────────────┴─ fit ─ quality.json in the model directory

The label is "acceptable": sentence chrF against the reference at least ``CHRF_THRESHOLD``.
chrF rather than sentence BLEU because it stays informative on short sentences (BLEU's 4-gram
precision is zero for most of a short sentence's errors) and it tracks human judgement better at
sentence level (WMT metrics tasks).  A fixed threshold keeps the number's meaning the same across
models: quality 0.8 is "4 in 5 such translations reach chrF 50", whatever the model.

The fit has two stages.  First, least squares (ridge) from the inputs to the sentence chrF itself,
not to the label: the label keeps only which side of the threshold a translation falls on, and a
fit to it ranks the translations on each side worse than the mean log-prob alone does (Spearman
with chrF on test_2016_flickr, fitted on the validation set: 0.564 against 0.590 on one 30-minute
model).  The mean log-prob enters cut into stretches at quantiles of its values (``KNOTS``;
quality_features.segments), each with its own slope, since chrF does not grow with it in a straight line.
How the cross-attention spreads (quality_measures.attention_spread) adds what the log-prob does not say:
Spearman +0.014 to +0.040 over the mean log-prob on two 30-minute models where the log-prob's
stretches alone gave +0.005 to +0.014 (benchmarks/results/quality_attention_epyc.txt).
Second, one logistic regression of the label on that predicted chrF (Platt scaling), which makes
it a probability.  The two compose into one logistic function of the inputs, which is what the
file stores.  Several inputs, not one monotone map of one number: the flags' broken translations
differ from good ones in several independent ways (a cut one in its EOS probability, a looped one
in its repetition, a dropped clause in its unread source words).  Eighteen standardised inputs need
a few hundred sentences, not a learning library: a linear solve, then Newton's method (iteratively
reweighted least squares), which converges in ~10 steps.

Each input may move quality one way only (``DIRECTIONS``): a likelier piece, end or translation
never lowers it, and more unread source, repetition, copying, length gap or a rule firing never
raises it.  The first stage holds an input at 0 where its best weight would point the other way.
The model's own translations, the only texts the fit sees, are seldom broken, and there the inputs
that mark a broken one are collinear with the others: fitted freely on the shipped config's model
(``configs/multi30k_en_de.yaml``, 30 bf16 minutes), the least piece log-probability got a negative
weight beside the mean's positive one, and the loop rule a positive one, so that translations cut
in half or looped scored above whole ones (AUROC 0.01 and 0.02 on the benchmark's held-out half,
benchmarks/results/quality_signed_epyc.txt).

A second fit, for translations the model did not write (attnmt.decoding.elsewhere, what
``attnmt score`` reads them with), is fitted after the first on the texts attnmt.decoding.elsewhere_examples
makes, and stored beside it.

The file records the sha256 of the weights it was fitted on; a file from other weights is
refused (``load_calibration``) rather than silently mis-scaling the scores; what else each of its
keys must hold is checked by attnmt.decoding.calibration_file.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from attnmt.checkpoint import CALIBRATION

# calibration_file's, elsewhere's and elsewhere_examples' names are read when called (elsewhere.ElsewhereFit), not
# taken here: each imports quality, which imports this module last, so whichever of them a program imports first is
# part-way through its imports while this module runs, its names not defined yet.
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding, calibration_file, elsewhere, elsewhere_examples
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.fitting import Reliability, logistic_fit, probability, reliability, ridge_fit
from attnmt.decoding.inputs import TextCodec
from attnmt.decoding.quality import LOW_QUALITY, Assessment, assess
from attnmt.decoding.quality_features import INPUT_NAMES, Features, input_names
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning, DataError, ModelDirError, UserError, json_value
from attnmt.files import file_digest, write_text
from attnmt.model import Transformer

WEIGHTS = "model.safetensors"
CHRF_THRESHOLD = 50.0
MIN_SENTENCES = 100  # fewer, and 10 weights over a few dozen labels only fit the noise
# Of the translations that reach the chrF threshold, and of those that miss it.  The label enters
# the fit in its second stage, a logistic regression with a slope and an intercept, and such a fit
# wants some 10 of the rarer outcome per parameter (Peduzzi et al., 1996, "events per variable"):
# with 1 acceptable translation in 100 it rated every other one, good references too, near 0.01.
MIN_EACH = 10
# Where the mean log-prob is cut (quality_features.segments): these quantiles of the fitting translations' values.
KNOTS = (0.1, 0.25, 0.5, 0.75, 0.9)


@dataclass
class Calibration:
    """A fitted quality model for the weights with sha256 ``model_sha256``."""

    model_sha256: str
    weights: list[float]  # one per input (``inputs``), on standardised inputs
    bias: float
    means: list[float]
    scales: list[float]
    length_center: float  # median log(translation pieces / source pieces) of the references
    length_range: tuple[float, float]  # the references' 0.5th and 99.5th percentile ratio, widened by 1.25
    chrf_threshold: float = CHRF_THRESHOLD
    threshold: float = LOW_QUALITY
    sentences: int = 0
    inputs: tuple[str, ...] = INPUT_NAMES
    elsewhere: elsewhere.ElsewhereFit | None = None  # for texts the model did not write (attnmt.decoding.elsewhere)
    knots: tuple[float, ...] = ()  # where the mean log-prob is cut (quality_features.segments); none in older files

    def quality(self, features: Features) -> float:
        return probability(self.weights, self.bias, self.means, self.scales,
                           features.inputs(self.length_center, self.length_range, self.knots, self.inputs))


def fingerprint(model_dir: str | Path, weights: str | Path | None = None) -> str:
    """sha256 of the weights file a model is loaded from: ``weights`` (--weights), else the model
    directory's (remembered per file: attnmt.files.file_digest).  One that is missing, cannot be
    read (a checkpoint's folder given to --weights) or is no safetensors file (the model's
    config.json given to --weights) is the one line loading it gives (checkpoint.stored_shapes),
    read from its header: its digest was taken as that of other weights, and the calibration
    blamed for them."""
    from attnmt.checkpoint import stored_shapes, unreadable_weights

    path = Path(weights) if weights else Path(model_dir) / WEIGHTS
    stored_shapes(path)
    try:
        return file_digest(path)
    except OSError as error:
        raise unreadable_weights(path, error) from None


def save_calibration(calibration: Calibration, model_dir: Path) -> Path:
    path = Path(model_dir) / CALIBRATION
    write_text(path, json.dumps(asdict(calibration), indent=1) + "\n")
    return path


def load_calibration(model_dir: str | Path, weights: str | Path | None = None) -> Calibration | None:
    """The model directory's calibration, or None where it has none; ModelDirError, one line saying
    what is wrong, for a file fitted on other weights than ``weights`` (--weights, else the
    directory's), one that is not a calibration, or one of inputs this attnmt does not compute."""
    path = Path(model_dir) / CALIBRATION
    if not path.exists():
        return None
    again = f"run attnmt calibrate --model {model_dir} again"
    try:
        values = json_value(path.read_text(encoding="utf-8"), parse_int=calibration_file.whole_number)
    except OSError as error:
        raise ModelDirError(f"{path}: {error.strerror or error}; {again}") from None
    except UnicodeDecodeError as error:
        raise ModelDirError(f"{path}: not a quality calibration (not UTF-8: byte {error.object[error.start]:#04x} "
                            f"at offset {error.start}); {again}") from None
    except json.JSONDecodeError as error:
        raise ModelDirError(f"{path}: not a quality calibration ({error}); {again}") from None
    if wrong := (calibration_file.wrong_keys(values, calibration_file.KEYS, Calibration)
                 or calibration_file.wrong_keys(values.get("elsewhere"), calibration_file.ELSEWHERE_KEYS,
                                                elsewhere.ElsewhereFit, "elsewhere.")):
        raise ModelDirError(f"{path}: not a quality calibration ({wrong}); {again}")
    calibration = Calibration(**{**values, "length_range": tuple(values["length_range"]),
                                 "inputs": tuple(values.get("inputs", INPUT_NAMES)),
                                 "knots": tuple(values.get("knots", ())),
                                 "elsewhere": values.get("elsewhere")
                                 and elsewhere.ElsewhereFit.from_json(values["elsewhere"])})
    if wrong := calibration_file.unreadable_inputs(calibration):
        raise ModelDirError(f"{path}: {wrong}; {again}")
    found = fingerprint(model_dir, weights)
    if calibration.model_sha256 != found:
        given = f" --weights {weights}" if weights else ""
        raise ModelDirError(f"{path} was fitted for other weights (sha256 {calibration.model_sha256[:12]}…, "
                            f"{weights or 'this model'}'s {found[:12]}…): run attnmt calibrate --model {model_dir}"
                            f"{given} (which replaces the file), or delete the file")
    if any(w * direction(name) < 0 for w, name in zip(calibration.weights, calibration.inputs, strict=True)):
        warnings.warn(f"{path} was fitted with inputs pointing the wrong way (before attnmt held each input's "
                      f"direction), which can rate a cut or looped translation above a whole one: {again}",
                      AttnmtWarning, stacklevel=2)
    return calibration


# Which way each input (INPUT_NAMES; each stretch of a cut mean log-prob as the mean log-prob) may
# move quality: +1 up as it grows, -1 down.
DIRECTIONS = {"mean_log_prob": 1, "min_log_prob": 1, "eos_log_prob": 1, "unread": -1, "repeated": -1,
              "copied": -1, "length_gap": -1, "loop": -1, "untranslated": -1, "length": -1,
              "attention_entropy": -1, "coverage": 1, "source_entropy": -1}


def direction(name: str) -> int:
    """DIRECTIONS' sign for an input name of ``input_names`` (mean_log_prob_3 is the mean log-prob's)."""
    return DIRECTIONS["mean_log_prob" if name.startswith("mean_log_prob") else name]


def chrf_scores(translations: Sequence[str], references: Sequence[str]) -> list[float]:
    """Each translation's sentence chrF (0-100) against its reference."""
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    return [chrf.sentence_score(t, [r]).score for t, r in zip(translations, references, strict=True)]


def fit_calibration(features: Sequence[Features], chrf: Sequence[float], reference_ratios: Sequence[float],
                    model_sha256: str, chrf_threshold: float = CHRF_THRESHOLD) -> Calibration:
    """A Calibration from each translation's Features and sentence chrF against its reference
    (acceptable: at least ``chrf_threshold``), and the references' translation/source piece ratios
    (the usual length).  DataError for fewer than MIN_SENTENCES, or fewer than MIN_EACH
    translations on either side of the threshold."""
    too_few(len(features))
    labels = [float(score >= chrf_threshold) for score in chrf]
    reached = int(sum(labels))
    if min(reached, len(labels) - reached) < MIN_EACH:
        raise DataError(f"{reached} of the {len(labels)} translations reach chrF {chrf_threshold:g} and "
                        f"{len(labels) - reached} miss it: quality needs at least {MIN_EACH} of each to tell them "
                        "apart; give another --chrf-threshold or other sentences")
    ratios = sorted(math.log(r) for r in reference_ratios if r > 0)
    center = ratios[len(ratios) // 2]
    low, high = ratios[int(0.005 * (len(ratios) - 1))], ratios[int(0.995 * (len(ratios) - 1))]
    length_range = (math.exp(low) / 1.25, math.exp(high) * 1.25)
    mean_log_probs = torch.tensor([f.mean_log_prob for f in features], dtype=torch.float64)
    knots = tuple(sorted(set(torch.quantile(mean_log_probs, torch.tensor(KNOTS, dtype=torch.float64)).tolist())))
    names = input_names(len(knots))
    x = torch.tensor([f.inputs(center, length_range, knots) for f in features], dtype=torch.float64)
    means, scales = x.mean(dim=0), x.std(dim=0).clamp(min=1e-6)
    z = (x - means) / scales
    # Stage 1: the predicted chrF, each input moving it its own way.
    weights, bias = ridge_fit(z, torch.tensor(chrf, dtype=torch.float64), directions=[direction(n) for n in names])
    predicted = z @ weights + bias
    middle, spread = float(predicted.mean()), max(float(predicted.std()), 1e-6)
    # Stage 2: P(acceptable) as a logistic function of it, rising with it (or flat).
    (slope,), intercept = logistic_fit(((predicted - middle) / spread)[:, None],
                                       torch.tensor(labels, dtype=torch.float64), l2=0.0, directions=[1])
    slope = float(slope) / spread
    return Calibration(model_sha256, (slope * weights).tolist(), intercept + slope * (bias - middle), means.tolist(),
                       scales.tolist(), center, length_range, chrf_threshold, sentences=len(features), inputs=names,
                       knots=knots)


def distinct_pairs(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each (source, reference) pair once, as first given; two that differ only in whitespace
    (SentencePiece reads runs of it as one space) are one.  A pair given again is no new evidence:
    the model translates it the same way and chrF labels it the same.  Counted each time, 10 pairs
    given 11 times passed the minimums as 110 sentences, and weighted each time, 2 of them 55 times
    each made the whole fit: "ECE 0.000", then every good reference low_quality."""
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for s, r in pairs:
        first.setdefault((" ".join(s.split()), " ".join(r.split())), (s, r))
    return list(first.values())


def too_few(count: int, repeated: int = 0) -> None:
    """DataError for fewer than MIN_SENTENCES distinct pairs (``repeated``: the other lines, each a
    pair given before them)."""
    if count < MIN_SENTENCES:
        lines = "1 more line repeats a pair before it, and counts" if repeated == 1 else \
            f"{repeated} more lines repeat a pair before them, and count"
        again = f" ({lines} once)" if repeated else ""
        sentences = "sentence" if count == 1 else "sentences"
        raise DataError(f"{count} {'distinct ' if repeated else ''}{sentences} to calibrate on{again}; quality needs "
                        f"at least {MIN_SENTENCES} (give a larger --src/--ref pair)")


@dataclass
class FitReport:
    """How a calibration fits its own validation set: the reliability on the model's own
    translations, and the share of the references it would flag low_quality (the fit sees only
    the model's own translations, and a reference the model finds unlikely reads as a bad one)."""

    own: Reliability
    references_low: float
    references_low_elsewhere: float | None = None  # read as texts written elsewhere (attnmt score), in the fit

    @property
    def ece(self) -> float:
        return self.own.ece

    def table(self) -> str:
        read_elsewhere = ("" if self.references_low_elsewhere is None else
                          f"; read by the fit for texts written elsewhere (attnmt score), which saw them: "
                          f"{100 * self.references_low_elsewhere:.1f} %")
        return (f"the model's own translations:\n{self.own.table()}\n"
                f"references under the low_quality threshold: {100 * self.references_low:.1f} %{read_elsewhere}")


def calibrate(model: Transformer, tokenizer: TextCodec, model_dir: Path, sources: Sequence[str],
              references: Sequence[str], decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS,
              chrf_threshold: float = CHRF_THRESHOLD, weights: Path | None = None) -> tuple[Calibration, FitReport]:
    """Translates ``sources``, labels each translation by its chrF against ``references``, fits a
    Calibration for the weights ``model`` was loaded from (``weights``, else those in ``model_dir``),
    and measures its reliability on the same sentences (the benchmark measures it on others), and
    how it reads the references themselves.  Pairs with a blank side are left out, and so are those
    the model reads no piece of (a zero-width space alone: ``read_pairs``); each distinct pair
    (``distinct_pairs``) is fitted on and counted once."""
    if len(sources) != len(references):
        raise DataError(f"{len(sources)} source sentences but {len(references)} references: give one a line")
    given = [(s, r) for s, r in zip(sources, references, strict=True) if s.strip() and r.strip()]
    pairs = distinct_pairs(given)
    too_few(len(pairs), len(given) - len(pairs))  # before translating them
    texts, refs = [s for s, _ in pairs], [r for _, r in pairs]
    try:  # a sentence the model fails on was SentencesFailed's traceback, and no calibration
        translations = translate(model, tokenizer, texts, decoding, max_tokens)
    except SentencesFailed as failed:
        first, n = min(failed.failures), len(failed.failures)
        error = failed.failures[first]
        raise DataError(f"the model failed on {n} of the {len(texts)} sentences to calibrate on, the first "
                        f"{texts[first]!r} ({type(error).__name__}: {error}): leave them out of the set") from None
    found = read_pairs(model, tokenizer, texts * 2, [*translations, *refs], max_tokens)  # one pass for both
    kept = [(a.features, t, r) for a, t, r in zip(found[: len(texts)], translations, refs, strict=True)
            if a is not None]
    if len(kept) < MIN_SENTENCES:  # enough sentences, but the model left too many translations empty
        raise DataError(f"the model's translations of {len(texts) - len(kept)} of the {len(texts)} sentences are "
                        f"empty, leaving {len(kept)} to calibrate on; quality needs at least {MIN_SENTENCES} "
                        "(is the model trained enough?)")
    chrf = chrf_scores([t for _, t, _ in kept], [r for _, _, r in kept])
    labels = [float(score >= chrf_threshold) for score in chrf]
    ratios = [len(tokenizer.encode_target(r)) / max(1, len(tokenizer.encode(s)) - tokenizer.source_eos)
              for s, r in pairs]
    calibration = fit_calibration([f for f, _, _ in kept], chrf, ratios, fingerprint(model_dir, weights),
                                  chrf_threshold)
    on_references = [calibration.quality(a.features) for a in found[len(texts):] if a is not None]
    low = sum(q < calibration.threshold for q in on_references) / max(1, len(on_references))
    own_features = found[: len(texts)]
    calibration.elsewhere, low_elsewhere = elsewhere_examples.elsewhere_fit(
        model, tokenizer, calibration, texts, refs, translations, own_features, found[len(texts):], decoding,
        max_tokens)
    return calibration, FitReport(reliability([calibration.quality(f) for f, _, _ in kept], labels), low,
                                  low_elsewhere)


def read_pairs(model: Transformer, tokenizer: TextCodec, sources: Sequence[str], translations: Sequence[str],
               max_tokens: int) -> list[Assessment | None]:
    """``assess``'s Assessment of each pair the model read, None for the rest: a copy that the model
    reads as no piece (a zero-width space alone) is its own reference, quality 1 (quality.blank_pair),
    but it has no features to fit on or to measure a fit with."""
    return [a if a is not None and a.features is not None else None
            for a in assess(model, tokenizer, sources, translations, max_tokens=max_tokens)]


def calibrate_run(model_dir: Path, src: str, ref: str, say: Callable[[str], None],
                  pairs: Sequence[tuple[str, str]] | None = None, weights: Path | None = None,
                  into: Path | None = None, chrf_threshold: float = CHRF_THRESHOLD) -> None:
    """The end of a training run: calibrates the model in ``model_dir`` on its validation set, or says
    why it stays uncalibrated (too few sentences, too few on one side of the threshold); never stops the run.
    ``pairs``: the (source, reference) pairs of ``src`` and ``ref`` to fit on, as the run scores them
    (attnmt.training.training_data.scored_pairs: those within its max_len); None: every line of the files.
    ``weights`` and ``into``: new weights not yet in place, and the folder their quality.json is written in
    until it is (attnmt.training.new_weights), fitted at the old one's ``chrf_threshold``.  The refusals
    name ``attnmt calibrate``'s options (--src/--ref, --chrf-threshold): the line ends with that command."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.text.data import read_lines

    try:
        model, tokenizer = load_model_dir(model_dir, weights)
        sources, references = ((read_lines(src), read_lines(ref)) if pairs is None
                               else ([s for s, _ in pairs], [r for _, r in pairs]))
        calibration, table = calibrate(model, tokenizer, Path(model_dir), sources, references,
                                       chrf_threshold=chrf_threshold, weights=weights)
    except (UserError, OSError) as error:  # too few sentences, or on one side of the threshold; a file gone
        say(f"quality not calibrated ({error}); calibrate it later with attnmt calibrate --model {model_dir} "
            "--src F --ref F [--chrf-threshold N]")
        return
    save_calibration(calibration, Path(into or model_dir))
    say(f"quality calibrated on {calibration.sentences} sentences of {src}: ECE {table.ece:.3f}; "
        f"{Path(model_dir) / CALIBRATION}")
