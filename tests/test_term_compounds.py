import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_after import COMPOUND, FIRST_PART, JOINED, continuing_pieces
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


class SplitWords(NamedPieces):
    """A vocabulary that writes a word as its longest piece after a space, then its longest pieces that carry a word
    on ("Katzenfutter": "▁Katze" "n" "futter"), as SentencePiece writes the compounds it has no piece for."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Katze", "n", "futter", "▁Napf", "▁Hund", "e", "s", "▁Zeitung",
              "papier", "▁Katzen"]

    def encode_target(self, text: str) -> list[int]:
        ids = []
        for word in text.split(" "):
            rest, piece = word, "▁"
            while rest:
                longest = next((k for k in range(len(rest), 0, -1) if piece + rest[:k] in self.PIECES), 0)
                if not longest:
                    return [*ids, 1]
                ids.append(self.PIECES.index(piece + rest[:longest]))
                rest, piece = rest[longest:], ""
        return ids


@pytest.mark.parametrize(("target", "written"), [
    ("Katze", [["▁Katzen"], ["▁Katze", "n"], ["▁Katzen", "s"]]), ("Zeitung", [["▁Zeitung", "s"]]),
    ("Hund", [["▁Hund", "e"], ["▁Hund", "s"], ["▁Hund", "e", "s"], ["▁Hund", "e", "n"], ["▁Hund", "e", "n", "s"]])])
def test_a_nouns_first_part_forms_take_the_links_its_ending_takes(target, written):
    """"Katzenfutter" is "▁Katze" "n" "futter": that form was left out (and the term's own form may not be carried on
    by an ending), so the model's compound could not be written; "Katzee", "Katzes", "Hundn" were forms."""
    codec = SplitWords()
    parts = first_parts(codec, target)
    assert [[codec.id_to_piece(i) for i in form] for form, _ in parts] == written
    assert {rule for _, rule in parts} == {JOINED}


def test_a_compound_the_vocabulary_writes_with_its_link_apart_meets_the_term():
    """"A cat food bowl." with cat -> Katze: the model's "▁Katze" "n" "futter" met no term (the "n" after the term's
    own form is an ending, barred), so the search wrote "Katze" again or none of the compound."""
    codec = SplitWords()
    katze, n, futter, napf = (codec.PIECES.index(piece) for piece in ("▁Katze", "n", "futter", "▁Napf"))
    table = {(): {katze: 0.9, napf: 0.1}, (katze,): {n: 0.9, EOS: 0.1}, (katze, n): {futter: 0.9, EOS: 0.1},
             (katze, n, futter): {napf: 0.9, EOS: 0.1}, (katze, n, futter, napf): {EOS: 1.0}}
    terms = with_other_forms(codec, [codec.encode_target("Katze")], "A cat food bowl.", [(2, 5, "Katze")])
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [katze, n, futter, napf]


def test_a_determiner_after_a_source_term_makes_it_no_compounds_first_part():
    terms = {"customer": "Kunde", "boy": "Junge"}
    text = "The waiter brings the customer a coffee and gives the boy the cup."
    assert modifying(text, found(text, terms)) == set()


class GuessedWords(SplitWords):
    """A term the vocabulary writes in two pieces ("▁Foto" "apparat"), a short piece, a hyphen and a word's start."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Foto", "apparat", "el", "-", "tasche", "e"]


def test_a_term_of_several_pieces_begins_no_compound_by_a_short_piece_or_a_hyphen():
    """"A man holds a camera bag." with camera -> Fotoapparat came out "Ein Mann hält eine Fotoapparatel." (and
    barred that, "Fotoapparat-St."): a term the vocabulary writes in pieces is none the model has learnt, and its next
    piece was a guess."""
    codec = GuessedWords()
    foto, apparat, el, hyphen, tasche = range(4, 9)
    table = {(): {foto: 0.9, EOS: 0.1}, (foto,): {apparat: 0.9, EOS: 0.1},
             (foto, apparat): {el: 0.5, hyphen: 0.3, tasche: 0.2}}
    terms = with_other_forms(codec, [codec.encode_target("Fotoapparat")], "A camera bag.", [(2, 8, "Fotoapparat")])
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [foto, apparat, tasche]
    # a term of one piece is the model's own word, whose compounds start their next part with any piece ("▁Polizei"
    # "t" "ra" "ns" "porter")
    [hund] = with_other_forms(SplitWords(), [[8]], "Dog owners walk.", [(0, 3, "Hund")])
    assert sorted(SplitWords().id_to_piece(i) for i in hund.endings) == ["e", "n", "s"]



@pytest.mark.parametrize("text", [
    "The patent expires.", "A patent expires in May.", "A new patent expires.", "The catalog arrives today.",
    "The contract always helps.", "The report changed.", "The dog ran away.", "The police dog barks.",
    "The dog doesn't bark.", "The dog won't wait.", "Every dog counts on it.", "The report looks old.",
    "The dog seems happy."])
def test_a_verb_or_an_adverb_after_a_source_term_makes_it_no_compounds_first_part(text):
    """"The patent expires." came out "Der Patentschrünt", "The contract arrives today." "Der Vertragter": the verb
    was read as a compound's next part, and the model made one up."""
    terms = {"patent": "Patent", "catalog": "Katalog", "contract": "Vertrag", "report": "Bericht", "dog": "Hund"}
    assert modifying(text, found(text.lower(), {s: t for s, t in terms.items() if s in text.lower()})) == set()


def test_a_word_in_s_is_a_verb_after_a_singular_determiner_or_before_no_word_and_a_compounds_head_else():
    """"The patent expires.": a verb; "The dog owners walk.", "Two dog owners.": a compound's head."""
    terms = {"dog": "Hund", "patent": "Patent"}
    for text, compounding in [("The patent expires.", set()), ("A patent expires in May.", set()),
                              ("The dog owners walk.", {"Hund"}), ("Two dog owners.", {"Hund"}),
                              ("The dog owners are here.", {"Hund"}), ("Many dog owners wait.", {"Hund"}),
                              ("The dog bed is soft.", {"Hund"}), ("The patent office closes.", {"Patent"})]:
        assert modifying(text, found(text.lower(), {s: t for s, t in terms.items() if s in text.lower()})) == (
            compounding)


@pytest.mark.parametrize("text", [
    "The catalog lists shoes.", "The report shows results.", "The dog chases cats.", "My contract covers repairs.",
    "The patent protects machines and tools."])
def test_a_word_in_s_before_a_plural_noun_is_the_verb_of_which_that_noun_is_the_object(text):
    """"The catalog lists shoes." came out "Die Katzen Katalog.": "catalog lists" was read as a compound."""
    terms = {"patent": "Patent", "catalog": "Katalog", "contract": "Vertrag", "report": "Bericht", "dog": "Hund"}
    assert modifying(text, found(text.lower(), {s: t for s, t in terms.items() if s in text.lower()})) == set()

