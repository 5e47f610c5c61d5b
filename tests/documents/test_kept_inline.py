"""A page's inline code of one word among words (attnmt.documents.kept_inline): read with its sentence, written back
as the page wrote it over its copy in the translation, or at a point where it has none; code of several words, a
file name and a key combination stay atoms.  Same records what it is given; Known gives each sentence the model reads
its translation and alignment (a KeyError: it read another)."""

import pytest

from attnmt.documents.markup import translate_markup


def one(text, translator):
    return translate_markup([text], translator)[0]


@pytest.mark.parametrize("page, sentence", [
    ("<p>Set <var>x</var> to the number of dogs.</p>", "Set x to the number of dogs."),
    ("<li>Press <kbd>Enter</kbd> to start the game.</li>", "Press Enter to start the game."),
    ("<p>The function <code>len()</code> counts the apples.</p>", "The function len() counts the apples."),
    ("<td>Type <samp>yes</samp>, then wait.</td>", "Type yes, then wait."),
    ('<p>Add <code class="flag">--force</code> when it fails.</p>', "Add --force when it fails."),
])
def test_inline_code_of_one_word_is_read_with_its_sentence(same, page, sentence):
    """Taken out as an atom, the model read "Set to the number of dogs.": a sentence with a hole in it."""
    assert one(page, same) == page
    assert same.given == [sentence]


def test_inline_code_goes_over_its_copy_or_stands_where_its_word_went(known):
    translator = known({
        "Set x to the number of dogs.": ("Setze x auf die Zahl der Hunde.", [(0, 0), (1, 1), (2, 2), (3, 3)]),
        "Press Enter to start.": ("Drücke zum Starten.", [(0, 0), (1, 0), (2, 1), (3, 2)])})
    assert one("<p>Set <var>x</var> to the number of dogs.</p>", translator) == (
        "<p>Setze <var>x</var> auf die Zahl der Hunde.</p>")
    out = one("<p>Press <kbd>Enter</kbd> to start.</p>", translator)
    assert out.count("Enter") == 1 and out.replace(" <kbd>Enter</kbd>", "") == "<p>Drücke zum Starten.</p>"


@pytest.mark.parametrize("page, code", [
    ("<p>Run <code>pip install attnmt</code> to install it.</p>", "pip"),
    ("<p>Open the file <code>README.md</code> and read it.</p>", "README"),
    ("<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.</p>", "Ctrl"),
    ("<p>Press <kbd>Ctrl</kbd> + <kbd>Shift</kbd> + <kbd>C</kbd> now.</p>", "Shift"),
    ("<p><code>x</code></p>", "x"),
])
def test_code_of_several_words_a_file_name_a_key_combination_or_alone_stays_kept_whole(same, page, code):
    """Read as words, README.md sent the demo model into "HEAAAAAAAA…", and a combination's keys came back apart."""
    assert one(page, same) == page
    assert not any(code in given for given in same.given)
