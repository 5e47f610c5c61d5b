"""A whole page sent as a text (LibreTranslate's format=html, DeepL's tag_handling=html, attnmt's format html) comes
back as it was sent but for its text, as DeepL and LibreTranslate give one back: no ``<meta charset>`` and no ``lang``
added, its declarations as written; a language its ``<html>`` states says the target's (docs/serving.md)."""

import pytest
from fastapi.testclient import TestClient
from support import deepl_text

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app


@pytest.fixture(scope="module")
def client(trained_model):
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    with TestClient(create_app(models, ServeSettings(max_chars=400)), raise_server_exceptions=False) as c:
        yield c


def libretranslate(client, page: str) -> str:
    answer = client.post("/translate", json={"q": page, "source": "en", "target": "de", "format": "html"})
    assert answer.status_code == 200, answer.text
    return answer.json()["translatedText"]


def deepl(client, page: str) -> str:
    return deepl_text(client, page, tag_handling="html")


def attnmt(client, page: str) -> str:
    answer = client.post("/v1/translate", json={"texts": [page], "format": "html"})
    assert answer.status_code == 200, answer.text
    return answer.json()["translations"][0]


PAGES = [
    "<!DOCTYPE html>\n<html>\n<body>\n<p>a dog runs</p>\n</body>\n</html>",
    '<!doctype html><html class="no-js"><head><title>the boy laughs</title></head>'
    "<body><p>a dog runs</p></body></html>",
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head>\n'
    "<body><p>a dog runs</p></body></html>",
    '<?xml version="1.0" encoding="iso-8859-1"?>\n<html><head><meta charset="iso-8859-1"></head>'
    "<body><p>a dog runs</p></body></html>"]


@pytest.mark.parametrize("translated", [libretranslate, deepl, attnmt])
@pytest.mark.parametrize("page", PAGES)
def test_a_page_comes_back_as_it_was_sent_but_for_its_text(client, translated, page):
    """It came back with <meta charset="utf-8"> in a <head> of its own and lang="de" on its <html>, which neither
    DeepL nor LibreTranslate adds; a declared charset was made utf-8 and an XML declaration's encoding UTF-8."""
    expected = page.replace("a dog runs", "ein hund rennt").replace("the boy laughs", "der junge lacht")
    assert translated(client, page) == expected



@pytest.mark.parametrize("translated", [libretranslate, deepl, attnmt])
@pytest.mark.parametrize(("page", "stated"), [
    ('<html lang="en-US"><body><p>a dog runs</p></body></html>', {'lang="en-US"': 'lang="de"'}),
    ('<html xml:lang="en"><head><meta http-equiv="Content-Language" content="en"></head><body><p>a dog runs</p></body>'
     "</html>", {'xml:lang="en"': 'xml:lang="de"', 'content="en"': 'content="de"'})])
def test_a_language_the_page_states_says_the_targets_in_the_attributes_it_had(client, translated, page, stated):
    """Where it stated one, in lang or xml:lang (and its Content-Language): a lang was set beside an xml:lang,
    and a <meta charset> added."""
    expected = page.replace("a dog runs", "ein hund rennt")
    for sent, written in stated.items():
        expected = expected.replace(sent, written)
    assert translated(client, page) == expected
