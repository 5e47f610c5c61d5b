"""Precision and recall of attnmt.text.speaker_labels.speaker_label on hand-labelled lines, each read alone, after
its list mark (a time: ``12:00:01 ``), as a text line's is: 1 a script's or a transcript's speaker (``ANNA:``,
``DR. SMITH (O.S.):``), 0 a log's level, a memo's or a report's field, a news flag or dateline.
``speaker_labels/built_with.tsv`` holds the lines written while the rules were made, ``unseen.tsv`` those written
after, not tuned for.  Each line the rule gets wrong is printed.

    .venv/bin/python benchmarks/experiments/speaker_labels_labelled.py [FILE.tsv ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from attnmt.text.list_marks import LIST_MARK
from attnmt.text.speaker_labels import speaker_label

HERE = Path(__file__).parent / "speaker_labels"


def is_labelled_speaker(line: str) -> bool:
    """Whether ``line`` opens with a speaker's label, after its list mark, read alone (no dialogue around it)."""
    mark = LIST_MARK.match(line)
    return speaker_label(line[mark.end("mark"):] if mark else line) is not None


def score(path: Path) -> None:
    """Print each line ``path`` labels wrongly and the precision and recall over all its lines."""
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for row in path.read_text(encoding="utf-8").splitlines():
        gold, line = row.split("\t", 1)
        found = is_labelled_speaker(line)
        counts[found, gold == "1"] += 1
        if found != (gold == "1"):
            print(f"  {'false speaker' if found else 'missed speaker'}: {line}")
    tp, fp, fn = counts[True, True], counts[True, False], counts[False, True]
    print(f"{path.name}: speakers {tp + fn}, others {fp + counts[False, False]}: precision "
          f"{tp / max(tp + fp, 1):.3f}, recall {tp / max(tp + fn, 1):.3f} (tp {tp}, fp {fp}, fn {fn})")


if __name__ == "__main__":
    for name in sys.argv[1:] or [str(HERE / "built_with.tsv"), str(HERE / "unseen.tsv")]:
        score(Path(name))
