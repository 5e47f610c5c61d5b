"""Lines typed at a prompt in a plain text (attnmt.documents.prompt_lines): a Python session's ``>>>`` and ``...``
lines and the values it writes under them, a shell's ``$`` command, are code, kept as written; a reply quoted three
deep (``>>> The dog runs.``) and text after a dollar sign are words, translated as before."""

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions, translate_paragraphs
from attnmt.documents.prompt_lines import prompt_lines

SESSION = """\
Try this in Python:
>>> import os
>>> os.path.join('a', 'b')
'a/b'
>>> for name in ['cat', 'dog']:
...     print(name)
...
cat
dog
Then run it from the shell:
$ python3 walk.py --all
it prints every file."""


def test_a_python_session_and_a_shell_command_in_a_text_are_kept_and_its_words_translated(upper):
    """``>>> print('hello')`` came back ``>>> Auf einem Haus``: the prompt kept, the code translated."""
    out = translate_paragraphs([SESSION], upper)[0].split("\n")
    kept = [1, 2, 3, 4, 5, 6, 10]
    assert [out[k] for k in kept] == [SESSION.split("\n")[k] for k in kept]
    assert out[0] == "TRY THIS IN PYTHON:" and out[9] == "THEN RUN IT FROM THE SHELL:"
    assert out[11] == "IT PRINTS EVERY FILE." and out[7:9] == ["CAT", "DOG"]  # print()'s output is words to the reader
    assert not any("os" in given or "python3" in given for given in upper.given)


def test_a_text_file_keeps_a_session_too(upper):
    out = translate_file_bytes(SESSION.encode(), "readme.txt", upper, DocumentOptions()).decode()
    assert ">>> os.path.join('a', 'b')\n'a/b'\n" in out and "$ python3 walk.py --all\n" in out


@pytest.mark.parametrize("line", [">>> print('hello')", "  >>> total = price * 2", ">>> from collections import deque",
                                  ">>> {'a': 1}", ">>> len(words)", "$ git commit -m 'a dog runs'",
                                  "$ ./configure --prefix=/usr"])
def test_a_line_typed_at_a_prompt_alone_is_kept(upper, line):
    assert translate_paragraphs([line], upper) == [line] and upper.given == []


@pytest.mark.parametrize("line", [">>> The dog runs in the park.", ">>> and then we went home", ">>> Vielen Dank, Anna",
                                  ">>> if you can, call me", ">>> see [1] for the dates", ">>>> a reply four deep",
                                  "$ 5 is the price", "$ It cost five dollars", ">>> 東京は大きい都市です。"])
def test_a_reply_quoted_three_deep_and_a_dollar_before_words_are_words(line):
    assert prompt_lines(["A man reads.", line, "A woman sings."]) == set()


def test_dots_and_values_are_the_sessions_only_under_its_prompt():
    lines = [">>> 1 / 4", "0.25", ">>> None", "...", "The dog runs.", "...", "'a/b'", "42"]
    assert prompt_lines(lines) == {0, 1, 2, 3}


@pytest.mark.parametrize("quote", ["> ", "> > ", ">> ", ">"])
def test_a_session_quoted_in_a_reply_is_kept_after_its_quote_marks(upper, quote):
    """``> >>> print(x)`` was read as a quoted line: its code translated after ``> >>> ``."""
    reply = [f"{quote}Try this:", f"{quote}>>> print(len(words))", f"{quote}3", f"{quote}$ ls -l /tmp",
             f"{quote}It lists the files."]
    out = translate_file_bytes("\n".join(reply).encode(), "reply.txt", upper, DocumentOptions()).decode().split("\n")
    assert out[1:4] == reply[1:4]
    assert out[0] == f"{quote}TRY THIS:" and out[4] == f"{quote}IT LISTS THE FILES."
    assert not any("print" in given or "ls" in given.split() for given in upper.given)
    assert prompt_lines([f"{quote}>>> The dog runs in the park.", f"{quote}3"]) == set()  # words quoted three deeper

