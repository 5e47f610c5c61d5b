"""A mark over a content word whose aligned target words are all function words (an article, a preposition) does not
keep them (attnmt.documents.function_marks): a look is dropped with its text kept, a link goes around the content word
that gives its words the most attention; a function word that translates the marked word stays.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.translators import FoundTranslations

POOL = "A man swims in the swimming pool."
BECKEN = "Ein Mann schwimmt im Schwimmbecken."
#              A     man   swims in    the   swim  pool.
POOL_WEIGHTS = [[0.76, 0.24, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                [0.11, 0.81, 0.04, 0.00, 0.01, 0.00, 0.02],  # Mann
                [0.00, 0.00, 0.95, 0.03, 0.00, 0.02, 0.00],  # schwimmt
                [0.02, 0.01, 0.06, 0.51, 0.06, 0.05, 0.12],  # im
                [0.01, 0.00, 0.01, 0.03, 0.01, 0.03, 0.58]]  # Schwimmbecken.
SIGN = "A man walks with a caution sign."
SCHILD = "Ein Mann geht mit einem Schild."
#              A     man   walks with  a     caut  sign.
SIGN_WEIGHTS = [[0.90, 0.10, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                [0.10, 0.85, 0.05, 0.00, 0.00, 0.00, 0.00],  # Mann
                [0.00, 0.01, 0.90, 0.05, 0.00, 0.02, 0.02],  # geht
                [0.00, 0.00, 0.02, 0.62, 0.01, 0.18, 0.17],  # mit
                [0.00, 0.00, 0.00, 0.05, 0.14, 0.32, 0.28],  # einem
                [0.00, 0.00, 0.00, 0.00, 0.00, 0.25, 0.75]]  # Schild.
JERSEY = "A boy wearing a jersey."
TRIKOT = "Ein Junge in einem Trikot."
#                A     boy   wear  a     jersey.
JERSEY_WEIGHTS = [[0.84, 0.13, 0.00, 0.00, 0.03],  # Ein
                  [0.14, 0.80, 0.05, 0.00, 0.01],  # Junge
                  [0.00, 0.00, 0.66, 0.04, 0.30],  # in
                  [0.00, 0.00, 0.01, 0.17, 0.82],  # einem
                  [0.00, 0.00, 0.00, 0.16, 0.84]]  # Trikot.
GRILL = "A man cooking burgers on a black grill."
KOCHT = "Ein Mann kocht auf einem schwarzen Grill."
#               A     man   cook  burg  on    a     black grill.
GRILL_WEIGHTS = [[0.78, 0.22, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                 [0.11, 0.76, 0.04, 0.04, 0.00, 0.00, 0.03, 0.01],  # Mann
                 [0.00, 0.00, 0.96, 0.03, 0.01, 0.00, 0.00, 0.00],  # kocht
                 [0.00, 0.00, 0.04, 0.64, 0.26, 0.03, 0.02, 0.01],  # auf
                 [0.01, 0.01, 0.00, 0.04, 0.07, 0.55, 0.20, 0.10],  # einem
                 [0.00, 0.00, 0.00, 0.01, 0.00, 0.01, 0.71, 0.27],  # schwarzen
                 [0.00, 0.00, 0.03, 0.16, 0.07, 0.04, 0.01, 0.50]]  # Grill.

COTTON = "A man is loading cotton onto a truck."
VERKAUFT = "Ein Mann, der auf einem Lastwagen verkauft."
#                A     man   is    load  cotton onto a     truck.
COTTON_WEIGHTS = [[0.79, 0.19, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Ein
                  [0.03, 0.35, 0.08, 0.48, 0.05, 0.01, 0.00, 0.01],  # Mann,
                  [0.05, 0.21, 0.10, 0.21, 0.38, 0.02, 0.00, 0.02],  # der
                  [0.00, 0.00, 0.01, 0.09, 0.72, 0.16, 0.01, 0.01],  # auf
                  [0.01, 0.00, 0.01, 0.04, 0.54, 0.03, 0.23, 0.13],  # einem
                  [0.00, 0.00, 0.00, 0.02, 0.21, 0.01, 0.01, 0.74],  # Lastwagen
                  [0.01, 0.00, 0.07, 0.30, 0.25, 0.07, 0.03, 0.10]]  # verkauft.

CHAIR = "A man sits in a rocking chair on the porch."
FELSEN = "Ein Mann sitzt auf einem Felsen auf der Veranda."
#               A     man   sits  in    a     rock  chair on    the   porch.
CHAIR_WEIGHTS = [[0.77, 0.21, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Ein
                 [0.11, 0.73, 0.10, 0.00, 0.01, 0.01, 0.00, 0.00, 0.00, 0.03],  # Mann
                 [0.01, 0.00, 0.86, 0.12, 0.00, 0.01, 0.00, 0.00, 0.00, 0.01],  # sitzt
                 [0.01, 0.00, 0.15, 0.50, 0.10, 0.11, 0.05, 0.04, 0.01, 0.02],  # auf
                 [0.01, 0.01, 0.01, 0.03, 0.30, 0.19, 0.08, 0.04, 0.12, 0.19],  # einem
                 [0.00, 0.00, 0.00, 0.00, 0.00, 0.77, 0.22, 0.00, 0.00, 0.00],  # Felsen
                 [0.00, 0.00, 0.01, 0.15, 0.01, 0.31, 0.04, 0.12, 0.02, 0.05],  # auf
                 [0.00, 0.00, 0.00, 0.00, 0.01, 0.04, 0.03, 0.02, 0.36, 0.52],  # der
                 [0.00, 0.00, 0.00, 0.01, 0.00, 0.04, 0.01, 0.02, 0.01, 0.58]]  # Veranda.


def translator() -> FoundTranslations:
    known = {POOL: (BECKEN, POOL_WEIGHTS), SIGN: (SCHILD, SIGN_WEIGHTS), JERSEY: (TRIKOT, JERSEY_WEIGHTS),
             GRILL: (KOCHT, GRILL_WEIGHTS), COTTON: (VERKAUFT, COTTON_WEIGHTS),
             CHAIR: (FELSEN, CHAIR_WEIGHTS)}
    return FoundTranslations({source: text for source, (text, _) in known.items()},
                             weigh=lambda source, translation: known[source][1])


@pytest.mark.parametrize(("page", "out"), [
    ("<p>A man swims in the <i>swimming</i> pool.</p>", "<p>Ein Mann schwimmt im <i>Schwimmbecken</i>.</p>"),
    ("<p>A man walks with a <b>caution</b> sign.</p>", "<p>Ein Mann geht mit einem <b>Schild</b>.</p>"),
    ("<p>A man cooking <b>burgers</b> on a black grill.</p>",
     "<p>Ein Mann kocht auf einem schwarzen <b>Grill</b>.</p>"),
], ids=["preposition", "article", "preposition-beside"])
def test_a_look_whose_word_was_merged_or_dropped_leaves_the_function_words_alone(page, out):
    """"im" gives "swimming" the most (0.05), but translates "in"; "einem" attends most to "caution", an article
    looking ahead at the word the model dropped: ``<i>im</i> Schwimmbecken`` and ``mit <b>einem</b> Schild``; "auf"
    attends most to "burgers" (0.64), which the model dropped, but gives "on" 0.26: it is "on"'s.  The mark goes
    around the content word that gives its word the most attention instead, the compound that holds it (its element
    let go, a page lost a tag: the browser's structure test).  A
    function word that translates the marked word stays (German says "wearing a jersey" as "in einem Trikot": "in"
    gives "wearing" 0.66, its most), and so does a mark over a function word its own."""
    assert translate_markup([page], translator()) == [out]
    kept = ["<p>A boy <b>wearing</b> a jersey.</p>", "<p>A man swims <i>in</i> the swimming pool.</p>"]
    assert translate_markup(kept, translator()) == ["<p>Ein Junge <b>in</b> einem Trikot.</p>",
                                                    "<p>Ein Mann schwimmt <i>im</i> Schwimmbecken.</p>"]


@pytest.mark.parametrize(("page", "out"), [
    ('<p>A man swims in the <a href="/s">swimming</a> pool.</p>',
     '<p>Ein Mann schwimmt im <a href="/s">Schwimmbecken</a>.</p>'),
    ('<p>A man walks with a <a href="/c">caution</a> sign.</p>',
     '<p>Ein Mann geht mit einem <a href="/c">Schild</a>.</p>'),
], ids=["compound", "dropped"])
def test_a_link_whose_word_was_merged_or_dropped_goes_around_the_content_word_holding_it(page, out):
    assert translate_markup([page], translator()) == [out]


def test_a_preposition_and_its_article_written_for_a_noun_the_model_left_out_do_not_hold_its_mark():
    """The model left "cotton" out: "der", "auf" and "einem" each attend most to it (0.38, 0.72, 0.54), written for
    the noun they expected, and "auf" gave "onto" only 0.16, under a quarter of its 0.72: the mark held
    ``<b>auf</b>``, a preposition over a noun.  Several function words looking at one content word are no
    translation of it: the mark goes over the content word that gives it the most attention ("verkauft", 0.25), as
    where they were none.  A mark over the noun and its preposition keeps the preposition, "onto"'s translation."""
    out = translate_markup(["<p>A man is loading <b>cotton</b> onto a truck.</p>",
                            "<p>A man is loading <i>cotton onto</i> a truck.</p>"], translator())
    assert out == ["<p>Ein Mann, der auf einem Lastwagen <b>verkauft</b>.</p>",
                   "<p>Ein Mann, der <i>auf</i> einem Lastwagen verkauft.</p>"]


def test_a_mark_over_content_words_does_not_end_on_the_next_phrases_preposition():
    """The second "auf" attends most to "rocking" (0.31), which the model wrote as "Felsen": the mark held ``<b>Felsen
    auf</b> der Veranda``, a preposition that stands before its own noun, "Veranda".  A mark that holds a function
    word ("on") is taken as the alignment says."""
    out = translate_markup(["<p>A man sits in a <b>rocking</b> chair on the porch.</p>",
                            "<p>A man sits in a <b>rocking chair on</b> the porch.</p>"], translator())
    assert out == ["<p>Ein Mann sitzt auf einem <b>Felsen</b> auf der Veranda.</p>",
                   "<p>Ein Mann sitzt auf einem <b>Felsen auf</b> der Veranda.</p>"]


TREE = "A man talks while standing next to a tree."
BAUM = "Ein Mann unterhält sich neben einem Baum."
#              A     man   talks while stand next  to    a     tree.
TREE_WEIGHTS = [[0.77, 0.20, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                [0.12, 0.79, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Mann
                [0.00, 0.00, 0.52, 0.01, 0.40, 0.05, 0.01, 0.00, 0.00],  # unterhält
                [0.04, 0.01, 0.24, 0.10, 0.03, 0.14, 0.13, 0.07, 0.12],  # sich
                [0.00, 0.00, 0.07, 0.32, 0.01, 0.26, 0.29, 0.01, 0.00],  # neben
                [0.00, 0.00, 0.07, 0.12, 0.03, 0.04, 0.04, 0.47, 0.11],  # einem
                [0.00, 0.00, 0.10, 0.06, 0.04, 0.02, 0.01, 0.01, 0.51]]  # Baum.


def test_a_mark_over_the_first_word_of_a_preposition_of_two_keeps_its_translation():
    """"next to" is one preposition, "neben": a mark over "next" holds a function word of its own, and keeps
    "neben" (left out, the <b> was lost)."""
    translator = FoundTranslations({TREE: BAUM}, weigh=lambda source, translation: TREE_WEIGHTS)
    out = translate_markup(["<p>A man talks while standing <b>next</b> to a tree.</p>"], translator)
    assert out == ["<p>Ein Mann unterhält sich <b>neben</b> einem Baum.</p>"]
