"""A short label's translation is judged by how plausible its words are to the model, its end left out
(attnmt.decoding.garbled_labels): a caption's model expects a verb after "Kinder", and that doubt put a good label
under FLOOR."""

import math

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.garbled_labels import (
    FLOOR,
    after_number,
    article_added,
    garbled,
    garbled_fields,
    label_plausibility,
    labels_plausibility,
    plausibility_of,
    value_lost,
    value_written,
)
from attnmt.decoding.quality import Assessment, assess
from attnmt.documents.translators import ModelTranslator


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def assessed(quality: float, words: list[tuple[str, float | None]]) -> Assessment:
    return Assessment(quality, [], False, words)


def test_a_labels_plausibility_is_the_geometric_mean_of_its_words():
    """"Wool scarf" -> "Ein Fleisch": sqrt(0.5 * 0.02) = 0.1, whatever the end made of the quality."""
    assert plausibility_of(assessed(0.2, [("Ein", 0.5), ("Fleisch", 0.02)])) == pytest.approx(0.1)


def test_a_good_word_the_model_would_go_on_from_is_plausible():
    """The demo model: "Children" -> "Kinder", its word 0.93 likely, its end 0.07 (a caption goes on: "Kinder
    spielen"), quality 0.26 with the end: under FLOOR, where its word is over it."""
    found = plausibility_of(assessed(0.26, [("Kinder", 0.93)]))
    assert found == pytest.approx(0.93) and found >= FLOOR > 0.26


def test_a_word_no_piece_stands_in_is_left_out_and_one_never_likely_is_zero():
    assert plausibility_of(assessed(0.4, [("Rote", 0.09), ("\u200b", None), ("Schuhe", 0.04)])) == pytest.approx(0.06)
    assert plausibility_of(assessed(0.4, [("Ein", 0.9), ("Dema", 0.0)])) == 0.0


def test_a_translation_no_word_of_which_was_read_keeps_its_quality():
    assert plausibility_of(assessed(0.0, [("Hund", None)])) == 0.0 and plausibility_of(assessed(1.0, [])) == 1.0
    assert plausibility_of(None) is None


def test_the_models_plausibility_reads_the_words_not_where_the_translation_ends(model_and_tokenizer):
    """The tiny model knows "a dog runs" -> "ein hund rennt", each piece and the end over e^-0.1: "ein hund" ends
    where it expects "rennt", under 0.1 likely, so that with its end it was under 0.1^(1/3) = 0.46 (0.01 measured),
    and a label of it under FLOOR; its words are the model's own, each over 0.9."""
    model, tokenizer = model_and_tokenizer
    translator = ModelTranslator(model, tokenizer)
    plausible, = translator.plausibility(["a dog runs"], ["ein hund"])
    found, = assess(model, tokenizer, ["a dog runs"], ["ein hund"])
    assert plausible > 0.9 and math.isclose(plausible, math.prod(p for _, p in found.words) ** 0.5, rel_tol=1e-6)
    assert garbled(translator.plausibility, ["a dog runs"], ["ein hund"]) == [False]


def test_a_german_translation_that_is_no_labels_is_implausible_whatever_its_words():
    """"Dog" -> "Ein Hund schwimmt": the demo model's words 0.50 likely, a sentence the label does not say; into
    another language, or one not known, the words' plausibility alone."""
    words = assessed(0.4, [("Ein", 0.65), ("Hund", 0.95), ("schwimmt", 0.20)])
    assert label_plausibility("Dog", "Ein Hund schwimmt", words, "de", frozenset()) == 0.0
    assert label_plausibility("Dog", "Ein Hund schwimmt", words, None, frozenset()) == pytest.approx(0.498, abs=1e-3)
    assert label_plausibility("Dog", "Ein Hund schwimmt", words, "fr", frozenset()) == pytest.approx(0.498, abs=1e-3)
    assert label_plausibility("Dog", "Ein Hund", words, "de-CH", frozenset()) == pytest.approx(0.498, abs=1e-3)
    assert label_plausibility("Dog", "", None, "de", frozenset()) is None


def test_a_buttons_infinitive_is_no_verb_the_label_lacks_whatever_its_objects_compound():
    """"Update passwords" -> "Passwörter aktualisieren": its words as likely as they are, where "Pass" and "Wörter"
    of the vocabulary made the verb one the label had no word for, 0.0, and the label kept its English."""
    words = assessed(0.4, [("Passwörter", 0.5), ("aktualisieren", 0.5)])
    known = frozenset(("pass", "wörter"))
    assert label_plausibility("Update passwords", "Passwörter aktualisieren", words, "de", known) == pytest.approx(0.5)
    assert label_plausibility("Passwords", "Passwörter aktualisieren", words, "de", known) == 0.0


def test_a_compound_of_the_vocabularys_words_is_two_words_of_a_label():
    """"Soccer players" -> "Fußballspieler kämpfen", the demo model's words 0.32 likely: a verb the label has no word
    for where the vocabulary knows "Fußball" and "Spieler" (label_phrases.known_words)."""
    words = assessed(0.3, [("Fußballspieler", 0.91), ("kämpfen", 0.11)])
    known = frozenset(("fußball", "spieler"))
    assert label_plausibility("Soccer players", "Fußballspieler kämpfen", words, "de", known) == 0.0
    assert label_plausibility("Soccer players", "Fußballspieler kämpfen", words, "de", frozenset()) == \
        pytest.approx(0.316, abs=1e-3)


def test_the_models_plausibility_judges_a_label_in_its_target_language(model_and_tokenizer, monkeypatch):
    """ModelTranslator.plausibility reads the model's ``target_lang``: a German translation with a singular's article
    for a plural label ("dogs" -> "ein hund", whose words the tiny model finds possible)
    is kept out; the words of one that agrees ("two dogs" -> "zwei hunde") are judged as before."""
    model, tokenizer = model_and_tokenizer
    translator = ModelTranslator(model, tokenizer)
    labels, translations = ["dogs", "two dogs"], ["ein hund", "zwei hunde"]
    monkeypatch.setattr(model, "target_lang", None)
    words, agreeing = translator.plausibility(labels, translations)
    assert words > 1e-9 and agreeing > 1e-9
    monkeypatch.setattr(model, "target_lang", "de")
    assert translator.plausibility(labels, translations) == [0.0, agreeing]
    assert garbled(translator.plausibility, labels, translations) == [True, False]


@pytest.mark.parametrize("name, translation, added", [
    ("SIGNAL", "EIN SCHILD", True),  # the demo model's, its words 0.3 or more likely
    ("CATS", "EINE KATZEN", True),
    ("Tip", "Le conseil", True),  # any language's article
    ("Side Effects", "Nebenwirkungen", False),
    ("DOGS", "ZWEI HUNDE", False),  # a number is no article
    ("The Rules", "Die Regeln", False),  # its name has one
    ("Delivery", "Einlieferung", False),  # a word that starts as an article does
])
def test_a_fields_names_translation_that_opens_with_an_article_its_name_lacks_is_garbled(name, translation, added):
    """A field's name is a bare noun; "EIN SCHILD" for "SIGNAL" is a caption's start, which the words' plausibility
    let through."""
    assert article_added(name, translation) is added
    assert garbled_fields(lambda names, _: [FLOOR + 0.1] * len(names), [name], [translation]) == [added]


def test_a_name_that_describes_its_noun_may_take_an_article():
    """An adjective and its noun name a role or a thing as a noun phrase does, its article German's own: the demo
    model's "OLD MAN" -> "EIN ALTER MANN", a speaker's role.  One word for two ("SCREEN SIZE" -> "EIN SCHRÜHT"), more
    words than the name, an adjective of another gender than its article, or no adjective is no such phrase."""
    described = [("OLD MAN", "EIN ALTER MANN"), ("YOUNG WOMAN", "EINE JUNGE FRAU"), ("Big dog", "Ein großer Hund"),
                 ("BIG DOG", "EIN GROSSER HUND")]  # capitals' "SS" for "ß"
    assert not any(article_added(name, translation) for name, translation in described)
    assert garbled_fields(lambda names, _: [FLOOR + 0.1] * len(names), *zip(*described, strict=True)) == [False] * 4
    assert article_added("SCREEN SIZE", "EIN SCHRÜHT") and article_added("TOP SPEED", "EIN BLICK DURCH DIE BLÄTTER")
    assert article_added("OLD MAN", "EIN ALTE MANN") and article_added("RED WINE", "EIN ROTWEIN")


def test_a_short_label_of_another_kind_may_take_an_article_and_a_fields_name_under_floor_is_garbled_either_way():
    def plausibility(labels, _):
        return [{"Black dog": 0.8, "BENEFITS": 0.05}[label] for label in labels]
    assert garbled(plausibility, ["Black dog"], ["Ein schwarzer Hund"]) == [False]
    assert garbled_fields(plausibility, ["BENEFITS"], ["VORTEILE"]) == [True]


@pytest.mark.parametrize("value, translation, lost", [
    ("Three.", "Drei Kerle.", True),  # the demo model's
    ("Two to four", "Zwei vier vier vier", True),
    ("4 bars", "Drei weiblichen", True),  # the digits lost: the number changed
    ("60 watts", "Ein Krankenschwestern", True),
    ("Three.", "Drei.", False),
    ("A dozen", "Une douzaine", False),
    ("2.5 cups", "2,5 Tassen", False),  # the digits kept, a decimal comma
    ("3 bars", "3 Balken", False),
    ("Three dogs.", "Drei Hunde.", False),  # no count alone
    ("2 days", "Zwei Tage", False),  # a time, as a speaker says it: no measure's unit
    ("Twenty minutes", "Wäner bewänt", True),  # the demo model's: a measure in words, its number lost
    ("Forty-five minutes", "Hier bewänt sich", True),
    ("Twelve hours", "Zwölf Stunden.", False),
    ("Forty-five minutes", "45 Minuten", False),  # in digits
])
def test_a_count_or_a_measure_in_words_alone_is_lost_where_its_translation_adds_words_or_drops_its_digits(
        value, translation, lost):
    """Given alone, the demo model made a caption of "Three." and of "4 bars" and lost the number."""
    assert value_lost(value, translation) is lost


@pytest.mark.parametrize(("label", "translation", "read"), [
    ("Red shoes", "Rote Schuhe", ("Two red shoes", "Zwei rote Schuhe")),  # the adjective in small letters
    ("RED SHOES", "ROTE SCHUHE", ("TWO RED SHOES", "ZWEI ROTE SCHUHE")),
    ("Boats", "Boote", ("Two boats", "Zwei Boote")),
    ("Boats", "Die Boote", None),  # an article: read as written
    ("Boats", "Zwei Boote", None),
    ("Two boats", "Boote", None),  # a number in the label
    ("The boats", "Boote", None),
    ("Boat", "Boot", None),  # no plural
])
def test_a_plurals_translation_alone_is_read_after_a_number(label, translation, read):
    assert after_number(label, translation) == read


def demo_words(sources, translations):
    """The demo model's word probabilities of "Rote Schuhe" for "Red shoes", alone and after "Zwei"."""
    words = {"Rote Schuhe": [("Rote", 0.07), ("Schuhe", 0.04)],
             "Zwei rote Schuhe": [("Zwei", 0.9), ("rote", 0.7), ("Schuhe", 0.3)],
             "Schwarze Schuhen": [("Schwarze", 0.1), ("Schuhen", 0.31)],
             "Zwei schwarze Schuhen": [("Zwei", 0.9), ("schwarze", 0.6), ("Schuhen", 0.3)]}
    return [assessed(0.1, words[text]) for text in translations]


def test_a_german_plural_alone_is_as_plausible_as_its_words_after_a_number():
    """A caption's model opens a plural with a number: "Rote Schuhe" 0.06 alone, its words 0.46 after "Zwei"; into
    another language the words alone; a translation that is no label's stays 0.0 (a dative plural: "Schuhen")."""
    labels, texts = ["Red shoes", "Black shoes"], ["Rote Schuhe", "Schwarze Schuhen"]
    known = frozenset(("schuh", "schuhe"))
    alone, read = labels_plausibility(demo_words, labels, texts, "de", known)
    assert alone == pytest.approx((0.7 * 0.3) ** 0.5) and read == 0.0
    assert labels_plausibility(demo_words, labels[:1], texts[:1], None, known) == [pytest.approx((0.07 * 0.04) ** 0.5)]


@pytest.mark.parametrize("value, translation, language, written", [
    ("Twelve", "Es", "de", "Zwölf"),  # the demo model's, its number lost in one word
    ("Three.", "Three.", "de", "Drei."),  # the demo model gave it back in English
    ("Three.", "Drei Kerle.", None, "Three."),  # no target language: the source where the count was lost
    ("Three.", "Drei.", None, "Drei."),
    ("Forty-five", "Fünfundvierzig", "de", "Fünfundvierzig"),  # no count of one word: the model's, as before
    ("Three dogs.", "Drei Hunde.", "de", "Drei Hunde."),  # no count alone
])
def test_a_count_alone_in_one_word_is_written_in_the_target_languages_word(value, translation, language, written):
    assert value_written(value, translation, language) == written
