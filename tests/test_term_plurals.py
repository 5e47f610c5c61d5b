"""The English plurals a source term is found in too (attnmt.decoding.term_plurals)."""

import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_after import INFLECTED, WORD, continuing_pieces
from attnmt.decoding.term_ids import declined_whole, forms, german_plural, rules_of, with_other_forms
from attnmt.decoding.term_plurals import (
    acronym_singulars,
    plural_endings,
    plural_forms,
    plural_terms,
    singular_forms,
    singulars,
    spelled_as_source,
    umlaut_endings,
    umlauted,
    without_umlaut,
)


@pytest.mark.parametrize(("key", "forms"), [
    ("access point", ["access points"]), ("box", ["boxes"]), ("church", ["churches"]), ("company", ["companies"]),
    ("day", ["days"]), ("photo", ["photos", "photoes"]), ("e-mail", ["e-mails"]), ("café", ["cafés"])])
def test_the_last_word_of_a_term_takes_its_english_plural(key, forms):
    assert plural_forms(key) == forms


@pytest.mark.parametrize(("key", "forms"), [
    ("child", ["children"]), ("man", ["men"]), ("woman", ["women"]), ("person", ["people", "persons"]),
    ("foot", ["feet"]), ("computer mouse", ["computer mice", "computer mouses"]), ("analysis", ["analyses"]),
    ("criterion", ["criteria"]), ("leaf", ["leaves"]), ("kitchen knife", ["kitchen knives"]),
    ("fireman", ["firemen"]), ("policewoman", ["policewomen"]), ("grandchild", ["grandchildren"]),
    ("salesperson", ["salespeople", "salespersons"]), ("human", ["humans"]), ("german", ["germans"])])
def test_an_irregular_last_word_takes_its_own_plural(key, forms):
    """"Two children" with child -> Kind was no match, nor "criteria", "leaves", "analyses"."""
    assert plural_forms(key) == forms


@pytest.mark.parametrize("key", ["it", "4g", "wi-fi 6", "c++", "東京", "собака"])
def test_a_short_word_or_one_of_other_characters_than_latin_letters_has_none(key):
    assert plural_forms(key) == []


def test_a_plural_that_is_a_term_or_the_plural_of_two_terms_is_left_out():
    """"glasses" is a term of its own; "buses" is the plural of "bus" and of "buse"."""
    terms = {"glass": "Glas", "glasses": "Brille", "bus": "Bus", "buse": "Buse"}
    assert singulars(terms, set(terms)) == {"glasseses": "glasses"}


def test_a_word_that_only_looks_like_a_terms_plural_is_no_plural_of_it():
    """"news" is no plural of "new", nor "goods" of "good" ("good morning" is no "Waren"), "hers" of "her"."""
    terms = {"new": "neu", "good": "gut", "her": "ihr", "art": "Kunst", "fashion good": "Modeartikel"}
    assert singulars(terms, set(terms)) == {"arts": "art"}


def test_a_term_whose_target_is_a_verb_has_no_plural():
    """"A man walks." with walk -> gehen: "walks" is the verb's third person, and "Ein Mann gehen" came out."""
    terms = {"walk": "gehen", "save": "speichern", "change": "wechseln", "walkway": "Gehweg", "show": "Show"}
    assert singulars(terms, set(terms)) == {"walkways": "walkway", "shows": "show"}


def test_a_term_ending_in_an_acronym_takes_an_s_and_one_ending_in_a_word_that_words_plural():
    acronyms = {"api": ["API"], "it department": ["IT department"], "us army": ["US Army", "US army"]}
    assert acronym_singulars(acronyms, {"api", "it department", "us army"}) == {
        "apis": ("api", True), "it departments": ("it department", False), "us armies": ("us army", False)}


@pytest.mark.parametrize(("key", "forms"), [
    ("access points", ["access point"]), ("children", ["child"]), ("leaves", ["leaf"]), ("e-mails", ["e-mail"]),
    ("salespeople", ["salesperson"]), ("news", []), ("glasses", [])])
def test_a_term_given_in_the_plural_has_its_singulars(key, forms):
    assert singular_forms(key) == forms


def test_a_singular_that_is_a_term_or_the_singular_of_two_terms_is_left_out():
    """"dog" is a term of its own; "index" the singular of "indices" and of "indexes"."""
    terms = {"access points": "Zugangspunkte", "dog": "Hund", "dogs": "Hunde", "indices": "Indizes",
             "indexes": "Indexe"}
    assert plural_terms(terms, set(terms)) == {"access point": "access points"}


@pytest.mark.parametrize(("target", "stem"), [
    ("Mann", "Männ"), ("Haus", "Häus"), ("Apfel", "Äpfel"), ("Vogel", "Vögel"), ("rote Stuhl", "rote Stühl"),
    ("Vater", "Väter"), ("Garten", "Gärten"), ("Zeug", None), ("Quelle", None), ("routeur", None), ("Hündin", None),
    ("Arbeiter", None), ("Auto", None), ("Frau", None), ("Prozessor", None), ("Motor", None), ("Chor", "Chör"),
    ("Patent", None), ("Talent", None), ("Restaurant", None), ("Dialog", None), ("Katalog", None), ("Monat", None),
    ("Kanton", None), ("Kontakt", None), ("Produkt", None), ("Bahnhof", "Bahnhöf"), ("Kanal", "Kanäl"),
    ("Vertrag", "Verträg"), ("Flasche", None), ("Rechnung", None), ("Zentrum", None), ("Station", None)])
def test_a_german_nouns_last_vowel_takes_its_umlaut(target, stem):
    """"Arbeiter" was "Ärbeiter", its "A" the last a, o or u: an umlaut comes before consonants and an ending's "e";
    none in a loanword's stressed last syllable ("Prozessoren", "Motoren", "Patente", "Kataloge": "Prozessören",
    "Pätente" were forms of "Prozessor", "Patent")."""
    assert umlauted(target) == stem


@pytest.mark.parametrize(("stem", "endings"), [
    ("Hüt", ("e", "en", "er", "ern")), ("Väter", ("", "n")), ("Äpfel", ("", "n")), ("Gärten", ("",))])
def test_a_german_plural_with_an_umlaut_takes_a_plurals_endings_alone(stem, endings):
    """"Hut" had the forms "Hüts", "Hütx", "Hütem" and "Hütn", no German words, beside "Hüte", "Hüten"; "Väter"
    "Väterer"."""
    assert umlaut_endings(stem) == endings


@pytest.mark.parametrize(("target", "plain"), [
    ("Männ", "Mann"), ("Bäum", "Baum"), ("Äpfel", "Apfel"), ("rote Stühl", "rote Stuhl"), ("Kind", None),
    ("école", None)])
def test_a_german_plurals_last_umlaut_is_its_plain_vowel_in_the_singular(target, plain):
    assert without_umlaut(target) == plain


@pytest.mark.parametrize(("target", "endings"), [
    ("Patent", ("e", "en", "s")), ("Hund", ("e", "en", "s")), ("Paket", ("e", "en", "s")),
    ("Lehrer", ("n",)), ("Hotel", ("n", "s")), ("Garten", ()),
    ("Kundin", ("nen", "e", "en")), ("Rechnung", ("en",)), ("Freiheit", ("en",)), ("Station", ("en",)),
    ("Auto", ("s",)), ("Kamera", ("s",)), ("Frau", ("en", "s")), ("Hobby", ("s",)),
    ("Kind", ("e", "en", "s", "er", "ern")), ("Tag", ("e", "en", "s")), ("Geburtstag", ("e", "en", "s")),
    ("Bart", ("e", "en", "s")), ("Gesicht", ("e", "en", "s", "er", "ern")),
    ("Fotobild", ("e", "en", "s", "er", "ern")), ("rote Tisch", ("e", "en", "s"))])
def test_a_german_noun_takes_the_plural_endings_its_own_ending_allows(target, endings):
    """"Four patents." came out "Vier Patentn", "Three old catalogs" "Drei alte Kataloger": every ending was free."""
    assert plural_endings(target) == endings


@pytest.mark.parametrize(("target", "endings"), [
    ("Ticket", ("s",)), ("Tablet", ("s",)), ("Budget", ("s",)), ("Buffet", ("s",)), ("Jet", ("s",)),
    ("rote Ticket", ("s",)), ("Vertrag", ()), ("Arbeitsvertrag", ()), ("Strand", ()), ("Anfang", ()), ("Land", ())])
def test_a_loanwords_et_takes_s_and_a_noun_in_ag_and_ang_its_umlaut_alone(target, endings):
    """"Some red tickets." came out "Einige rotes Tickete", "Many contracts." "Viele Vertragen": a loanword's
    unstressed "-et" takes "-s", and "Vertrag", "Strand", "Anfang" have their plural by the umlaut alone ("Verträge");
    "Tag" is "Tage" (above)."""
    assert plural_endings(target) == endings


@pytest.mark.parametrize("target", ["Tablet", "Budget", "Paket", "Planet", "Magnet"])
def test_a_noun_in_et_takes_no_umlaut(target):
    """The demo model wrote "Täbleter" and "Büdgete"; German's own stressed "-et" keeps its vowel too ("Pakete")."""
    assert umlauted(target) is None


@pytest.mark.parametrize(("target", "endings"), [
    ("Katalog", ("e", "en")), ("Kind", ("e", "en", "er", "ern")), ("Lehrer", ("n",)), ("Auto", ("s",)),
    ("Ticket", ("s",)), ("Frau", ("en", "s")), ("Flasche", ("n",)), ("Kunde", ("n",))])
def test_a_noun_that_is_no_loanword_takes_no_s_after_a_consonant(target, endings):
    """"Five catalogs." came out "Fünf Katalogs", the genitive: "-s" after a consonant is a loanword's plural
    ("Parks", "Hotels"); after a vowel, "-au" or a loanword's "-et" it stays ("Autos", "Frauen", "Tickets")."""
    assert plural_endings(target, loanword=False) == endings


@pytest.mark.parametrize(("target", "endings"), [
    ("Update", ("s",)), ("Service", ("s",)), ("Website", ("s",)), ("Release", ("s",)), ("Pipeline", ("s",)),
    ("Image", ("s",)), ("Homepage", ("s",)), ("Softwareupdate", ("s",)), ("Route", ("n",)), ("Busroute", ("n",)),
    ("Minute", ("n",)), ("Giraffe", ("n",)), ("Garage", ("n",)), ("Parade", ("n",)), ("Palette", ("n",))])
def test_a_loanword_in_e_takes_s_but_for_those_german_declines_as_its_own(target, endings):
    """"Two updates are ready." came out "Zwei Updaten bereiten sich vor.": an English loanword in "-e" takes "-s";
    a noun German has long spelled as English does and declines as its own takes "-n" ("Routen", "Garagen")."""
    assert plural_endings(target) == endings


@pytest.mark.parametrize(("target", "endings"), [
    ("Hemd", ("en",)), ("Bett", ("en",)), ("Zeit", ("en",)), ("Arbeitszeit", ("en",)), ("Haustür", ("en",)),
    ("Übersicht", ("en",))])
def test_a_noun_of_a_consonant_whose_plural_is_en_takes_it_alone(target, endings):
    """With the dative's "-en" left out where the English shows none, "Six shirts." came out "Sechs Hemd": "Hemden",
    "Zeiten" are the plurals themselves; "Bart" and "Gesicht" are none of them (above: "e", "er")."""
    assert plural_endings(target, loanword=False) == endings


class LoanPieces(NamedPieces):
    """Two nouns, one spelled as its English source, and the endings as pieces of their own."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Katalog", "▁Park", "e", "en", "s"]


def test_a_target_spelled_as_its_source_is_a_loanword_that_may_take_s():
    codec = LoanPieces()
    [katalog] = with_other_forms(codec, [[4]], "Five catalogs.", [(5, 13, "Katalog")], {"Katalog"}, german=True)
    [park] = with_other_forms(codec, [[5]], "Five parks.", [(5, 10, "Park")], {"Park"}, german=True)
    assert [codec.id_to_piece(i) for i in katalog.endings] == ["e"]
    assert [codec.id_to_piece(i) for i in park.endings] == ["e", "s"]


class UpdatePieces(NamedPieces):
    """Two nouns in "-e", one spelled as its English source, and the endings as pieces of their own."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Update", "▁Flasche", "n", "s"]


def test_a_target_in_e_spelled_as_its_source_takes_s_and_another_n():
    codec = UpdatePieces()
    [update] = with_other_forms(codec, [[4]], "Two updates.", [(4, 11, "Update")], {"Update"}, german=True)
    [flasche] = with_other_forms(codec, [[5]], "Two bottles.", [(4, 11, "Flasche")], {"Flasche"}, german=True)
    assert [codec.id_to_piece(i) for i in update.endings] == ["s"]
    assert [codec.id_to_piece(i) for i in flasche.endings] == ["n"]


@pytest.mark.parametrize(("source", "target", "loan"), [
    ("tickets", "Ticket", True), ("software updates", "Softwareupdate", True),
    ("security updates", "Sicherheits-Update", True), ("Hotels", "Hotel", True), ("catalogs", "Katalog", False),
    ("web pages", "Webseite", False), ("bottles", "Flasche", False), ("boxes", "Kiste", False)])
def test_a_target_whose_last_word_ends_as_its_sources_singular_is_a_loanword(source, target, loan):
    """"Two software updates are ready." came out "Zwei Softwareupdaten": the compound's head is the loanword."""
    assert spelled_as_source(source, target) is loan


def test_a_hyphenated_compound_takes_its_heads_plural_endings():
    """"Three security updates were installed." came out "Drei Sicherheits-Updaten": every ending was free."""
    assert german_plural("Sicherheits-Update") == ("s",) and german_plural("Haus-Tür", loanword=False) == ("en",)


class PluralPieces(NamedPieces):
    """Whole words after a space and the endings as pieces of their own ("▁Patent" "e")."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Patent", "e", "n", "er", "en", "▁Vier", "s", "▁Flasche", "▁Patente",
              "x"]


def test_a_german_noun_for_a_source_in_the_plural_is_offered_its_own_plural_endings_alone():
    codec = PluralPieces()
    [patent] = with_other_forms(codec, [[4]], "Four patents.", [(5, 12, "Patent")], {"Patent"}, german=True)
    assert sorted(map(codec.id_to_piece, patent.endings)) == ["e", "s"]
    # "▁Patente" has its ending: no other may follow it ("Vier Vertragenen" came out)
    assert forms(patent) == [[4], [12]] and rules_of(patent) == [INFLECTED, WORD]
    [flasche] = with_other_forms(codec, [[11]], "Four bottles.", [(5, 12, "Flasche")], {"Flasche"}, german=True)
    assert list(map(codec.id_to_piece, flasche.endings)) == ["n"]


def test_a_target_of_another_language_or_a_plural_given_keeps_every_ending():
    """French "routeur" + "s", "réseau" + "x": German's rules are German's; a term given in the plural ("Patente" for
    "patents") says its own plural."""
    codec = PluralPieces()
    [patent] = with_other_forms(codec, [[4]], "Four patents.", [(5, 12, "Patent")], {"Patent"}, german=False)
    assert "x" in map(codec.id_to_piece, patent.endings) and "n" in map(codec.id_to_piece, patent.endings)
    [given] = with_other_forms(codec, [[12]], "A patent.", [(2, 8, "Patente")], {"Patente"}, {"Patente"}, german=True)
    assert "n" in map(codec.id_to_piece, given.endings)


class SearchPieces(NamedPieces):
    """PluralPieces' first ones, as many as ScriptedModel's vocabulary holds."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Patent", "e", "n", "▁Vier", "s", "en"]


def test_the_search_writes_no_ending_that_is_no_plural_of_the_noun():
    """The model's best ending after "Patent" is "n" ("Vier Patentn"); the search writes its best plural, "e"."""
    codec = SearchPieces()
    patent, e, n, vier = 4, 5, 6, 7
    table = {(): {vier: 0.9, EOS: 0.1}, (vier,): {patent: 0.9, EOS: 0.1}, (vier, patent): {n: 0.6, e: 0.3, EOS: 0.1},
             (vier, patent, e): {EOS: 1.0}, (vier, patent, n): {EOS: 1.0}}
    terms = with_other_forms(codec, [[patent]], "Four patents.", [(5, 12, "Patent")], {"Patent"}, german=True)
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [vier, patent, e]


class DeclinedPieces(NamedPieces):
    """A vocabulary whose training text declined "Elite" and "Rose" as German nouns ("▁Eliten", "▁Rosen"), and knows
    "Update" and "Date" only as they are."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Elite", "▁Eliten", "▁Update", "n", "s", "▁Rose", "▁Rosen", "▁Date"]


def test_a_noun_in_e_whose_plural_in_n_the_vocabulary_holds_whole_is_declined_as_german_though_spelled_as_english():
    """"elite" -> "Elite", named in no list, took the loanword's "-s": "Zwei Elites"."""
    codec = DeclinedPieces()
    assert declined_whole(codec, "Elite") and declined_whole(codec, "Die Rose")
    assert not declined_whole(codec, "Update") and not declined_whole(codec, "Date")
    [elite] = with_other_forms(codec, [[4]], "Two elites.", [(4, 10, "Elite")], {"Elite"}, german=True)
    assert list(map(codec.id_to_piece, elite.endings)) == ["n"]
    [update] = with_other_forms(codec, [[6]], "Two updates.", [(4, 11, "Update")], {"Update"}, german=True)
    assert list(map(codec.id_to_piece, update.endings)) == ["s"]


class UmlautPieces(NamedPieces):
    """Whole words, and the plurals with an umlaut the vocabulary writes in pieces (``SPELLED``): "Hände" is one
    piece, as German text writes it; "Manäger" and "Verträge" are several."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Manager", "▁Man", "ä", "ger", "n", "▁Hand", "▁Hände", "▁Vertrag",
              "▁Vertr", "ge", "e", "s"]
    SPELLED = {"Manäger": [5, 6, 7], "Manägern": [5, 6, 7, 8], "Verträge": [12, 6, 13], "Verträgen": [12, 6, 13, 8]}

    def encode_target(self, text: str) -> list[int]:
        return [i for word in text.split(" ") for i in self.SPELLED.get(word) or NamedPieces.encode_target(self, word)]


def test_a_loanword_takes_an_umlaut_only_where_the_vocabulary_holds_the_plural_whole():
    """"Two budget managers are here." came out "Zwei Budget Manäger": German's umlaut on an English loanword."""
    codec = UmlautPieces()
    [manager] = with_other_forms(codec, [[4]], "Two managers.", [(4, 12, "Manager")], {"Manager"}, german=True)
    [hand] = with_other_forms(codec, [[9]], "Two hands.", [(4, 9, "Hand")], {"Hand"}, german=True)
    [vertrag] = with_other_forms(codec, [[11]], "Two contracts.", [(4, 13, "Vertrag")], {"Vertrag"}, german=True)
    assert [5, 6, 7] not in forms(manager) and [5, 6, 7, 8] not in forms(manager)
    assert [10] in forms(hand)  # "hand" is spelled as "Hand", but its training text declined it: "▁Hände"
    assert [12, 6, 13] in forms(vertrag)  # no loanword: "Vertrag" for "contract"


@pytest.mark.parametrize("target", ["Manager", "Computer", "Budget Manager", "Server", "Scanner", "Projektmanager"])
def test_a_loanword_in_er_takes_no_s_in_the_plural(target):
    """"Two budget managers are here." came out "Zwei Budget Managers", "Three computers" "Drei Computers": German
    writes such a plural as the word is, the genitive with "-s"; the dative's "-n" stays ("mit den Managern")."""
    assert plural_endings(target) == ("n",)
    assert plural_endings("Hotel") == ("n", "s")  # "-el" keeps the loanword's "-s": "Hotels", "Labels"
