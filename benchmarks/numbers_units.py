"""Numbers and units through translation: how many of the numbers and units of benchmarks/numbers_units.tsv come
through ``attnmt translate`` as the source writes them.

    .venv/bin/python benchmarks/numbers_units.py --model /work/demo_model [--int8]

Each line of the TSV is an English sentence (recipes, sizes, weather, sports, prices in several currencies,
ranges, temperatures, times, percentages, ordinals, telephone numbers, versions, dates), then, a tab before each,
what its translation must hold character for character: a fraction with its unit ("¾ l", "1/2 cup"), a
temperature ("180 °C"), a number German writes as English does ("12"); a piece that is one number alone may come as
the model's target language writes it too (attnmt.decoding.numbers_kept.written_forms: "19.99" as "19,99" into
German).  The file goes to ``attnmt translate`` as a user gives it one, in a process of its own; each expected piece
found in its line's translation counts kept.  Prints the CPU, each line that lost a piece, and the count.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from attnmt.decoding.numbers_kept import NUMBER, written_forms
from attnmt.model_languages import languages_from_training

_HERE = Path(__file__).resolve().parent


def cpu_name() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it, or the platform's processor."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def forms(piece: str, target: str | None) -> list[str]:
    """The ways a translation into ``target`` may hold ``piece``: as written, and, for one number alone, as the
    target language writes it (written_forms: "19.99" as "19,99" into German); a piece of more, "4.5%", "180 °C",
    only as written."""
    return written_forms(piece, target) if NUMBER.fullmatch(piece) else [piece]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--int8", action="store_true")
    parser.add_argument("--input", type=Path, default=_HERE / "numbers_units.tsv")
    args = parser.parse_args()
    rows = [line.split("\t") for line in args.input.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as work:
        source, output = Path(work, "in.txt"), Path(work, "out.txt")
        source.write_text("".join(row[0] + "\n" for row in rows), encoding="utf-8")
        command = [sys.executable, "-m", "attnmt", "translate", "--model", args.model, str(source), str(output)]
        subprocess.run(command + (["--int8"] if args.int8 else []), check=True)
        translations = output.read_text(encoding="utf-8").splitlines()
    kept = expected = 0
    target = languages_from_training(Path(args.model))[1]
    print(f"CPU: {cpu_name()}; {'int8' if args.int8 else 'float32'}; {len(rows)} lines; target language {target}")
    for (sentence, *pieces), translation in zip(rows, translations, strict=True):
        lost = [piece for piece in pieces if not any(form in translation for form in forms(piece, target))]
        kept, expected = kept + len(pieces) - len(lost), expected + len(pieces)
        if lost:
            print(f"lost {' | '.join(lost)}\t{sentence}\t{translation}")
    print(f"kept {kept} of {expected} numbers and units ({100 * kept / expected:.0f} %)")


if __name__ == "__main__":
    main()
