"""What the commands say of a mistake in their options: one line naming the option or argument
as the user typed it, not the Python name or path it became."""

import pytest
from support import run_cli

from attnmt.cli.main import build_parser


@pytest.mark.parametrize("options, name", [(["translate", ""], "input")])
def test_an_empty_file_name_is_named_by_its_option(trained_model, tmp_path, capsys, options, name):
    """Path("") is the current folder: ``translate ""`` said "cannot read .: is a directory", and
    ``--review=`` "--review  is a folder", naming neither the option nor the mistake (options such as
    --review, --src and --hyp are refused by their argparse type: test_cli_arguments)."""
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    command, *rest = (option.format(tmp=tmp_path) for option in options)
    code, out, err = run_cli([command, "--model", trained_model, *rest], capsys)
    assert (code, out) == (2, "")
    assert err == f"attnmt: error: {name}: the file name is empty (''): give a file (an unset shell variable?)\n"


@pytest.mark.parametrize("argv, usage", [
    (["translate", "--model=", "in.txt"], "attnmt translate"),
    (["score", "--model", "", "--src", "a.txt", "--hyp", "b.txt"], "attnmt score"),
    (["average", "--model="], "attnmt average"),
    (["plot", "training", "--model", ""], "attnmt plot training")])
def test_an_empty_model_directory_is_named_by_its_option(capsys, argv, usage):
    """``--model=`` was refused by the loader in its Python argument's name: "model_dir: expected
    the path of a model directory, got ''"; argparse now names --model, before anything is read."""
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(argv)
    assert stopped.value.code == 2
    error = "argument --model: expected a model directory, got an empty name ('': an unset shell variable?)"
    assert capsys.readouterr().err.splitlines()[-1] == f"{usage}: error: {error}"


@pytest.mark.parametrize("options, error", [
    (["--sampling-temperature", "0.5"], "--sampling-temperature only applies when sampling: set "
                                        "--sampling-topk to 0 (the whole vocabulary) or a number above 1"),
    (["--sampling-topp", "0.5", "--seed", "3"], "--sampling-topp and --seed only apply when "
                                                "sampling: set --sampling-topk to 0 (the whole vocabulary) or a "
                                                "number above 1"),
    (["--sampling-topk", "5"], "sampling draws one translation per sentence: set --beam 1 (got 4)"),
    (["--alpha", "20"], "--alpha: expected 0 to 10, got 20.0"),
    (["--repetition-penalty", "1e-31"], "--repetition-penalty: expected at least 1e-30 (a logit divided by less "
                                         "overflows float32), got 1e-31"),
    (["--sampling-topk", "0", "--beam", "1", "--sampling-topp", "2"],
     "--sampling-topp: expected more than 0 and at most 1, got 2.0"),
    (["--n-best", "5", "--beam", "2", "--output-format", "tsv"], "--n-best 5 needs --beam 5 or more (got --beam 2)")])
def test_a_decoding_mistake_is_named_by_its_flag(trained_model, tmp_path, capsys, options, error):
    """Only beam_size and n_best were renamed: "set sampling_topk to 0" named a Python field.  The
    flags lead, as in the command's other refusals: "decoding option --n-best 5 needs --beam 5 or
    more" began with the library's words for a Python caller."""
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    argv = ["translate", "--model", trained_model, *options, tmp_path / "in.txt"]
    assert run_cli(argv, capsys) == (2, "", f"attnmt: error: {error}\n")
