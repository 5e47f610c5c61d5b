"""The negation rule (attnmt.decoding.quality_negation): a negation dropped or added is flagged ``negation``,
only where both languages are known and it is clear."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_negation import negation_differs


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize(("negated", "plain", "target"), [
    ("Der Hund läuft nicht.", "Der Hund läuft.", "de"),
    ("Es gibt keinen Hund im Garten.", "Es gibt einen Hund im Garten.", "de"),
    ("Le chien ne court pas.", "Le chien court.", "fr"),
    ("Le chien n'est pas là.", "Le chien est là.", "fr"),
    ("El perro no corre.", "El perro corre.", "es"),
    ("Il cane non corre.", "Il cane corre.", "it"),
    ("O cão não corre.", "O cão corre.", "pt"),
    ("De hond rent niet.", "De hond rent.", "nl"),
    ("Ik heb geen tijd.", "Ik heb tijd.", "nl"),
])
def test_a_negation_dropped_or_added_is_flagged(negated, plain, target):
    languages = Languages("en", target)
    assert negation_differs("The dog is not running.", plain, languages)  # dropped
    assert not negation_differs("The dog is not running.", negated, languages)
    assert negation_differs("The dog is running.", negated, languages)  # added
    assert not negation_differs("The dog is running.", plain, languages)


@pytest.mark.parametrize("source", ["The dog isn't running.", "The dog doesn\u2019t run.", "The dog never runs.",
                                    "There is no dog here.", "Nobody runs."])
def test_a_contraction_and_the_other_negations_of_english_are_read(source):
    assert negation_differs(source, "Der Hund läuft.", Languages("en", "de"))


def test_the_other_way_the_source_is_read_in_its_language():
    assert negation_differs("Der Hund läuft nicht.", "The dog is running.", Languages("de", "en"))


@pytest.mark.parametrize(("source", "translation"), [
    ("A man with no shirt is climbing.", "Ein Mann ohne Hemd klettert."),  # "without"
    ("A man with no shirt is climbing.", "Ein Mann mit nacktem Oberkörper klettert."),
    ("A hand that is unseen.", "Eine Hand, die nicht sichtbar ist."),  # negated by a prefix
    ("Do not enter", "Betreten verboten"),
    ("The car may or may not have been hit.", "Das Auto wurde eventuell gerammt."),
    ("Room No. 5 is free.", "Zimmer Nr. 5 ist frei."),
    ("No", "Nein"),
    ('A "no skiing" sign.', "Ein Schild mit der Aufschrift „No Skiing“."),  # a quotation kept as it is
])
def test_a_pair_that_is_not_clear_is_not_judged(source, translation):
    assert not negation_differs(source, translation, Languages("en", "de"))


@pytest.mark.parametrize(("source", "translation"), [
    ("The server is down.", "Der Server ist nicht erreichbar."),
    ("The website is down again.", "Die Webseite ist wieder nicht erreichbar."),
    ("The lift is broken.", "Der Aufzug funktioniert nicht."),
])
def test_a_thing_down_or_broken_said_with_nicht_is_not_judged(source, translation):
    assert not negation_differs(source, translation, Languages("en", "de"))


def test_down_as_a_place_is_still_read():
    assert negation_differs("A man is down on one knee.", "Ein Mann kniet nicht.", Languages("en", "de"))


@pytest.mark.parametrize("languages", [Languages("en", None), Languages(None, "de"), Languages(), Languages("en", "ru"),
                                       Languages("en", "fi")])
def test_a_language_not_known_or_without_a_list_is_not_judged(languages):
    assert not negation_differs("The dog is not running.", "Der Hund läuft.", languages)


def test_a_side_in_another_language_is_not_read_for_negations():
    """An English paraphrase given as the German translation is the language rule's to flag, not this one's."""
    assert not negation_differs("The dog is not running in the park.", "the dog is running in the park with a friend",
                                Languages("en", "de"))


def test_assess_flags_a_dropped_negation(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    dropped, kept = assess(model, tokenizer, ["the dog does not sleep"] * 2,
                           ["der hund schläft", "der hund schläft nicht"], languages=Languages("en", "de"))
    assert "negation" in dropped.flags and "negation" not in kept.flags
    assert "negation" not in assess(model, tokenizer, ["the dog does not sleep"], ["der hund schläft"])[0].flags


def test_a_document_review_reads_the_languages_it_is_given(model_and_tokenizer):
    from attnmt.documents.review import model_review

    model, tokenizer = model_and_tokenizer
    review = model_review(model, tokenizer, languages=Languages("en", "de"))
    dropped, english = review.assess(["the dog does not sleep"] * 2,
                                     ["der hund schläft", "the dog is sleeping in the park"])
    assert "negation" in dropped.flags and "language" in english.flags


@pytest.mark.parametrize("translation", ["Il n'en reste que deux.", "Il n'y a qu'un chemin.", "Il ne reste que deux."])
def test_french_ne_que_is_only_not_a_negation(translation):
    assert not negation_differs("There are only two left.", translation, Languages("en", "fr"))
    assert negation_differs("I think that he comes.", "Je ne pense pas qu'il vienne.", Languages("en", "fr"))


@pytest.mark.parametrize(("source", "translation", "languages"), [
    ("It is nice, isn't it?", "Es ist schön, oder?", Languages("en", "de")),
    ("You know him, don't you?", "Du kennst ihn, oder?", Languages("en", "de")),
    ("Es ist schön, nicht wahr?", "It is nice, right?", Languages("de", "en")),
    ("It is nice, right?", "C'est beau, n'est-ce pas ?", Languages("en", "fr")),
    ("Never mind.", "Schon gut.", Languages("en", "de")),
])
def test_a_question_tag_or_never_mind_is_no_negation(source, translation, languages):
    assert not negation_differs(source, translation, languages)
    assert negation_differs("Why isn't it ready?", "Warum ist es fertig?", Languages("en", "de"))


@pytest.mark.parametrize(("source", "translation"), [
    ("The castle is not open today.", "Das Schloss ist heute geöffnet."),  # "los" inside a word is no "-los"
    ("The shop is not open on Friday.", "Der Laden ist am Freitag offen."),  # nor "frei" in "Freitag"
])
def test_a_word_merely_holding_an_unclear_suffix_does_not_hide_a_dropped_negation(source, translation):
    assert negation_differs(source, translation, Languages("en", "de"))


@pytest.mark.parametrize(("translation", "target"), [("De rien.", "fr"), ("Keine Ursache.", "de"),
                                                     ("Nichts zu danken!", "de"), ("No hay de qué.", "es"),
                                                     ("Di niente.", "it"), ("Geen dank.", "nl")])
def test_the_answer_to_thanks_is_no_negation(translation, target):
    assert not negation_differs("You're welcome.", translation, Languages("en", target))
    assert negation_differs("I see everything.", "Je ne vois rien.", Languages("en", "fr"))


@pytest.mark.parametrize(("source", "translation", "languages"), [
    ("Not bad.", "Ganz gut.", Languages("en", "de")),  # a litotes: no negation of its own
    ("The food was not bad at all.", "Das Essen war ziemlich gut.", Languages("en", "de")),
    ("He did nothing but sleep.", "Er hat nur geschlafen.", Languages("en", "de")),
    ("He did not come until five.", "Er kam erst um fünf.", Languages("en", "de")),
    ("No problem.", "Gern geschehen.", Languages("en", "de")),
    ("Nicht schlecht!", "Pretty good!", Languages("de", "en")),
    ("Il y a pas mal de gens.", "There are quite a lot of people.", Languages("fr", "en")),
    ("Non è che un bambino.", "He is only a child.", Languages("it", "en")),
    ("Niente male.", "Pretty good.", Languages("it", "en")),
])
def test_a_litotes_or_nothing_but_is_not_judged(source, translation, languages):
    assert not negation_differs(source, translation, languages)


@pytest.mark.parametrize("translation", ["Non ho che due euro.", "Non resta che aspettare.",
                                         "Non fa altro che dormire."])
def test_italian_non_che_is_only_not_a_negation(translation):
    assert not negation_differs("I only have two euros.", translation, Languages("en", "it"))
    assert negation_differs("I think that he comes.", "Non credo che venga.", Languages("en", "it"))  # "che": that


@pytest.mark.parametrize(("source", "translation"), [
    ("The printer is out of paper.", "Der Drucker hat kein Papier mehr."),
    ("We ran out of milk.", "Wir haben keine Milch mehr."),
    ("The lift is out of order.", "Der Aufzug funktioniert nicht."),
    ("This model is out of stock.", "Dieses Modell ist nicht vorrätig."),
])
def test_out_of_for_what_is_used_up_or_broken_is_not_judged(source, translation):
    """German says "out of paper" with a negation, English with none: the pair is not judged."""
    assert not negation_differs(source, translation, Languages("en", "de"))


def test_out_of_a_place_still_reads_a_negation_added():
    assert negation_differs("The dog runs out of the house.", "Der Hund rennt nicht aus dem Haus.",
                            Languages("en", "de"))


@pytest.mark.parametrize(("source", "translation"), [
    ("The password is invalid.", "Das Passwort ist nicht gültig."),
    ("The camera is disabled.", "Die Kamera ist nicht aktiviert."),
    ("The device is incompatible with this version.", "Das Gerät ist mit dieser Version nicht kompatibel."),
    ("The road is impassable after the storm.", "Die Straße ist nach dem Sturm nicht befahrbar."),
    ("The printer is offline.", "Der Drucker ist nicht verbunden."),
    ("The link has expired.", "Der Link ist nicht mehr gültig."),
    ("Access denied.", "Kein Zugriff."),
])
def test_an_english_negative_prefix_or_a_programs_state_is_not_judged(source, translation):
    """German says "invalid", "offline" with a negation, English with none: the pair is not judged."""
    assert not negation_differs(source, translation, Languages("en", "de"))


@pytest.mark.parametrize(("source", "translation"), [
    ("Do not install the app.", "Installieren Sie die App."),
    ("The display does not work.", "Das Display funktioniert."),
])
def test_a_word_merely_starting_as_a_negative_prefix_still_reads_a_negation_dropped(source, translation):
    assert negation_differs(source, translation, Languages("en", "de"))
