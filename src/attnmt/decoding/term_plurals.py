"""The plural forms a source term is found in too (attnmt.decoding.glossary): a glossary gives a noun in the
singular, "access point" -> "Zugangspunkt", and a text writes "access points", which was no match, so the
translation went without the term.  The English plural of the term's last word is matched as the term
(``plural_forms``: "dogs", "boxes", "companies"), its target term then written by the search as a word the
model may inflect ("Zugangspunkt" + "e": attnmt.decoding.term_ids.Term's ``inflects``), since the glossary
gives the target's singular alone and German, French or Spanish writes the plural otherwise.

A form is matched only where it is that term's plural: not where it is a word of its own (NO_PLURALS: "news" for
"new", "goods" for "good", "hers" for "her"), nor for a term whose target is a verb (``verb_target``: "walk" ->
"gehen"), whose "walks" is the verb's third person ("a man walks"), where the search forced "gehen"."""

from __future__ import annotations

import re
import unicodedata

from attnmt.decoding.term_forms import acronym

# The endings a target term's own inflected form may carry its last word on by, those of German ("Zugangspunkt" +
# "e", "Router" + "n", "Kind" + "er", "Kindern", "Hauses", "Namens", "Kundinnen"; an adjective's "rotem"), French
# ("routeurs", "réseaux", "connectée") and Spanish ("redes", "puntos"); other letters make another word: "Bankett"
# is no "Bank" + "ett", "Routerkabel" no "Router".
ENDINGS = ("e", "n", "s", "x", "en", "er", "es", "em", "ns", "ern", "ens", "nen")
# The letters a plural's "s" follows directly ("dogs"); after these an English plural takes "es" ("boxes").
SIBILANT_ENDS = ("s", "x", "z", "ch", "sh")
VOWELS = "aeiou"
# The English nouns whose plural takes no "-s" (or another besides it), as the plural of a term's last word:
# "children", "leaves", "criteria", were no match for "child", "leaf", "criterion".  A word ending in "-sis" takes
# "-ses" ("analyses"), one ending in "man", "child" or "person" as that word does ("firemen", "salespeople").
IRREGULAR = {
    "man": ("men",), "woman": ("women",), "child": ("children",), "person": ("people", "persons"),
    "foot": ("feet",), "tooth": ("teeth",), "goose": ("geese",), "mouse": ("mice", "mouses"), "louse": ("lice",),
    "leaf": ("leaves",), "knife": ("knives",), "wife": ("wives",), "life": ("lives",), "half": ("halves",),
    "shelf": ("shelves",), "wolf": ("wolves",), "calf": ("calves",), "loaf": ("loaves",), "thief": ("thieves",),
    "scarf": ("scarves", "scarfs"), "hoof": ("hooves", "hoofs"), "criterion": ("criteria",),
    "phenomenon": ("phenomena",), "datum": ("data",), "medium": ("media", "mediums"), "curriculum": ("curricula",),
    "bacterium": ("bacteria",), "index": ("indices", "indexes"), "matrix": ("matrices",), "vertex": ("vertices",),
    "appendix": ("appendices", "appendixes"), "cactus": ("cacti", "cactuses"), "radius": ("radii",),
    "nucleus": ("nuclei",), "stimulus": ("stimuli",), "fungus": ("fungi",)}
# The vowel a German noun's plural turns into its umlaut ("Mann": "Männer", "Haus": "Häuser", "Vater": "Väter"), the
# last of its last word that is none of "eu", "äu" or "qu", with a consonant after it and no vowel but one "e" of an
# ending syllable: "Arbeiter" was "Ärbeiter" (its "A" the last a, o or u), "Auto" "Autö" and "Frau" "Fräu"
UMLAUT_VOWEL = re.compile(r"(au|Au|(?<![eäqQ])[aouAOU])(?=[^aeiouäöüAEIOUÄÖÜ]+(?:e[^aeiouäöüAEIOUÄÖÜ]*)?$)")
UMLAUTS = str.maketrans("aouAOU", "äöüÄÖÜ")
# A loanword's stressed last syllable after another, which takes no umlaut: "-or" ("Prozessoren", "Motoren"; "Chor":
# "Chöre"), "-ent", "-ant", "-og", "-at", "-on", "-akt", "-ukt", "-et" ("Patente", "Restaurants", "Kataloge", "Monate",
# "Kantone", "Produkte", "Pakete"; the demo model wrote "Drei Pätente", "Viele Ägente", "Drei Dialögen"); not "-al"
# ("Kanäle")
LOAN_SYLLABLE = re.compile(r"[aeiouäöüy][^aeiouäöüy]*(?:or|ent|ant|og|at|on|akt|ukt|et)$")
# The endings of nouns whose plural takes no umlaut: the feminine "-e" ("Flaschen", "Katzen": "Fläscheer" came out),
# "-ung" ("Rechnungen", not "Rechnüngen"), "-schaft", "-ion", "-um" ("Museen", "Zentren")
PLAIN_PLURAL = ("e", "ung", "schaft", "ion", "um")
# The endings of German nouns whose plural has its umlaut alone ("Verträge", "Anfänge", "Strände", "Länder"; the demo
# model wrote "Viele Vertragen" where the plain stem took "-en"): "-ag" but "-tag" ("Tage"), "-and", "-ang"
UMLAUT_ONLY = re.compile(r"(?:(?<!t)ag|and|ang)$", re.IGNORECASE)
# An English loanword's unstressed "-et" ("Tickets", "Budgets", "Tablets", "Outlets", "Buffets", "Jets"; the demo
# model wrote "Einige rotes Tickete", "Täbleter", "Büdgete"), which takes "-s" and no umlaut, as German's own
# stressed "-et" does not ("Pakete", "Planeten", "Magnete"): after "ck", "dg", "l", "u", "ff", "sk", "rg", "rp",
# "nk", "pp", or in a word of three letters
LOAN_ET = re.compile(r"(?:(?:ck|dg|l|u|ff|sk|rg|rp|nk|pp)et|^\wet)$", re.IGNORECASE)
# The last umlaut of a German plural's last word, and its plain vowel ("Männer": "Mann", "Bäume": "Baum")
PLAIN_VOWEL = re.compile(r"[äöüÄÖÜ](?=[^äöüÄÖÜ]*$)")
PLAINS = str.maketrans("äöüÄÖÜ", "aouAOU")
# Irregular plural -> its singulars ("people": "person")
SINGULARS = {plural: [singular for singular, forms in IRREGULAR.items() if plural in forms]
             for plurals in IRREGULAR.values() for plural in plurals}
# The last words of compounds that take their plural as the word does ("fireman": "firemen"), and the words ending
# so that take an "-s" ("humans", "Germans").
COMPOUNDED = ("man", "child", "person")
REGULAR_MAN = frozenset(("human", "german", "roman", "norman", "shaman", "talisman", "caiman", "cayman", "ottoman",
                         "walkman", "batman", "doberman"))
# The English words that read as the plural of another word and are none (or another word's too), measured on
# Multi30k's English sentences, where "glasses", "shorts", "jeans", "others", "towards" and "outdoors" were the
# commonest, and on a software glossary's words ("news", "goods", "contents", "terms" of use, "minutes" of a
# meeting): each is found only as a term of its own.
NO_PLURALS = frozenset((
    "news", "goods", "glasses", "shorts", "jeans", "others", "towards", "outdoors", "indoors", "afterwards",
    "backwards", "forwards", "upwards", "downwards", "besides", "sometimes", "always", "hers", "ours", "yours",
    "theirs", "customs", "means", "manners", "savings", "earnings", "minutes", "premises", "contents", "damages",
    "quarters", "remains", "proceeds", "belongings", "surroundings", "outskirts", "spectacles", "thanks", "works",
    "physics", "economics", "politics", "ethics", "mathematics"))


def plural_forms(key: str) -> list[str]:
    """The English plurals of a normal source term ``key`` (``term_forms.normal``, case-folded), its last word
    inflected: "access point" -> "access points", "e-mail" -> "e-mails", "box" -> "boxes", "company" ->
    "companies", "photo" -> "photos" and "photoes" ("potatoes"), "child" -> "children" (``irregular_plurals``).
    None for a last word that is not Latin letters alone ("4G", "Wi-Fi 6", "C++") or of fewer than three ("it" ->
    "its", "hi" -> "his" are other words)."""
    word = key.replace("-", " ").rpartition(" ")[2]  # "e-mail" -> "e-mails"
    if len(word) < 3 or not word.isalpha() or not all(latin(letter) for letter in word):
        return []
    if irregular := irregular_plurals(word):
        return [key[: len(key) - len(word)] + form for form in irregular]
    if word.endswith(SIBILANT_ENDS):
        return [key + "es"]
    if word.endswith("y") and word[-2] not in VOWELS:
        return [key[:-1] + "ies"]
    return [key + "s", key + "es"] if word.endswith("o") else [key + "s"]


def irregular_plurals(word: str) -> tuple[str, ...]:
    """The plurals of an English ``word`` that takes no plain "-s" or "-es" (IRREGULAR, COMPOUNDED, "-sis"); none
    for another."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    for end in COMPOUNDED:
        if word.endswith(end) and word not in REGULAR_MAN:
            return tuple(word[: -len(end)] + form for form in IRREGULAR[end])
    return (word[:-2] + "es",) if word.endswith("sis") else ()


def umlauted(target: str) -> str | None:
    """``target``, a German noun (its last word with a capital first), with the last vowel of its last word in its
    umlaut (UMLAUT_VOWEL: "Mann" -> "Männ", "Haus" -> "Häus", "Apfel" -> "Äpfel"), as its plural writes it; None
    for another term, or one with no such vowel ("Zeug")."""
    word = target.rpartition(" ")[2]
    if not word[:1].isupper() or LOAN_SYLLABLE.search(word) or LOAN_ET.search(word) or word.endswith(PLAIN_PLURAL):
        return None
    if not (vowel := UMLAUT_VOWEL.search(word)):
        return None
    at = len(target) - len(word) + vowel.start()
    return target[:at] + target[at].translate(UMLAUTS) + target[at + 1:]


# The endings of German's feminine nouns that take "-en" in the plural ("Rechnungen", "Freiheiten", "Stationen")
EN_PLURAL = ("ung", "heit", "keit", "schaft", "ion", "tät", "ei", "ik", "ur", "enz", "anz")
# The vowels a German noun's plural "-s" follows ("Autos", "Kameras", "Hobbys", "Cafés")
S_AFTER = "aiouyéAIOUY"
# The nouns whose plural takes "-er" without an umlaut ("Kinder", "Bilder", "Felder"; "Häuser", "Männer" are
# ``umlauted``), and their compounds ("Fotobilder"): a few, named, for far more take "-e" ("Tische", not "Tischer")
ER_PLURAL = ("kind", "bild", "lied", "feld", "geld", "kleid", "schild", "licht", "brett", "nest", "geist", "glied",
             "rind", "weib", "leib", "gesicht", "geschlecht", "gespenst")


# The nouns of a consonant whose plural is "-en" ("Hemden", "Betten", "Zeiten", "Türen"), and their compounds
# ("Arbeitszeiten", "Haustüren"): a few, named, for far more take "-e" ("Berichte"), whose "-en" is the dative's
# alone, which term_cases leaves out where the English shows none ("Sechs Hemd" came out)
EN_NOUNS = frozenset((
    "hemd", "bett", "ohr", "staat", "schmerz", "strahl", "nerv", "dorn", "insekt", "mast", "zeit", "welt", "zahl",
    "form", "art", "tür", "bahn", "pflicht", "schicht", "fahrt", "frist", "tat", "wahl", "qual", "norm", "uhr",
    "spur", "flut", "schrift", "arbeit", "nachricht", "sicht", "last", "schuld", "bucht", "saat"))
# How long a compound's first part before one of EN_NOUNS is at least ("Arbeitszeit"; "Bart" is no "B" + "art")
EN_FIRST_PART = 3


# The nouns in "-e" that German spells as English does and has long declined as its own, with "-n" in the plural
# ("Routen", "Noten", "Minuten", "Phasen", "Giraffen"), and their compounds ("Busroute"): a few, named, and the
# French ones in "-age", "-ade" and "-ette" ("Garagen", "Paraden", "Paletten"; not "Image": "Images"), for another
# loanword in "-e" takes the English "-s" ("Updates", "Services", "Websites", "Releases"; "Zwei Updaten" came out)
OWN_E_NOUNS = frozenset((
    "route", "rose", "note", "minute", "chance", "phase", "pause", "base", "rate", "type", "vase", "sauce", "mine",
    "tube", "robe", "nuance", "dame", "rune", "pose", "dose", "hose", "muse", "bronze", "zone", "marine", "turbine",
    "routine", "sardine", "margarine", "limousine", "praline", "giraffe", "gazelle", "orange", "olive", "reserve",
    "ellipse", "analyse", "tribune"))
OWN_E_ENDS = re.compile(r"(?:(?<!^im)(?<!p)age|ade|ette)$", re.IGNORECASE)  # "Images", "Homepages"


def own_e_noun(word: str) -> bool:
    """Whether ``word`` is one of OWN_E_NOUNS or a compound ending in one after a first part of EN_FIRST_PART
    letters ("Busroute"; "Update" is no "Up" + "date"), or ends as OWN_E_ENDS ("Garage", "Parade", "Palette")."""
    word = word.lower()
    return bool(OWN_E_ENDS.search(word)) or any(
        word == noun or (word.endswith(noun) and len(word) - len(noun) >= EN_FIRST_PART) for noun in OWN_E_NOUNS)


def en_noun(word: str) -> bool:
    """Whether ``word`` is one of EN_NOUNS or a compound ending in one after a first part of EN_FIRST_PART letters."""
    word = word.lower()
    return any(word == noun or (word.endswith(noun) and len(word) - len(noun) >= EN_FIRST_PART) for noun in EN_NOUNS)


# How many letters an English word's singular spelled at the end of a compound target makes it a loanword's head
# ("Softwareupdate" for "software updates"; "Katalog" is no "catalog")
LOAN_HEAD = 4


def spelled_as_source(source: str, target: str) -> bool:
    """Whether a German ``target`` is spelled as its English ``source`` (the term as the sentence writes it, its plural
    too), a loanword, which may take the English "-s": the whole ("Ticket" for "tickets", "Park" for "parks"), or its
    last word's end the source's last word in the singular, a compound's head ("Softwareupdate", "Sicherheits-Update"
    for "software updates", "security updates": "Zwei Softwareupdaten" came out); not "Katalog" for "catalogs"."""
    source, target = source.casefold(), target.strip().casefold()
    if source.startswith(target):
        return True
    head, last = re.split(r"[\s-]", source)[-1], re.split(r"[\s-]", target)[-1]
    return any(len(stem) >= LOAN_HEAD and last.endswith(stem) for stem in (head, head[:-1], head[:-2]))


def plural_endings(target: str, loanword: bool = True) -> tuple[str, ...]:
    """The endings a German noun ``target`` (its last word) takes in the plural, the dative's too, by how it ends:
    "n" after "-e" ("Flaschen", "Kunden"), "s" after a ``loanword``'s "-e" but for OWN_E_NOUNS' ("Updates"; "Routen");
    "n" or "s" after "-el" ("Tafeln", "Hotels"); the dative's "n" alone after "-er", a loanword's too, whose plural is
    the word as it is ("Lehrer", "Computer", "Manager": "Zwei Budget Managers" came out, the genitive); none after
    "-en"; "nen" after "-in" ("Kundinnen"; "e", "en": "Termine"); "en" after a feminine ending (EN_PLURAL) and for
    the few of EN_NOUNS ("Hemden", "Zeiten"); "en" or "s"
    after "-au" and "-eu" ("Frauen": "Sechs Frau" came out where "s" alone was offered); "s" after another vowel
    (S_AFTER: "Autos") and after a loanword's "-et" (LOAN_ET: "Tickets"); none after "-ag", "-and", "-ang", whose
    plural is ``umlauted`` alone (UMLAUT_ONLY: "Verträge"); else "e", "en", "s" ("Patente", "Hunden"), and "er",
    "ern" for a noun of those that take them (ER_PLURAL: "Kinder").  The demo model wrote "Vier Patentn", "Drei alte
    Kataloger", "Berichter", where every ending was free.  An umlaut's plural is ``umlauted`` with
    ``umlaut_endings``.  The "s" after a consonant is a loanword's ("Hotels", "Parks", "Teams"): a noun that is no
    ``loanword`` (its target spelled otherwise than its English source, "Katalog" for "catalog") takes none, where the
    demo model wrote the genitive for the plural ("Fünf Katalogs")."""
    word = target.rpartition(" ")[2]
    if word.endswith("e"):  # "Flaschen"; a loanword's "Updates"
        return ("s",) if loanword and not own_e_noun(word) else ("n",)
    if word.endswith("el"):  # "Hotels", "Labels"; "Tafeln"
        return ("n", "s") if loanword else ("n",)
    if word.endswith("er"):  # "Lehrer", "Computer", "Manager" as they are, "Lehrern" in the dative
        return ("n",)
    if word.endswith("en"):
        return ()
    if word.endswith("in"):
        return ("nen", "e", "en")
    if word.endswith(EN_PLURAL) or en_noun(word):
        return ("en",)
    if word.endswith(("au", "eu", "äu")):  # "Frauen", "Staus"; no vowel of S_AFTER's
        return ("en", "s")
    if word.endswith(tuple(S_AFTER)) or LOAN_ET.search(word):
        return ("s",)
    if UMLAUT_ONLY.search(word) and umlauted(word):  # "Verträge": the plain stem takes none
        return ()
    endings = ("e", "en", "s", "er", "ern") if word.lower().endswith(ER_PLURAL) else ("e", "en", "s")
    return endings if loanword else tuple(ending for ending in endings if ending != "s")


def umlaut_endings(stem: str) -> tuple[str, ...]:
    """The endings a German plural with an umlaut, ``stem`` (``umlauted``), takes: "e", "er" and their datives
    ("Hüte", "Hüten", "Männer", "Männern"); after "-el" or "-er" none or a dative "n" ("Äpfel", "Vätern"), after "-en"
    none ("Gärten"), after "-äg" and "-äng" "e" and its dative ("Verträge", "Anfängen"; "Zwei Verträger" came out).
    Any of the ENDINGS made "Hüts", "Hütx", "Hütem", "Hüter" (a guardian) forms of "Hut"."""
    if stem.endswith(("el", "er")):
        return ("", "n")
    if stem.endswith(("äg", "äng")):
        return ("e", "en")
    return ("",) if stem.endswith("en") else ("e", "en", "er", "ern")


def without_umlaut(target: str) -> str | None:
    """``target``, a German noun (its last word with a capital first), with the last umlaut of its last word as the
    plain vowel ("Männ" -> "Mann", "Bäum" -> "Baum"), as its singular writes it; None for another term, or one
    with no umlaut."""
    word = target.rpartition(" ")[2]
    if not word[:1].isupper() or not (vowel := PLAIN_VOWEL.search(word)):
        return None
    at = len(target) - len(word) + vowel.start()
    return target[:at] + target[at].translate(PLAINS) + target[at + 1:]


def latin(letter: str) -> bool:
    """Whether ``letter`` is one of the Latin script ("é" too), whose words take an English plural."""
    return unicodedata.name(letter, "").startswith("LATIN")


def singulars(targets: dict[str, str], taken: set[str]) -> dict[str, str]:
    """Plural form -> the normal source term of ``targets`` (normal source term -> target term) it is the plural of,
    less the forms ``taken`` (source terms of their own: "glasses" -> "Brille" beside "glass" -> "Glas", are matched
    as given), those of two terms, the words that are no plural (NO_PLURALS) and those of a verb (``verb_target``)."""
    found: dict[str, list[str]] = {}
    for key, target in targets.items():
        for form in [] if verb_target(target) else plural_forms(key):
            found.setdefault(form, []).append(key)
    return {form: own[0] for form, own in found.items()
            if form not in taken and len(own) == 1 and form.replace("-", " ").rpartition(" ")[2] not in NO_PLURALS}


def plural_terms(targets: dict[str, str], taken: set[str]) -> dict[str, str]:
    """Singular form -> the normal source term of ``targets`` (normal source term -> target term) given in the
    plural that it is the singular of ("access point" for "access points" -> "Zugangspunkte"; ``singular_forms``),
    less the forms ``taken`` (terms of their own, and plural forms of the others) and those of two terms."""
    found: dict[str, list[str]] = {}
    for key in targets:
        for form in singular_forms(key):
            found.setdefault(form, []).append(key)
    return {form: own[0] for form, own in found.items() if form not in taken and len(own) == 1}


def singular_forms(key: str) -> list[str]:
    """The English singulars of a normal source term ``key`` whose last word is a plural: each form whose
    ``plural_forms`` hold ``key`` ("access points" -> "access point", "companies" -> "company", "children" ->
    "child", "analyses" -> "analysis"); none for a word of its own (NO_PLURALS: "news" is no plural of "new")."""
    word = key.replace("-", " ").rpartition(" ")[2]
    if word in NO_PLURALS:
        return []
    head = key[: len(key) - len(word)]
    # an irregular plural's own singular alone: "leaves" is "leaf", not the verb "leave"
    guesses = set(SINGULARS.get(word, ())) or {word[:-1], word[:-2], word[:-3] + "y", word[:-2] + "is"}
    guesses |= {word[: -len(plural)] + end for end in COMPOUNDED for plural in IRREGULAR[end] if word.endswith(plural)}
    return sorted(head + guess for guess in guesses if guess and key in plural_forms(head + guess))


def verb_target(target: str) -> bool:
    """Whether ``target`` reads as a German verb, which is no noun: a last word in small letters ending as an
    infinitive does ("gehen", "speichern", "wechseln"; a noun has a capital, "Gang"), whose source's "-s" form is
    the English verb's third person ("walks", "saves")."""
    word = target.rpartition(" ")[2]
    return word.isalpha() and word.islower() and word.endswith(("en", "rn", "ln"))


def acronym_singulars(acronyms: dict[str, list[str]], taken: set[str]) -> dict[str, tuple[str, bool]]:
    """Plural form -> (the normal source term of ``acronyms`` it is the plural of, whether that ends in an acronym), of
    the terms with an acronym (normal source term -> their ``term_key``s: "it department" -> ["IT department"]),
    less the forms ``taken``: one ending in an acronym takes an "s" ("APIs", "PCs"; in small letters, which the
    glossary checks, so "ITS" is none), another ``plural_forms`` ("IT departments")."""
    found: dict[str, tuple[str, bool]] = {}
    for source, keys in acronyms.items():
        ending = any(acronym(key.split(" ")[-1]) for key in keys)
        for form in [source + "s"] if ending else plural_forms(source):
            if form not in taken:
                found.setdefault(form, (source, ending))
    return found
