"""A short label (alt, title, placeholder, aria-label) whose translation the model finds implausible keeps
its source (attnmt.documents.short_attributes), with stand-in translators whose plausibility is given."""

import pytest
from conftest import Judging

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.garbled_labels import FLOOR
from attnmt.decoding.glossary import Glossary
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.translators import ModelTranslator


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("page, expected", [
    ('<img src="l.png" alt="logo">', '<img src="l.png" alt="logo">'),
    ('<p title="main menu">two dogs</p>', '<p title="main menu">DOGS TWO</p>'),
    ('<input placeholder="search the site">', '<input placeholder="search the site">'),
    ('<button aria-label="close">ok</button>', '<button aria-label="close">OK</button>'),
    ('<IMG SRC="l.png" ALT="logo">', '<IMG SRC="l.png" ALT="logo">'),  # HTML's names in any case
])
def test_an_implausible_translation_of_a_short_label_keeps_the_label_as_written(page, expected, mirror):
    judging = Judging(mirror, {"logo": FLOOR / 3, "main menu": FLOOR - 0.01, "search the site": 0.0, "close": 0.05})
    assert one(page, judging) == expected


def test_a_plausible_translation_of_a_short_label_is_taken(mirror):
    judging = Judging(mirror, {"two dogs": FLOOR + 0.01})
    out = one('<img alt="two dogs"><p title="logo">a cat</p>', judging)
    assert out == '<img alt="DOGS TWO"><p title="LOGO">CAT A</p>'
    # each label, with what it would become: the attributes, then the paragraph, a short label alone
    assert judging.judged == [("two dogs", "DOGS TWO"), ("logo", "LOGO"), ("a cat", "CAT A")]


def test_a_label_kept_in_its_source_says_its_language_where_the_page_says_the_target(mirror):
    options = DocumentOptions(source_lang="en", target_lang="de")
    out = one('<html><body><p>a cat <img src="l.png" alt="logo"></p></body></html>', Judging(mirror, {"logo": 0.1}),
              options=options)
    assert '<p>CAT A <img src="l.png" alt="logo" lang="en"></p>' in out and '<html lang="de">' in out


def test_a_caption_longer_than_a_label_is_taken_at_any_plausibility(mirror):
    judging = Judging(mirror, {"a dog runs on the beach": 0.0, "send it to us now": 0.0, "logo": 0.0})
    page = '<img alt="a dog runs on the beach"><input type="submit" value="send it to us now"><img alt="logo">'
    expected = '<img alt="BEACH THE ON RUNS DOG A"><input type="submit" value="NOW US TO IT SEND"><img alt="logo">'
    assert one(page, judging) == expected
    assert judging.judged == [("logo", "LOGO")]


@pytest.mark.parametrize("element, expected", [
    ('<input type="submit" value="send it">', '<input type="submit" value="send it" lang="en">'),
    ('<input type="reset" value="send it">', '<input type="reset" value="send it" lang="en">'),
    ('<select><option label="send it" value="s"></option></select>',
     '<select><option label="send it" value="s" lang="en"></option></select>'),
])
def test_a_buttons_value_and_an_options_label_are_judged_as_a_buttons_words_are(element, expected, mirror):
    """A browser shows them as a <button>'s words: the demo model wrote <input type="submit" value="Send the
    message"> "Dieser bereitet sich", where <button>Send the message</button> kept its source."""
    options = DocumentOptions(source_lang="en", target_lang="de")
    out = one(f"<html><body><p>a cat</p>{element}</body></html>", Judging(mirror, {"send it": 0.0}), options=options)
    assert f"<p>CAT A</p>{expected}" in out


def test_a_text_boxs_value_is_data_not_a_label(mirror):
    judging = Judging(mirror, {"send it": 0.0})
    assert one('<input type="text" value="send it">', judging) == '<input type="text" value="send it">'
    assert judging.judged == []


def test_a_label_holding_a_glossary_term_is_taken_the_term_is_the_users_word(mirror):
    judging = Judging(mirror, {"logo": 0.0, "acme logo": 0.0}, Glossary.of({"acme": "ACME"}))
    assert one('<img alt="acme logo"><img alt="logo">', judging) == '<img alt="LOGO ACME"><img alt="logo">'


def test_a_repeated_label_is_judged_once(mirror):
    judging = Judging(mirror, {"logo": 0.1})
    assert one('<img alt="logo"><img alt="logo"><a title="logo">a cat sleeps.</a>', judging).count('"logo"') == 3
    assert judging.judged == [("logo", "LOGO")]


def test_the_models_plausibility_tells_its_own_translation_from_a_garbled_one(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    translator = ModelTranslator(model, tokenizer)
    own, garbled, blank = translator.plausibility(["a dog runs"] * 3, ["ein hund rennt", "rennt fahrrad ein", ""])
    assert own > 0.8 and garbled < FLOOR and blank is None


@pytest.mark.parametrize("page, expected", [
    ('<img alt="figure">', '<img alt="Abbildung">'),
    ('<button aria-label="search">go</button>', '<button aria-label="Suche">GO</button>'),
    ('<p title="Figure">a cat</p>', '<p title="Abbildung">CAT A</p>'),
])
def test_a_label_that_is_a_glossary_term_alone_is_written_as_its_target_term(page, expected, mirror):
    """As an office file's caption label is (attnmt.documents.short_labels.whole_term): the demo model, made to write
    "Abbildung" for "Figure", wrote "Ein Arzt in einem Abbildung" around it."""
    judging = Judging(mirror, {}, Glossary.of({"figure": "Abbildung", "search": "Suche"}))
    assert one(page, judging) == expected


class Stopping:
    """The ``mirror`` fixture's translations, each ended with a full stop, as a model trained on sentences ends them."""

    def __init__(self, mirror) -> None:
        self.mirror = mirror

    def translate(self, sentences, weighed):
        texts, weights = self.mirror.translate(sentences, weighed)
        return [text + "." for text in texts], weights


def test_a_label_is_judged_as_it_is_written_without_the_stop_the_model_added(mirror):
    """The page writes the label without the stop its source lacks; the demo model's "Close" -> "In einem Restaurant."
    was judged with it, 0.30 and taken, where the label as written was under the floor."""
    judging = Judging(Stopping(mirror), {"close": FLOOR + 0.01})
    page = '<button aria-label="close">ok</button><img alt="two dogs."><p title="logo">a cat</p>'
    assert one(page, judging) == '<button aria-label="CLOSE">OK</button><img alt="DOGS. TWO."><p title="LOGO">CAT A</p>'
    assert sorted(judging.judged) == [("a cat", "CAT A"), ("close", "CLOSE"), ("logo", "LOGO"), ("ok", "OK"),
                                      ("two dogs.", "DOGS. TWO.")]


def test_a_block_that_is_a_short_label_alone_keeps_its_source_and_says_its_language(mirror):
    """A table's header, a button, a menu's link: the demo model made <th>Name</th> "Ein De" and <button>Buy now
    </button> "Ein freier Mann mit freiem Oberkörper".  A plausible one is taken."""
    options = DocumentOptions(source_lang="en", target_lang="de")
    judging = Judging(mirror, {"Name": 0.09, "Buy now": 0.1, "Black dog": FLOOR + 0.01})
    out = one("<html><body><table><tr><th>Name</th></tr><tr><td>Black dog</td></tr></table>"
              "<button>Buy now</button></body></html>", judging, options=options)
    # the button's text is the body's own (a run of inline elements), and the body holds a translated cell: the
    # button, all its run shows, says the source's language itself
    assert '<th lang="en">Name</th></tr><tr><td>DOG BLACK</td></tr></table><button lang="en">Buy now</button>' in out


@pytest.mark.parametrize("run, said", [
    ('<select><option>red</option></select> <button><img src="i.png" alt=""> Buy now</button>',
     '<button lang="en"><img src="i.png" alt=""> Buy now</button>'),
    ('<img src="i.png" alt=""> <button>Buy now</button>', '<button lang="en">Buy now</button>'),
])
def test_a_kept_label_beside_an_atom_in_its_run_says_its_language_on_the_element_that_holds_it(mirror, run, said):
    """With a <select> beside it the button was no element alone in its run: the demo model's <button><img> Save the
    file</button> kept its English under <html lang="de">, stating nothing."""
    options = DocumentOptions(source_lang="en", target_lang="de")
    out = one(f"<html><body><p>a cat</p>{run}</body></html>", Judging(mirror, {"Buy now": 0.1}), options=options)
    assert '<html lang="de">' in out and said in out


@pytest.mark.parametrize("page, said", [
    ("<div><p>a cat</p>Buy now</div>", '<div><p>CAT A</p><span lang="en">Buy now</span></div>'),
    ("<div><p>a cat</p>\n  Buy now\n</div>", '<div><p>CAT A</p>\n  <span lang="en">Buy now</span>\n</div>'),
    ("<div>Buy now <p>a cat</p></div>", '<div><span lang="en">Buy now</span> <p>CAT A</p></div>'),
])
def test_a_kept_label_of_bare_text_beside_a_translated_block_says_its_language_in_a_span(mirror, page, said):
    """No element held it to state it: "Read more" beside a translated paragraph read as German."""
    options = DocumentOptions(source_lang="en", target_lang="de")
    out = one(f"<html><body>{page}</body></html>", Judging(mirror, {"Buy now": 0.1}), options=options)
    assert '<html lang="de">' in out and said in out


@pytest.mark.parametrize("page, kept", [
    ("<!DOCTYPE html><html><head><title>Dogs</title></head><body><p>a dog runs</p></body></html>",
     "<title>Dogs</title>"),
    ('<html><body><table><tr><th>Name</th></tr><tr><td>black dog</td></tr></table><img alt="logo"></body></html>',
     '<th>Name</th></tr><tr><td>DOG BLACK</td></tr></table><img alt="logo">'),
])
def test_a_page_given_back_as_sent_that_states_no_language_gets_none_on_its_kept_labels(mirror, page, kept):
    """A page sent to DeepL's or LibreTranslate's API comes back as it was sent but for its text: its <html> states
    the target only where it stated a language, and its garbled <title>Dogs</title> kept in English came back
    <title lang="en">, the only language the page stated.  (One whose <html lang="en"> says "de" now states "en" on
    what kept its source, as a file does.)"""
    options = DocumentOptions(source_lang="en", target_lang="de")
    out = translate_markup([page], Judging(mirror, {"Dogs": 0.1, "Name": 0.1, "logo": 0.1}), options, as_sent=True)[0]
    assert kept in out and "lang=" not in out


def test_a_short_sentence_with_its_stop_or_beside_another_is_running_text(mirror):
    judging = Judging(mirror, {"A cat sleeps.": 0.0, "Welcome home.": 0.0, "The dog runs.": 0.0})
    out = one("<p>A cat sleeps.</p><p>Welcome home. The dog runs.</p><td>4 €</td>", judging)
    assert out == "<p>SLEEPS. CAT A</p><p>HOME. WELCOME RUNS. DOG THE</p><td>4 €</td>"
    assert judging.judged == []
