"""What a glossary or a prefix does to the quality of the translations it guides: Multi30k validation
sentences (en-de) that hold one or two of a glossary's terms (nouns given a target other than the
model's usual one, names kept as written, terms of several words), each translated as ``attnmt
translate`` translates it (beam 4, the model directory's quality.json, the languages en and de) without
the glossary and with it; then the first sentences again, each with the first three words of its
reference as a prefix, as a translator who typed them would give it.  For each: the translations' mean
quality, the share of them that are acceptable (sentence chrF against the reference at least the
calibration's CHRF_THRESHOLD: what the quality estimates the probability of), their mean chrF, how many
are flagged low_quality (and how many of those are acceptable: --min-quality would turn them down) and
by each rule.

    .venv/bin/python benchmarks/experiments/quality_glossary.py MODEL_DIR [--threads 1] [--prefixed 60]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import sacrebleu
import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import CHRF_THRESHOLD, load_calibration
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.quality import Assessor
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.translate import translate_n_best
from attnmt.text.data import read_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "multi30k"
TERMS = {  # nouns with another target than the model's usual one
    "truck": "Laster", "couch": "Sofa", "life jacket": "Rettungsweste", "tank top": "Trägershirt",
    "mountain bike": "Mountainbike", "baseball bat": "Baseballschläger", "parking lot": "Parkplatz",
    "snowmobile": "Schneemobil", "violin": "Violine", "helmet": "Schutzhelm", "bicycle": "Velo",
    "sidewalk": "Trottoir", "backpack": "Rucksack", "microphone": "Mikrofon", "sunglasses": "Sonnenbrille",
    "police officer": "Polizeibeamter", "cowboy hat": "Cowboyhut", "skateboard": "Skateboard",
    "German Shepherd": "Deutscher Schäferhund", "Salvation Army": "Heilsarmee", "Antarctica": "Antarktis",
    # names kept as written
    "New York City": "New York City", "Giants": "Giants", "Frisbee": "Frisbee", "Mike Tyson": "Mike Tyson",
    "Trader Joe": "Trader Joe", "Mardi Gras": "Mardi Gras", "Jenga": "Jenga", "Spiderman": "Spiderman",
    "Labrador": "Labrador", "Bali": "Bali", "Jeep": "Jeep", "California": "California",
}


def summary(name: str, found: list, references: list[str]) -> str:
    best = [hypotheses[0] for hypotheses in found]
    flags = Counter(flag for t in best for flag in t.flags)
    rules = sum(bool(set(t.flags) - {"low_quality"}) for t in best)
    chrf = [sacrebleu.sentence_chrf(t.text, [r]).score for t, r in zip(best, references, strict=True)]
    good = [c >= CHRF_THRESHOLD for c in chrf]
    turned_down = sum("low_quality" in t.flags for t, g in zip(best, good, strict=True) if g)
    return (f"{name:22} n {len(best):4d}  quality {sum(t.quality for t in best) / len(best):.3f}  "
            f"acceptable {sum(good) / len(best):.3f}  chrF {sum(chrf) / len(best):5.1f}  "
            f"low_quality {flags['low_quality']:3d} (acceptable {turned_down:3d})  any rule {rules:3d}  "
            f"rules {dict(sorted((k, v) for k, v in flags.items() if k != 'low_quality'))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--src", default=str(DATA / "val.en.gz"))
    parser.add_argument("--ref", default=str(DATA / "val.de.gz"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--prefixed", type=int, default=60, help="sentences translated with a prefix")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    quality = Assessor(load_calibration(Path(args.model)), languages=Languages("en", "de"))
    glossary = Glossary.of(TERMS)
    pairs = [(s, r) for s, r in zip(read_lines(args.src), read_lines(args.ref), strict=True)
             if 1 <= len(glossary.matches(s)) <= 2]
    sources, references = [s for s, _ in pairs], [r for _, r in pairs]
    decoding = Decoding(beam_size=4)
    print(f"model {args.model}; {len(sources)} sentences of {args.src} with 1 or 2 of {len(TERMS)} glossary terms")
    print(summary("without the glossary", translate_n_best(model, tokenizer, sources, decoding, quality=quality),
                  references))
    guided = translate_n_best(model, tokenizer, sources, decoding, glossary=glossary, quality=quality)
    print(summary("with the glossary", guided, references))
    for source, [t] in list(zip(sources, guided, strict=True))[:8]:
        print(f"  {t.quality:.3f} {t.flags}  {source}  ->  {t.text}")
    src, ref = read_lines(args.src)[: args.prefixed], read_lines(args.ref)[: args.prefixed]
    prefixes = [" ".join(r.split()[:3]) for r in ref]
    print(f"the first {len(src)} sentences, each with the first three words of its reference as a prefix")
    print(summary("without the prefix", translate_n_best(model, tokenizer, src, decoding, quality=quality), ref))
    print(summary("with the prefix", translate_n_best(model, tokenizer, src, decoding, prefix=prefixes,
                                                      quality=quality), ref))


if __name__ == "__main__":
    main()
