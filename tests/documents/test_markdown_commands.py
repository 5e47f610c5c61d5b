"""attnmt.documents.markdown_commands: a shell command on a line of its own after a Markdown paragraph's soft break is
kept as written, on its line, with the paragraph's prefixes; the model reads the prose around it alone.  Upper
upper-cases each sentence, Mirror reverses its words too, Same writes each as it came."""

import pytest

from attnmt.documents.markdown import translate_markdown

COMMANDS = [
    ("Run this:\npip install attnmt\n", "RUN THIS:\npip install attnmt\n", ["Run this:"]),
    ("> Install it with:\n> npm install express\n", "> INSTALL IT WITH:\n> npm install express\n",
     ["Install it with:"]),
    ("- Then build it.\n  cd build && make -j4\n  and wait.\n",
     "- THEN BUILD IT.\n  cd build && make -j4\n  AND WAIT.\n", ["Then build it.", "and wait."]),
    ("1. Clone it:\n   git clone https://example.org/a.git\n   sudo apt-get install curl\n   Done.\n",
     "1. CLONE IT:\n   git clone https://example.org/a.git\n   sudo apt-get install curl\n   DONE.\n",
     ["Clone it:", "Done."]),
    ('Commit it:\ngit commit -m "fix the bug"\n', 'COMMIT IT:\ngit commit -m "fix the bug"\n', ["Commit it:"]),
]


@pytest.mark.parametrize("text, written, given", COMMANDS)
def test_a_command_after_a_soft_break_stays_on_its_line_as_written(upper, text, written, given):
    """Read as the sentence's last words, Run this: / pip install attnmt came back Auf diesem Fäntzen."""
    assert translate_markdown(text, upper) == written
    assert upper.given == given


@pytest.mark.parametrize("text, _, __", COMMANDS)
def test_a_paragraph_with_a_command_written_as_itself_comes_back_byte_for_byte(same, text, _, __):
    assert translate_markdown(text, same) == text


def test_the_translation_is_written_around_the_commands_line_wherever_the_model_puts_its_words(mirror):
    out = translate_markdown("Run this:\npip install attnmt\nnpm start\nthen wait.\n", mirror)
    assert out == "THIS: RUN\npip install attnmt\nnpm start\nWAIT. THEN\n"
    assert mirror.given == ["Run this:", "then wait."]


@pytest.mark.parametrize("prose", [
    "You should always use\ngit rebase carefully.",  # a hard-wrapped sentence goes on over the line
    "Install git with\nsudo apt-get install git and",
    "Make sure the dog eats.\nmake sure it sleeps.",  # a sentence, not make's arguments
    "Say this:\ngit is a tool.",
    "Tools:\ngit.",  # a name alone
])
def test_prose_or_a_name_on_a_paragraphs_next_line_is_translated_beside_a_command(upper, prose):
    text = f"{prose}\nThen run:\nnpm ci --quiet\n"
    assert translate_markdown(text, upper) == f"{prose.upper().replace(chr(10), ' ')} THEN RUN:\nnpm ci --quiet\n"


TYPED = [
    ("Install the server with:\npip install attnmt\\[serve\\]\n",
     "INSTALL THE SERVER WITH:\npip install attnmt\\[serve\\]\n", ["Install the server with:"]),
    ("Then run this:\nnpm install `express` --save\n", "THEN RUN THIS:\nnpm install `express` --save\n",
     ["Then run this:"]),
    ('> Type this:\n> echo "a &amp; b" &gt; out.txt\n', '> TYPE THIS:\n> echo "a &amp; b" &gt; out.txt\n',
     ["Type this:"]),
    ('- Install it:\n  pip install "attnmt\\[serve\\]"\n  Then open the page.\n',
     '- INSTALL IT:\n  pip install "attnmt\\[serve\\]"\n  THEN OPEN THE PAGE.\n',
     ["Install it:", "Then open the page."]),
    ("Build it:\n`cd build` && make -j4\n", "BUILD IT:\n`cd build` && make -j4\n", ["Build it:"]),
]


@pytest.mark.parametrize("text, written, given", TYPED)
def test_a_command_with_an_escape_an_entity_or_a_code_span_is_kept_as_typed_on_its_line(upper, text, written, given):
    """pip install attnmt\\[serve\\] after Install the server with: went to the model as the sentence's last words (the
    Upper stand-in wrote PIP INSTALL ATTNMT\\[SERVE\\]): an escape or a code span made its line prose."""
    assert translate_markdown(text, upper) == written
    assert upper.given == given


@pytest.mark.parametrize("text, _, __", TYPED)
def test_a_paragraph_with_a_command_as_typed_written_as_itself_comes_back_byte_for_byte(same, text, _, __):
    assert translate_markdown(text, same) == text

