"""JSON that breaks no rule of JSON's but that Python's reader cannot take: arrays nested 100,000
deep (a RecursionError) and a whole number of 5,000 digits (a ValueError from int()).  Every
reader of a JSON file refuses it as not valid JSON in one line naming the file (attnmt.errors.json_value),
where each was a traceback and exit 1."""

import json
import sys
from pathlib import Path

import pytest
from support import run_cli

from attnmt import errors
from attnmt.checkpoint import load_model_config
from attnmt.cli.hypotheses import best_translations
from attnmt.cli.lines import read_inputs
from attnmt.decoding.calibration import load_calibration
from attnmt.errors import UnreadableJSON, UserError, json_value
from attnmt.inspect.explain import read_file
from attnmt.inspect.training_curves import read_training_log
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import read_longest_source
from attnmt.training.corpus import read_header
from attnmt.training.run_dir import read_corpora

NESTED = '{"text": "a", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
LONG_NUMBER = '{"text": "a", "x": 1' + "0" * 5000 + "}"
TRANSLATE_LINE = '{"line": 1, "hypotheses": [{"text": "ein hund"}]}'


def read_vocabulary(folder: Path) -> None:
    for name in VocabTokenizer.FILES[:2]:  # read before the vocabulary, not looked into
        (folder / name).write_bytes(b"")
    VocabTokenizer.load(folder)


def read_jsonl_input(path: Path) -> None:
    read_inputs(path.read_text(encoding="utf-8").splitlines(), str(path), 1)


def read_hypotheses(path: Path, *before: str) -> None:
    best_translations(str(path), [*before, *path.read_text(encoding="utf-8").splitlines()])


# Each reader: the file it reads, and how it is read from the folder that holds it.
READERS = {
    "config.json": ("config.json", load_model_config),
    "quality.json": ("quality.json", load_calibration),
    "lengths.json": ("lengths.json", read_longest_source),
    "corpora.json": ("corpora.json", read_corpora),
    "prepared header": ("header.json", read_header),
    "vocabulary": (VocabTokenizer.FILES[2], read_vocabulary),
    "training log": ("log.jsonl", read_training_log),
    "explain": ("ex.json", lambda folder: read_file(folder / "ex.json")),
    "translate jsonl": ("in.jsonl", lambda folder: read_jsonl_input(folder / "in.jsonl")),
    "evaluate hypotheses line 1": ("hyp.jsonl", lambda folder: read_hypotheses(folder / "hyp.jsonl")),
    "evaluate hypotheses line 2": ("hyp.jsonl", lambda folder: read_hypotheses(folder / "hyp.jsonl", TRANSLATE_LINE)),
}
# quality.json reads a number too large for a float as inf, which its key then refuses
# (calibration_file.whole_number): its number is no JSON it cannot read.
CASES = [pytest.param(reader, NESTED, "nested too deeply", id=f"{reader}, nested") for reader in READERS] + [
    pytest.param(reader, LONG_NUMBER, "a number too long", id=f"{reader}, number")
    for reader in READERS if reader != "quality.json"]


@pytest.mark.parametrize(("text", "reason"), [(NESTED, "nested too deeply"),
                                               (LONG_NUMBER, "a number too long: 5001 digits")])
def test_json_python_cannot_read_is_a_json_decode_error_saying_why(text, reason):
    with pytest.raises(json.JSONDecodeError) as caught:
        json_value(text)
    assert isinstance(caught.value, UnreadableJSON) and str(caught.value).startswith(reason)
    assert caught.value.pos == 0  # no place: its reader tells none


def test_a_number_too_long_names_the_most_digits_python_reads():
    with pytest.raises(UnreadableJSON, match=f"at most {sys.get_int_max_str_digits()}$"):
        json_value("-" + "9" * 5000)


def test_json_it_can_read_reads_as_json_loads_reads_it():
    text = '{"a": [1, -2, 3.5, 1e999, "' + "9" * 5000 + '"], "b": null}'
    assert json_value(text) == json.loads(text)


def test_json_it_can_read_is_read_without_a_python_call_per_number(monkeypatch):
    """A 58,000-piece vocab.json took 1.7 times as long with int()'s limit checked in Python for every
    id (issue 44, start-up): the check runs only where a first reading fails."""
    checked = []
    monkeypatch.setattr(errors, "json_whole_number", lambda digits: checked.append(digits) or int(digits))
    assert json_value('{"</s>": 0, "<unk>": 1, "<pad>": 58100}') == {"</s>": 0, "<unk>": 1, "<pad>": 58100}
    assert checked == []


def test_a_hooks_own_value_error_is_raised_as_it_raised_it():
    def refuse(pairs):
        raise ValueError(f"given twice: {pairs[0][0]}")

    with pytest.raises(ValueError, match="^given twice: a$") as caught:
        json_value('{"a": 1, "a": 2}', object_pairs_hook=refuse)
    assert not isinstance(caught.value, json.JSONDecodeError)


@pytest.mark.parametrize(("reader", "text", "reason"), CASES)
def test_each_reader_refuses_it_in_one_line_naming_the_file(tmp_path, reader, text, reason):
    name, read = READERS[reader]
    (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    with pytest.raises(UserError) as refused:
        read(tmp_path)
    message = str(refused.value)
    assert message.startswith(str(tmp_path / name)) and "\n" not in message
    assert f"({reason}" in message  # "not valid JSON (nested too deeply)", each reader in its own words


def test_the_command_line_says_it_in_one_line_and_exits_2(tmp_path, capsys):
    example = tmp_path / "ex.json"
    example.write_text(LONG_NUMBER, encoding="utf-8")
    code, _, err = run_cli(["explain", example], capsys)
    assert code == 2 and err == (f"attnmt: error: {example}: not valid JSON (a number too long: 5001 digits, where "
                                 f"Python reads at most {sys.get_int_max_str_digits()}); give a JSON object or "
                                 "a NumPy .npz file\n")
