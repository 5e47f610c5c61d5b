"""How attnmt translate reads a --input-format jsonl line (attnmt.cli.lines.read_inputs): an
object with "text" and, where wanted, "glossary" and "prefix"; any other key, or a key given
twice (JSON would keep its last value without a word), stops with file:line and the key."""

import pytest

from attnmt.cli.lines import read_inputs
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
    assert str(refused.value) == "in.jsonl:3: unknown key(s) id, meta; the keys are text, glossary, prefix"


def test_the_same_key_in_the_glossary_and_the_line_is_no_key_given_twice():
    inputs = read_inputs(['{"text": "A", "glossary": {"text": "Text"}}'], "in.jsonl", 1)
    assert inputs.texts == ["A"]
