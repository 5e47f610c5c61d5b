"""A model folder records the longest source its training kept (attnmt.trained_lengths: lengths.json),
every loader gives it to the model, and translation parts a longer sentence to it; a folder without
the record parts only what max_positions cannot hold, as before; a damaged record is one line."""

import json
from types import SimpleNamespace

import pytest
from support import PAIRS, run_cli, tiny_config

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import DEFAULT
from attnmt.decoding.inputs import longest_part
from attnmt.documents.paragraphs import translate_texts
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.fast.prepared import load_int8, load_packed
from attnmt.trained_lengths import LENGTHS, write_longest_source
from attnmt.training.trainer import Trainer

LINE = "a dog runs, and a cat sleeps"  # 20 pieces of the tiny model: "a dog runs," 7, "and a cat sleeps" 14



def test_a_new_run_records_the_longest_source_it_kept(tmp_path):
    trainer = Trainer(tiny_config(tmp_path), progress=False)
    trainer.lock.release()
    recorded = json.loads((tmp_path / "model" / LENGTHS).read_text(encoding="utf-8"))
    assert recorded == {"longest_source": max(len(trainer.tokenizer.encode(s)) for s, _ in PAIRS)} == {
        "longest_source": 15}  # "a man rides a bike" and its </s>


def test_a_line_longer_than_the_recorded_sources_is_translated_in_parts(trained_copy, reached):
    write_longest_source(trained_copy, 14)
    model, tokenizer = load_model_dir(trained_copy)
    assert (model.longest_trained, longest_part(model)) == (14, 14)
    translate_texts(model, tokenizer, [LINE], DEFAULT, DocumentOptions())
    assert reached == ["a dog runs,", "and a cat sleeps"]


def test_a_folder_without_the_record_is_given_the_line_whole(trained_copy, reached):
    model, tokenizer = load_model_dir(trained_copy)
    assert (model.longest_trained, longest_part(model)) == (None, 62)  # max_positions 64, less BOS and EOS
    translate_texts(model, tokenizer, [LINE], DEFAULT, DocumentOptions())
    assert reached == [LINE]


def test_a_record_longer_than_max_positions_allows_leaves_the_model_s_own_limit(trained_copy):
    write_longest_source(trained_copy, 500)
    assert longest_part(load_model_dir(trained_copy)[0]) == 62


def test_a_users_translator_without_fits_parts_a_line_by_its_model_s_record(trained_copy):
    """A user's own translator that holds a model and its tokenizer but answers no ``fits``
    (translator_parts.translator_fits) is given parts as ModelTranslator is: it was given the line whole."""
    write_longest_source(trained_copy, 14)
    model, tokenizer = load_model_dir(trained_copy)
    given: list[str] = []

    def translate(sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[None]]:
        given.extend(sentences)
        return sentences, [None] * len(sentences)

    own = SimpleNamespace(model=model, tokenizer=tokenizer, translate=translate)
    assert translate_lines([LINE], own, DocumentOptions()) == [LINE]  # each part given back as it was
    assert given == ["a dog runs,", "and a cat sleeps"]


def test_the_cpu_copies_take_the_record_built_and_mapped_from_the_cache(trained_copy, cache):
    write_longest_source(trained_copy, 14)
    for _ in range(2):  # built and stored, then mapped from the cache
        assert load_packed(trained_copy)[0].longest_trained == 14
        assert load_int8(trained_copy)[0].longest_trained == 14


def test_the_command_line_parts_a_line_by_the_record(trained_copy, tmp_path, capsys, reached):
    write_longest_source(trained_copy, 14)
    (tmp_path / "in.txt").write_text(LINE + "\n", encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_copy, tmp_path / "in.txt"], capsys)
    assert code == 0 and reached == ["a dog runs,", "and a cat sleeps"]


@pytest.mark.parametrize(("written", "said"), [
    ('{"longest_source": 0}', "longest_source must be a whole number of pieces of at least 1, got 0"),
    ('{"longest_source": "53"}', "longest_source must be a whole number of pieces of at least 1, got '53'"),
    ("[53]", "longest_source must be a whole number of pieces of at least 1, got [53]"),
    ('{"longest_source": 53', "cannot read the length of the sentences the model was trained on"),
])
def test_a_damaged_record_is_refused_in_one_line_naming_it(trained_copy, tmp_path, capsys, written, said):
    (trained_copy / LENGTHS).write_text(written, encoding="utf-8")
    (tmp_path / "in.txt").write_text(LINE + "\n", encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_copy, tmp_path / "in.txt"], capsys)
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert f"{trained_copy / LENGTHS}: {said}" in err and f"put back the {LENGTHS} 'attnmt train' wrote" in err


def test_evaluate_parts_a_line_by_the_record_as_translate_no_split_does(trained_copy, tmp_path, capsys, reached):
    """evaluate --src gave the model every line whole, where translate --no-split parts one longer than
    the record: its scores were not those of any translation translate writes (the demo model wrote 28
    words for a 138-word line given whole, 129 parted)."""
    write_longest_source(trained_copy, 14)
    src, ref = tmp_path / "in.txt", tmp_path / "ref.txt"
    src.write_text(f"{LINE}\na cat sleeps\n", encoding="utf-8")
    ref.write_text("ein hund rennt, und eine katze schläft\neine katze schläft\n", encoding="utf-8")
    code, scored, _ = run_cli(["evaluate", "--model", trained_copy, "--src", src, "--ref", ref, "--json"], capsys)
    assert code == 0 and sorted(filter(None, reached)) == ["a cat sleeps", "a dog runs,", "and a cat sleeps"]
    code, _, _ = run_cli(["translate", "--model", trained_copy, "--no-split", src, tmp_path / "out.txt"], capsys)
    assert run_cli(["evaluate", "--hyp", tmp_path / "out.txt", "--ref", ref, "--json"], capsys)[:2] == (0, scored)


def test_evaluate_passes_a_line_without_letters_through_as_translate_does(trained_model, tmp_path, capsys, reached):
    """evaluate --src gave the model "12345" and "A", which translate passes through as they are: the
    Multi30k demo model wrote "S" for "12345", and evaluate scored that."""
    src, ref = tmp_path / "in.txt", tmp_path / "ref.txt"
    src.write_text("12345\nA\na cat sleeps\n", encoding="utf-8")
    ref.write_text("12345\nA\neine katze schläft\n", encoding="utf-8")
    code, scored, _ = run_cli(["evaluate", "--model", trained_model, "--src", src, "--ref", ref, "--json"], capsys)
    assert code == 0 and list(filter(None, reached)) == ["a cat sleeps"]
    assert json.loads(scored)[1]["score"] == 100.0
