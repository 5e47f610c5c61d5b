"""A hard-wrapped text sent to the server (a LibreTranslate client's ``q``: a pasted e-mail, a textarea's text) is
read as a .txt file's lines are (attnmt.documents.text_units): a paragraph wrapped over lines translated whole and
filled again, an e-mail's headers kept, a list and a line of its own alone (docs/serving.md, Paragraphs)."""

import json

from attnmt.decoding import DEFAULT, Decoding
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.translators import ModelTranslator

WRAPPED = ("a dog runs. a cat sleeps. a man walks in the park and a\n"
           "woman reads. a boy plays with a ball in the green garden.")  # the tiny model reads 64 pieces at most
SENTENCE, HALVES = "a man walks in the park and a woman reads.", {"a man walks in the park and a", "woman reads."}
MAIL = f"From: Anna <anna@example.com>\nSubject: a dog runs\n\nHi Tom,\n\n{WRAPPED}\n\n- a dog runs.\n- a cat sleeps.\n"


def as_file(model, text: str) -> str:
    """``text`` translated as a .txt file of it is, with the server's beam and languages."""
    translator = ModelTranslator(*model, Decoding(beam_size=DEFAULT.beam_size))
    return translate_file_bytes(text.encode(), "mail.txt", translator, DocumentOptions(target_lang="de")).decode()


def test_translate_reads_a_wrapped_paragraph_whole_and_answers_as_the_text_file_is_translated(client,
                                                                                              model_and_tokenizer,
                                                                                              reached):
    answer = client.post("/translate", json={"q": MAIL, "source": "en", "target": "de"}).json()["translatedText"]
    assert SENTENCE in reached and not HALVES & set(reached)
    assert not any("@" in sentence or "From" in sentence for sentence in reached)  # a header kept as written
    assert {"a dog runs.", "a cat sleeps.", "a dog runs"} <= set(reached)  # the list's items, the subject, alone
    assert answer == as_file(model_and_tokenizer, MAIL)
    assert answer.startswith("From: Anna <anna@example.com>\nSubject: ") and answer.endswith("\n")
    filled = answer.split("\n\n")[2].split("\n")
    assert all(len(line) <= 57 for line in filled)  # within the paragraph's width


def test_a_crlf_text_is_read_so_too_and_keeps_its_crlf(client, model_and_tokenizer, reached):
    text = MAIL.replace("\n", "\r\n")
    answer = client.post("/translate", json={"q": text, "source": "en", "target": "de"}).json()["translatedText"]
    assert SENTENCE in reached
    assert answer == as_file(model_and_tokenizer, MAIL).replace("\n", "\r\n")


def test_alternatives_and_the_stream_read_the_paragraph_whole_as_translate_does(client, reached):
    body = {"q": WRAPPED, "source": "en", "target": "de"}
    best = client.post("/translate", json=body).json()["translatedText"]
    with_alternatives = client.post("/translate", json={**body, "alternatives": 2}).json()
    with client.stream("POST", "/translate/stream", json=body) as answer:
        events = "".join(answer.iter_text()).strip().split("\n\n")
    assert SENTENCE in reached and not HALVES & set(reached)
    assert with_alternatives["translatedText"] == best
    assert json.loads(events[-1].split("\n")[1].removeprefix("data: "))["translatedText"] == best


def test_deepls_api_reads_each_line_alone_unless_told_nonewlines_as_deepl_does(client, model_and_tokenizer, reached):
    lines = client.post("/v2/translate", json={"text": [WRAPPED], "target_lang": "DE"}).json()
    assert HALVES <= set(reached) and SENTENCE not in reached
    reached.clear()
    joined = client.post("/v2/translate", json={"text": [WRAPPED], "target_lang": "DE",
                                                "split_sentences": "nonewlines"}).json()
    assert SENTENCE in reached and "\n" not in joined["translations"][0]["text"]
    assert lines["translations"][0]["text"].count("\n") == 1
    libre = client.post("/translate", json={"q": WRAPPED, "source": "en", "target": "de"}).json()["translatedText"]
    assert libre == as_file(model_and_tokenizer, WRAPPED)


def test_a_text_without_tags_sent_as_html_is_read_so_too(client, model_and_tokenizer, reached):
    body = {"q": WRAPPED, "source": "en", "target": "de", "format": "html"}  # as Nextcloud sends every text
    answer = client.post("/translate", json=body).json()["translatedText"]
    assert SENTENCE in reached and not HALVES & set(reached)
    written = as_file(model_and_tokenizer, WRAPPED)
    assert answer == written.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
