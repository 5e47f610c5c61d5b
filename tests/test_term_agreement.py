"""A weak masculine noun as a glossary term agrees with the article right before it (attnmt.decoding.term_agreement)."""

import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_after import continuing_pieces
from attnmt.decoding.term_agreement import (
    ADJECTIVE_OBLIQUE,
    BARE,
    CASED,
    FEMININE,
    NOMINATIVE,
    NONE,
    OBLIQUE,
    articles,
)
from attnmt.decoding.term_ids import cases_of, forms, with_other_forms
from attnmt.decoding.term_weak import german

ONE_SOURCE = torch.tensor([[4, 5, 6, 7, 8, 9]])  # long enough for an output of five pieces


class ArticlePieces(NamedPieces):
    """A weak noun whose case form is a piece of its own, "▁Kunden", and articles of one piece and of two."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Ein", "▁Kunde", "▁Kunden", "▁eine", "m", "fach"]


class EndingPieces(NamedPieces):
    """A weak noun whose case form is its pieces and the ending's ("▁K" "ollege" + "n"), after "sein" or "seinem"."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁sein", "▁seine", "m", "▁K", "ollege", "n"]

    def encode_target(self, text: str) -> list[int]:
        return {"Kollege": [7, 8], "Kollegen": [7, 8, 9]}.get(text, [1])


def searched(codec, table, target: str, text: str, source: str, plural: bool = False) -> list[int]:
    """The best output of a beam of three over ``table`` with ``text``'s one source term ``source`` (in the
    ``plural``: Glossary.inflected) translated as the weak noun ``target``."""
    start = text.index(source)
    terms = with_other_forms(codec, [codec.encode_target(target)], text, [(start, start + len(source), target)],
                             {target} if plural else set(), german=True)
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0), use_cache=False,
                           terms=[terms], continuing=continuing_pieces(codec, len(codec.PIECES)))
    return best.tokens


def read(codec, pieces: list[str]) -> int:
    """What the word the pieces ``pieces`` write says of a weak noun after it."""
    found = articles(codec)
    state = torch.tensor(0)
    for piece in pieces:
        state = found.step(state, torch.tensor(codec.PIECES.index(piece)))
    return int(found.kinds[state])


def test_an_article_is_read_from_the_pieces_of_its_word():
    """"▁eine" + "m" is "einem"; "▁Ein" with its capital is "ein"; "▁Ein" + "fach" is no article; "▁eine" is the
    feminine's."""
    codec = ArticlePieces()
    assert read(codec, ["▁eine", "m"]) == OBLIQUE and read(codec, ["▁Ein"]) == NOMINATIVE
    assert read(codec, ["▁Ein", "fach"]) == NONE and read(codec, ["▁eine"]) == FEMININE
    assert read(codec, ["▁eine", "m", "▁Kunde"]) == NONE  # a word of its own after it


class AdjectivePieces(NamedPieces):
    """Articles, adjectives after them (one of an article's first pieces, "▁al" of "alle", and "ten"), and a weak
    noun whose case form is a piece of its own."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁eine", "m", "▁jungen", "▁Kunde", "▁Kunden", "▁sehr", "▁Ein",
              "▁kleiner", "▁die", "▁kleine", "▁zwei", "▁und", "▁al", "ten"]


class YoungPieces(NamedPieces):
    """AdjectivePieces' first ten, for a search over ten pieces: "einem jungen" or "einem sehr" and a weak noun whose
    case form is a piece of its own."""

    PIECES = AdjectivePieces.PIECES[:10]


class YoungEndingPieces(NamedPieces):
    """"einem jungen" and a weak noun whose case form is its pieces and the ending's ("▁K" "ollege" + "n")."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁eine", "m", "▁jungen", "▁K", "ollege", "n"]

    def encode_target(self, text: str) -> list[int]:
        return {"Kollege": [7, 8], "Kollegen": [7, 8, 9]}.get(text, [1])


@pytest.mark.parametrize("pieces, kind", [
    (["▁eine", "m", "▁jungen"], ADJECTIVE_OBLIQUE), (["▁zwei", "▁kleine"], ADJECTIVE_OBLIQUE),
    (["▁die", "▁jungen"], ADJECTIVE_OBLIQUE), (["▁eine", "m", "▁al", "ten"], ADJECTIVE_OBLIQUE)])
def test_an_adjective_whose_ending_agrees_with_the_article_before_it_carries_its_case_on(pieces, kind):
    """"mit einem jungen Präsident" came out: the article was read right before the noun alone.  "einem" + "-en",
    "die" + "-en", "zwei" + "-e" agree; "▁al" begins "alle", and "alten" is an adjective."""
    assert read(AdjectivePieces(), pieces) == kind


@pytest.mark.parametrize("pieces", [["▁die", "▁kleine"], ["▁Ein", "▁kleiner"], ["▁und", "▁jungen"],
                                    ["▁eine", "m", "▁sehr", "▁jungen"], ["▁eine", "▁kleine"], ["▁eine", "m", "▁Kunde"]])
def test_an_adjective_whose_ending_disagrees_or_after_no_article_leaves_the_form_to_the_model(pieces):
    """"die kleine" is a feminine singular, where "die" said a plural too; "und jungen" has no article; "einem
    sehr" no adjective's ending; "eine" (feminine) carries nothing on; nor does "ein kleiner": held to "Nachbar"
    there, the model wrote "Ein kleiner Junge läuft Nachbar"."""
    assert read(AdjectivePieces(), pieces) == NONE


def test_a_weak_noun_after_an_article_and_an_adjective_takes_its_case_ending():
    """"He stands with a young colleague" came out "mit einem jungen Kollege": now "einem jungen Kollegen"."""
    table = {(): {4: 1.0}, (4,): {5: 1.0}, (4, 5): {6: 1.0}, (4, 5, 6): {7: 1.0}, (4, 5, 6, 7): {8: 1.0},
             (4, 5, 6, 7, 8): {EOS: 0.9, 9: 0.1}}
    assert searched(YoungEndingPieces(), table, "Kollege", "with a young colleague.", "colleague") == [4, 5, 6, 7, 8, 9]


def test_an_adjective_rules_out_no_form_of_a_weak_noun():
    """Held to "▁Kunden", a piece of its own, after "einem jungen", a model that had not learnt it wrote a word of its
    own first ("Drei kleine Sechs Löwe"): the adjective carries the ending only onto a form that may take it."""
    table = {(): {4: 1.0}, (4,): {5: 1.0}, (4, 5): {6: 1.0}, (4, 5, 6): {7: 0.9, 8: 0.1}}
    assert searched(YoungPieces(), table, "Kunde", "with a young customer.", "customer") == [4, 5, 6, 7]


def test_a_weak_nouns_forms_are_told_apart_by_their_case_ending():
    codec = EndingPieces()
    [term] = with_other_forms(codec, [[7, 8]], "He thanks his colleague.", [(14, 23, "Kollege")], german=True)
    assert cases_of(term) == [BARE, CASED]


def test_a_weak_noun_after_ein_has_no_case_ending_and_after_no_article_the_models_form():
    """"A customer waits" came out "Ein Kunden wartet": the model's best form after "Ein" was the oblique one.  With
    no article before it, and neither the subject nor in the plural, the form stays the model's to choose."""
    table = {(): {4: 1.0}, (4,): {6: 0.9, 5: 0.1}}
    assert searched(ArticlePieces(), table, "Kunde", "A customer.", "customer") == [4, 5]
    assert searched(ArticlePieces(), {(): {6: 0.9, 5: 0.1}}, "Kunde", "I know customer.", "customer") == [6]


def test_a_weak_noun_after_an_oblique_article_of_two_pieces_has_its_case_ending():
    """"mit einem Student", "mit dem Präsident" came out; "einem" is "▁eine" "m" to the vocabulary."""
    table = {(): {7: 1.0}, (7,): {8: 1.0}, (7, 8): {5: 0.9, 6: 0.1}}
    assert searched(ArticlePieces(), table, "Kunde", "with a customer.", "customer") == [7, 8, 6]


def test_a_weak_noun_whose_ending_is_a_piece_takes_it_after_seinem_and_not_after_sein():
    """"sein Kollegen" came out where "sein Kollege" or "seinem Kollegen" is German."""
    codec = EndingPieces()
    nominative = {(): {4: 1.0}, (4,): {7: 1.0}, (4, 7): {8: 1.0}, (4, 7, 8): {9: 0.9, EOS: 0.1}}
    assert searched(codec, nominative, "Kollege", "with his colleague.", "colleague") == [4, 7, 8]
    dative = {(): {5: 1.0}, (5,): {6: 1.0}, (5, 6): {7: 1.0}, (5, 6, 7): {8: 1.0}, (5, 6, 7, 8): {EOS: 0.9, 9: 0.1}}
    assert searched(codec, dative, "Kollege", "with his colleague.", "colleague") == [5, 6, 7, 8, 9]



def test_a_weak_nouns_case_form_after_ein_may_begin_a_compound():
    """"A customer account" may be "ein Kundenkonto" ("▁Kunden" + "konto"), where "Ein Kunden" alone is no German."""
    table = {(): {4: 1.0}, (4,): {6: 0.9, 5: 0.1}, (4, 6): {9: 0.6, EOS: 0.4}}
    assert searched(ArticlePieces(), table, "Kunde", "A customer account.", "customer") == [4, 6, 9]
    assert searched(ArticlePieces(), table, "Kunde", "A customer.", "customer") == [4, 5]


def test_a_weak_noun_is_written_after_no_feminine_article():
    """"Eine Kunden wartet" came out once "Ein" was held to "Kunde": "eine" stands before neither form."""
    table = {(): {7: 0.6, 4: 0.4}, (7,): {6: 0.9, 5: 0.1}, (4,): {5: 1.0}}
    assert searched(ArticlePieces(), table, "Kunde", "A customer.", "customer") == [4, 5]


class FrenchPieces(NamedPieces):
    """A French term that ends as a weak German noun does ("Président"), its pieces and German's ending "en"'s."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁des", "▁Président", "en", "s", "▁Le", "▁bureau"]

    def encode_target(self, text: str) -> list[int]:
        return {"Président": [5], "Présidenten": [5, 6], "Présidents": [5, 7]}.get(text, [1])


@pytest.mark.parametrize("language", ["de", "de-CH", "de_AT", "DE", "deu", "ger"])
def test_a_target_language_is_german_by_its_primary_code(language):
    assert german(language)


@pytest.mark.parametrize("language", ["fr", "fr-CA", "es", "it", "nl", "da", "en", "", None])
def test_another_or_an_unknown_target_language_is_no_german(language):
    """Unknown (None): German's endings on a term of another language made a word of none ("Présidenten")."""
    assert not german(language)


def test_a_term_of_another_target_language_takes_no_german_case_ending_after_des():
    """"the office of the presidents" into French: "des Président" took German's oblique ending, "Présidenten"."""
    codec, text = FrenchPieces(), "the office of the president."
    found = [(text.index("president"), len(text) - 1, "Président")]
    table = {(): {4: 1.0}, (4,): {5: 1.0}, (4, 5): {6: 0.6, EOS: 0.4}}
    for is_german, best in ((True, [4, 5, 6]), (False, [4, 5])):
        terms = with_other_forms(codec, [[5]], text, found, german=is_german)
        [[hypothesis]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0),
                                     use_cache=False, terms=[terms], continuing=continuing_pieces(codec, 10))
        assert hypothesis.tokens == best


@pytest.mark.parametrize(("target_lang", "cased"), [("de", True), ("fr", False), (None, False)])
def test_a_weak_nouns_case_form_is_offered_only_for_a_german_target(target_lang, cased):
    """The model's target language (Transformer.target_lang) reaches the glossary's terms: "Kunden" is a form of
    "Kunde" for a German target alone, and for a model whose language is not known the term is as written."""
    guides = Guides.of(1, Glossary.of({"customer": "Kunde"}))
    [term] = guides.terms(ArticlePieces(), 1, ["He thanks the customer."], 0, 10, target_lang)
    assert forms(term) == ([[5], [6]] if cased else [[5]])


class DetourPieces(NamedPieces):
    """"Ein", a capital's one-letter word ("▁L"), a two-piece one ("▁Z" "e"), a noun ("▁Mann"), and a weak noun whose
    case form is its pieces and the ending's ("▁K" "ollege" + "n")."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Ein", "▁L", "▁K", "ollege", "n", "▁wartet", "▁Z", "e", "▁Mann",
              "▁eine", "m", "▁2"]

    def encode_target(self, text: str) -> list[int]:
        return {"Kollege": [6, 7], "Kollegen": [6, 7, 8]}.get(text, [1])


def test_a_capitals_word_of_one_or_two_letters_after_an_article_keeps_what_it_says():
    """"Ein L" is no article's noun but a way round it; "Ein Mann" is one (and "Eine Gruppe Studenten" a partitive)."""
    codec = DetourPieces()
    assert read(codec, ["▁Ein", "▁L"]) == NOMINATIVE and read(codec, ["▁Ein", "▁Z", "e"]) == NOMINATIVE
    assert read(codec, ["▁eine", "m", "▁L"]) == OBLIQUE and read(codec, ["▁eine", "▁L"]) == FEMININE
    for other in (["▁Ein", "▁Mann"], ["▁Ein", "▁Z", "e", "e"], ["▁Ein", "▁2"]):
        assert read(codec, other) == NONE


def test_a_weak_noun_after_ein_and_a_one_letter_word_has_no_case_ending():
    """"A colleague is waiting." came out "Ein L Kollegen wartet.": the model that could not write "Kollege" before
    its verb wrote a word of one letter after "Ein", and the form after it was free."""
    codec = DetourPieces()
    ein, el, k, ollege, n, wartet = range(4, 10)
    table = {(): {ein: 1.0}, (ein,): {el: 0.6, k: 0.4}, (ein, el): {k: 1.0}, (ein, el, k): {ollege: 1.0},
             (ein, el, k, ollege): {n: 0.95, wartet: 0.05}, (ein, el, k, ollege, n): {wartet: 1.0},
             (ein, k): {ollege: 1.0}, (ein, k, ollege): {n: 0.9, wartet: 0.1}}
    text = "A colleague is waiting."
    terms = with_other_forms(codec, [[k, ollege]], text, [(2, 11, "Kollege")], german=True)
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0), use_cache=False,
                           terms=[terms], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [ein, k, ollege, wartet]


def test_a_weak_noun_that_is_a_singular_subject_has_no_case_ending_with_no_article_before_it():
    """"Colleague is waiting." came out "Kollegen wartet.": no article told the form, and the model's best was the
    plural's; the source's subject, in the singular, is German's nominative singular."""
    assert searched(ArticlePieces(), {(): {6: 0.9, 5: 0.1}}, "Kunde", "Customer is waiting.", "Customer") == [5]
    codec = EndingPieces()
    table = {(): {7: 1.0}, (7,): {8: 1.0}, (7, 8): {9: 0.9, EOS: 0.1}}
    assert searched(codec, table, "Kollege", "Colleague is waiting.", "Colleague") == [7, 8]


def test_a_weak_noun_for_a_source_in_the_plural_has_its_ending_whatever_stands_before_it():
    """Every case of a weak noun's plural has the ending ("Kollegen warten"): where the ending is a piece, the search
    writes it after the form without it, the model's best."""
    codec = EndingPieces()
    table = {(): {7: 1.0}, (7,): {8: 1.0}, (7, 8): {EOS: 0.9, 9: 0.1}, (7, 8, 9): {EOS: 1.0}}
    assert searched(codec, table, "Kollege", "I know colleagues.", "colleagues", plural=True) == [7, 8, 9]


def test_a_weak_nouns_form_that_cannot_take_its_ending_as_a_piece_stays_writable_for_a_plural_source():
    """Ruled out, "Löwe" ("▁L" "ö" "we" beside "▁Löwen") left the term out of "Two lions are here." ("Zwei kleine
    Krünnen."): the model that has not learnt the piece of the case form goes round it."""
    assert searched(ArticlePieces(), {(): {5: 0.9, 6: 0.1}}, "Kunde", "Customers are waiting.", "Customers",
                    plural=True) == [5]
