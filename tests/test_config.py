"""Configs: every number in its key's range when the config is built, and a config file or override
that cannot be read as one line naming it."""

import json
import math
import os
import re

import numpy as np
import pytest
import yaml
from support import run_cli, tiny_config

from attnmt.config import TransformerConfig
from attnmt.config_file import UniqueKeyLoader, read_config_file, yaml_problem
from attnmt.config_ranges import check_even_d_model, parse_duration, written_whole_number
from attnmt.errors import ConfigError, ConversionError
from attnmt.interop.marian import attnmt_config
from attnmt.train_config import CorpusSpec, TrainConfig, check_paths_from_here, load_config

# A value outside each numeric key's range, and what the error says (matched literally).
OUT_OF_RANGE = [
    ("max_len", 0, "max_len=0: use a whole number of at least 1"),
    ("max_length_ratio", -1, "max_length_ratio=-1.0: use a ratio of at least 1 (the longer side's tokens over the "
                             "shorter's), or 0 for no limit"),
    ("max_length_ratio", 0.5, "max_length_ratio=0.5: use a ratio of at least 1"),  # it dropped every pair
    ("prepare_workers", -1, "prepare_workers=-1: use a number of processes, or 0 for one per CPU core"),
    ("vocab_size", 3, "vocab_size=3: use a whole number from 5 to 2,097,152"),
    ("max_tokens", 0, "max_tokens=0: use a whole number of at least 1"),
    ("accumulate_steps", 0, "accumulate_steps=0: use a whole number of at least 1"),
    ("label_smoothing", 1.5, "label_smoothing=1.5: use a number from 0 to below 1"),
    ("label_smoothing", "nan", "label_smoothing=nan: use a number from 0 to below 1"),
    ("lr_factor", -1, "lr_factor=-1.0: use a number above 0"),
    ("learning_rate", "inf", "learning_rate=inf: use a rate above 0, or leave it unset for the noam schedule"),
    ("warmup_steps", 0, "warmup_steps=0: the noam schedule (learning_rate unset) needs at least 1 step of warm-up"),
    ("adam_eps", 0, "adam_eps=0.0: use a number above 0"),
    ("adam_betas", [2, 3], "adam_betas=[2, 3]: use two numbers from 0 to below 1, like [0.9, 0.98]"),
    ("adam_betas", ["a", 0.9], "adam_betas=['a', 0.9]: use two numbers from 0 to below 1"),
    ("clip_norm", -1, "clip_norm=-1.0: use a gradient norm above 0, or 0 for no clipping"),
    ("max_steps", -5, "max_steps=-5: use a whole number of at least 1"),
    ("seed", 99999999999999999999, "seed=99999999999999999999: use a whole number from -9,223,372,036,854,775,808 "
                                   "to 9,223,372,036,854,775,807"),  # as typed: it was shown as 1e20, through a float
    ("max_time", "0m", "max_time='0m': use a time above 0"),
    ("eval_every", 0, "eval_every=0: use a whole number of at least 1"),
    ("eval_beam", 0, "eval_beam=0: use a whole number of at least 1"),
    ("patience", -1, "patience=-1: use a number of validations, or 0 to never stop early"),
    ("save_every", -1, "save_every=-1: use a number of steps, or 0 to save only at validation"),
    ("keep_last", 0, "keep_last=0: use a whole number of at least 1"),
    ("log_every", 0, "log_every=0: use a whole number of at least 1"),
    ("model", {"dropout": 1.5}, "model: dropout=1.5: use a dropout probability from 0 to below 1"),
    ("model", {"attention_dropout": -0.1}, "model: attention_dropout=-0.1: use a dropout probability from 0"),
    ("model", {"activation_dropout": 1}, "model: activation_dropout=1.0: use a dropout probability from 0 to below 1"),
    ("model", {"pad_id": 8000}, "model: pad_id=8000: use an id from 0 to 7999 (below vocab_size)"),
]


@pytest.mark.parametrize(("key", "value", "message"), OUT_OF_RANGE)
def test_a_number_outside_its_keys_range_is_refused_naming_key_value_and_range(key, value, message):
    with pytest.raises(ConfigError) as refused:
        TrainConfig.from_dict({key: value})
    assert message in str(refused.value)


@pytest.mark.parametrize(("key", "value"), [
    ("label_smoothing", 0), ("clip_norm", 0), ("patience", 0), ("save_every", 0), ("lr_cooldown", 1),
    ("max_length_ratio", 0), ("max_length_ratio", 1), ("seed", 0), ("threads", 0), ("prepare_workers", 0),
    ("vocab_size", 5), ("adam_betas", [0, 0.999]), ("model", {"dropout": 0, "pad_id": 7999}),
])
def test_the_ends_of_each_range_that_mean_something_are_valid(key, value):
    TrainConfig.from_dict({key: value})


@pytest.mark.parametrize("value", [2**53 + 1, str(2**53 + 1)])
def test_a_whole_number_is_kept_to_its_last_digit(value):
    """Read through a float, a seed of 2**53 + 1 became 2**53: another seed than given, silently."""
    assert TrainConfig.from_dict({"seed": value}).seed == 2**53 + 1


@pytest.mark.parametrize("text, number", [("42", 42), ("007", 7), ("", None), ("-1", None), (" 4", None),
                                          ("4.0", None), ("\N{SUPERSCRIPT TWO}", None),
                                          ("\N{ARABIC-INDIC DIGIT THREE}", None), ("9" * 5000, None)])
def test_a_written_whole_number_is_ascii_digits_alone(text, number):
    """str.isdigit is true of "²", which int() refuses, and of "٣", which int() reads as 3."""
    assert written_whole_number(text) == number


def test_no_warm_up_is_valid_with_a_constant_learning_rate():
    assert TrainConfig.from_dict({"warmup_steps": 0, "learning_rate": 1e-4}).warmup_steps == 0


def test_a_model_config_out_of_range_is_refused_where_it_is_built():
    with pytest.raises(ConfigError, match="eos_id=-1: use an id from 0 to 99"):
        TransformerConfig(vocab_size=100, eos_id=-1)


@pytest.mark.parametrize(("ids", "first", "second"), [
    (dict(bos_id=3), "bos_id", "eos_id"),  # a search never writes BOS: nor the EOS then, and the output ran on
    (dict(eos_id=0), "pad_id", "eos_id"),  # padding is masked: so was every </s>
    (dict(unk_id=0), "pad_id", "unk_id"),
])
def test_special_tokens_sharing_an_id_are_refused_naming_both_keys(ids, first, second):
    with pytest.raises(ConfigError, match=f"^{first} and {second} are both {[*ids.values()][0]}: each special token "
                                          "needs an id of its own"):
        TransformerConfig(vocab_size=100, **ids)


def test_bos_may_be_pad_as_in_models_imported_from_marian():
    config = TransformerConfig(vocab_size=100, pad_id=99, bos_id=99, eos_id=0, unk_id=1)  # OPUS-MT's layout
    assert (config.pad_id, config.bos_id, config.eos_id) == (99, 99, 0)


@pytest.mark.parametrize("changes, message", [
    (dict(activation="tanh"), "activation='tanh': use 'relu', 'gelu' or 'swish'"),
    (dict(positional_layout="xx"), "positional_layout='xx': use 'interleaved' or 'half'"),
    (dict(norm_first="no"), "norm_first must be true or false, got 'no'"),  # was a pre-norm model: "no" is true
    (dict(tie_embeddings=0), "tie_embeddings must be true or false, got 0"),
])
def test_a_model_config_built_in_python_refuses_what_from_dict_refuses(changes, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        TransformerConfig(vocab_size=100, **changes)


def test_train_refuses_an_odd_d_model_with_sinusoidal_positions_in_one_line_naming_the_key(tmp_path, capsys):
    """It stopped with a ValueError traceback from the positional table once the model was built."""
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(tiny_config(tmp_path).to_dict()))
    code, out, err = run_cli(["train", path, "--model.d-model", "63", "--model.n-heads", "7"], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["attnmt: error: model: d_model=63: sinusoidal positions need an even d_model (a "
                                "sine and a cosine for each frequency); use an even one, or positional: learned"]
    assert TransformerConfig(d_model=63, n_heads=7, positional="learned").d_model == 63  # no table, no pairs


def test_one_rule_refuses_an_odd_d_model_for_sinusoidal_positions_in_each_readers_words():
    """The rule was written twice, in the model config and in the Marian import; each now only words it."""
    check_even_d_model(64, "", "")
    with pytest.raises(ConversionError, match=r"^d_model=33: attnmt's sinusoidal positions need an even d_model, "
                                              r"so it cannot import this model$"):
        attnmt_config({"d_model": 33, "encoder_attention_heads": 3, "decoder_attention_heads": 3,
                       "encoder_ffn_dim": 64, "decoder_ffn_dim": 64, "activation_function": "relu"}, 1, False)
    with pytest.raises(ConfigError, match=r"^d_model=9: the table's sinusoidal positions need an even d_model!$"):
        check_even_d_model(9, "the table's ", "!")


def test_a_model_config_built_positionally_keeps_each_arguments_meaning():
    """activation_dropout, added between attention_dropout and max_positions, took a ninth
    positional argument (max_positions's 1024) as a dropout probability; it comes last."""
    config = TransformerConfig(100, 32, 2, 1, 1, 64, 0.1, 0.0, 256, True)
    assert (config.attention_dropout, config.max_positions, config.norm_first) == (0.0, 256, True)
    assert config.activation_dropout is None


def test_numpys_bools_are_the_bools_they_are():
    config = TransformerConfig(norm_first=np.True_, tie_embeddings=np.False_)
    assert (config.norm_first, config.tie_embeddings) == (True, False) and type(config.norm_first) is bool
    assert json.loads(json.dumps(config.to_dict()))["norm_first"] is True


def test_the_command_line_says_an_out_of_range_override_in_one_line(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(tiny_config(tmp_path).to_dict()))  # JSON is YAML too
    code, out, err = run_cli(["train", path, "--warmup-steps", "0"], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["attnmt: error: warmup_steps=0: the noam schedule (learning_rate unset) needs "
                                "at least 1 step of warm-up"]


def test_a_config_that_is_not_utf8_names_the_file_and_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"max_steps: 10\nout_dir: r\xe9sultats\n")
    with pytest.raises(ConfigError, match=r"c.yaml: line 2: byte 0xe9 is not UTF-8; save the config as UTF-8"):
        load_config(path)


@pytest.mark.parametrize(("text", "message"), [
    ("max_steps: [5\n", "line 1, column 12: not valid YAML: a list starts here with '[', and the file ends before "
                         "it is closed"),
    ("max_steps: 5\nout_dir\nlr: 2\n", "line 3, column 1: not valid YAML: could not find expected ':' "
                                       "(while scanning a simple key from line 2, column 1)"),
    ("max_steps: 5: 6\n", "line 1, column 13: not valid YAML: mapping values are not allowed here"),
    ("max_steps: 5\n\x07lr: 2\n", "line 2: not valid YAML: character #x0007: special characters are not allowed"),
    ("".join(f"key{n}: {n}\n" for n in range(10)) + "sub:\n  a: 1\n b: 2\n",
     "line 13, column 2: not valid YAML: expected <block end>, but found '<block mapping start>' "
     "(while parsing a block mapping from line 1, column 1)"),
    ("x: 1\n---\ny: 2\n",
     "line 2, column 1: not valid YAML: expected a single document in the stream, but found another document"),
    ("x: 1\n? [a, b]\n",
     "line 2, column 3: not valid YAML: found unhashable key (while constructing a mapping from line 1, column 1)"),
    ("a: &x 1\nmax_steps: 5\nb: &x 2\n",
     "line 3, column 4: not valid YAML: found duplicate anchor 'x' (first at line 1, column 4)"),
], ids=["a list never closed", "a key without its colon", "two colons", "a control character", "a bad indent",
        "two documents", "a list as a key", "an anchor twice"])
def test_a_config_that_is_not_yaml_is_one_line_naming_the_file_line_and_column(tmp_path, capsys, text, message):
    """It was PyYAML's message on seven lines, naming "<unicode string>" instead of the file.  The
    place is where PyYAML stopped: the start of what it was reading (line 1, for a bad indent
    deep in the file) follows in words.  A list never closed was named at the line after the
    last, where the file ends; an anchor given twice was "first occurrence, second occurrence"
    with no place for the first."""
    path = tmp_path / "c.yaml"
    path.write_text(text)
    code, out, err = run_cli(["train", path, "--out-dir", tmp_path / "runs"], capsys)
    assert (code, out, err) == (2, "", f"attnmt: error: {path}: {message}\n")
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(("text", "place", "opened"), [
    ('max_steps: 5\nname: "abc\n', "line 2, column 7", "a quoted value starts here with '\"'"),
    ("max_steps: 5\nname: 'abc", "line 2, column 7", "a quoted value starts here with \"'\""),
    ("max_steps: 5\nx: {a: 1\n", "line 2, column 4", "a mapping starts here with '{'"),
    ("x: {a: 1\n\n# the end\n", "line 1, column 4", "a mapping starts here with '{'"),
    ("x: {a: [1, 2\n", "line 1, column 8", "a list starts here with '['"),
    ('x: ["a, b]\n', "line 1, column 5", "a quoted value starts here with '\"'"),
    ("\ufeffx: {a: 1\r\n", "line 1, column 4", "a mapping starts here with '{'"),
    ("x: [\n  a,\n", "line 1, column 4", "a list starts here with '['"),
    ("x: [a, b,\n", "line 1, column 4", "a list starts here with '['"),
    ("x: {a:\n", "line 1, column 4", "a mapping starts here with '{'"),
    ("x: [\n", "line 1, column 4", "a list starts here with '['"),
    ("x: [a, {b: 1,\n", "line 1, column 8", "a mapping starts here with '{'"),
    ("x: ['[', b,\n", "line 1, column 4", "a list starts here with '['"),
], ids=["a quote", "a quote on the last line without its newline", "a mapping", "blank lines and a comment after",
        "the innermost of two", "a quote inside a list", "a byte order mark and CRLF", "a list ending after a comma",
        "a list ending after a comma on its line", "a mapping ending after a key", "a list ending at its bracket",
        "a mapping ending after a comma in a list", "a bracket in quotes is no bracket"])
def test_a_quote_or_bracket_the_file_ends_inside_is_named_where_it_opens(text, place, opened):
    """PyYAML stops at the end of the file, which was the line after the last one, with where the
    quote or bracket opened in words after it; that place is the one to name."""
    assert yaml_problem(error_of(text), text) == (f"{place}: not valid YAML: {opened}, "
                                                  "and the file ends before it is closed")


@pytest.mark.parametrize(("text", "message"), [
    ("x: [1, 2}\n", "line 1, column 9: not valid YAML: expected ',' or ']', but got '}' "
                    "(while parsing a flow sequence from line 1, column 4)"),
    ('x: "a\n---\n', "line 2, column 1: not valid YAML: found unexpected document separator "
                   "(while scanning a quoted scalar from line 1, column 4)"),
], ids=["closed with the wrong bracket", "a document separator inside a quote"])
def test_a_quote_or_bracket_that_goes_wrong_before_the_end_is_named_where_the_parser_stopped(text, message):
    assert yaml_problem(error_of(text), text) == message


def error_of(text: str) -> yaml.YAMLError:
    """The error PyYAML raises reading ``text`` as a config."""
    with pytest.raises(yaml.YAMLError) as caught:
        yaml.load(text, UniqueKeyLoader)
    return caught.value


@pytest.mark.parametrize(("key", "text", "value"), [
    ("out_dir", "@runs", "@runs"),  # YAML reserves @: a key of text takes it as typed
    ("out_dir", "007", "007"),  # not the number 7
    ("max_time", "90", "90"),
    ("tokenizer", "null", None),
])
def test_an_override_of_a_text_key_is_the_text_as_typed(tmp_path, key, text, value):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    assert getattr(load_config(path, {key: text}), key) == value


DASH_REFUSED = "out_dir - would write the model into a folder named '-' ('-' names stdin or stdout elsewhere)"


def test_an_out_dir_of_dash_is_one_config_error_from_python_as_from_the_command_line(tmp_path):
    # the command line's "-" was YAML's list [null]: "--out-dir must be text, got [None]"; Python's trained into "-"
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(DASH_REFUSED)}"):
        TrainConfig(out_dir="-")
    with pytest.raises(ConfigError, match=f"^{re.escape(DASH_REFUSED)}"):
        load_config(path, {"out_dir": "-"})


@pytest.mark.parametrize("out_dir", ["- ", " -", "-\t", " - \n"])
def test_an_out_dir_of_dash_with_spaces_around_it_is_refused_as_dash_is(out_dir):
    # compared as written, "- " was a name: the run trained into a folder "- ", which a listing shows as "-"
    with pytest.raises(ConfigError, match=rf"^out_dir - would write the model into a folder named "
                                          rf"{re.escape(repr(out_dir))} \('-' names stdin or stdout elsewhere\)"):
        TrainConfig(out_dir=out_dir)


def test_an_override_that_is_not_yaml_names_the_key(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match=r"^--max-steps: '\[a' is not valid YAML \(.*\); write a number"):
        load_config(path, {"max_steps": "[a"})
    with pytest.raises(ConfigError, match=r"max_time='\[a': use a number with s, m, h or d"):
        load_config(path, {"max_time": "[a"})
    with pytest.raises(ConfigError, match=r"^--seed: '!!int abc' is not valid YAML \(a tagged value cannot be read "
                                          r"\(ValueError: invalid literal"):
        load_config(path, {"seed": "!!int abc"})  # a ValueError traceback


def test_a_model_override_fills_an_empty_model_section(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\nmodel:\n")
    assert load_config(path, {"model.d_model": "32", "model.n_heads": "2"}).model == {"d_model": 32, "n_heads": 2}


def test_activation_dropout_is_a_model_key_of_the_file_and_the_command_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("model:\n  activation_dropout: 0.0\n")
    assert load_config(path).model == {"activation_dropout": 0.0}
    assert load_config(path, {"model.activation_dropout": "0.2"}).model == {"activation_dropout": 0.2}
    assert load_config(path, {"model.activation_dropout": "null"}).model == {"activation_dropout": None}


def test_a_model_override_into_a_model_that_is_not_a_section_is_refused(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("model: 5\n")
    with pytest.raises(ConfigError, match="--model.d_model: model must be a mapping of keys, but the config sets "
                                          "it to 5"):
        load_config(path, {"model.d_model": "32"})


@pytest.mark.parametrize(("override", "message"), [
    ({"max_tiem": "5m"}, "--max-tiem (command line): unknown key max_tiem (did you mean max_time?); valid keys: "
                         "train_src, train_tgt,"),
    ({"model.d_modl": "64"}, "--model.d-modl (command line): unknown model key d_modl (did you mean d_model?); "
                             "valid model keys: vocab_size, d_model,"),
    ({"modle.d_model": "64"}, "--modle.d-model (command line): unknown key modle (did you mean model?); valid keys: "
                              "train_src,"),
])
def test_a_misspelled_override_is_named_as_typed_not_blamed_on_the_config_file(tmp_path, override, message):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\nmodel:\n  d_model: 16\n  n_heads: 2\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}"):
        load_config(path, override)


def test_overrides_of_free_keys_and_of_earlier_releases_keys_stay_valid(tmp_path):
    """tokenizer_options takes any key (SentencePiece's); eval_bleu is a 0.1 config's eval_metric."""
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    config = load_config(path, {"tokenizer_options.model_type": "bpe", "eval_bleu": "false"})
    assert config.tokenizer_options == {"model_type": "bpe"} and config.eval_metric == "loss"


def test_prepare_says_a_misspelled_override_in_one_line_before_writing(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(tiny_config(tmp_path).to_dict()))
    code, out, err = run_cli(["prepare", path, "--vocab-sise", "300", "--out", tmp_path / "prep"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("attnmt: error: --vocab-sise (command line): unknown key vocab_sise (did you mean "
                          "vocab_size?); valid keys: ")
    assert err.count("\n") == 1 and not (tmp_path / "prep").exists()


@pytest.mark.parametrize("resume", [False, True])
def test_train_says_a_misspelled_override_before_building_the_kernels(tmp_path, capsys, monkeypatch, resume):
    # On a fresh cache the C++ kernels take about 30 s to build: a typo should not wait for them.
    from attnmt.checkpoint import TRAIN_CONFIG
    from attnmt.fast import extension

    built = []
    monkeypatch.setattr(extension, "available", lambda: built.append(True) or True)
    path = tmp_path / TRAIN_CONFIG  # a run's own config, which --resume reads
    path.write_text(json.dumps(tiny_config(tmp_path).to_dict()))
    code, out, err = run_cli(["train", *(["--resume", tmp_path] if resume else [path]), "--max-tiem", "5m"], capsys)
    assert (code, built) == (2, [])
    assert err.startswith("attnmt: error: --max-tiem (command line): unknown key max_tiem")


def test_max_time_as_a_bare_number_is_seconds(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_time: 90\n")
    assert parse_duration(load_config(path).max_time) == 90.0
    assert math.isclose(parse_duration(load_config(path, {"max_time": "1.5"}).max_time), 1.5)


def test_a_number_where_text_is_meant_is_refused_not_rewritten(tmp_path):
    """YAML reads an unquoted 007 as the number 7: out_dir "7" would not be the folder meant."""
    path = tmp_path / "c.yaml"
    path.write_text("out_dir: 007\n")
    with pytest.raises(ConfigError, match=r"out_dir must be text, got the number 7: put it in quotes"):
        load_config(path)
    path.write_text("out_dir: '007'\n")
    assert load_config(path).out_dir == "007"


@pytest.mark.parametrize(("text", "named"), [
    ('valid_src: ""\n', "valid_src"), ("train_src: ''\ntrain_tgt: b.de\n", "train_src"),
    ('out_dir: ""\n', "out_dir"), ('tokenizer: "  "\n', "tokenizer"), ("valid_tgt: ''\n", "valid_tgt"),
    ("train: [{src: a.en, tgt: a.de, valid_src: '', valid_tgt: v.de}]\n", "train[0]: valid_src"),
    ("train: [{tsv: ''}]\n", "train[0]: tsv"),
])
def test_an_empty_path_in_a_config_file_is_refused_naming_the_file_and_key(tmp_path, text, named):
    """Read as the current folder, valid_src: "" failed only after the corpora were prepared ("cannot
    read .: is a directory"), and out_dir: "" trained into the folder the run started in."""
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: {re.escape(named)}: '\s*' is an empty path, "
                                          "which would be the current folder: give a file or folder"):
        load_config(path)


@pytest.mark.parametrize(("text", "named"), [
    ("train_src: tr.en\ntrain_tgt: ./tr.en\n", "train_src and train_tgt both name tr.en"),
    ("valid_src: va.en\nvalid_tgt: va.en\n", "valid_src and valid_tgt both name va.en"),
    ("train: [{src: tr.en, tgt: tr.en}]\n", "train[0]: src and tgt both name tr.en"),
    ("train: [{tsv: c.tsv, valid_src: va.de, valid_tgt: va.de}]\n", "train[0]: valid_src and valid_tgt both name"),
])
def test_a_source_and_target_key_naming_one_file_is_refused_naming_both_keys(tmp_path, text, named):
    """train_tgt: tr.en, a typo away from tr.de, was trained on: a model that learnt to copy its input."""
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: {re.escape(named)}.*, so each sentence would "
                                          "be its own translation: give the target side's file in"):
        load_config(path)


@pytest.mark.parametrize("text", ["train_src: tr.en\ntrain_tgt: ./tr.en\n", "train: [{src: tr.en, tgt: tr.en}]\n"])
def test_a_copy_corpus_of_one_file_on_both_sides_is_read_where_keep_untranslated_is_true(tmp_path, text):
    """A copy task (keep_untranslated: true) teaches "this needs no change" from its own sentences: its one
    file named on both sides was refused as a typo."""
    path = tmp_path / "c.yaml"
    path.write_text(text + "keep_untranslated: true\n")
    spec = load_config(path).corpora()[0]
    assert os.path.normpath(spec.src) == os.path.normpath(spec.tgt)


def test_one_file_reached_by_a_link_is_refused_as_both_sides(tmp_path):
    (tmp_path / "tr.en").write_text("A dog runs.\n")
    (tmp_path / "link.de").symlink_to(tmp_path / "tr.en")
    with pytest.raises(ConfigError, match=r"^train_src and train_tgt both name .*tr\.en, .*: give the target side's "
                                          r"file in train_tgt \(or, for a copy task in one language, "
                                          r"keep_untranslated: true\)$"):
        TrainConfig(train_src=str(tmp_path / "tr.en"), train_tgt=str(tmp_path / "link.de"))


def project_beside(tmp_path, config_text: str):
    """A project folder holding its corpus and a config that names the files relative to it."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("tr.en", "tr.de", "va.en", "va.de"):
        (project / name).write_text("A dog runs.\n", encoding="utf-8")
    (project / "c.yaml").write_text(config_text, encoding="utf-8")
    return project / "c.yaml"


@pytest.mark.parametrize("command", ["train", "prepare"])
def test_a_config_path_beside_the_config_not_in_the_current_folder_is_named_with_both_places(tmp_path, monkeypatch,
                                                                                              capsys, command):
    """Paths are read from the current folder: run outside the project, it was "valid_src: cannot read va.en: no
    such file or directory", the file beside the config, which the user may take for where it is looked for."""
    project_beside(tmp_path, "train_src: tr.en\ntrain_tgt: tr.de\nvalid_src: va.en\nvalid_tgt: va.de\n"
                   "prepared_dir: prep\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli([command, "project/c.yaml"], capsys)
    assert code == 2
    assert err.splitlines()[-1] == (
        f"attnmt: error: project/c.yaml: train_src: tr.en is not in the current folder ({tmp_path}), but is beside "
        "the config, project/tr.en: paths in a config are read from the current folder; run from project, or write "
        "project/tr.en in the config")


def test_a_path_typed_on_the_command_line_or_found_here_is_not_looked_for_beside_the_config(tmp_path, monkeypatch):
    path = project_beside(tmp_path, "train: [{src: tr.en, tgt: tr.de}]\nvalid_src: va.en\nvalid_tgt: va.de\n")
    (tmp_path / "va.en").write_text("A cat sleeps.\n", encoding="utf-8")  # found here: read from here
    monkeypatch.chdir(tmp_path)
    config = load_config(path)
    check_paths_from_here(config, path, overrides=["train", "valid_tgt"])
    with pytest.raises(ConfigError, match=r"^.*c\.yaml: train\[0\]: src: tr\.en is not in the current folder"):
        check_paths_from_here(config, path, overrides=["valid_tgt"])


@pytest.mark.parametrize("line", ["out_dir: ~/runs/x", "train_src: ~/tr.en", "train: [{tsv: ~/c.tsv}]"])
def test_a_tilde_in_a_config_path_is_refused_naming_the_home_folder_it_meant(tmp_path, monkeypatch, line):
    """Only a shell reads ~ as the home folder: out_dir ~/runs/x made a folder named ~ in the current one
    (which rm -r ~ takes for the home folder), and ~/tr.en was "no such file"."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "c.yaml"
    path.write_text(line + "\n", encoding="utf-8")
    key, value = (line.split(": ", 1) if "train:" not in line else ("train[0]: tsv", "~/c.tsv"))
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: {re.escape(key)}: {re.escape(value)}: this ~ "
                                          rf"would be a folder named ~, not the home folder \(only a shell reads it "
                                          rf"so, and not in a config or after '='\): write "
                                          rf"{re.escape(str(tmp_path / 'home' / value[2:]))}$"):
        check_paths_from_here(load_config(path), path)
    (tmp_path / "~").mkdir()  # a folder of that name here: the path names it
    check_paths_from_here(load_config(path), path)


@pytest.mark.parametrize(("argv", "named"), [(["train", "c.yaml", "--out-dir=~/runs/x"], "--out-dir"),
                                             (["prepare", "c.yaml", "--out=~/prep"], "--out")])
def test_a_tilde_after_an_equals_sign_on_the_command_line_is_refused_making_no_folder(tmp_path, monkeypatch, capsys,
                                                                                      argv, named):
    """A shell reads no ~ after "=": --out-dir=~/runs/x trained into a folder named ~ in the current one."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for name in ("tr.en", "tr.de"):
        (tmp_path / name).write_text("A dog runs.\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("train_src: tr.en\ntrain_tgt: tr.de\nvalid_src: tr.en\nvalid_tgt: tr.de\n",
                                     encoding="utf-8")
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {named}: ~/") and "this ~ would be a folder named ~" in err
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize("key", ["valid_src", "valid_tgt", "train_src", "out_dir"])
def test_none_for_a_path_that_cannot_be_unset_is_refused_from_python_naming_its_key(key):
    """TrainConfig(valid_src=None) was accepted, and the run then failed deep inside with a bare TypeError
    ("expected str, bytes or os.PathLike object, not NoneType"); a config file's null is refused as it is read."""
    with pytest.raises(ConfigError, match=rf"^{key}=None: {key} cannot be unset; give a path as text"):
        TrainConfig(**{key: None})


@pytest.mark.parametrize("key", ["valid_src", "valid_tgt", "train_src", "train_tgt", "train_tsv", "prepared_dir",
                                 "tokenizer", "target_tokenizer", "init_from", "out_dir"])
@pytest.mark.parametrize("value", [3, b"v.en", ["v.en"]], ids=["a number", "bytes", "a list"])
def test_a_value_that_is_no_path_is_refused_from_python_naming_its_key(key, value):
    """TrainConfig(valid_src=3) was accepted, and the run failed late, with a bare TypeError from where the
    file was read, as valid_src=None did."""
    with pytest.raises(ConfigError, match=rf"^{key}={re.escape(repr(value))}: {key} is a path: give it as text"):
        TrainConfig(**{key: value})


def test_a_pathlib_path_is_kept_as_its_text_which_train_yaml_can_hold(tmp_path):
    config = TrainConfig(valid_src=tmp_path / "v.en", out_dir=tmp_path / "model")
    assert (config.valid_src, config.out_dir) == (str(tmp_path / "v.en"), str(tmp_path / "model"))
    assert yaml.safe_load(yaml.safe_dump(config.to_dict()))["valid_src"] == str(tmp_path / "v.en")


def test_a_numpy_str_path_is_kept_as_plain_text_which_train_yaml_can_hold(tmp_path):
    """np.str_ passed the check as a str and failed only as train.yaml was written, the run's folder half made."""
    config = TrainConfig(valid_src=np.str_(str(tmp_path / "v.en")))
    assert type(config.valid_src) is str
    assert yaml.safe_load(yaml.safe_dump(config.to_dict()))["valid_src"] == str(tmp_path / "v.en")


@pytest.mark.parametrize("key", ["src", "tgt", "valid_src", "valid_tgt"])
def test_a_pathlib_path_in_a_train_entry_is_kept_as_its_text(tmp_path, key):
    """It was refused ("train[0]: src must be text") where a top-level path takes one."""
    entry = {"src": "a.en", "tgt": "a.de", "valid_src": "v.en", "valid_tgt": "v.de", key: tmp_path / "f"}
    config = TrainConfig(train=[entry])
    assert config.train[0][key] == getattr(config.corpora()[0], key) == str(tmp_path / "f")
    assert yaml.safe_load(yaml.safe_dump(config.to_dict()))["train"][0][key] == str(tmp_path / "f")


def test_a_pathlib_path_as_a_train_entrys_tsv_is_kept_as_its_text(tmp_path):
    assert TrainConfig(train=[{"tsv": tmp_path / "c.tsv"}]).corpora()[0].tsv == str(tmp_path / "c.tsv")


def test_a_corpus_spec_built_in_python_with_a_path_that_is_no_path_is_refused_naming_it():
    """CorpusSpec(src=3, tgt="b") was taken, and failed where the run read it."""
    with pytest.raises(ConfigError, match=r"^src=3: src is a path: give it as text \(or leave src out for its "):
        CorpusSpec(src=3, tgt="b")


@pytest.mark.parametrize("values", [{"source_lang": "English"}, {"train": [{"tsv": "c.tsv", "target_lang": "de en"}]}])
def test_a_language_that_is_no_code_is_refused_naming_its_key(values):
    with pytest.raises(ConfigError, match=r"_lang='(English|de en)': give a language code, as BCP 47 writes it"):
        TrainConfig.from_dict(values)


@pytest.mark.parametrize("values, message", [
    ({"src": "a"}, "give either src and tgt, or tsv"),
    ({"tsv": "c.tsv", "weight": 0}, "weight must be positive and finite, got 0.0"),
    ({"tsv": "c.tsv", "weight": "x"}, "weight must be a number, got 'x'"),
    ({"tsv": "c.tsv", "valid_src": "v.en"}, "give both valid_src and valid_tgt, or neither")])
def test_a_corpus_spec_built_in_python_is_checked_as_a_train_entry_is(values, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        CorpusSpec(**values)
    with pytest.raises(ConfigError, match=f"^train\\[0\\]: {re.escape(message)}$"):
        TrainConfig(train=[values])


def test_a_corpus_spec_built_in_python_keeps_a_pathlib_path_as_its_text(tmp_path):
    assert CorpusSpec(src=tmp_path / "a.en", tgt="a.de").src == str(tmp_path / "a.en")


def test_none_for_an_optional_path_still_unsets_it():
    assert TrainConfig(tokenizer=None, train_tsv=None, init_from=None).tokenizer is None


@pytest.mark.parametrize("key", ["tokenizer", "target_tokenizer", "init_from", "prepared_dir", "train_tsv"])
def test_an_empty_optional_path_is_unset_as_it_always_was(tmp_path, key):
    """Every release read these as unset where "" (a templated config writes it); a run whose train.yaml
    has one was refused on resume as an empty path."""
    path = tmp_path / "c.yaml"
    path.write_text(f"{key}: ''\n")
    assert getattr(load_config(path), key) is None


@pytest.mark.parametrize("device", ["gpu", "CPU", "cuda:", "cuda:x", "cuda0"])
def test_a_device_training_does_not_know_is_refused_when_the_config_is_built(device):
    with pytest.raises(ConfigError, match=rf"^device='{device}': use 'auto', 'cpu', 'cuda', 'cuda:N' "
                                          r"\(the GPU numbered N\) or 'mps'$"):
        TrainConfig(device=device)


@pytest.mark.parametrize("device", ["auto", "cpu", "cuda", "cuda:0", "cuda:3", "mps"])
def test_the_devices_training_knows_are_valid(device):
    assert TrainConfig(device=device).device == device


def test_max_len_beyond_the_models_positions_is_refused_naming_both_keys():
    with pytest.raises(ConfigError, match=r"^max_len=100 needs model.max_positions of at least 102 \(.*\), got 64: "
                                          r"raise model.max_positions or lower max_len$"):
        TrainConfig(max_len=100, model={"max_positions": 64})
    assert TrainConfig(max_len=62, model={"max_positions": 64}).max_len == 62
    assert TrainConfig(max_len=2000, init_from="runs/m").max_len == 2000  # the model's own: checked when read


@pytest.mark.parametrize(("other", "name"), [({"train_tsv": "tr.tsv"}, "train_tsv"),
                                             ({"train": [{"tsv": "tr.tsv"}]}, "train")])
def test_train_src_beside_train_tsv_or_train_is_refused_not_ignored(other, name):
    with pytest.raises(ConfigError, match=rf"^train_src and train_tgt \(five.en, five.de\) and {name} are both set, "
                                          rf"but a run reads {name} alone: "):
        TrainConfig(train_src="five.en", train_tgt="five.de", **other)


def test_the_default_train_src_beside_train_tsv_is_no_conflict():
    saved = TrainConfig(train_tsv="tr.tsv").to_dict()  # train.yaml holds every key, the defaults too
    assert TrainConfig.from_dict(saved).corpora()[0].tsv == "tr.tsv"


@pytest.mark.parametrize(("text", "message"), [
    ("train_src: c.en\nmax_steps: 2\ntrain_src: v.en\n", "line 3: train_src is given twice (first at line 1)"),
    # a second model block, added at the end, replaced the first whole: the paper's base model was trained
    ("model: {d_model: 64, n_heads: 2}\nmax_steps: 2\nmodel:\n  dropout: 0.3\n", "line 3: model is given twice "
                                                                                 "(first at line 1)"),
    ("model:\n  d_model: 64\n  n_heads: 2\n  d_model: 32\n", "line 4: d_model is given twice (first at line 2)"),
])
def test_a_key_given_twice_in_a_config_is_refused_naming_the_file_the_key_and_both_lines(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"^{re.escape(f'{path}: {message}')}, and YAML would keep the last alone: "
                                          "give it once$"):
        load_config(path)


def test_a_json_config_indented_with_tabs_is_read_as_json(tmp_path):
    # json.dump(..., indent="\t") indents with tabs, which YAML refuses ("found character '\t' that
    # cannot start any token"); a number such as 1e-05 is a number in JSON, where YAML 1.1 reads a string.
    values = {**tiny_config(tmp_path).to_dict(), "learning_rate": 1e-05}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(values, indent="\t"))
    assert load_config(path).to_dict() == TrainConfig.from_dict(values).to_dict()
    assert load_config(path).learning_rate == 1e-05


@pytest.mark.parametrize(("text", "message"), [
    ('{\n\t"max_steps": 5,\n}\n', "line 3, column 1: not valid JSON: expecting property name enclosed in double "
                                   "quotes"),
    ('{"max_steps": 5, "model": {"d_model": 64, "d_model": 32}}', "d_model is given twice, and JSON readers would "
                                                                  "keep the last alone: give it once"),
    ('["max_steps", 5]', "expected a mapping of keys to values at the top level"),
])
def test_a_json_config_that_cannot_be_read_is_one_line_naming_the_file(tmp_path, text, message):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"^{re.escape(f'{path}: {message}')}$"):
        load_config(path)


def test_a_key_merged_in_with_a_yaml_merge_key_may_be_set_again(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("model:\n  <<: {d_model: 64, n_heads: 2}\n  d_model: 32\n")
    assert load_config(path).model == {"d_model": 32, "n_heads": 2}


@pytest.mark.parametrize(("options", "message"), [
    ({"characte_coverage": 1}, "unknown tokenizer option(s) characte_coverage; valid: model_type, character_coverage, "
                               "user_defined_symbols, byte_fallback"),
    # SentencePiece's own words, once it had read the corpora: "INTERNAL: src/trainer_interface.cc(94) [...]"
    ({"character_coverage": 2}, "character_coverage=2.0: use a share of the characters from 0.98 to 1 "
                                "(SentencePiece's limits)"),
    ({"model_type": "wordpiece"}, "model_type='wordpiece': use 'unigram' or 'bpe' (or 'char', 'word')"),
    ({"byte_fallback": "yes"}, "byte_fallback must be true or false, got 'yes'"),
    ({"user_defined_symbols": [[">>de<<"]]}, "user_defined_symbols=[['>>de<<']]: use a list of text, "
                                             "e.g. ['>>de<<', '>>fr<<']"),
])
def test_a_tokenizer_option_sentencepiece_would_refuse_is_refused_when_the_config_is_built(options, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(f'tokenizer_options: {message}')}"):
        TrainConfig(tokenizer_options=options)


@pytest.mark.parametrize("options", [{"model_type": "BPE", "character_coverage": 0.98, "byte_fallback": True},
                                     {"character_coverage": 1, "user_defined_symbols": [">>de<<", ">>fr<<"]},
                                     {"model_type": "char"}, {"user_defined_symbols": [2020, 2021]},
                                     {"user_defined_symbols": None}])
def test_the_tokenizer_options_sentencepiece_takes_are_valid(options):
    """A run of an earlier release that trained with these resumes: its train.yaml is read with the
    check too, and was refused."""
    assert TrainConfig(tokenizer_options=options).tokenizer_options == options


def test_a_misspelled_tokenizer_option_is_refused_before_the_corpora_are_read(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps({**tiny_config(tmp_path).to_dict(), "train_src": str(tmp_path / "absent.en")}))
    code, out, err = run_cli(["train", path, "--tokenizer-options", "{characte_coverage: 1}"], capsys)
    assert (code, out) == (2, "")
    assert "tokenizer_options: unknown tokenizer option(s) characte_coverage" in err and err.count("\n") == 1


@pytest.mark.parametrize("unset", ["null", ""])
def test_train_src_and_tgt_set_to_null_on_the_command_line_are_unset_for_a_train_tsv(tmp_path, unset):
    """A config of two files switched to one tsv file from the command line: was "--train-src must be text"."""
    path = tmp_path / "c.yaml"
    path.write_text("train_src: c.en\ntrain_tgt: c.de\n")
    config = load_config(path, {"train_tsv": "tr.tsv", "train_src": unset, "train_tgt": unset})
    assert [corpus.files() for corpus in config.corpora()] == [{"tsv": "tr.tsv"}]


def test_train_src_beside_train_tsv_says_how_to_unset_it_on_the_command_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("train_src: c.en\ntrain_tgt: c.de\n")
    with pytest.raises(ConfigError, match=re.escape("remove train_src and train_tgt (on the command line: "
                                                    "--train-src null --train-tgt null), or train_tsv")):
        load_config(path, {"train_tsv": "tr.tsv"})


def test_null_for_another_text_key_is_still_refused_as_no_text(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match="^--out-dir must be text, got null$"):
        load_config(path, {"out_dir": "null"})


def test_a_boolean_for_a_number_is_named_as_the_file_wrote_it(tmp_path):
    """It was refused as "threads must be a whole number, got True": Python's spelling, not the file's."""
    path = tmp_path / "c.yaml"
    path.write_text("threads: true\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(str(path))}: threads must be a whole number, got true "
                                          r"\(a boolean\)$"):
        load_config(path)


@pytest.mark.parametrize(("text", "overrides", "message"), [
    ("model: {d_modl: 64}\n", {}, "model: unknown key(s) d_modl (did you mean d_model?); valid keys: vocab_size, "
                                   "d_model,"),
    ("warmup_steps: -5\n", {}, "warmup_steps=-5: use a whole number of at least 0"),
    ("warmup_steps: -5\n", {"max_steps": "3"}, "warmup_steps=-5: use a whole number of at least 0"),
    ("model: {dropout: 2}\n", {}, "model: dropout=2.0: use a dropout probability from 0 to below 1"),
])
def test_a_wrong_value_in_the_file_names_the_file_as_an_unknown_key_does(tmp_path, text, overrides, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"^{re.escape(f'{path}: {message}')}"):
        load_config(path, overrides)


def test_a_typo_in_a_key_is_named_with_the_key_it_is_nearest(tmp_path):
    """It listed every valid key, 47 of them, for the user to find eval_every among."""
    path = tmp_path / "c.yaml"
    path.write_text("eval_evry: 500\nmax_step: 10\nzzz: 1\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: unknown key\(s\) eval_evry \(did you mean "
                                          r"eval_every\?\), max_step \(did you mean max_steps\?\), zzz; valid keys: "):
        load_config(path)


def test_a_wrong_value_from_the_command_line_is_not_blamed_on_the_file(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match=r"^warmup_steps=-5: use a whole number of at least 0$"):
        load_config(path, {"warmup_steps": "-5"})


@pytest.mark.parametrize("overrides", [{"train_src": "null"}, {"train_src": "", "train_tgt": "null"}])
def test_train_src_set_to_null_with_no_other_corpus_is_refused(tmp_path, overrides):
    """Unset, it took its default back: the run trained on Multi30k's English (or stopped on its
    line count against the user's German)."""
    path = tmp_path / "c.yaml"
    path.write_text("train_src: tr.en\ntrain_tgt: tr.de\n")
    options = " ".join(f"--{key.replace('_', '-')} null" for key in overrides)
    with pytest.raises(ConfigError, match=f"^{options} leaves no training data: give --train-tsv FILE"):
        load_config(path, overrides)


@pytest.mark.parametrize(("text", "message"), [
    ("max_steps: !!int abc\n",
     "a tagged value cannot be read (ValueError: invalid literal for int() with base 10: 'abc')"),
    ("x: !!timestamp 2020-99-99\n", "a tagged value cannot be read (ValueError: month must be in 1..12)"),
    ("seed: !!int \"\"\n", "a tagged value cannot be read (IndexError: string index out of range)"),
    ("x: !!timestamp abc\n",
     "a tagged value cannot be read (AttributeError: 'NoneType' object has no attribute 'groupdict')"),
    ("seed: !!bool abc\n", "a tagged value cannot be read (KeyError: 'abc')"),
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", "not valid YAML for attnmt: nested too deep"),
], ids=["a tagged int", "a tagged date", "an empty tagged int", "a tagged timestamp", "a tagged bool",
        "nested too deep"])
def test_a_config_python_cannot_build_is_one_line(tmp_path, text, message):
    """PyYAML raised ValueError (or RecursionError) for these, a traceback where YAMLError was caught."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        read_config_file(path)
    assert str(raised.value) == f"{path}: " + (message if "nested" in message else f"not valid YAML: {message}")



def laughs(levels: int) -> str:
    """A "billion laughs" in YAML: a list of ten ones, then ``levels`` lists of ten aliases each of the
    list before: 10 ** (levels + 1) ones from a few hundred characters."""
    lists = ["&a0 [" + ", ".join(["1"] * 10) + "]"]
    lists += [f"&a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, levels + 1)]
    return "[" + ", ".join(lists) + "]"


@pytest.mark.parametrize("key", ["seed", "adam_betas", "train_src"])
def test_an_alias_in_a_config_is_refused_in_one_line_naming_its_place(tmp_path, capsys, key):
    """Aliases make the value a few lines stand for as large as one likes: the message refusing it
    printed it whole (3.5 MB for six levels; nine grew past a gigabyte, still printing)."""
    path = tmp_path / "c.yaml"
    path.write_text(f"max_steps: 2\n{key}: {laughs(3)}\n")
    column = path.read_text().splitlines()[1].index("*a0") + 1
    code, out, err = run_cli(["train", path, "--out-dir", tmp_path / "runs"], capsys)
    assert (code, out, err) == (2, "", f"attnmt: error: {path}: line 2, column {column}: *a0 repeats a value (a YAML "
                                       "alias), which attnmt does not read: a few lines of aliases can stand for "
                                       "billions of values; write the value out\n")


def test_a_billion_laughs_is_refused_as_the_file_is_read(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(f"seed: {laughs(8)}\n")
    with pytest.raises(ConfigError, match=r"^\S+: line 1, column \d+: \*a0 repeats a value \(a YAML alias\)"):
        read_config_file(path)


def test_an_anchor_that_no_alias_repeats_is_read_as_before(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("seed: &s 3\nmodel: &m {d_model: 64}\n")
    assert (load_config(path).seed, load_config(path).model) == (3, {"d_model": 64})


def test_an_alias_in_an_override_is_refused_naming_the_key(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match=r"^--adam-betas: '\[&b 0.9, \*b\]' is not valid YAML \(\*b repeats a value "
                                          r"\(a YAML alias\), which attnmt does not read"):
        load_config(path, {"adam_betas": "[&b 0.9, *b]"})


def read_yaml(tmp_path, text: str) -> dict:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    return read_config_file(path)


def test_a_merge_key_through_an_alias_is_read(tmp_path):
    """A corpus given again with one key changed; refused as an alias, though it had been read."""
    text = "train:\n  - &c {src: a.en, tgt: a.de, weight: 1}\n  - <<: *c\n    weight: 2\n"
    assert read_yaml(tmp_path, text)["train"] == [{"src": "a.en", "tgt": "a.de", "weight": 1},
                                                  {"src": "a.en", "tgt": "a.de", "weight": 2}]


def test_a_list_of_merges_keeps_the_first_mapping_s_keys_and_its_own_over_both(tmp_path):
    text = "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*a, *b], y: 3}\n"
    assert read_yaml(tmp_path, text)["c"] == {"x": 1, "y": 3, "z": 2}


def test_a_key_set_over_a_merge_stays_set_where_that_mapping_is_merged_again(tmp_path):
    """PyYAML 6.0.4 kept the first copy of a key merged twice: c read x: 1, the value b had replaced."""
    text = "a: &a {x: 1}\nb: &b {<<: *a, x: 2}\nc: {<<: *b}\n"
    assert read_yaml(tmp_path, text) == {"a": {"x": 1}, "b": {"x": 2}, "c": {"x": 2}}


def test_a_mapping_merged_into_one_before_it_is_read_is_no_key_given_twice(tmp_path):
    """b is flattened when c merges it, before b itself is read: its x merged from a and its own x
    then read as x given twice."""
    text = "a: &a {x: 1}\ndefs: {b: &b {<<: *a, x: 2}}\nc: {<<: *b}\n"
    assert read_yaml(tmp_path, text)["defs"] == {"b": {"x": 2}}


def test_merges_cannot_build_a_billion_laughs(tmp_path):
    """Each level merges the one before twice and adds a key: merged as pairs (as PyYAML before 6.0.4
    did), level 30 would hold 2**30 of them; a merge adds the keys merged, each once."""
    levels = ["l0: &l0 {k0: 0}"] + [f"l{n}: &l{n} {{<<: [*l{n - 1}, *l{n - 1}], k{n}: {n}}}" for n in range(1, 31)]
    assert read_yaml(tmp_path, "\n".join(levels))["l30"] == {f"k{n}": n for n in range(31)}


@pytest.mark.parametrize("text, column", [("a: &a {x: 1}\nc: {<<: *a, y: *a}\n", 16),
                                          ("a: &a {x: 1}\nc: {<<: [[*a]]}\n", 11),
                                          ("a: &a {x: 1}\nc: {'<<': *a}\n", 11)])
def test_an_alias_no_merge_key_takes_is_refused(tmp_path, text, column):
    with pytest.raises(ConfigError, match=rf"^\S+: line 2, column {column}: \*a repeats a value \(a YAML alias\)"):
        read_yaml(tmp_path, text)


def test_an_alias_with_no_anchor_is_yaml_s_own_error(tmp_path):
    """It was refused as "*x repeats a value", when there is no value it could repeat."""
    with pytest.raises(ConfigError) as raised:
        read_yaml(tmp_path, "seed: 1\ntrain: [{<<: *x}]\n")
    assert str(raised.value) == f"{tmp_path / 'c.yaml'}: line 2, column 14: not valid YAML: found undefined alias 'x'"
    path = tmp_path / "c.yaml"
    path.write_text("max_steps: 10\n")
    with pytest.raises(ConfigError, match=r"^--max-steps: '\*a' is not valid YAML \(found undefined alias 'a'\); "):
        load_config(path, {"max_steps": "*a"})
