"""Terminology: does a glossary make the translation use its terms, at what cost in BLEU and time?

    apt-get install trans-de-en    # the Ding German-English dictionary (GPL-2+), read at run time
    .venv/bin/python benchmarks/terminology.py --model runs/bench_multi30k [--rounds 3]

The test set is built here from Multi30k's **validation** data (never the test sets) and the
Ding dictionary of Debian's ``trans-de-en`` (GPL-2+; its data stay out of this repository: the
terms are derived at run time): for each validation pair, an English word of 4 letters or more
(stop words aside) whose Ding translations include exactly one word that occurs, as a whole word,
in the German reference becomes a term, that word its target term (at most ``--terms-per-
sentence`` a sentence, the longest words first).  Sentences with a term make the test set (its
first ``--limit`` alone, where given: a quick run on a busy machine); each brings its own glossary
(what ``--input-format jsonl`` does), so a term is matched only where it was chosen.

Both ways, with the model's inference copy as ``attnmt translate`` runs it (``--int8`` by
default, beam 4, batches of ``--batch-size``), and the runs taking turns ``--rounds`` times:

- term accuracy: the share of terms whose target term occurs in the output as a whole word,
  exactly as written; on all terms and on the terms the translation without the glossary misses;
- fragments: the outputs holding a half-written term, a target term's first piece (as a word's
  start) more times than the term itself ("Kö Kö Köter"; the first piece alone can start
  another word, so the run without the glossary gives the base rate);
- BLEU (sacreBLEU) of the test set's sentences against their references;
- seconds: the fastest of the rounds for each, and their ratio (target ≤ 1.5); also each round's
  ratio (the two ran back to back) and their median, for a machine whose load changes.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import translate
from attnmt.evaluate import score
from attnmt.fast import prepare
from attnmt.hardware import cpu_flags, cpu_model
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"
DING = Path("/usr/share/trans/de-en")
STOP_WORDS = set("""this that with from into onto over under while their there they them these those what when
where which other another some many very just only also each both have having been being were while about
front near next behind around through across along down""".split())


def word_variants(side: str) -> list[list[str]]:
    """One side of a Ding line as sense groups ('|'), each a list of one-word variants (';'),
    annotations ({m}, [ugs.], (…)) removed."""
    groups = []
    for group in side.split("|"):
        variants = [re.sub(r"\{[^}]*\}|\[[^]]*\]|\([^)]*\)", "", v).strip() for v in group.split(";")]
        groups.append([v for v in variants if v and " " not in v and v.isalpha()])
    return groups


def read_ding(path: Path) -> dict[str, set[str]]:
    """English word (lower case) -> its German one-word translations, from the Ding dictionary."""
    english_to_german: dict[str, set[str]] = defaultdict(set)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or " :: " not in line:
            continue
        german, english = line.split(" :: ", 1)
        for de_group, en_group in zip(word_variants(german), word_variants(english), strict=False):
            for en in en_group:
                english_to_german[en.lower()].update(de_group)
    return english_to_german


def term_test(sources: list[str], references: list[str], dictionary: dict[str, set[str]],
              per_sentence: int) -> list[tuple[str, str, dict[str, str]]]:
    """(source, reference, {English word: German word}) for each validation pair with a term."""
    test = []
    for source, reference in zip(sources, references, strict=True):
        reference_words = set(re.findall(r"\w+", reference))
        terms = {}
        for word in sorted(set(re.findall(r"[A-Za-z]+", source.lower())), key=lambda w: (-len(w), w)):
            if len(word) < 4 or word in STOP_WORDS:
                continue
            found = dictionary.get(word, set()) & reference_words
            if len(found) == 1 and len(terms) < per_sentence:
                terms[word] = found.pop()
        if terms:
            test.append((source, reference, terms))
    return test


def writable(test, tokenizer, unk_id: int) -> list:
    """The test without the terms the model's target vocabulary cannot write (attnmt refuses them)."""
    kept = []
    for source, reference, terms in test:
        terms = {s: t for s, t in terms.items() if unk_id not in tokenizer.encode_target(t)}
        if terms:
            kept.append((source, reference, terms))
    return kept


def has_term(text: str, term: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text) is not None


def first_piece(tokenizer, target: str) -> str:
    """The text of a target term's first piece ("Kö" of "Köter"), without SentencePiece's "▁"."""
    return tokenizer.decode(tokenizer.encode_target(target)[:1]).strip()


def has_fragment(text: str, target: str, first: str) -> bool:
    """Whether ``text`` starts a word with the term's first piece more times than it holds the term."""
    starts = len(re.findall(rf"(?<!\w){re.escape(first)}", text))
    return first != target and starts > len(re.findall(rf"(?<!\w){re.escape(target)}(?!\w)", text))


def timed(job) -> tuple[float, list[str]]:
    start = time.perf_counter()
    outputs = job()
    return time.perf_counter() - start, outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="runs/bench_multi30k")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=None, help="sentences per batch (default: translate's)")
    parser.add_argument("--float32", action="store_true", help="the float32 inference copy instead of int8")
    parser.add_argument("--terms-per-sentence", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None,
                        help="the test set's first N sentences alone (a quick run on a busy machine)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    test = term_test(read_lines(DATA / "val.en.gz"), read_lines(DATA / "val.de.gz"), read_ding(DING),
                     args.terms_per_sentence)[: args.limit]
    model, tokenizer = load_model_dir(args.model)
    test = writable(test, tokenizer, model.config.unk_id)
    sources, references, terms = zip(*test, strict=True)
    glossaries = [Glossary.of(t) for t in terms]
    fast = prepare(model, int8=not args.float32)
    decoding = Decoding(beam_size=args.beam)
    jobs = {"without": lambda: translate(fast, tokenizer, sources, decoding, max_sentences=args.batch_size),
            "with": lambda: translate(fast, tokenizer, sources, decoding, max_sentences=args.batch_size,
                                      glossary=glossaries)}
    seconds: dict[str, list[float]] = defaultdict(list)
    outputs: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for name, job in jobs.items():
            elapsed, outputs[name] = timed(job)
            seconds[name].append(elapsed)

    firsts = [{t: first_piece(tokenizer, t) for t in each.values()} for each in terms]
    report(args, test, outputs, seconds, references, firsts)


def report(args, test, outputs, seconds, references, firsts) -> None:
    pairs = [(i, target) for i, (_, _, t) in enumerate(test) for target in t.values()]
    missed = [(i, target) for i, target in pairs if not has_term(outputs["without"][i], target)]
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "avx512_vnni", "amx_bf16"}))
    print(f"CPU: {cpu_model()} ({flags}); {torch.get_num_threads()} threads")
    print(f"model: {args.model}; {'float32' if args.float32 else 'int8'} inference copy, beam {args.beam}")
    print(f"test: {len(test)} Multi30k validation sentences with {len(pairs)} terms "
          f"(Ding trans-de-en, at most {args.terms_per_sentence} a sentence)")
    for name in ("without", "with"):
        texts = outputs[name]
        accuracy = sum(has_term(texts[i], t) for i, t in pairs) / len(pairs)
        on_missed = sum(has_term(texts[i], t) for i, t in missed) / max(len(missed), 1)
        fragments = sum(any(has_fragment(texts[i], t, first) for t, first in firsts[i].items())
                        for i in range(len(texts)))
        bleu = score(texts, list(references)).bleu
        print(f"{name:>7} glossary: term accuracy {100 * accuracy:5.1f} % (on the {len(missed)} terms missed "
              f"without: {100 * on_missed:5.1f} %), fragments in {fragments} outputs, BLEU {bleu:5.2f}, "
              f"seconds {min(seconds[name]):6.2f} "
              f"(rounds: {', '.join(f'{s:.2f}' for s in seconds[name])})")
    ratios = sorted(w / wo for w, wo in zip(seconds["with"], seconds["without"], strict=True))
    print(f"time with / without: {min(seconds['with']) / min(seconds['without']):.2f} (fastest of each); "
          f"per round {', '.join(f'{r:.2f}' for r in ratios)}, median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
