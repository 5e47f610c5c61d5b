"""Calibrating ``quality`` for one model: logistic regressions from the features to P(acceptable).

    validation sources ─ translate ─ own translations ─────┐
    validation references ─────────────────────────────────┤
    references, own translations ─ noised (random edits) ──┴─ assess ─ features ─┐
    validation references ─ each text's sentence chrF ≥ threshold ─ labels ──────┴─ fit ─ quality.json

The label is "acceptable": sentence chrF against the reference at least ``CHRF_THRESHOLD``.
chrF rather than sentence BLEU because it stays informative on short sentences (BLEU's 4-gram
precision is zero for most of a short sentence's errors) and it tracks human judgement better at
sentence level (WMT metrics tasks).  A fixed threshold keeps the number's meaning the same across
models: quality 0.8 is "4 in 5 such translations reach chrF 50", whatever the model.

What it is fitted on.  ``quality`` scores the model's own translations and, through ``attnmt
score``, translations written elsewhere; a fit on the model's own alone reads a human reference
(every piece less likely than the model's choice) as a bad translation.  So the fit also sees the
references (acceptable by the label's definition) and noised references and own translations
(attnmt.decoding.noising), each labelled by its own chrF.  Their weights (GROUPS) are shares of
the own translations' count: the own translations outweigh the rest, so ``quality`` stays
calibrated on what attnmt writes, while the others teach it what a foreign or broken one looks like.

Two regressions.  Beam search seldom writes a piece the model finds unlikely (log-prob under
UNLIKELY_PIECE: 0.3 % of a Multi30k model's translations); a text written elsewhere, or damaged,
nearly always holds one.  The two kinds need opposite readings of the same number: among the
model's own, a lower mean log-prob means the model was unsure, and chrF falls with it; a human
reference is less likely than any of them and still acceptable.  One linear fit over both gets
neither right, so each side of ``min_log_prob < unlikely_piece`` has its own.

Logistic regression, not isotonic regression on one signal: the flags' broken translations differ
from good ones in several independent ways (a cut one in its EOS probability, a looped one in its
repetition, a dropped clause in its unread source words), and one monotone map of one number cannot
combine them.  Ten standardised inputs and an L2 penalty need a few hundred sentences, not a
learning library: Newton's method (iteratively reweighted least squares) converges in ~10 steps.

The file records the sha256 of the weights it was fitted on; a file from other weights is
refused (``load_calibration``) rather than silently mis-scaling the scores.  Format 1 files (one
regression, fitted on the model's own translations) still load and score as they did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.noising import noised
from attnmt.decoding.quality import INPUT_NAMES, LOW_QUALITY, Features, assess
from attnmt.decoding.translate import TextCodec, translate
from attnmt.errors import DataError, ModelDirError, UserError
from attnmt.files import file_digest, write_text
from attnmt.model import Transformer

CALIBRATION = "quality.json"
WEIGHTS = "model.safetensors"
FORMAT = 2
CHRF_THRESHOLD = 50.0
MIN_SENTENCES = 100  # fewer, and 10 weights over a few dozen labels only fit the noise
MIN_SIDE = 50  # texts, with both labels, each side of the unlikely-piece split needs for a regression of its own
UNLIKELY_PIECE = -4.0  # log-prob: e^-4 ≈ 1.8 %
GROUPS = {"own": 1.0, "references": 0.25, "noised own": 0.5, "noised references": 0.25}  # weight per own translation
L2 = 1.0
BINS = 10


@dataclass
class Regression:
    """P(acceptable) = σ(bias + Σ weight·(x − mean)/scale) over the inputs x (INPUT_NAMES)."""

    weights: list[float]
    bias: float
    means: list[float]
    scales: list[float]

    def probability(self, x: Sequence[float]) -> float:
        z = self.bias + sum(w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.means, self.scales,
                                                                  strict=True))
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


@dataclass
class Calibration:
    """A fitted quality model for the weights with sha256 ``model_sha256``."""

    model_sha256: str
    likely: Regression  # translations with no piece under unlikely_piece (or all, where unlikely is None)
    unlikely: Regression | None  # translations with one: None where too few of them were seen (and format 1)
    length_center: float  # median log(translation pieces / source pieces) of the references
    length_range: tuple[float, float]  # the references' 0.5th and 99.5th percentile ratio, widened by 1.25
    chrf_threshold: float = CHRF_THRESHOLD
    threshold: float = LOW_QUALITY
    sentences: int = 0
    inputs: tuple[str, ...] = INPUT_NAMES
    unlikely_piece: float = UNLIKELY_PIECE
    fitted_on: dict[str, int] = field(default_factory=dict)  # texts of each group (GROUPS)
    format: int = FORMAT

    def quality(self, features: Features) -> float:
        regression = self.likely
        if self.unlikely is not None and features.min_log_prob < self.unlikely_piece:
            regression = self.unlikely
        return regression.probability(features.inputs(self.length_center, self.length_range))


def fingerprint(model_dir: Path) -> str:
    """sha256 of the model directory's weights file (remembered per file: attnmt.files.file_digest)."""
    return file_digest(Path(model_dir) / WEIGHTS)


def save_calibration(calibration: Calibration, model_dir: Path) -> Path:
    path = Path(model_dir) / CALIBRATION
    write_text(path, json.dumps(asdict(calibration), indent=1) + "\n")
    return path


def load_calibration(model_dir: Path) -> Calibration | None:
    """The model directory's calibration, or None where it has none; ModelDirError for a file
    fitted on other weights, or one that is not a calibration (a format 1 file loads as one
    regression for all translations, as it was fitted)."""
    path = Path(model_dir) / CALIBRATION
    if not path.exists():
        return None
    again = f"run attnmt calibrate --model {model_dir} again"
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
        found_format = values.get("format", 1)
        if found_format > FORMAT:
            raise ModelDirError(f"{path}: calibration format {found_format}, this attnmt reads up to {FORMAT}: "
                                f"update attnmt, or {again}")
        calibration = calibration_of(values)
    except (json.JSONDecodeError, TypeError, KeyError, AttributeError) as error:
        raise ModelDirError(f"{path}: not a quality calibration ({error}); {again}") from None
    if calibration.inputs != INPUT_NAMES:
        raise ModelDirError(f"{path}: fitted on inputs {', '.join(calibration.inputs)}, this attnmt computes "
                            f"{', '.join(INPUT_NAMES)}; {again}")
    found = fingerprint(model_dir)
    if calibration.model_sha256 != found:
        raise ModelDirError(f"{path} was fitted for other weights (sha256 {calibration.model_sha256[:12]}…, this "
                            f"model's {found[:12]}…): run attnmt calibrate --model {model_dir}, or delete the file")
    return calibration


def calibration_of(values: dict) -> Calibration:
    """A Calibration from a quality.json's values; format 1 kept its one regression's fields at the top."""
    if values.get("format", 1) == 1:
        one = ("weights", "bias", "means", "scales")
        values = {**{k: v for k, v in values.items() if k not in one}, "likely": {k: values[k] for k in one},
                  "unlikely": None, "format": 1}
    unlikely = values["unlikely"]
    return Calibration(**{**values, "likely": Regression(**values["likely"]),
                          "unlikely": Regression(**unlikely) if unlikely is not None else None,
                          "length_range": tuple(values["length_range"]),
                          "inputs": tuple(values.get("inputs", INPUT_NAMES))})


def logistic_fit(x: torch.Tensor, y: torch.Tensor, l2: float = L2, steps: int = 50,
                 weight: torch.Tensor | None = None) -> tuple[torch.Tensor, float]:
    """Weights [F] and bias of P(y=1) = σ(x·w + b) for standardised x [N, F], labels y [N] in {0, 1}:
    maximum likelihood, each example counted ``weight`` [N] times (default once), with an L2
    penalty l2·|w|²/2 (not on b), by Newton's method."""
    n, f = x.shape
    weight = torch.ones(n, dtype=x.dtype) if weight is None else weight
    design = torch.cat([x, torch.ones(n, 1, dtype=x.dtype)], dim=1)  # [N, F + 1]
    theta = torch.zeros(f + 1, dtype=x.dtype)
    penalty = torch.diag(torch.tensor([l2] * f + [0.0], dtype=x.dtype))
    for _ in range(steps):
        p = torch.sigmoid(design @ theta)
        gradient = design.T @ (weight * (p - y)) + penalty @ theta
        hessian = (design.T @ (design * (weight * p * (1 - p))[:, None]) + penalty
                   + 1e-9 * torch.eye(f + 1, dtype=x.dtype))
        step = torch.linalg.solve(hessian, gradient)
        theta -= step
        if float(step.abs().max()) < 1e-8:
            break
    return theta[:f], float(theta[f])


def chrf_labels(translations: Sequence[str], references: Sequence[str], threshold: float) -> list[float]:
    """1.0 where a translation's sentence chrF against its reference is at least ``threshold``."""
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    return [float(chrf.sentence_score(t, [r]).score >= threshold) for t, r in zip(translations, references,
                                                                                       strict=True)]


def fit_calibration(features: Sequence[Features], labels: Sequence[float], reference_ratios: Sequence[float],
                    model_sha256: str, chrf_threshold: float = CHRF_THRESHOLD, weight: Sequence[float] | None = None,
                    fitted_on: dict[str, int] | None = None) -> Calibration:
    """A Calibration from each text's Features, label (1: acceptable) and ``weight`` (default 1), and
    the references' translation/source piece ratios (the usual length).  The texts with a piece
    under UNLIKELY_PIECE get a regression of their own where each side has MIN_SIDE texts with both
    labels.  DataError for fewer than MIN_SENTENCES, or labels all one way."""
    too_few(len(features))
    if len(set(labels)) < 2:
        kind = "reach" if labels[0] else "miss"
        raise DataError(f"all {len(labels)} translations {kind} chrF {chrf_threshold:g}: nothing to tell apart; "
                        "give another --chrf-threshold or other sentences")
    ratios = sorted(math.log(r) for r in reference_ratios if r > 0)
    center = ratios[len(ratios) // 2]
    low, high = ratios[int(0.005 * (len(ratios) - 1))], ratios[int(0.995 * (len(ratios) - 1))]
    length_range = (math.exp(low) / 1.25, math.exp(high) * 1.25)
    x = torch.tensor([f.inputs(center, length_range) for f in features], dtype=torch.float64)  # [N, F]
    y = torch.tensor(labels, dtype=torch.float64)
    w = torch.ones(len(labels), dtype=torch.float64) if weight is None else torch.tensor(weight, dtype=torch.float64)
    unlikely = torch.tensor([f.min_log_prob < UNLIKELY_PIECE for f in features])
    if all(int(side.sum()) >= MIN_SIDE and 0 < float(y[side].mean()) < 1 for side in (unlikely, ~unlikely)):
        regressions = regression(x[~unlikely], y[~unlikely], w[~unlikely]), regression(x[unlikely], y[unlikely],
                                                                                        w[unlikely])
    else:
        regressions = regression(x, y, w), None
    fitted_on = fitted_on or {"own": len(features)}
    return Calibration(model_sha256, *regressions, center, length_range, chrf_threshold,
                       sentences=fitted_on.get("own", len(features)), fitted_on=fitted_on)


def regression(x: torch.Tensor, y: torch.Tensor, weight: torch.Tensor) -> Regression:
    """The Regression of labels y [N] on inputs x [N, F], standardised by their mean and deviation."""
    means, scales = x.mean(dim=0), x.std(dim=0).clamp(min=1e-6)
    weights, bias = logistic_fit((x - means) / scales, y, weight=weight)
    return Regression(weights.tolist(), bias, means.tolist(), scales.tolist())


def too_few(count: int) -> None:
    if count < MIN_SENTENCES:
        raise DataError(f"{count} sentences to calibrate on; quality needs at least {MIN_SENTENCES} "
                        "(give a larger --src/--ref pair)")


@dataclass
class Reliability:
    """Predicted against observed, bin by bin, and the expected calibration error (ECE)."""

    rows: list[tuple[float, float, int, float, float]]  # (low, high, sentences, mean quality, share acceptable)
    ece: float

    def table(self) -> str:
        lines = ["quality bin   sentences  mean quality  acceptable"]
        lines += [f"{lo:.1f}-{hi:.1f}     {n:9d}  {q:12.3f}  {a:10.3f}" for lo, hi, n, q, a in self.rows]
        lines.append(f"expected calibration error (ECE): {self.ece:.3f}")
        return "\n".join(lines)


def reliability(qualities: Sequence[float], labels: Sequence[float], bins: int = BINS) -> Reliability:
    """Qualities in ``bins`` equal-width bins: each bin's mean quality against its share of
    acceptable translations; ECE is their gap weighted by the bin's share of sentences."""
    rows, ece, n = [], 0.0, len(qualities)
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [k for k, q in enumerate(qualities) if lo <= q < hi or (b == bins - 1 and q == 1.0)]
        if not inside:
            continue
        mean_q = sum(qualities[k] for k in inside) / len(inside)
        share = sum(labels[k] for k in inside) / len(inside)
        rows.append((lo, hi, len(inside), mean_q, share))
        ece += len(inside) / n * abs(mean_q - share)
    return Reliability(rows, ece)



@dataclass
class FitReport:
    """How a calibration fits its own validation set: the reliability on the model's own
    translations, and the share of the references it would flag low_quality."""

    own: Reliability
    references_low: float

    @property
    def ece(self) -> float:
        return self.own.ece

    def table(self) -> str:
        return (f"the model's own translations:\n{self.own.table()}\n"
                f"references under the low_quality threshold: {100 * self.references_low:.1f} %")


@dataclass
class FitSet:
    """The texts a calibration is fitted on: each with its source, its reference, its group (GROUPS)."""

    sources: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)

    def add(self, group: str, sources: Sequence[str], texts: Sequence[str], references: Sequence[str]) -> None:
        self.sources += sources
        self.texts += texts
        self.references += references
        self.groups += [group] * len(texts)

    def weights(self) -> list[float]:
        """Each text's weight: its group's (GROUPS) times own translations / texts of the group,
        so a group weighs the same however many texts it holds."""
        counts = {g: self.groups.count(g) for g in GROUPS}
        return [GROUPS[g] * counts["own"] / counts[g] for g in self.groups]


def fit_set(sources: Sequence[str], translations: Sequence[str], references: Sequence[str]) -> FitSet:
    """The own translations, the references, and the noised versions of both (attnmt.decoding.noising)."""
    found = FitSet()
    found.add("own", sources, translations, references)
    found.add("references", sources, references, references)
    for group, texts in (("noised own", translations), ("noised references", references)):
        made = noised(sources, texts)
        found.add(group, [sources[i] for i, _ in made], [t for _, t in made], [references[i] for i, _ in made])
    return found


def calibrate(model: Transformer, tokenizer: TextCodec, model_dir: Path, sources: Sequence[str],
              references: Sequence[str], decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS,
              chrf_threshold: float = CHRF_THRESHOLD) -> tuple[Calibration, FitReport]:
    """Translates ``sources``, labels each translation, each reference and each noised version of
    either by its chrF against ``references``, fits a Calibration for the weights in ``model_dir``,
    and measures it on the same sentences (the benchmark measures it on others).  Pairs with a
    blank side are left out."""
    if len(sources) != len(references):
        raise DataError(f"{len(sources)} source sentences but {len(references)} references: give one a line")
    pairs = [(s, r) for s, r in zip(sources, references, strict=True) if s.strip() and r.strip()]
    too_few(len(pairs))  # before translating them
    texts, refs = [s for s, _ in pairs], [r for _, r in pairs]
    fits = fit_set(texts, translate(model, tokenizer, texts, decoding, max_tokens), refs)
    assessed = assess(model, tokenizer, fits.sources, fits.texts, max_tokens=max_tokens)
    kept = [k for k, a in enumerate(assessed) if a is not None]
    features = [assessed[k].features for k in kept]
    labels = chrf_labels([fits.texts[k] for k in kept], [fits.references[k] for k in kept], chrf_threshold)
    groups = [fits.groups[k] for k in kept]
    weights = fits.weights()
    ratios = [len(tokenizer.encode_target(r)) / max(1, len(tokenizer.encode(s)) - tokenizer.source_eos)
              for s, r in pairs]
    calibration = fit_calibration(features, labels, ratios, fingerprint(model_dir), chrf_threshold,
                                  [weights[k] for k in kept], {g: groups.count(g) for g in GROUPS})
    qualities = [calibration.quality(f) for f in features]
    own = [k for k, g in enumerate(groups) if g == "own"]
    on_references = [qualities[k] for k, g in enumerate(groups) if g == "references"]
    return calibration, FitReport(reliability([qualities[k] for k in own], [labels[k] for k in own]),
                                  sum(q < calibration.threshold for q in on_references) / max(1, len(on_references)))


def calibrate_run(model_dir: Path, src: str, ref: str, say: Callable[[str], None]) -> None:
    """The end of a training run: calibrates the model in ``model_dir`` on its validation set, or says
    why it stays uncalibrated (too few sentences, labels all one way); never stops the run."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.text.data import read_lines

    try:
        model, tokenizer = load_model_dir(model_dir)
        calibration, table = calibrate(model, tokenizer, Path(model_dir), read_lines(src), read_lines(ref))
    except (UserError, OSError) as error:  # too few sentences, labels all one way, a validation file gone
        say(f"quality not calibrated ({error}); attnmt calibrate --model {model_dir} --src F --ref F does it later")
        return
    path = save_calibration(calibration, Path(model_dir))
    say(f"quality calibrated on {calibration.sentences} sentences of {src}: ECE {table.ece:.3f}; {path}")
