"""Inline markup through translation: how many of the inline elements of benchmarks/inline_markup.html come back
from ``attnmt translate`` holding words, how many come back empty, and how many are lost.

    .venv/bin/python benchmarks/inline_markup.py --model /work/demo_model [--int8]

Each ``<p>`` of the page is a sentence with inline elements: nested, side by side, at its start and its end, links,
code, a field's name in bold, several per sentence.  The page goes to ``attnmt translate`` as a user gives it one, in
a process of its own; each element of a source paragraph is looked for in its translation by its tag and attributes.
Prints the CPU, each paragraph that lost an element or came back with an empty one, and the counts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from lxml import html
from numbers_units import cpu_name

_HERE = Path(__file__).resolve().parent


def elements(paragraph: html.HtmlElement) -> Counter:
    """(tag, attributes) -> how many of the paragraph's inline elements have them."""
    return Counter((element.tag, tuple(sorted(element.attrib.items()))) for element in paragraph.iterdescendants()
                   if isinstance(element.tag, str))


def empty(paragraph: html.HtmlElement) -> Counter:
    """elements() of those that hold no text."""
    return Counter((element.tag, tuple(sorted(element.attrib.items()))) for element in paragraph.iterdescendants()
                   if isinstance(element.tag, str) and not element.text_content().strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--int8", action="store_true")
    parser.add_argument("--input", type=Path, default=_HERE / "inline_markup.html")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        output = Path(work, "out.html")
        command = [sys.executable, "-m", "attnmt", "translate", "--model", args.model, str(args.input), str(output),
                   "--target-lang", "de"]
        subprocess.run(command + (["--int8"] if args.int8 else []), check=True)
        sources = html.fragments_fromstring(args.input.read_text(encoding="utf-8"))
        targets = html.fragments_fromstring(output.read_text(encoding="utf-8"))
    total = lost = emptied = 0
    print(f"CPU: {cpu_name()}; {'int8' if args.int8 else 'float32'}; {len(sources)} paragraphs")
    for source, target in zip(sources, targets, strict=True):
        read, written = elements(source), elements(target)
        missing, hollow = sum((read - written).values()), sum((empty(target) - empty(source)).values())
        total, lost, emptied = total + sum(read.values()), lost + missing, emptied + hollow
        if missing or hollow:
            print(f"lost {missing} empty {hollow}\t{html.tostring(source, encoding='unicode')}\t"
                  f"{html.tostring(target, encoding='unicode')}")
    print(f"elements: {total}; with words: {total - lost - emptied}; empty: {emptied}; lost: {lost}")


if __name__ == "__main__":
    main()
