"""Inline markup through translation: tags on Multi30k validation pairs, carried by word alignments.

    .venv/bin/python benchmarks/documents.py --model runs/bench_multi30k

The tagged test is built here from Multi30k *validation* pairs (data/multi30k/val.*).
A word dictionary is learnt from the training pairs: for each English word (lower-cased,
punctuation stripped) the German word with the highest Dice coefficient of sentence
co-occurrence, kept at Dice >= 0.3 over 5 or more co-occurrences, words in more than 5 % of
the sentences left out (their partners by co-occurrence are noise).  In each validation
pair, source words whose dictionary translation occurs in the reference are anchors:
the first is wrapped in ``<b>``, a second (if any) in ``<a href="#N">``; every third
sentence also wraps the first anchor and the word after it in ``<i>`` (nesting the
``<b>``), and every fourth gets a ``<br/>`` before its last word.

Reported (with the CPU and the command):

- well-formed: the output parses as strict XML (``<br>`` closed) and holds the same
  elements with the same attributes as the input (target 100 %);
- tag placement: for each anchor whose dictionary translation occurs once in the output, the
  share where that word lies inside the element that wrapped the anchor (target >= 95 %),
  and how many words a ``<b>`` holds on average (a tag swallowing the sentence would score well);
- BLEU of the tagged output with its tags stripped, and of the same sentences untagged
  through ``attnmt.decoding.translate.translate`` (target: within 0.5);
- time: the tagged pass (parse, split, translate, align, rebuild) over plain ``translate``
  of the same sentences, chunk by chunk with the two alternating (``--chunk`` sentences),
  the median over ``--rounds`` of each round's ratio (target <= 1.3x), and the median of
  the chunks' own ratios (a chunk's two passes run back to back, so a burst of load from
  another process on a shared machine moves it less);
- the document machinery alone (a stand-in model that copies each sentence) on a page of
  ``--page-mb`` MB built from the tagged sentences: seconds and the growth of peak RSS.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import torch
from lxml import etree

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import translate
from attnmt.documents.markup import translate_markup
from attnmt.documents.spans import identity
from attnmt.documents.translators import ModelTranslator
from attnmt.evaluate import bleu
from attnmt.fast import prepare
from attnmt.hardware import cpu_flags, cpu_model
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"


def words(text: str) -> list[str]:
    """Lower-cased words without their punctuation (what the dictionary and the checks compare)."""
    return [w for w in (re.sub(r"^\W+|\W+$", "", token.lower()) for token in text.split()) if w]


def learn_dictionary(sources: list[str], targets: list[str], least: int = 5, min_dice: float = 0.3,
                     most_common: float = 0.05) -> dict:
    """English word -> German word of highest Dice coefficient over sentence co-occurrence; words in
    more than ``most_common`` of the sentences on either side (a, of, is, ein, und) are left out:
    their best partner by co-occurrence is noise ("of" -> "eine")."""
    src_count, tgt_count, both = Counter(), Counter(), Counter()
    for s, t in zip(sources, targets, strict=True):
        s_words, t_words = set(words(s)), set(words(t))
        src_count.update(s_words)
        tgt_count.update(t_words)
        both.update((e, g) for e in s_words for g in t_words)
    best: dict[str, tuple[float, str]] = {}
    for (e, g), n in both.items():
        dice = 2 * n / (src_count[e] + tgt_count[g])
        common = max(src_count[e], tgt_count[g]) > most_common * len(sources)
        if n >= least and dice >= min_dice and not common and dice > best.get(e, (0.0, ""))[0]:
            best[e] = (dice, g)
    return {e: g for e, (_, g) in best.items()}


def tag_pair(number: int, source: str, reference: str, dictionary: dict) -> tuple[str, list[tuple[str, str]]] | None:
    """The source with tags around its anchors, and (element tag, expected German word) per
    checked element; None without an anchor."""
    tokens = source.split()
    reference_words = set(words(reference))
    anchors = [k for k, token in enumerate(tokens)
               if (w := words(token)) and dictionary.get(w[0]) in reference_words]
    if not anchors:
        return None
    b, checks = anchors[0], []
    tokens[b] = f"<b>{tokens[b]}</b>"
    checks.append(("b", dictionary[words(source.split()[b])[0]]))
    if len(anchors) > 1:
        a = anchors[1]
        tokens[a] = f'<a href="#{number}">{tokens[a]}</a>'
        checks.append(("a", dictionary[words(source.split()[a])[0]]))
    if number % 3 == 0 and b + 1 < len(tokens) and (len(anchors) == 1 or anchors[1] != b + 1):
        tokens[b], tokens[b + 1] = f"<i>{tokens[b]}", f"{tokens[b + 1]}</i>"
    if number % 4 == 0 and len(tokens) > 2:
        tokens[-1] = f"<br/>{tokens[-1]}"
    return " ".join(tokens), checks


def well_formed(output: str, tagged: str) -> bool:
    """Strict XML parse of the output; the same elements with the same attributes as the input."""
    def elements(text: str) -> Counter:
        root = etree.fromstring(f"<r>{text.replace('<br>', '<br/>')}</r>")
        return Counter((e.tag, tuple(sorted(e.attrib.items()))) for e in root.iter() if e.tag != "r")
    try:
        return elements(output) == elements(tagged)
    except etree.XMLSyntaxError:
        return False


def placement(output: str, checks: list[tuple[str, str]]) -> list[bool]:
    """Per checked element whose expected word the output holds once: is the word inside it."""
    root = etree.fromstring(f"<r>{output.replace('<br>', '<br/>')}</r>")
    found = []
    for tag, word in checks:
        if words("".join(root.itertext())).count(word) == 1:
            element = root.find(f".//{tag}")
            found.append(element is not None and word in words("".join(element.itertext())))
    return found


class Same:
    """A stand-in model: each sentence is its own translation, each word aligned to itself (the
    document machinery alone: parsing, splitting, placing tags, writing the page), with no glossary
    (a Translator has one: attnmt.documents.translators.Translator)."""

    glossary: Glossary | None = None

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        return list(sentences), [identity(len(s.split())) if w else None
                                 for s, w in zip(sentences, weighed, strict=True)]


def big_page(tagged: list[str], megabytes: float) -> str:
    """A page of list items, paragraphs and table rows holding the tagged sentences, repeated to size."""
    blocks, size, k = [], 0, 0
    while size < megabytes * 1e6:
        text = tagged[k % len(tagged)]
        block = (f"<p>{text} {tagged[(k + 1) % len(tagged)]}</p>\n" if k % 3 == 0 else
                 f"<ul><li>{text}</li></ul>\n" if k % 3 == 1 else f"<table><tr><td>{text}</td></tr></table>\n")
        blocks.append(block)
        size += len(block.encode())
        k += 1
    return f"<!DOCTYPE html>\n<html><head><title>Big</title></head><body>\n{''.join(blocks)}</body></html>\n"


def page_machinery(megabytes: float) -> str:
    """Seconds and the growth of peak RSS for the document machinery alone on a page of that size,
    built from validation sentences with their second word in <b> and fourth in <a>."""
    tagged = []
    for source in read_lines(DATA / "val.en.gz"):
        tokens = source.split()
        tokens[1] = f"<b>{tokens[1]}</b>"
        tokens[3:4] = [f'<a href="#">{t}</a>' for t in tokens[3:4]]
        tagged.append(" ".join(tokens))
    page = big_page(tagged, megabytes)
    before = peak_rss_kib()
    seconds, _ = timed(lambda: translate_markup([page], Same()))
    grown = (peak_rss_kib() - before) / 1024
    return (f"a {len(page.encode()) / 1e6:.2f} MB page through the document machinery alone (a stand-in model "
            f"that copies each sentence): {seconds:.2f} s, peak RSS grew {grown:.0f} MiB")


def peak_rss_kib() -> int:
    """This process's peak RSS (Linux's VmHWM: unlike getrusage's, not inherited from the parent)."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+)", status).group(1))


def timed(function) -> tuple[float, object]:
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=128, help="sentences a timed piece (the passes alternate)")
    parser.add_argument("--sentences", type=int, default=0, help="the first N validation pairs (0: all)")
    parser.add_argument("--page-mb", type=float, default=1.0, help="size of the page for the machinery's own cost")
    parser.add_argument("--page-only", type=float, help=argparse.SUPPRESS)  # the page measurement's own process
    args = parser.parse_args()
    if args.page_only:
        print(page_machinery(args.page_only))
        return

    dictionary = learn_dictionary(read_lines(DATA / "train.en.gz"), read_lines(DATA / "train.de.gz"))
    pairs = list(zip(read_lines(DATA / "val.en.gz"), read_lines(DATA / "val.de.gz"), strict=True))
    if args.sentences:
        pairs = pairs[: args.sentences]
    built = [(s, r, tag_pair(n, s, r, dictionary)) for n, (s, r) in enumerate(pairs)]
    tests = [(s, r, tagged, checks) for s, r, found in built if found for tagged, checks in [found]]
    sources, references = [t[0] for t in tests], [t[1] for t in tests]
    tagged = [t[2] for t in tests]

    # In a fresh process, so that its peak RSS is the page's, not the dictionary's or the model's.
    machinery = subprocess.run([sys.executable, __file__, "--page-only", str(args.page_mb)], check=True,
                               capture_output=True, text=True).stdout.strip()
    trained, tokenizer = load_model_dir(args.model)
    model = prepare(trained)  # the inference copy attnmt translate runs
    decoding = Decoding(beam_size=args.beam)
    translator = ModelTranslator(model, tokenizer, decoding)
    translate_markup(tagged[: args.chunk], translator)  # warm-up: first-call costs go to neither pass
    plain_times, tagged_times, chunk_ratios = [], [], []
    for _ in range(args.rounds):
        # Chunk by chunk, the two passes alternating (which goes first, too), so that both meet the
        # same load on a shared machine; a round's time is the sum over its chunks.
        plain_sum = tagged_sum = 0.0
        untagged_out, tagged_out = [], []
        for k, first in enumerate(range(0, len(sources), args.chunk)):
            chunk, seconds_of = slice(first, first + args.chunk), {}
            runs = [("plain", lambda c=chunk: translate(model, tokenizer, sources[c], decoding)),
                    ("tagged", lambda c=chunk: translate_markup(tagged[c], translator))]
            for name, run in runs if k % 2 == 0 else runs[::-1]:
                seconds, out = timed(run)
                seconds_of[name] = seconds
                if name == "plain":
                    plain_sum += seconds
                    untagged_out += out
                else:
                    tagged_sum += seconds
                    tagged_out += out
            chunk_ratios.append(seconds_of["tagged"] / seconds_of["plain"])
        plain_times.append(plain_sum)
        tagged_times.append(tagged_sum)

    formed = [well_formed(out, t) for out, t in zip(tagged_out, tagged, strict=True)]
    placed = [hit for out, (_, _, _, checks) in zip(tagged_out, tests, strict=True) for hit in placement(out, checks)]
    widths = [len(words("".join(element.itertext()))) for out in tagged_out
              for element in etree.fromstring(f"<r>{out.replace('<br>', '<br/>')}</r>").iter("b")]
    stripped = ["".join(etree.fromstring(f"<r>{out.replace('<br>', '<br/>')}</r>").itertext()) for out in tagged_out]
    bleu_tagged, bleu_plain = bleu(stripped, references), bleu(untagged_out, references)
    ratios = sorted(t / p for p, t in zip(plain_times, tagged_times, strict=True))
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"command: {' '.join(sys.argv)}")
    print(f"CPU {cpu_model()} ({flags}); torch threads {torch.get_num_threads()}; model {args.model}; beam {args.beam}")
    print(f"dictionary: {len(dictionary)} words from the training pairs; {len(tests)} of {len(pairs)} validation "
          f"pairs tagged; {sum(len(t[3]) for t in tests)} checked elements (<b>, <a>)")
    print(f"well-formed, same elements and attributes: {sum(formed)}/{len(formed)} = "
          f"{100 * sum(formed) / len(formed):.1f} % (target 100 %)")
    print(f"tag placement: {sum(placed)}/{len(placed)} = {100 * sum(placed) / max(len(placed), 1):.1f} % of the "
          "checked words the output holds lie inside their element (target >= 95 %); "
          f"a <b> (one source word) holds {statistics.mean(widths):.2f} target words on average "
          f"({sum(w == 0 for w in widths)} empty)")
    print(f"BLEU tagged (tags stripped) {bleu_tagged:.2f}, untagged {bleu_plain:.2f}: "
          f"difference {bleu_tagged - bleu_plain:+.2f} (target within 0.5)")
    print(f"time, tagged over plain translate: {statistics.median(ratios):.2f}x, the median of {args.rounds} rounds "
          f"(target <= 1.3x; each round {len(sources)} sentences in chunks of {args.chunk}, the passes alternating; "
          f"seconds plain {rounded(plain_times)}, tagged {rounded(tagged_times)}); the median over all "
          f"{len(chunk_ratios)} chunks of a chunk's ratio, which a burst of load on the machine moves less: "
          f"{statistics.median(chunk_ratios):.2f}x")
    print(machinery)


def rounded(values: list[float]) -> list[float]:
    return [round(v, 2) for v in values]


if __name__ == "__main__":
    main()
