"""German's weak masculine nouns as glossary target terms (attnmt.decoding.term_weak)."""

import pytest
from support import NamedPieces

from attnmt.decoding.term_after import FIRST_PART, INFLECTED, WORD
from attnmt.decoding.term_ids import forms, rules_of, with_other_forms
from attnmt.decoding.term_weak import weak_case, weak_masculine


@pytest.mark.parametrize("target", [
    "Kunde", "Junge", "Löwe", "Kollege", "Arbeitskollege", "Sicherheitsexperte", "Benutzername", "Mensch", "Soldat",
    "Nachbar", "Polizist", "Student", "Elefant", "Astronaut", "Demokrat", "Psychologe"])
def test_a_weak_masculine_noun_is_known_by_its_ending_its_name_or_its_compounds_head(target):
    assert weak_masculine(target)


@pytest.mark.parametrize("target", [
    "Katze", "Straße", "Blume", "Urkunde", "Giraffe", "Phase", "Paragraf", "Fahrzeuge", "Angebote", "Erbauer",
    "Dokument", "Restaurant", "Apparat", "Mist", "kunde", "Junge Frau"])
def test_a_noun_that_ends_as_a_weak_one_but_is_none_is_not_one(target):
    """"Urkunde" ends in "Kunde", "Giraffe" in "Affe", "Fahrzeuge" in "Zeuge": each is another noun; "Dokument" and
    "Restaurant" are strong ("Dokumente": the weak rule ruled their plural out)."""
    assert not weak_masculine(target)


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
    [term] = with_other_forms(codec, [kunde], text, [(text.index("customer"), text.index(" a "), "Kunde")])
    assert forms(term) == [kunde, codec.encode_target("Kunden")] and term.inflects
    assert term.endings == [codec.PIECES.index("n")] and rules_of(term) == [INFLECTED, WORD]


def test_a_weak_masculine_nouns_case_form_may_be_a_compounds_first_part():
    """"The customer service" is "Kundendienst", "▁Kunden" "dienst" as the vocabulary writes it: the weak noun's form
    with its "n" may go on as a compound, the link these nouns take."""
    codec = WeakPieces()
    kunde = codec.encode_target("Kunde")
    [term] = with_other_forms(codec, [kunde], "The customer service is closed.", [(4, 12, "Kunde")])
    assert forms(term) == [kunde, codec.encode_target("Kunden")] and rules_of(term) == [INFLECTED, FIRST_PART]
