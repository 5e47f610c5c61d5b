"""``attnmt.translate`` and ``attnmt.translate_n_best`` (attnmt.documents.sentence_translate): a URL, an emoji or a
path inside a sentence kept out of what the model reads and placed in its translation, as ``attnmt translate``
places them in a text line and a JSONL text."""

import json
from dataclasses import replace

import pytest
from support import failing_on, run_cli, write

import attnmt
import attnmt.decoding.translate as search
from attnmt.decoding import Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.quality import Assessor
from attnmt.documents import translate_text
from attnmt.documents.sentence_translate import translate, translate_n_best
from attnmt.errors import ConfigError

# the model reads "a dog runs" alone of each, and "a dog runs" of none of the last three, which pass through whole
INSIDE = ["a dog https://example.com/a?b=1 runs", "a dog 😀 runs", "a dog runs /home/john/report.docx",
          " a dog runs ", "https://example.com", "😀", "42"]


def test_a_url_an_emoji_or_a_path_inside_a_sentence_is_kept_where_the_command_keeps_it(model_and_tokenizer, reached):
    """The model read the URL as words and the emoji as unknown: the Python call lost both (the demo model wrote
    "Ein nasser Krünzzel." for "We love it 😀 so much."), where a text line kept them."""
    model, tokenizer = model_and_tokenizer
    translated = translate(model, tokenizer, INSIDE)
    assert translated == translate_text(model, tokenizer, INSIDE)
    assert "https://example.com/a?b=1" in translated[0] and "😀" in translated[1] and "report.docx" in translated[2]
    assert translated[3:] == [" ein hund rennt ", "https://example.com", "😀", "42"]
    assert set(reached) - {""} == {"a dog runs"}


def test_the_package_s_translate_is_this_one_and_a_jsonl_text_reads_alike(model_and_tokenizer, trained_model, tmp_path,
                                                                          capsys):
    model, tokenizer = model_and_tokenizer
    assert attnmt.translate is translate and attnmt.translate_n_best is translate_n_best
    source = write(tmp_path / "in.jsonl", "".join(json.dumps({"text": text}) + "\n" for text in INSIDE))
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "jsonl", source], capsys)
    found = [json.loads(line)["hypotheses"][0]["text"] for line in out.splitlines()]
    assert code == 0 and found == translate(model, tokenizer, INSIDE)


def test_n_best_hypotheses_each_keep_what_the_model_did_not_read(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    found = translate_n_best(model, tokenizer, INSIDE, Decoding(beam_size=3, n_best=2), quality=Assessor())
    assert [each[0].text for each in found] == translate(model, tokenizer, INSIDE)
    assert all("😀" in h.text for h in found[1]) and len(found[1]) == 2
    assert [(h.text, h.score, h.quality, h.flags) for each in found[4:] for h in each] == [
        (text, 0.0, 1.0, []) for text in INSIDE[4:]]


def test_a_quality_that_is_no_assessor_is_refused_before_a_copy_is_assessed_with_it(model_and_tokenizer):
    """``quality=True`` was an AttributeError ("'bool' object has no attribute 'assess'") where a sentence passes
    through, before the search's own check could refuse it."""
    model, tokenizer = model_and_tokenizer
    with pytest.raises(ConfigError, match="^quality: expected an attnmt.Assessor"):
        translate_n_best(model, tokenizer, ["https://example.com"], quality=True)


def test_where_the_model_fails_on_a_sentence_the_others_outputs_are_written_in_its_error(model_and_tokenizer,
                                                                                         monkeypatch):
    """SentencesFailed holds the other sentences' translations as the call would have returned them: their emoji
    and URLs placed, a sentence passed through as itself."""
    model, tokenizer = model_and_tokenizer
    failing_on(model, tokenizer, "the boy laughs", monkeypatch)
    sentences = ["the boy 😀 laughs", INSIDE[1], "42"]
    with pytest.raises(SentencesFailed) as failed:
        translate(model, tokenizer, sentences)
    assert list(failed.value.failures) == [0]
    assert failed.value.outputs == ["", translate_text(model, tokenizer, [INSIDE[1]])[0], "42"]
    with pytest.raises(SentencesFailed) as failed:
        translate_n_best(model, tokenizer, sentences)
    assert failed.value.outputs[0] == [] and "😀" in failed.value.outputs[1][0].text
    assert failed.value.outputs[2][0].text == "42"


def test_a_no_break_space_between_two_words_is_kept_between_their_translations_as_a_text_line_keeps_it(
        model_and_tokenizer):
    """A sentence the model read as it was came back as the model wrote it, a plain space for the source's
    no-break one (whole_sentence.with_symbols), where a text line kept it (attnmt.documents.no_break_spaces)."""
    model, tokenizer = model_and_tokenizer
    lines = ["a dog\u00a0runs", "a cat\u202fsleeps"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    # Where the narrow one lands follows the tiny model's alignment, which differs by CPU: only the first is fixed.
    assert translated[0] == "ein hund\u00a0rennt"


def with_stop(text: str) -> str:
    """``text`` ending in one full stop, inside its closing quotes."""
    words = text.rstrip('"')
    return words.rstrip(".") + "." + text[len(words):]


@pytest.fixture
def stopping(monkeypatch):
    """The search's every hypothesis ending in a full stop, as a model trained on whole sentences writes one: the
    demo model wrote "Ein Hund." for "dog"."""
    best, n_best = search.translate, search.translate_n_best
    monkeypatch.setattr(search, "translate", lambda *args, **kw: [with_stop(t) for t in best(*args, **kw)])
    monkeypatch.setattr(search, "translate_n_best", lambda *args, **kw: [
        [replace(h, text=with_stop(h.text)) for h in each] for each in n_best(*args, **kw)])


def test_a_sentence_without_a_stop_gets_none_from_the_model_as_a_text_line_gets_none(model_and_tokenizer, stopping):
    """The model's full stop was kept where the source had none (``attnmt.translate(m, t, ["dog", '"Dog"'])`` gave
    "Ein Hund." and '"Ein Hund."'), while ``attnmt translate`` wrote "Ein Hund" (attnmt.documents.stops); a
    sentence that ends in a stop or an ellipsis ends in it."""
    model, tokenizer = model_and_tokenizer
    sentences = ["a dog runs", '"a dog runs"', "a dog runs.", "a dog runs..."]
    expected = ["ein hund rennt", '"ein hund rennt"', "ein hund rennt.", "ein hund rennt..."]
    assert translate(model, tokenizer, sentences) == expected
    found = translate_n_best(model, tokenizer, sentences, Decoding(beam_size=3, n_best=2))
    assert [each[0].text for each in found] == expected
    assert all(not h.text.rstrip('"').endswith(".") for each in found[:2] for h in each) and len(found[0]) == 2


DIALOGUE = ["GUEST: A dog runs", "HOST: A cat sleeps", "GUEST: oh, a dog runs"]


def test_a_name_that_speaks_in_another_sentence_keeps_its_label_before_words_in_lower_case(model_and_tokenizer,
                                                                                           reached):
    """Each sentence was read alone, so "GUEST:" of "GUEST: oh, a dog runs", a speaker's only for the turn before
    it, reached the model: the demo model wrote "GUEST: oh, years ago." as "Auf diesem Stänensssungs.", where a text
    line of the same lines kept "GUEST:"."""
    model, tokenizer = model_and_tokenizer
    translated = translate(model, tokenizer, DIALOGUE)
    assert translated == translate_text(model, tokenizer, DIALOGUE)
    assert translated[2].startswith("GUEST: ")
    assert not {"GUEST", "HOST"} & {word.strip(":,").upper() for each in reached for word in each.split()}


def test_a_jsonl_texts_name_that_speaks_in_another_text_keeps_its_label(model_and_tokenizer, trained_model, tmp_path,
                                                                        capsys):
    model, tokenizer = model_and_tokenizer
    source = write(tmp_path / "in.jsonl", "".join(json.dumps({"text": text}) + "\n" for text in DIALOGUE))
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "jsonl", source], capsys)
    found = [json.loads(line)["hypotheses"][0]["text"] for line in out.splitlines()]
    assert code == 0 and found == translate_text(model, tokenizer, DIALOGUE) and found[2].startswith("GUEST: ")
