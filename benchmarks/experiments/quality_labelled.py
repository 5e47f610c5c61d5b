"""Precision and recall of each quality flag, and the calibration of the quality itself, on labelled pairs: good
translations (Multi30k test_2016_flickr references, which no calibration saw, and the hand-written held-out pairs of
benchmarks/experiments/quality_heldout/) and broken ones, the held-out broken pairs and the test references broken
in the ways an engine breaks them (a phrase dropped, a short phrase added, a number changed, the source copied, the
second half cut).  Each pair is scored as ``attnmt score`` scores a translation written elsewhere
(attnmt.decoding.elsewhere, the model directory's quality.json, the languages en and de).

    .venv/bin/python benchmarks/experiments/quality_labelled.py MODEL_DIR [--limit 300] [--show KIND]

A flag's precision: the share of the pairs it flags that are broken (of any kind); its recall: the share of the
broken pairs of the kinds it is for (TARGETS) that it flags; its false alarms: the share of good pairs it flags.
The quality's calibration: good is acceptable (1), broken is not (0); the reliability table, ECE, Brier score and
AUROC over all pairs.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

import torch
from quality_broken import scored  # this folder is on the path when the script runs

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.fitting import reliability
from attnmt.decoding.quality import EMPTY, FLAGS
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "multi30k"
HELD_OUT = Path(__file__).resolve().parent / "quality_heldout"
# The kinds of broken pair each flag is for; a flag on a broken pair of another kind still counts as precise.
TARGETS = {
    "untranslated": ("phrase dropped", "second half cut", "part dropped", "cut off"),
    "added": ("phrase added", "hallucinated addition"),
    "verbatim": ("number changed", "date dropped"),
    "copied": ("source copied", "untranslated fragment"),
    "low_quality": (),  # every broken kind
}
PREPOSITIONS = frozenset("in im auf mit an am neben vor hinter unter über bei beim zu zum zur durch für nach von vom "
                         "aus gegen um".split())
# Short phrases a translation adds that its source does not say, each plain German that fits after most captions.
ADDITIONS = ("im Regen", "mit seinem Hund", "und lacht dabei", "in der Stadt", "neben einem roten Auto",
             "vor einem Café", "mit einem Freund", "und trinkt Kaffee")
NUMBERS = {"zwei": "drei", "drei": "vier", "vier": "fünf", "fünf": "sechs", "sechs": "sieben", "zehn": "elf"}
NUMBER = re.compile(r"\b(" + "|".join(NUMBERS) + r")\b", re.IGNORECASE)


def phrase_dropped(source: str, good: str, k: int) -> str | None:
    """The reference without its last phrase that starts with a preposition (2 to 6 words, up to a comma or its
    end), where 3 words or more are left: "Ein Mann sitzt auf einer Bank im Park." as "Ein Mann sitzt auf einer
    Bank."."""
    words = good.rstrip(".!").split()
    for start in range(len(words) - 2, 2, -1):
        if words[start].lower() in PREPOSITIONS:
            end = next((j + 1 for j in range(start, len(words)) if words[j].endswith(",")), len(words))
            if 2 <= end - start <= 6:
                kept = [*words[:start], *words[end:]]
                return " ".join(kept).rstrip(",") + "." if len(kept) >= 3 else None
    return None


def phrase_added(source: str, good: str, k: int) -> str | None:
    """The reference with a short phrase of ADDITIONS added before its full stop."""
    phrase = ADDITIONS[k % len(ADDITIONS)]
    words = set(source.lower().split())
    return f"{good.rstrip('.!')} {phrase}." if not words & {"rain", "dog", "city", "car", "cafe", "friend"} else None


def number_changed(source: str, good: str, k: int) -> str | None:
    if not NUMBER.search(good):
        return None
    return NUMBER.sub(lambda m: NUMBERS[m.group().lower()].capitalize() if m.group()[0].isupper()
                      else NUMBERS[m.group().lower()], good, count=1)


def second_half_cut(source: str, good: str, k: int) -> str | None:
    words = good.rstrip(".!").split()
    return " ".join(words[: len(words) // 2]) + "." if len(words) >= 6 else None


KINDS: dict[str, Callable[[str, str, int], str | None]] = {
    "good": lambda s, g, k: g,
    "phrase dropped": phrase_dropped,
    "phrase added": phrase_added,
    "number changed": number_changed,
    "source copied": lambda s, g, k: s,
    "second half cut": second_half_cut,
}


def labelled_pairs(limit: int) -> list[tuple[str, str, str]]:
    """(kind, source, translation): the test references and their broken copies, then the held-out pairs."""
    src, ref = read_lines(str(DATA / "test_2016_flickr.en.gz")), read_lines(str(DATA / "test_2016_flickr.de.gz"))
    rows = [(kind, s, text) for kind, make in KINDS.items() for k, (s, g) in enumerate(zip(src[:limit], ref[:limit],
                                                                                          strict=True))
            if (text := make(s, g, k)) is not None]
    good = (HELD_OUT / "good_en_de.tsv").read_text("utf-8").splitlines()
    rows += [("good, held-out", *line.split("\t")) for line in good]
    rows += [tuple(line.split("\t")) for line in (HELD_OUT / "broken_en_de.tsv").read_text("utf-8").splitlines()]
    return rows


def auroc(scores: list[float], labels: list[float]) -> float:
    """P(a good pair's quality > a broken one's), ties counted half."""
    good = [s for s, y in zip(scores, labels, strict=True) if y]
    bad = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum((g > b) + 0.5 * (g == b) for g in good for b in bad)
    return wins / max(1, len(good) * len(bad))


def report(rows: list[tuple[str, str, str]], found: list, show: str | None) -> None:
    flags = [set(a.flags) if a else set() for a in found]
    kinds = [kind for kind, _, _ in rows]
    broken = [not kind.startswith("good") for kind in kinds]
    if show:
        for (kind, s, t), f, a in zip(rows, flags, found, strict=True):
            if kind == show:
                print(f"  {a.quality if a else 1:.3f} {sorted(f)} | {s} | {t}")
    print(f"{'kind':24} {'n':>4} {'any':>6} " + " ".join(f"{n[:8]:>8}" for n in (EMPTY, *FLAGS)))
    for kind in dict.fromkeys(kinds):
        mine = [f for f, k in zip(flags, kinds, strict=True) if k == kind]
        print(f"{kind:24} {len(mine):4d} {sum(map(bool, mine)) / len(mine):6.3f} "
              + " ".join(f"{sum(n in f for f in mine) / len(mine):8.3f}" for n in (EMPTY, *FLAGS)))
    print(f"\n{'flag':14} {'precision':>9} {'recall':>7} {'of':>5} {'false alarms':>12}   (good pairs: "
          f"{broken.count(False)}, broken: {sum(broken)})")
    for name in (*FLAGS, "any rule"):
        fired = [bool(f - {"low_quality"}) if name == "any rule" else name in f for f in flags]
        aimed = [b and (not TARGETS.get(name) or k in TARGETS[name]) for b, k in zip(broken, kinds, strict=True)]
        hits = sum(f and b for f, b in zip(fired, broken, strict=True))
        caught = sum(f and a for f, a in zip(fired, aimed, strict=True))
        false = sum(f and not b for f, b in zip(fired, broken, strict=True))
        print(f"{name:14} {hits / max(1, sum(fired)):9.3f} {caught / max(1, sum(aimed)):7.3f} {sum(aimed):5d} "
              f"{false / broken.count(False):12.3f}")
    qualities = [a.quality if a else 1.0 for a in found]
    labels = [float(not b) for b in broken]
    table = reliability(qualities, labels)
    brier = sum((q - y) ** 2 for q, y in zip(qualities, labels, strict=True)) / len(labels)
    print(f"\nquality against good (1) / broken (0):\n{table.table()}\nBrier {brier:.3f}, AUROC "
          f"{auroc(qualities, labels):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--limit", type=int, default=300, help="test pairs to build from (default 300)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--show", help="print each pair of this kind with its quality and flags")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    rows = labelled_pairs(args.limit)
    sources, translations = [s for _, s, _ in rows], [t for _, _, t in rows]
    found = scored(model, tokenizer, calibration, sources, translations)
    print(f"model {args.model}, {'calibrated' if calibration else 'uncalibrated'}; {len(rows)} pairs")
    report(rows, found, args.show)


if __name__ == "__main__":
    main()
