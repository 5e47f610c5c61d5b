"""An indented code block in a plain text (attnmt.documents.indented_code) is code, kept whole, in a .txt file and
the servers' text alike; an indented paragraph, a poem, an address or a line going on a paragraph is words."""

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.indented_code import indented_lines
from attnmt.documents.pipeline import DocumentOptions, translate_paragraphs

README = """\
Run this:

    for i in range(3):
        print(i)

    # Print the total.
    total = sum(items)

It prints three numbers.

\tgit log --oneline -5
\tcd ~/src/app
the end."""


def test_an_indented_blocks_code_is_kept_and_the_words_around_it_translated(upper):
    """Read as words, ``    for i in range(3):`` came back ``    Sechs Arbeiter in einem Straßengeschäft:`` from the
    demo model."""
    lines = README.split("\n")
    for out in (translate_paragraphs([README], upper)[0],
                translate_file_bytes(README.encode(), "notes.txt", upper, DocumentOptions()).decode()):
        written = out.split("\n")
        assert written[2:7] == lines[2:7] and written[10:12] == lines[10:12]  # the blank line inside kept too
        assert [written[k] for k in (0, 8, 12)] == ["RUN THIS:", "IT PRINTS THREE NUMBERS.", "THE END."]
    assert not any("print" in given.lower() and "(" in given or "git" in given for given in upper.given)


@pytest.mark.parametrize("block", [
    ["int main() {", "    return 0;", "}"],
    ["const dog = new Dog();", "// Walk the dog.", "dog.walk();"],
    ["SELECT name FROM dogs WHERE age = 3;"],
    ["pip install -r requirements.txt"],
    ['<p class="note">Hello.</p>'],
])
def test_code_of_other_languages_indented_after_a_blank_line_is_a_block(block):
    lines = ["Like this:", "", *[f"    {line}" for line in block], "", "Done."]
    assert indented_lines(lines) == set(range(2, 2 + len(block)))


@pytest.mark.parametrize("lines", [
    ["He wrote:", "", "    The woods are lovely, dark and deep,", "    But I have promises to keep,",
     "    And miles to go before I sleep."],
    ["Quote:", "", "    It was the best of times, it was the worst of times, it was the age of",
     "    wisdom, it was the age of foolishness; x = y for some."],
    ["Send it to:", "", "    John Smith", "    12 Main Street", "    Springfield"],
    ["- Feed the dog.", "", "    Give it water twice a day, and walk it -- at least once."],
    ["Set the value", "    x = total(items)"],  # no blank line before: it goes on its paragraph
])
def test_indented_words_are_no_code_block(lines):
    assert indented_lines(lines) == set()
