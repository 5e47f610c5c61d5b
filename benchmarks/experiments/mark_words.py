"""Inline marks over words the model merged or dropped: how many hold function words alone, stay English, lose links.

    .venv/bin/python benchmarks/experiments/mark_words.py --model /work/demo_model [--lines 1014] [PAGE.html ...]

Each Multi30k validation line (data/multi30k/val.en.gz) with two content words side by side (neither an English
function word: attnmt.text.function_words, nor in EXTRA) is tagged four ways around the pair, the pair chosen by the
line's number: ``<i>`` over the first word, a link over each of the two, ``<b>`` over the second, and (after the
line's first word) ``<i>`` over the word before and the first and a link over the second.  Pages of hand-tagged HTML
lines (one fragment a line) are read as given.  Reported, per set, over the translated lines:

- function words only: a mark whose source text holds a content word and whose translation holds only German
  function words (GERMAN), and of those, links;
- left English: a mark whose text came back exactly as its source text (a name or a loanword, "Baby", counts too);
- links lost: an href missing from the output or over no letter or digit;
- dropped: a mark missing from the output (a look whose words the model merged or dropped goes, its text kept).
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter
from pathlib import Path

from lxml import html

from attnmt.checkpoint import load_model_dir
from attnmt.documents.markup import translate_markup
from attnmt.documents.translators import ModelTranslator
from attnmt.text.function_words import FUNCTION_WORDS

ROOT = Path(__file__).resolve().parents[2]
# German function words that no mark over a content word should hold alone (the reflexive "sich" among them).
GERMAN = frozenset("""der die das den dem des ein eine einen einem einer eines im am ins ans zum zur vom beim in an
auf aus bei mit nach von zu für über unter vor hinter neben zwischen durch um gegen ohne und oder aber als wie
sich""".split())
# English words that no tag should start on besides the function words: pronouns, quantifiers, helpers.
EXTRA = frozenset("while either each some one two other another is are its his her their as".split())
LOOKS = ("a", "b", "i", "u", "em", "strong", "span")


def words(text: str) -> list[str]:
    """Lower-cased words without their punctuation."""
    return [w for w in (re.sub(r"^\W+|\W+$", "", token.lower()) for token in text.split()) if w]


def is_content(word: str) -> bool:
    return bool(word) and word not in FUNCTION_WORDS and word not in EXTRA


def tagged(line: str, k: int) -> list[str]:
    """Line k tagged the four ways of the module docstring around one pair of content words; [] without one."""
    tokens = line.split()
    pairs = [j for j in range(len(tokens) - 1) if tokens[j].isalpha() and all(
        (found := words(tokens[n])) and is_content(found[0]) for n in (j, j + 1))]
    if not pairs:
        return []
    j = pairs[k % len(pairs)]
    ways = [{j: "<i>{}</i>"}, {j: f'<a href="#{k}a">{{}}</a>', j + 1: f'<a href="#{k}b">{{}}</a>'},
            {j + 1: "<b>{}</b>"}]
    if j:
        ways.append({j - 1: "<i>{}", j: "{}</i>", j + 1: f'<a href="#{k}d">{{}}</a>'})
    return [" ".join(way.get(n, "{}").format(token) for n, token in enumerate(tokens)) for way in ways]


def marks(fragment: str) -> list[tuple[str, str | None, str]]:
    """(tag, href, text) of each inline element of an HTML fragment, in document order."""
    root = html.fragment_fromstring(fragment, create_parent="div")
    return [(e.tag, e.get("href"), "".join(e.itertext())) for e in root.iter() if e.tag in LOOKS]


def judged(source: str, output: str) -> Counter:
    """What became of each mark of one line (the counts of the module docstring)."""
    counts, placed = Counter(), {}
    for tag, href, text in marks(output):
        placed.setdefault((tag, href), []).append(text)
    for tag, href, text in marks(source):
        counts["marks"] += 1
        counts["links"] += tag == "a"
        if tag == "a" and not any(character.isalnum() for character in "".join(placed.get((tag, href), []))):
            counts["links lost"] += 1
        if not placed.get((tag, href)):
            counts["dropped"] += 1
            continue
        out, said = placed[(tag, href)].pop(0), words(text)
        content = any(is_content(word) for word in said)
        if content and words(out) and all(word in GERMAN for word in words(out)):
            counts["function words only"] += 1
            counts["of them links"] += tag == "a"
        if content and out.strip() == text.strip():
            counts["left English"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--lines", type=int, default=1014, help="the first N validation lines (1014: all)")
    parser.add_argument("pages", nargs="*", help="files of hand-tagged HTML lines")
    args = parser.parse_args()
    model, tokenizer = load_model_dir(args.model)
    translator = ModelTranslator(model, tokenizer)
    with gzip.open(ROOT / "data/multi30k/val.en.gz", "rt", encoding="utf-8") as file:
        lines = [line.strip() for line in file][:args.lines]
    sets = {f"Multi30k val, first {len(lines)} lines": [t for k, line in enumerate(lines) for t in tagged(line, k)]}
    for page in args.pages:
        sets[page] = [line.strip() for line in Path(page).read_text(encoding="utf-8").splitlines() if line.strip()]
    for name, sources in sets.items():
        outputs = translate_markup(sources, translator, where=name, unit="line")
        counts = sum((judged(s, o) for s, o in zip(sources, outputs, strict=True)), Counter())
        print(f"{name}: {len(sources)} lines, {counts['marks']} marks ({counts['links']} links): function words only "
              f"{counts['function words only']} ({counts['of them links']} links), left English "
              f"{counts['left English']}, links lost {counts['links lost']}, dropped {counts['dropped']}")


if __name__ == "__main__":
    main()
