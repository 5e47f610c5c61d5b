"""How often the ``name`` rule (attnmt.decoding.quality_names) flags hand-written pairs: good translations that
write a name their language's way ("Vienna" as "Wien"), and translations whose name was changed or left out, each
read with a model directory's source vocabulary and the languages its file name gives (good_en_de.tsv: en, de).

    .venv/bin/python benchmarks/experiments/quality_names.py MODEL_DIR [--show]

The pairs (benchmarks/experiments/quality_names/*.tsv, a source and its translation a line) were written by
hand; good_later_en_de.tsv after the exonyms' first list, to see how far a list written for one set carries.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_names import common_words, kept_names, name_lost

PAIRS = Path(__file__).resolve().parent / "quality_names"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--show", action="store_true", help="print each pair flagged")
    args = parser.parse_args()
    _, tokenizer = load_model_dir(args.model_dir)
    common = common_words(tokenizer)
    for path in sorted(PAIRS.glob("*.tsv")):
        source_language, target_language = path.stem.split("_")[-2:]
        languages = Languages(source_language, target_language)
        pairs = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
        flagged = [(source, translation) for source, translation in pairs
                   if name_lost(source, translation, languages, common)]
        print(f"{path.name:30} {len(flagged):3} of {len(pairs):3} flagged name")
        for source, translation in flagged if args.show else []:
            print(f"    {source} | {translation} | {kept_names(source, common)}")


if __name__ == "__main__":
    main()
