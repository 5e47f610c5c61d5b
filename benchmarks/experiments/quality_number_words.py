"""The verbatim rule on numbers in words, no model needed: Multi30k's validation and test references (en-de)
as they are (both ways: the rule must flag none en-de) and with a number word dropped or changed as
quality_broken.py drops or changes it ("Zwei Männer" as "Männer", as "Drei Männer").

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/quality_number_words.py [DATA_DIR]
"""

import gzip
import sys
from pathlib import Path

from quality_broken import number_changed, number_dropped

from attnmt.decoding.verbatim import differs

DATA = Path(sys.argv[1] if len(sys.argv) > 1 else "data/multi30k")


def read(name: str) -> list[str]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines]


for name in ("val", "test_2016_flickr"):
    pairs = list(zip(read(name + ".en.gz"), read(name + ".de.gz"), strict=True))
    clean = sum(differs(s, r, "de") for s, r in pairs)
    clean_back = sum(differs(r, s, "en") for s, r in pairs)
    for kind, make in (("number dropped", number_dropped), ("number changed", number_changed)):
        broken = [(s, b) for s, r in pairs if (b := make(s, r, "")) is not None]
        caught = sum(differs(s, b, "de") for s, b in broken)
        print(f"{name:17} {kind:15} n={len(broken):4} verbatim {caught / len(broken):.3f}")
    print(f"{name:17} references      n={len(pairs):4} verbatim en->de {clean}  de->en {clean_back}")
