"""The plural forms a source term is found in too (attnmt.decoding.glossary): a glossary gives a noun in the
singular, "access point" -> "Zugangspunkt", and a text writes "access points", which was no match, so the
translation went without the term.  The English plural of the term's last word is matched as the term
(``plural_forms``: "dogs", "boxes", "companies"), its target term then written by the search as a word the
model may inflect ("Zugangspunkt" + "e": attnmt.decoding.term_ids.Term's ``inflects``), since the glossary
gives the target's singular alone and German, French or Spanish writes the plural otherwise."""

from __future__ import annotations

import unicodedata

from attnmt.decoding.term_forms import acronym

# The endings a target term's own inflected form may carry its last word on by, those of German ("Zugangspunkt" +
# "e", "Router" + "n", "Kind" + "er", "Kindern", "Hauses", "Namens", "Kundinnen"), French ("routeurs", "réseaux",
# "connectée") and Spanish ("redes", "puntos"); other letters make another word: "Bankett" is no "Bank" + "ett",
# "Routerkabel" no "Router".
ENDINGS = ("e", "n", "s", "x", "en", "er", "es", "ns", "ern", "ens", "nen")
# The letters a plural's "s" follows directly ("dogs"); after these an English plural takes "es" ("boxes").
SIBILANT_ENDS = ("s", "x", "z", "ch", "sh")
VOWELS = "aeiou"


def plural_forms(key: str) -> list[str]:
    """The English plurals of a normal source term ``key`` (``term_forms.normal``, case-folded), its last word
    inflected: "access point" -> "access points", "e-mail" -> "e-mails", "box" -> "boxes", "company" ->
    "companies", "photo" -> "photos" and "photoes" ("potatoes").  None for a last word that is not Latin
    letters alone ("4G", "Wi-Fi 6", "C++") or of fewer than three ("it" -> "its", "hi" -> "his" are other words)."""
    word = key.replace("-", " ").rpartition(" ")[2]  # "e-mail" -> "e-mails"
    if len(word) < 3 or not word.isalpha() or not all(latin(letter) for letter in word):
        return []
    if word.endswith(SIBILANT_ENDS):
        return [key + "es"]
    if word.endswith("y") and word[-2] not in VOWELS:
        return [key[:-1] + "ies"]
    return [key + "s", key + "es"] if word.endswith("o") else [key + "s"]


def latin(letter: str) -> bool:
    """Whether ``letter`` is one of the Latin script ("é" too), whose words take an English plural."""
    return unicodedata.name(letter, "").startswith("LATIN")


def singulars(keys: list[str], taken: set[str]) -> dict[str, str]:
    """Plural form -> the normal source term of ``keys`` it is the plural of, less the forms ``taken`` (source
    terms of their own: "news", "glasses" -> "Brille" beside "glass" -> "Glas", are matched as given) and
    those of two terms."""
    found: dict[str, list[str]] = {}
    for key in keys:
        for form in plural_forms(key):
            found.setdefault(form, []).append(key)
    return {form: own[0] for form, own in found.items() if form not in taken and len(own) == 1}


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
