"""Experiment: a second quality fit for texts the model did not write, with its own translation as
a pseudo-reference (issue 43), against one fit for every text, on the quality benchmark's held-out
half.  Its "+shape" variant is what attnmt.decoding.elsewhere does (``attnmt score``).

    PYTHONPATH=src python benchmarks/experiments/quality_pseudo_reference.py --model <a copy of a model dir>

Splits as benchmarks/quality.py: the validation set's first half fits, the second half is held
out.  "main": every text scored by the fit on the model's own beam translations.  "pseudo-ref":
a text equal to the model's own translation (same target pieces) keeps that fit's quality; any
other text gets a second logistic regression ("other texts") whose inputs compare it with the
model's own translation: chrF against it, the forced mean/min log-prob gap, the length gap, EOS,
unread source words, the rule flags.  That regression is fitted on the fitting half's
references (acceptable), the beam's other hypotheses, and noised references and own
translations (attnmt.decoding.noising, edits unlike the benchmark's), each
labelled by its sentence chrF against the reference.  The features of every text are computed
once and cached (--cache), so variants of the fit (VARIANTS) are cheap.

Variants: "oracle" is no fit but each other text's own label (1 where its chrF against the
reference reaches 50, else 0): the figures a perfectly calibrated and sharp P(acceptable) would
get, since many of the benchmark's broken texts are acceptable by that label.  "rule caps": where
a rule that marks a broken text fires (copied, repetition, untranslated, length), quality is at
most the own fit's; "hinges": inputs that bend where chrF against the own translation falls
under 35 and 50, and where the log-prob gap falls under -2 and -3, the noised references left
out and each reference counted twice; "envelope": a text under the fitting half's references'
0.5th percentile in log-prob gap, chrF against the own translation, EOS or least piece
log-prob is capped like a broken one; "shape": also the signed length gap to the own
translation, and hinges in unread words, the least-log-prob gap and EOS; "overlap": also the
word precision and recall against the own translation (a text cut from it: precision 1, recall
low) and precision x (1 - recall); "power 2": the +shape quality squared, lower than
calibrated, to show the trade between references flagged and AUROC.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

from attnmt.decoding import Decoding
from attnmt.decoding.calibration import Calibration, fingerprint, fit_calibration
from attnmt.decoding.fitting import L2, newton_fit, reliability
from attnmt.decoding.noising import noised
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_features import COPIED_SHARE, Features
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "benchmarks" / "experiments")]
from quality import KINDS, VAL_REF, VAL_SRC, auroc, broken, spearman  # noqa: E402


@dataclass
class Text:
    """One scored text of one sentence: which sentence, its group, its Features, chrF against the
    reference and against the model's own translation, and whether it is that translation."""

    i: int
    group: str
    text: str
    features: Features
    chrf_ref: float
    chrf_own: float
    is_own: bool


def collect(args) -> dict:
    from attnmt.checkpoint import load_model_dir

    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    sources, references = read_lines(args.src), read_lines(args.ref)
    half = len(sources) // 2
    decoding = Decoding(beam_size=args.beam)
    own = translate(model, tokenizer, sources, decoding)
    n_best = translate_n_best(model, tokenizer, sources[:half], Decoding(beam_size=args.beam, n_best=args.beam))
    ids = tokenizer.encode_target
    todo: list[tuple[int, str, str]] = []  # (sentence, group, text)
    for i in range(len(sources)):
        todo += [(i, "own", own[i]), (i, "references", references[i])]
    for i in range(half):
        todo += [(i, "other hypotheses", h.text) for h in n_best[i][1:] if ids(h.text) != ids(own[i])]
    for group, texts in (("noised references", references[:half]), ("noised own", own[:half])):
        todo += [(i, group, t) for i, t, _ in noised(sources[:half], texts)]
    held = range(half, len(sources))
    for name, texts in (("references", references), ("own", own)):
        for kind in KINDS:
            todo += [(i, f"{name}/{kind}", broken(kind, sources[i], texts[i],
                                                 texts[half + (i - half + 1) % (len(sources) - half)]))
                     for i in held]
    found = assess(model, tokenizer, [sources[i] for i, _, _ in todo], [t for _, _, t in todo])
    chrf = CHRF()
    texts = [Text(i, group, t, a.features, chrf.sentence_score(t, [references[i]]).score,
                  chrf.sentence_score(t, [own[i]]).score, ids(t) == ids(own[i]))
             for (i, group, t), a in zip(todo, found, strict=True) if a is not None]
    ratios = [len(ids(r)) / max(1, len(tokenizer.encode(s)) - tokenizer.source_eos)
              for s, r in zip(sources[:half], references[:half], strict=True)]
    return {"half": half, "n": len(sources), "texts": texts, "ratios": ratios, "sha": fingerprint(Path(args.model))}


@dataclass(frozen=True)
class Variant:
    """How the fit for other texts is made and applied."""

    hinges: bool = False  # piecewise-linear inputs in chrF to own and the log-prob gap
    noised_references: bool = True  # fit on noised references too
    reference_weight: float = 1.0  # each reference counts this many times in the fit
    rule_caps: bool = False  # a text a rule marks broken gets at most the own fit's quality
    shape: bool = False  # signed length gap to the own translation, hinges in unread and the least log-prob gap
    oracle: bool = False  # not a fit: each other text's own label (chrF against the reference >= 50), 1 or 0
    overlap: bool = False  # word precision and recall against the own translation, and their omission product
    power: float = 1.0  # other texts' quality raised to this power: lower, no longer calibrated
    envelope: float | None = None  # percentile of the references' signals under which a text is capped too
    groups: tuple[str, ...] = field(default=("references", "other hypotheses", "noised references", "noised own"))


WIDTH = 20
VARIANTS = {
    "pseudo-ref": Variant(),
    "+rule caps": Variant(rule_caps=True),
    "+hinges,refs x2": Variant(hinges=True, noised_references=False, reference_weight=2.0,
                                            rule_caps=True),
    "+envelope": Variant(hinges=True, noised_references=False, reference_weight=2.0, rule_caps=True,
                               envelope=0.5),
    "+shape": Variant(hinges=True, noised_references=False, reference_weight=2.0, rule_caps=True, envelope=0.5,
                      shape=True),
    "+overlap": Variant(hinges=True, noised_references=False, reference_weight=2.0, rule_caps=True, envelope=0.5,
                        shape=True, overlap=True),
    "+shape, power 2": Variant(hinges=True, noised_references=False, reference_weight=2.0, rule_caps=True,
                               envelope=0.5, shape=True, power=2.0),
    "oracle": Variant(oracle=True),
}


def gap_of(t: Text, own: Text) -> float:
    """The forced mean log-prob of a text less that of the model's own translation."""
    return t.features.mean_log_prob - own.features.mean_log_prob


def relative_inputs(t: Text, own: Text, c: Calibration, variant: Variant) -> list[float]:
    """The inputs of the fit for other texts: ``t`` read against the model's own translation ``own``."""
    f, o, gap, chrf = t.features, own.features, gap_of(t, own), t.chrf_own / 100
    x = [chrf, gap, f.min_log_prob - o.min_log_prob, f.eos_log_prob, f.unread, f.unread - o.unread,
         abs(math.log(f.length_ratio / o.length_ratio)), abs(math.log(f.length_ratio) - c.length_center),
         float(f.loop), float(f.untranslated()), float(not c.length_range[0] <= f.length_ratio <= c.length_range[1]),
         float(f.copied >= COPIED_SHARE and f.words >= 2), f.repeated, f.copied]
    if variant.hinges:
        x += [max(0.0, 0.35 - chrf), max(0.0, -gap - 3.0), max(0.0, 0.5 - chrf), max(0.0, -gap - 2.0)]
    if variant.shape:
        x += [math.log(f.length_ratio / o.length_ratio), max(0.0, f.unread - 0.1),
              max(0.0, o.min_log_prob - f.min_log_prob - 5.0), max(0.0, -0.5 - f.eos_log_prob)]
    if variant.overlap:
        precision, recall = word_overlap(t.text, own.text)
        x += [precision, recall, precision * (1 - recall)]
    return x


def word_overlap(text: str, own: str) -> tuple[float, float]:
    """(share of the text's words that the own translation has, share of the own translation's words the
    text has), each word counted as often as it occurs: a text cut from the own translation has
    precision 1 and a low recall."""
    a, b = Counter(text.lower().split()), Counter(own.lower().split())
    common = sum((a & b).values())
    return common / max(1, sum(a.values())), common / max(1, sum(b.values()))


def envelope_signals(t: Text, own: Text) -> list[float]:
    return [gap_of(t, own), t.chrf_own, t.features.eos_log_prob, t.features.min_log_prob]


def broken_by_rules(f: Features, c: Calibration) -> bool:
    """A rule that marks a broken text fires: copied, repetition, untranslated or length."""
    return (f.loop or f.untranslated() or not c.length_range[0] <= f.length_ratio <= c.length_range[1]
            or (f.copied >= COPIED_SHARE and f.words >= 2))


def scorer(data: dict, variant: Variant):
    """(the own fit, quality(text, regime)) fitted on the fitting half: regime "main" scores every
    text with the own fit, "new" only the model's own translation."""
    half, texts = data["half"], data["texts"]
    own = {t.i: t for t in texts if t.group == "own"}
    fitting = [t for t in texts if t.i < half and t.group == "own"]
    calibration = fit_calibration([t.features for t in fitting], [t.chrf_ref for t in fitting],
                                  data["ratios"], data["sha"])
    groups = [g for g in variant.groups if variant.noised_references or g != "noised references"]
    train = [t for t in texts if t.i < half and t.group in groups and not t.is_own]
    x = torch.tensor([relative_inputs(t, own[t.i], calibration, variant) for t in train], dtype=torch.float64)
    y = torch.tensor([float(t.chrf_ref >= 50) for t in train], dtype=torch.float64)
    w = torch.tensor([variant.reference_weight if t.group == "references" else 1.0 for t in train],
                     dtype=torch.float64)
    means, scales = x.mean(dim=0), x.std(dim=0).clamp(min=1e-6)
    weights, bias = newton_fit((x - means) / scales, y, L2, 50, w)
    envelope = None
    if variant.envelope is not None:
        signals = [envelope_signals(t, own[t.i]) for t in train if t.group == "references"]
        envelope = np.percentile(np.array(signals), variant.envelope, axis=0).tolist()

    def quality(t: Text, regime: str) -> float:
        if regime == "main" or t.is_own:
            return calibration.quality(t.features)
        if variant.oracle:
            return float(t.chrf_ref >= 50)
        inputs = torch.tensor(relative_inputs(t, own[t.i], calibration, variant), dtype=torch.float64)
        z = bias + float(((inputs - means) / scales) @ weights)
        p = 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
        outside = envelope is not None and any(v < e for v, e in zip(envelope_signals(t, own[t.i]), envelope,
                                                                     strict=True))
        if variant.rule_caps and (broken_by_rules(t.features, calibration) or outside):
            p = min(p, calibration.quality(t.features))
        return p ** variant.power

    return calibration, quality


def evaluate(data: dict, variant: Variant) -> dict:
    """The benchmark's figures on the held-out half, for main and for ``variant``."""
    calibration, quality = scorer(data, variant)
    held = [t for t in data["texts"] if t.i >= data["half"]]
    out = {}
    for regime in ("main", "new"):
        q = {id(t): quality(t, regime) for t in held}
        goods = {name: [t for t in held if t.group == name] for name in ("references", "own")}
        row = {"spearman": spearman([q[id(t)] for t in goods["own"]], [t.chrf_ref for t in goods["own"]]),
               "ECE own": reliability([q[id(t)] for t in goods["own"]],
                                      [float(t.chrf_ref >= 50) for t in goods["own"]]).ece,
               **{f"{name} low_quality": sum(q[id(t)] < calibration.threshold for t in good) / len(good)
                  for name, good in goods.items()}}
        all_good = [q[id(t)] for good in goods.values() for t in good]
        all_bad, not_own, unacceptable = [], [(q[id(t)], 1.0) for t in goods["references"]], []
        below: dict[str, float] = {}
        for name, good in goods.items():
            for kind in KINDS:
                bad = [t for t in held if t.group == f"{name}/{kind}"]
                row[f"{name}/{kind}"] = auroc([q[id(t)] for t in good], [q[id(t)] for t in bad])
                all_bad += [q[id(t)] for t in bad]
                unacceptable += [q[id(t)] for t in bad if t.chrf_ref < 50]
                under = [q[id(t)] for t in bad if t.chrf_ref < 50]
                below[f"{name}/{kind}, under chrF 50"] = (auroc([q[id(t)] for t in good], under) if under
                                                          else float("nan"))
                not_own += [(q[id(t)], float(t.chrf_ref >= 50)) for t in bad]
        row["AUROC overall"] = auroc(all_good, all_bad)
        row["AUROC, broken under chrF 50"] = auroc(all_good, unacceptable)
        row["ECE not own"] = reliability([a for a, _ in not_own], [b for _, b in not_own]).ece
        row.update(below)
        out[regime] = row
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True)
    p.add_argument("--src", default=str(VAL_SRC))
    p.add_argument("--ref", default=str(VAL_REF))
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--cache", default="/tmp/quality_pseudo_reference.pkl", help="features of every text, reused")
    args = p.parse_args()
    cache = Path(args.cache)
    if cache.exists():
        data = pickle.loads(cache.read_bytes())
    else:
        data = collect(args)
        cache.write_bytes(pickle.dumps(data))
    results = {name: evaluate(data, v) for name, v in VARIANTS.items()}
    first = next(iter(results.values()))["main"]
    print(f"fitting half {data['half']} sentences, held out {data['n'] - data['half']}; "
          f"fitted on: {', '.join(f'{g} {n}' for g, n in counts(data).items())}")
    print(f"{'held out':<42}{'main':>8}" + "".join(f"{name:>{WIDTH}}" for name in results))
    for name in first:
        print(f"{name:<42}{first[name]:8.3f}" + "".join(f"{r['new'][name]:{WIDTH}.3f}" for r in results.values()))


def counts(data: dict) -> dict[str, int]:
    found: dict[str, int] = {}
    for t in data["texts"]:
        if t.i < data["half"] and not t.is_own:
            found[t.group] = found.get(t.group, 0) + 1
    return found


if __name__ == "__main__":
    main()
