"""DeepL's API v2, in process, replayed as DeepL's clients send it: deepl-python's JSON and
deepl-node's form, the key in ``Authorization: DeepL-Auth-Key``, and DeepL's answer shapes."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.access import Access, ApiKey
from attnmt.server.app import ServedModel, ServeSettings, create_app

KEY = "0b4e2c1d-5a8f-4d2e-9c1b-7e3f6a9d2b10:fx"
AUTH = {"Authorization": f"DeepL-Auth-Key {KEY}"}


@pytest.fixture(scope="module")
def client(trained_model):
    """The tiny model served as en-de, with one API key."""
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    app = create_app(models, ServeSettings(max_texts=4, max_chars=120), Access({KEY: ApiKey(1, None)}))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_deepl_pythons_json_request_is_translated_in_deepls_shape(client):
    body = {"text": ["a dog runs", "a cat sleeps"], "target_lang": "DE", "source_lang": "EN",
            "split_sentences": "nonewlines", "preserve_formatting": True, "formality": "prefer_less"}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 200
    assert answer.json() == {"translations": [{"detected_source_language": "EN", "text": "ein hund rennt"},
                                              {"detected_source_language": "EN", "text": "eine katze schläft"}]}


def test_deepl_nodes_form_with_text_repeated_keeps_every_text_in_order(client):
    answer = client.post("/v2/translate", content=b"text=a+cat+sleeps&text=a+dog+runs&target_lang=DE",
                         headers={**AUTH, "content-type": "application/x-www-form-urlencoded"})
    assert [each["text"] for each in answer.json()["translations"]] == ["eine katze schläft", "ein hund rennt"]


def test_a_multipart_form_as_curl_f_sends_it_keeps_every_text(client):
    """Read as no form at all: "Parameter 'text' not specified." to a request that sent two."""
    answer = client.post("/v2/translate", data={"text": ["a cat sleeps", "a dog runs"], "target_lang": "DE"},
                         files={"empty": ("", b"")}, headers={"Authorization": f"deepl-auth-key {KEY}"})
    assert [each["text"] for each in answer.json()["translations"]] == ["eine katze schläft", "ein hund rennt"]


def test_json_sent_as_a_form_is_400_saying_to_send_it_as_json(client):
    answer = client.post("/v2/translate", content=b'{"text": ["a dog runs"], "target_lang": "DE"}',
                         headers={**AUTH, "content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("the body is JSON, which must be sent with Content-Type: application")


def test_without_source_lang_each_text_is_detected_and_one_in_the_target_language_comes_back(client):
    answer = client.post("/v2/translate", data={"auth_key": KEY, "text": ["the boy laughs", "ein hund rennt"],
                                                "target_lang": "de"})
    assert answer.json() == {"translations": [{"detected_source_language": "EN", "text": "der junge lacht"},
                                              {"detected_source_language": "DE", "text": "ein hund rennt"}]}


@pytest.mark.parametrize("text", ["Download PDF", "Run <code>ls -la</code>. A dog runs."])
def test_without_source_lang_a_short_english_text_is_not_given_back_as_german(client, text):
    """lingua's trigrams alone put them at 96.2 % and 96.56 % German, and they came back untranslated."""
    answer = client.post("/v2/translate", data={"auth_key": KEY, "text": [text], "target_lang": "de"})
    [translation] = answer.json()["translations"]
    assert translation["detected_source_language"] == "EN" and translation["text"] != text


@pytest.mark.parametrize("text", ["See https://www.beispiel.de/kontakt/impressum-und-datenschutz for details.",
                                  "Send the file Rechnungsuebersicht_Januar.xlsx to buchhaltung@firma-mueller.de."])
def test_without_source_lang_a_text_is_told_by_its_words_not_its_links_addresses_and_files(client, text):
    """Read whole, each was German at 95 % or more, and came back untranslated; they pass through as written."""
    answer = client.post("/v2/translate", data={"auth_key": KEY, "text": [text], "target_lang": "de"})
    [translation] = answer.json()["translations"]
    assert translation["detected_source_language"] == "EN" and translation["text"] != text


@pytest.mark.parametrize("split", ["nonewlines", "0"])
def test_split_sentences_nonewlines_reads_a_sentence_wrapped_over_two_lines_as_one(client, split):
    """It was translated as two, each half a sentence; a break after a sentence's end, and a blank line, stay."""
    body = {"text": ["a man rides\na bike", "a dog runs.\na cat sleeps\n\nthe child plays"], "target_lang": "DE",
            "source_lang": "EN", "split_sentences": split}
    answer = client.post("/v2/translate", json=body, headers=AUTH).json()
    wrapped, kept = (each["text"] for each in answer["translations"])
    assert wrapped == "ein mann fährt ein fahrrad"
    assert [line.rstrip(".") for line in kept.split("\n")] == [
        "ein hund rennt", "eine katze schläft", "", "das kind spielt"]
    default = client.post("/v2/translate", json={**body, "split_sentences": "1"}, headers=AUTH).json()
    assert "\n" in default["translations"][0]["text"]  # DeepL's default splits at line breaks too


def test_preserve_formatting_keeps_a_texts_full_stop_as_deepl_python_asks(client):
    """The model left the full stop out: "ein hund rennt" for "a dog runs."."""
    body = {"text": ["a dog runs.", "a cat sleeps"], "target_lang": "DE", "source_lang": "EN",
            "preserve_formatting": True}
    answer = client.post("/v2/translate", json=body, headers=AUTH).json()
    assert [each["text"] for each in answer["translations"]] == ["ein hund rennt.", "eine katze schläft"]


def test_a_programs_placeholders_in_plain_text_come_back_as_sent(client):
    """A user interface's string, sent as plain text: printf's and a brace's placeholders were given to the
    model as words, which wrote none of them back, and the program lost its values."""
    body = {"text": ["a dog runs %1$s", "{count} the boy laughs %(name)s"], "target_lang": "DE", "source_lang": "EN"}
    answer = client.post("/v2/translate", json=body, headers=AUTH).json()
    assert [each["text"] for each in answer["translations"]] == ["ein hund rennt %1$s",
                                                                 "{count} der junge lacht %(name)s"]


def test_html_tag_handling_carries_the_tags_over(client):
    answer = client.post("/v2/translate", json={"text": ["<p>a dog runs</p>"], "target_lang": "DE",
                                                "tag_handling": "html"}, headers=AUTH)
    assert answer.json()["translations"][0]["text"] == "<p>ein hund rennt</p>"


@pytest.mark.parametrize("split", ["2", "yes", "off", ["0"]])
def test_a_split_sentences_value_deepl_does_not_know_is_400_naming_the_parameter(client, split):
    """It was read as "1", DeepL's default: the text split at its line breaks, which its sender meant to turn off."""
    body = {"text": ["a man rides\na bike"], "target_lang": "DE", "source_lang": "EN", "split_sentences": split}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json() == {"message": f"Value for 'split_sentences' not supported: {split!r} (0, 1 or nonewlines)"}


@pytest.mark.parametrize("preserve", ["yes", "on", "2"])
def test_a_preserve_formatting_value_neither_on_nor_off_is_400_naming_the_parameter(client, preserve):
    """It was read as off: "a dog runs" came back without the source's lower case and missing full stop kept."""
    body = {"text": ["a dog runs."], "target_lang": "DE", "source_lang": "EN", "preserve_formatting": preserve}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json() == {"message": f"Value for 'preserve_formatting' not supported: {preserve!r} "
                                        "(0 or 1, true or false)"}


@pytest.mark.parametrize("preserve", [1, "true"])
def test_preserve_formatting_as_a_json_number_or_a_word_is_on(client, preserve):
    body = {"text": ["a dog runs."], "target_lang": "DE", "source_lang": "EN", "preserve_formatting": preserve}
    answer = client.post("/v2/translate", json=body, headers=AUTH).json()
    assert answer["translations"][0]["text"] == "ein hund rennt."


@pytest.mark.parametrize(("sent", "language"), [("EN-GB", "EN"), ("en-US", "EN"), ("en_GB", "EN")])
def test_a_source_lang_with_a_region_is_400_naming_the_code_to_send_as_deepl_refuses_it(client, sent, language):
    """DeepL lists EN-GB and PT-BR among its targets alone; read as en here, a client worked that DeepL refuses."""
    body = {"text": ["a dog runs"], "target_lang": "DE", "source_lang": sent}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json() == {"message": f"Value for 'source_lang' not supported: {sent!r}; a source language names "
                                        f"no region or script, as DeepL's: send {language!r}"}


@pytest.mark.parametrize("sent", ["DE-DE", "de-AT", "de_DE"])
def test_a_target_lang_with_a_region_deepl_has_no_variant_for_is_400_naming_the_code_to_send(client, sent):
    """DeepL names a region or script in a target only for EN-GB, PT-BR, DE-CH, ZH-HANS and their like: read as de
    here, a browser's DE-DE worked that DeepL refuses."""
    body = {"text": ["a dog runs"], "target_lang": sent, "source_lang": "EN"}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json()["message"].startswith(f"Value for 'target_lang' not supported: {sent!r}; DeepL's target ")
    assert answer.json()["message"].endswith("send 'DE'")


@pytest.mark.parametrize("sent", ["DE-CH", "de-ch"])
def test_a_target_lang_variant_deepl_has_is_read_as_its_language(client, sent):
    """DE-CH is among DeepL's targets, as EN-GB and PT-BR are: refused, a client that works against DeepL failed."""
    body = {"text": ["a dog runs"], "target_lang": sent, "source_lang": "EN"}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 200 and answer.json()["translations"][0]["text"] == "ein hund rennt"


@pytest.mark.parametrize(("headers", "status"), [({}, 403), ({"Authorization": "DeepL-Auth-Key wrong"}, 403)])
def test_a_missing_or_wrong_key_is_403_in_deepls_shape(client, headers, status):
    answer = client.post("/v2/translate", json={"text": ["a dog runs"], "target_lang": "DE"}, headers=headers)
    assert answer.status_code == status and set(answer.json()) == {"message"}


@pytest.mark.parametrize(("option", "message"), [
    ({"formality": "more"}, "'formality' 'more' is not supported for given 'target_lang'"),
    ({"glossary_id": "def3a26b-3e84-45b3-84ae-0c0aaf3525f7"}, "Parameter 'glossary_id' is not supported"),
    ({"glossary_ids": ["def3a26b-3e84-45b3-84ae-0c0aaf3525f7"]}, "Parameter 'glossary_ids' is not supported"),
    ({"text": ["a dog <b>runs"], "tag_handling": "xml"}, "text[0] is not well-formed XML"),
    ({"tag_handling": "markdown"}, "Value for 'tag_handling' not supported"),
    ({"target_lang": None}, "Parameter 'target_lang' not specified."),
    ({"target_lang": "JA"}, "Value for 'target_lang' not supported: 'JA'; the languages served here are EN, DE"),
    ({"source_lang": "fr"}, "Value for 'source_lang' not supported: 'fr'; the languages served here are EN, DE"),
    ({"text": []}, "Parameter 'text' not specified."),
    ({"custom_instructions": ["Use informal language"]}, "Parameter 'custom_instructions' is not supported"),
    ({"style_id": "4a1f0c2e-style"}, "Parameter 'style_id' is not supported"),
    ({"translation_memory_id": "b2c1-tm"}, "Parameter 'translation_memory_id' is not supported")])
def test_an_option_no_model_here_honours_is_400_not_dropped(client, option, message):
    body = {"text": ["a dog runs"], "target_lang": "DE", **option}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    assert answer.status_code == 400 and answer.json()["message"].startswith(message)


def test_deepl_nodes_custom_instructions_in_a_form_are_400_not_dropped(client):
    """deepl-node sends each instruction as a form field; the answer ignored them without a word."""
    sent = b"target_lang=DE&show_billed_characters=1&text=a+dog+runs&custom_instructions=Use+informal+language"
    form = {**AUTH, "content-type": "application/x-www-form-urlencoded"}
    answer = client.post("/v2/translate", content=sent, headers=form)
    assert answer.status_code == 400 and "'custom_instructions' is not supported" in answer.json()["message"]


def test_weblates_placeholders_come_back_as_it_sent_them_and_finds_them(client):
    """Weblate sends ``<x id="N"></x>`` with ignore_tags x and finds each by that exact text; the XML
    writer's ``<x id="N"/>`` lost the placeholder from its suggestion."""
    body = {"text": ['a dog <x id="4"></x> runs', 'a cat <y/> sleeps'], "source_lang": "EN", "target_lang": "DE",
            "formality": "default", "tag_handling": "xml", "ignore_tags": ["x"]}
    answer = client.post("/v2/translate", json=body, headers=AUTH)
    first, second = (each["text"] for each in answer.json()["translations"])
    assert first.count('<x id="4"></x>') == 1 and "/>" not in first
    assert second.count("<y/>") == 1


@pytest.mark.parametrize(("tags", "sent", "kept"), [
    ("xml", "a dog <keep>the boy laughs</keep> runs", "<keep>the boy laughs</keep>"),
    ("html", '<p>a dog <span class="x">the boy laughs</span> runs</p>', '<span class="x">the boy laughs</span>'),
])
def test_an_ignore_tags_element_holding_text_comes_back_as_sent_the_rest_translated(client, tags, sent, kept):
    """It was refused (400 "text[0] has a <keep> holding text"), though the markup keeps what says
    translate="no" whole: a name or code a client asks DeepL to leave alone could not be sent at all."""
    body = {"text": [sent], "source_lang": "EN", "target_lang": "DE", "tag_handling": tags,
            "ignore_tags": ["keep"] if tags == "xml" else "span"}
    text = client.post("/v2/translate", json=body, headers=AUTH).json()["translations"][0]["text"]
    assert text.count(kept) == 1 and "ein hund" in text and "translate" not in text


@pytest.mark.parametrize(("tags", "sent", "kept"), [
    ("xml", 'a dog <code>lang translate="No"</code> runs', '<code>lang translate="No"</code>'),
    ("html", '<p>a dog <code>&lt;div translate="No"&gt;</code> runs</p>', '<code>&lt;div translate="No"&gt;</code>'),
    ("xml", 'a dog <code translate="No">Acme</code> runs', '<code translate="No">Acme</code>')])
def test_a_clients_own_translate_no_in_an_ignore_tags_element_comes_back(client, tags, sent, kept):
    """It was taken out with the marks of the ignore_tags elements, which were the same text."""
    body = {"text": [sent], "source_lang": "EN", "target_lang": "DE", "tag_handling": tags, "ignore_tags": "code"}
    text = client.post("/v2/translate", json=body, headers=AUTH).json()["translations"][0]["text"]
    assert text.count(kept) == 1 and "ein hund" in text and "attnmt" not in text


def test_xml_comes_back_as_xml_an_empty_element_closed(client):
    """As HTML, ``<br/>`` came back ``<br>``: no XML parser reads that."""
    answer = client.post("/v2/translate", json={"text": ["a dog runs<br/>"], "target_lang": "DE",
                                                "source_lang": "EN", "tag_handling": "xml"}, headers=AUTH)
    text = answer.json()["translations"][0]["text"]
    assert text.count("<br/>") == 1 and text.replace("<br/>", " ").split() == ["ein", "hund", "rennt"]


def test_languages_usage_and_glossary_pairs_answer_in_deepls_shapes(client):
    assert client.get("/v2/languages?type=source", headers=AUTH).json() == [{"language": "EN", "name": "English"}]
    assert client.get("/v2/languages?type=target", headers=AUTH).json() == [
        {"language": "DE", "name": "German", "supports_formality": False}]
    assert client.get("/v2/usage", headers=AUTH).json() == {"character_count": 0, "character_limit": 10**12}
    assert client.get("/v2/glossary-language-pairs", headers=AUTH).json() == {"supported_languages": []}
    assert client.get("/v2/usage").status_code == 403


def test_glossaries_are_listed_as_none_and_one_created_is_400_saying_none_is_kept(client):
    """Both were 404 "Not Found", which deepl-python reads as "Glossary not found" for a glossary it was creating."""
    assert client.get("/v2/glossaries", headers=AUTH).json() == {"glossaries": []}
    body = {"name": "pets", "source_lang": "en", "target_lang": "de", "entries": "dog\tHund", "entries_format": "tsv"}
    answer = client.post("/v2/glossaries", json=body, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("Glossaries are not supported by this server: it keeps no glossaries")
    assert client.get("/v2/glossaries").status_code == 403


@pytest.mark.parametrize(("method", "path"), [("GET", "/v2/glossaries/def3a26b"), ("DELETE", "/v2/glossaries/def3a26b"),
                                              ("GET", "/v2/glossaries/def3a26b/entries")])
def test_a_glossary_asked_for_by_its_id_is_404_saying_none_is_kept(client, method, path):
    """deepl-python's get_glossary, delete_glossary and get_glossary_entries, Weblate's delete_glossary."""
    answer = client.request(method, path, headers=AUTH)
    assert answer.status_code == 404
    assert answer.json() == {"message": "Glossary 'def3a26b' not found: this server keeps no glossaries "
                                        "(attnmt's /v1/translate takes one with each request)"}
    assert client.request(method, path).status_code == 403


@pytest.mark.parametrize("option", [{"formality": ["less"]}, {"tag_handling": ["html"]}, {"target_lang": 5}])
def test_an_option_of_the_wrong_json_type_is_400_not_a_server_error(client, option):
    answer = client.post("/v2/translate", json={"text": ["a dog runs"], "target_lang": "DE", **option}, headers=AUTH)
    assert answer.status_code == 400 and set(answer.json()) == {"message"}


def test_the_schema_gives_translates_body_and_each_endpoint_once(client):
    """Without it, /docs showed /v2/translate taking no body; GET and POST of one path, two operations."""
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/v2/translate"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["text", "target_lang"] and "tag_handling" in body["properties"]
    operations = [op["operationId"] for path in ("/v2/languages", "/v2/usage") for op in schema["paths"][path].values()]
    assert len(set(operations)) == 4


def test_json_that_does_not_parse_is_400_saying_where(client):
    body = b'{"text": ["a dog runs"], "target_lang": "DE",}'
    answer = client.post("/v2/translate", content=body, headers={**AUTH, "content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["message"].startswith("Invalid JSON format (")
    assert answer.json()["message"].endswith(" at character 45)")


@pytest.mark.parametrize(("path", "methods"), [("/v2/languages", {"GET", "POST"}), ("/v2/usage", {"GET", "POST"}),
                                             ("/v2/glossaries", {"GET", "POST"}),
                                             ("/v2/glossaries/def3a26b", {"GET", "DELETE"})])
def test_options_and_a_wrong_method_name_every_method_a_path_takes(client, path, methods):
    """Each method of these is a route of its own, and Starlette names the first one's: /v2/languages said POST
    alone, so a client that asks before it sends, or reads a 405's Allow, would never send GET."""
    allowed = {method.strip() for method in client.options(path).headers["allow"].split(",")}
    assert allowed == methods | {"OPTIONS"}
    answer = client.put(path, headers=AUTH)
    assert answer.status_code == 405 and {method.strip() for method in answer.headers["allow"].split(",")} == methods


@pytest.mark.parametrize(("method", "path", "sent", "status", "message"), [
    ("POST", "/v2/write/rephrase", {}, 404, "Not Found"),
    ("GET", "/v2/translate", {}, 405, "Method Not Allowed"),
    ("POST", "/v2/translate", {"content": b"x" * 1_000_001}, 413, "the request body is over 1000000 bytes"),
    ("POST", "/v2/translate", {"content": b"\x1f\x8b", "headers": {"Content-Encoding": "gzip"}}, 415,
     "the request body's Content-Encoding 'gzip' is not supported")])
def test_a_wrong_path_method_or_body_is_answered_in_deepls_shape(client, method, path, sent, status, message):
    """They were {"detail": ...} (and "error"), where Weblate reads the reason from "message" alone."""
    answer = client.request(method, path, **{**sent, "headers": {**AUTH, **sent.get("headers", {})}})
    assert answer.status_code == status and list(answer.json()) == ["message"]
    assert answer.json()["message"].startswith(message)


@pytest.mark.parametrize("sent", [{"json": {"show_billed_characters": True}},
                                  {"data": {"show_billed_characters": "1"}}])
def test_show_billed_characters_gives_each_texts_characters_as_deepl_python_reads_them(client, sent):
    """deepl-python's TextResult.billed_characters was None: the answer had no billed_characters."""
    body = {"text": ["a dog runs", "a cat sleeps"], "target_lang": "DE", "source_lang": "EN"}
    kind, options = next(iter(sent.items()))
    answer = client.post("/v2/translate", **{kind: {**body, **options}}, headers=AUTH)
    assert [each["billed_characters"] for each in answer.json()["translations"]] == [10, 12]


@pytest.mark.parametrize("kept", ["glossaries", "style_rules", "translation_memories"])
def test_deepl_clients_v3_lists_are_empty_and_one_created_is_400_saying_none_is_kept(client, kept):
    """DeepLClient's list_multilingual_glossaries, get_all_style_rules and list_translation_memories got
    404 {"detail": "Not Found"}, and raised (GlossaryNotFoundException for a list) where DeepL answers an empty one."""
    assert client.get(f"/v3/{kept}", headers=AUTH).json() == {kept: []}
    answer = client.post(f"/v3/{kept}", json={"name": "pets"}, headers=AUTH)
    assert answer.status_code == 400
    assert answer.json()["message"].endswith(f"not supported by this server: it keeps no {kept.replace('_', ' ')}"
                                             + (" (attnmt's /v1/translate takes one with each request)"
                                                if kept == "glossaries" else ""))
    assert client.get(f"/v3/{kept}").status_code == 403


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/v3/glossaries/def3a26b"), ("PATCH", "/v3/glossaries/def3a26b"), ("DELETE", "/v3/glossaries/def3a26b"),
    ("GET", "/v3/glossaries/def3a26b/entries?source_lang=en&target_lang=de"),
    ("PUT", "/v3/glossaries/def3a26b/dictionaries"), ("DELETE", "/v3/glossaries/def3a26b/dictionaries")])
def test_a_multilingual_glossary_asked_for_by_its_id_is_404_saying_none_is_kept(client, method, path):
    """DeepLClient's get_, update_, delete_multilingual_glossary and its dictionaries' calls."""
    answer = client.request(method, path, headers=AUTH)
    assert answer.status_code == 404
    assert answer.json()["message"].startswith("Glossary 'def3a26b' not found: this server keeps no glossaries")


def test_a_v3_path_none_of_the_routes_takes_is_404_in_deepls_shape(client):
    """DeepLClient's style rule by its id was {"detail": "Not Found"}, which deepl-python shows as a detail."""
    answer = client.get("/v3/style_rules/5c1a", headers=AUTH)
    assert answer.status_code == 404 and list(answer.json()) == ["message"]


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/v2/write/rephrase"), ("POST", "/v2/write/correct"), ("GET", "/v3/style_rules/5c1a"),
    ("GET", "/v3/translation_memories/b2c1/export"), ("GET", "/v2/admin/developer-keys")])
def test_a_deepl_path_none_of_the_routes_takes_says_what_this_server_answers(client, method, path):
    """deepl-python's rephrase_text raised "Not found, message: Not Found", which said nothing of why."""
    message = client.request(method, path, headers=AUTH).json()["message"]
    assert message.startswith(f"Not Found: {path} is no route here; this server answers DeepL's translation")
    assert "(/v2/translate, /v2/document, /v2/languages, /v2/usage)" in message
