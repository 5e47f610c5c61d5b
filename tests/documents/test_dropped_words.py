"""A mark over words the model dropped goes nowhere, not onto the translation of another word far from them
(attnmt.documents.dropped_words); a word read with its neighbour ("is sitting" -> "sitzt") keeps its word.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

import docx
import pytest
from office_files import add_hyperlink, docx_bytes, word_children

from attnmt.documents.dropped_words import attends_elsewhere, spread
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.spans import place

JACKET = "A balding man wearing a red life jacket is sitting in a small boat."
BOOT = "Ein Mann mit Dreadlocks sitzt in einem kleinen Boot."
#        A    bald man  wear a    red  life jack is   sitt in   a    smal boat
JACKET_WEIGHTS = [
    [0.79, 0.05, 0.15, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
    [0.05, 0.45, 0.47, 0.01, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01, 0.00],  # Mann
    [0.00, 0.41, 0.00, 0.35, 0.00, 0.00, 0.00, 0.00, 0.06, 0.17, 0.00, 0.00, 0.00, 0.00],  # mit
    [0.00, 0.98, 0.00, 0.00, 0.01, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # Dreadlocks
    [0.00, 0.04, 0.00, 0.33, 0.03, 0.00, 0.01, 0.02, 0.20, 0.31, 0.06, 0.00, 0.00, 0.01],  # sitzt
    [0.01, 0.08, 0.00, 0.09, 0.23, 0.02, 0.03, 0.01, 0.00, 0.00, 0.36, 0.03, 0.01, 0.05],  # in
    [0.00, 0.00, 0.00, 0.00, 0.02, 0.12, 0.04, 0.02, 0.01, 0.01, 0.02, 0.34, 0.35, 0.05],  # einem
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.02, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.94, 0.04],  # kleinen
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01, 0.01, 0.04, 0.02, 0.13, 0.04, 0.07, 0.47],  # Boot.
]
CASTLE = "A man on a beach building a sand castle."
STRAND = "Ein Mann am Strand."
#                  A    man  on   a    beac buil a    sand cast
CASTLE_WEIGHTS = [[0.79, 0.21, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                  [0.10, 0.79, 0.01, 0.04, 0.01, 0.01, 0.00, 0.01, 0.01],  # Mann
                  [0.03, 0.02, 0.52, 0.19, 0.13, 0.02, 0.02, 0.01, 0.03],  # am
                  [0.00, 0.00, 0.07, 0.01, 0.50, 0.16, 0.04, 0.03, 0.14]]  # Strand.

WATER = "A black dog is jumping through some water, while holding a stick in his mouth."
STOCK = "Ein schwarzer Hund springt durch Wasser und hält einen Stock im Maul."
#        A    blac dog  is   jump thro some wate whil hold a    stic in   his  mout
WATER_WEIGHTS = [
    [0.88, 0.09, 0.02, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Ein
    [0.00, 0.99, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # schwarzer
    [0.02, 0.01, 0.84, 0.06, 0.04, 0.01, 0.00, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Hund
    [0.00, 0.00, 0.00, 0.41, 0.52, 0.01, 0.00, 0.00, 0.00, 0.03, 0.00, 0.00, 0.01, 0.00, 0.00],  # springt
    [0.01, 0.00, 0.00, 0.01, 0.02, 0.70, 0.07, 0.03, 0.02, 0.00, 0.01, 0.00, 0.10, 0.00, 0.01],  # durch
    [0.00, 0.00, 0.00, 0.01, 0.03, 0.03, 0.18, 0.49, 0.01, 0.00, 0.05, 0.08, 0.01, 0.05, 0.05],  # Wasser
    [0.03, 0.00, 0.01, 0.02, 0.01, 0.22, 0.07, 0.23, 0.15, 0.03, 0.03, 0.02, 0.04, 0.01, 0.09],  # und
    [0.00, 0.00, 0.00, 0.06, 0.13, 0.08, 0.03, 0.07, 0.07, 0.42, 0.02, 0.01, 0.05, 0.02, 0.01],  # hält
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.23, 0.23, 0.07, 0.02, 0.01, 0.21, 0.11, 0.07, 0.02, 0.01],  # einen
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.02, 0.02, 0.00, 0.00, 0.01, 0.94, 0.00, 0.00, 0.01],  # Stock
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.12, 0.00, 0.06, 0.18, 0.06, 0.02, 0.01, 0.33, 0.03, 0.02],  # im
    [0.00, 0.00, 0.00, 0.00, 0.00, 0.07, 0.00, 0.08, 0.09, 0.04, 0.01, 0.01, 0.04, 0.03, 0.44],  # Maul.
]


def marked(text: str, *words: str) -> FlatText:
    """``text`` with a mark over each of ``words`` (its first occurrence)."""
    return FlatText(text, [Mark(text.index(word), text.index(word) + len(word)) for word in words])


def test_a_mark_over_a_dropped_word_is_left_to_a_point_not_put_on_another_words_translation():
    """"jacket" was dropped; the target word that gives it the most attention, "sitzt", gives it 0.02 of the
    0.33 it gives "wearing", four words before: the mark went on "sitzt".  "sitting" has no link either, but
    "sitzt", which gives it 0.31 of those 0.33, translates it."""
    placed = place(marked(JACKET, "jacket", "sitting"), [(0, len(JACKET))], [BOOT], [JACKET_WEIGHTS])
    sitzt = BOOT.index("sitzt")
    assert placed.spans == [(sitzt, sitzt), (sitzt, sitzt + len("sitzt"))]


def test_a_word_read_with_its_neighbour_keeps_the_word_that_translates_both():
    """"a" in "on a beach" is "am" (an dem), which attends most to "on", the word before it; "sand" and
    "castle" the model dropped: "Strand" translates "beach", three and four words before them."""
    a = CASTLE.index("a beach")
    flat = FlatText(CASTLE, [Mark(a, a + 1), *marked(CASTLE, "sand", "castle").marks])
    placed = place(flat, [(0, len(CASTLE))], [STRAND], [CASTLE_WEIGHTS])
    assert [STRAND[s:e] for s, e in placed.spans] == ["am", "", ""]


class Weighed:
    """A translator that gives each sentence it knows the translation and the weights written beside it."""

    glossary = None

    def __init__(self, known: dict[str, tuple[str, list[list[float]]]]) -> None:
        self.known = known

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        return [self.known[s][0] for s in sentences], [self.known[s][1] if w else None
                                                        for s, w in zip(sentences, weighed, strict=True)]


def test_a_link_over_a_dropped_word_goes_on_the_word_attending_most_to_it_and_an_underline_keeps_its_word():
    """The underline went on "einem" (it attends to "small" most, six words on), and so did the link; the link
    needs words to click, so it takes "sitzt", which gives "jacket" the most (0.02), not its English text; the
    underline, left with no word, holds its source word again (emptied_marks.is_worded_code), where it was lost."""
    page = '<p>A balding man wearing a red <u>life</u> <a href="/jacket">jacket</a> is sitting in a small boat.</p>'
    out = translate_markup([page], Weighed({JACKET: (BOOT, JACKET_WEIGHTS)}))
    assert out == ['<p>Ein Mann mit Dreadlocks <u>life</u> <a href="/jacket">sitzt</a> in einem kleinen Boot.</p>']


@pytest.mark.parametrize(("page", "out"), [
    ('<p>A man on a beach building a <a href="#">sand</a> castle.</p>', '<p>Ein Mann am <a href="#">Strand</a>.</p>'),
    ('<p>A man on a beach building a <a href="#">sand castle</a>.</p>',
     '<p>Ein Mann am <a href="#">Strand</a>.</p>'),
], ids=["word", "words-before-the-stop"])
def test_a_link_over_words_the_model_dropped_holds_a_target_word_not_its_english(page, out):
    """"sand" and "castle" were dropped; "Strand." gives them the most attention: the link goes over "Strand",
    its stop left outside, where its source text was written after the sentence (``Ein Mann am Strand. <a
    href="#">sand</a>``)."""
    assert translate_markup([page], Weighed({CASTLE: (STRAND, CASTLE_WEIGHTS)})) == [out]


@pytest.mark.parametrize(("page", "out"), [
    ('<p>A man on a <b>beach</b> building a sand <a href="#">castle</a>.</p>',
     '<p>Ein Mann am <a href="#"><b>Strand</b></a>.</p>'),
    ('<p>A man on a <i><b>beach</b> building</i> a sand <a href="#">castle.</a></p>',
     '<p>Ein Mann am <a href="#"><i><b>Strand</b></i></a>.</p>'),
], ids=["sibling", "sibling-with-a-child"])
def test_a_link_over_dropped_words_goes_around_the_earlier_sibling_holding_its_word_not_english(page, out):
    """"Strand." gives "castle" the most, but the <b> over "beach" holds it: the link kept its English text after
    it (``<b>Strand</b> <a href="#">castle</a>.``); now it goes around the <b>, which it holds.  A link holds no
    link: beside one, it keeps its English text."""
    translator = Weighed({CASTLE: (STRAND, CASTLE_WEIGHTS)})
    assert translate_markup([page], translator) == [out]
    beside = page.replace("<b>", '<a href="#a">').replace("</b>", "</a>").replace("<i>", "").replace("</i>", "")
    [kept] = translate_markup([beside], translator)
    assert kept.startswith('<p>Ein Mann am <a href="#a">Strand</a>') and '<a href="#">castle' in kept


def test_a_word_files_link_over_a_dropped_word_holds_a_target_word_not_its_english():
    """A w:hyperlink is a link as an HTML <a href> is: it takes "Strand", not "sand" after the sentence's stop."""
    document = docx.Document()
    paragraph = document.add_paragraph("A man on a beach building a ")
    add_hyperlink(paragraph, "sand", "https://example.org/sand")
    paragraph.add_run(" castle.")
    translator = Weighed({CASTLE: (STRAND, CASTLE_WEIGHTS)})
    out = translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())
    assert word_children(out) == [("r", "Ein Mann am "), ("hyperlink", "Strand"), ("r", ".")]


def test_a_markdown_link_over_a_dropped_word_holds_a_target_word_not_its_english():
    """Its source text was written back glued to the sentence's stop: ``Ein Mann am Strand.[sand](https://x.org)``."""
    translator = Weighed({CASTLE: (STRAND, CASTLE_WEIGHTS)})
    out = translate_markdown("A man on a beach building a [sand](https://x.org) castle.\n", translator)
    assert out == "Ein Mann am [Strand](https://x.org).\n"


def test_a_target_word_whose_attention_is_spread_is_linked_to_no_source_word():
    """"einen" gives "through" 0.23 (its most, as much as "some"), "a" 0.21, "stick" 0.11: written from the whole
    sentence, it took the link over "through" from "durch" to "einen", over "Wasser und hält".  "im" gives "in" 0.33
    of its 0.83: linked."""
    placed = place(marked(WATER, "through", "in his"), [(0, len(WATER))], [STOCK], [WATER_WEIGHTS])
    assert [STOCK[s:e] for s, e in placed.spans] == ["durch", "im"]
    assert spread(WATER_WEIGHTS[8]) and spread(WATER_WEIGHTS[6])  # einen, und
    assert not spread(WATER_WEIGHTS[10])


def test_a_word_attending_to_a_far_word_and_little_to_the_marks_attends_elsewhere():
    row = [0.00, 0.00, 0.00, 0.00, 0.02, 0.12, 0.04, 0.02, 0.01, 0.01, 0.02, 0.34, 0.35, 0.05]
    assert attends_elsewhere(row, [7])  # 0.02 of 0.35, five words from "small"
    assert not attends_elsewhere(row, [11])  # 0.34 of 0.35
    assert not attends_elsewhere(row, [10])  # 0.02, but beside "a", which is beside "small"
    assert not attends_elsewhere([0.0, 0.0], [1])  # no attention at all: nothing to tell
