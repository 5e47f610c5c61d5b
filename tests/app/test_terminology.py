"""Glossaries, prefixes and the other decoding options from the command line, the Python API and
the server, on the tiny model that knows its 20 pairs ("a dog runs" -> "ein hund rennt")."""

import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient

from attnmt.cli.main import build_parser, main
from attnmt.cli.options import decoding
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary, read_glossary
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.documents.translators import ModelTranslator
from attnmt.errors import AttnmtWarning, ConfigError, DataError
from attnmt.server.app import ServedModel, create_app


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- Python ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("beam", [1, 3])
def test_a_glossary_puts_its_target_term_into_the_translation(model_and_tokenizer, beam):
    model, tokenizer = model_and_tokenizer
    glossary = Glossary.of({"dog": "katze"})
    texts = translate(model, tokenizer, ["a dog runs", "the boy laughs"], Decoding(beam_size=beam), glossary=glossary)
    assert "katze" in texts[0].split()
    assert texts[1] == "der junge lacht"  # no term in it: translated as without


def test_each_sentence_may_bring_its_own_glossary_and_prefix(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    texts = translate(model, tokenizer, ["a dog runs", "a dog runs"], glossary=[None, Glossary.of({"runs": "schläft"})],
                      prefix=["zwei", None])
    assert texts[0].startswith("zwei") and "schläft" in texts[1].split()


def test_a_glossary_may_be_a_dict_for_all_sentences_or_one_each(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    texts = translate(model, tokenizer, ["a dog runs", "a dog runs"], glossary={"dog": "katze"})
    assert all("katze" in text.split() for text in texts)
    texts = translate(model, tokenizer, ["a dog runs", "a dog runs"], glossary=[{"dog": "katze"}, None])
    assert "katze" in texts[0].split() and texts[1] == "ein hund rennt"


def test_a_term_the_sentence_holds_twice_and_its_translation_once_is_warned_of(model_and_tokenizer):
    """The search requires a target term once: "a" twice in the sentence came out "eine" once, the other "ein",
    silently, and a translation that breaks the glossary passed as one that keeps it."""
    model, tokenizer = model_and_tokenizer
    with pytest.warns(AttnmtWarning) as heard:
        [text] = translate(model, tokenizer, ["a man rides a bike"], glossary={"a": "eine"})
    assert text.split().count("eine") == 1
    [message] = [str(warning.message) for warning in heard]
    start = ("glossary term 'a' occurs 2 times in 'a man rides a bike', and its target term 'eine' once in the "
             "translation '")
    assert message.startswith(start) and message.endswith("': check that translation")
    quoted = message[len(start):-len("': check that translation")]
    assert quoted == text or (quoted.endswith("…") and text.startswith(quoted[:-1]))  # a long one is cut


def test_a_term_the_sentence_holds_twice_and_its_translation_too_is_not_warned_of(model_and_tokenizer, recwarn):
    model, tokenizer = model_and_tokenizer
    assert translate(model, tokenizer, ["a man rides a bike"], glossary={"a": "ein"}) == ["ein mann fährt ein fahrrad"]
    assert not [warning for warning in recwarn if issubclass(warning.category, AttnmtWarning)]


@pytest.mark.parametrize(("glossary", "where", "got"), [
    ("dog\tkatze", "glossary", r"got str 'dog\tkatze'"),
    ([("dog", "katze")], "glossary[0]", "got tuple ('dog', 'katze')"),
])
def test_a_glossary_of_another_type_is_one_config_error_saying_what_to_pass(model_and_tokenizer, glossary, where, got):
    model, tokenizer = model_and_tokenizer
    with pytest.raises(ConfigError) as error:
        translate(model, tokenizer, ["a dog runs"], glossary=glossary)
    message = str(error.value)
    assert message.startswith(f'{where}: expected a Glossary (read_glossary(path), Glossary.of(terms)) or a dict '
                              '{"source term": "target term"}') and message.endswith(got)


def test_n_best_hypotheses_all_hold_the_term(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    [hypotheses] = translate_n_best(model, tokenizer, ["a man reads"], Decoding(beam_size=4, n_best=3),
                                    glossary=Glossary.of({"man": "frau"}))
    assert len(hypotheses) == 3 and all("frau" in h.text.split() for h in hypotheses)


def test_a_term_longer_than_any_translation_is_left_out_with_one_warning(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    too_long = " ".join(["katze"] * model.config.longest_input)  # a piece or more a word
    with pytest.warns(AttnmtWarning) as caught:
        texts = translate(model, tokenizer, ["a dog runs", "a dog runs"], glossary=Glossary.of({"dog": too_long}))
    assert texts == ["ein hund rennt"] * 2  # as without the glossary
    [warning] = [w for w in caught if "glossary target term" in str(w.message)]
    assert "'katze katze katze" in str(warning.message) and "it is left out" in str(warning.message)


def test_a_glossary_files_term_longer_than_any_translation_is_warned_of_naming_its_line(model_and_tokenizer, tmp_path):
    """The warning named the target term alone: a user had to search a termbase of thousands of lines for it."""
    model, tokenizer = model_and_tokenizer
    path = tmp_path / "terms.tsv"
    path.write_text("man\tfrau\ndog\t" + " ".join(["katze"] * model.config.longest_input) + "\n", encoding="utf-8")
    with pytest.warns(AttnmtWarning) as caught:
        translate(model, tokenizer, ["a dog runs"], glossary=read_glossary(path))
    [warning] = [w for w in caught if "glossary target term" in str(w.message)]
    assert str(warning.message).startswith(f"{path}:2: glossary target term 'katze katze katze")

def test_a_target_term_the_vocabulary_cannot_write_is_refused_before_translating(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    with pytest.raises(DataError, match="glossary target term 'Xylophon': the model's target vocabulary cannot"):
        translate(model, tokenizer, ["the boy laughs"], glossary=Glossary.of({"dog": "Xylophon"}))


def test_a_prefix_the_vocabulary_cannot_write_is_refused_before_translating(model_and_tokenizer):
    # its vocabulary has no capital letters: " ⁇ ylophon" would start the translation
    model, tokenizer = model_and_tokenizer
    with pytest.raises(DataError, match="prefix 'Xylophon': the model's target vocabulary cannot write it"):
        translate(model, tokenizer, ["the boy laughs", "a dog runs"], prefix=[None, "Xylophon"])


def test_sampling_with_a_seed_gives_the_same_translations_twice(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    sampled = Decoding(beam_size=1, sampling_topk=0, sampling_temperature=3.0, seed=5)
    first = translate(model, tokenizer, ["a dog runs"] * 8, sampled)
    assert translate(model, tokenizer, ["a dog runs"] * 8, sampled) == first
    [[scored]] = translate_n_best(model, tokenizer, ["a dog runs"], sampled)
    assert scored.log_prob < 0


def test_sampling_with_a_glossary_is_refused_whether_or_not_a_sentence_holds_a_term(model_and_tokenizer):
    """Only a sentence with a term was refused: "the boy laughs" was sampled, "a dog runs" stopped."""
    model, tokenizer = model_and_tokenizer
    sampled = Decoding(beam_size=1, sampling_topk=0, seed=3)
    for glossary in (Glossary.of({"dog": "katze"}), [None, {"dog": "katze"}]):
        with pytest.raises(ConfigError, match="the glossary needs beam search .*: leave out sampling_topk, or the"):
            translate(model, tokenizer, ["the boy laughs", "the boy laughs"], sampled, glossary=glossary)
    with pytest.raises(ConfigError, match="the glossary needs beam search"):
        ModelTranslator(model, tokenizer, sampled, glossary={"dog": "katze"})
    assert translate(model, tokenizer, ["the boy laughs"], sampled, glossary=Glossary()) == translate(
        model, tokenizer, ["the boy laughs"], sampled)  # an empty glossary is none


# --- the command line ----------------------------------------------------------------------------


def test_every_decoding_flag_becomes_its_decoding_field():
    args = build_parser().parse_args([
        "translate", "--model", "m", "--beam", "1", "--min-len", "2", "--sampling-topk", "5", "--sampling-topp",
        "0.9", "--sampling-temperature", "0.7", "--seed", "3", "--no-repeat-ngram-size", "3",
        "--repetition-penalty", "1.2", "--disable-unk"])
    assert decoding(args) == Decoding(beam_size=1, min_len=2, sampling_topk=5, sampling_topp=0.9,
                                      sampling_temperature=0.7, seed=3, no_repeat_ngram_size=3,
                                      repetition_penalty=1.2, disable_unk=True)


def test_translate_with_a_glossary_file(trained_model, tmp_path, capsys):
    (tmp_path / "terms.tsv").write_text("# our terms\nDog\tkatze\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("a dog runs\nthe boy laughs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--glossary", tmp_path / "terms.tsv",
                        tmp_path / "in.txt"], capsys)
    lines = out.splitlines()
    assert code == 0 and "katze" in lines[0].split() and lines[1] == "der junge lacht"


def test_translate_with_two_glossary_files_uses_the_terms_of_both(trained_model, tmp_path, capsys):
    """The second --glossary replaced the first: "dog" came out "hund", not the first file's term."""
    (tmp_path / "a.tsv").write_text("dog\tkatze\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("runs\tschläft\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--glossary", tmp_path / "a.tsv", "--glossary",
                        tmp_path / "b.tsv", tmp_path / "in.txt"], capsys)
    assert code == 0 and {"katze", "schläft"} <= set(out.split())


def test_a_term_two_glossary_files_give_two_targets_is_one_line_naming_both(trained_model, tmp_path, capsys):
    (tmp_path / "a.tsv").write_text("dog\tkatze\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("dog\thund\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--glossary", tmp_path / "a.tsv", "--glossary",
                        tmp_path / "b.tsv"], capsys)
    assert code == 2 and err == (f"attnmt: error: {tmp_path / 'b.tsv'}:1: source term 'dog' has two target terms, "
                                 f"'katze' ({tmp_path / 'a.tsv'}:1) and 'hund'\n")


def test_a_malformed_glossary_line_stops_with_file_and_line(trained_model, tmp_path, capsys):
    (tmp_path / "terms.tsv").write_text("dog\tkatze\ncat  katze\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--glossary", tmp_path / "terms.tsv"], capsys)
    assert code == 2 and f"{tmp_path / 'terms.tsv'}:2: expected 'source term<TAB>target term'" in err
    assert len(err.strip().splitlines()) == 1


def test_jsonl_input_brings_each_lines_glossary_and_prefix(trained_model, tmp_path, capsys):
    lines = [{"text": "a dog runs", "glossary": {"dog": "katze"}}, {"text": "the boy laughs", "prefix": "der mann"},
             {"text": "a cat sleeps"}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "jsonl", "--output-format", "jsonl",
                        "--alignments", "--confidence", tmp_path / "in.jsonl"], capsys)
    records = [json.loads(line)["hypotheses"][0] for line in out.splitlines()]
    assert code == 0 and "katze" in records[0]["text"].split() and records[0]["alignment"]
    assert records[1]["text"].startswith("der mann") and records[2]["text"] == "eine katze schläft"


def test_a_prefix_the_vocabulary_cannot_write_is_one_line_naming_where_it_came_from(trained_model, tmp_path,
                                                                                  capsys):
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--prefix", "日本", tmp_path / "in.txt"], capsys)
    assert code == 2 and out == ""
    assert err == ("attnmt: error: --prefix '日本': the model's target vocabulary cannot write it (it has characters "
                   "with no piece); change the prefix or leave it out\n")
    lines = [{"text": "a dog runs", "prefix": "ein"}, {"text": "the boy laughs", "prefix": "日本"}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", tmp_path / "in.jsonl"],
                         capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"""{tmp_path / 'in.jsonl'}:2: "prefix" '日本': the model's target vocabulary cannot write it""" in err


def test_a_glossary_term_the_vocabulary_cannot_write_is_one_line_naming_where_it_came_from(trained_model, tmp_path,
                                                                                         capsys):
    terms, source = tmp_path / "terms.tsv", tmp_path / "in.txt"
    terms.write_text("cat\tkatze\ndog\t日本\n", encoding="utf-8")
    source.write_text("a dog runs\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--glossary", terms, source], capsys)
    assert code == 2 and out == ""
    assert err == (f"attnmt: error: {terms}:2: glossary target term '日本': the model's target vocabulary cannot write "
                   "it (it has characters with no piece); change the term or leave it out\n")
    lines = [{"text": "a dog runs"}, {"text": "a cat sleeps", "glossary": {"cat": "katze"}},
             {"text": "a dog runs", "glossary": {"dog": "日本"}}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", tmp_path / "in.jsonl"],
                         capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{tmp_path / 'in.jsonl'}:3: glossary target term '日本': the model's target vocabulary" in err


@pytest.mark.parametrize(("line", "message"), [
    (r'{"text": "a dog runs", "glossary": {"dog": "\ud800"}}', r"glossary target term '\ud800' is not valid Unicode"),
    (r'{"text": "a dog runs", "glossary": {"d\udfffog": "hund"}}', r"glossary source term 'd\udfffog' is not valid"),
    (r'{"text": "a dog runs", "prefix": "ein \ud800"}', '"prefix" is not valid Unicode (it has an unpaired surrogate)'),
    (r'{"text": "a cat \ud800 runs"}', '"text" is not valid Unicode (it has an unpaired surrogate)'),
])
def test_a_jsonl_line_with_an_unpaired_surrogate_stops_with_file_line_and_field(trained_model, tmp_path, capsys, line,
                                                                                 message):
    (tmp_path / "in.jsonl").write_text('{"text": "a dog runs"}\n' + line + "\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", tmp_path / "in.jsonl"],
                         capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {tmp_path / 'in.jsonl'}:2: {message}")


def test_a_source_term_given_twice_in_a_jsonl_glossary_is_refused_as_a_term_with_two_targets(trained_model, tmp_path,
                                                                                              capsys):
    """JSON kept the last ("hund"), silently, while {"Dog": …, "dog": …} was refused."""
    lines = ['{"text": "a dog runs", "glossary": {"dog": "katze", "dog": "katze"}}',
             '{"text": "a dog runs", "glossary": {"dog": "katze", "dog": "hund"}}']
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", tmp_path / "in.jsonl"],
                         capsys)
    assert code == 2 and out == ""
    assert err == (f"attnmt: error: {tmp_path / 'in.jsonl'}:2: source term 'dog' has two target terms, 'katze' and "
                   "'hund'\n")


def test_a_malformed_jsonl_line_stops_with_file_and_line(trained_model, tmp_path, capsys):
    (tmp_path / "in.jsonl").write_text('{"text": "a dog runs"}\n{"text": "x", "glosary": {}}\n', encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", tmp_path / "in.jsonl"],
                       capsys)
    assert code == 2 and "in.jsonl:2: unknown key(s) 'glosary'" in err


@pytest.mark.parametrize("line", ['{"text": "a cat", "prefix": "Xylophon' + "o" * 4000 + '"}',
                                  '{"text": "a cat", "glossary": {"cat": "Xylophon' + "o" * 4000 + '"}}'])
def test_a_long_prefix_or_term_the_model_cannot_write_is_named_in_one_short_line(trained_model, tmp_path, capsys,
                                                                                 line):
    """A 4,000-character prefix gave an error line of 4,000 characters: it is shown cut, with its length."""
    (tmp_path / "in.jsonl").write_text(line + "\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, tmp_path / "in.jsonl"], capsys)
    assert code == 2 and "'Xylophonooo" in err and "… (4,010 characters): the model's target vocabulary cannot" in err
    assert len(err) < 400 and err.count("\n") == 1


@pytest.mark.parametrize(("line", "message"), [
    ('{"text": "a cat"', "not valid JSON (Expecting ',' delimiter at character 16)"),
    ('{"text": "a cat", "prefix": "Xylophon"}', "\"prefix\" 'Xylophon': the model's target vocabulary cannot write it"),
    ('{"text": "a cat", "glossary": {"cat": "Xylophon"}}', "glossary target term 'Xylophon': the model's target "
                                                           "vocabulary cannot write it"),
    ('{"text": "a cat", "glossary": {"cat": "katze  hund"}}', "glossary target term 'katze  hund': the model's "
                                                              "target vocabulary writes it as 'katze hund'"),
])
def test_a_malformed_jsonl_line_in_a_stream_comes_after_the_lines_before_it(trained_model, capsys, monkeypatch, line,
                                                                            message):
    """However the pipe splits the input, the output holds every line before the one named (the
    lines read with it were lost; a line's own glossary term was checked only with the whole batch),
    as with invalid UTF-8; a file is refused before any line is translated (the tests above)."""
    read, write = os.pipe()
    os.write(write, ('{"text": "a dog runs"}\n{"text": "two dogs run"}\n' + line + '\n{"text": "a bird sings"}\n')
             .encode())
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=stream))  # all of it arrives in one read
        code, out, err = run(["translate", "--model", trained_model, "--input-format", "jsonl"], capsys)
    assert code == 2 and out == "ein hund rennt\nzwei hunde rennen\n"
    assert err.startswith(f"attnmt: error: <stdin>:3: {message}") and err.count("\n") == 1


def test_a_glossary_term_the_vocabulary_cannot_write_is_refused_before_any_input_is_read(trained_model, tmp_path,
                                                                                         capsys, monkeypatch):
    """--glossary's terms are checked up front, as --prefix is: they were checked with the first
    batch, so a run with no input (or a pipe yet to send any) went on without a word."""
    (tmp_path / "terms.tsv").write_text("cat\tkatze\ndog\tkatze  hund\n", encoding="utf-8")
    read, write = os.pipe()
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=stream))
        code, out, err = run(["translate", "--model", trained_model, "--glossary", tmp_path / "terms.tsv"], capsys)
    assert code == 2 and out == ""
    assert err == (f"attnmt: error: {tmp_path / 'terms.tsv'}:2: glossary target term 'katze  hund': the model's "
                   "target vocabulary writes it as 'katze hund'; write the term that way\n")


# --- the server ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(model_and_tokenizer):
    app = create_app([ServedModel(*model_and_tokenizer, "tiny-en-de")])
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_the_server_takes_a_glossary_and_a_prefix(client):
    answer = client.post("/translate", json={"text": "a dog runs", "glossary": {"dog": "katze"}})
    assert answer.status_code == 200 and "katze" in answer.json()["translations"][0].split()
    answer = client.post("/translate", json={"text": "the boy laughs", "prefix": "der mann"})
    assert answer.json()["translations"][0].startswith("der mann")


def test_the_server_takes_the_decoding_options(client):
    body = {"text": "a dog runs", "beam": 1, "sampling_topk": 0, "sampling_temperature": 3.0, "seed": 2,
            "min_len": 1, "no_repeat_ngram_size": 2, "repetition_penalty": 1.1, "disable_unk": True}
    first = client.post("/translate", json=body)
    assert first.status_code == 200 and client.post("/translate", json=body).json() == first.json()


@pytest.mark.parametrize(("body", "message"), [
    ({"text": "a dog runs", "glossary": {"dog": ""}}, "empty target term"),
    ({"text": "a dog runs", "glossary": {"dog": "Xylophon"}}, "cannot write it"),
    ({"text": "a dog runs", "glossary": {"dog": "katze\thund"}}, "writes it as 'katze hund'; write the term that way"),
    ({"text": "a dog runs", "prefix": "Xylophon"}, "prefix 'Xylophon': the model's target vocabulary cannot write it"),
    ({"text": "a dog runs", "sampling_topk": 0}, "sampling draws one translation per sentence: set beam 1 (got 4)"),
    ({"text": "the boy laughs", "beam": 1, "sampling_topk": 0, "glossary": {"dog": "katze"}},
     '"glossary" needs beam search (it steers the search to its terms); sampling draws tokens at random: leave out '
     '"sampling_topk", or "glossary"'),
])
def test_a_glossary_prefix_or_options_that_cannot_work_are_422_with_a_message(client, body, message):
    for path in ("/v1/translate", "/translate"):
        answer = client.post(path, json=body)
        assert answer.status_code == 422 and message in answer.json()["detail"]


def test_a_source_term_given_twice_in_a_requests_glossary_is_422_naming_it(client):
    """pydantic's JSON reading kept the last target ("hund"), silently."""
    body = '{"text": "a dog runs", "glossary": {"dog": "katze", "dog": "%s"}}'
    for path in ("/v1/translate", "/translate"):
        answer = client.post(path, content=body % "hund", headers={"content-type": "application/json"})
        assert answer.status_code == 422
        assert answer.json()["detail"] == "glossary: source term 'dog' has two target terms, 'katze' and 'hund'"
        answer = client.post(path, content=body % "katze", headers={"content-type": "application/json"})
        assert answer.status_code == 200 and "katze" in answer.json()["translations"][0].split()


def test_translate_with_a_prefix_and_with_seeded_sampling(trained_model, tmp_path, capsys):
    (tmp_path / "in.txt").write_text("a dog runs\nthe boy laughs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--prefix", "zwei", tmp_path / "in.txt"], capsys)
    assert code == 0 and all(line.startswith("zwei") for line in out.splitlines())
    sampling = ["translate", "--model", trained_model, "--beam", "1", "--sampling-topk", "0",
                "--sampling-temperature", "3", "--seed", "4", tmp_path / "in.txt"]
    first = run(sampling, capsys)
    assert first[0] == 0 and run(sampling, capsys) == first
    code, _, err = run(sampling[:-1] + ["--beam", "4", tmp_path / "in.txt"], capsys)
    assert code == 2 and "sampling draws one translation per sentence: set --beam 1" in err


def test_sampling_with_a_glossary_is_refused_before_translating_or_at_the_jsonl_line_that_brings_one(
        trained_model, tmp_path, capsys):
    """--glossary with sampling was refused only at a line holding a term, after the lines before it."""
    (tmp_path / "terms.tsv").write_text("dog\tkatze\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("the boy laughs\n", encoding="utf-8")
    sampling = ["translate", "--model", trained_model, "--beam", "1", "--sampling-topk", "0", "--seed", "3"]
    code, out, err = run([*sampling, "--glossary", tmp_path / "terms.tsv", tmp_path / "in.txt"], capsys)
    assert code == 2 and out == ""
    assert err == ("attnmt: error: --glossary needs beam search (it steers the search to its terms); sampling draws "
                   "tokens at random: leave out --sampling-topk, or --glossary\n")
    lines = [{"text": "the boy laughs"}, {"text": "the boy laughs", "glossary": {"dog": "katze"}}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out, err = run([*sampling, "--input-format", "jsonl", tmp_path / "in.jsonl"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"""{tmp_path / 'in.jsonl'}:2: the line's "glossary" needs beam search""" in err


# --- letterless texts --------------------------------------------------------------------------------


def test_a_letterless_line_takes_its_glossary_terms_without_the_model(trained_model, tmp_path, capsys):
    """A line without letters passes through as it is; "2012" with the term 2012 -> katze did too,
    its term silently left out, and then went to the model, which wrote words around the term.  Its
    terms are replaced now, all else kept; a date holding the term is no term.  One with no term
    still passes through."""
    (tmp_path / "terms.tsv").write_text("2012\tkatze\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("2012\n4521 - 2012\n4521\n12/05/2012\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--glossary", tmp_path / "terms.tsv",
                        tmp_path / "in.txt"], capsys)
    assert code == 0 and out.splitlines() == ["katze", "4521 - katze", "4521", "12/05/2012"]


def test_a_letterless_jsonl_line_takes_its_own_glossary_term_scored_as_a_copy(trained_model, tmp_path, capsys):
    """Score 0 and quality 1 without flags, as a letterless line passed through gets: the model wrote none of it."""
    lines = [{"text": "12345", "glossary": {"12345": "katze"}}, {"text": "12345"}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "jsonl", "--output-format", "jsonl",
                        tmp_path / "in.jsonl"], capsys)
    records = [json.loads(line)["hypotheses"][0] for line in out.splitlines()]
    assert code == 0 and [found["text"] for found in records] == ["katze", "12345"]
    assert records[0]["score"] == 0 and records[0]["quality"] == 1 and not records[0].get("flags")


@pytest.mark.parametrize("path", ["/v1/translate", "/translate"])
def test_the_server_gives_a_letterless_text_its_glossary_terms_without_the_model(client, path):
    texts = ["2012", "4521 - 2012", "4521", "12/05/2012"]
    answer = client.post(path, json={"texts": texts, "glossary": {"2012": "katze"}})
    assert answer.status_code == 200
    assert answer.json()["translations"] == ["katze", "4521 - katze", "4521", "12/05/2012"]
    answer = client.post(path, json={"texts": ["2012"], "glossary": {"2012": "katze"}, "n_best": 2})  # the n-best path
    assert answer.status_code == 200 and answer.json()["translations"][0] == "katze"


def test_translate_with_a_termbase_and_a_csv_glossary(english_to_german, tmp_path, capsys):
    """A TBX file's en-US and de-DE terms for the en-de model (its target language the model's, as its
    training files name it), beside a CSV file's; the entry without German is counted in one warning."""
    (tmp_path / "terms.tbx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n'
        '<martif type="TBX" xml:lang="en-US"><text><body>\n'
        '<termEntry id="c1"><langSet xml:lang="en-US"><tig><term>dog</term></tig></langSet>\n'
        '<langSet xml:lang="de-DE"><tig><term>hund</term><termNote type="administrativeStatus">'
        'deprecatedTerm-admn-sts</termNote></tig><tig><term>katze</term></tig></langSet></termEntry>\n'
        '<termEntry id="c2"><langSet xml:lang="en-US"><tig><term>boy</term></tig></langSet></termEntry>\n'
        "</body></text></martif>\n", encoding="utf-8")
    (tmp_path / "terms.csv").write_text('source,target\r\n"runs",schläft\r\n', encoding="utf-8")
    (tmp_path / "in.txt").write_text("a dog runs\nthe boy laughs\n", encoding="utf-8")
    with pytest.warns(AttnmtWarning) as caught:
        code, out, _ = run(["translate", "--model", english_to_german, "--glossary", tmp_path / "terms.tbx",
                            "--glossary", tmp_path / "terms.csv", tmp_path / "in.txt"], capsys)
    lines = out.splitlines()
    assert code == 0 and {"katze", "schläft"} <= set(lines[0].split()) and lines[1] == "der junge lacht"
    assert [str(warning.message) for warning in caught] == [
        f"{tmp_path / 'terms.tbx'}: 1 of 2 entries skipped, without a term in en or in de that is not deprecated "
        f"(the first: {tmp_path / 'terms.tbx'}:6, entry c2)"]


def test_a_termbase_for_a_model_that_names_no_language_is_one_line_asking_for_it(trained_model, tmp_path, capsys):
    termbase = Path(__file__).parents[1] / "fixtures" / "glossaries" / "memoq.tbx"
    code, _, err = run(["translate", "--model", trained_model, "--glossary", termbase], capsys)
    assert code == 2 and err == (f"attnmt: error: {termbase}: a termbase holds terms in several languages, and the "
                                 "target language is not known: give it (--target-lang; read_glossary(path, "
                                 "target_lang=...))\n")
    code, _, err = run(["translate", "--model", trained_model, "--glossary", termbase, "--target-lang", "fr"], capsys)
    assert code == 2 and err == (f"attnmt: error: {termbase}: no entry has a term in both en and fr (the file's "
                                 "languages: de-DE, en-US)\n")


def test_a_file_of_equivalent_term_sets_is_read_in_the_models_languages(english_to_german, trained_model, tmp_path,
                                                                         capsys):
    """Google Cloud Translation's ``en,de,fr`` term sets: the en-de model's columns; for a model that names no
    language, one line asking for it (it was "expected 2 fields … got 3 in 'en,de,fr'")."""
    (tmp_path / "sets.csv").write_text("en,de,fr\ndog,katze,chat\n", encoding="utf-8")
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", english_to_german, "--glossary", tmp_path / "sets.csv",
                        tmp_path / "in.txt"], capsys)
    assert code == 0 and "katze" in out.split()
    code, _, err = run(["translate", "--model", trained_model, "--glossary", tmp_path / "sets.csv",
                        tmp_path / "in.txt"], capsys)
    assert code == 2 and err == (f"attnmt: error: {tmp_path / 'sets.csv'}:1: the header names the columns of several "
                                 "languages (en, de, fr), and the target language is not known: give it "
                                 "(--target-lang; read_glossary(path, target_lang=...))\n")
