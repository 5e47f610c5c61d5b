"""A line's Assessment read whole (attnmt.decoding.quality_joined.read_whole): the verbatim and language rules over
the line and its translation, taken from its sentence's features where that one sentence read the same texts, and from
the hypotheses before it where they read the same (an n-best list joining the same text in each); and a name's source
kept in every hypothesis assessed once (sentence_parts.hypotheses_kept)."""

import dataclasses
import importlib
import json

from support import run_cli

from attnmt.decoding import Decoding
from attnmt.decoding.quality import Assessor, assess
from attnmt.decoding.translate import translate_n_best
from attnmt.decoding.unread import copy_assessment
from attnmt.documents.paragraphs import translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions

quality = importlib.import_module("attnmt.decoding.quality")  # the module, not the package's names
features_module = importlib.import_module("attnmt.decoding.quality_features")
joined_module = importlib.import_module("attnmt.decoding.quality_joined")

EN_DE = ("en", "de")
SEARCH = Decoding(beam_size=3, n_best=3)
# A field's name the tiny model garbles, so that every hypothesis keeps its source (sentence_parts.hypotheses_kept),
# and a count passed through, one hypothesis: each of the three hypotheses joins the same text.
NAMED = "BENEFITS: 12"
LINES = ["a dog runs", "the boy laughs", "a cat sleeps. two dogs run", "the boy laughs at http://example.org 3 times",
         "a man rides a bike 2 times"]


def test_a_line_of_one_sentence_runs_the_verbatim_rule_once_and_its_jsonl_is_unchanged(trained_model, tmp_path,
                                                                                         monkeypatch, capsys,
                                                                                         verbatim_reads):
    """Each line of one sentence was read by the rule twice, in its sentence's features (features_of) and whole
    (read_whole), with the same texts.  Now once; a line of two sentences, and one whose sentence the model read
    without its URL, are read whole again.  The JSONL is byte for byte what the rule run again writes."""
    source = tmp_path / "in.txt"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    command = ["translate", "--model", trained_model, "--beam", "2", "--n-best", "2", "--output-format", "jsonl",
               source]
    read = verbatim_reads
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


def named_hypotheses(model_and_tokenizer) -> list:
    """The three hypotheses of NAMED, assessed, as attnmt.decoding.translate_n_best gives them (cut in its parts)."""
    model, tokenizer = model_and_tokenizer
    return translate_n_best(model, tokenizer, [NAMED], SEARCH, quality=Assessor(languages=EN_DE))[0]


def test_hypotheses_of_a_sentence_joining_the_same_text_read_it_whole_once(model_and_tokenizer, verbatim_reads,
                                                                          rules_read_again):
    """sentence_parts.joined_hypotheses read each hypothesis whole: the same text three times.  Now once; read again
    each time, the hypotheses are assessed the same."""
    found = named_hypotheses(model_and_tokenizer)
    assert [h.text for h in found] == [NAMED] * 3 and verbatim_reads.count((NAMED, NAMED)) == 1
    rules_read_again()
    assert [h.assessment.fields() for h in named_hypotheses(model_and_tokenizer)] == [h.assessment.fields()
                                                                                     for h in found]


def test_a_names_source_kept_in_every_hypothesis_is_assessed_once(model_and_tokenizer, verbatim_reads):
    """Each hypothesis of the name "BENEFITS" gives back its source: one pair, which had a forced pass and its features
    once a hypothesis (its verbatim rule read three times).  Each keeps a copy's assessment."""
    found = named_hypotheses(model_and_tokenizer)
    assert verbatim_reads.count(("BENEFITS", "BENEFITS")) == 1
    assert [h.assessment.fields() for h in found] == [{"quality": 1.0, "flags": [], "calibrated": False}] * 3


def test_a_paragraphs_hypotheses_joining_the_same_text_read_it_whole_once(model_and_tokenizer, verbatim_reads,
                                                                         rules_read_again):
    """A plain text's hypotheses (documents.paragraphs.paragraph), its sentences "BENEFITS" and "12": the same text
    read whole once, not once a hypothesis; the same assessments as read again each time."""
    model, tokenizer = model_and_tokenizer
    texts = [NAMED, "a dog runs. 12"]

    def assessed() -> list[list[dict]]:
        found = translate_texts_n_best(model, tokenizer, texts, SEARCH, DocumentOptions(source_lang="en"),
                                       quality=Assessor(languages=EN_DE))
        return [[h.assessment.fields() for h in each.hypotheses] for each in found]

    once = assessed()
    assert verbatim_reads.count((NAMED, NAMED)) == 1
    rules_read_again()
    assert assessed() == once


def test_a_jsonl_records_hypotheses_joining_the_same_text_read_it_whole_once(trained_model, tmp_path, capsys,
                                                                            verbatim_reads, rules_read_again):
    """A JSONL record cut at its field's name (attnmt.cli.jsonl_breaks): its hypotheses, each the same text, read
    whole once; the JSONL is byte for byte what reading it again each time writes."""
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"text": text}) + "\n" for text in [NAMED, "a dog runs\nthe boy laughs"]),
                      encoding="utf-8")
    command = ["translate", "--model", trained_model, "--beam", "3", "--n-best", "3", "--input-format", "jsonl",
               "--output-format", "jsonl", source]
    code, once, _ = run_cli(command, capsys)
    assert code == 0 and [h["text"] for h in json.loads(once.splitlines()[0])["hypotheses"]] == [NAMED] * 3
    assert verbatim_reads.count((NAMED, NAMED)) == 1
    rules_read_again()
    assert run_cli(command, capsys)[1] == once


def test_a_line_of_one_sentence_runs_the_language_rule_once(model_and_tokenizer, monkeypatch):
    """Its sentence's features read the language rule over the same texts as the line read whole, which read it
    again where the sentence's flag was not raised: each hypothesis's translation was read twice, now once."""
    read, in_other_language = [], features_module.in_other_language

    def spy(translation: str, target: str | None) -> bool:
        read.append(translation)
        return in_other_language(translation, target)

    for module in (features_module, joined_module):
        monkeypatch.setattr(module, "in_other_language", spy)
    model, tokenizer = model_and_tokenizer
    found = translate_texts_n_best(model, tokenizer, ["a dog runs", "the boy laughs"], SEARCH,
                                   DocumentOptions(source_lang="en"), quality=Assessor(languages=EN_DE))
    texts = [h.text for each in found for h in each.hypotheses]
    assert len(texts) == 6 and all(read.count(text) == 1 for text in texts), read


def test_the_language_rules_finding_is_taken_as_the_sentence_read_it(model_and_tokenizer, rules_read_again):
    """A translation in the source's language breaks the language rule: read whole again without its flag (a copy's
    assessment has none), the finding its features kept raises it as the rule run again does."""
    model, tokenizer = model_and_tokenizer
    source, translation = "a dog runs", "the dog is running in the park and the boy laughs"
    found = copy_assessment(assess(model, tokenizer, [source], [translation], languages=EN_DE)[0])
    taken = joined_module.read_whole(found, source, translation, quality.Languages(*EN_DE))
    rules_read_again()
    assert taken.flags == ["language"] == joined_module.read_whole(found, source, translation,
                                                                  quality.Languages(*EN_DE)).flags
