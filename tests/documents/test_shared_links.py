"""Two links whose words the model wrote as one word: the word goes to the link whose words it gives the most
attention, the other over the function word right beside it (attnmt.documents.shared_links), not its English text.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

import pytest

from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.translators import FoundTranslations

STOP = "People are standing at the bus stop."
HALTESTELLE = "Leute stehen an der Bushaltestelle."
#              People are   stand at    the   bus   stop.
STOP_WEIGHTS = [[0.87, 0.07, 0.01, 0.00, 0.00, 0.00, 0.05],  # Leute
                [0.00, 0.20, 0.79, 0.00, 0.00, 0.00, 0.00],  # stehen
                [0.00, 0.03, 0.06, 0.58, 0.05, 0.01, 0.16],  # an
                [0.00, 0.00, 0.00, 0.02, 0.48, 0.13, 0.33],  # der
                [0.00, 0.01, 0.02, 0.06, 0.02, 0.24, 0.33]]  # Bushaltestelle.
TENNIS = "Two men play table tennis."
SPIELEN = "Zwei Männer spielen Tennis."
#                Two   men   play  table tennis.
TENNIS_WEIGHTS = [[0.90, 0.10, 0.00, 0.00, 0.00],  # Zwei
                  [0.05, 0.90, 0.05, 0.00, 0.00],  # Männer
                  [0.00, 0.02, 0.90, 0.05, 0.03],  # spielen
                  [0.00, 0.00, 0.02, 0.30, 0.68]]  # Tennis.


def translator() -> FoundTranslations:
    known = {STOP: (HALTESTELLE, STOP_WEIGHTS), TENNIS: (SPIELEN, TENNIS_WEIGHTS)}
    return FoundTranslations({source: text for source, (text, _) in known.items()},
                             weigh=lambda source, translation: known[source][1])


@pytest.mark.parametrize("page", [
    '<p>People are standing at the <a href="/bus">bus</a> <a href="/stop">stop</a>.</p>',
    '<p>People are standing at the <a href="/bus">bus</a> <a href="/stop">stop.</a></p>',
], ids=["stop-outside", "stop-inside"])
def test_the_word_goes_to_the_link_it_translates_most_and_the_other_beside_it(page):
    """"Bushaltestelle" gives "stop" 0.33 and "bus" 0.24: the first link placed took it, and "stop" came back in
    English after it, ``<a href="/bus">Bushaltestelle</a> <a href="/stop">stop</a>``.  Not onto a content word
    beside: before "Tennis" stands the verb "spielen", which says something else, so the second link keeps its
    source text and its href, as before."""
    out = translate_markup([page], translator())
    assert out == ['<p>Leute stehen an <a href="/bus">der</a> <a href="/stop">Bushaltestelle</a>.</p>']
    played = translate_markup(['<p>Two men play <a href="/t">table</a> <a href="/n">tennis</a>.</p>'], translator())
    assert played == ['<p>Zwei Männer spielen <a href="/t">Tennis</a> <a href="/n">tennis</a>.</p>']


def test_a_markdown_link_takes_the_function_word_beside_the_shared_word():
    out = translate_markdown("People are standing at the [bus](/bus) [stop](/stop).\n", translator())
    assert out == "Leute stehen an [der](/bus) [Bushaltestelle](/stop).\n"
