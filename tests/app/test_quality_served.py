"""/v1/translate's quality: per text with return_quality, and in every hypothesis it returns."""

import json

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.calibration import Calibration
from attnmt.decoding.quality_features import INPUT_NAMES
from attnmt.server.app import ServedModel, ServeSettings, create_app


def test_return_quality_gives_each_text_its_quality_and_flags(client):
    answer = client.post("/v1/translate", json={"texts": ["a dog runs", "a man rides a bike"],
                                                "return_quality": True}).json()
    assert answer["translations"] == ["ein hund rennt", "ein mann fährt ein fahrrad"]
    assert answer["flags"] == [[], []] and all(0.8 < q <= 1 for q in answer["quality"])
    assert answer["calibrated"] is False and "hypotheses" not in answer


def test_every_returned_hypothesis_carries_its_quality(client):
    answer = client.post("/v1/translate", json={"text": "a dog runs", "n_best": 2, "beam": 2}).json()
    best, second = answer["hypotheses"][0]
    assert best["quality"] > second["quality"] and {"flags", "calibrated"} <= set(best)
    assert answer["quality"] == [best["quality"]]


def test_without_quality_asked_the_answer_is_the_translations_alone(client):
    assert client.post("/v1/translate", json={"text": "a dog runs"}).json() == {"translations": ["ein hund rennt"]}


def test_a_text_with_nothing_to_translate_passes_through_with_quality_one_in_both_apis(trained_model):
    """Numbers, punctuation, a URL, an e-mail address: nothing of it reaches the model, and the copy
    is its own reference.  A URL or an address was read whole by the model: 0, copied, low_quality."""
    texts = ["12345", "!!!", "https://example.com/docs/page", "info@example.com"]
    served = ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de")
    with TestClient(create_app([served], ServeSettings(quality=True))) as client:
        ours = client.post("/v1/translate", json={"texts": texts, "return_quality": True}).json()
        theirs = client.post("/translate", json={"q": texts, "source": "en", "target": "de"}).json()
    assert ours["translations"] == theirs["translatedText"] == texts
    assert ours["quality"] == theirs["quality"] == [1.0] * 4 and ours["flags"] == theirs["flags"] == [[]] * 4


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u200b"])  # LRM, RLM, a zero-width space
def test_a_text_of_an_invisible_mark_alone_passes_through_v1_as_translate_passes_it(client, mark):
    """Refused with 422 "texts[1] has nothing to translate", failing the whole request, where
    /translate passed it through: the model reads it as no piece.  It is answered as "12345" is."""
    texts = ["a dog runs", mark, "12345"]
    plain = client.post("/v1/translate", json={"texts": texts}).json()
    theirs = client.post("/translate", json={"q": texts, "source": "en", "target": "de"}).json()
    assert plain["translations"] == theirs["translatedText"] == ["ein hund rennt", mark, "12345"]
    answer = client.post("/v1/translate", json={"texts": texts, "n_best": 2, "beam": 2}).json()
    [copied], [number] = answer["hypotheses"][1:]
    assert copied == {**number, "text": mark} and number["score"] == 0 and number["quality"] == 1.0
    assert answer["quality"][1:] == [1.0, 1.0] and answer["flags"][1:] == [[], []]


# A calibration of all weights 0: every assessed quality 0.5, calibrated.
FLAT = Calibration("0" * 64, [0.0] * len(INPUT_NAMES), 0.0, [0.0] * len(INPUT_NAMES), [1.0] * len(INPUT_NAMES), 0.0,
                   (0.4, 2.5))


@pytest.mark.parametrize("calibration", [None, FLAT])
def test_a_blank_text_passes_through_with_quality_one_calibrated_as_the_others(trained_model, calibration):
    """It was {"quality": null, "flags": [], "calibrated": null}, and null in a list's calibrated."""
    served = ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de", calibration=calibration)
    with TestClient(create_app([served], ServeSettings(quality=True))) as client:
        one = client.post("/translate", json={"q": "   ", "source": "en", "target": "de"}).json()
        listed = client.post("/translate", json={"q": ["a dog runs", "  ", "12345"], "source": "en",
                                                 "target": "de"}).json()
    calibrated = calibration is not None
    assert one == {"translatedText": "   ", "quality": 1.0, "flags": [], "calibrated": calibrated}
    assert listed["translatedText"][1:] == ["  ", "12345"] and listed["quality"][1:] == [1.0, 1.0]
    assert listed["flags"][1:] == [[], []] and listed["calibrated"] == [calibrated] * 3


def test_a_blank_text_in_a_list_of_two_languages_is_calibrated_as_the_model_it_went_to(trained_model):
    """It took the calibration of the list's last model (the blank went to a calibrated en-de, and said
    false from an uncalibrated fr-de)."""
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], "de", calibration=calibration)
              for pair, calibration in (("en-de", FLAT), ("fr-de", None))]
    english = "A dog runs in the park with the children and the cat."  # over 40 characters: detected alone
    french = "Le chien court dans le parc avec les enfants et le chat."
    with TestClient(create_app(models, ServeSettings(quality=True))) as client:
        answer = client.post("/translate", json={"q": [english, french, "   ", "A dog runs."], "source": "auto",
                                                 "target": "de"}).json()
    languages = [d["language"] for d in answer["detectedLanguage"]]
    assert languages[:2] == ["en", "fr"]
    assert answer["calibrated"] == [language == "en" for language in languages]
    assert answer["quality"][2] == 1.0


def test_a_text_not_in_the_models_target_language_is_flagged_language(trained_model):
    """The server assesses with its model's languages: an English text given as the German one is flagged."""
    served = ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de")
    english = served.assessed_text("a man rides a bike", "the man is riding on his bike with a friend",
                                   {"a man rides a bike": "the man is riding on his bike with a friend"})
    german = served.assessed_text("a man rides a bike", "ein mann fährt ein fahrrad",
                                  {"a man rides a bike": "ein mann fährt ein fahrrad"})
    assert "language" in english.flags and "language" not in german.flags


def test_a_text_of_short_sentences_is_judged_whole_for_its_language(trained_model):
    """Each English sentence is too short to judge alone; the text of three is not."""
    served = ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de")
    sentences = {"A dog runs.": "The dog runs.", "A cat sleeps.": "The cat sleeps.", "A man reads.": "The man reads."}
    found = served.assessed_text(" ".join(sentences), " ".join(sentences.values()), sentences)
    assert "language" in found.flags


GERMAN = "Der Hund läuft mit den Kindern durch den großen Park."


@pytest.mark.parametrize("calibration", [None, FLAT])
@pytest.mark.parametrize("source", ["auto", "de"])
def test_a_text_already_in_the_target_language_is_calibrated_as_the_models_answers(trained_model, calibration, source):
    """Given back as it is, it said "calibrated": false from a calibrated en-de, whose translation beside
    it said true; the stream's done event too."""
    served = ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de", calibration=calibration)
    ask = {"q": [GERMAN, "a dog runs"], "source": source, "target": "de"}
    with TestClient(create_app([served], ServeSettings(quality=True))) as client:
        listed = client.post("/translate", json=ask).json()
        one = client.post("/translate", json={**ask, "q": GERMAN}).json()
        streamed = client.post("/translate/stream", json={**ask, "q": GERMAN}).text
    calibrated = calibration is not None
    assert listed["translatedText"][0] == GERMAN and listed["calibrated"] == [calibrated, calibrated]
    assert (one["translatedText"], one["quality"], one["flags"], one["calibrated"]) == (GERMAN, 1.0, [], calibrated)
    assert json.loads(streamed.split("data: ", 1)[1]) == one


def test_a_text_in_the_target_language_is_calibrated_only_where_every_model_into_it_is(trained_model):
    """No one model would have translated it: its quality 1 reads on a calibrated scale only where
    every answer into the target language does."""
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], "de", calibration=calibration)
              for pair, calibration in (("en-de", FLAT), ("fr-de", None))]
    with TestClient(create_app(models, ServeSettings(quality=True))) as client:
        answer = client.post("/translate", json={"q": GERMAN, "source": "auto", "target": "de"}).json()
    assert answer["translatedText"] == GERMAN and answer["calibrated"] is False


def test_a_streamed_text_of_one_sentence_runs_the_verbatim_rule_once(served, verbatim_reads, rules_read_again):
    """The done event's quality (ServedModel.assessed_text): its sentence's features read the rule over the same
    texts as the text read whole, which read it again (quality_joined.joined kept no reading of one sentence).
    Now once; the done event is the same as where the text is read again."""

    def done() -> str:
        with TestClient(create_app([served], ServeSettings(quality=True))) as client, client.stream(
                "POST", "/translate/stream", json={"q": "a dog runs", "source": "en", "target": "de"}) as answer:
            return "".join(answer.iter_text()).strip().split("\n")[-1]

    once = done()
    assert json.loads(once.removeprefix("data: "))["translatedText"] == "ein hund rennt"
    assert verbatim_reads.count(("a dog runs", "ein hund rennt")) == 1
    rules_read_again()
    assert done() == once
