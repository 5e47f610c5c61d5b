"""Glossary forms: is each term placed, in the form its sentence needs, and do the source's numbers come through?

    .venv/bin/python benchmarks/glossary_forms.py --model /work/demo_model

The cases are benchmarks/glossary_forms.jsonl and glossary_forms_cases.jsonl (capitalised terms' plurals, possessives,
numbers beside terms), written by hand and judged before the rules they test were changed:
a sentence, its glossary, and the forms of the target term a right translation writes (``"forms"``): loanwords
spelled as their English source (no umlaut: "Budget Manager", "Laptops"), German nouns that take one ("Männer",
"Verträge"), nouns in -e (German's "Routen", a loanword's "Updates"), numbers in digits beside a term ("Route 66"),
terms in capitals, of several words, in compounds and cases.  For each translation:

- placed: the target term is in it, its umlauts read as plain vowels, at a word's start ("Manäger" holds "Manager");
- form right: one of the case's forms is in it as whole words;
- numbers kept: each number in digits of the source ("66", "2019") is in it as a word of its own.

Each case's line is printed, then each file's totals, with the CPU.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import translate
from attnmt.fast import prepare
from attnmt.hardware import cpu_flags, cpu_model

HERE = Path(__file__).resolve().parent
CASES = (HERE / "glossary_forms.jsonl", HERE / "glossary_forms_cases.jsonl")
PLAIN = str.maketrans("äöüÄÖÜ", "aouAOU")
DIGITS = re.compile(r"(?<![\w.,])\d+(?![\w.,]?\d)")


def holds(text: str, words: str, end: bool = True) -> bool:
    """Whether ``text`` holds ``words`` starting a word (and ending one, where ``end``)."""
    return re.search(r"(?<!\w)" + re.escape(words) + (r"(?!\w)" if end else ""), text) is not None


def judged(case: dict, output: str) -> tuple[bool, bool, bool]:
    """(placed, form right, numbers kept) of one case's ``output``."""
    placed = all(holds(output.translate(PLAIN), target.translate(PLAIN), end=False)
                 for target in case["glossary"].values())
    right = any(holds(output, form) for form in case["forms"])
    kept = all(holds(output, number) for number in DIGITS.findall(case["text"]))
    return placed, right, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="/work/demo_model")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    fast = prepare(model)
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_vnni", "amx_bf16"}))
    print(f"CPU: {cpu_model()} ({flags}); {torch.get_num_threads()} threads")
    for path in CASES:
        cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        outputs = translate(fast, tokenizer, [case["text"] for case in cases], Decoding(beam_size=args.beam),
                            glossary=[Glossary.of(case["glossary"]) for case in cases])
        report(cases, outputs, f"model: {args.model}; float32 inference copy, beam {args.beam}; {len(cases)} cases "
                               f"({path.name})")


def report(cases: list[dict], outputs: list[str], heading: str) -> None:
    """Prints each case's marks and translation, then ``heading`` and the totals."""
    totals = [0, 0, 0]
    for case, output in zip(cases, outputs, strict=True):
        marks = judged(case, output)
        totals = [total + mark for total, mark in zip(totals, marks, strict=True)]
        print("".join("+" if mark else "-" for mark in marks), case["text"], "->", output)
    print(heading)
    with_numbers = sum(bool(DIGITS.search(case["text"])) for case in cases)
    print(f"placed {totals[0]}/{len(cases)}, form right {totals[1]}/{len(cases)}, "
          f"numbers kept {totals[2] - (len(cases) - with_numbers)}/{with_numbers}")


if __name__ == "__main__":
    main()
