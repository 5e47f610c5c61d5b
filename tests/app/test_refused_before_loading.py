"""``attnmt translate`` refuses what the user got wrong before it loads the model: a missing
input or --shortlist file, --alignment-layer or --alignment-heads out of the model's range (read
from its config.json), a --prefix its tokenizer cannot write.  Loading took seconds first, and a
model whose weights file is broken answered with its own error, hiding the user's mistake."""

import shutil

import pytest
from support import run_cli


@pytest.fixture
def broken_weights(trained_model, tmp_path):
    """The tiny model's config.json and tokenizer beside a weights file cut short: loading it fails."""
    model = tmp_path / "model"
    model.mkdir()
    for name in ("config.json", "spm.model"):
        shutil.copy(trained_model / name, model / name)
    (model / "model.safetensors").write_bytes((trained_model / "model.safetensors").read_bytes()[:1000])
    return model


@pytest.mark.parametrize("options, error", [
    (["{tmp}/missing.txt"], "cannot read {tmp}/missing.txt: no such file or directory"),
    (["{tmp}/missing.docx", "{tmp}/out.docx"], "cannot read {tmp}/missing.docx: no such file or directory"),
    (["{tmp}"], "cannot read {tmp}: is a directory"),
    (["--shortlist", "{tmp}/missing.tsv", "{tmp}/in.txt"], "--shortlist {tmp}/missing.tsv: No such file or directory"),
    (["--alignments", "--alignment-layer", "3", "{tmp}/in.txt"],
     "--alignment-layer 3: the model has 2 decoder layers (0 to 1, or -1 to -2 from the last)"),
    (["--alignments", "--alignment-heads", "0,9", "{tmp}/in.txt"],
     "--alignment-heads 0,9: the model has heads 0 to 3 (or -1 to -4 from the last)"),
    (["--prefix", "☃", "{tmp}/in.txt"], "--prefix '☃': the model's target vocabulary cannot write it (it has "
                                        "characters with no piece); change the prefix or leave it out")])
def test_a_mistake_in_the_options_is_named_before_the_weights_load(broken_weights, tmp_path, capsys, options, error):
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    argv = ["translate", "--model", broken_weights, *(option.format(tmp=tmp_path) for option in options)]
    assert run_cli(argv, capsys) == (2, "", f"attnmt: error: {error.format(tmp=tmp_path)}\n")


def test_with_no_mistake_the_broken_weights_are_named(broken_weights, tmp_path, capsys):
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", broken_weights, tmp_path / "in.txt"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {broken_weights / 'model.safetensors'}: cannot load weights")
