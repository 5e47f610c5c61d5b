"""An HTML element of looks alone that the translation left holding nothing holds its source words again
(attnmt.documents.emptied_marks.is_worded_code), so that no element over words is lost; one over a number alone
the model wrote in words is left out (attnmt.documents.emptied_looks; test_emptied_marks).

The known translator gives each sentence the translation and alignment written beside it; the alignment
leaves the marked word out, as the model dropped it ("A young man sleeps." -> "Ein Mann schläft.")."""

import pytest

from attnmt.documents.markup import translate_markup

# "A young man sleeps.": A, man and sleeps. aligned to Ein, Mann and schläft.; "young" to nothing.
YOUNG = {"A young man sleeps.": ("Ein Mann schläft.", [(0, 0), (2, 1), (3, 2)])}


@pytest.mark.parametrize("element", ["u", "b", "i", "em", "strong", "span class=\"hl\"", "font color=\"red\"", "mark"])
def test_an_emptied_element_of_looks_holds_its_source_words_again(known, element):
    """It was left out, its word with it: ``Ein Mann schläft.``, the underline and "young" gone."""
    name = element.split()[0]
    page = f"<p>A <{element}>young</{name}> man sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == [f"<p>Ein <{element}>young</{name}> Mann schläft.</p>"]


def test_emptied_elements_nested_in_one_another_come_back_together(known):
    page = "<p>A <b><i>young</i></b> man sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == ["<p>Ein <b><i>young</i></b> Mann schläft.</p>"]


def test_an_emptied_element_inside_one_holding_words_is_refilled_there(known):
    """The <b> holds "man" too: the <i> around "young" comes back inside it."""
    page = "<p>A <b><i>young</i> man</b> sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == ["<p>Ein <b><i>young</i> Mann</b> schläft.</p>"]


def test_an_emptied_element_at_the_end_of_its_block_comes_back_before_the_stop(known):
    translator = known({"The man is young.": ("Der Mann.", [(0, 0), (1, 1)])})
    assert translate_markup(["<p>The man is <em>young</em>.</p>"], translator) == ["<p>Der Mann <em>young</em>.</p>"]


@pytest.mark.parametrize("named", ['span id="tall"', 'b id="w2"', 'i name="tall"'])
def test_an_emptied_element_that_names_itself_holds_its_words_too(known, named):
    translator = known({"A young tall man sleeps.": ("Ein Mann schläft.", [(0, 0), (3, 1), (4, 2)])})
    name = named.split()[0]
    page = f"<p>A <u>young</u> <{named}>tall</{name}> man sleeps.</p>"
    assert translate_markup([page], translator) == [f"<p>Ein <u>young</u> <{named}>tall</{name}> Mann schläft.</p>"]


def test_an_emptied_element_of_xml_is_refilled_as_htmls_is(known):
    fragment = "<p>A <u>young</u> man sleeps.</p>"
    assert translate_markup([fragment], known(YOUNG), xml=True) == ["<p>Ein <u>young</u> Mann schläft.</p>"]
    assert translate_markup([fragment], known(YOUNG)) == ["<p>Ein <u>young</u> Mann schläft.</p>"]


def test_an_emptied_element_of_an_xhtml_page_is_refilled(known):
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>'
            "<p>A <i>young</i> man sleeps.</p></body></html>")
    out = translate_markup([page], known(YOUNG), xhtml=True)[0]
    assert "<p>Ein <i>young</i> Mann schläft.</p>" in out


def test_an_element_whose_word_a_sibling_took_is_not_lost(known):
    """"old man" came back one word, "Greis", aligned to both: the <b> took it, and the <u>, emptied, was left out
    (the demo model wrote "Warning: the water is cold." as "Am Wasser.", and the <u> of "water" went so)."""
    translator = known({"The old man sleeps.": ("Der Greis schläft.", [(0, 0), (1, 1), (2, 1), (3, 2)])})
    page = "<p>The <b>old</b> <u>man</u> sleeps.</p>"
    assert translate_markup([page], translator) == ["<p>Der <b>Greis</b> <u>man</u> schläft.</p>"]


# "A black and white dog runs." and "A black, white dog runs.": "black" and "white" both aligned to "schwarz-weißer".
BLACK_WHITE = {
    "A black and white dog runs.": ("Ein schwarz-weißer Hund rennt.", [(0, 0), (1, 1), (3, 1), (4, 2), (5, 3)]),
    "A black, white dog runs.": ("Ein schwarz-weißer Hund rennt.", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3)]),
}


@pytest.mark.parametrize(("page", "out"), [
    ("<p>A <b>black</b> and <b>white</b> dog runs.</p>", "<p>Ein <b>schwarz-weißer</b> Hund rennt.</p>"),
    ('<p>A <span class="c">black</span>, <span class="c">white</span> dog runs.</p>',
     '<p>Ein <span class="c">schwarz-weißer</span> Hund rennt.</p>'),
], ids=["bold", "span-comma"])
def test_an_element_whose_word_a_like_sibling_shows_is_not_written_twice(known, page, out):
    """The demo model wrote "black and white" as one word, which the first <b> took: the look is on it, and the
    second's source words again said it twice, ``<b>schwarz-weißer</b> <b>white</b>``."""
    assert translate_markup([page], known(BLACK_WHITE)) == [out]


def test_an_element_beside_a_sibling_of_another_look_is_refilled(known):
    """Only a like sibling shows its look: a <u> beside a <b> is not."""
    translator = known({"A black white dog runs.": ("Ein schwarz-weißer Hund rennt.", [(0, 0), (1, 1), (2, 1),
                                                                                       (3, 2), (4, 3)])})
    page = "<p>A <b>black</b> <u>white</u> dog runs.</p>"
    assert translate_markup([page], translator) == ["<p>Ein <b>schwarz-weißer</b> <u>white</u> Hund rennt.</p>"]
