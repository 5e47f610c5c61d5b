"""Whether a German label's noun phrase is declined as a label's noun is: in the nominative, its article and its
adjectives of one gender, and that gender its noun's where the noun's form tells it.

A label names a thing, so its noun phrase is its own subject, in the nominative; an article in another case ("Den
Hund", "Einem Hund"), or an adjective with no article in another case's ending ("Alten Mann"), is a caption's object
cut loose from its verb.  In the nominative, German's article and the endings of the adjectives after it say the
noun's gender: "der" and "dieser" a masculine's, "die" a feminine's or a plural's, "das" a neuter's, "ein" with
nothing more a masculine's or a neuter's, whose adjective then says which ("ein kleiner" and "ein kleines"), "eine"
a feminine's; after "der", "die", "das" an adjective ends in "-e", with no article as "der", "die", "das" would
("kleiner", "kleine", "kleines").  So "Ein kleine Hund" and "Der großes Haus" name no gender at all
(``readings``).  A noun's own gender shows in the ending its last part has (``noun_gender``: "Zeitung", "Mädchen",
"Schmetterling"; a compound's gender is its last part's) and in a person's sex ("Frau", "Kellnerin", "Feuerwehrmann");
a noun that shows neither ("Hund", "Boot") is taken with any gender: what the model writes before it is not read.
"""

from __future__ import annotations

from attnmt.text.articles import ARTICLES
from attnmt.text.function_words import FUNCTION_WORDS
from attnmt.text.german_words import ADJECTIVES, is_no_noun

MASCULINE, FEMININE, NEUTER, PLURAL = "m", "f", "n", "pl"
ANY = frozenset((MASCULINE, FEMININE, NEUTER, PLURAL))
# The nominative's readings of an article or a determiner like one ("dieser", "jede"); an oblique one has none
DEFINITE = {"der": {MASCULINE}, "die": {FEMININE, PLURAL}, "das": {NEUTER}}
DER_WORDS = ("dies", "jen", "jed", "welch", "manch")  # declined as "der": "dieser", "diese", "dieses"
EIN_WORDS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer")  # "ein" and the possessives
DECLINED = ("e", "en", "em", "er", "es")  # a determiner's endings after its stem ("dies" + "er", "ein" + "em")
STRONG = {"er": {MASCULINE}, "e": {FEMININE, PLURAL}, "es": {NEUTER}}  # an adjective's ending with no article
# The endings a German noun's gender shows in, of its last part, and what sex names a person by.  Each is a rule of
# German with the few common nouns it misses left out (NOT_GENDERED): "-ment" is neuter but "Moment", "-ei" feminine
# but "Papagei" and "Brei" (its "-erei", "-elei", "-tei", "-zei" kept), "-ion" feminine but no word of four letters.
ENDINGS = (
    (FEMININE, ("ung", "heit", "keit", "schaft", "tät", "erei", "elei", "tei", "zei", "enz", "tur", "gur", "sur",
                "erin", "istin", "entin", "antin", "orin", "eurin", "ärztin", "köchin", "frau", "mutter", "tochter",
                "schwester")),
    (NEUTER, ("chen", "lein", "ment", "eum", "ium", "trum", "orum")),
    (MASCULINE, ("ling", "ismus", "eur", "ktor", "itor", "otor", "mann", "vater", "sohn", "bruder")),
)
LONG_ENDINGS = ((FEMININE, ("ion", "ik", "ie")),)  # only on a noun of LONG letters or more: not "Ion", "Knie"
LONG = 5
# Endings that look like a rule's and are not: masculine nouns in "-ment", in "-chen" after a vowel, no diminutive's
# ("Kuchen", "Knochen", "Drachen"), in "-ion" after "p", a person's ("Champion", "Spion", "Skorpion"), and in "-ung"
# of a verb's stem, no noun made of a verb ("Sprung", "Schwung")
NOT_GENDERED = ("moment", "zement", "uchen", "ochen", "achen", "pion", "sprung", "schwung")
SAME_PLURAL = ("chen", "lein")  # the endings a plural keeps; every other of ENDINGS is a singular's


def no_label_phrase(words: list[str]) -> bool:
    """Whether the noun phrase German ``words`` open with (``phrase``) is declined as no label's noun: in no
    nominative of one gender (``readings``: "Einen Hund", "Ein kleine Hund", "Alten Mann"), or in one whose gender
    is not its noun's (``noun_gender``: "Der Frau", "Das Zeitung"); a noun phrase a word of meaning follows (a verb's
    object: "Neuen Ordner erstellen"), one a time's accusative may be ("Jeden Tag", "Diesen Monat"), and a text with
    no such phrase are not judged."""
    found = phrase(words)
    if found is None:
        return False
    determiner, adjectives, noun = found
    if determiner is not None and determiner.endswith("en") and determiner.startswith(DER_WORDS):
        return False  # a time's accusative, a label's adverb: "Jeden Tag" (every day), "Diesen Monat" (this month)
    possible = readings(determiner, adjectives)
    gender = noun_gender(noun)
    plural = PLURAL in possible and noun.endswith(SAME_PLURAL)  # "Die Mädchen": the girls
    return not possible or (gender is not None and gender not in possible and not plural)


def phrase(words: list[str]) -> tuple[str | None, list[str], str] | None:
    """The determiner (None: none), the adjectives and the noun, in small letters, of the noun phrase German ``words``
    open with, where nothing but a function word follows it: an article or determiner first, then adjectives (in
    small letters, or in capitals all but the last word), then the noun; with no determiner, a first word in an
    adjective's ending whose stem is a known adjective (german_words: "Rote Schuhe") before the noun."""
    folded = [word.lower() for word in words]  # not casefold's "ss" for "ß": "große"
    if not folded:
        return None
    start = 1 if determiner_word(folded[0]) else 0
    end = next((k for k in range(start, len(words)) if folded[k] in FUNCTION_WORDS), len(words))
    if end - start < 1 or (start == 0 and end > 1 and not adjective(folded[0])):
        return None
    cased = any(character.islower() for word in words[:end] for character in word)
    if cased and any(word[:1].isupper() for word in words[max(start, 1):end - 1]):
        return None  # a noun before the last word: no one noun phrase ("Warenkorb anzeigen" is cut at "anzeigen")
    if cased and words[end - 1][:1].islower():
        return None  # a verb or an adjective last: no noun ("Neuen Ordner erstellen", "Heute geschlossen")
    if not cased and not all(adjective(word) for word in folded[start:end - 1]):
        return None  # in capitals, a noun or a verb may stand anywhere ("NEUEN ORDNER ERSTELLEN")
    return (folded[0] if start else None), folded[start:end - 1], folded[end - 1]


def determiner_word(word: str) -> bool:
    """Whether ``word``, in small letters, is a German article or a determiner declined as one ("dieser", "meine")."""
    return word in ARTICLES["de"] or any(word.startswith(stem) and word[len(stem):] in DECLINED for stem in DER_WORDS) \
        or any(word.startswith(stem) and word[len(stem):] in ("", *DECLINED) for stem in EIN_WORDS)


def adjective(word: str) -> bool:
    """Whether ``word``, in small letters, is a German adjective with an ending: its stem (without "-e", "-er", "-es",
    "-en", "-em", and a comparative's "-er" and umlaut: "ältere"; capitals' "SS" read as "ß": "GROSSE") is a known
    adjective (german_words)."""
    for ending in ("e", "er", "es", "en", "em"):
        stem = word.removesuffix(ending)
        if stem != word and any(form in ADJECTIVES or is_no_noun(form)
                                for form in (stem, stem.removesuffix("er").translate(PLAIN), stem.replace("ss", "ß"))):
            return True
    return False


PLAIN = str.maketrans("äöü", "aou")


def readings(determiner: str | None, adjectives: list[str]) -> set[str]:
    """The genders (or PLURAL) that ``determiner`` and ``adjectives`` (in small letters) are a nominative of together:
    none where either is in another case ("den", "einem", "alten" with no article) or they name two."""
    if determiner is None:
        possible, weak = set(ANY), False
    else:
        possible, weak = determiner_readings(determiner)
    for word in adjectives:
        ending = next((e for e in ("en", "em", "er", "es", "e") if word.endswith(e)), None)
        if ending is None:
            continue  # no ending: no adjective declined ("lila", "rosa")
        possible &= ({PLURAL} if ending == "en" else {MASCULINE, FEMININE, NEUTER} if ending == "e" else set()) \
            if weak else STRONG.get(ending, set())
    return possible


def determiner_readings(word: str) -> tuple[set[str], bool]:
    """The nominative's readings of a determiner ``word`` (in small letters) and whether an adjective after it is weak
    (ends in "-e", or "-en" in the plural); no readings for an oblique one ("den", "einem")."""
    if word in DEFINITE:
        return set(DEFINITE[word]), True
    for stem in DER_WORDS:
        if word.startswith(stem):
            return set(STRONG.get(word[len(stem):], set())), True
    found = next((each for each in EIN_WORDS if word.startswith(each)), None)
    if found is None:
        return set(), True  # "den", "dem", "des"
    ending = word[len(found):]
    if ending == "":
        return {MASCULINE, NEUTER}, False  # "ein kleiner", "ein kleines": its adjective says which
    if ending == "e":
        return ({FEMININE} if found == "ein" else {FEMININE, PLURAL}), True
    return set(), True


def noun_gender(noun: str) -> str | None:
    """The gender a German ``noun`` (in small letters) shows in its ending (ENDINGS, LONG_ENDINGS on a noun of LONG
    letters or more), None where it shows none."""
    if noun.endswith(NOT_GENDERED):
        return None
    for gender, endings in ENDINGS + (LONG_ENDINGS if len(noun) >= LONG else ()):
        if noun.endswith(endings):
            return gender
    return None
