"""DeepL's split_sentences with tag_handling=xml: a line break in an element's text ends its sentence by default
(``1``), as DeepL's documentation says it does ("newlines will split sentences"); ``nonewlines`` and ``0``
read it as a space, as before (test_deepl_api)."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app


@pytest.fixture(scope="module")
def client(trained_model):
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    with TestClient(create_app(models, ServeSettings(max_texts=4, max_chars=200)), raise_server_exceptions=False) as c:
        yield c


def xml(client, text: str, **more) -> str:
    body = {"text": [text], "target_lang": "DE", "source_lang": "EN", "tag_handling": "xml", **more}
    answer = client.post("/v2/translate", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()["translations"][0]["text"]


@pytest.mark.parametrize("split", [{}, {"split_sentences": "1"}, {"split_sentences": 1}])
@pytest.mark.parametrize(("sent", "alone"), [
    ("<p>a dog runs\na cat sleeps</p>", ["<p>a dog runs</p>", "<p>a cat sleeps</p>"]),
    ("<s>the boy laughs\n  two men walk</s>", ["<s>the boy laughs</s>", "<s>two men walk</s>"]),
    ("<p>a <b>dog</b> runs\na cat sleeps</p>", ["<p>a <b>dog</b> runs</p>", "<p>a cat sleeps</p>"])])
def test_a_line_break_in_an_elements_text_ends_its_sentence_by_default(client, split, sent, alone):
    """It was read as a space: the two lines went to the model as one sentence."""
    first, second = (xml(client, text) for text in alone)
    tag = first[1:first.index(">")]
    lines = xml(client, sent, **split).removeprefix(f"<{tag}>").removesuffix(f"</{tag}>").split("\n")
    assert [line.strip() for line in lines] == [first.removeprefix(f"<{tag}>").removesuffix(f"</{tag}>"),
                                                second.removeprefix(f"<{tag}>").removesuffix(f"</{tag}>")]

