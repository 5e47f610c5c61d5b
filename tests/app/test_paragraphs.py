"""A paragraph through every surface of the server: split into sentences as ``attnmt translate``
splits it, every sentence translated, their translations (n-best, alignments, confidence,
attention, streamed partials) joined per text (docs/serving.md, Paragraphs)."""

import json
from itertools import pairwise

import pytest
from support import translated_text

from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.inspect.align import align, pharaoh
from attnmt.server.app import ServedModel, ServeSettings

FIRST, SECOND = "a dog runs.", "a cat sleeps."
PARAGRAPH = f"{FIRST} {SECOND}"  # the tiny model, given it whole, stops after "eine katze": one sentence's worth


def each_alone(model, sentences=(FIRST, SECOND), beam: int = 4) -> list[str]:
    return translate(*model, list(sentences), Decoding(beam_size=beam))


def stream(client, body: dict) -> list[tuple[str, dict]]:
    with client.stream("POST", "/translate/stream", json=body) as answer:
        text = "".join(answer.iter_text())
    return [(block.split("\n")[0].removeprefix("event: "), json.loads(block.split("\n")[1].removeprefix("data: ")))
            for block in text.strip().split("\n\n")]


@pytest.mark.parametrize("as_form", [False, True])
def test_translate_translates_every_sentence_of_a_paragraph(client, model_and_tokenizer, reached, as_form):
    body = {"q": PARAGRAPH, "source": "en", "target": "de"}
    answer = client.post("/translate", **({"data": body} if as_form else {"json": body}))
    assert reached == [FIRST, SECOND]
    assert translated_text(answer.json()) == {"translatedText": " ".join(each_alone(model_and_tokenizer))}


def test_a_line_break_in_a_text_is_kept(client, model_and_tokenizer):
    answer = client.post("/translate", json={"q": f"{FIRST}\n{SECOND}", "source": "en", "target": "de"})
    assert answer.json()["translatedText"] == "\n".join(each_alone(model_and_tokenizer))


def test_alternatives_join_each_sentences_next_best(client, model_and_tokenizer, reached):
    answer = client.post("/translate", json={"q": PARAGRAPH, "source": "en", "target": "de", "alternatives": 2})
    assert reached == [FIRST, SECOND]
    first, second = translate_n_best(*model_and_tokenizer, [FIRST, SECOND], Decoding(beam_size=4, n_best=3))
    joined = [f"{first[k].text} {second[k].text}" for k in range(3)]
    assert answer.json()["translatedText"] == joined[0]
    assert answer.json()["alternatives"] == [text for text in dict.fromkeys(joined[1:]) if text != joined[0]]


def test_v1_n_best_scores_are_the_sums_of_the_sentences(client, model_and_tokenizer, reached):
    answer = client.post("/v1/translate", json={"text": PARAGRAPH, "n_best": 2}).json()
    assert reached == [FIRST, SECOND]
    first, second = translate_n_best(*model_and_tokenizer, [FIRST, SECOND], Decoding(beam_size=4, n_best=2))
    assert answer["translations"] == [f"{first[0].text} {second[0].text}"]
    for k, hypothesis in enumerate(answer["hypotheses"][0]):
        assert hypothesis["text"] == f"{first[k].text} {second[k].text}"
        assert hypothesis["score"] == pytest.approx(first[k].score + second[k].score, abs=1e-3)
        assert hypothesis["log_prob"] == pytest.approx(first[k].log_prob + second[k].log_prob, abs=1e-3)


def test_v1_alignment_numbers_the_second_sentences_words_after_the_firsts(client, model_and_tokenizer):
    answer = client.post("/v1/translate", json={"text": PARAGRAPH, "return_alignments": True}).json()
    translations = each_alone(model_and_tokenizer)
    first, second = align(*model_and_tokenizer, [FIRST, SECOND], translations)
    words_before = (len(FIRST.split()), len(translations[0].split()))  # 3 source words, 3 target words
    pairs = first + [(s + words_before[0], t + words_before[1]) for s, t in second]
    assert answer["hypotheses"][0][0]["alignment"] == pharaoh(pairs)


def test_v1_alignment_numbers_the_words_of_the_whole_text_where_sentences_touch(client):
    """Counted on from one sentence to the next, "runs.A" was two words: pairs went past the last."""
    text = f"{FIRST}{SECOND.capitalize()}"  # "runs.a" is no sentence end to sentencex, "runs.A" is
    hypothesis = client.post("/v1/translate", json={"text": text, "return_alignments": True}).json()["hypotheses"][0][0]
    pairs = [tuple(map(int, pair.split("-"))) for pair in hypothesis["alignment"].split()]
    assert hypothesis["text"].count(" ") == len(hypothesis["text"].split()) - 1  # the translations touch too
    assert max(s for s, _ in pairs) < len(text.split()) and max(t for _, t in pairs) < len(hypothesis["text"].split())


def test_v1_confidence_gives_each_sentences_pieces_in_turn(client):
    answer = client.post("/v1/translate", json={"text": PARAGRAPH, "return_confidence": True}).json()
    pieces = [piece for piece, _ in answer["hypotheses"][0][0]["confidence"]]
    assert pieces.count("</s>") == 2 and pieces[-1] == "</s>"  # each sentence ends with its own
    assert "".join(p for p in pieces if p != "</s>").replace("▁", " ").strip() == answer["translations"][0]


def test_v1_attention_is_one_entry_per_sentence_of_each_text(client, model_and_tokenizer):
    answer = client.post("/v1/translate", json={"texts": [PARAGRAPH, "a bird sings"],
                                                "return_attention": True}).json()
    paragraph, single = answer["attention"]
    assert [(each["sentence"], each["translation"]) for each in paragraph] == list(zip(
        [FIRST, SECOND], each_alone(model_and_tokenizer), strict=True))
    assert [each["sentence"] for each in single] == ["a bird sings"]
    assert "hypotheses" not in answer  # attention alone asks for no hypotheses


def test_v1_prefix_starts_the_first_sentences_translation_only(client, model_and_tokenizer):
    answer = client.post("/v1/translate", json={"text": PARAGRAPH, "prefix": "zwei"}).json()
    [prefixed] = translate(*model_and_tokenizer, [FIRST], prefix="zwei")
    assert answer["translations"] == [f"{prefixed} {each_alone(model_and_tokenizer)[1]}"]


def test_the_stream_translates_sentence_after_sentence_and_ends_with_the_paragraph(client, model_and_tokenizer,
                                                                                   reached):
    events = stream(client, {"q": PARAGRAPH, "beam": 1})
    assert reached == [FIRST, SECOND]
    first, second = each_alone(model_and_tokenizer, beam=1)
    texts = [data["translatedText"] for _, data in events]
    assert events[-1][0] == "done"
    assert translated_text(events[-1][1]) == {"translatedText": f"{first} {second}"}
    assert first in texts  # the first sentence done, the second not begun
    assert any(text.startswith(first + " ") and text != texts[-1] for text in texts)  # the second growing after it
    assert all(later.startswith(earlier) for earlier, later in pairwise(texts))  # greedy: each extends the last


def test_the_streams_end_is_what_translate_answers_for_a_paragraph(client):
    events = stream(client, {"q": PARAGRAPH, "source": "en", "target": "de"})
    answer = client.post("/translate", json={"q": PARAGRAPH, "source": "en", "target": "de"}).json()
    assert events[-1] == ("done", answer)


def test_the_token_limit_applies_to_each_sentence(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    paragraph = " ".join([FIRST] * model.config.longest_input)  # far more tokens than the model reads
    served = ServedModel(*model_and_tokenizer, "tiny-en-de", "en", "de")
    served.check_texts([("q", paragraph)], ServeSettings(max_chars=len(paragraph), max_request_chars=len(paragraph)))
    assert len(tokenizer.encode(paragraph)) > model.config.longest_input  # refused before: one "sentence"
