"""The command line: line alignment, user errors as one clear line, train/translate/evaluate end to end."""

import gzip
import importlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import PAIRS, run_cli, tiny_config, write_pairs

from attnmt.checkpoint import load_model_dir
from attnmt.cli.main import main
from attnmt.errors import ConfigError, DataError

attnmt_translate = importlib.import_module("attnmt.decoding.translate")  # the package's own `translate` is the function

run = run_cli


@pytest.mark.filterwarnings("error:.*longer than")  # the long line is parted into sentences that fit, not cut
def test_translate_keeps_one_output_line_per_input_line(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    very_long = " ".join(["a dog runs"] * 40)  # far beyond max_positions=64 tokens: parted, on one line still
    source.write_text(f"a dog runs\n\n   \n{very_long}\nthe boy laughs\n", encoding="utf-8")
    output = tmp_path / "out.txt"
    code, _, _ = run(["translate", "--model", trained_model, "--beam", "2", source, output], capsys)
    lines = output.read_text(encoding="utf-8").split("\n")[:-1]
    assert code == 0
    assert len(lines) == 5
    assert lines[0] == "ein hund rennt" and lines[1] == "" and lines[4] == "der junge lacht"
    assert lines[2] == "   "  # without letters: as it was (it came out empty)


@pytest.mark.parametrize("extra", [["--alignments"], ["--confidence", "--output-format", "jsonl"]])
def test_a_long_line_read_again_for_its_alignments_is_warned_of_once(trained_model, tmp_path, capsys, extra):
    """The scoring pass that reads a translation's attention cut the source again, and warned again
    (with --alignments in text output, the batched alignment did).  The warning names the line."""
    source = tmp_path / "in.jsonl"  # a JSONL text is read whole, and cut (a plain text line is parted)
    source.write_text(json.dumps({"text": " ".join(["a dog runs"] * 40)}) + "\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="longer than") as warned:
        code, _, _ = run(["translate", "--model", trained_model, "--beam", "1", "--input-format", "jsonl",
                          *extra, source], capsys)
    cut = [str(w.message) for w in warned if "longer than" in str(w.message)]
    assert code == 0 and len(cut) == 1 and f"at {source}:1)" in cut[0]


def test_a_jsonl_text_longer_than_the_model_was_trained_on_is_warned_of_by_its_line(trained_copy, tmp_path, capsys):
    """Read whole, a paragraph of 40 sentences came back from the demo model (trained on 53 pieces at most) as
    one sentence, without a word; a text line is parted into sentences that fit."""
    from attnmt.trained_lengths import write_longest_source

    write_longest_source(trained_copy, 12)  # "a cat sleeps" is 10 pieces, the three sentences 23
    source = tmp_path / "in.jsonl"
    texts = ["a dog runs", "a dog runs. a cat sleeps. two dogs run.", "a cat sleeps"]
    source.write_text("".join(json.dumps({"text": text}) + "\n" for text in texts), encoding="utf-8")
    with pytest.warns(UserWarning, match="trained on") as warned:
        code, out, _ = run(["translate", "--model", trained_copy, "--beam", "1", source], capsys)
    [message] = [str(w.message) for w in warned if "trained on" in str(w.message)]
    assert code == 0 and len(out.splitlines()) == 3
    assert f"at {source}:2:" in message and f"{source}:1" not in message and f"{source}:3" not in message


def test_translate_reads_stdin_and_writes_stdout(trained_model, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a cat sleeps\ntwo dogs run\n")))
    code, out, _ = run(["translate", "--model", trained_model, "--beam", "1"], capsys)
    assert code == 0 and out == "eine katze schläft\nzwei hunde rennen\n"


def test_a_compressed_input_and_output_are_read_and_written_as_gzip_whatever_the_case_of_gz(
        trained_model, tmp_path, capsys):
    source, output = tmp_path / "in.en.GZ", tmp_path / "out.de.gz"
    with gzip.open(source, "wt", encoding="utf-8") as f:
        f.write("a cat sleeps\ntwo dogs run\n")
    code, _, _ = run(["translate", "--model", trained_model, "--beam", "1", source, output], capsys)
    assert code == 0 and gzip.decompress(output.read_bytes()) == "eine katze schläft\nzwei hunde rennen\n".encode()
    assert output.read_bytes()[10:17] == b"out.de\x00"  # gzip's header names the file, not its temporary name
    scores = tmp_path / "scores.tsv.gz"
    code, _, _ = run(["score", "--model", trained_model, "--src", source, "--hyp", output, "--output", scores], capsys)
    assert code == 0 and len(gzip.decompress(scores.read_bytes()).decode().splitlines()) == 2


def test_an_output_that_cannot_be_written_is_one_line_and_a_replaced_one_keeps_its_permissions(
        trained_model, tmp_path, capsys):
    source, in_the_way = tmp_path / "in.txt", tmp_path / "notes"
    source.write_text("a cat sleeps\n", encoding="utf-8")
    in_the_way.write_text("a file, not a folder\n")
    code, _, err = run(["translate", "--model", trained_model, source, in_the_way / "out.txt"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: could not write {in_the_way / 'out.txt'}: ")
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(["translate", "--model", trained_model, source, f"{tmp_path}/new/"], capsys)
    assert code == 2 and err == (f"attnmt: error: the output {tmp_path}/new/ names a folder: give it a file name "
                                 f"({tmp_path}/new/in.translated.txt)\n") and not (tmp_path / "new").exists()
    private = tmp_path / "private.txt"
    private.write_text("old\n")
    private.chmod(0o600)
    code, _, _ = run(["translate", "--model", trained_model, "--beam", "1", source, private], capsys)
    assert code == 0 and private.read_text() == "eine katze schläft\n" and private.stat().st_mode & 0o777 == 0o600


RELEASE_0_1_0 = Path(__file__).parents[1] / "fixtures" / "model_0.1.0"  # no source </s>, as every 0.1.0 model


@pytest.mark.parametrize("precision", [[], ["--int8"]], ids=["float32", "int8"])
def test_one_word_lines_of_a_model_without_source_eos_are_translated(tmp_path, capsys, precision):
    """One word there is one source token, and a batch of them once made the C++ step raise, losing the run."""
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("s\nm\n", encoding="utf-8")  # one piece each
    for beam in ("1", "4"):
        code, _, err = run(["translate", "--model", RELEASE_0_1_0, "--beam", beam, *precision, source, output], capsys)
        assert code == 0 and "error" not in err
        assert len(output.read_text(encoding="utf-8").splitlines()) == 2


@pytest.fixture
def failing_on_a_cat(trained_model, monkeypatch):
    """The searches fail on any batch that holds "a cat sleeps" (a sentence that breaks a search)."""
    run_search = attnmt_translate.run_search
    broken = load_model_dir(trained_model)[1].encode("a cat sleeps")

    def fragile(model, src, *args, **kwargs):
        if any(row[row != 0].tolist() == broken for row in src):
            raise RuntimeError("the search broke")
        return run_search(model, src, *args, **kwargs)

    monkeypatch.setattr(attnmt_translate, "run_search", fragile)


@pytest.mark.parametrize("split", [[], ["--no-split"], ["--input-format", "html"]],
                         ids=["sentences", "lines whole", "html fragments"])
def test_a_line_the_model_fails_on_is_named_and_the_others_are_translated(trained_model, tmp_path, capsys,
                                                                           failing_on_a_cat, split):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("a dog runs\na cat sleeps\nthe boy laughs\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--beam", "1", *split, source, output], capsys)
    assert code == 1
    assert output.read_text(encoding="utf-8") == "ein hund rennt\n\nder junge lacht\n"
    assert err == (f"attnmt: error: {source}:2: not translated, the model failed on it (RuntimeError: the search "
                   "broke); its output is left empty\n")


def test_a_line_the_model_fails_on_has_no_hypotheses_and_the_others_theirs(trained_model, tmp_path, capsys,
                                                                            failing_on_a_cat):
    source = tmp_path / "in.txt"
    source.write_text("a cat sleeps\nthe boy laughs\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--beam", "2", "--n-best", "2",
                          "--output-format", "jsonl", source], capsys)
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 1 and f"{source}:1: not translated" in err
    assert first == {"line": 1, "hypotheses": []}
    assert second["line"] == 2 and second["hypotheses"][0]["text"] == "der junge lacht"


def test_a_line_the_model_fails_on_loses_only_itself_with_alignments(trained_model, tmp_path, capsys,
                                                                     failing_on_a_cat):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs. the boy laughs.\na cat sleeps\nthe boy laughs.\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--beam", "1", "--alignments", source], capsys)
    first, failed, third = out.splitlines()
    assert code == 1 and f"{source}:2: not translated" in err
    assert first.startswith("ein hund rennt der junge lacht ||| ") and failed == " ||| "
    assert third.startswith("der junge lacht ||| ")


def test_int8_model_translates_the_memorised_pairs_like_the_float_model(trained_model, tmp_path, capsys):
    src, ref = write_pairs(tmp_path, "test", PAIRS)
    code, out, _ = run(["evaluate", "--model", trained_model, "--src", src, "--ref", ref, "--json", "--int8"], capsys)
    assert code == 0
    assert json.loads(out)[0]["score"] > 90.0  # BLEU; the float model scores 100 on these


def test_unknown_config_key_is_one_line_with_exit_code_2(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("lerning_rate: 3\n")
    code, _, err = run(["train", config], capsys)
    assert code == 2
    assert err.startswith("attnmt: error: ") and "lerning_rate" in err and "valid keys" in err
    assert "Traceback" not in err


def test_line_count_mismatch_names_both_files(tmp_path, capsys):
    config = tiny_config(tmp_path)
    with open(config.train_tgt, "a", encoding="utf-8") as tgt:
        tgt.write("one more line\n")
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(config.to_dict()))  # JSON is YAML
    code, _, err = run(["train", path], capsys)
    assert code == 2
    assert "train.src" in err and "train.tgt" in err and "20" in err and "21" in err
    assert "tokenizer_options" not in err  # a key the user never set


def test_invalid_utf8_names_file_and_line(tmp_path, capsys):
    config = tiny_config(tmp_path)
    with open(config.train_src, "ab") as src:
        src.write(b"caf\xe9\n")
    with open(config.train_tgt, "a", encoding="utf-8") as tgt:
        tgt.write("cafe\n")
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(config.to_dict()))
    code, _, err = run(["train", path], capsys)
    assert code == 2 and "train.src:21" in err and "UTF-8" in err and "tokenizer_options" not in err


def test_average_of_a_corrupt_checkpoint_is_one_line(trained_model, tmp_path, capsys):
    shutil.copytree(trained_model, tmp_path / "model")
    weights = sorted((tmp_path / "model" / "checkpoints").glob("step_*"))[-1] / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:500])
    code, _, err = run(["average", "--model", tmp_path / "model", "--last", "2"], capsys)
    assert code == 2 and err.count("\n") == 1 and f"{weights}: cannot load weights" in err


def test_missing_model_directory_is_a_clear_error(tmp_path, capsys):
    code, _, err = run(["translate", "--model", tmp_path / "nope"], capsys)
    assert code == 2 and "no such model directory" in err


@pytest.mark.parametrize("command", ["translate", "doctor"])
def test_a_file_given_as_the_model_directory_is_named_a_file(tmp_path, capsys, command):
    """It said "afile: no such model directory", sending the user looking for one that is there."""
    (tmp_path / "afile").write_text("not a model\n")
    code, _, err = run([command, "--model", tmp_path / "afile"], capsys)
    assert code == 2 and err == f"attnmt: error: {tmp_path / 'afile'} is a file, not a model directory\n"


@pytest.mark.parametrize(("key", "value", "both"), [("bos_id", 3, "bos_id and eos_id are both 3"),
                                                    ("eos_id", 0, "pad_id and eos_id are both 0")])
def test_a_model_directory_whose_special_ids_clash_is_refused_in_one_line(trained_copy, tmp_path, capsys, key,
                                                                          value, both):
    """With bos_id set to eos_id it translated into garbage and exited 0: the search never writes BOS."""
    config = json.loads((trained_copy / "config.json").read_text())
    (trained_copy / "config.json").write_text(json.dumps({**config, key: value}))
    (tmp_path / "in.txt").write_text("a dog runs\n")
    code, out, err = run(["translate", "--model", trained_copy, tmp_path / "in.txt"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {trained_copy / 'config.json'}: {both}: each special token needs")


def test_train_then_resume_from_the_command_line(tmp_path, capsys):
    config = tiny_config(tmp_path, max_steps=4, eval_every=2, eval_metric="loss")
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(config.to_dict()))
    assert run(["train", path, "--max_steps", "2"], capsys)[0] == 0
    assert run(["train", "--resume", config.out_dir, "--max_steps", "4"], capsys)[0] == 0
    steps = [json.loads(line)["step"] for line in open(f"{config.out_dir}/log.jsonl") if "valid_loss" in line]
    assert steps == [2, 4]


def test_resume_with_a_config_is_refused_saying_the_run_keeps_its_own(tmp_path, capsys):
    code, out, err = run(["train", tmp_path / "missing.yaml", "--resume", tmp_path / "run"], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"attnmt: error: --resume continues {tmp_path}/run with its own train.yaml, not "
                                f"{tmp_path}/missing.yaml: drop {tmp_path}/missing.yaml (keys can still be "
                                "overridden, e.g. --max-steps 200000)"]


def test_gzip_and_tsv_training_data(tmp_path, capsys):
    tsv = tmp_path / "train.tsv.gz"
    with gzip.open(tsv, "wt", encoding="utf-8") as out:
        out.writelines(f"{s}\t{t}\n" for s, t in PAIRS)
    config = tiny_config(tmp_path, train_tsv=str(tsv), max_steps=2, eval_every=2, eval_metric="loss")
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(config.to_dict()))
    assert run(["train", path], capsys)[0] == 0


@pytest.mark.parametrize("command", ["translate", "evaluate"])
def test_a_beam_below_one_is_refused_by_the_argument_parser(trained_model, command, capsys):
    argv = [command, "--model", str(trained_model), "--beam", "0"]
    if command == "evaluate":
        argv += ["--src", "s", "--ref", "r"]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "argument --beam: must be at least 1, got 0" in err and "Traceback" not in err


@pytest.mark.parametrize("option, value, message", [
    ("--beam", "2000", "argument --beam: must be at most 64, got 2000"),
    ("--alpha", "nan", "argument --alpha: expected a finite number >= 0, got 'nan'"),
    ("--max-len-a", "-1", "argument --max-len-a: expected a finite number >= 0, got '-1'"),
    ("--seed", str(2**80), f"argument --seed: must be at most {2**64 - 1}, got {2**80}"),
])
def test_absurd_decoding_options_are_refused_by_the_argument_parser(trained_model, option, value, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["translate", "--model", str(trained_model), option, value])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("lines, message", [
    (["a dog runs", "a cat sleeps"], "src.txt has 2 lines but {ref} has 1: evaluate needs exactly one reference"),
    ([], "src.txt has 0 lines but {ref} has 1"),
])
def test_evaluate_checks_the_line_counts_in_one_line_before_translating(tmp_path, capsys, lines, message):
    src, ref = tmp_path / "src.txt", tmp_path / "ref.txt"
    src.write_text("".join(line + "\n" for line in lines))
    ref.write_text("ein hund rennt\n")
    # No such model: the counts are checked before it is loaded, let alone run.
    code, _, err = run(["evaluate", "--model", tmp_path / "nowhere", "--src", src, "--ref", ref], capsys)
    assert code == 2 and err.count("\n") == 1 and message.format(ref=ref) in err
    code, _, err = run(["evaluate", "--hyp", src, "--ref", ref], capsys)
    assert code == 2 and err.count("\n") == 1 and message.format(ref=ref) in err


def test_evaluate_of_empty_files_is_one_line(tmp_path, capsys):
    (tmp_path / "hyp").write_text("")
    (tmp_path / "ref").write_text("")
    code, _, err = run(["evaluate", "--hyp", tmp_path / "hyp", "--ref", tmp_path / "ref"], capsys)
    assert code == 2 and err.count("\n") == 1 and "are empty: nothing to score" in err


def test_version_names_attnmt_and_pytorch(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    out = capsys.readouterr().out
    assert stopped.value.code == 0 and out.startswith("attnmt 0.1.0 (PyTorch ")


def test_overrides_take_key_value_key_equals_value_and_bare_flags():
    from attnmt.cli.main import OWN_FLAGS, split_overrides

    argv = ["train", "c.yaml", "--max_time=5m", "--seed", "2", "--eval_bleu", "--model.d_model", "512",
            "--eval-beam=4", "--patience", "--resume=runs/x"]
    own, overrides = split_overrides(argv, OWN_FLAGS["train"])
    assert own == ["train", "c.yaml", "--resume=runs/x"]
    assert overrides == {"max_time": "5m", "seed": "2", "eval_bleu": None, "model.d_model": "512",
                         "eval_beam": "4", "patience": None}


def test_a_bare_flag_sets_a_boolean_key_or_one_of_a_free_mapping_to_true(tmp_path):
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text("seed: 1\n")
    config = load_config(path, {"tensorboard": None, "tokenizer_options.byte_fallback": None})
    assert config.tensorboard is True and config.tokenizer_options == {"byte_fallback": True}


@pytest.mark.parametrize(("flag", "value"), [("--max-steps", "a whole number"), ("--model.dropout", "a number"),
                                             ("--out-dir", "text"), ("--model", "a mapping {key: value}"),
                                             ("--train", "a list [a, b] or null")])
def test_a_bare_flag_of_a_key_that_is_no_boolean_says_it_needs_a_value(tmp_path, capsys, flag, value):
    """It was read as true and refused as "--max-steps must be a whole number, got True": a value no one typed."""
    path = tmp_path / "c.yaml"
    path.write_text("seed: 1\n")
    code, _, err = run_cli(["train", path, flag], capsys)
    assert code == 2 and err == f"attnmt: error: {flag} needs a value ({value}): {flag} VALUE or {flag}=VALUE\n"


def test_a_whole_section_on_the_command_line_names_the_keys_of_the_files_it_drops(tmp_path):
    """``--model '{d_model: 16}'`` replaces the file's model section, as every override replaces a key's value:
    the run went to 6 + 6 layers of d_ff 2048, silently."""
    from attnmt.errors import AttnmtWarning
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text("model: {d_model: 32, encoder_layers: 1, d_ff: 64}\n")
    with pytest.warns(AttnmtWarning, match=re.escape("--model replaces the whole model section, so encoder_layers, "
                                                     "d_ff, set before it, go back to their defaults; to change "
                                                     "one key alone, give it dotted (--model.KEY VALUE)")):
        config = load_config(path, {"model": "{d_model: 16}"})
    assert config.model == {"d_model": 16}


@pytest.mark.parametrize(("text", "overrides", "warning"), [
    ("model: {d_model: 32, d_ff: 64}\n", {"model": "{d_model: 16}"},
     "--model replaces the whole model section, so d_ff, set before it, goes back to its default; to change one "
     "key alone, give it dotted (--model.KEY VALUE)"),
    ("tokenizer_options: {model_type: bpe, character_coverage: 1.0}\n",
     {"tokenizer_options": "{byte_fallback: true}"},
     "--tokenizer-options replaces the whole tokenizer_options section, so model_type, character_coverage, set "
     "before it, go back to their defaults; to change one key alone, give it dotted (--tokenizer-options.KEY VALUE)"),
    ("seed: 1\n", {"model.d_model": "64", "model": "{n_heads: 2}"},
     "--model replaces the whole model section, so d_model, set before it, goes back to its default; to change "
     "one key alone, give it dotted (--model.KEY VALUE)"),
], ids=["one key", "tokenizer_options", "a key typed before it"])
def test_a_whole_section_names_each_key_it_drops_as_it_was_set(tmp_path, text, overrides, warning):
    """It said "its d_ff go back to their defaults" for one key; a --tokenizer-options mapping dropped the
    file's model_type silently (only model was watched); and d_model typed on the command line just before
    --model was called the config's."""
    from attnmt.errors import AttnmtWarning
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.warns(AttnmtWarning) as warned:
        load_config(path, overrides)
    assert [str(w.message) for w in warned] == [warning]


@pytest.mark.parametrize(("text", "overrides", "merged"), [
    ("model: {d_model: 32, d_ff: 64}\n", {"model": "{dropout: 0.2}"}, {"d_model": 32, "d_ff": 64, "dropout": 0.2}),
    ("tokenizer_options: {model_type: bpe}\n", {"tokenizer_options": "{byte_fallback: true}"},
     {"model_type": "bpe", "byte_fallback": True}),
], ids=["model", "tokenizer_options"])
def test_a_whole_section_merged_for_a_resume_keeps_the_files_other_keys_and_warns_of_none(tmp_path, text, overrides,
                                                                                           merged):
    """A resume keeps its run's sections: a mapping given whole sets the keys it names, as dotted options do."""
    import warnings

    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        config = load_config(path, overrides, merge=True)
    (section,) = overrides
    assert getattr(config, section) == merged


def test_each_key_of_a_section_merged_for_a_resume_is_checked_as_its_dotted_option(tmp_path):
    from attnmt.errors import ConfigError
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text("model: {d_model: 32}\n")
    with pytest.raises(ConfigError, match=r"^--model\.dropout must be a number, got 'abc'$"):
        load_config(path, {"model": "{dropout: abc}"}, merge=True)
    with pytest.raises(ConfigError, match=r"^--model\.bogus \(command line\): unknown model key bogus; valid"):
        load_config(path, {"model": "{bogus: 1}"}, merge=True)


def test_override_values_are_typed_by_the_config(tmp_path):
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text("eval_bleu: true\n")
    config = load_config(path, {"eval_bleu": "false", "max_time": "5m", "seed": "2", "model.d_model": "64"})
    assert config.eval_metric == "loss" and config.max_time == "5m" and config.seed == 2
    assert config.model == {"d_model": 64}


@pytest.mark.parametrize(("override", "message"), [
    ({"warmup_steps": "x"}, "--warmup-steps must be a whole number, got 'x'"),
    ({"model.dropout": "none"}, "--model.dropout must be a number, got 'none'"),
])
def test_a_mistyped_override_is_named_as_typed_not_as_the_config_files(tmp_path, override, message):
    from attnmt.train_config import load_config

    path = tmp_path / "c.yaml"
    path.write_text("seed: 1\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load_config(path, override)


def test_train_help_lists_every_key_with_its_default_and_a_line_of_help(capsys):
    from dataclasses import fields

    from attnmt.config import TransformerConfig
    from attnmt.train_config import TrainConfig

    with pytest.raises(SystemExit):
        main(["train", "--help"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  --")]
    keys = [f.name for f in fields(TrainConfig) if f.name != "model"]
    keys += [f"model.{f.name}" for f in fields(TransformerConfig)]
    flags = [f"--{k.replace('_', '-')}" for k in keys]  # as the command's own flags are spelled
    assert [line.split()[0] for line in lines if line.split()[0] not in ("--resume",)] == flags
    assert "  --max-tokens (int, default 4096): token budget per batch" in lines
    assert all("): " in line for line in lines if not line.startswith("  --resume"))


def test_translate_help_names_every_tsv_column_and_the_page_that_describes_them(capsys):
    with pytest.raises(SystemExit):
        main(["translate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("tsv: a row per hypothesis, its columns line, rank, score, log_prob, translation, alignment (with "
            "--alignments), quality, flags;") in text
    docs = Path(__file__).parents[2] / "docs" / "translating.md"
    assert "See docs/translating.md, Output formats" in text
    assert docs.read_text(encoding="utf-8").count("\n### Output formats\n") == 1


def test_n_best_with_scores_as_tsv_and_jsonl(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n\nthe boy laughs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--beam", "3", "--n-best", "2",
                        "--output-format", "tsv", source], capsys)
    rows = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and [row[:2] for row in rows] == [["1", "1"], ["1", "2"], ["3", "1"], ["3", "2"]]
    assert rows[0][4] == "ein hund rennt" and rows[2][4] == "der junge lacht"
    assert float(rows[0][2]) >= float(rows[1][2])  # best first, by the length-normalised score
    assert float(rows[0][3]) > -0.2  # the model knows its pairs: log P close to 0
    code, out, _ = run(["translate", "--model", trained_model, "--beam", "2", "--n-best", "2",
                        "--output-format", "jsonl", source], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3] and records[1]["hypotheses"] == []
    assert records[0]["hypotheses"][0]["text"] == "ein hund rennt" and len(records[2]["hypotheses"]) == 2


def test_n_best_needs_a_wide_enough_beam_and_a_format_for_several_lines(trained_model, capsys):
    code, _, err = run(["translate", "--model", trained_model, "--beam", "2", "--n-best", "3"], capsys)
    assert code == 2 and "--n-best 3 needs --beam 3" in err
    code, _, err = run(["translate", "--model", trained_model, "--beam", "2", "--n-best", "2"], capsys)
    assert code == 2 and "--output-format tsv or jsonl" in err


@pytest.mark.parametrize("n_best", ["2", "9"])
@pytest.mark.parametrize("output_format", ["tsv", "text"])
def test_n_best_with_sampling_is_refused_once_saying_to_leave_one_out(tmp_path, capsys, n_best, output_format):
    """It was "set --beam 1 (got 4)" (or "--n-best 9 needs --beam 9"), and doing that met "--n-best 2
    needs --beam 2 or more": sampling gives one translation a line, whatever the beam."""
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", "no-such-model", str(tmp_path / "in.txt"), "--sampling-topk", "5",
                          "--n-best", n_best, "--output-format", output_format], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: sampling draws one translation per sentence, so --n-best {n_best} has no list "
                   "to return: leave out --n-best or sampling\n")


def test_batch_size_and_output_length_limits(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("".join(s + "\n" for s, _ in PAIRS), encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--batch-size", "3", source], capsys)
    assert code == 0 and out.splitlines() == [t for _, t in PAIRS]
    code, out, _ = run(["translate", "--model", trained_model, "--beam", "1", "--max-len-a", "0",
                        "--max-len-b", "0", source], capsys)
    assert code == 0 and out.splitlines() == [""] * len(PAIRS)


@pytest.mark.parametrize("options", [[], ["--no-split"], ["--no-split", "--output-format", "tsv"]],
                         ids=["split", "no-split", "no-split-tsv"])
def test_a_url_in_plain_text_passes_through_with_or_without_splitting(trained_model, tmp_path, capsys, options):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs https://example.org/x?a=1\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, *options, source], capsys)
    assert code == 0 and "https://example.org/x?a=1" in out


def test_a_technical_token_in_plain_text_passes_through_byte_for_byte(trained_model, tmp_path, capsys, reached):
    """attnmt.decoding.protected: the model is given the words around each token, never the token."""
    tokens = ["`ls -la`", "$HOME", "${PATH}", "%APPDATA%", "@john_doe", "#MachineLearning", "v2.3.1", "2.13.0",
              "192.168.1.10", "#ff0000"]
    source = tmp_path / "in.txt"
    source.write_text("".join(f"a dog runs {token}\n" for token in tokens), encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and len(out.splitlines()) == len(tokens)
    assert all(token in line for token, line in zip(tokens, out.splitlines(), strict=True))
    assert set(reached) == {"a dog runs"}


def test_tsv_escapes_read_back_as_the_text_was():
    from attnmt.cli.lines import tsv_text

    assert tsv_text("a\tb\\tc\nd") == "a\\tb\\\\tc\\nd"
    assert tsv_text("C:\\temp") != tsv_text("C:\temp")


def test_a_score_that_is_no_finite_number_is_null_in_jsonl_and_written_out_in_tsv():
    """JSON has no number for -inf (a hypothesis forced through a piece the model rules out) or NaN:
    json.dumps wrote -Infinity, which JSON readers refuse."""
    import io

    from attnmt.cli.lines import write_hypotheses
    from attnmt.decoding.translate import Translation

    found = [[Translation("ein Hund", float("-inf"), float("-inf")), Translation("Hund", -1.23456, float("nan"))]]
    out = io.StringIO()
    write_hypotheses(out, 1, found, "jsonl")
    line = json.loads(out.getvalue(), parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert [(h["text"], h["score"], h["log_prob"]) for h in line["hypotheses"]] == [("ein Hund", None, None),
                                                                                   ("Hund", -1.2346, None)]
    out = io.StringIO()
    write_hypotheses(out, 1, found, "tsv")
    assert out.getvalue() == "1\t1\t-inf\t-inf\tein Hund\n1\t2\t-1.2346\tnan\tHund\n"


def test_a_tab_in_a_text_never_adds_a_tsv_column(trained_model, tmp_path, capsys):
    source, translation = tmp_path / "in.txt", tmp_path / "hyp.txt"
    source.write_text("a dog runs\n12\t34\n", encoding="utf-8")  # the word-less line passes through, its tab too
    translation.write_text("ein hund\trennt\n12\t34\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--output-format", "tsv", source], capsys)
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and len({len(row) for row in rows}) == 1 and rows[-1][4] == "12\\t34"
    code, out, _ = run(["score", "--model", trained_model, "--src", source, "--hyp", translation,
                        "--output-format", "tsv"], capsys)
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and len({len(row) for row in rows}) == 1 and rows[0][3] == "ein hund\\trennt"


def test_gzip_on_stdin_is_named_as_gzip_not_as_invalid_utf8():
    """The advice was to convert the file to UTF-8 with iconv."""
    from attnmt.text.data import decode_lines

    with pytest.raises(DataError, match=r"^<stdin>: the input is gzip-compressed: give the file's name ending in .gz"):
        decode_lines(gzip.compress(b"a dog runs\n"), "<stdin>")


def test_invalid_utf8_in_a_stream_is_named_by_its_line_in_the_whole_stream():
    import os

    from attnmt.cli.lines import line_batches
    from attnmt.errors import DataError

    read, write = os.pipe()
    with os.fdopen(read, "rb") as stream:
        batches = line_batches(stream)
        os.write(write, b"one\ntwo\n")
        assert next(batches) == ["one", "two"]
        os.write(write, b"three\nfour \xff\n")
        os.close(write)
        assert next(batches) == ["three"]  # the lines before the bad one come out first, wherever the pipe split
        with pytest.raises(DataError, match=r"^<stdin>:4: invalid UTF-8 \(byte 0xff\)"):
            next(batches)


def test_a_byte_order_mark_is_left_out_at_a_streams_start_only_wherever_the_pipe_splits_it():
    """A line starting with U+FEFF (``cat a.txt b.txt |``, b.txt saved with one) lost it where a read of
    the pipe happened to start there, and kept it elsewhere: its output, or a JSONL line's error, hung
    on timing.  Only the input's first line loses it, as a file's does (attnmt.text.data.read_lines)."""
    import os

    from attnmt.cli.lines import line_batches

    read, write = os.pipe()
    with os.fdopen(read, "rb") as stream:
        batches = line_batches(stream)
        os.write(write, "\ufeffone\n".encode())
        assert next(batches) == ["one"]
        os.write(write, "\ufefftwo\n".encode())
        os.close(write)
        assert next(batches) == ["\ufefftwo"]


@pytest.mark.parametrize(("data", "named"), [(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF"),
                                             (b"PK\x03\x04\x14\x00\n\x00\x00\x00\x08\x00\xf1", "a zip archive"),
                                             (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image")])
@pytest.mark.parametrize("piped", [True, False])
def test_an_office_file_a_pdf_or_a_picture_on_stdin_is_named_before_any_line_is_translated(data, named, piped):
    """``attnmt translate < report.pdf`` translated "%PDF-1.7" as line 1, then stopped at line 2 with
    "invalid UTF-8 ... convert the file to UTF-8, e.g. with iconv"; a file given by name is named."""
    import io
    import os

    from attnmt.cli.lines import line_batches
    from attnmt.errors import DataError

    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    with os.fdopen(read, "rb") as stream, pytest.raises(DataError, match=rf"^<stdin> is {named}\W.* not text"):
        next(line_batches(stream if piped else io.BytesIO(data)))


@pytest.mark.parametrize(("data", "named"), [(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF"),
                                             (b"PK\x03\x04\x14\x00\n\x00\x00\x00\x08\x00\xf1", "a zip archive")])
@pytest.mark.parametrize("input_format", ["text", "jsonl", "html", "xml"])
def test_an_office_file_or_a_pdf_in_a_pipe_given_by_name_is_named_as_on_stdin(trained_model, capsys, data, named,
                                                                                input_format):
    """``attnmt translate <(cat report.pdf)`` (the pipe /dev/fd/63) was read as text, to "invalid UTF-8
    at line 2", where the same bytes on stdin are named for what they are."""
    import os

    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    try:
        code, out, err = run_cli(["translate", "--model", trained_model, "--input-format", input_format,
                                  f"/dev/fd/{read}"], capsys)
    finally:
        os.close(read)
    assert (code, out) == (2, "")
    assert re.match(rf"attnmt: error: /dev/fd/{read} is {named}\W.* not text", err) and err.count("\n") == 1


@pytest.mark.parametrize("input_format", ["html", "xhtml", "xml"])
def test_a_pdf_on_stdin_read_as_a_page_is_named_before_any_line_is_translated(trained_model, capsys, monkeypatch,
                                                                               input_format):
    """``attnmt translate --input-format html < report.pdf`` ended in "<stdin>:2: invalid UTF-8 … iconv",
    where text, JSONL, Markdown and subtitles from stdin are named for what they are."""
    import io
    import sys
    from types import SimpleNamespace

    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")))
    code, out, err = run_cli(["translate", "--model", trained_model, "--input-format", input_format], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("attnmt: error: <stdin> is a PDF, not text") and err.count("\n") == 1


def test_translate_streams_a_pipe_line_by_line(trained_model):
    import select
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "attnmt", "translate", "--model", str(trained_model),
                                "--beam", "1", "--threads", "1"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for source, target in PAIRS[:3]:
            process.stdin.write(source + "\n")
            process.stdin.flush()
            # Answered while stdin is still open (a reader of the whole input would never answer).
            assert select.select([process.stdout], [], [], 60)[0], "no translation within 60 s"
            assert process.stdout.readline() == target + "\n"
    finally:
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_a_translate_process_ends_at_once_with_its_output_written_and_its_exit_code(trained_model, tmp_path):
    """``python -m attnmt translate`` ends with os._exit (no interpreter teardown): what it wrote
    to a file and to stdout is all there, and its exit code is main's."""
    import subprocess
    import sys

    source, target = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("".join(s + "\n" for s, _ in PAIRS) * 50, encoding="utf-8")
    command = [sys.executable, "-m", "attnmt", "translate", "--model", str(trained_model), "--beam", "1",
               "--threads", "1", str(source)]
    to_file = subprocess.run([*command, str(target)], capture_output=True, text=True, timeout=120)
    to_stdout = subprocess.run(command, capture_output=True, text=True, timeout=120)
    expected = [t for _, t in PAIRS] * 50
    assert to_file.returncode == to_stdout.returncode == 0
    assert target.read_text(encoding="utf-8").splitlines() == to_stdout.stdout.splitlines() == expected
    failed = subprocess.run([*command[:4], "--model", str(tmp_path / "missing"), str(source)],
                            capture_output=True, text=True, timeout=120)
    assert failed.returncode == 2 and failed.stderr.startswith("attnmt: error: ")


def test_a_translate_process_under_a_profiler_returns_so_that_the_profiler_writes_its_file(trained_model, tmp_path):
    """Ended with os._exit, ``python -m cProfile -o p.out -m attnmt translate`` wrote no p.out: the
    profiler writes it once the command returns."""
    import pstats
    import subprocess
    import sys

    source, target, profile = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "p.out"
    source.write_text("".join(s + "\n" for s, _ in PAIRS), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "attnmt", "translate",
                           "--model", str(trained_model), "--beam", "1", "--threads", "1", str(source), str(target)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert target.read_text(encoding="utf-8").splitlines() == [t for _, t in PAIRS]
    assert any(name == "main" and "cli/main.py" in path for path, _, name in pstats.Stats(str(profile)).stats)


def test_a_missing_extra_is_named_in_one_line(trained_model, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if attnmt[serve] were not installed
    monkeypatch.delitem(sys.modules, "attnmt.server.app", raising=False)
    code, _, err = run(["serve", "--model", trained_model], capsys)
    assert code == 2
    assert err == "attnmt: error: 'attnmt serve' needs fastapi, from the serve extra: pip install 'attnmt[serve]'\n"


def test_a_missing_form_parser_is_named_before_the_server_starts(trained_model, monkeypatch, capsys):
    """Without python-multipart, 'attnmt serve' started, and every form-encoded /translate, /detect
    and /translate_file answered 500 (Starlette checks for it only inside a request)."""
    import sys

    monkeypatch.setitem(sys.modules, "python_multipart", None)
    monkeypatch.delitem(sys.modules, "attnmt.server.app", raising=False)
    code, _, err = run(["serve", "--model", trained_model], capsys)
    assert code == 2
    assert err == ("attnmt: error: 'attnmt serve' needs python_multipart, from the serve extra: "
                   "pip install 'attnmt[serve]'\n")


def test_alignments_in_text_and_tsv(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("a man rides a bike\n\ntwo men walk\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--alignments", source], capsys)
    first, blank, third = out.splitlines()
    text, pairs = first.split(" ||| ")
    assert code == 0 and text == "ein mann fährt ein fahrrad" and blank == " ||| " and third.startswith("zwei männer")
    links = [tuple(map(int, p.split("-"))) for p in pairs.split()]
    assert links and all(0 <= s < 5 and 0 <= t < 5 for s, t in links)  # 5 words on each side
    assert {t for _, t in links} == set(range(5))  # every target word is linked
    code, out, _ = run(["translate", "--model", trained_model, "--alignments", "--output-format", "tsv",
                        "--alignment-layer", "0", source], capsys)
    assert code == 0 and all(len(row.split("\t")) == 8 for row in out.splitlines())  # + alignment, quality, flags
    code, _, err = run(["translate", "--model", trained_model, "--alignments", "--alignment-layer", "2", source],
                       capsys)
    assert code == 2 and "the model has 2 decoder layers" in err
    code, out, _ = run(["translate", "--model", trained_model, "--alignments", "--alignment-heads", "0,3", source],
                       capsys)
    assert code == 0 and out.splitlines()[0].startswith("ein mann fährt ein fahrrad ||| ")
    code, _, err = run(["translate", "--model", trained_model, "--alignments", "--alignment-heads", "4", source],
                       capsys)
    assert code == 2 and "the model has heads 0 to 3" in err


@pytest.mark.parametrize(("options", "message"), [
    (["--alignment-layer", "0"], "--alignment-layer chooses the attention word alignments are read from: add "
                                 "--alignments"),
    (["--alignment-layer", "0", "--alignment-heads", "1"], "--alignment-layer and --alignment-heads choose the "
                                                           "attention word alignments are read from: add --alignments"),
    (["--seed", "3"], "--seed only applies when sampling: set --sampling-topk to 0"),
])
def test_an_option_that_would_do_nothing_without_another_is_refused_in_one_line(trained_model, tmp_path, capsys,
                                                                               options, message):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, *options, source], capsys)
    assert code == 2 and out == "" and err.startswith(f"attnmt: error: {message}") and err.count("\n") == 1


def test_confidence_gives_each_output_piece_its_probability(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--output-format", "jsonl", "--confidence",
                        "--alignments", source], capsys)
    [hypothesis] = json.loads(out)["hypotheses"]
    pieces = [piece for piece, _ in hypothesis["confidence"]]
    assert code == 0 and "".join(pieces[:-1]).replace("▁", " ").strip() == "ein hund rennt" and pieces[-1] == "</s>"
    # The memorised pair costs < 0.2 nats in all (support.KNOWS_THE_PAIRS): every piece is > e^-0.2 likely.
    assert all(0.8 < p <= 1.0 for _, p in hypothesis["confidence"])
    assert hypothesis["alignment"]
    code, _, err = run(["translate", "--model", trained_model, "--confidence", source], capsys)
    assert code == 2 and "--output-format jsonl" in err


@pytest.mark.parametrize("command", ["translate", "serve"])
def test_int8_and_bf16_together_are_refused_in_one_line(trained_model, capsys, command):
    with pytest.raises(SystemExit) as stopped:
        main([command, "--model", str(trained_model), "--int8", "--bf16"])
    assert stopped.value.code == 2
    assert "argument --bf16: not allowed with argument --int8" in capsys.readouterr().err


def fake_serving(monkeypatch) -> tuple[list, list]:
    """attnmt serve without a model or a server: what it loads (bf16 or not) and the settings it serves with."""
    import attnmt.server.app
    from attnmt.cli.commands import serve as command

    loaded, served = [], []
    monkeypatch.setattr(command, "load_served", lambda pair, folder, args: loaded.append((pair, folder, args.bf16)))
    monkeypatch.setattr(attnmt.server.app, "serve", lambda *args, **options: served.append(args[3]))  # settings
    return loaded, served


def test_serve_takes_bf16_as_translate_does(monkeypatch):
    loaded, _ = fake_serving(monkeypatch)
    assert main(["serve", "--model", "m", "--bf16"]) == 0 and main(["serve", "--model", "m"]) == 0
    assert loaded == [(None, "m", True), (None, "m", False)]


def test_serve_takes_several_models_each_with_its_pair(monkeypatch, capsys):
    loaded, _ = fake_serving(monkeypatch)
    assert main(["serve", "--model", "en-de=runs/a", "--model", "de-en=runs/b"]) == 0
    assert loaded == [("en-de", "runs/a", False), ("de-en", "runs/b", False)]
    assert main(["serve", "--model", "en-de=runs/a", "--model", "de-en=runs/b", "--weights", "w"]) == 2
    assert "--weights belongs to one model: give it with a single --model" in capsys.readouterr().err
    assert main(["serve", "--model", "english=runs/a"]) == 2
    assert "'english' is not a language pair" in capsys.readouterr().err


def test_a_served_models_pair_names_the_language_its_glossary_terms_are_read_in(monkeypatch, trained_model):
    """German's rules for a weak noun follow a German target alone (Transformer.target_lang): the tiny model's
    record names no language, and ``en-fr=`` makes it French."""
    import attnmt.server.app

    served = []
    monkeypatch.setattr(attnmt.server.app, "serve", lambda *args, **options: served.append(args[0]))
    assert main(["serve", "--model", f"en-fr={trained_model}"]) == 0
    assert main(["serve", "--model", str(trained_model)]) == 0
    assert [models[0].model.target_lang for models in served] == ["fr", None]


@pytest.mark.parametrize("port, message", [("70000", "must be at most 65535, got 70000"),
                                           ("-1", "must be at least 0, got -1")])
def test_a_port_outside_0_to_65535_is_refused_before_any_model_is_loaded(monkeypatch, capsys, port, message):
    loaded, _ = fake_serving(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--model", "m", "--port", port])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and f"argument --port: {message}" in err and loaded == []


@pytest.mark.parametrize("option, value, least", [("--body-timeout", "nan", 1), ("--shutdown-timeout", "nan", 1),
                                                  ("--file-ttl", "nan", 1), ("--header-timeout", "0", 1),
                                                  ("--batch-window-ms", "inf", 0)])
def test_serve_seconds_that_are_no_finite_number_at_least_the_least_are_refused_naming_the_flag(
        monkeypatch, capsys, option, value, least):
    loaded, _ = fake_serving(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--model", "m", option, value])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and loaded == []
    assert f"argument {option}: expected a finite number >= {least}, got '{value}'" in err


def test_serve_batch_size_is_named_as_in_translate_and_the_old_name_still_works(monkeypatch, capsys):
    _, served = fake_serving(monkeypatch)
    assert main(["serve", "--model", "m", "--batch-size", "8"]) == 0
    assert main(["serve", "--model", "m", "--max-batch", "4"]) == 0
    assert [settings.max_batch for settings in served] == [8, 4]
    assert "--max-batch is now --batch-size 4" in capsys.readouterr().err


def test_serve_keeps_metrics_to_loopback_and_a_key_when_asked(monkeypatch, tmp_path, capsys):
    import attnmt.server.app
    from attnmt.server.access import MetricsAccess

    fake_serving(monkeypatch)
    kept = []
    monkeypatch.setattr(attnmt.server.app, "serve", lambda *args: kept.append(args[-1]))  # the metrics access
    (tmp_path / "metrics.key").write_text("scrape-token\n", encoding="utf-8")
    assert main(["serve", "--model", "m"]) == 0
    assert main(["serve", "--model", "m", "--metrics-access", "loopback",
                 "--metrics-key-file", str(tmp_path / "metrics.key")]) == 0
    assert kept == [MetricsAccess(), MetricsAccess(loopback=True, key="scrape-token")]
    assert main(["serve", "--model", "m", "--metrics-key-file", str(tmp_path / "none.key")]) == 2
    assert "none.key: cannot read the metrics key" in capsys.readouterr().err


def test_average_and_plot_take_the_model_directory_as_every_command_does(trained_copy, capsys):
    assert main(["average", "--model", str(trained_copy), "--last", "2"]) == 0
    assert "note:" not in capsys.readouterr().err
    assert main(["average", str(trained_copy), "--last", "2"]) == 0  # the form of 0.1, for one more release
    assert "give the model directory as --model" in capsys.readouterr().err
    assert main(["average", "--last", "2"]) == 2
    assert "give the model directory: --model MODEL_DIR" in capsys.readouterr().err


def test_attnmts_warnings_are_one_line_on_the_command_line(trained_model, tmp_path):
    """Python would show a warning as two lines: the file and line of attnmt's code that warned, then
    that line of code.  The command shows attnmt's own as the one line that names the input."""
    import subprocess
    import sys

    source = tmp_path / "film.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:02,000\na dog runs\n\nno timing here\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "attnmt", "translate", "--model", str(trained_model), "--beam", "1",
                           str(source)], capture_output=True, text=True, timeout=120)
    warned = [line for line in done.stderr.splitlines() if "film.srt" in line or "warnings.warn" in line]
    assert done.returncode == 0 and warned == [
        f"attnmt: warning: {source}, line 5: a block without a timing line (00:00:01,000 --> 00:00:02,500) is not "
        "a cue, so it is left untranslated (if it goes on with the cue before it, take out the blank line)"]


def test_only_attnmts_own_warnings_are_shortened():
    """Other libraries' warnings keep Python's form, those raised inside attnmt's calls included
    (their file is then attnmt's): only the category says whose a warning is."""
    import warnings

    from attnmt.cli.main import one_line
    from attnmt.errors import AttnmtWarning

    here = str(Path(__file__))
    assert one_line(AttnmtWarning("in.srt, line 3: odd"), AttnmtWarning, here, 12) == \
        "attnmt: warning: in.srt, line 3: odd\n"
    assert one_line(AttnmtWarning("attnmt: a copy is unreadable"), AttnmtWarning, here, 12) == \
        "attnmt: a copy is unreadable\n"
    for category in (UserWarning, RuntimeWarning, DeprecationWarning):
        theirs = one_line(category("something"), category, here, 7, "x = 1")
        assert theirs == warnings.formatwarning(category("something"), category, here, 7, "x = 1")
        assert category.__name__ in theirs


NO_CUDA = ("this PyTorch (.*) is built for the CPU only; install a CUDA build of it to use a GPU, or leave out "
           "--device cuda")
NO_GPU = "PyTorch sees no GPU here; 'attnmt doctor' says what it sees"


@pytest.mark.parametrize(("built_for", "why"), [(None, NO_CUDA), ("12.4", NO_GPU)])
def test_a_device_pytorch_cannot_use_is_one_line(trained_model, tmp_path, capsys, monkeypatch, built_for, why):
    """--device cuda where this PyTorch has no CUDA, or sees no GPU: one line, before the model loads
    (it was a traceback from inside torch)."""
    import re

    import torch

    monkeypatch.setattr(torch.version, "cuda", built_for)
    monkeypatch.setattr(torch.version, "hip", None, raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_model, "--device", "cuda", source], capsys)
    assert code == 2 and re.fullmatch(f"attnmt: error: --device cuda: {why}\n", err)


def test_training_on_a_device_pytorch_cannot_use_is_one_line(monkeypatch):
    import torch

    from attnmt.errors import ConfigError
    from attnmt.training.distributed import pick_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert pick_device("auto", 0) == torch.device("cpu")
    with pytest.raises(ConfigError, match="^device cuda: "):
        pick_device("cuda", 0)


def test_training_on_a_numbered_gpu_of_a_cpu_build_is_the_same_one_line(monkeypatch):
    import torch

    from attnmt.errors import ConfigError
    from attnmt.training.distributed import pick_device

    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.version, "hip", None, raising=False)
    with pytest.raises(ConfigError, match=r"^device cuda:0: this PyTorch \(.*\) is built for the CPU only; "):
        pick_device("cuda:0", 0)


def test_serve_refuses_the_old_and_new_batch_size_names_together(monkeypatch, capsys):
    """--max-batch quietly won: ``--max-batch 4 --batch-size 8`` served batches of 4.  Left out, both
    give the server's own default."""
    _, served = fake_serving(monkeypatch)
    assert main(["serve", "--model", "m", "--max-batch", "4", "--batch-size", "8"]) == 2
    assert capsys.readouterr().err == ("attnmt: error: --max-batch is the old name of --batch-size: give "
                                       "--batch-size 8 alone\n")
    assert main(["serve", "--model", "m"]) == 0 and [settings.max_batch for settings in served] == [32]


def test_serve_refuses_an_old_max_batch_of_0_naming_it(monkeypatch, capsys):
    """It was refused by the server's settings, in their words: "serve setting max_batch ..."."""
    fake_serving(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--model", "m", "--max-batch", "0"])
    assert stopped.value.code == 2
    error = "argument --max-batch: must be at least 1, got 0"
    assert capsys.readouterr().err.splitlines()[-1] == f"attnmt serve: error: {error}"


# What translating a line of plain text has no use for (issue 44: a one-line job starts in about a second, and
# each of these took its share of it): the readers of subtitles, of Word's and HTML's pages, of glossary files;
# training's config and corpora; what writes JSONL's texts and the lines of --n-best, --alignments, --confidence;
# the export to other engines; quality estimation and its calibration, which a job without --review, --min-quality,
# --below-quality or a tsv or jsonl output never reads.
NOT_FOR_PLAIN_TEXT = ("attnmt.documents.subtitles", "attnmt.documents.ass_subtitles", "attnmt.documents.cue_text",
                      "attnmt.documents.fields", "attnmt.documents.ooxml", "attnmt.documents.pages",
                      "attnmt.decoding.glossary_files", "attnmt.decoding.termbase", "attnmt.train_config",
                      "attnmt.training.tokenize_corpora", "attnmt.cli.translate_jsonl", "attnmt.documents.paragraphs",
                      "attnmt.interop.export", "attnmt.decoding.quality", "attnmt.decoding.quality_features",
                      "attnmt.decoding.calibration", "attnmt.decoding.elsewhere", "attnmt.decoding.forced",
                      "attnmt.decoding.fitting", "attnmt.decoding.noising", "attnmt.documents.review")
# ``attnmt ARGV`` in this process, then its status and the attnmt modules it loaded.
LOADED = """
import sys
from attnmt.cli.main import main
status = main(sys.argv[1:])
print(status, *sorted(name for name in sys.modules if name.startswith("attnmt")))
"""


def test_translating_a_line_of_plain_text_loads_no_reader_of_other_formats(trained_model, tmp_path):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", LOADED, "translate", "--model", trained_model, source, output],
                         capture_output=True, text=True, timeout=300, check=True)
    status, *loaded = run.stdout.split()
    assert status == "0" and output.read_text(encoding="utf-8") == "ein hund rennt\n"
    assert [name for name in NOT_FOR_PLAIN_TEXT if name in loaded] == []


# ``attnmt ARGV`` in this process, each pattern it compiles noted, then its status and which of the patterns that a
# line of plain text read whole never reads it compiled: those of other texts' readers (issue 44: each of the first
# three takes some 0.015 s to compile, and the job's start-up is a second).
COMPILED = """
import re
import sys
compiled = set()
compile_now = re.compile
re.compile = lambda pattern, flags=0: compiled.add(pattern) or compile_now(pattern, flags)
from attnmt.cli.main import main
status = main(sys.argv[1:])
re.compile = compile_now
from attnmt.decoding import protected
from attnmt.documents import text_emphasis
quotes = "|".join(text_emphasis.quote_pattern(k, *pair) for k, pair in enumerate(text_emphasis.QUOTES))
unread = {"PROTECTED": protected.PROTECTED.pattern, "SENTENCE_PROTECTED": protected.SENTENCE_PROTECTED.pattern,
          "PROSE_PROTECTED": protected.PROSE_PROTECTED.pattern, "HOST": protected.HOST.pattern, "quotes": quotes}
print(status, *sorted(name for name, pattern in unread.items() if pattern in compiled))
"""


def test_translating_a_line_read_whole_compiles_no_pattern_only_other_texts_read(trained_model, tmp_path):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", COMPILED, "translate", "--model", trained_model, "--no-split", source,
                          output], capture_output=True, text=True, timeout=300, check=True)
    assert output.read_text(encoding="utf-8") == "ein hund rennt\n"
    assert run.stdout.split() == ["0"]


# The attnmt.documents modules that reading and writing lines loads (the formats it refuses from a pipe too).
LINES_LOADED = """
import sys
import attnmt.cli.lines
print(*sorted(name for name in sys.modules if name.startswith("attnmt.documents")))
"""


def test_reading_and_writing_lines_loads_no_document_pipeline():
    """Every command loads attnmt.cli.lines (attnmt.cli.main: standard_streams), ``attnmt --help`` too; its line end
    and the refused formats' extensions and first bytes (attnmt.cli.formats) came from attnmt.documents, whose
    package loaded the whole pipeline, quality estimation with it (issue 44)."""
    run = subprocess.run([sys.executable, "-c", LINES_LOADED], capture_output=True, text=True, timeout=300, check=True)
    assert run.stdout.split() == []


@pytest.mark.parametrize(("given", "read_in"), [(["--target-lang", "de"], "de"), (["--target-lang", "fr"], "fr"),
                                                ([], None)])
def test_translates_target_lang_names_the_language_its_glossary_terms_are_read_in(
        trained_model, tmp_path, capsys, monkeypatch, given, read_in):
    """A model whose record names no language (one imported from Marian, the tiny model) takes --target-lang's:
    German's weak-noun endings follow a German target alone (Transformer.target_lang)."""
    import attnmt.cli.commands.translate as command

    loaded = []

    def load_and_keep(args):
        answer = real_load(args)
        loaded.append(answer[0])
        return answer

    real_load = command.load_for_translation
    monkeypatch.setattr(command, "load_for_translation", load_and_keep)
    source = tmp_path / "in.txt"
    source.write_text("a cat sleeps\n", encoding="utf-8")
    code, _, _ = run(["translate", "--model", trained_model, "--beam", "1", *given, str(source),
                      str(tmp_path / "out.txt")], capsys)
    assert code == 0 and [model.target_lang for model in loaded] == [read_in]
