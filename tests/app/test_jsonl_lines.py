"""How attnmt translate reads a --input-format jsonl line (attnmt.cli.lines.read_inputs): an
object with "text" and, where wanted, "glossary" and "prefix"; any other key, or a key given
twice (JSON would keep its last value without a word), stops with file:line and the key."""

import pytest

from attnmt.cli.lines import read_inputs
from attnmt.decoding.glossary import Glossary
from attnmt.errors import DataError


@pytest.mark.parametrize(("line", "key"), [('{"text": "A", "text": "B"}', "text"),
                                           ('{"text": "A", "prefix": "Ein", "prefix": "Zwei"}', "prefix"),
                                           ('{"glossary": {}, "text": "A", "glossary": {"dog": "Hund"}}', "glossary")])
def test_a_key_given_twice_is_refused_with_file_line_and_key(line, key):
    with pytest.raises(DataError) as refused:
        read_inputs(['{"text": "fine"}', line], "in.jsonl", 1)
    assert str(refused.value) == f'in.jsonl:2: the key "{key}" is given twice: give each key once'


def test_an_unknown_key_is_refused_with_the_keys_a_line_may_have():
    with pytest.raises(DataError) as refused:
        read_inputs(['{"text": "A", "id": 7, "meta": {}}'], "in.jsonl", 3)
    assert str(refused.value) == "in.jsonl:3: unknown key(s) 'id', 'meta'; the keys are text, glossary, prefix"


@pytest.mark.parametrize(("line", "shown"), [
    ('{"text": "a", "text\\u0000": 1}', "'text\\x00'"),
    ('{"text": "a", "\\u200btext": 1}', "'\\u200btext'"),
    ('{"text": "a", ' + ", ".join(f'"k{i}": 1' for i in range(500)) + "}",
     "'k0', 'k1', 'k10', 'k100', 'k101' and 495 more")])
def test_an_unknown_key_shows_its_invisible_characters_and_many_are_counted(line, shown):
    """"text\\u0000" was named as "text " (a raw NUL), which read as if "text" were refused."""
    with pytest.raises(DataError) as refused:
        read_inputs([line], "in.jsonl", 1)
    assert str(refused.value) == f"in.jsonl:1: unknown key(s) {shown}; the keys are text, glossary, prefix"


def test_the_same_key_in_the_glossary_and_the_line_is_no_key_given_twice():
    inputs = read_inputs(['{"text": "A", "glossary": {"text": "Text"}}'], "in.jsonl", 1)
    assert inputs.texts == ["A"]


def test_a_lines_glossary_adds_to_the_given_one_its_own_target_winning():
    given = Glossary.of({"dog": "hund", "cat": "katze"}, "terms.tsv")
    inputs = read_inputs(['{"text": "A", "glossary": {"dog": "köter"}}', '{"text": "B"}'], "in.jsonl", 1, given)
    own = inputs.glossaries[0]
    assert sorted(own.terms) == [("cat", "katze"), ("dog", "köter")]
    assert own.place("dog") == "in.jsonl:1" and own.place("cat") == "terms.tsv"
    assert inputs.glossaries[1] is given


def test_a_key_given_as_null_is_not_given_and_the_command_lines_value_applies():
    """"prefix": null cancelled --prefix, while "glossary": null kept --glossary; an empty prefix is none."""
    given = Glossary.of({"dog": "hund"})
    lines = ['{"text": "A", "prefix": null}', '{"text": "B", "glossary": null}', '{"text": "C", "prefix": ""}']
    inputs = read_inputs(lines, "in.jsonl", 1, given, "zwei")
    assert inputs.prefixes == ["zwei", "zwei", ""]
    assert inputs.glossaries == [given, given, given]


@pytest.mark.parametrize(("line", "start"), [
    ('{"text": "a", "glossary": {"dog": ' + "1" * 4000 + "}}", "in.jsonl:1: the target term must be text, got 1111"),
    ('{"text": "a", "prefix": {"x": "' + "y" * 4000 + '"}}', "in.jsonl:1: \"prefix\" must be text, got {'x': 'yyy"),
    ('{"text": "a", "glossary": [' + ", ".join(["1"] * 1400) + "]}", 'in.jsonl:1: "glossary" must be an object')])
def test_a_long_value_of_the_wrong_kind_is_shown_cut_in_one_short_line(line, start):
    """A 4,000-digit target term gave an error line of 4,061 characters: the value is shown cut, with its length."""
    with pytest.raises(DataError) as refused:
        read_inputs([line], "in.jsonl", 1)
    message = str(refused.value)
    assert message.startswith(start) and len(message) < 250 and "\n" not in message
    assert "… (4," in message and " characters)" in message
