"""How far the length ratio, the coverage and the full stop's probability could catch a translation cut after a
noun and closed with a full stop (quality_broken.cut_after_noun: "Ein Mann ... steht auf einer Leiter." for "... on
a ladder and cleaning a window."), which no article or comma gives away, each read as ``attnmt score`` reads a
translation: the references of Multi30k's validation set and each cut one, the flags they get, and, for the cut
ones with no flag, how many each measure would catch at a threshold that the given quantile of the references
falls under (in-sample: the thresholds are read off the same references).

    .venv/bin/python benchmarks/experiments/quality_cut_after_noun.py MODEL_DIR [--limit 400] [--threads 1]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from quality_broken import DATA, cut_after_noun

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.forced import forced_passes
from attnmt.decoding.inputs import cut
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.translate import translate
from attnmt.text.data import read_lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    src, ref = read_lines(str(DATA / "val.en.gz"))[: args.limit], read_lines(str(DATA / "val.de.gz"))[: args.limit]
    pairs = [(s, r, False) for s, r in zip(src, ref, strict=True)]
    pairs += [(s, c, True) for s, r in zip(src, ref, strict=True) if (c := cut_after_noun(s, r, ""))]
    sources, translations = [s for s, _, _ in pairs], [t for _, t, _ in pairs]
    decoding = Decoding(beam_size=4)
    own = dict(zip(src, translate(model, tokenizer, src, decoding), strict=True))
    found = assess_elsewhere(model, tokenizer, sources, translations, load_calibration(Path(args.model)), decoding,
                             own=[own[s] for s in sources], languages=Languages("en", "de"))
    source_ids = [cut(tokenizer.encode(s), model.config.longest_input, tokenizer.source_eos) for s in sources]
    with torch.inference_mode():  # the last piece's log-prob (the full stop's), EOS's being after it
        stop = dict((i, p.log_probs[-2]) for i, p in forced_passes(model, source_ids, [tokenizer.encode_target(t)
                                                                                      for t in translations], 4000))
    rows = [(cut_one, stop[i], a.features.length_ratio, a.features.coverage, bool(a.flags),
             bool(set(a.flags) - {"low_quality"}))
            for i, ((_, _, cut_one), a) in enumerate(zip(pairs, found, strict=True))]
    for cut_one, name in ((False, "references"), (True, "cut after a noun")):
        mine = [r for r in rows if r[0] == cut_one]
        print(f"{name:17} n={len(mine):4} any flag {sum(r[4] for r in mine):4}  a rule's {sum(r[5] for r in mine):4}")
    references, missed = [r for r in rows if not r[0]], [r for r in rows if r[0] and not r[4]]
    for quantile in (0.005, 0.01, 0.02):
        limits = [sorted(r[j] for r in references)[int(quantile * len(references))] for j in (1, 2, 3)]
        caught = [[r[j] < limit for j, limit in zip((1, 2, 3), limits, strict=True)] for r in missed]
        wrong = sum(any(r[j] < limit for j, limit in zip((1, 2, 3), limits, strict=True)) for r in references)
        print(f"quantile {quantile}: stop < {limits[0]:.2f} {sum(c[0] for c in caught)}, length < {limits[1]:.3f} "
              f"{sum(c[1] for c in caught)}, coverage < {limits[2]:.3f} {sum(c[2] for c in caught)}, any "
              f"{sum(map(any, caught))} of the {len(missed)} cut ones with no flag; references under any {wrong}")


if __name__ == "__main__":
    main()
