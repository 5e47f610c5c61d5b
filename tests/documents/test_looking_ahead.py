"""The first target word of a mark's translation, where it was written looking ahead at the mark's words for the
unmarked source word before them (an article before its noun), stays outside the mark
(attnmt.documents.looking_ahead); a word that translates one of the mark's words stays inside, and so does the last.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

import re

from lxml import html

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

SHAVING = "A man is shaving outside."
RASIERT = "Ein Mann rasiert sich draußen."
#                 A     man   is    shave outside.
SHAVING_WEIGHTS = [[0.84, 0.15, 0.01, 0.00, 0.01],  # Ein
                   [0.05, 0.65, 0.08, 0.22, 0.01],  # Mann
                   [0.00, 0.00, 0.41, 0.49, 0.09],  # rasiert
                   [0.00, 0.00, 0.04, 0.60, 0.33],  # sich
                   [0.00, 0.00, 0.03, 0.31, 0.38]]  # draußen.
RED = "Red car."
ROT = "Ein rotes Auto."
RED_WEIGHTS = [[0.79, 0.21],  # Ein
               [0.63, 0.35],  # rotes
               [0.02, 0.57]]  # Auto.
OLD = "Old men sit on a bench."
ALT = "Ein älterer Männer sitzen auf einer Bank."
#             Old   men   sit   on    a     bench.
OLD_WEIGHTS = [[0.92, 0.03, 0.01, 0.00, 0.00, 0.04],  # Ein
               [0.99, 0.00, 0.00, 0.00, 0.00, 0.00],  # älterer
               [0.27, 0.60, 0.10, 0.01, 0.00, 0.02],  # Männer
               [0.00, 0.00, 0.94, 0.05, 0.00, 0.00],  # sitzen
               [0.00, 0.00, 0.07, 0.36, 0.11, 0.14],  # auf
               [0.04, 0.01, 0.00, 0.01, 0.43, 0.50],  # einer
               [0.00, 0.00, 0.01, 0.02, 0.02, 0.55]]  # Bank.
SWING = "A boy rides a swing."
SCHAUKEL = "Ein Junge reitet auf einer Schaukel."
#               A     boy   rides a     swing.
SWING_WEIGHTS = [[0.84, 0.14, 0.00, 0.00, 0.02],  # Ein
                 [0.11, 0.79, 0.05, 0.01, 0.03],  # Junge
                 [0.00, 0.00, 0.97, 0.00, 0.02],  # reitet
                 [0.00, 0.00, 0.32, 0.26, 0.38],  # auf
                 [0.02, 0.00, 0.01, 0.45, 0.49],  # einer
                 [0.01, 0.00, 0.02, 0.03, 0.59]]  # Schaukel.
GROOM = "A bride and a groom kissing"
BRAEUTIGAM = "Eine Braut und ein Bräutigam küssen sich."
#               A     bride and   a     groom kissing
GROOM_WEIGHTS = [[0.78, 0.20, 0.01, 0.00, 0.00, 0.00],  # Eine
                 [0.06, 0.88, 0.04, 0.01, 0.01, 0.00],  # Braut
                 [0.02, 0.05, 0.65, 0.11, 0.01, 0.13],  # und
                 [0.02, 0.06, 0.02, 0.15, 0.72, 0.00],  # ein
                 [0.00, 0.00, 0.00, 0.00, 0.99, 0.00],  # Bräutigam
                 [0.00, 0.00, 0.01, 0.01, 0.01, 0.74],  # küssen
                 [0.01, 0.00, 0.00, 0.04, 0.02, 0.21]]  # sich.
HEAVY = "An older, overweight man flips a pancake."
SCHWER = "Ein älterer übergewichtiger Mann macht einen Salto."
#               An    older, over  man   flips a     pancake.
HEAVY_WEIGHTS = [[0.58, 0.38, 0.01, 0.00, 0.00, 0.00, 0.00],  # Ein
                 [0.00, 0.91, 0.09, 0.00, 0.00, 0.00, 0.00],  # älterer
                 [0.02, 0.21, 0.59, 0.14, 0.02, 0.00, 0.00],  # übergewichtiger
                 [0.00, 0.07, 0.54, 0.35, 0.03, 0.00, 0.00],  # Mann
                 [0.00, 0.01, 0.33, 0.03, 0.22, 0.04, 0.02],  # macht
                 [0.00, 0.00, 0.23, 0.15, 0.41, 0.12, 0.00],  # einen
                 [0.00, 0.00, 0.05, 0.10, 0.43, 0.03, 0.04]]  # Salto.
TALL = "Tall men play basketball."
DIESE = "Diese Männer spielen Basketball."
TALL_WEIGHTS = [[0.84, 0.10, 0.00, 0.06],  # Diese
                [0.26, 0.68, 0.03, 0.02],  # Männer
                [0.03, 0.00, 0.95, 0.02],  # spielen
                [0.06, 0.01, 0.03, 0.50]]  # Basketball.


def words_of(text: str) -> list[tuple[int, int]]:
    """[start, end) of each whitespace word of ``text``."""
    return [(match.start(), match.end()) for match in re.finditer(r"\S+", text)]


def placed(source: str, words: str, translation: str, weights: list[list[float]]) -> str:
    """The target text the one mark over ``words`` of ``source`` goes on."""
    start = source.index(words)
    placement = place(FlatText(source, [Mark(start, start + len(words))]), [(0, len(source))], [translation],
                      [weights])
    return placement.text[slice(*placement.spans[0])]


def test_an_article_written_looking_ahead_at_the_marked_adjective_stays_outside_its_mark():
    """"einem" gives "blue" 0.59 (its strongest link) and "a", before the mark, 0.25; "blauen" gives "blue" 0.97."""
    assert own_targets(SHIRT_WEIGHTS, [4], [3, 4], HEMD, words_of(HEMD)) == [4]
    assert placed(SHIRT, "blue", HEMD, SHIRT_WEIGHTS) == "blauen"


def test_the_last_word_of_a_mark_stays_though_it_attends_to_the_source_word_after_it():
    """"Pfütze." gives "outside" 0.23 and "puddle" 0.50, the article before it "puddle" 0.55: the mark's own noun."""
    assert placed(PUDDLE, "puddle", PFUETZE, PUDDLE_WEIGHTS) == "Pfütze"
    assert placed(PUDDLE, "a puddle", PFUETZE, PUDDLE_WEIGHTS) == "einer Pfütze"


def test_the_article_before_a_marked_noun_stays_outside_its_mark():
    assert placed(SNOW, "snow", SCHNEE, SNOW_WEIGHTS) == "Schnee"


def test_an_article_stays_outside_a_marked_noun_that_its_noun_attends_to_nearly_as_much():
    """"einer" gives "swing." 0.49, "Schaukel." 0.59; "auf" (linked to "swing.", 0.38) and "einer" both go out, the
    preposition and then the article written looking ahead.  "ein" gives "groom" 0.72 and the "a" before it only 0.15,
    under SHARE: an article needs no share of the word before, "Bräutigam" giving "groom" more than RIVAL of it."""
    assert placed(SWING, "swing.", SCHAUKEL, SWING_WEIGHTS) == "Schaukel."
    assert placed(GROOM, "groom", BRAEUTIGAM, GROOM_WEIGHTS) == "Bräutigam"
    assert placed(GROOM, "a groom", BRAEUTIGAM, GROOM_WEIGHTS) == "ein Bräutigam"  # its own article, marked
    # No article: "übergewichtiger" gives "overweight" 0.59 and "older," 0.21, "Mann" "overweight" 0.54; it stays.
    assert placed(HEAVY, "overweight", SCHWER, HEAVY_WEIGHTS).startswith("übergewichtiger")


def test_a_verb_before_its_reflexive_pronoun_stays_in_the_mark():
    """"rasiert" gives "is" 0.41 and "shaving" 0.49, "sich" gives "shaving" 0.60: the attention of an article written
    looking ahead, but an article is never followed by "sich"."""
    assert placed(SHAVING, "shaving", RASIERT, SHAVING_WEIGHTS) == "rasiert sich"


def test_an_article_the_target_language_adds_at_the_start_of_a_sentence_the_mark_opens_stays_outside_it():
    """"Ein" gives "Red" 0.79, "rotes" 0.63: both attend most to "Red", which has no article before it to look
    ahead for; "Ein" is written for the sentence's start."""
    assert placed(RED, "Red", ROT, RED_WEIGHTS) == "rotes"
    assert placed(RED, "Red car", ROT, RED_WEIGHTS) == "rotes Auto"
    assert placed(OLD, "Old", ALT, OLD_WEIGHTS) == "älterer"
    # A first word that translates a marked word of its own stays: "Diese" attends most to "Tall", "Männer" to "men".
    assert placed(TALL, "Tall men", DIESE, TALL_WEIGHTS) == "Diese Männer"
    assert placed(TALL, "Tall", DIESE, TALL_WEIGHTS) == "Diese"


def test_a_word_that_translates_a_marked_word_stays_though_it_attends_to_the_word_beside_the_mark():
    """"liest" gives "is" 0.24, but no target word gives "reading" more than its 0.68."""
    assert placed(BOOK, "reading a book", BUCH, BOOK_WEIGHTS) == "liest ein Buch"


def test_the_page_marks_the_adjective_not_the_article_before_it():
    translator = FoundTranslations({SHIRT: HEMD}, weigh=lambda source, translation: SHIRT_WEIGHTS)
    [page] = translate_markup(["A man in a <i>blue</i> shirt."], translator)
    assert page == "Ein Mann in einem <i>blauen</i> Hemd."


LAKE = "A man swims in the lake."
SEE = "Ein Mann schwimmt im See."
#              A     man   swims in    the   lake.
LAKE_WEIGHTS = [[0.81, 0.16, 0.02, 0.00, 0.00, 0.01],  # Ein
                [0.28, 0.72, 0.00, 0.00, 0.00, 0.00],  # Mann
                [0.00, 0.02, 0.89, 0.09, 0.00, 0.00],  # schwimmt
                [0.00, 0.00, 0.02, 0.30, 0.16, 0.52],  # im
                [0.00, 0.00, 0.01, 0.04, 0.05, 0.50]]  # See.


def test_a_preposition_and_article_in_one_word_stays_outside_the_marked_noun_as_an_article_does():
    """"im" (in + dem) is written looking ahead at "lake", 0.52, a little more than "See." gives it, 0.50: read as a
    word of its own, it stayed in the mark (``schwimmt <b>im See</b>``), where an article, "dem", would have gone
    out."""
    assert placed(LAKE, "lake", SEE, LAKE_WEIGHTS) == "See"
    translator = FoundTranslations({LAKE: SEE}, weigh=lambda source, translation: LAKE_WEIGHTS)
    [page] = translate_markup(["<p>A man swims in the <b>lake</b>.</p>"], translator)
    assert html.fragment_fromstring(page).find("b").text == "See"


def test_a_contraction_that_translates_a_marked_preposition_stays_in_its_mark():
    """"im" gives "in" the most, as no other word of the mark does: it is the preposition's translation."""
    assert placed(LAKE, "in the lake", SEE, LAKE_WEIGHTS) == "im See"
