"""How a command's arguments are read (attnmt.cli.main.CommandParser): options and positional
arguments in any order; an argument with no place refused with the command's own usage."""

import pytest

from attnmt.cli.commands.train import OWN_FLAGS
from attnmt.cli.main import build_parser, main, split_overrides


@pytest.mark.parametrize("argv", [
    ["translate", "--model", "m", "in.txt", "--beam", "2", "out.txt"],
    ["translate", "in.txt", "--model", "m", "out.txt"],
    ["translate", "in.txt", "out.txt", "--model", "m"],
    ["translate", "--model", "m", "--", "in.txt", "out.txt"]])
def test_the_input_and_output_files_and_the_options_go_in_any_order(argv):
    """An option between the two files left the output over: "unrecognized arguments: out.txt"."""
    args = build_parser().parse_args(argv)
    assert (args.input, args.output, args.model) == ("in.txt", "out.txt", "m")


def test_files_whose_names_start_with_a_dash_are_read_after_a_double_dash():
    args = build_parser().parse_args(["translate", "--model", "m", "--", "-in.txt", "-out.txt"])
    assert (args.input, args.output) == ("-in.txt", "-out.txt")


@pytest.mark.parametrize("argv, files", [
    (["translate", "in.txt", "--model", "m", "--", "out.txt"], ("in.txt", "out.txt")),
    (["translate", "in.txt", "--model", "m", "--", "-out.txt"], ("in.txt", "-out.txt")),
    (["translate", "in.txt", "--model", "m", "--"], ("in.txt", None))])
def test_after_a_double_dash_the_arguments_fill_the_positionals_still_open(argv, files):
    """With a "--", argparse's plain reading came back: in.txt took INPUT and an empty OUTPUT, and
    "unrecognized arguments: -- out.txt" (a trailing "--" alone: "unrecognized arguments: --")."""
    args = build_parser().parse_args(argv)
    assert (args.input, args.output, args.model) == (*files, "m")


def test_a_command_of_a_command_takes_its_positional_after_its_options():
    args = build_parser().parse_args(["plot", "training", "--out", "t.png", "runs/x"])
    assert (args.model_dir, args.out) == ("runs/x", "t.png")


@pytest.mark.parametrize("argv, usage", [
    (["translate", "--model", "m", "a.txt", "--beam", "2", "b.txt", "c.txt"], "usage: attnmt translate "),
    (["plot", "training", "runs/x", "--out", "t.png", "runs/y"], "usage: attnmt plot training ")])
def test_an_argument_with_no_place_is_refused_with_the_commands_usage(capsys, argv, usage):
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith(usage)
    assert err.splitlines()[-1] == f"{usage[7:].strip()}: error: unrecognized arguments: {argv[-1]}"


@pytest.mark.parametrize("argv, own, overrides", [
    (["train", "--", "-x.yaml"], ["train", "--", "-x.yaml"], {}),
    (["prepare", "cfg.yaml", "--out", "o", "--max_tokens", "9", "--", "more"],
     ["prepare", "cfg.yaml", "--out", "o", "--", "more"], {"max_tokens": "9"})])
def test_a_double_dash_ends_a_training_commands_overrides(argv, own, overrides):
    """'attnmt train -- x.yaml' read "--" as an override without a name: a ConfigError raised before
    the command's error handling, so a traceback."""
    assert split_overrides(argv, OWN_FLAGS[argv[0]]) == (own, overrides)


@pytest.mark.parametrize("argv, given", [
    (["translate", "--model", "m", "--min-q", "0.5"], "--min-q"),
    (["translate", "--model", "m", "--out", "tsv"], "--out"),
    (["evaluate", "--model", "m", "--src", "s", "--ref", "r", "--be", "2"], "--be"),
    (["score", "--model", "m", "--src", "s", "--hyp", "h", "--no-se"], "--no-se"),
    (["serve", "--model", "m", "--po", "8000"], "--po")])
def test_an_option_is_never_taken_by_a_prefix_of_its_name(capsys, argv, given):
    """``--min-q`` was read as --min-quality, ``--out`` as --output-format: a new option starting the
    same way would have made such a script's prefix ambiguous, and it would stop working."""
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(argv)
    assert stopped.value.code == 2 and f"unrecognized arguments: {given}" in capsys.readouterr().err


@pytest.mark.parametrize("argv, given", [
    (["train", "--res=runs/x"], "--res=runs/x"),
    (["train", "--res", "runs/x"], "--res"),
    (["train", "cfg.yaml", "--resum=runs/x"], "--resum=runs/x"),
    (["prepare", "cfg.yaml", "--ou", "o"], "--ou o"),
    (["demo", "--min=3"], "--min=3")])
def test_a_training_commands_option_is_never_taken_by_a_prefix_either(capsys, argv, given):
    """``train --res=M`` was read as a config key "res": without a config, the error said only
    "give a CONFIG.yaml to train, or --resume MODEL_DIR", never naming --res; with one, it named
    --res among fifty valid keys.  The parser refuses it by name, as it refuses any abbreviation."""
    own, overrides = split_overrides(argv, OWN_FLAGS[argv[0]])
    assert overrides == {}
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(own)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.splitlines()[-1] == f"attnmt {argv[0]}: error: unrecognized arguments: {given}"


@pytest.mark.parametrize("argv", [["train", "--=3"], ["prepare", "cfg.yaml", "--=3"], ["demo", "--="]])
def test_an_override_that_names_no_key_is_refused_by_the_commands_parser(capsys, argv):
    """``train --=3`` ended in a traceback: split_overrides raised its ConfigError before main's
    error handling began."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.splitlines()[-1] == f"attnmt {argv[0]}: error: unrecognized arguments: {argv[-1]}"


def test_no_config_key_is_a_prefix_of_a_training_commands_own_flag():
    """split_overrides hands a prefix of an own flag to the parser: such a key could not be overridden."""
    from dataclasses import fields

    from attnmt.train_config import TrainConfig

    keys = ["--" + field.name.replace("_", "-") for field in fields(TrainConfig)]
    assert [(key, flag) for key in keys for flags in OWN_FLAGS.values() for flag in flags
            if key != flag and flag.startswith(key)] == []


@pytest.mark.parametrize("argv, option", [
    (["translate", "--model", "m", "in.txt", "--glossary="], "--glossary"),
    (["translate", "--model", "m", "in.txt", "--glossary", "terms.tsv", "--glossary", ""], "--glossary"),
    (["translate", "--model", "m", "in.txt", "--weights="], "--weights"),
    (["translate", "--model", "m", "in.txt", "--shortlist="], "--shortlist"),
    (["score", "--model", "m", "--src", "s", "--hyp", "h", "--glossary="], "--glossary"),
    (["calibrate", "--model", "m", "--src=", "--ref=r"], "--src"),
    (["evaluate", "--model", "m", "--hyp=", "--ref", "r"], "--hyp"),
    (["shortlist", "--model", "m", "--source", "s", "--target=", "--out", "o"], "--target"),
    (["serve", "--model", "m", "--api-keys="], "--api-keys"),
    (["serve", "--model", "m", "--metrics-key-file", "  "], "--metrics-key-file"),
    (["prepare", "cfg.yaml", "--out="], "--out")])
def test_an_empty_file_name_is_refused_naming_its_option(capsys, argv, option):
    """An empty name (``--glossary "$TERMS"`` with TERMS unset) was read as the option left out,
    silently: translated without the glossary, served without API keys, prepared into the config's
    folder."""
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(argv)
    assert stopped.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert f"error: argument {option}: expected a file name, got an empty one (" in last


def test_each_glossary_given_is_kept_for_translate_and_score():
    """A second --glossary replaced the first: only its terms were used."""
    for argv in (["translate", "--model", "m"], ["score", "--model", "m", "--src", "s", "--hyp", "h"]):
        args = build_parser().parse_args([*argv, "--glossary", "a.tsv", "--glossary", "b.tsv"])
        assert args.glossary == ["a.tsv", "b.tsv"]
