"""A link over a number the model dropped gets its number back (attnmt.documents.emptied_marks), and so does an
element over words left holding nothing (an XLIFF code wrapping words, an HTML element of looks: test_emptied_looks);
a number the model wrote in the target's way, or a look over a number alone, is not written twice.

The known translator gives each sentence the translation and alignment written beside it; the alignment leaves
the marked number's word out, so the mark comes back empty."""

import io

import pptx
import pytest

from attnmt.documents.emptied_marks import number_tokens
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff

# "It costs <x>N</x> dollars.": It, costs and dollars. aligned to Es, kostet and Dollar.
COSTS = [(0, 0), (1, 1), (3, 3)]


@pytest.mark.parametrize(("page", "translation", "out"), [
    ('<p>It costs <a href="#p">1,000</a> dollars.</p>', "Es kostet 1.000 Dollar.",
     '<p>Es kostet 1.000 <a href="#p"></a>Dollar.</p>'),
    ('<p>It costs <a href="#p">3.5</a> dollars.</p>', "Es kostet 3,5 Dollar.",
     '<p>Es kostet 3,5 <a href="#p"></a>Dollar.</p>'),
], ids=["group-separator", "decimal-separator"])
def test_a_links_number_the_model_wrote_in_the_targets_way_is_not_written_twice(known, page, translation, out):
    """Compared as strings, "1,000" was missing from "Es kostet 1.000 Dollar.", and the link was
    refilled: "Es kostet 1.000 1,000 Dollar."."""
    source = page.removeprefix("<p>").removesuffix("</p>").replace('<a href="#p">', "").replace("</a>", "")
    assert translate_markup([page], known({source: (translation, COSTS)})) == [out]


@pytest.mark.parametrize("tag", ["b", "i", "span"])
def test_an_emptied_mark_that_is_no_link_is_not_refilled(known, tag):
    """The model wrote the number as a word: refilled, "Er hat zwei 2 Hunde." said it twice.  Left
    empty, the element of looks alone is left out (attnmt.documents.emptied_looks)."""
    page = f"<p>He has <{tag}>2</{tag}> dogs.</p>"
    translator = known({"He has 2 dogs.": ("Er hat zwei Hunde.", [(0, 0), (1, 1), (3, 3)])})
    assert translate_markup([page], translator) == ["<p>Er hat zwei Hunde.</p>"]


def test_a_links_number_inside_a_longer_number_of_the_translation_is_refilled(known):
    """The "1" was found inside "10", and the link was written empty: "Siehe Seite von 10."."""
    page = '<p>See page <a href="#n">1</a> of 10.</p>'
    translator = known({"See page 1 of 10.": ("Siehe Seite von 10.", [(0, 0), (1, 1), (3, 2), (4, 3)])})
    assert translate_markup([page], translator) == ['<p>Siehe Seite <a href="#n">1</a> von 10.</p>']


def test_numbers_are_compared_by_their_digits_whole():
    assert number_tokens("1,000 and 1.000,50 or 3'500") == ("1000", "100050", "3500")
    assert number_tokens("+1 555 0100, page 10") == ("1", "555", "0100", "10")


def test_a_slides_linked_run_over_a_number_the_model_dropped_is_written_again(known):
    """A slide's link is in its run's properties (a:hlinkClick), not around its runs: its run was
    not written at all, the number and the link gone ("Siehe Seite für Details.")."""
    deck = pptx.Presentation()
    paragraph = deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text_frame.paragraphs[0]
    for text in ("See page ", "12", " for details."):
        paragraph.add_run().text = text
    paragraph.runs[1].hyperlink.address = "https://example.com/page/12"
    data = io.BytesIO()
    deck.save(data)
    translator = known({"See page 12 for details.": ("Siehe Seite für Details.", [(0, 0), (1, 1), (3, 2), (4, 3)])})
    out = translate_office(data.getvalue(), ".pptx", translator, DocumentOptions())
    runs = pptx.Presentation(io.BytesIO(out)).slides[0].shapes.title.text_frame.paragraphs[0].runs
    assert [(run.text, run.hyperlink.address) for run in runs] == [
        ("Siehe Seite ", None), ("12", "https://example.com/page/12"), (" für Details.", None)]


@pytest.mark.parametrize(("page", "sentence", "translation", "alignment", "out"), [
    ('<p>Read <a href="x">the guide</a> now.</p>', "Read the guide now.", "Lies jetzt.", [(0, 0), (3, 1)],
     '<p>Lies <a href="x">the guide</a> jetzt.</p>'),
    ('<p><b>Read</b> <a href="x">the guide</a></p>', "Read the guide", "Lies", [(0, 0)],
     '<p><b>Lies</b> <a href="x">the guide</a></p>'),
], ids=["between-words", "after-a-mark"])
def test_a_link_whose_words_the_alignment_left_out_keeps_its_source_text(known, page, sentence, translation,
                                                                         alignment, out):
    """Only a link over a number was refilled: this one was written around nothing, ``<a href="x"></a>``,
    and the link was gone from the page, as a Markdown link left with no words is not."""
    assert translate_markup([page], known({sentence: (translation, alignment)})) == [out]


def test_a_link_left_with_no_words_before_its_sentences_stop_keeps_its_place_before_the_translations(known):
    """Placed at the very end of its sentence's translation, after the stop: "Lies es. <a href="x">the guide</a>"."""
    translator = known({"Read the guide.": ("Lies es.", [(0, 0)])})
    assert translate_markup(['<p>Read <a href="x">the guide</a>.</p>'], translator) == [
        '<p>Lies es <a href="x">the guide</a>.</p>']


XLIFF_2 = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">\n'
           '<file id="f"><unit id="u"><segment><source>{}</source></segment></unit></file></xliff>\n')
XLIFF_1 = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file datatype="plaintext" '
           'original="a" source-language="en"><body><trans-unit id="u"><source>{}</source></trans-unit></body></file>'
           '</xliff>\n')
RUNNING = {"The dog is running in the park.": ("Der Hund im Park.", [(0, 0), (1, 1), (4, 2), (6, 3)])}


@pytest.mark.parametrize(("file", "code"), [
    (XLIFF_2, '<pc id="0" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" dispStart="&lt;b&gt;">{}</pc>'),
    (XLIFF_2, '<mrk id="m1" translate="yes">{}</mrk>'),
    (XLIFF_1, '<g id="1" ctype="bold">{}</g>'),
], ids=["xliff-2-pc", "xliff-2-mrk", "xliff-1-g"])
def test_an_xliff_code_around_words_the_model_dropped_keeps_its_source_words(known, file, code):
    """An Angular unit's bold came back ``im <pc id="0" .../>Park.``: a tag in the target with no words, the
    translator given nothing to see or fix."""
    out = translate_xliff(file.format(f"The dog is {code.format('running')} in the park."), known(RUNNING),
                          DocumentOptions(target_lang="de"))
    target = out[out.index("<target"):out.index("</target>")]
    assert code.format("running") in target and target.endswith(" Park.")
