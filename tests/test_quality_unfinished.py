"""A translation cut off and closed with a full stop (attnmt.decoding.quality_unfinished) is flagged
``untranslated``, as one that ends on a comma is; a sentence that ends on a pronoun or a verb's particle is not."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_unfinished import unfinished

EN_DE = Languages("en", "de")


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize(("source", "translation"), [
    ("Several people are standing near trees at dusk.", "Mehrere Menschen stehen in der."),
    ("A band is playing music on stage at a concert.", "Eine Band spielt bei einem."),
    ("A woman reads a card on a couch, while another woman drinks.", "Eine Frau liest eine Karte auf einem Sofa,."),
    ("A dog and a cat sleep.", "Ein Hund und."),
    ("A woman sings on a stage in front of a crowd.", "Eine Frau singt auf einer."),  # a pronoun too, not here
    ("Ein Hund liegt auf einem Sofa.", "A dog lies on a."),
    ("A girl reads a book that has a butterfly on it.", "Ein Mädchen liest ein Buch, das."),  # a relative clause
    ("Ein Mann, der liest.", "A man, who."),
    ("Ein Hund rennt über die Wiese.", "A dog runs across the."),
    ('He said: "The dog runs."', "Er sagte: „Der Hund rennt über die.“"),  # the quotation closed after the mark
])
def test_a_translation_closed_after_an_article_or_a_comma_is_unfinished(source, translation):
    languages = Languages("de", "en") if source.startswith("Ein") else EN_DE
    assert unfinished(source, translation, languages)


@pytest.mark.parametrize(("source", "translation"), [
    ("A man gets on the bus.", "Ein Mann steigt in den Bus ein."),  # a verb's particle
    ("What is that?", "Was ist das?"),  # a pronoun
    ("A girl carries two bags, one in each hand.", "Ein Mädchen trägt zwei Taschen, in jeder Hand eine."),
    ("Take plan A.", "Nimm Plan A."),  # a letter, not English's article
    ("I take one.", "Ich nehme eines."),  # an article's form as a pronoun, after a verb
    ("I know that.", "Ich weiß das."),  # "das" a pronoun, with no comma before it
    ("Several people are standing near trees.", "Mehrere Menschen stehen in der"),  # no mark: cut_short's, stop_lost's
    ("A dog runs across the.", "Ein Hund rennt über die."),  # the source ends so too
])
def test_a_sentence_that_ends_on_a_pronoun_or_particle_is_not(source, translation):
    assert not unfinished(source, translation, EN_DE)


def test_an_unknown_language_is_read_for_the_comma_alone():
    unknown = Languages(None, None)
    assert not unfinished("A dog and a cat sleep.", "Ein Hund und.", unknown)
    assert unfinished("A dog and a cat sleep.", "Ein Hund,.", unknown)


def test_assess_flags_an_unfinished_translation_untranslated(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    cut, whole = assess(model, tokenizer, ["a man rides a bike."] * 2,
                        ["ein mann fährt ein fahrrad und.", "ein mann fährt ein fahrrad."], languages=EN_DE)
    assert "untranslated" in cut.flags and "untranslated" not in whole.flags
