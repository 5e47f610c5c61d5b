"""What the English source says of a German term's case (attnmt.decoding.term_cases)."""

import pytest
from support import NamedPieces

from attnmt.decoding.term_cases import dative_possible, subject, without_dative
from attnmt.decoding.term_ids import forms, with_other_forms


@pytest.mark.parametrize(("sentence", "word"), [
    ("He works with two reports.", "reports"), ("He works with two old reports.", "reports"),
    ("Apples from both farms are sold.", "farms"), ("The color of the tables is red.", "tables"),
    ("She works with colleagues and reports.", "reports"), ("He gives the teachers a book.", "teachers"),
    ("We sat in the gardens, on the benches.", "benches")])
def test_a_preposition_or_a_verb_of_the_dative_before_the_noun_phrase_allows_the_dative(sentence, word):
    assert dative_possible(sentence, sentence.index(word))


@pytest.mark.parametrize(("sentence", "word"), [
    ("Four reports.", "reports"), ("Many contracts.", "contracts"), ("I see three old reports.", "reports"),
    ("Reports are waiting.", "Reports"), ("He works for two firms.", "firms"),
    ("With a smile he reads three long boring reports.", "reports"), ("He left. Two reports stay.", "reports")])
def test_no_preposition_or_verb_of_the_dative_before_the_noun_phrase_allows_no_dative(sentence, word):
    """"Four reports." came out "Vier Berichten"; a preposition of the accusative ("for": "für"), one too far
    before, or one of the clause before is none of the noun's."""
    assert not dative_possible(sentence, sentence.index(word))


@pytest.mark.parametrize(("word", "endings", "kept"), [
    ("Bericht", ("e", "en", "s"), ("e", "s")), ("Kind", ("e", "en", "s", "er", "ern"), ("e", "s", "er")),
    ("Lehrer", ("n", "s"), ("s",)), ("Äpfel", ("", "n"), ("",)), ("Verträg", ("e", "en"), ("e",)),
    ("Flasche", ("n",), ("n",)), ("Frau", ("en", "s"), ("en", "s")), ("Rechnung", ("en",), ("en",)),
    ("Kundin", ("nen", "e", "en"), ("nen", "e"))])
def test_the_dative_endings_are_the_n_after_a_plurals_own_ending(word, endings, kept):
    """"Berichten", "Kindern", "Lehrern", "Äpfeln" are datives; "Flaschen", "Frauen", "Rechnungen", "Kundinnen" are
    the plurals themselves."""
    assert without_dative(word, endings) == kept


class UmlautPieces(NamedPieces):
    """A noun in "-ag" and its plural's forms as whole pieces, and endings as pieces of their own."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Vertrag", "▁Verträge", "▁Verträgen", "▁Bericht", "e", "en", "s",
              "▁Verträger"]


def test_a_german_plural_takes_its_dative_ending_only_where_the_source_may_be_in_the_dative():
    """"Many contracts." came out "Viele Verträgen", "Four reports." "Vier Berichten"."""
    codec = UmlautPieces()
    for sentence, dative in [("Many contracts.", False), ("He works with many contracts.", True)]:
        start = sentence.index("contracts")
        [term] = with_other_forms(codec, [[4]], sentence, [(start, start + 9, "Vertrag")], {"Vertrag"}, german=True)
        written = [codec.decode(form) for form in forms(term)]
        assert written == ["Vertrag", "Verträge", *(["Verträgen"] if dative else [])]
        assert term.endings == []  # the plain stem takes none: its plural is the umlaut's
    for sentence, endings in [("Four reports.", ["e"]), ("He works with four reports.", ["e", "en"])]:
        start = sentence.index("reports")
        [term] = with_other_forms(codec, [[7]], sentence, [(start, start + 7, "Bericht")], {"Bericht"}, german=True)
        assert sorted(map(codec.id_to_piece, term.endings)) == endings


@pytest.mark.parametrize(("sentence", "word", "begins"), [
    ("Colleague is waiting.", "Colleague", True), ("My colleague is waiting.", "colleague", True),
    ('"Colleague" is waiting.', "Colleague", True), ("Every student works.", "student", True),
    ("Yes, colleague, wait.", "colleague", False), ("I see the colleague.", "colleague", False),
    ("Colleague's car is red.", "Colleague", False)])
def test_a_source_term_with_nothing_but_determiners_before_it_begins_the_subject(sentence, word, begins):
    """"Colleague is waiting." came out "Kollegen wartet.": the subject is German's nominative; a possessive is
    none ("Das Auto des Kollegen")."""
    assert subject(sentence, sentence.index(word)) == begins


@pytest.mark.parametrize(("sentence", "word", "dative"), [
    ("Of course, the girls run.", "girls", False), ("Of course the girls run.", "girls", False),
    ("Of all, the dogs run fastest.", "dogs", False), ("She kind of likes the girls.", "girls", False),
    ("He is afraid of losing the girls.", "girls", False), ("The toys of the young children.", "children", True),
    ("The toys of my children.", "children", True), ("He talks of course with the girls.", "girls", True)])
def test_of_allows_the_dative_only_where_it_governs_the_noun_phrase(sentence, word, dative):
    """"Of course, the girl runs." read "of" as the girl's preposition: "dem Mädchen", "den Kindern"; an "of" is
    the noun's only with determiners and adjectives between and no mark (term_articles.after_of's rule)."""
    assert dative_possible(sentence, sentence.index(word)) == dative


@pytest.mark.parametrize(("sentence", "word", "begins"), [
    ("Of course, the girl runs.", "girl", True), ("After all, the girl runs.", "girl", True),
    ("In the big garden, a girl plays.", "girl", True), ("Of all the girls, Anna runs.", "girls", False),
    ("Yes, the girl runs.", "girl", False)])
def test_a_source_term_after_an_opening_phrase_of_a_preposition_begins_the_subject(sentence, word, begins):
    """A phrase a preposition opens and a comma closes stands before the sentence's subject."""
    assert subject(sentence, sentence.index(word)) == begins
