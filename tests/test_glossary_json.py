"""JSON glossary files (attnmt.decoding.glossary_json): an object of terms, a list of source/target objects
or of pairs, and the files of another shape, each refused naming the key, the index or the line."""

import json

import pytest

from attnmt.decoding.glossary import read_glossaries, read_glossary
from attnmt.errors import AttnmtWarning, DataError


def write(tmp_path, text: str, name: str = "terms.json", encoding: str = "utf-8"):
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return path


def test_a_json_object_of_terms_is_a_glossary(tmp_path):
    """{"dog": "Hund", "cat": "Katze"}, as kept beside i18n files, was read as TSV and refused: "got 0 TABs"."""
    glossary = read_glossary(write(tmp_path, '{\n  "dog": "Hund",\n  "cat": "Katze",\n  "New York": "New York"\n}\n'))
    assert glossary.terms == (("dog", "Hund"), ("cat", "Katze"), ("New York", "New York"))
    assert glossary.matches("A dog and a cat in New York.") == ["Hund", "Katze", "New York"]
    assert glossary.place("cat") == f'{tmp_path / "terms.json"}:3["cat"]'


def test_a_json_list_of_source_and_target_objects_or_pairs_is_a_glossary(tmp_path):
    terms = [{"source": "dog", "target": "Hund", "note": "the animal"}, {"target": "Katze", "source": "cat"},
             ["mouse", "Maus"]]
    glossary = read_glossary(write(tmp_path, json.dumps(terms), name="TERMS.JSON"))
    assert glossary.terms == (("dog", "Hund"), ("cat", "Katze"), ("mouse", "Maus"))


def test_a_json_object_of_a_source_and_a_target_alone_is_one_term(tmp_path):
    """{"source": "dog", "target": "Hund"}, a list's item given alone, was the terms "source" and "target"."""
    assert read_glossary(write(tmp_path, '{"source": "dog", "target": "Hund"}')).terms == (("dog", "Hund"),)


def test_a_json_glossary_in_utf_8_with_a_byte_order_mark_or_utf_16_is_read(tmp_path):
    """Windows Notepad saves one so; json.loads refused the mark ("Unexpected UTF-8 BOM")."""
    assert read_glossary(write(tmp_path, '\ufeff{"dog": "Hund"}')).terms == (("dog", "Hund"),)
    assert read_glossary(write(tmp_path, '{"dog": "Hund"}', encoding="utf-16")).terms == (("dog", "Hund"),)


@pytest.mark.parametrize(("text", "message"), [
    ('{"dog": "Hund",\n "cat": Katze}', r'terms.json:2: not valid JSON: Expecting value \(column 9\)'),
    ('"dog"', r'terms.json: a JSON glossary is an object .* got "dog"$'),
    ('{"dog": 3}', r'terms.json:1\["dog"\]: the target term must be text, got 3;'),
    ('{"menu": {"file": "Datei"}}', r'terms.json:1\["menu"\]: the target term must be text, got \{"file": "Datei"\};'),
    ('[{"source": "dog", "target": "Hund"}, {"source": "cat", "translation": "Katze"}]',
     r'terms.json:1\[1\]: no "target" key in \{"source": "cat", "translation": "Katze"\}'),
    ('[{"source": "dog", "target": "Hund"}, "cat"]', r'terms.json:1\[1\]: expected \{"source": .*, got "cat"$'),
    ('[[null, "Hund"]]', r'terms.json:1\[0\]: the source term must be text, got null;'),
    ('{\n  "source": "dog",\n  "target": 3\n}', r'terms.json:3\["target"\]: the target term must be text, got 3;'),
    ('{"target": "Hund",\n "source": [1]}', r'terms.json:2\["source"\]: the source term must be text, got \[1\]'),
    ('{"target": "Hund",\n "source": " "}', r'terms.json:2: empty source term \(beside \'Hund\'\)'),
    ('{"dog": "Hund", "dog": "Köter"}',
     r"""terms.json:1\["dog"\]: source term 'dog' has two target terms, 'Hund' \(.*terms.json:1\["dog"\]\) """
     r"""and 'Köter'$"""),
    ("{}", r"terms.json: no glossary terms in the file"),
])
def test_a_json_glossary_of_another_shape_stops_naming_the_key_index_or_line(tmp_path, text, message):
    with pytest.raises(DataError, match=message):
        read_glossary(write(tmp_path, text))


def test_a_json_glossarys_key_given_twice_is_named_by_the_line_of_each(tmp_path):
    """{"dog": "Hund", …, "dog": "Köter"}, a key a line, was named by its key alone, as both places."""
    path = write(tmp_path, '{\n  "dog": "Hund",\n  "cat": "Katze",\n  "dog": "Köter"\n}\n')
    with pytest.raises(DataError, match=r"""^\S*terms.json:4\["dog"\]: source term 'dog' has two target terms, """
                                        r"""'Hund' \(\S*terms.json:2\["dog"\]\) and 'Köter'$"""):
        read_glossary(path)


def test_a_json_glossarys_list_item_is_named_by_its_line_past_nested_brackets_and_quoted_ones(tmp_path):
    text = ('[\n  {"source": "dog", "target": "Hund", "tags": ["a", {"b": 1}]},\n  ["a \\"[,{\\" b", "c"],\n'
            '  {"source": "cat", "target": "Katze"}, 7\n]\n')
    with pytest.raises(DataError, match=r"terms.json:4\[3\]: expected \{"):
        read_glossary(write(tmp_path, text))


def test_a_json_glossarys_term_without_a_target_is_skipped_as_a_sheets_row_is(tmp_path):
    path = write(tmp_path, '{"dog": "Hund", "cat": ""}')
    with pytest.warns(AttnmtWarning, match=r'1 of 2 rows skipped, without a target term \(the first: .*:1\["cat"\]\)'):
        assert read_glossary(path).terms == (("dog", "Hund"),)


def test_a_json_glossary_joins_a_tsv_one(tmp_path):
    (tmp_path / "mine.tsv").write_text("cat\tKatze\n", encoding="utf-8")
    glossary = read_glossaries([tmp_path / "mine.tsv", write(tmp_path, '{"dog": "Hund"}')])
    assert glossary.terms == (("cat", "Katze"), ("dog", "Hund"))
