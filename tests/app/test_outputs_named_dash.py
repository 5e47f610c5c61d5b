""""-" names stdin or stdout wherever attnmt reads or writes a stream; an option that writes a file or
folder cannot send it to stdout, and took "-" as its name: ``attnmt average --out -`` wrote an 18 MB
file named "-" and said "averaged … into -".  Each is refused in one line, exit status 2, before any
work (attnmt.output_checks.check_not_stdout), and nothing named "-" is written."""

from pathlib import Path

import pytest
from support import run_cli

REPOSITORY = Path(__file__).resolve().parents[2]
CONFIG = REPOSITORY / "configs" / "fine_tune.yaml"

# Each command, with "-" where it writes, and the start of the line that refuses it.  The model and
# the source need not exist: the output is checked first.
WRITTEN_TO_DASH = {
    "average": (["average", "--model", "m", "--out", "-"], "--out - would write the averaged weights into a file"),
    "shortlist": (["shortlist", "--model", "m", "--source", "s.txt", "--out", "-"],
                  "--out - would write the shortlist into a file"),
    "prepare": (["prepare", CONFIG, "--out", "-"], "--out - would write the prepared data into a folder"),
    "export": (["export", "--model", "m", "--format", "marian", "--out", "-"],
               "--out - would write the marian model into a folder"),
    "import": (["import", "--from-marian", "hf", "--out", "-"], "--out - would write the model into a folder"),
    "attention": (["attention", "A dog runs.", "--model", "m", "--out", "-"],
                  "--out - would write the pictures into a folder"),
    "plot": (["plot", "positional-encoding", "--out", "-"], "--out - would write the figure into a file"),
}


@pytest.mark.parametrize("command", list(WRITTEN_TO_DASH))
def test_an_output_named_dash_is_refused_in_one_line(command, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv, refusal = WRITTEN_TO_DASH[command]
    code, out, err = run_cli(argv, capsys)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.startswith(f"attnmt: error: {refusal} named '-'")
    assert not (tmp_path / "-").exists()


def test_a_config_whose_out_dir_is_dash_is_refused_before_training(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "run.yaml"
    config.write_text(CONFIG.read_text(encoding="utf-8").replace("out_dir: runs/tuned", 'out_dir: "-"'),
                      encoding="utf-8")
    code, _, err = run_cli(["train", config], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {config}: out_dir - would write the model into a folder "
                                        "named '-'")  # the file named, as its other keys are
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("given", [["--out-dir", "-"], ["--out-dir=-"]])
def test_an_out_dir_of_dash_on_the_command_line_is_refused_before_training(tmp_path, capsys, monkeypatch, given):
    # YAML read "-" as the list [null]: "--out-dir must be text, got [None]"
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["train", CONFIG, *given], capsys)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert err.startswith("attnmt: error: out_dir - would write the model into a folder named '-'")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("name", ["- ", " -", " - "])
def test_a_dash_with_spaces_around_it_is_refused_as_dash_is(tmp_path, capsys, monkeypatch, name):
    # compared as typed, "- " was a name: a folder (or file) "- ", which a listing shows as "-"
    monkeypatch.chdir(tmp_path)
    trained = run_cli(["train", CONFIG, "--out-dir", name], capsys)
    averaged = run_cli(["average", "--model", "m", "--out", name], capsys)
    assert trained == (2, "", f"attnmt: error: out_dir - would write the model into a folder named {name!r} ('-' "
                              "names stdin or stdout elsewhere): give the model a folder name (runs/model)\n")
    assert averaged[:2] == (2, "") and averaged[2].startswith(f"attnmt: error: --out - would write the averaged "
                                                              f"weights into a file named {name!r}")
    assert list(tmp_path.iterdir()) == []


def test_the_demo_refuses_out_dash_before_training(capsys, monkeypatch):
    monkeypatch.chdir(REPOSITORY)  # where the demo finds its config and test set
    code, _, err = run_cli(["demo", "--minutes", "0.01", "--out", "-"], capsys)
    assert code == 2 and err.startswith("attnmt: error: --out - would write the model into a folder named '-'")
    assert not (REPOSITORY / "-").exists()
