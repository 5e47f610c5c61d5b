"""Which broken translations the quality flags catch: Multi30k validation references (en-de) broken by
hand in the ways a reviewer meets them, each scored as ``attnmt score`` scores a translation written
elsewhere (attnmt.decoding.elsewhere, the model directory's quality.json, the languages en and de), and
each flag's share of every kind; the references as they are first, which the rules must not flag.

    .venv/bin/python benchmarks/experiments/quality_broken.py MODEL_DIR [--threads 1] [--limit 0]

A kind is built only from the pairs it applies to (a number changed: a pair with a number on both sides),
so its count is given.  Read the rules' lines against ``references``: low_quality on the references is the
calibration's (a model's own rate), the rules' must be 0.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.quality import EMPTY, FLAGS
from attnmt.decoding.quality_language import Languages
from attnmt.text.data import read_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "multi30k"
NUMBERS = {"zwei": "drei", "drei": "vier", "vier": "fünf", "fünf": "sechs", "sechs": "sieben", "zehn": "elf"}
NUMBER = re.compile(r"\b(" + "|".join(NUMBERS) + r")\b", re.IGNORECASE)
ENGLISH_NUMBER = re.compile(r"\b(two|three|four|five|six|ten)\b", re.IGNORECASE)
Pair = tuple[str, str, str]  # source, reference, another sentence's reference


def first_clause(source: str, good: str, other: str) -> str | None:
    """The reference up to its first comma, where that leaves out at least three words."""
    head, comma, rest = good.partition(",")
    return head.strip() + "." if comma and len(rest.split()) >= 3 else None


def word_loop(source: str, good: str, other: str) -> str | None:
    """Its last word written five times over, as a model stuck on one piece writes it."""
    words = good.rstrip(".").split()
    return " ".join(words + words[-1:] * 4) + "." if len(words) >= 3 else None


def number_changed(source: str, good: str, other: str) -> str | None:
    if not (ENGLISH_NUMBER.search(source) and NUMBER.search(good)):
        return None
    return NUMBER.sub(lambda m: NUMBERS[m.group().lower()].capitalize() if m.group()[0].isupper()
                      else NUMBERS[m.group().lower()], good, count=1)


def number_dropped(source: str, good: str, other: str) -> str | None:
    if not (ENGLISH_NUMBER.search(source) and NUMBER.search(good)):
        return None
    return re.sub(r"\s+", " ", NUMBER.sub("", good, count=1)).strip()


def digits_changed(source: str, good: str, other: str) -> str | None:
    """A time, a price and a distance added to both sides, one of them changed in the translation."""
    return None if not good.endswith(".") else good[:-1] + ", um 14:30 Uhr, für 12,50 €, nach 15 km."


def digits_source(source: str) -> str:
    return source.rstrip(".") + ", at 2:30 pm, for €12.50, after 15 km."


def url_changed(source: str, good: str, other: str) -> str:
    return f"{good} Siehe https://example.com/fotos/{len(good)}-b."


def email_changed(source: str, good: str, other: str) -> str:
    return f"{good} Schreiben Sie an anna.meier@example.de."


def placeholder_changed(source: str, good: str, other: str) -> str:
    return f"{{nome}}: {good}"


def as_statement(source: str, good: str, other: str) -> str | None:
    return good.rstrip(".!") + "." if good.endswith((".", "!")) or good[-1:].isalpha() else None


def doubled(source: str, good: str, other: str) -> str:
    return f"{good} {good}"


def into_source_language(source: str, good: str, other: str) -> str:
    """Another English sentence, as a model that writes the source's language writes one."""
    return other


KINDS: dict[str, tuple[Callable[..., str | None], Callable[[str], str]]] = {
    "references": (lambda s, g, o: g, str),
    "empty": (lambda s, g, o: "", str),
    "loop, one word": (word_loop, str),
    "doubled sentence": (doubled, str),
    "first clause only": (first_clause, str),
    "number changed": (number_changed, str),
    "number dropped": (number_dropped, str),
    "time/price/distance changed": (digits_changed, digits_source),
    "url changed": (url_changed, lambda s: f"{s} See https://example.com/fotos/{len(s)}-a."),
    "e-mail changed": (email_changed, lambda s: f"{s} Write to anna.maier@example.de."),
    "placeholder changed": (placeholder_changed, lambda s: f"{{name}}: {s}"),
    "question as statement": (as_statement, lambda s: s.rstrip(".!") + "?"),
    "copied source": (lambda s, g, o: s, str),
    "another English sentence": (into_source_language, str),
    "another sentence's": (lambda s, g, o: o, str),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--src", default=str(DATA / "val.en.gz"))
    parser.add_argument("--ref", default=str(DATA / "val.de.gz"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="the first N pairs only (0: all)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    src, ref = read_lines(args.src), read_lines(args.ref)
    if args.limit:
        src, ref = src[: args.limit], ref[: args.limit]
    pairs: list[Pair] = [(s, r, ref[(i + 7) % len(ref)]) for i, (s, r) in enumerate(zip(src, ref, strict=True))]
    sources, translations, kinds = [], [], []
    for kind, (make, source_of) in KINDS.items():
        for i, (s, good, other) in enumerate(pairs):
            other = src[(i + 7) % len(src)] if kind == "another English sentence" else other
            text = make(s, good, other)
            if text is not None:
                sources.append(source_of(s))
                translations.append(text)
                kinds.append(kind)
    found = assess_elsewhere(model, tokenizer, sources, translations, calibration, Decoding(beam_size=4),
                             languages=Languages("en", "de"))
    names = (EMPTY, *FLAGS)
    print(f"model {args.model}, {'calibrated' if calibration else 'uncalibrated'}; {len(src)} pairs of {args.src}")
    print(f"{'kind':28} {'n':>5} {'any':>6} {'rules':>6} " + " ".join(f"{n[:8]:>8}" for n in names))
    for kind in KINDS:
        got = [a for a, k in zip(found, kinds, strict=True) if k == kind]
        flags = [set(a.flags) if a else set() for a in got]
        share = [sum(name in f for f in flags) / len(got) for name in names]
        rules = sum(bool(f - {"low_quality"}) for f in flags) / len(got)
        print(f"{kind:28} {len(got):5d} {sum(bool(f) for f in flags) / len(got):6.3f} {rules:6.3f} "
              + " ".join(f"{x:8.3f}" for x in share))


if __name__ == "__main__":
    main()
