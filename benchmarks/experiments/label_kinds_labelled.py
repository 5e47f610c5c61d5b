"""Precision and recall of what a label at a line's start is read as, on hand-labelled lines read with the other
lines of their document (their dialogue: attnmt.text.speaker_labels.dialogue): ``speaker`` a name kept as written
(speaker_labels.speaker_label), ``field`` a field's name translated alone (speaker_labels.field_name), ``none`` a
line translated whole (a remark's word, a log's level, no label).  Sound descriptions a line opens with are passed
over first, as a text line and a cue pass them.  Each row: document, gold kind, line, a tab between.
``label_kinds/built_with.tsv`` holds the lines written while the rules were made (the cases found by hand among
them), ``unseen.tsv`` and ``unseen_2.tsv`` those written after, not tuned for; ``unseen_3.tsv`` was written after the
rules for a person's role before a number, a label ending in a preposition, a heading before a quantity, a state's
word before "!" and a -s name closing a script, by their author: a check of those rules, not an unseen set; so is
``unseen_4.tsv`` (48 lines of a kitchen's and a scene's roles, menus after a script, a name's calls before "!", a
system's states, credits, a form and a recipe), written after the rules for a person's noun or ending, a name's word
before "!", a menu's sections and persons' names after a role, by their author (it found "OVEN TEMP: 180 °C", fixed
before it was committed).  ``unseen_5.tsv`` (44 lines: lab results, a nutrition label, scripts saying numbers, credits
in capitals, menus after a script, a device's status) was written after the rules for a word before a measure with its
unit, a count in words and names in capitals after a credit's role, by their author, and not tuned for.
``unseen_6.tsv`` (31 lines: lab results in long units, a nutrition label, a device's specification, a recipe's units
in words, names saying times and counts, scripts saying measures) was written after the rules for a known unit of any
length and a measure with a stop, by their author: a check, not unseen.  ``unseen_7.tsv`` (44 lines: lab results
with codes, a device's spec sheet, a form with counts in words, a script saying counts and measures, remarks, a
recipe, a plant's status) was written after the rules for a thing's name with a code before a measure, by a helper
who had not seen it before.  ``unseen_8.tsv`` (recipes and spec sheets with measures and counts in words, air
quality's codes, scripts and transcripts saying counts and measures, titles before names, forms, lab results, memos):
its first 67 lines were written and judged by a helper before the rules for a measure in words, things counted after
a plural, a code with a decimal and a title before a name; its last 7 after them, not tuned for.  Each line read
wrongly is printed.

    .venv/bin/python benchmarks/experiments/label_kinds_labelled.py [FILE.tsv ...]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from attnmt.text.list_marks import LIST_MARK
from attnmt.text.speaker_labels import DESCRIPTIONS, dialogue, field_name, speaker_label

HERE = Path(__file__).parent / "label_kinds"
KINDS = ("speaker", "field")


def kind(line: str, speakers: frozenset[str]) -> str:
    """What ``line``'s label is read as, after its list mark and its sound descriptions: speaker, field or none."""
    mark = LIST_MARK.match(line)
    text = line[mark.end("mark"):] if mark else line
    described = DESCRIPTIONS.match(text)
    text = text[described.end():].lstrip() if described else text
    if speaker_label(text, speakers) is not None:
        return "speaker"
    return "field" if field_name(text, speakers) is not None else "none"


def score(path: Path) -> None:
    """Print each line ``path`` labels wrongly, and each kind's precision and recall over all its lines."""
    documents: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for row in path.read_text(encoding="utf-8").splitlines():
        document, gold, line = row.split("\t", 2)
        documents[document].append((gold, line))
    found: list[tuple[str, str]] = []
    for rows in documents.values():
        speakers = dialogue(line for _, line in rows)
        for gold, line in rows:
            found.append((gold, read := kind(line, speakers)))
            if read != gold:
                print(f"  {gold} read as {read}: {line}")
    for name in KINDS:
        tp = sum(gold == read == name for gold, read in found)
        fp = sum(read == name != gold for gold, read in found)
        fn = sum(gold == name != read for gold, read in found)
        print(f"{path.name}: {name} {tp + fn} of {len(found)}: precision {tp / max(tp + fp, 1):.3f}, "
              f"recall {tp / max(tp + fn, 1):.3f} (tp {tp}, fp {fp}, fn {fn})")


if __name__ == "__main__":
    sets = ("built_with.tsv", "unseen.tsv", "unseen_2.tsv", "unseen_3.tsv", "unseen_4.tsv", "unseen_5.tsv",
            "unseen_6.tsv", "unseen_7.tsv", "unseen_8.tsv")
    for name in sys.argv[1:] or [str(HERE / name) for name in sets]:
        score(Path(name))
