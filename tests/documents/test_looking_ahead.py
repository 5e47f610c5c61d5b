"""The first target word of a mark's translation, where it was written looking ahead at the mark's words for the
unmarked source word before them (an article before its noun), stays outside the mark
(attnmt.documents.looking_ahead); a word that translates one of the mark's words stays inside, and so does the last.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.looking_ahead import own_targets
from attnmt.documents.markup import translate_markup
from attnmt.documents.spans import place
from attnmt.documents.translators import FoundTranslations

SHIRT = "A man in a blue shirt."
HEMD = "Ein Mann in einem blauen Hemd."
#               A     man   in    a     blue  shirt.
SHIRT_WEIGHTS = [[0.81, 0.18, 0.00, 0.00, 0.00, 0.00],  # Ein
                 [0.08, 0.74, 0.01, 0.03, 0.12, 0.01],  # Mann
                 [0.07, 0.03, 0.57, 0.14, 0.02, 0.11],  # in
                 [0.00, 0.00, 0.04, 0.25, 0.59, 0.11],  # einem
                 [0.00, 0.00, 0.01, 0.02, 0.97, 0.01],  # blauen
                 [0.00, 0.00, 0.00, 0.00, 0.01, 0.57]]  # Hemd.
PUDDLE = "A little girl stands in a puddle outside."
PFUETZE = "Ein kleines Mädchen steht in einer Pfütze."
#                A     little girl  stands in    a     puddle outside
PUDDLE_WEIGHTS = [[0.93, 0.04, 0.01, 0.00, 0.00, 0.00, 0.00, 0.03],  # Ein
                  [0.01, 0.97, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00],  # kleines
                  [0.04, 0.03, 0.87, 0.04, 0.00, 0.00, 0.01, 0.01],  # Mädchen
                  [0.00, 0.00, 0.00, 0.94, 0.05, 0.00, 0.00, 0.00],  # steht
                  [0.00, 0.00, 0.00, 0.01, 0.28, 0.04, 0.02, 0.61],  # in
                  [0.00, 0.00, 0.00, 0.00, 0.01, 0.39, 0.55, 0.05],  # einer
                  [0.00, 0.00, 0.00, 0.00, 0.02, 0.01, 0.50, 0.23]]  # Pfütze.
BOOK = "A woman is reading a book on the beach."
BUCH = "Eine Frau liest ein Buch am Strand."
#              A     woman is    read  a     book  on    the   beach.
BOOK_WEIGHTS = [[0.72, 0.26, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.01],  # Eine
                [0.04, 0.80, 0.12, 0.02, 0.00, 0.01, 0.00, 0.00, 0.01],  # Frau
                [0.00, 0.00, 0.24, 0.68, 0.01, 0.01, 0.04, 0.01, 0.01],  # liest
                [0.00, 0.00, 0.01, 0.02, 0.42, 0.04, 0.27, 0.05, 0.19],  # ein
                [0.00, 0.00, 0.00, 0.00, 0.01, 0.99, 0.00, 0.00, 0.00],  # Buch
                [0.02, 0.01, 0.02, 0.05, 0.06, 0.03, 0.32, 0.17, 0.21],  # am
                [0.00, 0.00, 0.01, 0.08, 0.03, 0.01, 0.06, 0.03, 0.52]]  # Strand.
SNOW = "A dog runs through the snow."
SCHNEE = "Ein Hund rennt durch den Schnee."
#              A     dog   runs  thru  the   snow.
SNOW_WEIGHTS = [[0.91, 0.09, 0.00, 0.00, 0.00, 0.01],  # Ein
                [0.11, 0.82, 0.04, 0.00, 0.00, 0.02],  # Hund
                [0.00, 0.00, 0.94, 0.04, 0.00, 0.01],  # rennt
                [0.00, 0.00, 0.01, 0.82, 0.08, 0.03],  # durch
                [0.00, 0.00, 0.00, 0.05, 0.44, 0.46],  # den
                [0.01, 0.00, 0.01, 0.04, 0.01, 0.59]]  # Schnee.


def placed(source: str, words: str, translation: str, weights: list[list[float]]) -> str:
    """The target text the one mark over ``words`` of ``source`` goes on."""
    start = source.index(words)
    placement = place(FlatText(source, [Mark(start, start + len(words))]), [(0, len(source))], [translation],
                      [weights])
    return placement.text[slice(*placement.spans[0])]


def test_an_article_written_looking_ahead_at_the_marked_adjective_stays_outside_its_mark():
    """"einem" gives "blue" 0.59 (its strongest link) and "a", before the mark, 0.25; "blauen" gives "blue" 0.97."""
    assert own_targets(SHIRT_WEIGHTS, [4], [3, 4]) == [4]
    assert placed(SHIRT, "blue", HEMD, SHIRT_WEIGHTS) == "blauen"


def test_the_last_word_of_a_mark_stays_though_it_attends_to_the_source_word_after_it():
    """"Pfütze." gives "outside" 0.23 and "puddle" 0.50, the article before it "puddle" 0.55: the mark's own noun."""
    assert placed(PUDDLE, "puddle", PFUETZE, PUDDLE_WEIGHTS) == "einer Pfütze"
    assert placed(PUDDLE, "a puddle", PFUETZE, PUDDLE_WEIGHTS) == "einer Pfütze"


def test_the_article_before_a_marked_noun_stays_outside_its_mark():
    assert placed(SNOW, "snow", SCHNEE, SNOW_WEIGHTS) == "Schnee"


def test_a_word_that_translates_a_marked_word_stays_though_it_attends_to_the_word_beside_the_mark():
    """"liest" gives "is" 0.24, but no target word gives "reading" more than its 0.68."""
    assert placed(BOOK, "reading a book", BUCH, BOOK_WEIGHTS) == "liest ein Buch"


def test_the_page_marks_the_adjective_not_the_article_before_it():
    translator = FoundTranslations({SHIRT: HEMD}, weigh=lambda source, translation: SHIRT_WEIGHTS)
    [page] = translate_markup(["A man in a <i>blue</i> shirt."], translator)
    assert page == "Ein Mann in einem <i>blauen</i> Hemd."
