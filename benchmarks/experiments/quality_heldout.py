"""Which flags ``attnmt score`` raises on held-out translations from other domains than Multi30k's captions (news,
software, travel): good ones, and broken ones of the kinds a real engine writes (a number changed, a negation
lost, a part dropped, the wrong person, an addition, an untranslated fragment, a name changed, a cut).

    .venv/bin/python benchmarks/experiments/quality_heldout.py MODEL_DIR [--show]

The pairs (benchmarks/experiments/quality_heldout/: good_en_de.tsv a source and its translation a line,
broken_en_de.tsv a kind, a source and a broken translation) were written by hand, the German with care; each
file is scored by ``attnmt score --threads 1`` as a user runs it, and each kind's share of lines with any flag,
with a rule's flag (not low_quality) and with each flag is printed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

PAIRS = Path(__file__).resolve().parent / "quality_heldout"
SHOWN = ("copied", "untranslated", "added", "length", "verbatim", "name", "negation", "person", "punctuation",
         "low_quality")


def scored(model_dir: str, sources: list[str], translations: list[str]) -> list[list[str]]:
    """Each translation's flags, as ``attnmt score`` writes them."""
    with tempfile.TemporaryDirectory() as folder:
        src, hyp, out = (Path(folder) / name for name in ("s.en", "h.de", "o.jsonl"))
        src.write_text("\n".join(sources) + "\n", encoding="utf-8")
        hyp.write_text("\n".join(translations) + "\n", encoding="utf-8")
        subprocess.run([sys.executable, "-m", "attnmt", "score", "--model", model_dir, "--src", str(src), "--hyp",
                        str(hyp), "--output", str(out), "--threads", "1"], check=True)
        return [json.loads(line)["flags"] for line in out.read_text(encoding="utf-8").splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--show", action="store_true", help="print each line with its flags")
    args = parser.parse_args()
    rows = [("good", *line.split("\t")) for line in (PAIRS / "good_en_de.tsv").read_text("utf-8").splitlines()]
    rows += [tuple(line.split("\t")) for line in (PAIRS / "broken_en_de.tsv").read_text("utf-8").splitlines()]
    flags = scored(args.model_dir, [source for _, source, _ in rows], [translation for _, _, translation in rows])
    kinds: dict[str, list[list[str]]] = defaultdict(list)
    for (kind, source, translation), found in zip(rows, flags, strict=True):
        kinds[kind].append(found)
        if args.show:
            print(f"  {kind:22} {found} | {source} | {translation}")
    print(f"{'kind':22} {'n':>3} {'any':>5} {'rules':>5} " + " ".join(f"{name[:8]:>8}" for name in SHOWN))
    for kind, found in kinds.items():
        ruled = [bool(set(f) - {"low_quality"}) for f in found]
        shares = [sum(map(bool, found)), sum(ruled), *(sum(name in f for f in found) for name in SHOWN)]
        print(f"{kind:22} {len(found):3} " + " ".join(f"{n / len(found):{8 if k > 1 else 5}.2f}"
                                                     for k, n in enumerate(shares)))


if __name__ == "__main__":
    main()
