"""The German article before a glossary term takes the term's gender in the case the model's article shows
(attnmt.decoding.term_articles)."""

import warnings

import pytest
from support import NamedPieces, TableModel

from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.label_gender import FEMININE, MASCULINE, NEUTER
from attnmt.decoding.term_articles import agreed_articles, genitive, term_gender
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.inspect.align import translate_with_weights


class MeadowPieces(NamedPieces):
    """The words of "Er saß auf einem Wiese." and "dem", each a piece; a source is read as unknown pieces."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Er", "▁saß", "▁auf", "▁einem", "▁dem", "▁Wiese", ".", "▁Das",
              "▁Gesicht", "▁einer", "▁jungen", "▁Mädchen"]
    source_eos = False

    def encode(self, text: str) -> list[int]:
        return [1] * len(text.split())


def scripted(words: list[str], target_lang: str | None = "de") -> TableModel:
    """A model that writes ``words`` (MeadowPieces') whatever the source, into ``target_lang``."""
    ids = [MeadowPieces.PIECES.index(word) for word in words]
    table = {tuple(ids[:k]): {ids[k]: 1.0} for k in range(len(ids))}
    return TableModel(table, len(MeadowPieces.PIECES), target_lang)


def translated(model: TableModel, sentence: str, glossary: dict[str, str] | None = None) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [text] = translate(model, MeadowPieces(), [sentence], Decoding(beam_size=2, alpha=0.0),
                           glossary=glossary or {"meadow": "Wiese"})
    return text


def agreed(text: str, sentence: str, terms: dict[str, str]) -> str:
    return agreed_articles(text, sentence, Glossary.of(terms), "de")


@pytest.mark.parametrize(("article", "agreeing"), [("▁einem", "einer"), ("▁dem", "der")])
def test_a_feminine_term_after_the_models_dative_article_takes_the_feminine_dative(article, agreeing):
    """"He sat on a meadow." with meadow -> Wiese came out "Er saß auf einem Wiese." (and "dem Wiese")."""
    model = scripted(["▁Er", "▁saß", "▁auf", article, "▁Wiese", "."])
    assert translated(model, "He sat on a meadow.") == f"Er saß auf {agreeing} Wiese."


def test_a_translation_reads_of_past_the_terms_adjective_as_the_genitive():
    """"The face of a young girl." with girl -> Mädchen: the model's "einer" (its own noun's) read as the dative
    gave "einem jungen Mädchen"."""
    model = scripted(["▁Das", "▁Gesicht", "▁einer", "▁jungen", "▁Mädchen", "."])
    text = translated(model, "The face of a young girl.", {"girl": "Mädchen"})
    assert text == "Das Gesicht eines jungen Mädchens."


def test_n_best_translations_take_the_terms_gender_too():
    model = scripted(["▁Er", "▁saß", "▁auf", "▁einem", "▁Wiese", "."])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [[best]] = translate_n_best(model, MeadowPieces(), ["He sat on a meadow."], Decoding(beam_size=2, alpha=0.0),
                                    glossary={"meadow": "Wiese"})
    assert best.text == "Er saß auf einer Wiese."


def test_a_documents_translation_takes_the_terms_gender_too():
    """Documents are translated by attnmt.inspect.align's search (ModelTranslator), which wrote "einem Wiese"."""
    model = scripted(["▁Er", "▁saß", "▁auf", "▁einem", "▁Wiese", "."])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [text], _ = translate_with_weights(model, MeadowPieces(), ["He sat on a meadow."], [False],
                                           Decoding(beam_size=2, alpha=0.0), glossary={"meadow": "Wiese"})
    assert text == "Er saß auf einer Wiese."


def test_a_target_language_other_than_german_keeps_the_models_article():
    model = scripted(["▁Er", "▁saß", "▁auf", "▁einem", "▁Wiese", "."], target_lang=None)
    assert translated(model, "He sat on a meadow.") == "Er saß auf einem Wiese."


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("He sees a meadow.", "Er sieht einen Wiese.", "Er sieht eine Wiese."),
    ("He sees the meadow.", "Er sieht den Wiese.", "Er sieht die Wiese."),
    ("The meadow is green.", "Der Wiese ist grün.", "Die Wiese ist grün."),
    ("A meadow is green.", "Ein Wiese ist grün.", "Eine Wiese ist grün."),
    ("It is the end of the meadow.", "Es ist das Ende des Wiese.", "Es ist das Ende der Wiese."),
    ("He sat on his meadow.", "Er saß auf seinem Wiese.", "Er saß auf seiner Wiese."),
    ("He sat on this meadow.", "Er saß auf diesem Wiese.", "Er saß auf dieser Wiese."),
])
def test_a_feminine_terms_article_keeps_the_models_case(sentence, written, expected):
    assert agreed(written, sentence, {"meadow": "Wiese"}) == expected


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("The girl runs.", "Der Mädchen läuft.", "Das Mädchen läuft."),
    ("She sees the girl.", "Sie sieht die Mädchen.", "Sie sieht das Mädchen."),
    ("She talks to the girl.", "Sie spricht mit der Mädchen.", "Sie spricht mit dem Mädchen."),
    ("She talks to a girl.", "Sie spricht mit einer Mädchen.", "Sie spricht mit einem Mädchen."),
])
def test_a_neuter_terms_article_keeps_the_models_case(sentence, written, expected):
    assert agreed(written, sentence, {"girl": "Mädchen"}) == expected


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("The butterfly flies.", "Die Schmetterling fliegt.", "Der Schmetterling fliegt."),
    ("She sees a butterfly.", "Sie sieht eine Schmetterling.", "Sie sieht einen Schmetterling."),
    ("She sits with the butterfly.", "Sie sitzt mit der Schmetterling.", "Sie sitzt mit dem Schmetterling."),
    ("She sits with a butterfly.", "Sie sitzt mit einer Schmetterling.", "Sie sitzt mit einem Schmetterling."),
])
def test_a_masculine_terms_article_keeps_the_models_case(sentence, written, expected):
    assert agreed(written, sentence, {"butterfly": "Schmetterling"}) == expected


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("He sees a big meadow.", "Er sieht einen großen Wiese.", "Er sieht eine große Wiese.", {"meadow": "Wiese"}),
    ("He sat on a very green meadow.", "Er saß auf einem sehr grünen Wiese.", "Er saß auf einer sehr grünen Wiese.",
     {"meadow": "Wiese"}),
    ("She sees a little girl.", "Sie sieht eine kleine Mädchen.", "Sie sieht ein kleines Mädchen.",
     {"girl": "Mädchen"}),
])
def test_the_adjectives_between_take_the_new_articles_ending(sentence, written, expected, terms):
    assert agreed(written, sentence, terms) == expected


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("He went to the meadow.", "Er ging zum Wiese.", "Er ging zur Wiese."),
    ("He is in the meadow.", "Er ist im Wiese.", "Er ist in der Wiese."),
])
def test_a_contraction_before_a_feminine_term_takes_the_feminine_article(sentence, written, expected):
    assert agreed(written, sentence, {"meadow": "Wiese"}) == expected


@pytest.mark.parametrize(("sentence", "written"), [
    ("He sits on the meadow.", "Er sitzt auf der Wiese."),  # "der": the feminine dative
    ("A meadow.", "Eine Wiese."),
])
def test_an_article_that_agrees_already_is_kept(sentence, written):
    assert agreed(written, sentence, {"meadow": "Wiese"}) == written


@pytest.mark.parametrize(("sentence", "written"), [
    ("He gave the man meadow.", "Er gab dem Mann Wiese."),  # a noun between: "dem" is "Mann"'s
    ("The house that has meadow.", "Das Haus, das Wiese hat."),  # a relative pronoun
    ("He sat on the meadows.", "Er saß auf den Wiese."),  # a source in the plural
])
def test_a_word_that_is_not_the_terms_article_is_kept(sentence, written):
    assert agreed(written, sentence, {"meadow": "Wiese", "meadows": "Wiese"}) == written


def test_a_term_of_unknown_gender_keeps_the_models_article():
    """"Garten" tells its gender by no ending: "einer" may be right for all the glossary says."""
    assert agreed("Er saß in einer Garten.", "He sat in a garden.", {"garden": "Garten"}) == "Er saß in einer Garten."


@pytest.mark.parametrize(("target", "gender"), [
    ("Wiese", FEMININE), ("Brücke", FEMININE), ("Zeitung", FEMININE), ("Mädchen", NEUTER), ("Kunde", MASCULINE),
    ("Schmetterling", MASCULINE), ("Auge", None), ("Wochenende", None), ("Gebäude", None), ("Kaffee", None),
    ("Garten", None), ("Knie", None), ("Hauptgebäude", None), ("rote Wiese", None)])
def test_a_terms_gender_is_read_from_its_ending(target, gender):
    assert term_gender(target, "x") == gender


def test_a_loanword_in_e_has_no_gender_from_its_ending():
    """"Update" is neuter: spelt as its English source, it is no German noun in "-e"."""
    assert term_gender("Update", "update") is None and term_gender("Wiese", "meadow") == FEMININE


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("She talks to the customer.", "Sie spricht mit der Kunde.", "Sie spricht mit dem Kunden.", {"customer": "Kunde"}),
    ("She sees a customer.", "Sie sieht eine Kunde.", "Sie sieht einen Kunden.", {"customer": "Kunde"}),
    ("He went to the student.", "Er ging zur Student.", "Er ging zum Studenten.", {"student": "Student"}),
    ("She sees a young neighbour.", "Sie sieht eine junge Nachbar.", "Sie sieht einen jungen Nachbarn.",
     {"neighbour": "Nachbar"}),
])
def test_a_weak_masculine_term_takes_its_ending_in_the_new_articles_oblique_case(sentence, written, expected, terms):
    assert agreed(written, sentence, terms) == expected


def test_a_weak_masculine_term_after_a_new_nominative_article_loses_its_ending():
    assert agreed("Die Kunden wartet.", "The customer waits.", {"customer": "Kunde"}) == "Der Kunde wartet."


@pytest.mark.parametrize(("target", "inflected"), [
    ("Bauer", "Bauern"), ("Name", "Namens"), ("Mädchen", "Mädchens"), ("Schmetterling", "Schmetterlings")])
def test_a_masculine_or_neuter_term_after_a_new_genitive_article_takes_its_genitive_ending(target, inflected):
    """"The end of the farmer." with farmer -> each target; the model wrote "der" for a feminine noun of its own."""
    written = agreed(f"Es ist das Ende der {target}.", "It is the end of the farmer.", {"farmer": target})
    assert written == f"Es ist das Ende des {inflected}."


@pytest.mark.parametrize(("target", "expected"), [
    ("Mädchen", "Mädchens"), ("Direktor", "Direktors"), ("Tourismus", "Tourismus"), ("Haus", None),
    ("Ergebnis", None), ("Globus", None), ("Reflex", None), ("Fuß", None)])
def test_a_strong_nouns_genitive_is_given_only_where_its_letters_tell_it(target, expected):
    """"des Hauses" but "des Ergebnisses" and "des Globus": after a sibilant the article is kept rather."""
    assert genitive(target) == expected


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("It is the face of a young girl.", "Es ist das Gesicht einer jungen Mädchen.",
     "Es ist das Gesicht eines jungen Mädchens.", {"girl": "Mädchen"}),
    ("The name of the small young girl.", "Der Name der kleinen jungen Mädchen.",
     "Der Name des kleinen jungen Mädchens.", {"girl": "Mädchen"}),
    ("The face of this young girl.", "Das Gesicht dieser jungen Mädchen.", "Das Gesicht dieses jungen Mädchens.",
     {"girl": "Mädchen"}),
    ("The colour of the big butterfly.", "Die Farbe der großen Schmetterling.",
     "Die Farbe des großen Schmetterlings.", {"butterfly": "Schmetterling"}),
    ("The wings of a small blue butterfly.", "Die Flügel einer kleinen blauen Schmetterling.",
     "Die Flügel eines kleinen blauen Schmetterlings.", {"butterfly": "Schmetterling"}),
    ("The car of my old customer.", "Das Auto meiner alten Kunde.", "Das Auto meines alten Kunden.",
     {"customer": "Kunde"}),
    ("The books of a very young student.", "Die Bücher einer sehr jungen Student.",
     "Die Bücher eines sehr jungen Studenten.", {"student": "Student"}),
    ("The value of the new document.", "Der Wert der neuen Dokument.", "Der Wert des neuen Dokuments.",
     {"document": "Dokument"}),
])
def test_of_before_the_terms_adjectives_tells_the_genitive(sentence, written, expected, terms):
    """The model's "einer", "der" (a feminine noun's genitive, or dative) read as the dative before: "einem jungen
    Mädchen"."""
    assert agreed(written, sentence, terms) == expected


@pytest.mark.parametrize(("sentence", "written"), [
    ("He is afraid of losing the girl.", "Er fürchtet, der Mädchen zu verlieren."),
    ("Of course, the girl runs.", "Natürlich läuft der Mädchen."),
])
def test_of_before_a_verb_or_a_mark_tells_no_genitive(sentence, written):
    """"losing" is a verb, its object no genitive; "Of course," ends before the term's phrase."""
    assert "des Mädchens" not in agreed(written, sentence, {"girl": "Mädchen"})


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("He talks of the butterfly.", "Er spricht von der Schmetterling.", "Er spricht von dem Schmetterling.",
     {"butterfly": "Schmetterling"}),
    ("He is afraid of the girl.", "Er hat Angst vor der Mädchen.", "Er hat Angst vor dem Mädchen.",
     {"girl": "Mädchen"}),
    ("He speaks of the butterfly.", "Er spricht zur Schmetterling.", "Er spricht zum Schmetterling.",
     {"butterfly": "Schmetterling"}),
])
def test_of_translated_as_a_german_preposition_takes_the_prepositions_dative(sentence, written, expected, terms):
    """"von des Schmetterlings", "zu des Schmetterlings" came out: "of" is a genitive only where German writes
    none of its prepositions."""
    assert agreed(written, sentence, terms) == expected


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("It is the face of a young girl.", "Es ist das Gesicht eines jungen Mädchen.",
     "Es ist das Gesicht eines jungen Mädchens.", {"girl": "Mädchen"}),
    ("The colour of the butterfly.", "Die Farbe des Schmetterling.", "Die Farbe des Schmetterlings.",
     {"butterfly": "Schmetterling"}),
    ("The face of this girl.", "Das Gesicht dieses Mädchen.", "Das Gesicht dieses Mädchens.", {"girl": "Mädchen"}),
    ("The car of my old customer.", "Das Auto meines alten Kunde.", "Das Auto meines alten Kunden.",
     {"customer": "Kunde"}),
])
def test_a_term_after_an_agreeing_genitive_article_takes_its_genitive_ending(sentence, written, expected, terms):
    assert agreed(written, sentence, terms) == expected


def test_a_term_after_an_article_that_is_a_nominative_too_keeps_its_form():
    """"dieses" is the nominative too, and the English tells it: "This girl runs."."""
    assert agreed("Dieses Mädchen läuft.", "This girl runs.", {"girl": "Mädchen"}) == "Dieses Mädchen läuft."


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("The toys of the children.", "Das Spielzeug die Kinder.", "Das Spielzeug der Kinder.", {"child": "Kind"}),
    ("The toys of the children.", "Das Spielzeug den Kindern.", "Das Spielzeug der Kinder.", {"child": "Kind"}),
    ("The owner of the big dogs.", "Der Besitzer den großen Hunden.", "Der Besitzer der großen Hunde.",
     {"dog": "Hund"}),
    ("The owner of my old dogs.", "Der Besitzer meine alten Hunde.", "Der Besitzer meiner alten Hunde.",
     {"dog": "Hund"}),
    ("The owner of these dogs.", "Der Besitzer diese Hunde.", "Der Besitzer dieser Hunde.", {"dog": "Hund"}),
    ("The hats of the men.", "Die Hüte den Männern.", "Die Hüte der Männer.", {"man": "Mann"}),
    ("The voices of the women.", "Die Stimmen den Frauen.", "Die Stimmen der Frauen.", {"woman": "Frau"}),
])
def test_of_before_a_plural_term_tells_the_genitive_plural(sentence, written, expected, terms):
    """A term in the plural kept the model's article, its dative ("den Kindern") or nominative, after "of"; the
    genitive plural has "der" (or "dieser", "meiner"), adjectives in "-en", and no dative "-n" but the plural's own
    ("der Frauen")."""
    assert agreed(written, sentence, terms) == expected


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("He talks of the children.", "Er spricht von die Kinder.", "Er spricht von den Kindern."),
    ("He talks of the children.", "Er spricht von den Kindern.", "Er spricht von den Kindern."),
    ("He talks of the big dogs.", "Er spricht vom großen Hunde.", "Er spricht von den großen Hunden."),
])
def test_of_translated_as_von_before_a_plural_term_takes_the_dative_plural(sentence, written, expected):
    assert agreed(written, sentence, {"child": "Kind", "dog": "Hund"}) == expected


@pytest.mark.parametrize(("sentence", "written"), [
    ("The owner of two big dogs.", "Der Besitzer von zwei großen Hunden."),
    ("The owner of two big dogs.", "Der Besitzer zwei großen Hunden."),  # a numeral: no article to decline
    ("The owner of the dogs.", "Der Besitzer der Hunde."),
])
def test_a_plural_term_after_of_with_no_determiner_to_decline_keeps_its_words(sentence, written):
    """"zweier großer Hunde" would take the numeral's genitive and the adjectives' strong endings, which the articles'
    paradigms do not hold."""
    assert agreed(written, sentence, {"dog": "Hund"}) == written


@pytest.mark.parametrize(("sentence", "written", "terms"), [
    ("The smell of the gas.", "Der Geruch von dem Gas.", {"gas": "Gas"}),
    ("The price of the lens.", "Der Preis von der Linse.", {"lens": "Linse"}),
])
def test_a_singular_source_that_ends_as_a_plural_takes_no_plural_article(sentence, written, terms):
    """A term the glossary found in its own form is no plural for its "-s" ("von den Gas" came out)."""
    assert agreed(written, sentence, terms) == written


@pytest.mark.parametrize(("sentence", "written", "expected", "terms"), [
    ("The cars of the customers.", "Die Autos den Kunden.", "Die Autos der Kunden.", {"customer": "Kunde"}),
    ("The cars of the teachers.", "Die Autos den Lehrern.", "Die Autos der Lehrer.", {"teacher": "Lehrer"}),
    ("He talks of the teachers.", "Er spricht von die Lehrer.", "Er spricht von den Lehrern.", {"teacher": "Lehrer"}),
    ("He thinks of the children.", "Er denkt an die Kinder.", "Er denkt an die Kinder.", {"child": "Kind"}),
])
def test_a_plural_terms_case_after_of_takes_its_plurals_own_ending(sentence, written, expected, terms):
    """"Kunden" keeps the plural's "-n", "Lehrern" loses the dative's; after "an" the accusative may be meant."""
    assert agreed(written, sentence, terms) == expected


@pytest.mark.parametrize(("sentence", "written", "expected"), [
    ("Of course, the girl runs.", "Natürlich läuft der Mädchen.", "Natürlich läuft das Mädchen."),
    ("Of course, the girl runs.", "Natürlich läuft das Mädchen.", "Natürlich läuft das Mädchen."),
    ("After all, the girl runs.", "Schließlich läuft der Mädchen.", "Schließlich läuft das Mädchen."),
    ("She kind of likes the girl.", "Sie mag irgendwie die Mädchen.", "Sie mag irgendwie das Mädchen."),
])
def test_of_in_a_phrase_that_does_not_govern_the_term_sets_no_case(sentence, written, expected):
    """"Of course, the girl runs." came out "dem Mädchen": "of" was read as the girl's dative preposition."""
    assert agreed(written, sentence, {"girl": "Mädchen"}) == expected
