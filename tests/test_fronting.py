"""A phrase put first, the finite verb second (attnmt.decoding.fronting): the right German order that the fit for
texts written elsewhere is shown as acceptable (attnmt.decoding.noising's front_phrase), and the verb third after it,
which German does not allow (``verb_third``, an input of that fit)."""

import pytest

from attnmt.decoding.fronting import fronted, fronted_verb_third, verb_third


@pytest.mark.parametrize(("sentence", "reordered"), [
    ("Eine Frau liest ein Buch im Park.", "Im Park liest eine Frau ein Buch."),
    ("Ein Mann in einem roten Hemd spielt Gitarre auf der Bühne.",
     "Auf der Bühne spielt ein Mann in einem roten Hemd Gitarre."),
    ("Zwei Hunde rennen durch den tiefen Schnee!", "Durch den tiefen Schnee rennen zwei Hunde!"),
    ("Bauarbeiter stehen auf einem Gerüst.", "Auf einem Gerüst stehen Bauarbeiter."),
    ("Er liest heute im Garten ein Buch", "Im Garten liest er heute ein Buch"),
])
def test_the_last_phrase_after_the_verb_comes_first_and_the_subject_after_the_verb(sentence, reordered):
    """The subject's article, number or pronoun loses its capital, a noun keeps it; the sentence's mark (or none)
    stays at its end."""
    assert " ".join(fronted(sentence.split())) == reordered


def test_a_genitive_goes_with_its_noun_and_sich_with_its_verb():
    assert " ".join(fronted("Ein Junge sitzt auf den Schultern einer Frau.".split())) == \
        "Auf den Schultern einer Frau sitzt ein Junge."
    assert " ".join(fronted("Eine Frau sonnt sich am Strand.".split())) == "Am Strand sonnt sich eine Frau."


def test_only_a_phrase_of_the_first_clause_is_put_first():
    """A phrase behind 'und' or a comma belongs to another clause: 'Im Park sitzt ein Mann und liest' would say
    where he sits."""
    assert " ".join(fronted("Ein Mann sitzt auf einer Bank und liest im Park.".split())) == \
        "Auf einer Bank sitzt ein Mann und liest im Park."
    assert fronted("Ein Mann sitzt, während er im Park liest.".split()) is None


@pytest.mark.parametrize("sentence", [
    "Ein Mann, der einen Hut trägt, sitzt im Park.",  # a clause before the verb
    "Im Park liest eine Frau ein Buch.",  # a phrase first already, none after the verb
    "Ein Mann sitzt heute dort.",  # no prepositional phrase
    "A man plays guitar in Berlin.",  # English: no German article in the phrase
    "Un homme joue dans le parc.",
    "Een man speelt in het park.",
])
def test_a_sentence_that_does_not_read_so_is_left_alone(sentence):
    assert fronted(sentence.split()) is None


@pytest.mark.parametrize("sentence", [
    "Im Park eine Frau liest ein Buch.",
    "Am Strand zwei Kinder spielen Fußball.",
    "Auf einem Dach drei Männer arbeiten.",
    "An der Bushaltestelle eine Gruppe von Menschen wartet.",
    "Neben einem Auto ein Mann in einem blauen Hemd steht.",
    "Im Garten ein Mann und eine Frau lesen.",
    "Auf einem Pier 3 Jungen stehen.",
    "Im Auto er schläft",
])
def test_a_subject_between_a_phrase_put_first_and_the_finite_verb_is_the_verb_third(sentence):
    assert verb_third(sentence.split())


@pytest.mark.parametrize("sentence", [
    "Im Park liest eine Frau ein Buch.",  # the verb second
    "An der Bushaltestelle wartet eine Gruppe von Menschen.",
    "Eine Frau liest ein Buch im Park.",  # no phrase first
    "Im Park eine Frau mit einem Buch.",  # no verb: a caption
    "Im Park eine Frau allein.",  # an adverb, no verb (attnmt.text.german_words)
    "Im Park ein Mann, der liest.",  # a clause
    "In the park a woman reads a book.",  # English: no German article in the phrase
    "In Berlin ein Mann liest",  # no article either: not read, rather than guessed
    "Vor einer großen Kirche.",  # the phrase alone
    "Im Park ein Mann und",  # a conjunction last
])
def test_a_sentence_with_the_verb_second_or_no_phrase_first_is_not_the_verb_third(sentence):
    assert not verb_third(sentence.split())


def test_the_verb_third_order_puts_the_subject_before_the_verb_and_reads_as_verb_third():
    """As ``fronted`` orders it otherwise; each order read as what it is."""
    words = "Eine Frau konzentriert sich im Park.".split()
    assert " ".join(fronted_verb_third(words)) == "Im Park eine Frau konzentriert sich."
    assert verb_third(fronted_verb_third(words)) and not verb_third(fronted(words))
    assert fronted_verb_third("Ein Mann sitzt heute dort.".split()) is None
