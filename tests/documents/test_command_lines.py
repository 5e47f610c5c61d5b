"""A shell command alone on a line of plain text (attnmt.documents.command_lines) is code, kept whole, in a .txt file,
the servers' text and attnmt.translate alike; a sentence that starts with a program's name is words."""

import pytest

from attnmt.documents.command_lines import is_command
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions, translate_paragraphs
from attnmt.documents.sentence_translate import sentence_reads

INSTALL = """\
To install it, run:
npm install express
sudo apt-get install -y curl
cd ~/projects && git clone https://github.com/a/b.git

Git is a version control system.

    yarn add lodash
    node server

Then you should always use
git rebase carefully.
Then build it.
cd build"""


@pytest.mark.parametrize("line", [
    "npm install express", "pip install requests", "  git status", "cd ~/projects", "cd ..", "git add .",
    "sudo systemctl restart nginx", 'git commit -m "fix the bug in the parser"', "ls", "./configure --prefix=/usr",
    "~/bin/deploy.sh staging", "make -j4", "echo $HOME", "export PATH=$PATH:~/bin", "docker run -it ubuntu bash",
    "brew install wget", "kubectl get pods -n default"])
def test_a_programs_name_and_its_arguments_are_a_command(line):
    assert is_command(line)


@pytest.mark.parametrize("line", [
    "Git is a version control system.", "git is a tool for versions", "npm is slow today", "make sure the dog eats",
    "go home now", "echo the words back", "cd players sell well.", "Run git status first.", "source of the river",
    "The dog runs.", "A man is cooking.", "ls didn't show anything", "git push failed again", "npm still hangs"])
def test_a_sentence_that_starts_with_a_programs_name_is_no_command(line):
    assert not is_command(line)


def test_a_command_alone_on_its_line_is_kept_and_the_words_around_it_translated(upper):
    """``npm install express`` came back ``Auf diesem Firmen`` from the demo model, unindented and indented four
    spaces alike."""
    lines = INSTALL.split("\n")
    for out in (translate_paragraphs([INSTALL], upper)[0],
                translate_file_bytes(INSTALL.encode(), "notes.txt", upper, DocumentOptions()).decode()):
        written = out.split("\n")
        assert written[1:4] == lines[1:4] and written[7:9] == lines[7:9]  # "node server" in an indented block
        assert [written[k] for k in (0, 5)] == ["TO INSTALL IT, RUN:", "GIT IS A VERSION CONTROL SYSTEM."]
        assert written[10:] == ["THEN YOU SHOULD ALWAYS USE", "GIT REBASE CAREFULLY.", "THEN BUILD IT.", "cd build"]
    assert translate_paragraphs(["npm install express"], upper) == ["npm install express"]  # a server's one line
    assert not any("npm" in given or "node" in given or "curl" in given for given in upper.given)


def test_attnmt_translate_passes_a_command_through_as_a_text_line_keeps_it():
    sentences, _ = sentence_reads(["npm install express", "  git status ", "Git is a version control system."],
                                  [None] * 3, lambda _: True)
    assert sentences == ["", "", "Git is a version control system."]
