"""attnmt.cli.recent: a line repeated in a stream's batches, or in JSONL, is searched once."""

import argparse

import pytest

from attnmt.cli.lines import Inputs
from attnmt.cli.recent import Recent, Remembering, once
from attnmt.cli.translate_jsonl import job_keys, searched_once
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.glossary import Glossary
from attnmt.documents.pipeline import translate_lines


class Counting:
    """A stand-in Translator: each sentence upper-cased, every sentence it is sent counted."""

    glossary = None

    def __init__(self) -> None:
        self.sent: list[str] = []

    def translate(self, sentences, weighed):
        self.sent += sentences
        return [s.upper() for s in sentences], [None] * len(sentences)


def test_a_stream_searches_a_sentence_repeated_across_its_batches_once():
    counting = Counting()
    remembering = Remembering(counting)
    first = translate_lines(["A dog runs.", "A cat sleeps.", "A dog runs."], remembering)
    second = translate_lines(["A cat sleeps.", "A bird sings."], remembering)  # the next batch
    assert first == ["A DOG RUNS.", "A CAT SLEEPS.", "A DOG RUNS."]
    assert second == ["A CAT SLEEPS.", "A BIRD SINGS."]
    assert counting.sent == ["A dog runs.", "A cat sleeps.", "A bird sings."]


def test_recent_lets_the_least_recently_used_go():
    recent = Recent(size=2)
    recent.put("a", 1)
    recent.put("b", 2)
    recent.get("a")  # used: "b" is now the oldest
    recent.put("c", 3)
    assert list(recent.entries) == ["a", "c"]


def test_once_searches_each_distinct_key_once_and_a_none_key_each_time():
    sent = []

    def search(at):
        sent.extend(at)
        return [f"t{i}" for i in at]

    recent = Recent()
    assert once(search, ["x", "y", "x", None, None], recent) == ["t0", "t1", "t0", "t3", "t4"]
    assert once(search, ["y", "z"], recent) == ["t1", "t1"]  # "y" kept from the call before
    assert sent == [0, 1, 3, 4, 1]


def test_once_names_every_line_of_a_failed_key():
    def search(at):
        error = SentencesFailed({0: ValueError("bad")})  # the first line searched: line 0, key "x"
        error.outputs = ["" if j == 0 else "ok" for j in range(len(at))]
        raise error

    recent = Recent()
    with pytest.raises(SentencesFailed) as failed:
        once(search, ["x", "y", "x"], recent)
    assert sorted(failed.value.failures) == [0, 2]
    assert failed.value.outputs == ["", "ok", ""]
    assert list(recent.entries) == ["y"]  # a failed line is not kept


def jsonl_calls(options: Decoding) -> list[list[tuple[str, object, object]]]:
    """The (sentence, glossary, prefix) searches of two JSONL batches, each line's guides its own."""
    shared = Glossary.of({"cat": "Katze"})
    own = Glossary.of({"dog": "Hund"})
    batches = [Inputs(["A dog.", "A dog.", "A dog.", "A dog.", "A cat."], [shared, own, shared, own, shared],
                      [None, None, "Ein", None, None]),
               Inputs(["A dog.", "A cat.", "A bird."], [Glossary.of({"dog": "Hund"}), shared, shared],
                      [None, None, None])]
    calls, args = [], argparse.Namespace()

    def search(sentences, glossary, prefix):
        calls.append(list(zip(sentences, glossary, prefix, strict=True)))
        return [s.upper() for s in sentences]

    for first_line, inputs in ((1, batches[0]), (6, batches[1])):
        keys = job_keys(inputs.texts, inputs, shared, options)
        found = searched_once(args, search, inputs.texts, dict(glossary=inputs.glossaries, prefix=inputs.prefixes),
                              "in.jsonl", first_line, keys)()
        assert found == [text.upper() for text in inputs.texts]
    return calls


def test_jsonl_searches_a_line_once_per_text_glossary_and_prefix():
    calls = jsonl_calls(DEFAULT)
    # the batch: the same text with another glossary or prefix is another search; the next: one new line
    assert [[sentence for sentence, _, _ in call] for call in calls] == [["A dog.", "A dog.", "A dog.", "A cat."],
                                                                         ["A bird."]]


def test_jsonl_with_sampling_draws_each_line_its_own():
    calls = jsonl_calls(Decoding(beam_size=1, sampling_topk=5))
    assert [len(call) for call in calls] == [5, 3]
