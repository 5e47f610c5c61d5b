"""The ``added`` flag on pairs no setting was chosen on: good ones (Multi30k's validation references, and its
test_2016_flickr references past the 300 quality_labelled.py reads), and test references 300-700 with one of
PHRASES added at their end, and in their middle (references of 5 words or more).  Each pair is scored as
``attnmt score`` scores it (quality_broken.scored: read against the model's own translation); the share of each kind
flagged ``added`` and ``low_quality`` is printed, and each good pair flagged ``added``.

    .venv/bin/python benchmarks/experiments/quality_added.py MODEL_DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from quality_broken import scored  # this folder is on the path when the script runs

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.calibration import load_calibration
from attnmt.text.data import read_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "multi30k"
# Short phrases added, none of quality_labelled.ADDITIONS; one with a comma, as a clause is added.
PHRASES = ("am Abend", "mit ihrer Mutter", "bei Sonnenschein", "vor dem Bahnhof", "und singt laut", "auf dem Markt",
           "ohne Schuhe", "mit einer Kamera", ", während es schneit", "neben einer alten Kirche", "nach der Arbeit",
           "im Winter")


def labelled_pairs() -> list[tuple[str, str, str]]:
    """(kind, source, translation) of each pair."""
    val_src, val_ref = read_lines(str(DATA / "val.en.gz")), read_lines(str(DATA / "val.de.gz"))
    src, ref = read_lines(str(DATA / "test_2016_flickr.en.gz")), read_lines(str(DATA / "test_2016_flickr.de.gz"))
    rows = [("good, validation", s, r) for s, r in zip(val_src, val_ref, strict=True)]
    rows += [("good, test", s, r) for s, r in zip(src[300:], ref[300:], strict=True)]
    for k, (s, r) in enumerate(zip(src[300:700], ref[300:700], strict=True)):
        phrase, words = PHRASES[k % len(PHRASES)], r.rstrip(".").split()
        rows.append(("added at the end", s, r.rstrip(".!") + ("" if phrase.startswith(",") else " ") + phrase + "."))
        if len(words) >= 5:
            middle = len(words) // 2
            rows.append(("added in the middle", s, " ".join([*words[:middle], *phrase.lstrip(", ").split(),
                                                             *words[middle:]]) + "."))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    rows = labelled_pairs()
    found = scored(model, tokenizer, load_calibration(Path(args.model)), [s for _, s, _ in rows],
                   [t for _, _, t in rows])
    flagged: dict[str, list[int]] = {}
    for (kind, source, translation), assessment in zip(rows, found, strict=True):
        counts = flagged.setdefault(kind, [0, 0, 0])
        counts[0] += "added" in assessment.flags
        counts[1] += "low_quality" in assessment.flags
        counts[2] += 1
        if "added" in assessment.flags and kind.startswith("good"):
            print(f"  {assessment.quality:.3f} {assessment.flags} | {source} | {translation}")
    for kind, (added, low, n) in flagged.items():
        print(f"{kind:20} of {n:4d}: added {added / n:.3f}, low_quality {low / n:.3f}")

if __name__ == "__main__":
    main()
