"""Whether a German translation of a short label is one of the label, by German's own grammar: a label that is a
noun phrase stays one (no verb added), and its translation's article and noun agree.

A model trained on captions (the demo's, on Multi30k) reads a label alone as a caption's start, and two of its
mistakes are likely words, which their plausibility (attnmt.decoding.garbled_labels) takes.  It makes a sentence of
a noun phrase, adding a verb the label has no word for: "Dog" -> "Ein Hund schwimmt" (0.50), "Workers" -> "Arbeiter
arbeiten", "Men at work" -> "Männer arbeiten an der Arbeit".  And it writes a noun in another number or case than
its article and the label say: "A small cat" -> "Eine kleine Katzen" (0.64), "The kitchen" -> "Die Küchen", "The
red house" -> "Das rote Hauses", "Old books" -> "Ein älterer Bücher".  German shows both in its letters: a noun has
a capital, so a word in small letters right after one that is no function word is a predicate (``added_verb``),
and a noun's plural is its singular with an ending (attnmt.decoding.term_plurals.plural_endings: "Katze" + "n"),
which a feminine singular's article ("eine") never stands before (``disagrees``); its article and adjectives are a
nominative's of one gender, the noun's where its ending or a person's sex shows it (attnmt.decoding.label_gender:
"Ein kleine Hund", "Der Frau" are taken for no label's).  A noun whose form shows no gender is taken with any ("Ein
großer Haus"), and in capitals a verb is read only after a noun the vocabulary knows with a capital (``cased``:
"FUSSBALLSPIELER KÄMPFEN"), whose letters show no noun.

What the model's vocabulary knows as words (``known_words``) reads two more: a compound of two of them writes two
English words (``parts``: "Soccer players" -> "Fußballspieler kämpfen" adds a verb, as many words of meaning
otherwise; an infinitive last translates the imperative a label opens with: ``imperative``, "Update passwords" ->
"Passwörter aktualisieren"), and a plural in "-e" or "-er" with an "n" more, both known, is a dative ("Black
shoes" -> "Schwarze Schuhen": ``dative_plural``).
"""

from __future__ import annotations

import functools
import re

from attnmt.decoding.label_gender import no_label_phrase, phrase
from attnmt.decoding.term_agreement import QUANTIFIERS
from attnmt.decoding.term_compounds import (
    FIRST_PART,
    HELPERS,
    NO_NOUNS,
    NOUN_S,
    PLURAL,
    SINGULAR,
    named_pieces,
    verb_after,
)
from attnmt.decoding.term_plurals import NO_PLURALS, SINGULARS, plural_endings, singular_forms, spelled_as_source
from attnmt.text.articles import ARTICLES
from attnmt.text.function_words import FUNCTION_WORDS, PREPOSITIONS, PUNCTUATION
from attnmt.text.german_words import is_no_noun

# Words that carry no noun's, verb's or adjective's meaning of their own, besides FUNCTION_WORDS' articles,
# prepositions and conjunctions: persons' pronouns and possessives (English and German: "Contact us" ->
# "Kontaktieren Sie uns" adds no verb), and German's prepositions of prices and ranges ("Preis pro Stück").
PRONOUNS = frozenset(
    "i you he she it we they me him her us them my your his its our their "
    "ich du er sie es wir ihr mich dich ihn uns euch ihm ihnen sich mein dein sein unser euer".split())
LABEL_PREPOSITIONS = frozenset("pro ab bis je per seit inkl inklusive zzgl exklusive samt wegen trotz statt".split())
# German's verbs that help another and are finite in any person ("Eine Familie ist im Familie"), which as a
# label's first word begin no noun phrase ("Wird geladen" for "Loading")
AUXILIARIES = frozenset(
    "ist sind war waren wird werden wurde wurden hat haben hatte hatten kann können muss müssen soll sollen".split())
# How an attributive adjective ends in German ("gestellte Fragen", "kleiner Hund"), before the noun it goes with
ADJECTIVE_ENDINGS = ("e", "en", "er", "es", "em")
# The endings of a German noun's plural and its dative, as plural_endings names them, which its singular never has
PLURAL_ENDINGS = ("nen", "ern", "en", "er", "n")
GENITIVE = "es"  # a noun's genitive ending ("des Hauses"), which no other article stands before
NOUN_LETTERS = 3  # a noun's stem is this long at least: "Zeh" + "en", not "Ei" + "er"
# The articles of one thing alone, and of a feminine singular, whose noun has no ending ("eine Katze", "einer Katze")
ONE = frozenset(("ein", "eine", "einen", "einem", "einer", "eines", "das", "dem", "des"))
FEMININE_ONE = frozenset(("eine", "einer"))
# The articles that are no genitive's, after which a noun has no genitive ending ("das Haus", not "das Hauses")
NOT_GENITIVE = frozenset(("ein", "eine", "einen", "einem", "einer", "der", "die", "das", "den", "dem"))
# English words plural in form that name one thing, which German names in the singular ("Pants" -> "Eine Hose")
ONE_THING = frozenset((
    "pants", "trousers", "scissors", "pajamas", "pyjamas", "tongs", "pliers", "binoculars", "tweezers", "leggings",
    "tights", "stairs", "clothes", "headquarters", "barracks", "series", "species", "sunglasses", "eyeglasses"))
# German nouns of one, collective, that name what English names in the plural ("Vegetables" -> "Das Gemüse", "Kitchen
# tools" -> "Das Küchenwerkzeug"), and compounds ending in one
COLLECTIVES = ("obst", "gemüse", "spielzeug", "geschirr", "besteck", "werkzeug", "gepäck", "zubehör", "gebäck",
               "schmuck", "personal", "publikum", "vieh", "geflügel")
# English verbs a button's or a menu's label opens with in the imperative, before its object ("Update passwords",
# "Download files"), whose German translation writes the verb last as an infinitive ("Passwörter aktualisieren")
IMPERATIVES = frozenset(
    "add apply browse buy cancel change check choose clear close compare confirm connect contact copy create delete "
    "disable download edit enable enter explore export find hide import install join manage move open print refresh "
    "remove rename reply request reset restore save search select send share show sort submit update upgrade upload "
    "verify view".split())
INFINITIVE = ("en", "rn", "ln")  # a German infinitive's endings: "aktualisieren", "ändern", "sammeln"
LETTERS = re.compile(r"[^\W\d_](?:[\w'’-]*[^\W\d_])?")
SINGULAR_NUMBER, PLURAL_NUMBER = "singular", "plural"
PART = 4  # a compound's head the vocabulary knows is this long at least: "Fußball" + "spieler"
VERB_LETTERS = 5  # an English past or participle is this long at least: "closed", "going"; not "red", "bed", "king"


def misread(label: str, translation: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether ``translation``, German, is no translation of the English ``label`` as a label: it adds a verb
    (``added_verb``, a compound of ``known`` words read as its parts), its article and noun disagree
    (``disagrees``), it says a word twice that the label says once (``repeated``), its noun is a dative plural
    (``dative_plural``) or it has no noun for the label's plural (``unnamed``).  A translation in capitals is read in
    German's case for its verbs (``cased``), so that its nouns show."""
    return added_verb(label, cased(translation, known), known) or disagrees(label, translation) \
        or repeated(label, translation) or dative_plural(translation, known) or unnamed(label, translation)


def repeated(label: str, translation: str) -> bool:
    """Whether ``translation`` has a word of meaning twice (case-folded) where ``label`` has none twice: "Girl" ->
    "Mädchen Mädchen Mädchen", "Family" -> "Eine Familie ist im Familie"; "Bora Bora" is its label's."""
    return twice(meaning(translation)) and not twice(meaning(label))


def cased(translation: str, known: frozenset[str]) -> str:
    """``translation``, where it is in capitals, in German's case: a word ``known`` with a capital (its "SS" read as
    "ß" where that is known: "FUSSBALLSPIELER" is "Fußballspieler") with one, the first word with one, every other in
    small letters ("FUSSBALLSPIELER KÄMPFEN" is "Fußballspieler kämpfen"); a translation with small letters as it is."""
    if any(character.islower() for character in translation):
        return translation
    words = []
    for k, word in enumerate(translation.split(" ")):
        lower = word.lower()
        found = next((form for form in (lower, lower.replace("ss", "ß")) if form.strip(PUNCTUATION) in known), None)
        written = found or lower
        words.append(written[:1].upper() + written[1:] if found or k == 0 else written)
    return " ".join(words)


def dative_plural(translation: str, known: frozenset[str]) -> bool:
    """Whether the noun a German ``translation``'s noun phrase ends in (label_gender.phrase) is a dative plural: a
    plural in "-e" or "-er" with the dative's "n" ("Schuhe" + "n", "Kinder" + "n"), both that plural and its
    singular words of the vocabulary (``known``: "schuhe", "schuh"), so that the "-n" is no plural's own
    ("Katzen": "katz" is none; "Jungen": "jung" none).  A label names its noun in the nominative: the demo model
    wrote "Black shoes" as "Schwarze Schuhen", a caption's "in schwarzen Schuhen"."""
    found = phrase(words_of(translation))
    if found is None or not found[2].endswith(("en", "ern")):
        return False
    plural = found[2][:-1]
    return plural in known and plural.removesuffix("e" if plural.endswith("e") else "er") in known


def unnamed(label: str, translation: str) -> bool:
    """Whether ``translation`` of a plural ``label``, which names things (``number``: "Black dogs"), has words of
    meaning and each is surely no noun (german_words.is_no_noun: an adjective or an adverb): the demo model wrote
    "Black dogs" as "Schwarz", 0.47 likely."""
    words = meaning(translation)
    return number(label) == PLURAL_NUMBER and bool(words) and all(is_no_noun(word) for word in words)


def twice(words: list[str]) -> bool:
    """Whether a word of ``words`` stands in them twice or more, in any case."""
    folded = [word.casefold() for word in words]
    return len(set(folded)) < len(folded)


def added_verb(label: str, translation: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether ``translation`` makes a sentence of ``label``: it has a finite verb (``predicate``) and more words of
    meaning than the label, a compound of two ``known`` words counted as two (``parts``), so that the label has no
    word the verb translates ("Dog" -> "Ein Hund schwimmt", "Soccer players" -> "Fußballspieler kämpfen"; "Shop
    closed" -> "Geschäft geschlossen" and "View cart" -> "Warenkorb anzeigen" translate theirs), or it opens with
    an article, as a caption's subject does, where the label has no verb (``english_verb``): "Tall man" -> "Ein
    Mann angelt" dropped the adjective for the verb.  Not judged in capitals, which show no noun."""
    if not any(character.islower() for character in translation):
        return False
    words = words_of(translation)
    if not predicate(words, number(label) == PLURAL_NUMBER) or imperative(label, words):
        return False
    return sum(parts(word, known) for word in meaning(translation)) > len(meaning(label)) or (
        words[0].casefold() in ARTICLES["de"] and not english_verb(label))


def imperative(label: str, words: list[str]) -> bool:
    """Whether an English ``label`` opens with a verb in the imperative before its object (``IMPERATIVES``: "Update
    passwords") and a German translation's ``words`` end with an infinitive in small letters (``INFINITIVE``:
    "Passwörter aktualisieren"), which translates it: German writes a button's verb last, where the "-en" of a
    plural's verb after its subject is a caption's ("Fußballspieler kämpfen" for "Soccer players").  Its compound
    for one English word counted as two ("Pass" and "Wörter"), "Update passwords" kept its English."""
    found = LETTERS.findall(label)
    return len(found) >= 2 and found[0].casefold() in IMPERATIVES and words[-1][:1].islower() \
        and words[-1].endswith(INFINITIVE)


def english_verb(label: str) -> bool:
    """Whether an English ``label`` holds a verb: a helping verb ("is", "can": HELPERS), a past or participle in
    "-ed" or "-ing" ("closed", "fishing"), one of NO_NOUNS' verbs ("sat", "looks") or a third person in "-s" after
    a noun (term_compounds.verb_after: "Dog runs"), of which "A man fishing" may be a caption's "Ein Mann angelt"."""
    found = list(LETTERS.finditer(label))
    return any(word in HELPERS or word in NO_NOUNS or (len(word) >= VERB_LETTERS and word.endswith(("ed", "ing")))
               or (k and verb_after(label[:each.start()], word, label[each.end():]))
               for k, each in enumerate(found) for word in [each.group().casefold()])


def predicate(words: list[str], plural: bool) -> bool:
    """Whether a German text's ``words`` hold a finite verb after a noun: a word in small letters, no function word,
    right after a word with a capital that is none either (a noun, or the text's first word), ending as a verb's
    third person does ("schwimmt", "ist"; "arbeiten" for a ``plural`` label's subject, where another's "-en" may be
    an infinitive, a button's "Newsletter abonnieren"), and no adjective before a noun after the text's first word
    ("Häufig gestellte Fragen")."""
    for i in range(1, len(words)):
        before, word = words[i - 1], words[i]
        if not (before[:1].isupper() and word[:1].islower()) or plain(before) or plain(word):
            continue
        if before.casefold() in AUXILIARIES:
            continue
        if i == 1 and word.endswith(ADJECTIVE_ENDINGS) and words[i + 1:i + 2] and words[i + 1][:1].isupper():
            continue
        if word in AUXILIARIES or word.endswith("t") or (plural and word.endswith("n")):
            return True
    return False


def disagrees(label: str, translation: str) -> bool:
    """Whether the noun phrase ``translation`` opens with says another number than ``label`` (an English plural
    after "ein", "eine", "das", but before a collective noun: "Old books" -> "Ein älterer Bücher", where "Vegetables"
    -> "Das Gemüse" is right; a singular after a number, after "die" and an adjective in "-en" or before a plural:
    "The empty room" -> "Die leeren Raum", "The kitchen" -> "Die Küchen"), or than its own article: a plural noun
    after a feminine singular's ("Eine kleine Katzen"; "die" and an adjective in "-e": "Die weiße Katzen"), a
    genitive's ending after another's ("Das rote Hauses"); or declined as no label's noun is, in another case than
    the nominative or another gender than its noun's (attnmt.decoding.label_gender: "Den Hund", "Ein kleine Hund",
    "Der Frau")."""
    words = words_of(translation)
    if not words:
        return False
    if no_label_phrase(words):
        return True
    said, article, (adjectives, noun) = number(label), words[0].casefold(), noun_phrase(words)
    plural = bool(noun) and plural_form(noun, spelled_as_source(label, noun))
    if said == PLURAL_NUMBER and article in ONE and not noun.casefold().endswith(COLLECTIVES):
        return True
    if said == SINGULAR_NUMBER and (article in QUANTIFIERS or (article == "die" and (
            plural or any(adjective.endswith("en") for adjective in adjectives)))):
        return True
    if plural and (article in FEMININE_ONE or (article == "die" and any(a.endswith("e") for a in adjectives))):
        return True
    return article in NOT_GENITIVE and noun.casefold().endswith(GENITIVE) and len(noun) > NOUN_LETTERS + 1


def noun_phrase(words: list[str]) -> tuple[list[str], str]:
    """The adjectives (case-folded) and the noun of the noun phrase a German text's ``words`` open with, its article
    first: the words up to its first with a capital after the article ("Eine kleine Katzen"), or in capitals, up to
    the last before a function word ("EINE KLEINE KATZEN MIT"); no adjectives and "" for a text of one word."""
    rest = words[1:]
    cased = any(character.islower() for word in words for character in word)
    at = next((k for k, word in enumerate(rest) if word[:1].isupper() or plain(word)), len(rest)) if cased else \
        next((k for k, word in enumerate(rest) if plain(word)), len(rest)) - 1
    if at < 0 or at >= len(rest) or plain(rest[at]):
        return [], ""
    return [word.casefold() for word in rest[:at]], rest[at]


def plural_form(noun: str, loanword: bool) -> bool:
    """Whether a German ``noun`` is a plural: a stem of NOUN_LETTERS letters or more with an ending its plural takes
    (plural_endings: "Katze" + "n", "Rechnung" + "en", "Kind" + "er"; a ``loanword``'s "s" is left out, as its
    singular's "-s" may be its own: "Bus")."""
    for ending in PLURAL_ENDINGS:
        stem = noun[: len(noun) - len(ending)]
        if noun.casefold().endswith(ending) and len(stem) >= NOUN_LETTERS \
                and ending in plural_endings(stem[:1].upper() + stem[1:].casefold(), loanword):
            return True
    return False


def number(label: str) -> str | None:
    """An English ``label``'s number: its first word's, where that is a determiner of one or of several ("a",
    "two"), else its head's, the last word before a preposition ("Men at work": "men"), plural where it is an
    irregular plural or a word in "-s" that has a singular ("dogs"; "bus", "glass" have none); None for a word that
    names one thing or none in the plural (ONE_THING, NO_PLURALS: "pants", "news") and a label of no word."""
    words = [word.casefold() for word in LETTERS.findall(label)]
    if not words:
        return None
    if words[0] in SINGULAR or words[0] in PLURAL:
        return SINGULAR_NUMBER if words[0] in SINGULAR else PLURAL_NUMBER
    before = next((k for k, word in enumerate(words) if k and word in PREPOSITIONS["en"]), len(words))
    head = words[before - 1]
    if head in ONE_THING or head in NO_PLURALS:
        return None
    plural = head in SINGULARS or (not head.endswith(NOUN_S) and bool(singular_forms(head)))
    return PLURAL_NUMBER if plural else SINGULAR_NUMBER


def parts(word: str, known: frozenset[str]) -> int:
    """How many words a German noun ``word`` writes: 2 for a compound of two ``known`` words, its head of PART
    letters or more (``known_words``: "Fußballspieler", "Fußball" and "Spieler", for the two English words of "Soccer
    players"; "Bauarbeiter"; a linking "s", "n" or "en" between them: "Straßenmusiker"), else 1, and 1 for a word in
    small letters, no noun ("hochladen" is no "Hoch" and "Laden")."""
    folded = word.lower()  # not casefold's "ss" for "ß", which the vocabulary keeps
    if not word[:1].isupper():
        return 1
    for cut in range(FIRST_PART, len(folded) - PART + 1):
        first, head = folded[:cut], folded[cut:]
        if head in known and any(first.removesuffix(link) in known for link in ("", "s", "n", "en")):
            return 2
    return 1


def known_words(tokenizer: object) -> frozenset[str]:
    """The words ``tokenizer``'s vocabulary writes in one piece with a capital (a German noun's form: "▁Fußball",
    "▁Spieler", "▁Bau"), of FIRST_PART letters or more, in small letters: what a compound of the model's is read into
    (``parts``); none for a tokenizer that does not name its pieces."""
    return capitalised_words(named_pieces(tokenizer)) if hasattr(tokenizer, "id_to_piece") else frozenset()


@functools.lru_cache(maxsize=4)  # per vocabulary: a look at each of its pieces
def capitalised_words(pieces: tuple[str, ...]) -> frozenset[str]:
    """``known_words`` of a vocabulary's ``pieces``."""
    return frozenset(word.lower() for piece in pieces
                     if (word := piece.removeprefix("▁")) != piece and word[:1].isupper() and len(word) >= FIRST_PART
                     and word.isalpha())


def meaning(text: str) -> list[str]:
    """The words of ``text`` that carry a meaning of their own: no function word of any language, nor a pronoun."""
    return [word for word in words_of(text) if not plain(word)]


def plain(word: str) -> bool:
    """Whether ``word`` is a function word (FUNCTION_WORDS), a pronoun or one of LABEL_PREPOSITIONS, in any case."""
    folded = word.casefold()
    return folded in FUNCTION_WORDS or folded in PRONOUNS or folded in LABEL_PREPOSITIONS


def words_of(text: str) -> list[str]:
    """The words of ``text`` with letters, the punctuation around each left out."""
    return [word.strip(PUNCTUATION) for word in text.split() if LETTERS.search(word)]
