"""A field's name in an element of its own at a page's block's start (attnmt.documents.markup_fields) reads as a text
line's does: a name the model garbles keeps its source, a value that is a measure or persons' names after a role is
kept as written, and a bold name in sentence case is a field's too."""

import re

import pytest
from conftest import Judging, Mirror, Same, Sentencing
from lxml import html

from attnmt.decoding.garbled_labels import FLOOR
from attnmt.decoding.glossary import Glossary
from attnmt.documents import DocumentOptions
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import translate_lines


class Captioning(Mirror):
    """Mirror's translations, but a word alone written with an article first, as a caption's model writes one: the
    demo model's "EIN SCHILD" for "SIGNAL", "EINE KATZEN" for "CATS"."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [f"EIN {text}" if len(sentence.split()) == 1 else text
                for sentence, text in zip(sentences, super().texts(sentences), strict=True)]


def test_a_fields_name_in_bold_that_the_model_garbles_keeps_its_source_as_a_text_line_s(mirror):
    """The demo model wrote "<li><b>Benefits:</b> Free parking.</li>" as "<li><b>Ein Dema:</b> ...</li>"."""
    judging = Judging(mirror, {"Benefits": FLOOR / 2, "DRESS CODE": FLOOR - 0.01, "Key Features": FLOOR + 0.01})
    pages = ["<li><b>Benefits:</b> free parking.</li>", "<p><strong>DRESS CODE :</strong> smart casual.</p>",
             "<p><b>Key Features:</b> a red dog.</p>", "<p><b>ANNA:</b> A red dog.</p>",
             "<p>It is <b>Benefits:</b> a cat.</p>"]
    assert translate_markup(pages, judging) == [
        "<li><b>Benefits:</b> PARKING. FREE</li>", "<p><strong>DRESS CODE :</strong> CASUAL. SMART</p>",
        "<p><b>FEATURES KEY:</b> DOG. RED A</p>", "<p><b>ANNA:</b> DOG. RED A</p>",
        "<p>CAT. A <b>BENEFITS:</b> IS IT</p>"]
    # the names alone are judged: not a speaker's words, nor a bold word inside a sentence
    assert [source for source, _ in judging.judged] == ["Benefits", "DRESS CODE", "Key Features"]


def test_a_measure_or_persons_names_after_a_fields_name_in_bold_are_kept_as_written(mirror):
    """The demo model wrote "<p><b>Translator:</b> Ann Goldstein</p>" as "<p><b>Ein Dema:</b> Ein Moner läuft</p>"
    and "<p><strong>Weight:</strong> 1.2 kg</p>" lost its measure."""
    pages = ["<p><b>Translator:</b> Ann Goldstein</p>", "<p><strong>WEIGHT:</strong> 1.2 kg</p>",
             "<p><b>Cast</b>: Tom Hanks, Meg Ryan</p>", "<p><b>Colour:</b> Space Grey</p>",
             "<p><b>Translator:</b> Ann Goldstein and <i>a red dog</i></p>"]
    out = translate_markup(pages, mirror)
    assert out[:4] == ["<p><b>TRANSLATOR:</b> Ann Goldstein</p>", "<p><strong>WEIGHT:</strong> 1.2 kg</p>",
                       "<p><b>CAST</b>: Tom Hanks, Meg Ryan</p>", "<p><b>COLOUR:</b> GREY SPACE</p>"]
    # a value with more markup after it is read with its name, as before
    assert mirror.given == ["Translator", "WEIGHT", "Cast", "Colour", "Space Grey",
                            "Translator: Ann Goldstein and a red dog"]


def test_a_fields_name_in_sentence_case_set_apart_in_bold_is_translated_alone(mirror):
    """The demo model wrote "<p><strong>Prep time:</strong> 15 min</p>" as "<p><strong>Müner</strong> haben
    Spaß</p>", the name, its colon and the measure lost; in a text line, sentence case is a sentence's start."""
    pages = ["<p><strong>Prep time:</strong> 15 min</p>", "<p><b>Side effects:</b> a big cat.</p>",
             "<p><b>Note that:</b> a dog.</p>", "<p><b>The dog said:</b> a red cat.</p>"]
    out = translate_markup(pages, mirror)
    assert out[:2] == ["<p><strong>TIME PREP:</strong> 15 min</p>", "<p><b>EFFECTS SIDE:</b> CAT. BIG A</p>"]
    assert mirror.given == ["Prep time", "Side effects", "a big cat.", "Note that: a dog.",
                            "The dog said: a red cat."]


def test_a_fields_name_in_bold_after_a_block_in_its_own_is_translated_alone(mirror):
    """The run after a <p> starts a block of its own, as a browser lays it out: read with its sentence, "Note:" was
    lost, the demo model writing ``<div><p>…</p>Ein <b>Mann</b> geht an einem Mann entlang.</div>``."""
    page = "<div><p>A dog runs.</p><b>Note:</b> a red cat.</div>"
    assert translate_markup([page], mirror) == ["<div><p>RUNS. DOG A</p><b>NOTE:</b> CAT. RED A</div>"]
    assert mirror.given == ["A dog runs.", "Note", "a red cat."]


def test_a_remarks_name_set_apart_in_its_own_element_is_translated_alone_and_garbled_keeps_its_source(mirror):
    """The demo model wrote "<p><b>Tip:</b> Add salt.</p>" as "<p>Ein <b>Dema.</b></p>", the name, its colon and
    the sentence lost; set apart, "Tip" is a name a reader sees as one, where typed in a sentence's text it is read
    with it, as is a bold word that is no remark's ("Note that:", "Warning signs of")."""
    judging = Judging(mirror, {"Tip": FLOOR / 2, "Important note": FLOOR + 0.01})
    pages = ["<p><b>Tip:</b> add salt.</p>", "<li><strong>Important note</strong>: a red dog.</li>",
             "<p><b>WARNING:</b> hot water.</p>", "<p><b>Note that:</b> a dog.</p>", "<p>Tip: a red cat.</p>",
             "<p><b>Warning signs of:</b> a cat.</p>"]
    assert translate_markup(pages, judging)[:3] == [
        "<p><b>Tip:</b> SALT. ADD</p>", "<li><strong>NOTE IMPORTANT</strong>: DOG. RED A</li>",
        "<p><b>WARNING:</b> WATER. HOT</p>"]
    assert [source for source, _ in judging.judged] == ["Tip", "Important note"]  # "WARNING" came back as it was
    assert mirror.given[-3:] == ["Note that: a dog.", "Tip: a red cat.", "Warning signs of: a cat."]


def test_a_fields_name_in_bold_with_its_colon_after_the_element_that_the_model_garbles_keeps_its_source(mirror):
    """The colon after the element's end was not found (an empty atom stands there first), so the name was not
    judged and the model's garbled translation stood."""
    judging = Judging(mirror, {"Side Effects": FLOOR / 2})
    out = translate_markup(["<p><b>Side Effects</b>: nausea.</p>"], judging)
    assert out == ["<p><b>Side Effects</b>: NAUSEA.</p>"] and judging.judged == [("Side Effects", "EFFECTS SIDE")]


def test_a_fields_name_whose_translation_opens_with_an_article_it_lacks_keeps_its_source():
    """The demo model wrote "SIGNAL: 3 bars" as "EIN SCHILD: Drei Barn", its words plausible enough (a text line's,
    a page's name alike); an alt text of one word may take an article, a label of another kind."""
    judging = Judging(Captioning(), {})  # every translation plausible
    assert translate_lines(["SIGNAL: weak today.", "- Colours: red and blue."], judging) == [
        "SIGNAL: TODAY. WEAK", "- Colours: BLUE. AND RED"]
    assert translate_markup(['<p><b>Benefits:</b> free parking.</p><p><img alt="Dog"> a red dog.</p>'], judging) == [
        '<p><b>Benefits:</b> PARKING. FREE</p><p><img alt="EIN DOG"> DOG. RED A</p>']


class Spelling(Mirror):
    """Mirror's translations, but a number written in words and a word alone given an article first, as a caption's
    model writes them: the demo model's "Drei Kerle." for "Three.", "Drei Barn" for "3 bars"."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [re.sub(r"\d+", "DREI", f"EIN {text}" if len(sentence.split()) == 1 else text)
                for sentence, text in zip(sentences, super().texts(sentences), strict=True)]


def test_a_count_or_a_measure_in_words_whose_translation_lost_it_keeps_its_source():
    """The demo model wrote "DOGS: Three." as "HUNDE: Drei Kerle." and "BATTERY: 4 bars" as "BATTERY: Drei
    weiblichen": a field's value, a cell or a line that is a count or a measure alone keeps its source where its
    translation has more words than the count or not the number's digits; the field's name is translated."""
    lines = ["DOGS: Three.", "BATTERY: 4 bars", "Seventy.", "PLAYERS: Two to four", "A dog runs 3 km."]
    assert translate_lines(lines, Spelling()) == [
        "EIN DOGS: Three.", "EIN BATTERY: 4 bars", "Seventy.", "EIN PLAYERS: FOUR TO TWO", "KM. DREI RUNS DOG A"]
    assert translate_markup(["<p><b>Eggs:</b> Three.</p><table><tr><td>3 cups</td></tr></table>"], Spelling()) == [
        "<p><b>EIN EGGS:</b> Three.</p><table><tr><td>3 cups</td></tr></table>"]


def test_a_count_alone_in_one_word_is_written_in_the_target_languages_word_in_a_line_and_on_a_page(mirror):
    """The demo model wrote "SEATS: Twelve" as "SEATS: Es" and "ANNA: Three." as "ANNA: Three.", the count lost or
    left in English; the Mirror's "TWELVE" stands for either.  Without a target language the model's stays."""
    lines = ["SEATS: Twelve", "ANNA: Three.", "- Two", "Three dogs."]
    assert translate_lines(lines, mirror, DocumentOptions(target_lang="de")) == [
        "SEATS: Zwölf", "ANNA: Drei.", "- Zwei", "DOGS. THREE"]
    assert translate_lines(lines[:1], mirror, DocumentOptions(target_lang="fr")) == ["SEATS: Douze"]
    assert translate_lines(lines[:1], mirror) == ["SEATS: TWELVE"]
    assert translate_markup(["<p>SEATS: Twelve</p>", "<td>Three</td>"], mirror, DocumentOptions(target_lang="de")) == [
        "<p>SEATS: Zwölf</p>", "<td>Drei</td>"]


def test_a_block_all_of_whose_sentences_kept_their_source_says_the_sources_language_on_a_translated_page():
    """The demo model wrote "SIGNAL" as "EIN SCHILD" and "3 bars" as "Drei weiblichen", so both kept their source and
    "<p>SIGNAL: 3 bars</p>" stayed English on a page that now says German, with no lang="en" on it; a block with one
    sentence translated says the target's language with the page."""
    translator = Judging(Sentencing({"SIGNAL": "EIN SCHILD", "3 bars": "Drei weiblichen", "BENEFITS": "EIN DEMA",
                                     "Free parking.": "Freies Parken.", "A dog runs.": "Ein Hund rennt."}), {})
    page = ('<html lang="en"><body><p>SIGNAL: 3 bars</p><p>BENEFITS: Free parking.</p><p>A dog runs.</p>'
            "</body></html>")
    out, = translate_markup([page], translator, DocumentOptions(target_lang="de"))
    assert '<html lang="de">' in out and '<p lang="en">SIGNAL: 3 bars</p>' in out
    assert "<p>BENEFITS: Freies Parken.</p><p>Ein Hund rennt.</p>" in out


def test_a_links_whole_title_with_a_colon_is_one_sentence_and_a_name_set_apart_before_it_a_fields():
    """An EPUB's contents link "Part One: The storm" was cut into "Part One", read as a field's name before a person's
    ("The Storm" in title case), and "The storm": the demo model wrote "Ein Demel: Die Eis".  A look that ends at the
    colon still sets a name apart, and a numbered part's heading is a field's name wherever it stands: its word is a
    known one (caption_labels.numbered_label), and read whole the demo model lost it ("Auf diesem Bild")."""
    translator = Same()
    pages = ['<li><a href="one.xhtml">Harbour Lights: The storm</a></li>', "<p><b>Prep time:</b> 15 min</p>",
             "<p><i>Side effects</i>: nausea</p>", '<h2><a href="#b">Winter Tales: The Return of the King</a></h2>',
             '<li><a href="two.xhtml">Book Two: The Return of the King</a></li>']
    assert translate_markup(pages, translator) == pages
    assert translator.given == ["Harbour Lights: The storm", "Prep time", "Side effects", "nausea",
                                "Winter Tales: The Return of the King", "Book Two", "The Return of the King"]


def test_a_numbered_parts_heading_is_written_in_the_target_languages_word_its_number_as_written(mirror):
    """The demo model wrote "Chapter 3" alone as a caption it garbled, kept in English beside a German title, and
    lost "Book II" read whole; the part's word is a known one, as a caption's label is (caption_labels)."""
    judging = Judging(mirror, {"Chapter 3": 0.0, "BOOK II": 0.0, "Section 4.2": 0.0, "Part One": 0.0})
    lines = ["Chapter 3: A dog runs.", "BOOK II: A MAN WALKS.", "Section 4.2: Two cats.", "Part One: The storm",
             "Appendix A: A girl plays."]
    assert translate_lines(lines, judging, DocumentOptions(target_lang="de")) == [
        "Kapitel 3: RUNS. DOG A", "BUCH II: WALKS. MAN A", "Abschnitt 4.2: CATS. TWO", "Teil Eins: STORM THE",
        "Anhang A: PLAYS. GIRL A"]
    assert translate_lines(lines[:2], judging, DocumentOptions(target_lang="fr-CA")) == [
        "Chapitre 3: RUNS. DOG A", "LIVRE II: WALKS. MAN A"]
    page = ["<h2>Step 2: Mix the flour.</h2>", "<p><b>Figure 7:</b> A red dog.</p>"]
    assert translate_markup(page, judging, DocumentOptions(target_lang="es")) == [
        "<h2>Paso 2: FLOUR. THE MIX</h2>", "<p><b>Ilustración 7:</b> DOG. RED A</p>"]


def test_a_glossarys_term_for_a_parts_word_comes_first_and_an_unknown_language_keeps_the_models(mirror):
    glossary = Judging(mirror, {"Chapter 3": 0.0}, Glossary.of({"Chapter": "Abschnitt"}))
    assert translate_lines(["Chapter 3: A dog runs."], glossary, DocumentOptions(target_lang="de")) == [
        "Abschnitt 3: RUNS. DOG A"]
    swedish = Judging(mirror, {"Chapter 3": 0.0})  # no word known: judged, garbled, its source kept
    assert translate_lines(["Chapter 3: A dog runs."], swedish, DocumentOptions(target_lang="sv")) == [
        "Chapter 3: RUNS. DOG A"]


def test_a_fields_name_at_the_start_of_an_element_around_the_blocks_words_is_translated_alone(mirror):
    """Inside a span around the block's words, "Warning:" was read with its sentence: the demo model wrote
    ``<span><strong>Warning:</strong> the <u>water</u> is cold.</span>`` as
    ``<span>Am <strong>Wasser.</strong></span>``, the name and the <u> lost."""
    pages = ['<p><span class="x"><strong>Warning:</strong> the <u>water</u> is cold.</span></p>',
             "<div><em><b>Ingredients</b>: flour and eggs.</em></div>",
             "<p><span><i><b>Tip:</b> a red dog.</i></span></p>", "<p><span>See <b>Tip:</b> a dog.</span></p>"]
    out = translate_markup(pages, mirror)
    assert out[:3] == ['<p><span class="x"><strong>WARNING:</strong> COLD. IS <u>WATER</u> THE</span></p>',
                       "<div><em><b>INGREDIENTS</b>: EGGS. AND FLOUR</em></div>",
                       "<p><span><i><b>TIP:</b> DOG. RED A</i></span></p>"]
    assert mirror.given == ["Warning", "the water is cold.", "Ingredients", "flour and eggs.", "Tip", "a red dog.",
                            "See Tip: a dog."]


@pytest.mark.parametrize("page, label", [
    ("<p><strong>Note</strong><br>Some text here.</p>", "Note"),
    ("<div><b>Side effects</b><br/>A headache.</div>", "Side effects"),
])
def test_a_label_in_bold_on_a_line_of_its_own_that_the_model_garbles_keeps_its_source(page, label, mirror):
    """As Markdown's ``**Note**`` over its text's line (markdown_github.LABEL) and a field's name before its colon:
    read as a sentence of the block, the demo model wrote ``<strong>Note</strong><br>Some text.`` as
    ``<strong>Dieser Bauarbeiter machen</strong><br>Einige Wanderer zeigt.``."""
    judging = Judging(mirror, {label: FLOOR / 2})
    [written] = translate_markup([page], judging)
    block = html.fragment_fromstring(written)
    assert block[0].text == label and block[1].tag == "br" and block[1].tail.isupper()
    assert [source for source, _ in judging.judged] == [label]


@pytest.mark.parametrize("page", [
    "<p><strong>A dog runs.</strong><br>Some text here.</p>",  # a sentence, no label
    "<p>See <strong>this</strong><br>Some text here.</p>",  # not at the block's start
    "<p><strong>Note</strong> some text<br>More here.</p>",  # words after it on its line
])
def test_a_bold_sentence_or_words_that_go_on_are_no_label(page, mirror):
    judging = Judging(mirror, {})
    translate_markup([page], judging)
    assert judging.judged == []
