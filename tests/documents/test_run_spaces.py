"""The spaces that go out with the measures and emoji taken out of a flat text as atoms (attnmt.documents.run_spaces):
the model reads one space where they stood between words and none before a comma after them, and the page comes back
spaced as it was."""

import io

import docx
import pytest
from office_files import docx_bytes

from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


@pytest.mark.parametrize("page, read", [("<p>Pay <b>5 €</b>, then go.</p>", "Pay, then go."),
                                        ("<p>It is <i>12 °C</i>; sunny.</p>", "It is; sunny."),
                                        ("<p>Preis <b><i>3½ €</i></b>, dann gehen.</p>", "Preis, dann gehen."),
                                        ("<p>Boil at <a href='#'>90°</a>: then stir.</p>", "Boil at: then stir.")])
def test_a_kept_measure_or_emoji_filling_its_element_before_a_comma_leaves_no_space_before_it(unitless, page, read):
    """The element's start kept the space before it in: the model read "Pay , then go."."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


def test_a_kept_measure_filling_its_element_goes_after_the_word_it_followed(dropping):
    """Closed up, the atom is glued to the word before it, as a price alone in plain text is, wherever the
    word's translation goes (Mirror reverses the words)."""
    dropping.writes = str.isascii  # no "€", as a Multi30k model's vocabulary
    assert translate_markup(["<p>Pay <b>5 €</b>, then go.</p>"], dropping) == ["<p>GO. THEN PAY <b>5 €</b>,</p>"]
    assert dropping.given == ["Pay, then go."]


@pytest.mark.parametrize("page, read", [
    ("<p>Pay <span>5 €</span> <del>6 €</del>, then go.</p>", "Pay, then go."),
    ("<p>Pay <span>5 €</span> <del>6 €</del> <ins>7 €</ins>; then go.</p>", "Pay; then go."),
    ("<p>Pay <span>5 €</span> <del>6 €</del> now.</p>", "Pay now."),
    ("<p>It was <s>12 °C</s> <b>14 °C</b>.</p>", "It was ."),
    ("<p>Water <b>12 °C</b> <i>14 °C</i> here.</p>", "Water here."),
])
def test_kept_elements_a_space_apart_leave_the_model_one_space_and_none_before_a_comma(unitless, page, read):
    """The space between the two elements stayed in the text: the model read "Pay  , then go." or "Pay  now.",
    and the page came back "Pay  <span>5 €</span>", two spaces before the first price."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


@pytest.mark.parametrize("page, read", [("<p>Pay <span>5 €</span>&nbsp;<del>6 €</del> now.</p>", "Pay now."),
                                        ("<p>Pay <span>5 €</span>&#8239;<b>6 €</b> now.</p>", "Pay now.")])
def test_kept_elements_a_no_break_space_apart_keep_it_and_leave_the_model_none(unitless, page, read):
    """The no-break space stayed in the text: the model read "Pay \u00a0now." and the page came back
    "Pay &nbsp;<span>5 €</span> <del>6 €</del>", the no-break space moved before the prices."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


@pytest.mark.parametrize("text, read", [("Pay **5 €**, then go.\n", "Pay, then go."),
                                        ("Pay *5 €* *6 €*, then go.\n", "Pay, then go.")])
def test_kept_measures_in_markdown_emphasis_leave_no_space_before_a_comma(unitless, text, read):
    assert translate_markdown(text, unitless) == text
    assert unitless.given == [read]


@pytest.mark.parametrize("page, read", [
    ("<p>Pay <b>5 €</b>, <b>6 €</b>, then go.</p>", "Pay, then go."),
    ("<p>Pay <i>5 €</i>, <span>6 €</span>, <a href='#'>7 €</a> now.</p>", "Pay now."),
    ("<p><b>9:00</b>, <b>17:30</b>, then we go.</p>", "then we go."),
    ("<p>Open <b>9:00</b> – <b>17:00</b> daily.</p>", "Open daily."),
    ("<p>The score was <i>3:15</i>:<i>4:45</i> today.</p>", "The score was today."),
    ("<p>Save <a href='x'>20 %</a>;<a href='y'>-5 %</a> now.</p>", "Save now."),
    ("<p>Pay 5 €,<b>6 €</b> now.</p>", "Pay now."),
    ("<p>Pay <b>5 €</b>, <b>6 €</b>. Then go.</p>", "Pay .")])
def test_kept_elements_parted_by_punctuation_alone_keep_it_between_them(unitless, page, read):
    """The comma between them was the model's to write: it read "Pay, , then go.", and the demo model dropped it
    ("<b>5 €</b> <b>6 €</b>"); a colon, a slash or a semicolon between two elements sent the second after the
    space behind them ("<i>3:15</i>: <i>4:45</i>")."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given[0] == read


def test_kept_elements_parted_by_commas_go_where_their_words_go_together(dropping):
    """Mirror reverses the words: the prices go after the word they followed, the commas between them."""
    dropping.writes = str.isascii  # no "€", as a Multi30k model's vocabulary
    page = "<p>Pay <b>5 €</b>, <b>6 €</b>, <b>7 €</b>, then go.</p>"
    assert translate_markup([page], dropping) == ["<p>GO. THEN PAY <b>5 €</b>, <b>6 €</b>, <b>7 €</b>,</p>"]
    assert dropping.given == ["Pay, then go."]


def test_kept_runs_in_word_runs_parted_by_commas_keep_them(unitless):
    """Bold prices a comma apart in a Word paragraph: the model read "Pay,6,7 now.", each price lost but the first."""
    document = docx.Document()
    paragraph = document.add_paragraph("Pay ")
    for k, price in enumerate(["5 €", "6 €", "7 €"]):
        paragraph.add_run("," if k else "").bold = False
        paragraph.add_run(price).bold = True
    paragraph.add_run(" now.")
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", unitless, DocumentOptions())))
    assert out.paragraphs[0].text == "Pay 5 €,6 €,7 € now." and unitless.given == ["Pay now."]


@pytest.mark.parametrize("page, read", [("<p>A dog 👍🏽&nbsp;runs.</p>", "A dog runs."),
                                        ("<p>Pay 5&nbsp;€ 👍🏽&nbsp;now.</p>", "Pay now."),
                                        ("<p>It is 12&#8239;°C&nbsp;today 🐕&#8239;here.</p>", "It is today here."),
                                        ("<p>A dog runs 👍🏽&nbsp;5 € fast.</p>", "A dog runs fast."),
                                        ("<p>A dog runs 🐕&nbsp;<b>5 €</b> fast.</p>", "A dog runs fast.")])
def test_a_no_break_space_after_a_kept_emoji_or_measure_goes_out_with_it_and_comes_back(unitless, page, read):
    """Before a word it stayed in the text: the model read "A dog \u00a0runs." and the page came back "A dog
    &nbsp;👍🏽&nbsp;runs.", a no-break space more; between an emoji and a price it came back a plain space."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


@pytest.mark.parametrize("page, read", [("<p>Pay &nbsp;<b>5 €</b>&nbsp;<b>6 €</b> now.</p>", "Pay now."),
                                        ("<p>Pay&nbsp;<b>5 €</b> now.</p>", "Pay now."),
                                        ("<p>It is&#8239;12 °C today.</p>", "It is today."),
                                        ("<p>A dog&nbsp;&nbsp;🐕 runs.</p>", "A dog runs."),
                                        ("<p>Price&nbsp;<i>3½ €</i>, then go.</p>", "Price, then go.")])
def test_a_no_break_space_before_a_kept_emoji_or_measure_goes_out_with_it_and_comes_back(unitless, page, read):
    """It stayed in the text: the model read "Pay \u00a0now.", and wrote a plain space for it (or none, in place of
    the two it read as one).  One plain space stays; the atom writes the spacing back as it was, outside the
    element it fills too."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


def test_a_no_break_space_before_a_kept_price_comes_back_in_a_word_file(known_unitless):
    translator = known_unitless({"Pay now.": ("ZAHLEN JETZT.", [(0, 0), (1, 1)])})
    document = docx.Document()
    document.add_paragraph("Pay\u00a05 € now.")
    out = translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "ZAHLEN\u00a05 € JETZT."
    assert translator.given == ["Pay now."]
