"""A phrase put first, the verb second: does ``attnmt score`` take the right German order for a wrong one, and does
it still tell broken texts from good ones?  One model, one or more copies of its directory each with its own
quality.json (fitted before and after a change), read on Multi30k's validation and test sets.

    .venv/bin/python benchmarks/experiments/quality_fronted.py MODEL_DIR [COPY ...] --threads 1

For each quality.json and each set:
  own          the model's beam-4 translations, read by the fit for its own translations: AUROC of quality
               against sentence chrF under 50 (and Spearman), the low_quality share;
  references   read as ``attnmt score`` reads them (against the model's translation): the low_quality share;
  fronted      the references and the model's translations with their last prepositional phrase put first and
               the verb second (attnmt.decoding.fronting), where a sentence reads so: the low_quality share and the
               mean quality, beside those of the same lines as they are;
  broken       on the test set alone (validation is what the fits saw): benchmarks/quality.py's six broken kinds
               made from the references and the translations: AUROC against the references and translations as
               they are, the share flagged low_quality, and the share under the quality that flags CLEAN_RATE of
               the references (the same false flags for every fit);
and the hand-written pairs of quality_fronted/pairs.tsv (source, a phrase put first and the verb second, the same
with the verb third, which German does not allow): each one's quality.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.fronting import fronted
from attnmt.decoding.quality import assess
from attnmt.decoding.translate import translate
from attnmt.hardware import cpu_model
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import KINDS, auroc, broken, spearman  # noqa: E402

DATA = Path("/work/shared/data/multi30k")
SETS = {"validation": ("val.en.gz", "val.de.gz"), "test_2016_flickr": ("test_2016_flickr.en.gz",
                                                                         "test_2016_flickr.de.gz")}
PAIRS = Path(__file__).with_suffix("") / "pairs.tsv"
CLEAN_RATE = 0.05


def qualities(found) -> np.ndarray:
    return np.array([a.quality for a in found])


def read_set(model, tokenizer, calibration, src: list[str], ref: list[str], own: list[str],
             with_broken: bool) -> list[str]:
    """The lines of one set's report for one quality.json."""
    chrf = CHRF()
    own_chrf = np.array([chrf.sentence_score(t, [r]).score for t, r in zip(own, ref, strict=True)])
    own_q = qualities(assess(model, tokenizer, src, own, calibration))
    ref_q = qualities(assess_elsewhere(model, tokenizer, src, ref, calibration, own=own))
    low = calibration.threshold
    lines = [f"  own: AUROC quality vs chrF < 50 {auroc(own_q[own_chrf >= 50], own_q[own_chrf < 50]):.3f}, Spearman "
             f"{spearman(own_q, own_chrf):.3f}; low_quality {(own_q < low).mean():.3f}",
             f"  references: low_quality {(ref_q < low).mean():.3f}"]
    for name, texts, as_they_are in (("references", ref, ref_q), ("own", own, own_q)):
        moved = {k: " ".join(f) for k, t in enumerate(texts) if len(t.split()) > 1 and (f := fronted(t.split()))}
        keys = sorted(moved)
        q = qualities(assess_elsewhere(model, tokenizer, [src[k] for k in keys], [moved[k] for k in keys],
                                       calibration, own=[own[k] for k in keys]))
        before = as_they_are[keys]
        lines.append(f"  {name} with a phrase put first ({len(keys)} lines): low_quality {(q < low).mean():.3f}, mean "
                     f"quality {q.mean():.3f}; the same lines as they are: {(before < low).mean():.3f}, "
                     f"{before.mean():.3f}")
    return lines + (read_broken(model, tokenizer, calibration, src, ref, own, ref_q, own_q) if with_broken else [])


def read_broken(model, tokenizer, calibration, src: list[str], ref: list[str], own: list[str], ref_q: np.ndarray,
                own_q: np.ndarray) -> list[str]:
    low, lines = calibration.threshold, []
    cut = float(np.quantile(ref_q, CLEAN_RATE))
    good, bad = np.concatenate([ref_q, own_q]), []
    for name, texts in (("references", ref), ("own", own)):
        for kind in KINDS:
            made = [broken(kind, s, t, texts[(k + 1) % len(texts)]) for k, (s, t) in enumerate(zip(src, texts,
                                                                                                strict=True))]
            q = qualities(assess_elsewhere(model, tokenizer, src, made, calibration, own=own))
            bad.append(q)
            lines.append(f"    broken {name:<10} {kind:<20} AUROC {auroc(good, q):.3f}  low_quality "
                         f"{(q < low).mean():.3f}  under the {100 * CLEAN_RATE:g} % cut {(q < cut).mean():.3f}")
    every = np.concatenate(bad)
    lines.append(f"  broken, all: AUROC {auroc(good, every):.3f}, low_quality {(every < low).mean():.3f}; under the "
                 f"quality that flags {100 * CLEAN_RATE:g} % of the references ({cut:.3f}): {(every < cut).mean():.3f}")
    return lines


def read_pairs_file(model, tokenizer, calibration) -> list[str]:
    rows = [line.split("\t") for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    src = [r[0] for r in rows]
    own = translate(model, tokenizer, src, Decoding(beam_size=4))
    v2 = qualities(assess_elsewhere(model, tokenizer, src, [r[1] for r in rows], calibration, own=own))
    v3 = qualities(assess_elsewhere(model, tokenizer, src, [r[2] for r in rows], calibration, own=own))
    low = calibration.threshold
    lines = [f"  {PAIRS.name}: verb second: low_quality {(v2 < low).mean():.3f} (mean {v2.mean():.3f}); verb third "
             f"(wrong): {(v3 < low).mean():.3f} (mean {v3.mean():.3f})"]
    lines += [f"    {a:.3f} {b:.3f}  {r[1]}  |  {t}" for a, b, r, t in zip(v2, v3, rows, own, strict=True)]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", help="copies of one model's directory, each with its quality.json")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--lines", type=int, help="read only the first N lines of each set (a quick look)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.models[0])
    print(f"CPU {cpu_model()}, {args.threads} thread(s); beam 4")
    sets = {}
    for name, (en, de) in SETS.items():
        src, ref = read_lines(str(DATA / en))[: args.lines], read_lines(str(DATA / de))[: args.lines]
        sets[name] = (src, ref, translate(model, tokenizer, src, Decoding(beam_size=4)))
    for directory in args.models:
        calibration = load_calibration(Path(directory))
        print(f"{directory}: quality.json fitted on {calibration.sentences} sentences", flush=True)
        for name, (src, ref, own) in sets.items():
            print(f" {name} ({len(src)} sentences)")
            print("\n".join(read_set(model, tokenizer, calibration, src, ref, own, name != "validation")), flush=True)
        print("\n".join(read_pairs_file(model, tokenizer, calibration)), flush=True)


if __name__ == "__main__":
    main()
