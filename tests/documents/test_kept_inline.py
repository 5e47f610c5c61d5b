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
    ("<p>Press<kbd>Ctrl</kbd>+<kbd>C</kbd>now.</p>", "Ctrl"),
    ("<p><kbd>Ctrl</kbd>+<kbd>C</kbd></p>", "Ctrl"),
    ("<p>Run <code>make</code> <code>test</code> now.</p>", "make"),
    ("<p><code>x</code></p>", "x"),
])
def test_code_of_several_words_a_file_name_keys_glued_or_alone_stays_kept_whole(same, page, code):
    """Read as words, README.md sent the demo model into "HEAAAAAAAA…", and keys read apart came back apart."""
    assert one(page, same) == page
    assert not any(code in given for given in same.given)


@pytest.mark.parametrize("page, sentence", [
    ("<p>Press <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to copy.</p>", "Press Ctrl+C to copy."),
    ("<li>Use <kbd><kbd>Ctrl</kbd> + <kbd>Shift</kbd> + <kbd>T</kbd></kbd> again.</li>",
     "Use Ctrl+Shift+T again."),
    ("<p>A man presses <kbd><kbd>Alt</kbd>-<kbd>F4</kbd></kbd> and leaves.</p>", "A man presses Alt-F4 and leaves."),
    ("<td>Hit <kbd class=combo><kbd>Cmd</kbd> <kbd>K</kbd></kbd>, then type.</td>", "Hit Cmd K, then type."),
])
def test_a_key_combination_in_one_element_is_read_with_its_sentence(same, page, sentence):
    """Kept out as an atom, the model read "Press to copy."; the element comes back with each key and its "+"."""
    assert one(page, same) == page
    assert same.given == [sentence]


def test_a_key_combination_goes_over_its_copy_or_stands_where_its_words_went(known):
    page = "<p>Press <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to copy.</p>"
    copied = known({"Press Ctrl+C to copy.": ("Drücke Ctrl+C zum Kopieren.", [(0, 0), (1, 1), (2, 2), (3, 3)])})
    assert one(page, copied) == "<p>Drücke <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> zum Kopieren.</p>"
    renamed = known({"Press Ctrl+C to copy.": ("Drücke Strg+C zum Kopieren.", [(0, 0), (1, 1), (2, 2), (3, 3)])})
    out = one(page, renamed)
    assert out.count("<kbd>Ctrl</kbd>+<kbd>C</kbd>") == 1 and out.startswith("<p>Drücke ") and "Kopieren." in out


@pytest.mark.parametrize("page, sentence", [
    ("<p>Press <kbd>A</kbd>, <kbd>B</kbd> or <kbd>C</kbd> to choose.</p>", "Press A, B or C to choose."),
    ("<li>Move with <kbd>W</kbd>, <kbd>S</kbd>, <kbd>Q</kbd> and <kbd>E</kbd>.</li>", "Move with W, S, Q and E."),
    ("<td>Set <var>x</var>; <var>y</var> to zero.</td>", "Set x; y to zero."),
    ("<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, <kbd>Esc</kbd> or <kbd>Tab</kbd> now.</p>",
     "Press Ctrl+C, Esc or Tab now."),
])
def test_keys_listed_with_commas_are_read_with_their_sentence_each_key_kept(same, page, sentence):
    """Keys joined by a comma were read as keys of a combination and taken out: "Press, or C to choose."."""
    assert one(page, same) == page
    assert same.given == [sentence]


def test_a_listed_key_the_translation_dropped_is_put_back(known):
    page = "<p>Press <kbd>A</kbd>, <kbd>B</kbd> or <kbd>C</kbd> to choose.</p>"
    dropped = known({"Press A, B or C to choose.": (
        "Zum Wählen A oder C drücken.", [(0, 5), (1, 2), (2, 2), (3, 3), (4, 4), (5, 0), (6, 1)])})
    out = one(page, dropped)
    assert [out.count(f"<kbd>{key}</kbd>") for key in "ABC"] == [1, 1, 1] and "oder <kbd>C</kbd>" in out


@pytest.mark.parametrize("page, sentence", [
    ('<p>Model number <span translate="no">AZ-2040-X</span> ships today.</p>', "Model number AZ-2040-X ships today."),
    ('<p>The <span class="notranslate">X-200</span> camera is new.</p>', "The X-200 camera is new."),
    ('<p>Keys for <span translate="no">Ctrl+Alt</span> users.</p>', "Keys for Ctrl+Alt users."),
])
def test_a_kept_name_that_is_an_identifier_is_read_with_its_sentence(same, page, sentence):
    """The page reader took the identifier out of the kept name's text: the model read "Model number ships today."."""
    assert one(page, same) == page
    assert same.given == [sentence]


@pytest.mark.parametrize("page, sentence", [
    ("<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.</p>", "Press Ctrl+C to copy."),
    ("<li>Hit <kbd>Alt</kbd>-<kbd>F4</kbd>, then wait.</li>", "Hit Alt-F4, then wait."),
    ("<p>Type <kbd>Cmd</kbd> <kbd>K</kbd> to search.</p>", "Type Cmd K to search."),
    ("<p>Use <b>the keys <kbd>Ctrl</kbd> + <kbd>Shift</kbd> + <kbd>Z</kbd></b> to redo.</p>",
     "Use the keys Ctrl+Shift+Z to redo."),
    ("<td><kbd>Ctrl</kbd>+<kbd>S</kbd> saves the file.</td>", "Ctrl+S saves the file."),
    ("<p>Press <kbd>Ctrl</kbd>&#160;+&#160;<kbd>Alt</kbd>&#160;+&#160;<kbd>Del</kbd>.</p>", "Press Ctrl+Alt+Del."),
])
def test_keys_side_by_side_are_read_as_one_combination(same, page, sentence):
    """Taken out as atoms, the model read "Press to copy."; each key's element and the "+" come back as they came."""
    assert one(page, same) == page
    assert same.given == [sentence]


def test_keys_side_by_side_go_over_their_copy_or_stand_together_where_their_words_went(known):
    page = "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.</p>"
    copied = known({"Press Ctrl+C to copy.": ("Drücke zum Kopieren Ctrl+C.", [(0, 0), (1, 3), (2, 1), (3, 2)])})
    assert one(page, copied) == "<p>Drücke zum Kopieren <kbd>Ctrl</kbd>+<kbd>C</kbd>.</p>"
    dropped = known({"Press Ctrl+C to copy.": ("Drücke zum Kopieren.", [(0, 0), (1, 1), (2, 1), (3, 2)])})
    out = one(page, dropped)
    assert out.count("<kbd>Ctrl</kbd>+<kbd>C</kbd>") == 1 and out.count("<kbd>") == 2
    assert out.replace(" <kbd>Ctrl</kbd>+<kbd>C</kbd>", "") == "<p>Drücke zum Kopieren.</p>"


@pytest.mark.parametrize("page", [
    "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.</p>",
    "<p>Press <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to copy.</p>",
])
@pytest.mark.parametrize("translation", ["Drücke Strg+C zum Kopieren.", "Drücke (Strg+C) zum Kopieren."])
def test_a_key_combination_goes_over_the_keys_the_translation_named_in_its_place(known, page, translation):
    """Written beside the model's "Strg+C", the page showed the combination twice."""
    translator = known({"Press Ctrl+C to copy.": (translation, [(0, 0), (1, 1), (2, 2), (3, 3)])})
    keys = page[len("<p>Press "):-len(" to copy.</p>")]
    assert one(page, translator) == "<p>" + translation.replace("Strg+C", keys) + "</p>"


@pytest.mark.parametrize("page, sentence, translation, written", [
    ("<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>", "Close it with Alt-F4 now.",
     "Schließe es mit Alt-F jetzt.", "<p>Schließe es mit <kbd>Alt</kbd>-<kbd>F4</kbd> jetzt.</p>"),
    ("<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>", "Close it with Alt-F4 now.",
     "Schließe es mit F4 jetzt.", "<p>Schließe es mit <kbd>Alt</kbd>-<kbd>F4</kbd> jetzt.</p>"),
    ("<li>Use <kbd>Ctrl</kbd>-<kbd>Shift</kbd>-<kbd>T</kbd> again.</li>", "Use Ctrl-Shift-T again.",
     "Nutze Ctrl-T erneut.", "<li>Nutze <kbd>Ctrl</kbd>-<kbd>Shift</kbd>-<kbd>T</kbd> erneut.</li>"),
    ("<p>Press <kbd><kbd>Cmd</kbd>-<kbd>Q</kbd></kbd> to quit.</p>", "Press Cmd-Q to quit.",
     "Drücke Cmd zum Beenden.", "<p>Drücke <kbd><kbd>Cmd</kbd>-<kbd>Q</kbd></kbd> zum Beenden.</p>"),
])
def test_a_key_combination_goes_over_the_keys_the_translation_kept_of_it(known, page, sentence, translation,
                                                                         written):
    """The model dropped the 4 of Alt-F4: the page showed "Alt-F" beside the combination put back."""
    pairs = [(k, k) for k in range(len(sentence.split()))]
    assert one(page, known({sentence: (translation, pairs)})) == written


def test_a_word_that_is_no_key_of_the_combination_stays_beside_it_one_that_is_goes_under_it(known):
    translator = known({"Close it with Alt-F4 now.": ("Schließe es mit Alt-F5 jetzt.", [(k, k) for k in range(5)]),
                        "Then press Alt-F4 again.": ("Dann drücke Alt erneut.", [(k, k) for k in range(4)])})
    page = "<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p><p>Then press <kbd>Alt</kbd>-<kbd>F4</kbd> again.</p>"
    assert one(page, translator) == ("<p>Schließe es mit Alt-F5 <kbd>Alt</kbd>-<kbd>F4</kbd> jetzt.</p>"
                                     "<p>Dann drücke <kbd>Alt</kbd>-<kbd>F4</kbd> erneut.</p>")
