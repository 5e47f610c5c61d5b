"""The ``added`` flag on phrases added within a translation (attnmt.decoding.quality_within), two sets built two
ways, and on clean lines: Multi30k's validation references with one of PHRASES put between two of their words (a
word before it and one after, the place drawn at random), and the model's own translations of the validation
sources with 2 to 5 words of another validation reference put so; the validation references as they are, the
model's own translations of them, and test_2016_flickr's references.  Each pair is scored as ``attnmt score``
scores it (quality_broken.scored); the model's own translations are assessed as ``attnmt translate`` assesses
them too.  The share of each kind flagged ``added`` and ``low_quality`` is printed, the additions' by the half of
the validation set they were made from (the settings were chosen on the first), and each clean pair flagged
``added``.

    .venv/bin/python benchmarks/experiments/quality_added_within.py MODEL_DIR [--threads 1]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

import torch
from quality_broken import scored  # this folder is on the path when the script runs

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.translate import translate
from attnmt.text.data import read_lines

DATA = Path(__file__).resolve().parents[2] / "data" / "multi30k"
PHRASES = ("mit einem blauen Rucksack", "der gestern in Berlin war", "am frühen Morgen", "trotz des Regens",
           "zusammen mit seinem Bruder", "in einem langen Mantel", "mit großer Freude", "vor einem alten Haus",
           "während der Pause", "aus Holz", "mit ihren Freunden", "im Sommer", "ohne Hut", "auf dem Weg nach Hause",
           "neben dem Fluss", "in der Nähe der Schule", "mit einer Sonnenbrille", "bei Nacht", "langsam",
           "wieder einmal")
TUNED = 507  # the additions made from the first TUNED validation pairs are those the settings were chosen on
# One or two words put between two words of a reference: adverbs and short phrases anywhere, and adjectives before a
# noun after its article, in the ending the article asks for (``adjective_added``).
SHORT = ("gestern", "heute", "langsam", "plötzlich", "wieder", "fröhlich", "gemeinsam", "heimlich", "im Regen",
         "am Abend", "mit Hut", "ganz allein", "sehr schnell", "zu Hause", "nachts", "vorsichtig")
ADJECTIVES = ("groß", "klein", "alt", "jung", "müd", "dick", "schwarz", "rot", "fröhlich", "nass", "hübsch", "laut")
ENDINGS = {"einem": "en", "einen": "en", "einer": "en", "den": "en", "dem": "en", "des": "en", "eine": "e", "die": "e",
           "der": "e", "das": "e"}
# A reference's last phrase moved to after its verb ("Ein Mann spielt Gitarre auf der Straße." -> "Ein Mann spielt
# auf der Straße Gitarre."): right German in another order, a clean line.
PREPOSITIONS = {"auf", "in", "im", "am", "an", "vor", "neben", "unter", "über", "mit", "durch", "bei", "hinter"}
NOT_VERBS = PREPOSITIONS | {"und", "oder", "mit", "von", "zu", "aus", "ein", "eine", "einem", "einen", "einer", "der",
                            "die", "das", "den", "dem", "des", "sich", "zwei", "drei", "vier"}


def within(text: str, phrase: list[str], rng: random.Random) -> str | None:
    """``text`` with ``phrase`` put between two of its words (None where it has fewer than 4)."""
    words = text.rstrip(".!").split()
    if len(words) < 4:
        return None
    at = rng.randint(1, len(words) - 1)
    return " ".join([*words[:at], *phrase, *words[at:]]) + "."


def adjective_added(text: str, rng: random.Random) -> str | None:
    """``text`` with an adjective of ADJECTIVES put between an article of ENDINGS and the capitalised noun after it
    (None where it has no such pair past its first word)."""
    words = text.split()
    places = [k for k in range(1, len(words) - 1) if words[k].lower() in ENDINGS and words[k + 1][:1].isupper()]
    if not places:
        return None
    at = rng.choice(places)
    adjective = rng.choice(ADJECTIVES)
    return " ".join([*words[:at + 1], adjective + ENDINGS[words[at].lower()], *words[at + 1:]])


def phrase_moved(text: str) -> str | None:
    """``text``'s last phrase after a preposition of PREPOSITIONS moved to right after its verb: the first
    lower-case word, itself no preposition, article or number, after a capitalised one that is no article or number.
    None where it has none, the phrase already follows the verb, or a comma stands between them."""
    words = text.rstrip(".").split()
    verb = next((k for k in range(1, len(words)) if words[k - 1][:1].isupper() and words[k - 1].lower() not in NOT_VERBS
                 and words[k].islower() and words[k] not in NOT_VERBS), None)
    start = max((k for k in range(len(words)) if words[k] in PREPOSITIONS), default=None)
    if verb is None or start is None or start <= verb + 1 or len(words) - start < 2 \
            or any("," in w for w in words[verb:]):
        return None
    return " ".join([*words[:verb + 1], *words[start:], *words[verb + 1:start]]) + "."


def from_another(references: list[str], i: int, rng: random.Random) -> list[str]:
    """2 to 5 words in a row of a validation reference other than the ``i``th ([] where it is too short)."""
    other = references[(i + 1 + rng.randrange(len(references) - 1)) % len(references)].rstrip(".").split()
    size = rng.randint(2, 5)
    if len(other) <= size:
        return []
    first = rng.randrange(1, len(other) - size + 1)
    return other[first:first + size]


def labelled_pairs(own: list[str]) -> list[tuple[str, str, str]]:
    """(kind, source, translation) of each pair; ``own``: the model's translations of the validation sources."""
    src, ref = read_lines(str(DATA / "val.en.gz")), read_lines(str(DATA / "val.de.gz"))
    rng = random.Random(7)
    rows = [("good, validation", s, r) for s, r in zip(src, ref, strict=True)]
    rows += [("good, test", s, r) for s, r in zip(read_lines(str(DATA / "test_2016_flickr.en.gz")),
                                                 read_lines(str(DATA / "test_2016_flickr.de.gz")), strict=True)]
    rows += [("good, own translations", s, o) for s, o in zip(src, own, strict=True)]
    for i, (s, r, o) in enumerate(zip(src, ref, own, strict=True)):
        half = "chosen on" if i < TUNED else "held out"
        phrase = within(r, rng.choice(PHRASES).split(), rng)
        if phrase:
            rows.append((f"a phrase in a reference, {half}", s, phrase))
        words = from_another(ref, i, rng)
        other = within(o, words, rng) if words else None
        if other:
            rows.append((f"another's words in its own, {half}", s, other))
    return rows + short_pairs(src, ref)


def short_pairs(src: list[str], ref: list[str]) -> list[tuple[str, str, str]]:
    """The one- and two-word additions (SHORT, ``adjective_added``) and the moved phrases (``phrase_moved``), drawn
    with a random generator of their own, so that the sets above stay as they were."""
    rng = random.Random(11)
    rows = []
    for i, (s, r) in enumerate(zip(src, ref, strict=True)):
        half = "chosen on" if i < TUNED else "held out"
        word = within(r, rng.choice(SHORT).split(), rng)
        if word:
            rows.append((f"a word or two in a reference, {half}", s, word))
        adjective = adjective_added(r, rng)
        if adjective:
            rows.append((f"an adjective in a reference, {half}", s, adjective))
        moved = phrase_moved(r)
        if moved:
            rows.append(("good, a phrase moved", s, moved))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    src = read_lines(str(DATA / "val.en.gz"))
    own = translate(model, tokenizer, src, Decoding(beam_size=4))
    rows = labelled_pairs(own)
    found = scored(model, tokenizer, calibration, [s for _, s, _ in rows], [t for _, _, t in rows])
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for (kind, source, translation), assessment in zip(rows, found, strict=True):
        counts[kind][0] += "added" in assessment.flags
        counts[kind][1] += "low_quality" in assessment.flags
        counts[kind][2] += 1
        if "added" in assessment.flags and kind.startswith("good"):
            print(f"  {assessment.quality:.3f} {assessment.flags} | {source} | {translation}")
    as_translated = assess(model, tokenizer, src, own, calibration, languages=Languages("en", "de"))
    for source, translation, assessment in zip(src, own, as_translated, strict=True):
        counts["good, own, as translate reads"][0] += "added" in assessment.flags
        counts["good, own, as translate reads"][1] += "low_quality" in assessment.flags
        counts["good, own, as translate reads"][2] += 1
        if "added" in assessment.flags:
            print(f"  translate {assessment.quality:.3f} {assessment.flags} | {source} | {translation}")
    for kind, (added, low, n) in counts.items():
        print(f"{kind:45} of {n:4d}: added {added:4d} ({added / n:.3f}), low_quality {low / n:.3f}")


if __name__ == "__main__":
    main()
