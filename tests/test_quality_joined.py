"""A line's Assessment read whole (attnmt.decoding.quality_joined.read_whole): the verbatim rule over the line and
its translation, taken from its sentence's features where that one sentence read the same texts."""

import dataclasses
import importlib
import json

from support import run_cli

from attnmt.decoding import dictated

quality = importlib.import_module("attnmt.decoding.quality")  # the module, not the package's names

LINES = ["a dog runs", "the boy laughs", "a cat sleeps. two dogs run", "the boy laughs at http://example.org 3 times",
         "a man rides a bike 2 times"]


def test_a_line_of_one_sentence_runs_the_verbatim_rule_once_and_its_jsonl_is_unchanged(trained_model, tmp_path,
                                                                                         monkeypatch, capsys):
    """Each line of one sentence was read by the rule twice, in its sentence's features (features_of) and whole
    (read_whole), with the same texts.  Now once; a line of two sentences, and one whose sentence the model read
    without its URL, are read whole again.  The JSONL is byte for byte what the rule run again writes."""
    source = tmp_path / "in.txt"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    command = ["translate", "--model", trained_model, "--beam", "2", "--n-best", "2", "--output-format", "jsonl",
               source]
    read, differs = [], dictated.differs

    def counted(source: str, translation: str, *languages: str | None) -> bool:
        read.append((source, translation))
        return differs(source, translation, *languages)

    monkeypatch.setattr(dictated, "differs", counted)
    code, once, _ = run_cli(command, capsys)
    records = [json.loads(line) for line in once.splitlines()]
    assert code == 0 and [len(r["hypotheses"]) for r in records] == [2] * len(LINES)
    assert "verbatim" in records[3]["hypotheses"][0]["flags"]  # the URL moved: the rule read the line whole
    texts = [(line, h["text"]) for line, r in zip(LINES, records, strict=True) for h in r["hypotheses"]]
    for pair in texts:  # once each: in the features of a line of one sentence, whole for the others
        assert read.count(pair) == 1, pair

    features_of = quality.features_of
    monkeypatch.setattr(quality, "features_of",
                        lambda *a, **k: dataclasses.replace(features_of(*a, **k), verbatim_read=None))
    read.clear()
    code, again, _ = run_cli(command, capsys)
    assert code == 0 and again == once and read.count(texts[0]) == 2  # the rule run again: the same bytes
