"""German writes its nouns with a capital, and its adjectives and adverbs in lower case inside a sentence ("Der Hund
ist sehr müde."): a word that is surely no noun, by its form or as one of the common adverbs and adjectives, for
the text that a sentence's first capital misleads (a list's item translated alone: attnmt.documents.chosen_items).

Checked against what the demo model's SentencePiece vocabulary (Multi30k, en-de) knows: of the 1,883 words of three
letters or more it holds in title case alone (nouns, "Hund", "Bürgersteig", "Schreibtisch"; English names),
``is_no_noun`` takes three, all adjectives that start compounds ("Kühl", "Trocken", "Wach": "Kühlschrank"); of its
words in lower case that ``ADJECTIVE_ENDINGS`` reads, all 33 German ones are adjectives or adverbs ("glücklich",
"traurig", "seltsam", "rückwärts").  A word that is both a noun and no noun ("Arm" and "arm", "Weg" and "weg",
"Morgen" and "morgen") is in neither list: it keeps the capital the translation gave it."""

from __future__ import annotations

import re

# Adverbs and uninflected adjectives: what a list's choice shows after a verb ("Der Hund ist <sehr müde>.")
ADVERBS = frozenset(
    "sehr ganz ziemlich etwas noch schon immer nie niemals oft manchmal selten meistens hier dort drinnen "
    "draußen oben unten vorne hinten links rechts heute gestern jetzt bald gleich sofort später früher gern gerne "
    "auch nur fast kaum wieder allein zusammen überall nirgends hinaus heraus hinein herein besonders vielleicht "
    "nicht ja nein bitte danke genug zuerst zuletzt dann dabei darauf".split())
ADJECTIVES = frozenset(
    "müde wach froh böse krank gesund satt nass trocken sauber leer voll offen geschlossen warm kalt heiß kühl hell "
    "dunkel laut leise schnell langsam groß klein lang kurz hoch tief breit schmal dick dünn alt jung neu gut "
    "schlecht schön stark schwach weich hart leicht schwer teuer reich frei bereit wahr falsch nett lieb klug dumm "
    "still wild zahm nah fern weit eng früh spät fremd bekannt beliebt besetzt geöffnet kaputt rot blau grün gelb "
    "schwarz weiß braun grau rosa lila bunt".split())
# The endings of adjectives and adverbs ("glücklich", "traurig", "typisch", "sichtbar", "seltsam", "endlos",
# "lebhaft", "möglicherweise", "rückwärts"), but those of nouns that end so ("Bürgersteig", "Teig", "Mannschaft",
# "Schreibtisch", "Fisch", "Fleisch") and a few nouns in -ig
ADJECTIVE_ENDINGS = re.compile(r"(?:lich|ig|isch|bar|sam|los|haft|weise|wärts)$")
NOUN_ENDINGS = re.compile(r"(?:eig|schaft|tisch|fisch|eisch)$")
NOUNS_IN_IG = frozenset("könig honig käfig essig pfennig reisig zeisig".split())


def is_no_noun(word: str) -> bool:
    """Whether ``word`` (any case) is surely no German noun: one of ADVERBS or ADJECTIVES, or longer than its
    adjective's ending by three letters or more (ADJECTIVE_ENDINGS, not NOUN_ENDINGS nor NOUNS_IN_IG)."""
    lower = word.lower()
    if lower in ADVERBS or lower in ADJECTIVES:
        return True
    found = ADJECTIVE_ENDINGS.search(lower)
    return (found is not None and found.start() >= 3 and not NOUN_ENDINGS.search(lower)
            and lower not in NOUNS_IN_IG)
