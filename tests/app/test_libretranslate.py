"""LibreTranslate's API, in process: its request shapes (JSON, form, query; one text or a list),
alternatives, auto-detection, /languages, /detect, /frontend/settings, and its errors."""

import json
import logging
import re
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from support import PAIRS, translated_text

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app
from attnmt.server.detect import Detector

SETTINGS = ServeSettings(max_texts=4, max_chars=120, max_request_chars=200, max_alternatives=2)


@pytest.fixture(scope="module")
def client(trained_model):
    """The tiny model served as en-de, and again as fr-de (a stand-in for a second model)."""
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de"),
              ServedModel(*load_model_dir(trained_model), "fr-de", "fr", "de")]
    with TestClient(create_app(models, SETTINGS), raise_server_exceptions=False) as client:
        yield client


def test_one_text_as_json(client):
    answer = client.post("/translate", json={"q": "a dog runs", "source": "en", "target": "de"})
    assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


def test_a_list_of_texts_gives_a_list_in_order(client):
    sources, targets = zip(*PAIRS[:3], strict=True)
    answer = client.post("/translate", json={"q": list(sources), "source": "en", "target": "de", "format": "text"})
    assert translated_text(answer.json()) == {"translatedText": list(targets)}


@pytest.mark.parametrize("path", ["/translate", "/translate/stream"])
def test_language_codes_are_read_in_any_case_as_libretranslate_reads_them(client, path):
    """LibreTranslate lower-cases the codes a client sends; "EN" was not supported here."""
    answer = client.post(path, json={"q": "a dog runs", "source": "EN", "target": "De"})
    assert answer.status_code == 200 and "ein hund rennt" in answer.text


@pytest.mark.parametrize("path", ["/translate", "/translate/stream", "/translate_file"])
@pytest.mark.parametrize("source, target", [("en-US", "de-DE"), ("en_GB", "de_AT"), ("EN-us", "DE-CH")])
def test_a_code_with_a_region_is_its_languages_where_only_the_language_is_served(client, path, source, target):
    """A browser's language (de-DE), Weblate's (pt_BR -> pt-BR) or LibreTranslate's own (pt-BR, zh-Hans):
    "de-de is not supported", by a server of de."""
    fields = {"source": source, "target": target}
    if path == "/translate_file":
        answer = client.post(path, data=fields, files={"file": ("a.txt", b"a dog runs")})
        assert answer.status_code == 200, answer.text
        assert client.get(answer.json()["translatedFileUrl"]).content == b"ein hund rennt"
    else:
        answer = client.post(path, json={"q": "a dog runs", **fields})
        assert answer.status_code == 200 and "ein hund rennt" in answer.text


@pytest.mark.parametrize("code, served, read", [
    ("zh-Hans", ["en", "zh"], "zh"), ("pt-BR", ["en", "pt"], "pt"), ("pt-BR", ["pt", "pt-br"], "pt-br"),
    ("zh-Hant", ["en", "zh"], "zh-hant"), ("zh_TW", ["en", "zh"], "zh_tw"), ("zh-HK", ["en", "zh"], "zh-hk"),
    ("de-DE", ["en", "fr"], "de-de"), ("auto", ["en", "de"], "auto"), ("es-419", ["en", "es"], "es"),
    ("sr-Latn", ["en", "sr"], "sr-latn"), ("zh-Hans-CN", ["en", "zh"], "zh")])
def test_a_code_is_read_as_its_served_language_but_traditional_chinese_is_not_zh(code, served, read):
    """LibreTranslate's zh is zh-Hans: a Simplified model must not answer zh-Hant, zh-TW or zh-HK; nor
    may a model of sr, whose script is unknown, answer sr-Latn."""
    from attnmt.server.libre_requests import language_of

    assert language_of({"target": code}, "target", served) == read


@pytest.mark.parametrize("where", ["data", "params"])
def test_form_and_query_parameters_as_libretranslates_clients_send_them(client, where):
    fields = {"q": "a cat sleeps", "source": "en", "target": "de"}
    answer = client.post("/translate", **{where: fields})
    assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "eine katze schläft"}


def test_alternatives_are_the_next_best_distinct_hypotheses(client):
    answer = client.post("/translate", json={"q": "a dog runs", "source": "en", "target": "de",
                                             "alternatives": 2}).json()
    assert answer["translatedText"] == "ein hund rennt"
    assert len(answer["alternatives"]) <= 2 and "ein hund rennt" not in answer["alternatives"]
    assert len(set(answer["alternatives"])) == len(answer["alternatives"])
    listed = client.post("/translate", json={"q": ["a dog runs", "two men walk"], "source": "en", "target": "de",
                                             "alternatives": 1}).json()
    assert listed["translatedText"] == ["ein hund rennt", "zwei männer gehen"] and len(listed["alternatives"]) == 2


def test_auto_detects_the_source_among_the_served_languages(client):
    answer = client.post("/translate", json={"q": "the boy laughs", "source": "auto", "target": "de"}).json()
    assert answer["translatedText"] == "der junge lacht"
    assert answer["detectedLanguage"]["language"] == "en" and 50 < answer["detectedLanguage"]["confidence"] <= 100
    listed = client.post("/translate", json={"q": ["the boy laughs", "a bird sings"], "source": "auto",
                                             "target": "de"}).json()
    assert [d["language"] for d in listed["detectedLanguage"]] == ["en", "en"]


FRENCH = "Le chien court dans le parc avec les enfants et le chat."  # each of these three: over 40 characters
ENGLISH = "A dog runs in the park with the children and the cat."
LADDER = "A man in a blue shirt is standing on a ladder cleaning windows."


@pytest.fixture(scope="module")
def labelling(trained_model):
    """en-de and fr-de whose stand-in searches answer "pair: text", so a translation says which model made
    it (a file's sentences too, without word weights); ``batches``: the texts of each batch each model ran."""
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], "de") for pair in ("en-de", "fr-de")]
    batches = {served.name: [] for served in models}
    for served in models:
        def labelled(texts, options, name=served.name):
            batches[name].append(list(texts))
            found = [f"{name}: {text}" for text in texts]
            return [(text, None) for text in found] if options.format in ("sentences", "weighed") else found
        served.run_batch = labelled
    with TestClient(create_app(models, SETTINGS), raise_server_exceptions=False) as client:
        client.batches = batches
        yield client


def test_auto_on_a_list_detects_each_text_and_each_model_translates_its_own_as_one_batch(labelling):
    """The French text went to en-de with the others, all three "en" (the list was detected as one text)."""
    for batches in labelling.batches.values():
        batches.clear()
    answer = labelling.post("/translate", json={"q": [FRENCH, ENGLISH, LADDER], "source": "auto",
                                                "target": "de"}).json()
    assert answer["translatedText"] == [f"fr-de: {FRENCH}", f"en-de: {ENGLISH}", f"en-de: {LADDER}"]
    assert [d["language"] for d in answer["detectedLanguage"]] == ["fr", "en", "en"]
    assert labelling.batches == {"en-de": [[ENGLISH, LADDER]], "fr-de": [[FRENCH]]}


def test_the_access_log_of_a_list_in_two_languages_names_both_models_and_counts_every_text(labelling, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    labelling.post("/translate", json={"q": [FRENCH, ENGLISH, LADDER], "source": "auto", "target": "de"})
    [line] = [json.loads(r.message) for r in caplog.records if r.name == "attnmt.access"]
    assert (line["model"], line["texts"], line["characters"]) == ("fr-de,en-de", 3, len(FRENCH + ENGLISH + LADDER))


def test_auto_on_a_list_gives_a_text_of_40_characters_or_fewer_the_whole_lists_language(labelling):
    """As LibreTranslate: "le chat" is too short to go by alone, so it takes the list's language (English,
    two texts of three), while the long French text is detected on its own."""
    q = [ENGLISH, LADDER, FRENCH, "le chat"]
    whole = labelling.post("/detect", json={"q": q}).json()[0]
    answer = labelling.post("/translate", json={"q": q, "source": "auto", "target": "de"}).json()
    assert whole["language"] == answer["detectedLanguage"][3]["language"] == "en"
    assert [d["language"] for d in answer["detectedLanguage"]] == ["en", "en", "fr", "en"]
    assert answer["translatedText"][2:] == [f"fr-de: {FRENCH}", "en-de: le chat"]


@pytest.mark.parametrize("name, data", [
    ("film.srt", f"1\n00:00:01,000 --> 00:00:04,000\n{FRENCH}\n".encode()),
    ("page.html", f'<html><body><p class="card-text text-muted">{FRENCH}</p></body></html>'.encode()),
    ("app.xlf", f'<xliff version="1.2"><file source-language="fr" datatype="plaintext" original="app"><body>'
                f'<trans-unit id="1"><source>{FRENCH}</source></trans-unit></body></file></xliff>'.encode())])
def test_auto_on_a_file_tells_its_language_by_its_texts_whatever_its_format(labelling, name, data):
    """As LibreTranslate reads a file's texts to detect it: only a .txt was read, so this French
    subtitle file and page went to the first model, en-de, without a word."""
    answer = labelling.post("/translate_file", data={"source": "auto", "target": "de"}, files={"file": (name, data)})
    assert answer.status_code == 200, answer.text
    translated = labelling.get(answer.json()["translatedFileUrl"]).content.decode()
    # the subtitle's line, 63 characters translated, is wrapped into two (attnmt.documents.cue_wrap.fitted)
    assert f"fr-de: {FRENCH}" in translated.replace("\n", " ") and "en-de" not in translated


GERMAN = "Der Hund läuft mit den Kindern durch den großen Park."


@pytest.mark.parametrize("q, source, model, texts, given_back", [
    ([GERMAN], "auto", None, 1, 1),
    (GERMAN, "de", None, 1, 1),
    ([GERMAN, ENGLISH], "auto", "en-de", 2, 1),
    ([FRENCH, ENGLISH], "auto", "fr-de,en-de", 2, None)])
def test_the_access_log_counts_the_texts_given_back_as_they_are_as_their_key_was_charged(
        labelling, caplog, q, source, model, texts, given_back):
    """A request all in the target language already wrote a line without model, texts or characters,
    though its characters were charged against its key; a mixed one counted its translated texts alone."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    labelling.post("/translate", json={"q": q, "source": source, "target": "de"})
    [line] = [json.loads(r.message) for r in caplog.records if r.name == "attnmt.access"]
    characters = len("".join(q)) if isinstance(q, list) else len(q)
    assert (line["model"], line["texts"], line["characters"]) == (model, texts, characters)
    assert line.get("given_back") == given_back


def test_the_access_log_of_a_stream_given_back_as_it_is_counts_it(labelling, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    labelling.post("/translate/stream", json={"q": GERMAN, "source": "auto", "target": "de"})
    [line] = [json.loads(r.message) for r in caplog.records if r.name == "attnmt.access"]
    assert (line["model"], line["texts"], line["characters"], line["given_back"]) == (None, 1, len(GERMAN), 1)


def test_the_access_log_of_a_file_given_back_as_it_came_counts_its_sentences_as_its_key_was_charged(
        labelling, caplog):
    """Its line had no model, texts or characters, though its sentences' characters were charged to its key."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    labelling.post("/translate_file", data={"source": "de", "target": "de"},
                   files={"file": ("brief.txt", f"{GERMAN}\n".encode())})
    [line] = [json.loads(r.message) for r in caplog.records if r.name == "attnmt.access"]
    assert (line["model"], line["texts"], line["characters"], line["given_back"]) == (None, 1, len(GERMAN), 1)


def test_log_text_gives_a_mixed_lists_texts_and_answers_in_its_order(trained_model, caplog):
    """They were grouped by model, and a text given back as it is was left out."""
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], "de") for pair in ("en-de", "fr-de")]
    for served in models:
        served.run_batch = lambda texts, options, name=served.name: [f"{name}: {text}" for text in texts]
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with TestClient(create_app(models, SETTINGS, log_text=True), raise_server_exceptions=False) as client:
        client.post("/translate", json={"q": [ENGLISH, GERMAN, FRENCH], "source": "auto", "target": "de"})
    [line] = [json.loads(r.message) for r in caplog.records if r.name == "attnmt.access"]
    assert line["text"] == [ENGLISH, GERMAN, FRENCH]
    assert line["translation"] == [f"en-de: {ENGLISH}", GERMAN, f"fr-de: {FRENCH}"]


def test_auto_on_a_text_already_in_the_target_language_gives_it_back_as_it_is(labelling):
    """As LibreTranslate translates a language into itself: German on a page sent with auto into de
    went to en-de or fr-de, whose "translation" of German is garbage, detected as English or French."""
    for batches in labelling.batches.values():
        batches.clear()
    answer = labelling.post("/translate", json={"q": [GERMAN, ENGLISH], "source": "auto", "target": "de"}).json()
    assert answer["translatedText"] == [GERMAN, f"en-de: {ENGLISH}"]
    assert [d["language"] for d in answer["detectedLanguage"]] == ["de", "en"]
    assert answer["detectedLanguage"][0]["confidence"] > 50
    assert labelling.batches == {"en-de": [[ENGLISH]], "fr-de": []}
    one = labelling.post("/translate", json={"q": GERMAN, "source": "auto", "target": "de", "alternatives": 1})
    assert one.json() == {"translatedText": GERMAN, "alternatives": [],
                          "detectedLanguage": {"confidence": answer["detectedLanguage"][0]["confidence"],
                                               "language": "de"}}


@pytest.mark.parametrize("short", ["a dog runs", "the boy laughs"])
def test_auto_gives_back_a_short_text_beside_target_language_ones_only_where_it_is_surely_in_it(labelling, short):
    """It took the whole list's language, German at 99.99 %, and came back untranslated: lingua finds it German at
    under 80 % alone, as a text sent alone comes to en-de.  A short German one beside them still comes back."""
    answer = labelling.post("/translate", json={"q": [GERMAN, short, "Abbrechen"], "source": "auto",
                                                "target": "de"}).json()
    alone = labelling.post("/translate", json={"q": short, "source": "auto", "target": "de"}).json()
    assert answer["translatedText"] == [GERMAN, f"en-de: {short}", "Abbrechen"]
    assert answer["detectedLanguage"][1] == alone["detectedLanguage"] and alone["translatedText"] == f"en-de: {short}"
    assert [d["language"] for d in answer["detectedLanguage"]] == ["de", "en", "de"]


def test_a_text_sent_from_a_language_into_itself_comes_back_as_it_is(labelling):
    """LibreTranslate answers de -> de with the text (deep-translator does not even ask); it was 400
    "German (de) is not available as a target language from German (de)".  A code no model knows stays 400."""
    answer = labelling.post("/translate", json={"q": GERMAN, "source": "de", "target": "de"})
    assert answer.status_code == 200 and answer.json() == {"translatedText": GERMAN}
    unknown = labelling.post("/translate", json={"q": GERMAN, "source": "xx", "target": "xx"})
    assert unknown.status_code == 400 and unknown.json() == {"error": "xx is not supported"}


CARD = ('<p class="card-text text-muted">Le chien court.</p>'  # under the 120 characters SETTINGS take
        '<a href="/account/settings/profile" class="btn-primary">Continuer</a>')


def test_auto_on_html_tells_the_language_by_its_text_not_its_class_names_and_links(labelling):
    """The raw markup was read: this French card was English at 100 %."""
    answer = labelling.post("/translate", json={"q": CARD, "source": "auto", "target": "de", "format": "html"})
    assert answer.status_code == 200 and answer.json()["detectedLanguage"]["language"] == "fr"


def test_each_pair_is_translated_by_its_own_model(client):
    before = {m["name"]: m["translated"] for m in client.get("/health").json()["models"]}
    client.post("/translate", json={"q": ["a dog runs", "a cat sleeps"], "source": "fr", "target": "de"})
    after = {m["name"]: m["translated"] for m in client.get("/health").json()["models"]}
    assert after["fr-de"] - before["fr-de"] == 2 and after["en-de"] == before["en-de"]


def test_attnmts_own_shape_on_translate_still_works(client):
    answer = client.post("/translate", json={"text": "a dog runs"})
    assert answer.json() == {"translations": ["ein hund rennt"]}
    assert answer.headers["Deprecation"] == "true" and "</v1/translate>" in answer.headers["Link"]
    assert client.post("/translate", json={"text": ""}).status_code == 422
    assert client.post("/v1/translate", json={"text": "a dog runs", "model": "fr-de"}).json() == {
        "translations": ["ein hund rennt"]}


def test_languages_lists_each_code_with_its_targets_itself_among_them_as_libretranslate_does(client):
    """German was listed with no target ("targets": []), where /translate gives de -> de back as it is and
    LibreTranslate lists every language as a target of its own: a client's menu of targets was empty on it."""
    assert client.get("/languages").json() == [
        {"code": "en", "name": "English", "targets": ["de", "en"]},
        {"code": "de", "name": "German", "targets": ["de"]},
        {"code": "fr", "name": "French", "targets": ["de", "fr"]},
    ]


def test_every_pair_languages_lists_is_answered_by_translate(client):
    """/languages and /translate agree: a pair listed is translated, or given back as it is into itself."""
    for language in client.get("/languages").json():
        for target in language["targets"]:
            answer = client.post("/translate", json={"q": "a dog runs", "source": language["code"], "target": target})
            assert answer.status_code == 200, (language["code"], target, answer.text)
            kept = "a dog runs" if target == language["code"] else "ein hund rennt"
            assert translated_text(answer.json())["translatedText"] == kept


def test_detect_ranks_the_served_languages_source_and_target(client):
    ranked = client.post("/detect", data={"q": "a woman reads a book"}).json()
    assert ranked[0]["language"] == "en" and sorted(r["language"] for r in ranked) == ["de", "en", "fr"]
    assert ranked[0]["confidence"] >= ranked[1]["confidence"] and sum(r["confidence"] for r in ranked) == \
        pytest.approx(100, abs=0.1)


@pytest.mark.parametrize("q", ["12345", "!!!", "\U0001f600\U0001f389", ["12", "!!"]])
def test_detect_on_text_with_nothing_to_go_by_is_one_language_at_0_as_libretranslate_answers(client, q):
    """It was every served language at 0, French first: a client taking the first entry went by French."""
    assert client.post("/detect", json={"q": q}).json() == [{"confidence": 0.0, "language": "en"}]
    assert Detector(["fr", "it"], ["de"]).rank_served("12345") == [("fr", 0.0)]  # no English: the first source


def test_detect_reads_a_texts_words_not_its_code_links_and_addresses(client):
    """Read whole, the German address ruled: "de" at 95 % for an English sentence."""
    ranked = client.post("/detect", json={"q": "Mail kundenservice@stadtwerke-muenchen.de today."}).json()
    assert ranked[0]["language"] == "en"
    assert client.post("/detect", json={"q": "`git status` https://example.org"}).json() == [
        {"confidence": 0.0, "language": "en"}]  # nothing left to go by, as LibreTranslate answers it


def test_detect_ranks_a_list_by_each_texts_language_as_libretranslate_averages_them(client):
    """Joined as one text, the German "fährt" ruled English out: English at 0 %, though one text of two was English."""
    english, german = "A man rides a bike.", "Ein Mann fährt Fahrrad."  # 19 and 23 characters

    def confidences(q):
        return {found["language"]: found["confidence"] for found in client.post("/detect", json={"q": q}).json()}

    both, alone = confidences([english, german]), [confidences(english), confidences(german)]
    assert list(both)[0] == "de" and both["en"] > 20
    for code, confidence in both.items():  # each language's mean over the texts, weighed by their length
        assert confidence == pytest.approx((alone[0][code] * 19 + alone[1][code] * 23) / 42, abs=0.02)


def test_frontend_settings(client):
    settings = client.get("/frontend/settings").json()
    assert settings["charLimit"] == 120 and settings["apiKeys"] is False and settings["keyRequired"] is False


def test_frontend_settings_default_source_is_auto_as_libretranslates_is(client):
    """It was the first pair's source, English: a client starting on it sent German text as English (the demo model
    made "Ein Mann fährt mit dem Fahrrad durch die Stadt." "Eine Gruppe von Kindern, die im Freien.")."""
    settings = client.get("/frontend/settings").json()
    assert settings["language"] == {"source": {"code": "auto", "name": "Auto Detect"},
                                    "target": {"code": "de", "name": "German"}}
    source, target = (settings["language"][side]["code"] for side in ("source", "target"))
    answer = client.post("/translate", json={"q": "a dog runs", "source": source, "target": target}).json()
    assert translated_text(answer)["translatedText"] == "ein hund rennt"
    assert answer["detectedLanguage"]["language"] == "en"


def test_frontend_settings_char_limit_is_what_a_request_may_hold_where_char_limit_is_below_a_texts(trained_model):
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], replace(SETTINGS, max_request_chars=50))) as lower:  # --char-limit 50
        assert lower.get("/frontend/settings").json()["charLimit"] == 50  # LibreTranslate's page cuts its text there
        over = lower.post("/translate", json={"q": "a" * 51, "source": "en", "target": "de"})
        assert over.status_code == 400 and "exceeds character limit (50)" in over.json()["error"]


@pytest.mark.parametrize("fields, message", [
    ({"source": "en", "target": "de"}, "Invalid request: missing q parameter"),
    ({"q": "", "source": "en", "target": "de"}, "Invalid request: missing q parameter"),
    ({"q": "a dog runs", "target": "de"}, "Invalid request: missing source parameter"),
    ({"q": "a dog runs", "source": "en"}, "Invalid request: missing target parameter"),
    ({"q": "a dog runs", "source": "xx", "target": "de"}, "xx is not supported"),
    ({"q": "a dog runs", "source": "en", "target": "fr"},
     "French (fr) is not available as a target language from English (en)"),
    ({"q": "a dog runs", "source": "auto", "target": "en"},  # not "from English (en)": a source never given
     "English (en) is not available as a target language from any source language (this server translates into "
     "German (de))"),
    ({"q": "a dog runs", "source": "auto", "target": "xx"}, "xx is not supported"),
    ({"q": "a dog runs", "source": "en", "target": "de", "format": "pdf"}, "pdf format is not supported"),
    ({"q": "a dog runs", "source": "en", "target": "de", "alternatives": "many"},
     "Invalid request: alternatives parameter is not a number"),
    ({"q": "a dog runs", "source": "en", "target": "de", "alternatives": 3},
     "Invalid request: alternatives parameter must be <= 2"),
    ({"q": ["a"] * 5, "source": "en", "target": "de"}, r"Invalid request: request (5) exceeds text limit (4)"),
    ({"q": "a" * 121, "source": "en", "target": "de"}, r"Invalid request: request (121) exceeds text limit (120)"),
    ({"q": ["a" * 100, "b" * 101], "source": "en", "target": "de"},
     "Invalid request: request (201) exceeds character limit (200)"),
    ({"q": [1, 2], "source": "en", "target": "de"}, "Invalid request: q must be a text or a list of texts"),
])
def test_bad_requests_are_400_with_libretranslates_error_shape(client, fields, message):
    answer = client.post("/translate", json=fields)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(message), answer.json()


def test_a_paragraph_with_a_sentence_longer_than_the_model_reads_is_translated_in_parts(client):
    """A client sends long paragraphs: "q has a sentence 121 subword tokens long" was a 400."""
    answer = client.post("/translate", json={"q": ["a dog runs", "x y " * 30], "source": "en", "target": "de"})
    assert answer.status_code == 200 and len(answer.json()["translatedText"]) == 2


@pytest.mark.parametrize("q, message", [
    (["a"] * 5, "request (5) exceeds text limit (4): 5 texts; at most 4 in one request"),
    ("a" * 121, "request (121) exceeds text limit (120): q has 121 characters; at most 120 in one text"),
    (["a", "b" * 121], "request (121) exceeds text limit (120): q[1] has 121 characters; at most 120 in one text"),
])
def test_the_two_text_limits_keep_libretranslates_words_then_say_which_limit_and_text(client, q, message):
    """Both said only "request (N) exceeds text limit (L)": a count of texts or of characters, of no text named."""
    answer = client.post("/translate", json={"q": q, "source": "en", "target": "de"})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: {message}"}


@pytest.mark.parametrize("body, place", [(b'{"q": "a dog', 6), (b"{'q': 'a dog runs'}", 1),
                                         (b'{"q": "a dog runs", "source": "en", "target": "de",}', 51)])
def test_json_that_does_not_parse_is_400_saying_where(client, body, place):
    """It was "Invalid JSON format" alone: a trailing comma in a hand-written curl, found by reading it all.
    Why is Python's words, which its versions word differently; where is the character it stopped at."""
    answer = client.post("/translate", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"].startswith("Invalid JSON format (")
    assert answer.json()["error"].endswith(f" at character {place})")


@pytest.mark.parametrize("body, why", [
    (b"", "the body is empty"),
    (b"[1, 2]", "the body is a list, where the parameters are sent as one JSON object, {…}"),
    (b"null", "the body is null, where the parameters are sent as one JSON object, {…}")])
def test_a_body_that_is_not_a_json_object_is_400_saying_what_it_is(client, body, why):
    answer = client.post("/translate", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid JSON format ({why})"}


@pytest.mark.parametrize("path", ["/translate", "/translate/stream"])
def test_a_json_body_that_is_not_utf8_is_400_naming_the_byte_as_v1_translate_does(client, path):
    answer = client.post(path, content=b'{"q": "caf\xe9", "source": "en", "target": "de"}',
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json() == {
        "error": "Invalid JSON format (not UTF-8: byte 0xe9 at character 10)"}


def test_weblates_placeholders_come_back_as_it_sent_them_in_their_place(client):
    """Weblate's LibreTranslate machinery sends each placeholder of a string as ``[X<offset>X]`` and finds it in
    the answer by that text; the model, given them as words, wrote none of them back."""
    answer = client.post("/translate", json={"q": ["a dog [X6X] runs", "[X0X] the boy laughs [X17X]"],
                                             "source": "en", "target": "de"})
    assert answer.json() == {"translatedText": ["ein hund [X6X] rennt", "[X0X] der junge lacht [X17X]"]}


def test_html_is_translated_with_its_tags(client):
    answer = client.post("/translate", json={"q": ["<p>a dog runs</p>", "<i>the boy laughs</i>"], "source": "en",
                                             "target": "de", "format": "html"})
    assert answer.status_code == 200
    assert answer.json() == {"translatedText": ["<p>ein hund rennt</p>", "<i>der junge lacht</i>"]}


@pytest.mark.parametrize("text", ["<p>a dog runs</p>\r\n<p>the boy laughs</p>\r\n",
                                  "<ul>\r\n  <li>a dog runs</li>\r\n</ul>",
                                  "<!DOCTYPE html>\r\n<html>\r\n<body>\r\n<p>a dog runs</p>\r\n</body>\r\n</html>"])
def test_html_keeps_its_crlf_between_tags(client, text):
    """The parser reads a CRLF as an LF: the answer came back with LF between the tags (its DOCTYPE's CRLF alone
    kept), where a .html file kept its CRLF."""
    answer = client.post("/translate", json={"q": text, "source": "en", "target": "de", "format": "html"})
    translated = answer.json()["translatedText"]
    assert "ein hund rennt" in translated
    assert translated.count("\r\n") == text.count("\r\n") and translated.count("\n") == text.count("\n")


def test_html_with_no_tag_keeps_its_line_breaks_as_nextclouds_app_sends_every_text(client):
    """Nextcloud's LibreTranslate app sends each text as a form with format=html: its lines came back one
    line (HTML's whitespace), "ein hund rennt eine katze schläft"; a text with tags is HTML still."""
    answer = client.post("/translate", data={"q": "a dog runs\r\n\r\na cat sleeps", "format": "html", "source": "en",
                                             "target": "de", "api_key": ""}, files={"empty": ("", b"")})
    assert answer.json() == {"translatedText": "ein hund rennt\r\n\r\neine katze schläft"}
    answer = client.post("/translate", json={"q": ["a dog runs\na cat sleeps", "<b>a dog runs</b>"],
                                             "source": "en", "target": "de", "format": "html"})
    assert answer.json() == {"translatedText": ["ein hund rennt\neine katze schläft", "<b>ein hund rennt</b>"]}


def test_html_whose_ampersand_or_angle_bracket_is_no_markup_is_text_its_answer_escaped(client):
    """"a dog runs &" has no tag or entity: its lines are kept as any tagless text's, and the answer is
    HTML still, as asked, a "&" or "<" in it escaped."""
    answer = client.post("/translate", json={"q": "a dog runs & a < b\na cat sleeps", "source": "en", "target": "de",
                                             "format": "html"}).json()["translatedText"]
    assert answer.split("\n")[1] == "eine katze schläft" and not re.search(r"&(?!amp;|lt;|gt;)|<", answer)


def test_html_links_and_image_sources_come_back_as_they_were_written(client):
    """libxml2's writer URI-escaped them: ``href="{{%20page.url%20}}"``, ``src="my%20photo.jpg"``."""
    text = '<p><a href="{{ page.url }}">a dog runs</a> <img src="my photo.jpg"></p>'
    answer = client.post("/translate", json={"q": text, "source": "en", "target": "de", "format": "html"})
    assert answer.json() == {"translatedText": text.replace("a dog runs", "ein hund rennt")}


def test_a_whole_page_gets_the_target_language_as_a_sent_file_does(client):
    page = '<!DOCTYPE html><html lang="en"><body><p>a dog runs</p></body></html>'
    answer = client.post("/translate", json={"q": page, "source": "en", "target": "de", "format": "html"}).json()
    assert '<html lang="de">' in answer["translatedText"] and "ein hund rennt" in answer["translatedText"]


@pytest.mark.parametrize("alternatives", [-1, "-3"])
def test_alternatives_below_0_are_none_as_libretranslate_reads_them(client, alternatives):
    """They were 400 "alternatives parameter must be >= 0", where LibreTranslate translates the text."""
    fields = {"q": "a dog runs", "source": "en", "target": "de", "alternatives": alternatives}
    for answer in (client.post("/translate", json=fields), client.post("/translate", data=fields)):
        assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


def test_html_with_alternatives_answers_none_as_libretranslate_does(client):
    ask = {"source": "en", "target": "de", "format": "html", "alternatives": 2}  # as clients of its page send it
    one = client.post("/translate", json={"q": "<p>a dog runs</p>", **ask})
    assert one.status_code == 200 and one.json() == {"translatedText": "<p>ein hund rennt</p>", "alternatives": []}
    both = client.post("/translate", json={"q": ["<p>a dog runs</p>", "<i>the boy laughs</i>"], **ask})
    assert both.json() == {"translatedText": ["<p>ein hund rennt</p>", "<i>der junge lacht</i>"],
                           "alternatives": [[], []]}


def test_blank_texts_in_a_list_come_back_blank_as_they_were(client):
    answer = client.post("/translate", json={"q": ["a dog runs", " ", ""], "source": "en", "target": "de"})
    assert translated_text(answer.json()) == {"translatedText": ["ein hund rennt", " ", ""]}


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
FIELDS = st.sampled_from(["q", "source", "target", "format", "alternatives", "api_key", "other"])
VALUES = JSON | st.sampled_from(["en", "de", "fr", "auto", "a dog runs", "text", "html", "1"])


@settings(max_examples=60, deadline=None)
@given(body=st.dictionaries(FIELDS, VALUES, max_size=6))
def test_no_libretranslate_body_gets_a_server_error(client, body):
    answer = client.post("/translate", json=body)
    assert answer.status_code in (200, 400), (body, answer.text)
    assert ("translatedText" in answer.json()) == (answer.status_code == 200)


def test_auto_with_nothing_to_go_by_takes_the_first_language_with_confidence_0(client):
    answer = client.post("/translate", json={"q": ["12", " "], "source": "auto", "target": "de"}).json()
    assert answer["detectedLanguage"] == [{"confidence": 0.0, "language": "en"}] * 2


@pytest.mark.parametrize("path", ["/translate", "/translate/stream", "/detect"])
def test_a_lone_surrogate_is_400_with_a_message(client, path):
    body = b'{"q": "a \\ud800 dog", "source": "en", "target": "de"}'
    answer = client.post(path, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "Invalid request: a parameter is not valid Unicode (it has an unpaired "
                                      "surrogate, such as \\ud800 on its own)"}


@pytest.mark.parametrize(("where", "place", "request_parts"), [
    ("form", 19, {"content": b"source=en&q=%C3%A9+%FF+dog&target=de",  # 12 + "%C3%A9+": 2 bytes sent as 6
                  "headers": {"content-type": "application/x-www-form-urlencoded"}}),
    ("query", 4, {"url": "/translate?q=a+%FF+dog&source=en&target=de"}),
    ("form's field 'q'", 2, {"data": {"source": "en", "target": "de"}, "files": {"q": (None, b"a \xff dog")}}),
])
def test_parameters_that_are_not_utf8_are_400_naming_the_byte_and_its_place(client, where, place, request_parts):
    """The place is in the request as sent (a %-escape's "%" in a query or form), as a JSON body's is;
    a multipart form's is in its field."""
    answer = client.post(**{"url": "/translate", **request_parts})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: the {where} is not UTF-8 "
                                                                    f"(byte 0xff at character {place})"}


@pytest.mark.parametrize("path", ["/translate", "/detect", "/translate/stream"])
@pytest.mark.parametrize(("content_type", "body", "why"), [
    ("multipart/form-data", b"q=a+dog", "Missing boundary in multipart."),
    ("multipart/form-data; boundary=B", b"garbage", "Invalid multipart data."),
])
def test_a_form_that_cannot_be_read_is_400_in_libretranslates_shape(client, path, content_type, body, why):
    answer = client.post(path, content=body, headers={"content-type": content_type})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: the form cannot be read ({why})"}


@pytest.mark.parametrize("path", ["/translate", "/translate/stream"])
@pytest.mark.parametrize("sent", [{"json": {}}, {"data": {}}, {"data": {}, "files": {"empty": ("", b"")}}],
                         ids=["json", "form", "multipart"])
def test_a_texts_line_ends_come_back_as_sent_in_json_a_form_or_multipart(client, path, sent):
    """A browser's form sends a textarea's line ends as CRLF: a form's came back LF where JSON's stayed CRLF,
    and a mix of both (pasted text) came back all LF; the last line's end is kept too."""
    ask = {"q": "a dog runs\r\na cat sleeps\na dog runs\r\n\r\nthe boy laughs\r\n", "source": "en", "target": "de"}
    how = {name: ask if not value else value for name, value in sent.items()}
    answer = client.post(path, **how).text.replace("\\r", "\r").replace("\\n", "\n")
    assert "ein hund rennt\r\neine katze schläft\nein hund rennt\r\n\r\nder junge lacht\r\n" in answer


@pytest.mark.parametrize("where", ["json", "data"])
def test_a_crlf_counts_as_one_character_against_the_limits_as_sent_in_json_or_a_form(client, where):
    """125 characters, 115 counted (a line end one): within the 120 of a text, however the client sent it; JSON's
    CRLF was counted twice, so the same text passed as a form and was refused as JSON."""
    text = "a dog runs\r\n" * 10 + "a dog"
    answer = client.post("/translate", **{where: {"q": text, "source": "en", "target": "de"}})
    assert answer.status_code == 200 and answer.json()["translatedText"].count("\r\n") == 10
    answer = client.post("/translate", **{where: {"q": text + "\r\n" + "a" * 5, "source": "en", "target": "de"}})
    assert answer.json()["error"].endswith("q has 121 characters; at most 120 in one text")


def test_text_answers_carry_attnmts_quality_and_flags_beside_libretranslates_fields(client, trained_model):
    ask = {"q": "a dog runs", "source": "en", "target": "de"}
    assert client.post("/translate", json=ask).json() == {"translatedText": "ein hund rennt"}  # unless asked for
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], replace(SETTINGS, quality=True))) as client:
        one = client.post("/translate", json=ask).json()
        listed = client.post("/translate", json={**ask, "q": ["a dog runs", " "]}).json()
    assert one["translatedText"] == "ein hund rennt" and one["flags"] == [] and 0.8 < one["quality"] <= 1
    assert one["calibrated"] is False
    assert listed["flags"] == [[], []] and listed["quality"][1] == 1.0  # a blank text: passed through
    assert listed["calibrated"] == [False, False]


@pytest.mark.parametrize("content_type", ["Application/JSON", "application/json; charset=utf-8",
                                          "application/merge-patch+json"])
def test_json_is_read_whatever_the_case_of_its_media_type_and_as_json_suffixed_types(client, content_type):
    """As LibreTranslate's Flask reads it (request.is_json): media types are case-insensitive."""
    answer = client.post("/translate", content=b'{"q": "a dog runs", "source": "en", "target": "de"}',
                         headers={"content-type": content_type})
    assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


def test_a_field_given_twice_in_a_form_takes_its_first_value_as_libretranslate_does(client):
    answer = client.post("/translate?source=en", data={"q": "a dog runs", "source": "xx", "target": "de"})
    assert translated_text(answer.json()) == {"translatedText": "ein hund rennt"}
    answer = client.post("/translate", content=b"q=a+dog+runs&source=en&source=xx&target=de",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


@pytest.mark.parametrize("path", ["/translate", "/translate?q=a+dog+runs"])
def test_q_given_twice_in_a_form_or_query_is_refused_not_one_text_lost(client, path):
    """LibreTranslate's Flask keeps the first q of ``q=a&q=b`` (a client's list) and drops the other
    text without a word: attnmt names it, and says how a list of texts is sent."""
    body = b"q=a+cat+sleeps&source=en&target=de" if "?" in path else b"q=a+dog+runs&q=a+cat+sleeps&source=en&target=de"
    answer = client.post(path, content=body, headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "Invalid request: q is given 2 times; send one q, or several texts "
                                      "as a JSON list ({\"q\": [\"…\", \"…\"]})"}


@pytest.mark.parametrize("body", [b"q%5B%5D=a+dog+runs&q%5B%5D=a+cat+sleeps",
                                  b"q%5B1%5D=a+cat+sleeps&q%5B0%5D=a+dog+runs"])
def test_a_list_sent_as_php_and_jquery_write_it_in_a_form_is_a_list_of_texts(client, body):
    """``http_build_query(["q" => [...]])`` and ``$.param`` send q[]= or q[0]=: "missing q parameter" before."""
    answer = client.post("/translate", content=body + b"&source=en&target=de",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert translated_text(answer.json()) == {"translatedText": ["ein hund rennt", "eine katze schläft"]}


@pytest.mark.parametrize(("body", "error"), [
    (b"q%5B0%5D=a+dog+runs&q%5B2%5D=a+cat+sleeps", "q's list is sent as q[0], q[2]; send q[0] to q[1], each once, "
                                                   "or q[] for every text"),
    (b"q=a+dog+runs&q%5B%5D=a+cat+sleeps", "q is given 2 times; send one q, or several texts as a JSON list "
                                           "({\"q\": [\"…\", \"…\"]})")])
def test_a_php_list_that_would_lose_or_misplace_a_text_is_400(client, body, error):
    answer = client.post("/translate", content=body + b"&source=en&target=de",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: {error}"}


def test_suggest_is_refused_as_libretranslate_refuses_it_where_suggestions_are_off(client):
    answer = client.post("/suggest", data={"q": "a dog", "s": "ein hund", "source": "en", "target": "de"})
    assert answer.status_code == 403 and answer.json() == {"error": "Suggestions are disabled on this server."}
    assert client.get("/frontend/settings").json()["suggestions"] is False


FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize("path", ["/translate", "/translate/stream"])
@pytest.mark.parametrize("source", ["café".encode(), b"caf\xc3%A9"])  # as it is; half as it is, half %-escaped
def test_a_forms_utf8_not_percent_escaped_is_read_as_utf8_as_libretranslates_flask_reads_it(client, path, source):
    """Starlette's form parser read such bytes as Latin-1: "café" came as "cafÃ©"."""
    answer = client.post(path, content=b"q=a+dog+runs&source=" + source + b"&target=de", headers=FORM)
    assert answer.status_code == 400 and answer.json() == {"error": "café is not supported"}


def test_detect_reads_a_forms_utf8_not_percent_escaped_as_it_reads_json(client):
    text = "le garçon mange un gâteau à côté de l'église"
    raw = client.post("/detect", content=f"q={text}".encode(), headers=FORM)
    assert raw.status_code == 200 and raw.json() == client.post("/detect", json={"q": text}).json()


def test_a_path_with_a_double_slash_is_routed_as_with_one_as_libretranslates_werkzeug_routes_it(client):
    """SearXNG joins a base URL ending in "/" and "/translate": "//translate" was 404 "Not Found"."""
    answer = client.post("http://testserver//translate", json={"q": "a dog runs", "source": "en", "target": "de"})
    assert translated_text(answer.json()) == {"translatedText": "ein hund rennt"}
    assert client.get("http://testserver//languages").json() == client.get("/languages").json()
    assert client.get("/frontend//settings").json() == client.get("/frontend/settings").json()


@pytest.mark.parametrize("q", [5, [None], [[]], {"text": "a dog runs"}])
def test_detect_refuses_a_q_that_is_not_text_as_translate_does(client, q):
    """5 was "missing q parameter" (it was sent), and [null] was detected as the text "None"."""
    answer = client.post("/detect", json={"q": q})
    assert answer.status_code == 400 and answer.json() == {"error": "Invalid request: q must be a text or a list of "
                                                                    "texts"}


@pytest.mark.parametrize("method, path, status, message", [
    ("GET", "/translate", 405, "Method Not Allowed"), ("GET", "/detect", 405, "Method Not Allowed"),
    ("PUT", "/translate_file", 405, "Method Not Allowed"), ("POST", "/languages", 405, "Method Not Allowed"),
    ("GET", "/download_file/", 404, "Not Found"), ("GET", "/frontend/nothing", 404, "Not Found")])
def test_a_wrong_method_or_path_of_libretranslates_api_is_answered_in_its_shape(client, method, path, status, message):
    """They were FastAPI's {"detail": ...}, which LibreTranslate's clients do not read."""
    answer = client.request(method, path)
    assert answer.status_code == status and answer.json() == {"error": message}
    assert status == 404 or answer.headers["allow"]


@pytest.mark.parametrize("path, methods", [("/translate", {"POST"}), ("/languages", {"GET"}),
                                           ("/v1/translate", {"POST"}), ("/download_file/x", {"GET"})])
def test_options_says_what_a_path_takes_as_libretranslates_flask_answers_it(client, path, methods):
    """It was 405 "Method Not Allowed": the one method that asks which methods are allowed (RFC 9110 9.3.7)."""
    answer = client.options(path)
    allowed = {method.strip() for method in answer.headers["allow"].split(",")}
    assert answer.status_code == 200 and answer.content == b"" and methods | {"OPTIONS"} <= allowed
    assert "access-control-allow-origin" not in answer.headers  # no CORS unless --cors-origins lets a page in
    assert client.options("/nothing-here").status_code == 404


def test_a_wrong_method_elsewhere_keeps_its_apis_shape(client):
    assert client.get("/v1/translate").json() == {"detail": "Method Not Allowed"}
    assert client.get("/nothing-here").json() == {"detail": "Not Found"}


@pytest.mark.parametrize("path", ["/translate", "/detect", "/translate/stream"])
@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", None])
def test_json_sent_without_a_json_content_type_is_400_saying_to_send_one(client, path, content_type):
    """curl -d '{"q": ...}' sends a form's type: it was "missing q parameter", for a request that has one."""
    headers = {"content-type": content_type} if content_type else {}
    answer = client.post(path, content=' {"q": "a dog runs", "source": "en", "target": "de"}\n', headers=headers)
    came = f"as {content_type}" if content_type else "without one"
    assert answer.status_code == 400 and answer.json() == {"error": (
        f"Invalid request: the body is JSON, which must be sent with Content-Type: application/json (it came "
        f"{came}; curl: --json '{{\"q\": …}}')")}


def test_a_form_that_only_looks_like_json_is_read_as_a_form(client):
    answer = client.post("/translate", content="{=&q=a+dog+runs&source=en&target=de",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


def multipart(*fields: tuple[bytes, bytes, bytes]) -> bytes:
    """A multipart body (boundary B) of the fields (name, value, headers after Content-Disposition's)."""
    parts = [b'--B\r\nContent-Disposition: form-data; name="%s"\r\n%s\r\n%s\r\n' % (name, headers, value)
             for name, value, headers in fields]
    return b"".join(parts) + b"--B--\r\n"


LATIN_1_SOURCE = multipart((b"q", b"a dog runs", b""), (b"source", b"caf\xe9", b"Content-Type: text/plain; "
                                                                            b"charset=ISO-8859-1\r\n"),
                           (b"target", b"de", b""))


@pytest.mark.parametrize("path", ["/translate", "/translate/stream"])
@pytest.mark.parametrize(("content_type", "body"), [
    ("application/x-www-form-urlencoded; charset=ISO-8859-1", b"q=a+dog+runs&source=caf\xe9&target=de"),
    ("application/x-www-form-urlencoded; charset=iso-8859-1", b"q=a+dog+runs&source=caf%E9&target=de"),
    ('application/x-www-form-urlencoded; charset="windows-1252"', b"q=a+dog+runs&source=caf\xe9&target=de"),
    ("multipart/form-data; boundary=B", LATIN_1_SOURCE),
    ("multipart/form-data; charset=latin-1; boundary=B", LATIN_1_SOURCE.replace(b"charset=ISO-8859-1", b"")),
])
def test_a_form_is_read_in_the_charset_it_names(client, path, content_type, body):
    """A form's charset (a part's, else the form's) was ignored: "the form is not UTF-8 (byte 0xe9 ...)"."""
    answer = client.post(path, content=body, headers={"content-type": content_type})
    assert answer.status_code == 400 and answer.json() == {"error": "café is not supported"}


def test_a_multipart_forms_file_is_no_parameter_and_its_bytes_are_not_read_as_text(client):
    """A binary file among the fields was "the form is not UTF-8 (byte 0xff ...)"."""
    body = multipart((b"q", b"a dog runs", b""), (b"source", b"en", b""), (b"target", b"de", b""),
                     (b'file"; filename="a.bin', b"\xff\xfe\x00", b""))
    answer = client.post("/translate", content=body, headers={"content-type": "multipart/form-data; boundary=B"})
    assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}


@pytest.mark.parametrize(("content_type", "body", "error"), [
    ("application/x-www-form-urlencoded; charset=us-ascii", b"q=a+dog&source=caf\xe9&target=de",
     "the form is not us-ascii (byte 0xe9 at character 18)"),
    ("multipart/form-data; boundary=B; charset=Shift_JIS", multipart((b"q", b"\x82\x0a", b"")),
     "the form's field 'q' is not Shift_JIS (byte 0x82 at character 0)"),
    ("application/x-www-form-urlencoded; charset=klingon", b"q=a+dog",
     "the charset 'klingon' of the form is not one a form can be read in; send it as UTF-8"),
    ("application/x-www-form-urlencoded; charset=utf-16", b"q=a+dog",
     "the charset 'utf-16' of the form is not one a form can be read in; send it as UTF-8"),
    ("multipart/form-data; boundary=B", multipart((b"q", b"a dog", b"Content-Type: text/plain; charset=x\r\n")),
     "the charset 'x' of the form's field 'q' is not one a form can be read in; send it as UTF-8"),
])
def test_a_form_not_in_the_charset_it_names_is_400_naming_it(client, content_type, body, error):
    answer = client.post("/translate", content=body, headers={"content-type": content_type})
    assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: {error}"}


@pytest.mark.parametrize("text_format", ["text", "html"])
def test_typographic_quotes_around_a_text_come_back_in_the_target_language_s_form(client, text_format):
    """“Two dogs play in the snow.” came back in English quotes inside a German text."""
    answer = client.post("/translate", json={"q": "“a dog runs”", "source": "en", "target": "de",
                                             "format": text_format})
    assert translated_text(answer.json()) == {"translatedText": "„ein hund rennt“"}


def test_alternatives_around_a_quoted_text_come_back_in_the_target_language_s_quotes_too(client):
    """Asked for alternatives, the text's hypotheses were searched without the target language: its translation and
    every alternative came back in the source's English quotes, which its translation alone had not."""
    answer = client.post("/translate", json={"q": "“a dog runs”", "source": "en", "target": "de",
                                             "alternatives": 2}).json()
    assert answer["translatedText"] == "„ein hund rennt“" and answer["alternatives"]
    assert all(text.startswith("„") and text.endswith("“") for text in answer["alternatives"])
