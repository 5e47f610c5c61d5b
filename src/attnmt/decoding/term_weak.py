"""German's weak masculine nouns as glossary target terms (attnmt.decoding.term_ids.with_other_forms): they take
"-en" or "-n" in every case and number but the nominative singular ("mit einem Polizisten", "dem Kunden", "den
Jungen"), and no other ending, so the search lets such a term take that ending alone (``weak_case``), in either
number: "Der Kellner bringt dem Kunde einen Kaffee" came out, the term "Kunde" forced as written.

Most of them are known by their ending, from Latin and Greek ("Polizist", "Student", "Elefant", "Astronaut"), but
for the strong nouns of those endings, which German knows word by word ("Talent", "Patent", "Restaurant": ``STRONG``);
those in "-e" are not, for far more nouns in "-e" are feminine ("Katze", "Straße"), whose "n" is their plural, so
they are named (``WEAK_E``), and so are the others of no such ending ("Mensch", "Soldat", "Nachbar").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from attnmt.decoding.term_after import CASE_ENDING, FIRST_PART, INFLECTED, WORD
from attnmt.decoding.term_agreement import CASED, WRONG_NUMBER

# The endings of the weak masculine nouns from Latin and Greek ("Polizist", "Student", "Elefant", "Astronaut",
# "Demokrat", "Biologe"); not "-at" or "-graf", which strong nouns end in too ("Apparat", "Paragraf"), nor "-loge"
# but "-ologe": "Kataloge", "Dialoge" are the plurals of strong nouns, "Katalog" and "Dialog".
WEAK_ENDINGS = ("ist", "ent", "ant", "naut", "krat", "ologe")
# The strong nouns of those endings ("des Talents", "die Talente"; a weak one's plural, "Talenten", was all a source
# in the plural could have, "Zwei Talent" came out): no rule of their letters tells them from the weak ones ("Patent"
# beside "Patient", "Akzent" beside "Dozent", "Restaurant" beside "Praktikant"), so they are named, a compound's last
# part too ("Sprachtalent", "Subkontinent", "Oberleutnant", "Teamgeist"), and the plurals of the strong nouns in
# "-olog" ("Monologe", "Prologe"); and those in "-ment", from Latin "-mentum"
# ("Dokument", "Moment", "Element", "Instrument"), but for "Konsument", a weak one (WEAK_OTHERS).
STRONG = frozenset((
    "talent", "patent", "akzent", "kontinent", "prozent", "orient", "okzident", "advent", "präsent", "kontingent",
    "konvent", "event", "cent", "restaurant", "proviant", "leutnant", "sergeant", "croissant", "pendant", "volant",
    "geist", "frist", "monologe", "prologe"))
STRONG_ENDING = "ment"
# The weak masculine nouns in "-e", people and animals, nationalities, and those that take "-ns" in the genitive
# ("Name", "Gedanke"), which take "n" too; and those of no ending that tells them ("Mensch", "Held", "Soldat"), or
# too short to be told by it ("Agent", five letters beside "Mist").
WEAK_E = frozenset((
    "junge", "kunde", "kollege", "experte", "zeuge", "bote", "neffe", "knabe", "bube", "gatte", "hirte", "laie",
    "pate", "sklave", "riese", "genosse", "gefährte", "komplize", "lotse", "matrose", "löwe", "affe", "hase", "rabe",
    "falke", "ochse", "bulle", "drache", "schimpanse", "türke", "russe", "grieche", "pole", "schwede", "däne",
    "franzose", "chinese", "brite", "schotte", "ire", "finne", "jude", "kroate", "serbe", "tscheche", "slowake",
    "name", "gedanke", "glaube", "buchstabe", "wille", "friede", "funke", "same"))
# Those of them whose genitive adds an "s" to the ending ("des Namens", "des Gedankens", "des Glaubens")
NS_GENITIVE = frozenset(("name", "gedanke", "glaube", "buchstabe", "wille", "friede", "funke", "same"))
WEAK_OTHERS = frozenset((
    "mensch", "held", "bär", "prinz", "graf", "fürst", "narr", "soldat", "kamerad", "pilot", "architekt", "fotograf",
    "kandidat", "diplomat", "automat", "planet", "philosoph", "chirurg", "astronom", "monarch", "rebell", "spion",
    "bandit", "nachbar", "bauer", "konsument", "agent"))
# The named nouns that end other words than their compounds ("Urkunde", "Giraffe", "Metropole", "Phase",
# "Angebote", "Satire", "Paragraf", "Fahrzeuge"): those are weak as the word alone.
LOOKALIKES = frozenset(("kunde", "affe", "pole", "hase", "bote", "ire", "graf", "zeuge"))
# How long a compound's first part before a named noun is at least: "Erbauer" is no "Bauer".
FIRST_PART_LETTERS = 3


# The codes of German, as a model's training record (attnmt.model_languages) or a served pair names it: "de",
# "de-CH", "deu".
GERMAN = ("de", "deu", "ger")


def german(language: str | None) -> bool:
    """Whether a target ``language`` (a BCP 47 or ISO 639 code, None where not known) is German, whose rules for a
    weak masculine noun a glossary's terms follow: not where it is not known, for the rules of German made a French
    term "Président" a "Présidenten" after "des" ("des présidents"), a word of no language, where the term as
    written is at worst a word in the wrong case."""
    return language is not None and language.replace("_", "-").split("-")[0].lower() in GERMAN


def weak_masculine(target: str) -> bool:
    """Whether ``target`` is one German noun that is a weak masculine one: it is one named (WEAK_E, WEAK_OTHERS:
    "Kunde", "Mensch"), or a compound of one ("Arbeitskollege", "Kronprinz", "Endkonsument"; but for those of
    LOOKALIKES, "Stammkunde" beside "Urkunde"), or it ends as one does (WEAK_ENDINGS, six letters or more:
    "Polizist", "Student", "Elefant"; not "Mist") and is none of the strong nouns of those endings (STRONG, or a
    compound of one: "Talent", "Sprachtalent"; STRONG_ENDING: "Dokument")."""
    if not (target.isalpha() and target[:1].isupper()):
        return False
    word = target.lower()
    named = WEAK_E | WEAK_OTHERS
    if word in named or any(compound_of(word, noun) for noun in named - LOOKALIKES):
        return True
    strong = word.endswith(STRONG_ENDING) or any(word == noun or compound_of(word, noun) for noun in STRONG)
    return len(target) >= 6 and word.endswith(WEAK_ENDINGS) and not strong


def compound_of(word: str, noun: str) -> bool:
    """Whether ``word`` (in small letters) is a compound whose last part is ``noun``: it ends in it after a first part
    of FIRST_PART_LETTERS or more ("stammkunde", "sprachtalent"; "erbauer" is no compound of "bauer")."""
    return word.endswith(noun) and len(word) - len(noun) >= FIRST_PART_LETTERS


def weak_case(target: str) -> str:
    """The ending a weak masculine noun ``target`` takes: "n" after its "-e" or "-er" ("Kunden", "Bauern"), "en"
    after another letter ("Polizisten", "Menschen")."""
    return "n" if target.endswith(("e", "er", "ar")) else "en"


def weak_rules(tokenizer, written: Sequence[Sequence[int]], case: str, compounding: bool) -> list[int]:
    """What may follow each of a weak masculine noun's forms ``written`` (term_after): nothing after those with its
    ending ``case``: "▁Elefanten" + "s" made "Elefantens", a genitive German never writes ("des Elefanten"), and
    "Polizisten" + "en" is no word either; but where its source term is a compound's first part in English
    (``compounding``: "customer service"), such a form may go on as a German compound's first part ("▁Kunden"
    "dienst", term_after.FIRST_PART), the link these nouns take.  A form without the ending takes it ("▁K" "ollege" +
    "n", INFLECTED) only where the vocabulary writes the form with it so; where it writes that otherwise ("▁Löwen"
    for "▁L" "ö" "we"), nothing: after the ending the model was free, and "Ein Tourist macht ein Löwent" came out."""
    with_case = [form for form in written if tokenizer.decode(form).endswith(case)]
    return [(FIRST_PART if compounding else WORD) if form in with_case
            else INFLECTED if any(list(longer[: len(form)]) == list(form) for longer in with_case) else WORD
            for form in written]


def numbered(rules: Sequence[int], cases: Sequence[int], plural: bool) -> tuple[list[int], list[int]]:
    """A weak masculine noun's forms' ``rules`` and ``cases`` (``weak_rules``, term_agreement.weak_cases) for a source
    in the ``plural``, or a singular subject (term_cases.subject), whose number tells the form whatever the article:
    in the plural every form has the ending ("Kollegen warten", "mit Kollegen"): a form without it takes it
    (term_after.CASE_ENDING), and one with it agrees with any article (0); a form that cannot take it as a piece
    ("▁L" "ö" "we" beside "▁Löwen") stays as the article makes it: ruled out, the term was left out of "Two lions are
    here." ("Zwei kleine Krünnen.", the model that has not learnt "▁Löwen" after an adjective going round it);
    a singular subject is in the nominative, no form takes the ending (WORD) and one with it is of the WRONG_NUMBER
    ("Kollegen wartet." came out for "Colleague is waiting.", no article before it to tell), but as a compound's first
    part ("Kollegenkreis": FIRST_PART)."""
    kept = [in_number(rule, case, plural) for rule, case in zip(rules, cases, strict=True)]
    return [rule for rule, _ in kept], [case for _, case in kept]


def in_number(rule: int, case: int, plural: bool) -> tuple[int, int]:
    """The rule and case of a weak noun's form (``numbered``) whose source is in the ``plural`` or a singular
    subject."""
    if rule == INFLECTED:  # without the ending, and the vocabulary writes it with it after these pieces
        return (CASE_ENDING if plural else WORD), case
    if plural:
        return rule, 0 if case == CASED else case
    return rule, WRONG_NUMBER if case == CASED else case


def weak_genitive(target: str) -> str:
    """The genitive singular of a weak masculine noun ``target``: its ending (``weak_case``: "des Kunden", "des
    Polizisten"), and an "s" after it for one of NS_GENITIVE or a compound of one ("des Namens", "des Vornamens")."""
    word = target.lower()
    ns = any(word == noun or compound_of(word, noun) for noun in NS_GENITIVE)
    return target + weak_case(target) + ("s" if ns else "")


@functools.lru_cache(maxsize=8)  # per tokenizer and ending: a look at each of its pieces
def weak_endings(tokenizer, case: str) -> tuple[int, ...]:
    """The ids of the target pieces that are a weak masculine noun's ending ``case`` alone ("en", "n"): "Polizist" +
    "e" is no word, where the search let a noun take any of the endings; none for a tokenizer that does not name its
    pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return ()
    return tuple(i for i in range(tokenizer.vocab_size) if tokenizer.id_to_piece(i) == case)
