from support import NamedPieces

from attnmt.decoding.term_after import COMPOUND, FIRST_PART, JOINED
from attnmt.decoding.term_compounds import compound_heads, first_parts, modified, modifying
from attnmt.decoding.term_ids import forms, rules_of, with_other_forms


class CompoundWords(NamedPieces):
    """A vocabulary that names its pieces: whole words after a space ("▁Arbeiter", "▁Bauarbeiter") and a few that
    carry a word on ("hund" of "▁Polizei" "hund"); a text is its words' pieces."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Arbeiter", "▁Bauarbeiter", "▁Polizei", "hund", "▁Hund",
              "▁Schäferhund", "▁Shund", "▁Hunde", "arbeiter", "▁Bau", "▁Hundebesitzer"]


def pieces(codec: CompoundWords, ids: list[list[int]]) -> list[str]:
    return ["".join(map(codec.id_to_piece, form)) for form in ids]


def test_a_nouns_compounds_are_the_pieces_ending_in_it_after_a_first_part():
    """"▁Bauarbeiter" and "▁Polizei" "hund" write the term; "▁Shund" ("S" is no first part), "▁Hunde" and
    "▁Hundebesitzer" (the term first) do not."""
    codec = CompoundWords()
    assert pieces(codec, compound_heads(codec, "Arbeiter")) == ["▁Bauarbeiter", "arbeiter"]
    assert pieces(codec, compound_heads(codec, "Hund")) == ["hund", "▁Schäferhund"]
    assert compound_heads(codec, "rot") == () and compound_heads(codec, "Rotes Kreuz") == ()


def found(sentence: str, terms: dict[str, str]) -> list[tuple[int, int, str]]:
    return [(sentence.index(source), sentence.index(source) + len(source), target) for source, target in terms.items()]


def test_a_source_term_after_a_word_that_is_no_determiner_may_be_a_compounds_head():
    terms = {"worker": "Arbeiter", "dog": "Hund"}
    for text, compounded in [("Two construction workers and a police dog.", {"Arbeiter", "Hund"}),
                             ("The worker sees two dogs.", set()), ("Worker, 3 dogs", set())]:
        assert modified(text, found(text.lower(), terms)) == compounded


def test_a_term_in_a_compound_is_met_by_the_compounds_pieces_where_its_source_has_a_word_before_it():
    """"Three construction workers" with worker -> Arbeiter came out "Drei Arbeiter …" (the model's "Bauarbeiter"
    did not meet the term, and the term was forced instead), or "Drei Bauarbeiter … Arbeiter"."""
    codec = CompoundWords()
    arbeiter = codec.encode_target("Arbeiter")
    [term] = with_other_forms(codec, [arbeiter], "Three construction workers", [(19, 26, "Arbeiter")])
    assert forms(term)[0] == arbeiter and pieces(codec, forms(term)[1:]) == ["▁Bauarbeiter", "arbeiter"]
    assert with_other_forms(codec, [arbeiter], "Three workers", [(6, 13, "Arbeiter")]) == [arbeiter]


def test_a_source_term_before_a_word_that_is_no_function_word_may_be_a_compounds_first_part():
    terms = {"dog": "Hund", "car": "Auto"}
    for text, compounding in [("Dog owners wait by the car key rack.", {"Hund", "Auto"}), ("The dog and a car", set()),
                              ("A dog, a car", set()), ("My dog is in the car", set())]:
        assert modifying(text, found(text.lower(), terms)) == compounding


def test_a_nouns_first_parts_are_its_linked_form_and_the_pieces_holding_it_and_a_word_more():
    """"▁Hunde" must be carried on (the plural else); "▁Hundebesitzer" is a compound; "▁Hund" is the term."""
    codec = CompoundWords()
    assert first_parts(codec, "Hund") == [([codec.PIECES.index("▁Hunde")], JOINED),
                                          ([codec.PIECES.index("▁Hundebesitzer")], COMPOUND)]
    assert first_parts(codec, "rot") == []


def test_a_term_whose_source_is_a_compounds_first_part_is_met_by_the_compounds_it_begins():
    """"Dog owners walk in the park." with dog -> Hund came out "Hundebesitzer … Hund"."""
    codec = CompoundWords()
    hund = codec.encode_target("Hund")
    [term] = with_other_forms(codec, [hund], "Dog owners walk.", [(0, 3, "Hund")])
    assert pieces(codec, forms(term)) == ["▁Hund", "▁Hunde", "▁Hundebesitzer"]
    assert rules_of(term) == [FIRST_PART, JOINED, COMPOUND]
    assert with_other_forms(codec, [hund], "A dog.", [(2, 5, "Hund")]) == [hund]
