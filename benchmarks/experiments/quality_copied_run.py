"""The copied rule's run of words (attnmt.decoding.quality_measures.copied_run), no model needed: Multi30k's
validation and test references (en-de) as they are, both ways (the rule must flag none), and with their last
half or third of words replaced by the source's last half or third (a translation that leaves an English tail).

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/quality_copied_run.py [DATA_DIR]
"""

import gzip
import sys
from pathlib import Path

from attnmt.decoding.quality_measures import copied_run

DATA = Path(sys.argv[1] if len(sys.argv) > 1 else "data/multi30k")


def read(name: str) -> list[str]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines]


def with_tail(source: str, reference: str, share: float) -> str:
    """``reference``'s words but its last ``share``, then ``source``'s last ``share`` of words."""
    ours, theirs = source.split(), reference.split()
    return " ".join(theirs[: round(len(theirs) * (1 - share))] + ours[round(len(ours) * (1 - share)):])


for name in ("val", "test_2016_flickr", "train"):
    pairs = list(zip(read(name + ".en.gz"), read(name + ".de.gz"), strict=True))
    clean = sum(copied_run(s, r) for s, r in pairs), sum(copied_run(r, s) for s, r in pairs)
    print(f"{name:17} references      n={len(pairs):5} copied_run en->de {clean[0]}  de->en {clean[1]}")
    if name == "train":
        continue
    for share, kind in ((1 / 2, "English half"), (1 / 3, "English third")):
        caught = sum(copied_run(s, with_tail(s, r, share)) for s, r in pairs)
        print(f"{name:17} {kind:15} n={len(pairs):5} copied_run {caught / len(pairs):.3f}")
