"""The numbers in digits a sentence with glossary terms keeps as digits (attnmt.decoding.term_numbers)."""

import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_numbers import source_numbers


@pytest.mark.parametrize(("sentence", "numbers"), [
    ("Take Route 66 to the city.", ["66"]), ("In 2019 the shop opened.", ["2019"]),
    ("A woman buys 3 bottles and 3 cans.", ["3"]), ("Gate 7.", ["7"]), ("Bus 42 leaves at 9 or 10!", ["42", "9", "10"]),
    ("He said “12” twice (or 13).", ["12", "13"]), ("Room ６ is free.", ["6"]), ("12 dogs run.", ["12"])])
def test_a_whole_number_standing_as_a_word_is_kept(sentence, numbers):
    assert source_numbers(sentence) == numbers


@pytest.mark.parametrize("sentence", [
    "1,000 people came.", "A 3.5 m wall.", "COVID-19 tests.", "A4 paper.", "The 3D model.", "Item #7 is here.",
    "Version v2 is out.", "Two routes lead there.", "A globe, about 4' in diameter.", 'A 27" screen.'])
def test_a_number_german_writes_otherwise_or_one_inside_a_word_or_of_feet_and_inches_is_not(sentence):
    """German writes "1.000" and "3,5"; "COVID-19", "A4" and "3D" are words the model copies whole; "4'" is four feet,
    whose 4 the search placed alone ("… in der Nähe 4 ist.")."""
    assert source_numbers(sentence) == []


class RoutePieces(NamedPieces):
    """Whole words after a space: a term, a number in digits and the number spelled out."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Route", "▁66", "▁Sechs", "▁Hund"]


def test_a_sentence_with_terms_requires_its_numbers_as_terms():
    codec = RoutePieces()
    route, named = Glossary.of({"route": "Route"}), Glossary.of({"Route 66": "Route 66"})
    guides = Guides.of(3, [route, route, named])
    sentences = ["Take the route in 66 minutes.", "A dog crosses road 66.", "Route 66 is long."]
    assert guides.terms(codec, 1, sentences, 0, room=10) == [[4], [5]]
    assert guides.terms(codec, 1, sentences, 1, room=10) == []  # no term: searched freely
    assert guides.terms(codec, 1, sentences, 2, room=10) == [[4, 5]]  # the term writes the number already


def test_a_number_in_digits_comes_through_as_digits_where_the_model_would_spell_it_out():
    """"Take Route 66 to the city." with route -> Route came out "Ein Route Conner, …" and "Route 66" "Sechs Sechs
    Route": the model prefers the number's word, and the search wrote the term alone."""
    codec = RoutePieces()
    route, sixty_six, sechs = 4, 5, 6
    table = {(): {route: 0.9, EOS: 0.1}, (route,): {sechs: 0.8, sixty_six: 0.1, EOS: 0.1},
             (route, sechs): {EOS: 1.0}, (route, sixty_six): {EOS: 1.0}}
    terms = Guides.of(1, Glossary.of({"route": "Route"})).terms(codec, 1, ["Route 66 is long."], 0, room=10)
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms])
    assert best.tokens == [route, sixty_six]


@pytest.mark.parametrize(("sentence", "terms"), [
    ("Gate 7 is closed.", [[4, 5]]), ("Take gate\u00a07, then 8.", [[4, 5], [6]]), ("Is it gate 7?", [[4, 5]]),
    ("7 gates are closed.", [[4], [5]]), ("Gates 7 and 8 are closed.", [[4], [5], [6]]),
    ("Gate 7.5 is closed.", [[4]])])
def test_a_number_right_after_a_term_is_required_with_it_as_one_term(sentence, terms):
    """"Gate 7 is closed." with gate -> Gate came out "Ein 7 aussehendes Gate.": the number required alone was placed
    apart from the thing it names; in another number than given, the term's form is the model's to choose."""
    class GatePieces(NamedPieces):
        PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Gate", "▁7", "▁8"]

    guides = Guides.of(1, Glossary.of({"gate": "Gate"}))
    assert [list(term) for term in guides.terms(GatePieces(), 1, [sentence], 0, room=10)] == terms
