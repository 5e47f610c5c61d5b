"""A German target term of adjectives and their noun takes the ending its place in the translation gives them."""

import pytest
import torch
from support import EOS, NamedPieces, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_adjectives import declined_adjectives
from attnmt.decoding.term_ids import forms


class ShirtWords(NamedPieces):
    """Whole words, each one piece after a space, of "A woman in a red shirt." in German, the adjective in two of its
    endings."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁rotes", "▁roten", "▁Hemd", "▁Eine", "▁in", "▁einem"]


def test_a_term_of_an_adjective_and_its_noun_is_met_by_the_adjective_in_the_ending_the_model_writes():
    """"A woman in a red shirt." with red shirt -> rotes Hemd came out "Eine Frau in einem roten Hemd rotes Hemd.":
    the model declined the adjective after "einem", and the search then wrote the term as given.  "roten Hemd" meets
    the term (0.9 × 0.9), where "in einem rotes Hemd" (0.1) and the term written twice (0.09) are worse German."""
    codec = ShirtWords()
    eine, in_, einem, rotes, roten, hemd = (codec.PIECES.index("▁" + word)
                                             for word in ("Eine", "in", "einem", "rotes", "roten", "Hemd"))
    table = {(): {eine: 1.0}, (eine,): {in_: 1.0}, (eine, in_): {einem: 1.0},
             (eine, in_, einem): {roten: 0.9, rotes: 0.1}, (eine, in_, einem, rotes): {hemd: 1.0},
             (eine, in_, einem, roten): {hemd: 1.0}, (eine, in_, einem, roten, hemd): {EOS: 0.9, rotes: 0.1},
             (eine, in_, einem, roten, hemd, rotes): {hemd: 1.0}}
    sentence = "A woman in a red shirt."
    terms = Guides.of(1, Glossary.of({"red shirt": "rotes Hemd"})).terms(codec, 1, [sentence], 0, room=10,
                                                                           target_lang="de")
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[terms])
    assert codec.decode(best.tokens) == "Eine in einem roten Hemd"


def test_the_adjectives_of_a_term_are_declined_only_into_german():
    """French and English put no such ending on an adjective: "rotes Hemd" stays as given for another language."""
    codec = ShirtWords()
    glossary = Glossary.of({"red shirt": "rotes Hemd"})
    [german] = Guides.of(1, glossary).terms(codec, 1, ["A red shirt."], 0, room=10, target_lang="de")
    [other] = Guides.of(1, glossary).terms(codec, 1, ["A red shirt."], 0, room=10, target_lang="fr")
    assert codec.encode_target("roten Hemd") in forms(german) and forms(other) == [codec.encode_target("rotes Hemd")]


class StartingWords(NamedPieces):
    """Whole words, as ShirtWords, of the term with a capital first and in the plural."""

    PIECES = [*ShirtWords.PIECES, "▁rote", "▁Rotes", "▁Rote", "▁Hemden", "en", "▁iPhone", "▁IPhone", "▁Hülle"]


def test_a_term_of_an_adjective_and_its_noun_that_starts_a_sentence_may_be_written_with_a_capital_in_each_ending():
    """"Young boys play soccer." with young boy -> kleiner Junge came out "kleiner Junge spielen Fußball.": the noun's
    capital inside the term kept it from starting the translation with a capital ("Kleine Jungen" now).  A word
    with a capital inside, "iPhone", still keeps its own case."""
    codec = StartingWords()
    [shirts] = Guides.of(1, Glossary.of({"red shirt": "rotes Hemd"})).terms(codec, 1, ["Red shirts hang."], 0,
                                                                              room=10, target_lang="de")
    written = [codec.decode(form) for form in forms(shirts)]
    assert {"Rotes Hemd", "Rote Hemd", "Rote Hemden", "rote Hemden"} <= set(written)
    [case] = Guides.of(1, Glossary.of({"iPhone case": "iPhone Hülle"})).terms(codec, 1, ["IPhone cases."], 0,
                                                                               room=10, target_lang="de")
    assert "IPhone Hülle" not in [codec.decode(form) for form in forms(case)]


class PluralWords(NamedPieces):
    """Whole words, as StartingWords, and the adjective with a plural's ending after its own, as French's first word
    takes one ("points d'accès")."""

    PIECES = [*StartingWords.PIECES, "▁rotese", "▁rotesen"]


def test_a_german_terms_adjective_takes_no_ending_after_its_own_for_a_source_in_the_plural():
    """"Two red shirts." with red shirt -> rotes Hemd let the search write "rotesen Hemd", "rotese Hemd": the plural
    French puts on a term's first word; a German adjective takes its ending in place of its own."""
    codec = PluralWords()
    glossary = Glossary.of({"red shirt": "rotes Hemd"})
    [german] = Guides.of(1, glossary).terms(codec, 1, ["Two red shirts."], 0, room=10, target_lang="de")
    [other] = Guides.of(1, glossary).terms(codec, 1, ["Two red shirts."], 0, room=10, target_lang="fr")
    written = [codec.decode(form) for form in forms(german)]
    assert "rote Hemden" in written and not {"rotese Hemd", "rotesen Hemd"} & set(written)
    assert "rotesen Hemd" in [codec.decode(form) for form in forms(other)]


@pytest.mark.parametrize(("target", "declined"), [
    ("rotes Hemd", ["roten Hemd", "rotem Hemd", "roter Hemd", "rote Hemd"]),
    ("großes rotes Hemd", ["großen roten Hemd", "großem rotem Hemd", "großer roter Hemd", "große rote Hemd"]),
    ("goldene Fahrrad", ["goldenen Fahrrad", "goldenem Fahrrad", "goldener Fahrrad", "goldenes Fahrrad"]),
    ("offenes Fenster zum Hof", ["offenen Fenster zum Hof", "offenem Fenster zum Hof", "offener Fenster zum Hof",
                                 "offene Fenster zum Hof"]),
])
def test_each_adjective_before_the_noun_takes_each_other_ending(target, declined):
    assert declined_adjectives(target) == declined


@pytest.mark.parametrize("target", ["Hemd", "rot", "rotes", "das Hemd", "die Katze", "Rotes Kreuz", "Deutsche Bank",
                                    "rotes und Hemd", "e-Mail", "3D Drucker"])
def test_an_article_a_name_or_a_term_without_a_noun_after_adjectives_keeps_its_form(target):
    """"d" + "as" is no adjective (its stem is under three letters), a name's capital is its own, and a word that is
    no adjective ("und", "e-Mail": not letters alone) before the noun leaves the term as given."""
    assert declined_adjectives(target) == []
