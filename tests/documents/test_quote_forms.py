"""attnmt.documents.quote_forms: the quotes around a whole sentence in the target language's usual form."""

import re

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.quote_forms import in_target_form, target_form


@pytest.mark.parametrize("source, translation, target, written", [
    ("“A dog.”", "“Ein Hund.”", "de", "„Ein Hund.“"),
    ("«A dog.»", "«Ein Hund.»", "de-DE", "„Ein Hund.“"),
    ("“A dog.”", "“Ein Hund.”", "de-CH", "«Ein Hund.»"),
    ("‘A dog.’", "‘Ein Hund.’", "de", "‚Ein Hund.‘"),
    ("„Ein Hund.“", "„A dog.“", "en", "“A dog.”"),
    ("  “A dog.” ", "  “Ein Hund.” ", "de", "  „Ein Hund.“ "),
    ('"A dog."', '"Ein Hund."', "de", "„Ein Hund.“"),  # straight ones too, as inside a sentence
    ("'A dog?'", "'Ein Hund?'", "de", "‚Ein Hund?‘"),
    ('"A dog."', '"Un chien."', "fr", "«\u00a0Un chien.\u00a0»"),  # French's spaces, as inside a sentence
    ("“A dog.”", "“Un chien.”", "fr-CA", "«\u00a0Un chien.\u00a0»"),
    ('"Ein Hund."', '"A dog."', "en", "“A dog.”"),
])
def test_quotes_around_a_sentence_are_written_as_the_target_language_writes_them(
        source, translation, target, written):
    assert in_target_form(source, translation, target) == written


@pytest.mark.parametrize("source, translation, target", [
    ("(A dog.)", "(Ein Hund.)", "de"),
    ("[A dog.]", "[Ein Hund.]", "de"),
    ("„A dog.“", "„Ein Hund.“", "de"),  # already in that form
    ('"A dog."', '"Ein Hund."', None),
    ("“A dog.”", "“Ein Hund.”", None),  # no target language known
    ("“A dog.”", "“Ein Hund.”", "xx"),  # one without a form here
    ("“A dog.”", "Ein Hund.", "de"),  # the translation is not between them
])
def test_brackets_and_quotes_of_no_known_form_stay_as_they_are(source, translation, target):
    assert in_target_form(source, translation, target) == translation


def test_a_line_quoted_in_english_comes_back_quoted_in_german(known):
    """The server wrote '“Zwei Hunde spielen im Schnee.”' for '“Two dogs play in the snow.”': English quotes in
    a German text."""
    translator = known({"“Two dogs play.”": ("“Zwei Hunde spielen.”", [(0, 0), (1, 1), (2, 2)])})
    options = DocumentOptions(target_lang="de")
    assert translate_lines(["“Two dogs play.”"], translator, options) == ["„Zwei Hunde spielen.“"]
    assert translate_lines(["“Two dogs play.”"], translator) == ["“Zwei Hunde spielen.”"]


@pytest.mark.parametrize("target, written", [
    ("de", ["HIM TO „THERE HELLO“ SAID SHE", "LEFT AND „YES“ SAID HE", "NOW ‚TIMES THE‘ READS MAN A",
            "TODAY „CHIEN LE“ SAW SHE"]),
    ("fr", ["HIM TO «\u00a0THERE HELLO\u00a0» SAID SHE", "LEFT AND «\u00a0YES\u00a0» SAID HE",
            "NOW ‹\u00a0TIMES THE\u00a0› READS MAN A", "TODAY « CHIEN LE » SAW SHE"]),
    ("de-CH", ["HIM TO «THERE HELLO» SAID SHE", "LEFT AND «YES» SAID HE", "NOW ‹TIMES THE› READS MAN A",
               "TODAY « CHIEN LE » SAW SHE"]),
    ("en", ["HIM TO “THERE HELLO” SAID SHE", "LEFT AND “YES” SAID HE", "NOW ‘TIMES THE’ READS MAN A",
            "TODAY “CHIEN LE” SAW SHE"]),
])
def test_quotes_inside_a_sentence_are_written_in_the_target_languages_form(mirror, target, written):
    """'She said "hello" to him.' came back '... "hallo" ...' from the demo model, where a German reader expects
    „hallo“ and a French one « bonjour »: straight and English quotes in prose take the target language's form."""
    lines = ['she said "hello there" to him', "he said “yes” and left", "a man reads 'The Times' now",
             "she saw « le chien » today"]
    assert translate_lines(lines, mirror, DocumentOptions(target_lang=target)) == written


def test_only_quotes_around_prose_take_the_target_form(mirror):
    """A call's quotes (the call kept whole), quotes around a URL alone (kept with it, as written, where its words
    went: attnmt.documents.closing_marks.bracketed) and CJK's corner brackets stay as written; so does every quote
    where the target language is not known, or of no known form."""
    lines = ['type print("hi") to say "hello there"', 'open "https://x.org/a" and "see this"', "他说「你好」了"]
    assert translate_lines(lines, mirror, DocumentOptions(target_lang="de")) == [
        '„THERE HELLO“ SAY print("hi") TO TYPE', '„THIS SEE“ "https://x.org/a" AND OPEN', "他说「你好」了"]
    for options in DocumentOptions(), DocumentOptions(target_lang="xx"):
        assert translate_lines(lines[:1], mirror, options) == ['"THERE HELLO" SAY print("hi") TO TYPE']


def test_a_comma_that_ends_a_quote_goes_after_it_where_the_target_language_writes_it_so(known):
    """English writes '"It works," Tom wrote.'; German „Es funktioniert“, schrieb Tom. and French « Ça marche », a
    écrit Tom.: the quote, around the translation of "It works,", took the comma in."""
    translator = known({"It works, Tom wrote.": ("Es funktioniert, schrieb Tom.", [(0, 0), (1, 1), (2, 3), (3, 2)])})
    line = '"It works," Tom wrote.'
    assert translate_lines([line], translator, DocumentOptions(target_lang="de")) == ["„Es funktioniert“, schrieb Tom."]
    assert translate_lines([line], translator, DocumentOptions(target_lang="fr")) == [
        "«\u00a0Es funktioniert\u00a0», schrieb Tom."]
    assert translate_lines([line], translator, DocumentOptions(target_lang="en")) == ["“Es funktioniert,” schrieb Tom."]
    assert translate_lines([line], translator) == ['"Es funktioniert," schrieb Tom.']  # no target language known


@pytest.mark.parametrize("translation", ['Er sagte „Hallo.“', 'Er sagte "Hallo".', "Er sagte «Hallo».",
                                         "Er sagte 'Hallo'."])
def test_the_models_own_quotes_around_a_quotes_words_are_not_doubled(fixed, translation):
    """The model that wrote "Hallo" in quotes of its own got the source's around them too: Er sagte „"Hallo".“."""
    translator = fixed(translation, [(0, 0), (1, 1), (2, 2)])
    assert translate_lines(['He said "hello".'], translator, DocumentOptions(target_lang="de")) == [
        "Er sagte „Hallo“."]
    assert translate_lines(['He said "hello".'], translator) == ['Er sagte "Hallo".']


@pytest.mark.parametrize("plain, marked", [
    ('<p>"Hello there."</p>', '<p>"<b>Hello</b> there."</p>'),
    ("<li>'A dog runs?'</li>", "<li>'A <i>dog</i> runs?'</li>"),
    ("<td>‘Two men sit.’</td>", '<td>‘Two <a href="/m">men</a> sit.’</td>'),
    ("<h2>«Deux chiens jouent.»</h2>", "<h2>«<em>Deux</em> chiens jouent.»</h2>"),
    ('<p>"A dog runs. A man sleeps."</p>', '<p>"A dog runs. A <span class="x">man</span> sleeps."</p>'),
])
@pytest.mark.parametrize("target", ["de", "fr", "de-CH", "en"])
def test_a_pages_quote_around_a_sentence_comes_out_alike_with_or_without_an_element_inside(upper, plain, marked,
                                                                                          target):
    """<p>"Hello there."</p> kept its straight quotes into German where <p>"<b>Hello</b> there."</p> got „…“; a text
    line holding the same words comes out as the page shows them."""
    options = DocumentOptions(target_lang=target)
    shown = [re.sub(r"<[^>]+>", "", page) for page in translate_markup([plain, marked], upper, options)]
    assert shown[0] == shown[1] == translate_lines([re.sub(r"<[^>]+>", "", plain)], upper, options)[0]
    pair = target_form(target)
    assert shown[0][0] == pair[0 if '"' in plain or "«" in plain else 2]
