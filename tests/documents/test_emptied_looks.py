"""An HTML element of looks alone that the translation left holding nothing is left out
(attnmt.documents.emptied_looks); a link, an element that names itself and XML's elements stay.

The known translator gives each sentence the translation and alignment written beside it; the alignment
leaves the marked word out, as the model dropped it ("A young man sleeps." -> "Ein Mann schläft.")."""

import pytest

from attnmt.documents.markup import translate_markup

# "A young man sleeps.": A, man and sleeps. aligned to Ein, Mann and schläft.; "young" to nothing.
YOUNG = {"A young man sleeps.": ("Ein Mann schläft.", [(0, 0), (2, 1), (3, 2)])}


@pytest.mark.parametrize("element", ["u", "b", "i", "em", "strong", "span class=\"hl\"", "font color=\"red\"", "mark"])
def test_an_emptied_element_of_looks_is_left_out(known, element):
    """It was written around nothing: ``Ein <u></u>Mann schläft.``."""
    name = element.split()[0]
    page = f"<p>A <{element}>young</{name}> man sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == ["<p>Ein Mann schläft.</p>"]


def test_emptied_elements_nested_in_one_another_are_left_out_together(known):
    page = "<p>A <b><i>young</i></b> man sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == ["<p>Ein Mann schläft.</p>"]


def test_an_element_holding_an_emptied_one_and_words_keeps_the_words(known):
    """The <b> holds "man" too: only the <i> around "young" goes."""
    page = "<p>A <b><i>young</i> man</b> sleeps.</p>"
    assert translate_markup([page], known(YOUNG)) == ["<p>Ein <b>Mann</b> schläft.</p>"]


def test_an_emptied_element_at_the_end_of_its_block_is_left_out(known):
    translator = known({"The man is young.": ("Der Mann.", [(0, 0), (1, 1)])})
    assert translate_markup(["<p>The man is <em>young</em>.</p>"], translator) == ["<p>Der Mann.</p>"]


@pytest.mark.parametrize("named", ['span id="tall"', 'b id="w2"', 'i name="tall"'])
def test_an_emptied_element_that_names_itself_stays_for_the_links_to_it(known, named):
    """The <u> goes; the element with an id or a name, a fragment's target, stays where rule 2 put it."""
    translator = known({"A young tall man sleeps.": ("Ein Mann schläft.", [(0, 0), (3, 1), (4, 2)])})
    name = named.split()[0]
    page = f"<p>A <u>young</u> <{named}>tall</{name}> man sleeps.</p>"
    assert translate_markup([page], translator) == [f"<p>Ein <{named}></{name}>Mann schläft.</p>"]


def test_an_emptied_element_of_xml_stays_where_htmls_goes(known):
    """XML's elements are its data, whatever their names: a <u> in a DocBook or a TEI file is its own."""
    fragment = "<p>A <u>young</u> man sleeps.</p>"
    assert translate_markup([fragment], known(YOUNG), xml=True) == ["<p>Ein <u/>Mann schläft.</p>"]
    assert translate_markup([fragment], known(YOUNG)) == ["<p>Ein Mann schläft.</p>"]


def test_an_emptied_element_of_an_xhtml_page_is_left_out(known):
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>'
            "<p>A <i>young</i> man sleeps.</p></body></html>")
    out = translate_markup([page], known(YOUNG), xhtml=True)[0]
    assert "<p>Ein Mann schläft.</p>" in out
