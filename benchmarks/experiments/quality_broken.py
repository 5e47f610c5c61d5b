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
from attnmt.decoding.quality import EMPTY, FLAGS, with_empty
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.translate import translate
from attnmt.text.data import read_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "multi30k"
NUMBERS = {"zwei": "drei", "drei": "vier", "vier": "fünf", "fünf": "sechs", "sechs": "sieben", "zehn": "elf"}
NUMBER = re.compile(r"\b(" + "|".join(NUMBERS) + r")\b", re.IGNORECASE)
ENGLISH_NUMBER = re.compile(r"\b(two|three|four|five|six|ten)\b", re.IGNORECASE)


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


EXTRA_SOURCE = ("{{name}}: {}, on May 3 at 2:30 pm, for 12.50 EUR, after 15 km. See https://example.com/a or "
                "write to anna@example.de.")
EXTRA_GOOD = ("{{name}}: {}, am 3. Mai um 14:30 Uhr, für 12,50 EUR, nach 15 km. Siehe https://example.com/a oder "
              "schreiben Sie an anna@example.de.")


def with_extras(source: str) -> str:
    """The source with a placeholder, a date, a time, a price, a distance, a URL and an e-mail address around it."""
    return EXTRA_SOURCE.format(source.rstrip("."))


def extras_changed(old: str, new: str) -> Callable[[str, str, str], str]:
    """The reference with EXTRA_GOOD's things around it, ``old`` among them written ``new``."""
    return lambda source, good, other: EXTRA_GOOD.format(good.rstrip(".")).replace(old, new, 1)


def as_question(source: str) -> str:
    return source.rstrip(".!") + "?"


def statement(source: str, good: str, other: str) -> str:
    return good.rstrip(".!") + "."


def word_doubled(source: str, good: str, other: str) -> str | None:
    """``good`` with its middle word written twice ("auf der der Bank")."""
    words = good.split()
    if len(words) < 3:
        return None
    middle = len(words) // 2
    return " ".join([*words[:middle], words[middle], *words[middle:]])


def english_tail(source: str, good: str, other: str) -> str:
    """``good``'s first half of words, then ``source``'s last half: a translation left unfinished in English."""
    ours, theirs = source.split(), good.split()
    return " ".join(theirs[: len(theirs) // 2] + ours[len(ours) // 2:])


def stop_lost(source: str, good: str, other: str) -> str | None:
    """The reference without the final full stop (or exclamation mark) its source ends with too."""
    return good.rstrip(".!") if source.endswith((".", "!")) and good.endswith((".", "!")) else None


def article_as_number(source: str, good: str, other: str) -> str | None:
    """The reference's first word, an article for the source's "A", written "Fünf" ("A man" as "Fünf Mann")."""
    first, _, rest = good.partition(" ")
    return f"Fünf {rest}" if first in ("Ein", "Eine") and source.startswith(("A ", "An ")) else None


def with_ending(english: str) -> Callable[[str], str]:
    """The source with ``english`` at its end: ", on Sunday." after "A dog runs"."""
    return lambda source: f"{source.rstrip('.')}, {english}."


def ending(german: str) -> Callable[[str, str, str], str]:
    return lambda source, good, other: f"{good.rstrip('.')}, {german}."


def cut_at_comma(source: str, good: str, other: str) -> str | None:
    return good[: good.index(",") + 1] if "," in good else None


def second_half_missing(stop: str) -> Callable[[str, str, str], str | None]:
    """The reference's first half of words, then ``stop``: a translation cut off halfway."""
    def cut(source: str, good: str, other: str) -> str | None:
        words = good.rstrip(".!").split()
        return " ".join(words[: len(words) // 2]) + stop if len(words) >= 4 else None
    return cut


def cut_after_noun(source: str, good: str, other: str) -> str | None:
    """The reference cut after its last noun (a word with a capital, not its first) that leaves three words or more
    out, and closed with a full stop: "Ein Mann ... steht auf einer Leiter." for "... on a ladder and cleaning a
    window."; no article or comma tells it from a whole sentence (quality_unfinished)."""
    words = good.rstrip(".!").split()
    nouns = [k for k in range(2, len(words) - 3) if words[k][0].isupper() and words[k].isalpha()]
    return " ".join(words[: nouns[-1] + 1]) + "." if nouns else None


def phrase_loop(source: str, good: str, other: str) -> str | None:
    """Its last three words written three times over ("auf der Straße auf der Straße auf der Straße.")."""
    words = good.rstrip(".!").split()
    return " ".join(words + words[-3:] * 2) + "." if len(words) >= 5 else None


# French translations of the first validation sources, written by hand: the target in a third language.
FRENCH = {
    0: "Un groupe d'hommes charge du coton sur un camion",
    1: "Un homme dort sur un canapé dans une pièce verte.",
    2: "Un garçon avec un casque est assis sur les épaules d'une femme.",
    3: "Deux hommes installent une cabane de pêche bleue sur un lac gelé",
    4: "Un homme chauve portant un gilet de sauvetage rouge est assis dans un petit bateau.",
    6: "Un chien brun court après le chien noir.",
    8: "Un homme dans un bureau encombré utilise le téléphone",
    9: "Une femme souriante en débardeur pêche tient un vélo de montagne",
    10: "Un jeune enfant se tient seul sur des rochers déchiquetés.",
    11: "Une personne sur une motoneige en plein saut.",
    12: "Trois jeunes enfants se tiennent autour d'un tonneau bleu et blanc.",
    13: "Une femme est assise près de son étal de fleurs séchées sur un marché en plein air.",
    14: "Une femme joue une chanson sur son violon.",
}


KINDS: dict[str, tuple[Callable[[str, str, str], str | None], Callable[[str], str]]] = {
    "references": (lambda s, g, o: g, str),
    "empty": (lambda s, g, o: "", str),
    "loop, one word": (word_loop, str),
    "doubled sentence": (lambda s, g, o: f"{g} {g}", str),
    "first clause only": (first_clause, str),
    "number changed": (number_changed, str),
    "number dropped": (number_dropped, str),
    "extras kept": (extras_changed("", ""), with_extras),
    "time changed": (extras_changed("14:30", "15:30"), with_extras),
    "month changed": (extras_changed("Mai", "März"), with_extras),
    "price changed": (extras_changed("12,50", "21,50"), with_extras),
    "unit changed": (extras_changed("15 km", "15 Meilen"), with_extras),
    "url changed": (extras_changed("example.com/a", "example.com/b"), with_extras),
    "e-mail changed": (extras_changed("anna@", "anne@"), with_extras),
    "placeholder changed": (extras_changed("{name}", "{nome}"), with_extras),
    "question kept": (lambda s, g, o: g.rstrip(".!") + "?", as_question),
    "question as statement": (statement, as_question),
    "copied source": (lambda s, g, o: s, str),
    "another English sentence": (lambda s, g, o: o, str),  # o: another source, for this kind
    "another sentence's": (lambda s, g, o: o, str),
    "word doubled": (word_doubled, str),
    "English tail": (english_tail, str),
    "cut at a comma": (cut_at_comma, str),
    "punctuation alone": (lambda s, g, o: "...", str),
    "full stop lost": (stop_lost, str),
    "article as a number": (article_as_number, str),
    "day kept": (ending("am Sonntag"), with_ending("on Sunday")),
    "day changed": (ending("am Samstag"), with_ending("on Sunday")),
    "weight kept": (ending("mit 5 kg"), with_ending("with 5 kg")),
    "weight's unit changed": (ending("mit 5 g"), with_ending("with 5 kg")),
    "noon kept": (ending("am Mittag"), with_ending("at noon")),
    "noon as midnight": (ending("um Mitternacht"), with_ending("at noon")),
    "morning as evening": (ending("am Abend"), with_ending("in the morning")),
    "at night as by day": (ending("am Tag"), with_ending("at night")),
    "name kept": (ending("sagt John"), with_ending("says John")),
    "name changed": (ending("sagt Peter"), with_ending("says John")),
    "second half missing": (second_half_missing(""), str),
    "second half missing, stop": (second_half_missing("."), str),
    "cut after a noun, stop": (cut_after_noun, str),
    "next line's translation": (lambda s, g, o: o, str),  # o: the next line's reference, for this kind
    "phrase loop": (phrase_loop, str),
    "French": (lambda s, g, o: o, str),  # o: FRENCH's line, for this kind
}


def scored(model, tokenizer, calibration, sources: list[str], translations: list[str]) -> list:
    """Each pair's assessment as ``attnmt score`` makes it (en -> de, beam 4): each distinct source searched once
    for the model's own translation, then ``assess_elsewhere``; an empty side gets its EMPTY assessment."""
    decoding = Decoding(beam_size=4)
    distinct = sorted(set(sources))  # each source searched once, as attnmt score searches each line
    own = dict(zip(distinct, translate(model, tokenizer, distinct, decoding), strict=True))
    return with_empty(assess_elsewhere(model, tokenizer, sources, translations, calibration, decoding,
                                       own=[own[s] for s in sources], languages=Languages("en", "de")),
                      sources, translations, calibration)


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
    sources, translations, kinds = [], [], []
    for kind, (make, source_of) in KINDS.items():
        for i, (s, good) in enumerate(zip(src, ref, strict=True)):
            other = (src if kind == "another English sentence" else ref)[(i + 7) % len(src)]
            other = ref[(i + 1) % len(ref)] if kind == "next line's translation" else other
            other = FRENCH.get(i) if kind == "French" else other
            text = make(s, good, other)
            if text is not None:
                sources.append(source_of(s))
                translations.append(text)
                kinds.append(kind)
    found = scored(model, tokenizer, calibration, sources, translations)
    names = (EMPTY, *FLAGS)
    print(f"model {args.model}, {'calibrated' if calibration else 'uncalibrated'}; {len(src)} pairs of {args.src}; "
          "share of each kind flagged: any flag, any rule's (not low_quality), each flag")
    print(f"{'kind':26} {'n':>5} {'any':>6} {'rules':>6} " + " ".join(f"{n[:8]:>8}" for n in names))
    for kind in KINDS:
        flags = [set(a.flags) if a else set() for a, k in zip(found, kinds, strict=True) if k == kind]
        share = [sum(name in f for f in flags) / len(flags) for name in names]
        rules = sum(bool(f - {"low_quality"}) for f in flags) / len(flags)
        print(f"{kind:26} {len(flags):5d} {sum(bool(f) for f in flags) / len(flags):6.3f} {rules:6.3f} "
              + " ".join(f"{x:8.3f}" for x in share))


if __name__ == "__main__":
    main()
