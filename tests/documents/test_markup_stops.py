"""Stops kept in markup (``runs<b>.</b>``, ``"yes<i>!</i>"``): where they end a sentence, and that
the model's own stop does not double them (attnmt.documents.stops.without_added_end), with
stand-in translators whose alignments are known."""

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("translation, stop", [("ein Hund in den Händen.", "."), ("ein Hund in den Händen!", "."),
                                               ("ein Hund in den Händen", "."), ("ein Hund in den Händen.", "!")])
def test_a_kept_stop_after_a_sentence_is_not_doubled_by_the_models(fixed, translation, stop):
    """The model, given "a dog in his hands", ends it with a stop of its own: "Händen</b>.<i>.</i>"."""
    translator = fixed(translation, [(k, k) for k in range(5)])
    out = one(f"<p>a dog in his <b>hands</b><i>{stop}</i></p>", translator)
    assert out == f"<p>ein Hund in den <b>Händen</b><i>{stop}</i></p>"
    assert translator.given == ["a dog in his hands"]


@pytest.mark.parametrize("stop", ["؟", "۔", "।", "։", "።", "‼", "⁉"])
def test_a_kept_stop_of_another_script_is_not_doubled_by_the_models(fixed, stop):
    translator = fixed(f"ein Hund in den Händen{stop}", [(k, k) for k in range(5)])
    out = one(f"<p>a dog in his <b>hands</b><i>{stop}</i></p>", translator)
    assert out == f"<p>ein Hund in den <b>Händen</b><i>{stop}</i></p>"


@pytest.mark.parametrize("stops", ["<i>. </i><i>.</i>", "<i>.</i> <i>!</i>", "<i> ?</i>"])
def test_kept_stops_with_spaces_between_them_are_not_doubled_by_the_models(fixed, stops):
    translator = fixed("ein Hund in den Händen.", [(k, k) for k in range(5)])
    out = one(f"<p>a dog in his <b>hands</b>{stops}</p>", translator)
    assert out == f"<p>ein Hund in den <b>Händen</b>{stops}</p>"


def test_a_kept_stop_in_the_middle_of_a_paragraph_ends_its_sentence(same, mirror):
    """Read without the <b>'s text, "A dog runs on the beach A cat sleeps." was one sentence."""
    text = "<p>A dog runs on the beach<b>.</b> A cat sleeps.</p>"
    assert one(text, same) == text
    assert same.given == ["A dog runs on the beach", "A cat sleeps."]
    assert one(text, mirror) == "<p>BEACH THE ON RUNS DOG A<b>.</b> SLEEPS. CAT A</p>"


def test_a_kept_stop_after_an_abbreviation_ends_no_sentence(same):
    one("<p>Mr<b>.</b> Smith runs on the beach.</p>", same)
    assert same.given == ["Mr Smith runs on the beach."]


@pytest.mark.parametrize("translation", ['"ein Hund rennt."', '"ein Hund rennt".', '"ein Hund rennt"'])
def test_a_kept_stop_before_a_closing_quote_is_not_doubled_by_the_models(fixed, translation):
    """The model read "A dog runs " (the quote a word of its own) and ended it with a stop of its
    own: the stop came twice."""
    translator = fixed(translation, [(0, 0), (1, 1), (2, 2)])
    assert one('<p>"A dog runs<b>.</b>"</p>', translator) == '<p>"ein Hund rennt<b>.</b>"</p>'
    assert translator.given == ['"A dog runs"']


def test_a_kept_stop_after_a_closing_quote_is_not_doubled_by_the_models(fixed):
    """The quote is the source's, in the target language's form (attnmt.documents.markup_text); the model's own
    quotes around its words are left out, not written inside it (``„"Hallo"“``)."""
    translator = fixed('Er sagte „Hallo.“', [(0, 0), (1, 1), (2, 2)])
    assert one('<p>He said "hello"<i>.</i></p>', translator, options=DocumentOptions(target_lang="de")) == (
        "<p>Er sagte „Hallo“<i>.</i></p>")


def test_a_sentence_with_a_stop_of_its_own_keeps_the_models(fixed):
    translator = fixed("ein Hund rennt.", [(0, 0), (1, 1), (2, 2)])
    assert one("<p>a dog runs.<i>!</i></p>", translator) == "<p>ein Hund rennt.<i>!</i></p>"


@pytest.mark.parametrize("text", [
    'He said "yes<b>.</b>" and left the room.', "“Come here<i>!</i>” she said to the dog.",
    "He said 'stop<b>!</b>' and ran.", "He said «Open<b>.</b>» to the man.",
    "A man (the tall one<b>.</b>) waits at the door.", "„Komm her<b>!</b>“ rief sie.",
])
def test_a_kept_stop_inside_quotes_in_the_middle_of_a_sentence_stays_inside_them(same, text):
    """Read inside its word ("yes"), the stop went before the next word, out of the quotes:
    ``"yes" <b>.</b> and``."""
    assert one(f"<p>{text}</p>", same) == f"<p>{text}</p>"


@pytest.mark.parametrize("translation, alignment, expected", [
    ("Er sagte „ja“ und ging.", [(k, k) for k in range(5)], "Er sagte „ja<b>.</b>“ und ging."),
    ("„Ja“, sagte er und ging.", [(0, 2), (1, 1), (2, 0), (3, 3), (4, 4)], "„Ja<b>.</b>“, sagte er und ging."),
])
def test_a_kept_stop_inside_quotes_goes_before_the_closing_quote_of_its_words_translation(fixed, translation,
                                                                                          alignment, expected):
    translator = fixed(translation, alignment)
    assert one('<p>He said "yes<b>.</b>" and left.</p>', translator) == f"<p>{expected}</p>"


@pytest.mark.parametrize("text, given", [
    ('Now only $<span class="whole">19<span class="decimal">.</span></span><span class="fraction">99</span> for this '
     "soft dog bed.", "Now only $19 99 for this soft dog bed."),
    ("Version 2<b>.</b>0 is out now.", "Version 2 0 is out now."),
    ("It costs 3<sup>.</sup>50 euros.", "It costs 3 50 euros."),
    ("Call us at 555<span>.</span>0100 today.", "Call us at 555 0100 today."),
    ("Go to example<b>.</b>com for more.", "Go to example com for more."),
])
def test_a_kept_stop_between_letters_or_digits_ends_no_sentence(same, text, given):
    """A price's decimal point in its own element split "Now only $19" from "99 for this soft dog bed."."""
    one(f"<p>{text}</p>", same)
    assert same.given == [given]


@pytest.mark.parametrize("text, translation, expected", [
    ('“A dog runs<b>.</b>”<sup><a href="#fn1">1</a></sup>', "„Ein Hund rennt.“",
     '„Ein Hund rennt<b>.</b>“<sup><a href="#fn1">1</a></sup>'),
    ('"A dog runs<b>.</b>" <a href="#fn1">[1]</a>', "„Ein Hund rennt“.",
     '„Ein Hund rennt<b>.</b>“ <a href="#fn1">[1]</a>'),
    ('A dog runs<b>.</b><sup><a href="#fn1">1</a></sup>', "Ein Hund rennt.",
     'Ein Hund rennt<b>.</b><sup><a href="#fn1">1</a></sup>'),
    ('A dog runs<b>.</b><a epub:type="noteref" href="#n1">a</a>', "Ein Hund rennt.",
     'Ein Hund rennt<b>.</b><a epub:type="noteref" href="#n1">a</a>'),
])
def test_a_kept_stop_before_a_notes_reference_is_not_doubled_by_the_models(fixed, text, translation, expected):
    """The stop and the reference after it read ".1", no stop: the model's own stop was kept too
    (``“A dog runs.<b>.</b>”<sup>``)."""
    translator = fixed(translation, [(0, 0), (1, 1), (2, 2)])
    assert one(f"<p>{text}</p>", translator) == f"<p>{expected}</p>"


def test_a_kept_stop_before_an_xhtml_entitys_quote_does_not_part_the_quote_from_its_word(same):
    """An entity reference is no tail: the model read "“A dog runs ”", the quote a word of its own."""
    body = ("<p>&ldquo;A dog runs<b>.</b>&rdquo;</p><p>The man said: &laquo;I am tired<b>.</b>&raquo;</p>"
            "<p>He said &ldquo;yes<b>.</b>&rdquo; and left.</p>")
    page = ('<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
            '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head>'
            f"<title>t</title></head><body>{body}</body></html>")
    assert translate_markup([page], same, xhtml=True)[0] == page
    assert same.given == ["“A dog runs”", "The man said: «I am tired»", "He said “yes” and left."]


@pytest.mark.parametrize("text, given", [
    ("<p>A dog runs on the grass.³</p>", ["A dog runs on the grass."]),
    ("<p>A man rides a bike.¹ A dog runs.²</p>", ["A man rides a bike.", "A dog runs."])])
def test_a_note_number_typed_in_superscript_digits_after_a_stop_is_kept(unnoted, text, given):
    """Read with the sentence whose stop it follows, the model dropped the "³" (sentences.note_after_stop)."""
    assert one(text, unnoted) == text
    assert unnoted.given == given


@pytest.mark.parametrize("text, given", [
    ("<p>A woman reads in the park<b>.</b>¹² A man sleeps.</p>", ["A woman reads in the park", "A man sleeps."]),
    ("<p>A dog runs on the grass<i>.</i>³</p>", ["A dog runs on the grass"])])
def test_a_note_number_after_a_stop_kept_in_markup_is_kept_and_ends_the_sentence(unnoted, text, given):
    """Read "park ¹² A man", the kept stop ended no sentence (a dot between digits, as in "2.0", and a
    space that parted the number from it): the model was given one sentence and lost the number and
    the second sentence ("Eine Frau liest<b>.</b>im Park.")."""
    assert one(text, unnoted) == text
    assert unnoted.given == given


@pytest.mark.parametrize("markup", ["<title>{}</title>", "<ul><li>{}</li></ul>", "<table><tr><td>{}</td></tr></table>",
                                    "<p><button>{}</button></p>"])
def test_a_block_that_ends_in_no_stop_gets_none_from_the_model(fixed, markup):
    """The demo model's ``<title>A dog in the park</title>`` came back ``Ein Hund im Park.``, a stop the page
    never had; so did a list's item, a table's cell and a button."""
    translator = fixed("ein Hund im Park.", [(k, k) for k in range(4)])
    assert one(markup.format("a dog in the park"), translator) == markup.format("ein Hund im Park")


@pytest.mark.parametrize("translation", ["ein Hund im Park!", "ein Hund im Park...", "ein Hund im Park…"])
def test_a_block_that_ends_in_no_stop_keeps_another_mark_or_an_ellipsis_the_model_wrote(fixed, translation):
    assert one("<li>a dog in the park</li>", fixed(translation, [])) == f"<li>{translation}</li>"


@pytest.mark.parametrize("source, translation, written", [
    ("(optional)", "(Bei einem Kampffeld.)", "(Bei einem Kampffeld)"),
    ('"Save changes"', '"Änderungen speichern".', '"Änderungen speichern"'),
    ('"Save changes."', '"Änderungen speichern."', '"Änderungen speichern."'),
])
def test_a_block_that_ends_in_no_stop_inside_its_brackets_gets_none_inside_them(fixed, source, translation, written):
    """The demo model's "(optional)" came back "(Bei einem Kampffeld.)", a stop the brackets never held."""
    assert one(f"<li>{source}</li>", fixed(translation, [])) == f"<li>{written}</li>"


@pytest.mark.parametrize("source, translation, written", [
    ("Loading...", "Wird geladen.", "Wird geladen..."),
    ("A dog runs…", "Ein Hund rennt", "Ein Hund rennt…"),
    ("A dog runs…", "Ein Hund rennt?", "Ein Hund rennt?"),
    ("A dog runs...", "Ein Hund rennt…", "Ein Hund rennt…"),
    ("Save as...", "Speichern... unter", "Speichern... unter"),  # the model moved it: not written twice
])
def test_a_block_that_trails_off_keeps_its_ellipsis(fixed, source, translation, written):
    """The demo model's "A dog runs…" came back "Ein Hund rennt.", "Loading..." "Ein Cumma."."""
    assert one(f"<li>{source}</li>", fixed(translation, [])) == f"<li>{written}</li>"
