"""German's weak masculine nouns as glossary target terms (attnmt.decoding.term_weak)."""

import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_after import FIRST_PART, INFLECTED, WORD, continuing_pieces
from attnmt.decoding.term_ids import forms, rules_of, with_other_forms
from attnmt.decoding.term_weak import weak_case, weak_masculine


@pytest.mark.parametrize("target", [
    "Kunde", "Junge", "Löwe", "Kollege", "Arbeitskollege", "Sicherheitsexperte", "Benutzername", "Mensch", "Soldat",
    "Nachbar", "Polizist", "Student", "Elefant", "Astronaut", "Demokrat", "Psychologe", "Patient", "Präsident",
    "Bundespräsident", "Dirigent", "Klient", "Praktikant", "Diamant", "Konsument", "Endkonsument", "Agent",
    "Geheimagent", "Soziologe", "Kardiologe", "Archäologe"])
def test_a_weak_masculine_noun_is_known_by_its_ending_its_name_or_its_compounds_head(target):
    assert weak_masculine(target)


@pytest.mark.parametrize("target", [
    "Katze", "Straße", "Blume", "Urkunde", "Giraffe", "Phase", "Paragraf", "Fahrzeuge", "Angebote", "Erbauer",
    "Dokument", "Restaurant", "Apparat", "Mist", "kunde", "Junge Frau", "Kataloge", "Dialoge", "Produktkataloge",
    "Monologe", "Prologe", "Theaterloge"])
def test_a_noun_that_ends_as_a_weak_one_but_is_none_is_not_one(target):
    """"Urkunde" ends in "Kunde", "Giraffe" in "Affe", "Fahrzeuge" in "Zeuge": each is another noun; "Dokument" and
    "Restaurant" are strong ("Dokumente": the weak rule ruled their plural out), and so are "Katalog", "Dialog",
    "Monolog", whose plurals end as "Biologe" does."""
    assert not weak_masculine(target)


@pytest.mark.parametrize("target", [
    "Moment", "Element", "Instrument", "Argument", "Talent", "Sprachtalent", "Patent", "Akzent", "Kontinent",
    "Subkontinent", "Prozent", "Orient", "Advent", "Präsent", "Kontingent", "Proviant", "Leutnant", "Oberleutnant",
    "Croissant", "Teamgeist", "Lieferfrist"])
def test_a_strong_noun_in_ent_ant_or_ist_is_no_weak_one(target):
    """"Talent", "Patent", "Akzent" end as "Student", "Patient", "Dozent" do, but are strong ("des Talents", "die
    Talente"): German knows them word by word, and so does term_weak.STRONG, in compounds too."""
    assert not weak_masculine(target)


class StrongPieces(NamedPieces):
    """A strong noun in "-ent" and its plural's ending, and the weak nouns' case ending."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Talent", "▁Talente", "e", "en", "s"]


def test_a_strong_noun_in_ent_takes_its_plural_for_a_source_in_the_plural():
    """"Two talents" with talents -> Talent: read as a weak noun, the term could take "en" alone ("Talenten"), not
    the plural "Talente"."""
    codec = StrongPieces()
    talent = codec.encode_target("Talent")
    text = "Two talents sing."
    [term] = with_other_forms(codec, [talent], text, [(4, 11, "Talent")], inflected={"Talent"}, german=True)
    assert codec.encode_target("Talente") in forms(term) and term.inflects
    assert codec.PIECES.index("e") in term.endings


@pytest.mark.parametrize(("target", "case"), [("Kunde", "n"), ("Bauer", "n"), ("Nachbar", "n"), ("Polizist", "en"),
                                              ("Mensch", "en")])
def test_a_weak_masculine_noun_takes_n_after_e_and_er_and_en_after_another_letter(target, case):
    assert weak_case(target) == case


class WeakPieces(NamedPieces):
    """Whole words after a space: a weak noun in "-e" and its case form, another noun, and the endings."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Kunde", "▁Kunden", "n", "en", "e", "▁Kaffee", "s"]


def test_a_weak_masculine_noun_in_e_takes_n_alone_in_the_singular():
    """"The waiter brings the customer a coffee" with customer -> Kunde came out "bringt dem Kunde einen Kaffee": the
    weak nouns in "-e" were left out ("dem Kunden"), and "a" after the term read as a compound's next part."""
    codec = WeakPieces()
    kunde = codec.encode_target("Kunde")
    text = "The waiter brings the customer a coffee."
    [term] = with_other_forms(codec, [kunde], text, [(text.index("customer"), text.index(" a "), "Kunde")],
                              german=True)
    assert forms(term) == [kunde, codec.encode_target("Kunden")] and term.inflects
    assert term.endings == [codec.PIECES.index("n")] and rules_of(term) == [WORD, WORD]


def test_a_weak_masculine_nouns_case_form_may_be_a_compounds_first_part():
    """"The customer service" is "Kundendienst", "▁Kunden" "dienst" as the vocabulary writes it: the weak noun's form
    with its "n" may go on as a compound, the link these nouns take."""
    codec = WeakPieces()
    kunde = codec.encode_target("Kunde")
    [term] = with_other_forms(codec, [kunde], "The customer service is closed.", [(4, 12, "Kunde")],
                              german=True)
    assert forms(term) == [kunde, codec.encode_target("Kunden")] and rules_of(term) == [WORD, FIRST_PART]


class CarriedPieces(NamedPieces):
    """A weak noun in two pieces whose case form is one piece of its own ("▁Lö" "we", "▁Löwen"), and one whose case
    form is its pieces and the ending's ("▁Kollege" "n")."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Lö", "we", "n", "t", "▁Löwen", "▁Kollege"]

    def encode_target(self, text: str) -> list[int]:
        return {"Löwe": [4, 5], "Löwen": [8], "Kollege": [9], "Kollegen": [9, 6]}.get(text, [1])


def test_a_weak_noun_takes_its_ending_as_a_piece_only_where_the_vocabulary_writes_its_case_form_so():
    """"A tourist photographs a lion." with lion -> Löwe came out "Ein Tourist macht ein Löwent.": "▁Lö" "we" + "n",
    then the model was free ("t"); the vocabulary writes "Löwen" as "▁Löwen", which the term may be written as."""
    codec = CarriedPieces()
    table = {(): {4: 0.9, EOS: 0.1}, (4,): {5: 1.0}, (4, 5): {6: 0.6, EOS: 0.4}, (4, 5, 6): {7: 0.9, EOS: 0.1}}
    terms = with_other_forms(codec, [[4, 5]], "A tourist photographs a lion.", [(24, 28, "Löwe")], german=True)
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [4, 5] and rules_of(terms[0]) == [WORD, WORD]
    [kollege] = with_other_forms(codec, [[9]], "He thanks the colleague.", [(14, 23, "Kollege")], german=True)
    assert forms(kollege) == [[9], [9, 6]] and rules_of(kollege) == [INFLECTED, WORD]
