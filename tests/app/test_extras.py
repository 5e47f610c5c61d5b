"""What a core install (``pip install attnmt``, no extras) does: it translates plain text, split
into sentences by default, and HTML, from the command line and from Python; a command that
needs an extra says in one line which extra to install.

Each test runs in a new process in which the modules that pyproject.toml's extras install cannot
be imported.  tests/install/installs.sh checks the same in real environments, and each extra alone.
"""

import re

import pytest
from support import attnmt_without_extras, modules_of_the_extras, python_without_extras

from attnmt.cli.main import main


def test_the_modules_of_the_extras_are_read_from_pyproject():
    modules = set(modules_of_the_extras())
    assert {"fastapi", "uvicorn", "matplotlib", "transformers", "ctranslate2", "pytest"} <= modules
    assert not {"torch", "sentencepiece", "sentencex", "lxml", "numpy"} & modules  # the core's


def test_plain_text_is_split_into_sentences_and_translated_by_a_core_install(trained_model):
    done = attnmt_without_extras("translate", "--model", trained_model, "--beam", "1",
                                 stdin="a dog runs\nthe boy laughs\n")
    assert (done.returncode, done.stdout) == (0, "ein hund rennt\nder junge lacht\n"), done.stderr


def test_html_is_translated_by_a_core_install(trained_model):
    done = attnmt_without_extras("translate", "--model", trained_model, "--beam", "1", "--input-format", "html",
                                 stdin="<i>the boy laughs</i>\n")
    assert (done.returncode, done.stdout) == (0, "<i>der junge lacht</i>\n"), done.stderr


def test_the_python_api_translates_in_a_core_install(trained_model):
    program = ("import sys, attnmt\n"
               "model, tokenizer = attnmt.load_model_dir(sys.argv[1])\n"
               "print(attnmt.translate(model, tokenizer, ['a dog runs'], attnmt.Decoding(beam_size=1)))")
    done = python_without_extras(program, trained_model)
    assert (done.returncode, done.stdout) == (0, "['ein hund rennt']\n"), done.stderr


@pytest.mark.parametrize(("extra", "command"), [
    ("serve", ["serve"]),
    ("plot", ["plot", "positional-encoding", "--out", "{tmp}/pe.png"]),
    ("export", ["export", "--format", "ctranslate2", "--out", "{tmp}/ct2"]),
])
def test_a_command_of_an_extra_names_it_in_one_line_in_a_core_install(extra, command, trained_model, tmp_path):
    needs_model = command[0] != "plot"
    argv = [part.format(tmp=tmp_path) for part in command] + (["--model", trained_model] if needs_model else [])
    done = attnmt_without_extras(*argv)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert f"pip install 'attnmt[{extra}]'" in done.stderr


@pytest.mark.parametrize(("command", "extra"), [("attention", "plot"), ("plot", "plot"), ("export", "export"),
                                               ("serve", "serve")])
def test_the_command_list_names_the_extra_a_command_needs(command, extra, capsys):
    """`attnmt --help` tagged attention "(attnmt[plot])" but not plot, which needs the same extra, nor serve."""
    with pytest.raises(SystemExit):
        main(["--help"])
    entries = dict(re.findall(r"^    (\S+)\s+(.*?)(?=\n    \S|\n\n)", capsys.readouterr().out, re.M | re.S))
    assert " ".join(entries[command].split()).endswith(f"(attnmt[{extra}])")
