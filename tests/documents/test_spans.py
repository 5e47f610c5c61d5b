"""attnmt.documents.spans on a flat text built by hand: where a mark's edge spaces go."""

import copy
import pickle

import pytest

from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.nesting import Literal, keep_edge_spaces, nest
from attnmt.documents.spans import Nested, identity, place, plain


def placed(keeps: bool) -> list[str | Nested]:
    """Plain ``2012`` and a mark over `` €`` (``keeps``: Mark.keeps_edge_spaces), translated word for word."""
    flat = FlatText("2012 €", [Mark(4, 6, keeps_edge_spaces=keeps)])
    return nest(flat, place(flat, [(0, 6)], ["zweitausendzwölf Euro"], [identity(2)]))


@pytest.mark.parametrize("keeps, expected", [
    (False, ["zweitausendzwölf ", Nested(0, ["Euro"])]),  # the space outside: the text around takes it
    (True, ["zweitausendzwölf", Nested(0, [" ", "Euro"])]),  # the space where the source had it
])
def test_a_marks_source_edge_space_stays_inside_only_where_it_keeps_its_edge_spaces(keeps, expected):
    assert placed(keeps) == expected


def test_a_space_kept_in_a_mark_goes_on_into_the_mark_inside_it_that_keeps_its_edge_spaces():
    """A content control (mark 0) around its w:sdtContent (mark 1), both over `` €``: the space goes
    into the inner mark, the one that holds runs; left in the outer, it stood outside every run."""
    flat = FlatText("2012 €", [Mark(4, 6, keeps_edge_spaces=True), Mark(4, 6, 0, keeps_edge_spaces=True)])
    content = nest(flat, place(flat, [(0, 6)], ["zweitausendzwölf Euro"], [identity(2)]))
    assert content == ["zweitausendzwölf", Nested(0, [Nested(1, [" ", "Euro"])])]


def test_a_mark_that_got_no_words_takes_no_edge_space():
    """An insertion the alignment gave no word (``The man <ins>quickly </ins>reads``) took the space
    after it, a tracked space whose rejection glued the words either side."""
    flat = FlatText("a quickly b", [Mark(2, 10, keeps_edge_spaces=True)])
    content = ["eins ", Nested(0, []), " zwei"]
    keep_edge_spaces(flat, content)
    assert content == ["eins ", Nested(0, []), " zwei"]


def test_a_mark_of_spaces_alone_that_got_no_words_takes_its_space_back():
    """A run of a space inside a link (``<a><r> </r><r blue>our shop</r></a>``) got no words: its
    space went to the link's base, the blue run, and took its look; a mark that had words and got
    none (an insertion) still takes none."""
    flat = FlatText("visit our shop", [Mark(5, 6, keeps_edge_spaces=True)])
    content = ["besuche ", Nested(0, []), "unseren Laden"]
    keep_edge_spaces(flat, content)
    assert content == ["besuche", Nested(0, [" "]), "unseren Laden"]


@pytest.mark.parametrize("translation, expected", [
    ("trinkt H2O", (8, 9)),  # the word written as in the source: the mark keeps its offset in it
    ("trinkt (H2O).", (9, 10)),  # its punctuation aside
    ("trinkt Wasser", (7, 13)),  # translated: the whole word
])
def test_a_mark_inside_a_word_keeps_its_place_only_where_the_translation_keeps_the_word(translation, expected):
    flat = FlatText("drinks H2O", [Mark(8, 9)])
    assert place(flat, [(0, 10)], [translation], [identity(2)]).spans == [expected]


@pytest.mark.parametrize("translation, expected", [
    # 8 characters, the mark over the 3rd and 4th: a quarter to a half of the way.  Of "This is an important
    # sentence." (30 characters), 7.5 to 15: "an" (8-10) has its middle there, "important" (11-20) not.
    ("This is an important sentence.", (8, 10)),
    ("これは重要な文です。", (3, 5)),  # 10 characters: 2.5 to 5, "重要" (3-5) in characters
    ("这是重要的句子。", (2, 4)),  # the word written unchanged: the mark's own place
    # no word's middle between 8.25 and 16.5: the one nearest 12.375, "ausserordentlich" (9-25, middle 17)
    ("Dies ist ausserordentlich wichtig.", (9, 25)),
])
def test_a_mark_inside_a_word_without_spaces_keeps_its_proportional_place(translation, expected):
    """A Chinese sentence is one whitespace word, to which every target word is aligned: a bold "重要"
    went over the whole translation.  Here it keeps the same fraction of the word's translation."""
    flat = FlatText("这是重要的句子。", [Mark(2, 4)])
    weights = [[1.0] for _ in translation.split()]
    assert place(flat, [(0, 8)], [translation], [weights]).spans == [expected]


def test_a_space_before_an_atom_that_ends_the_mark_is_no_edge_space_of_it():
    """A link whose result is ``page `` and then a page number's field (the atom): its edge is the
    field, so the space after it stays outside (the link had taken a space it never ended with)."""
    flat = FlatText("Click page to learn.", [Mark(6, 11, keeps_edge_spaces=True),
                                             Mark(11, 11, 0, "field", atom=True, space_before=True, space_after=True)])
    content = nest(flat, place(flat, [(0, 20)], ["Click page to learn."], [identity(4)]))
    assert content == ["Click ", Nested(0, ["page", " ", Nested(1, [])]), " to learn."]


def test_a_ranges_end_in_another_element_than_its_start_changes_places_with_it():
    """``<g><bx/>a</g> <g2>b<ex/></g2>`` turned around: each edge goes around "B A", the translation of
    its words, cut to its own element, so the <ex/> (mark 3) ends up in the <g2> (mark 2) before the
    <bx/> (mark 1) in the <g> (mark 0).  Only ends that shared a parent were swapped; now each takes
    the other's place, in the other's element."""
    flat = FlatText("a b", [Mark(0, 1, node="g"), Mark(0, 0, 0, "bx", atom=True), Mark(2, 3, node="g2"),
                            Mark(3, 3, 2, "ex", atom=True, opened_by=1)])
    placement = place(flat, [(0, 3)], ["B A"], [[[0.0, 1.0], [1.0, 0.0]]])
    assert placement.spans == [(2, 3), (1, 1), (0, 1), (2, 2)] and placement.parents == [None, 2, None, 0]
    assert nest(flat, placement) == [Nested(2, ["B", Nested(1, [])]), " ", Nested(0, [Nested(3, []), "A"])]


@pytest.mark.parametrize("source, marks, translation, pairs, expected", [
    # "A <s/>big red dog<e/> sleeps." as French: the range goes over "gros chien rouge", not "gros chien"
    ("A big red dog sleeps.", [2, 13], "Un gros chien rouge dort.", [(0, 0), (1, 1), (2, 3), (3, 2), (4, 4)],
     [(3, 3), (19, 19)]),
    # "the <s/>red <e/>car": over "rouge", not "voiture" (the word after the end, which came first)
    ("The red car stops.", [4, 8], "La voiture rouge s'arrête.", [(0, 0), (1, 2), (2, 1), (3, 3)],
     [(11, 11), (16, 16)]),
])
def test_a_range_goes_around_the_translation_of_its_words(source, marks, translation, pairs, expected):
    """A range (a comment's anchor, a bookmark, a tracked change) whose words came back in another order:
    each edge put before the translation of the word after it, it went over other words."""
    start, end = marks
    flat = FlatText(source, [Mark(start, start, atom=True), Mark(end, end, atom=True, opened_by=0)])
    n, m = len(source.split()), len(translation.split())
    weights = [[float((s, t) in pairs) for s in range(n)] for t in range(m)]
    assert place(flat, [(0, len(source))], [translation], [weights]).spans == expected


def test_the_atoms_after_a_ranges_end_go_with_it():
    """A Word comment's reference right after its range's end stays after it: before it, LibreOffice
    anchored the comment over no words."""
    flat = FlatText("A big red dog sleeps.", [Mark(2, 2, atom=True), Mark(13, 13, atom=True, opened_by=0),
                                              Mark(13, 13, atom=True), Mark(14, 14, atom=True)])
    weights = [[float((s, t) in {(0, 0), (1, 1), (2, 3), (3, 2), (4, 4)}) for s in range(5)] for t in range(5)]
    spans = place(flat, [(0, 21)], ["Un gros chien rouge dort."], [weights]).spans
    assert spans == [(3, 3), (19, 19), (19, 19), (20, 20)]  # the atom before "sleeps" stays before "dort"


def test_a_note_whose_next_word_was_dropped_takes_no_space_before_the_full_stop():
    """``A dog <span>runs<note/></span> fast.`` translated "Ein Hund rennt.": the note (mark 1) kept
    the space it had after it in the source, and the span ended in "rennt1 ."."""
    flat = FlatText("A dog runs fast.", [Mark(6, 10), Mark(10, 10, 0, "note", atom=True, space_after=True)])
    placement = place(flat, [(0, 16)], ["Ein Hund rennt."], [[[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]])
    assert nest(flat, placement) == ["Ein Hund ", Nested(0, ["rennt", Nested(1, [])]), "."]


# "einer" attends most to "bench" (a word off, as the model did), "Bank." too, and no word most to "."
# (where the source has it apart: the words past the source's are cut off where it has not).
BENCH_WEIGHTS = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0.3, 0.6, 0.1], [0, 0, 0, 0.6, 0.4]]


def reference(literal: str, glued_before: bool) -> Mark:
    """A note's link after "bench" in ``sleeps on a bench<a>[1]</a>.``, which shows its text."""
    return Mark(17, 17, atom=True, literal=literal, shows_text=True, glued_before=glued_before)


@pytest.mark.parametrize("source, marks, expected", [
    # a reference that parts words: the model reads "bench ."
    ("sleeps on a bench .", [reference("[1]", True)], "schläft auf einer Bank[1]."),
    # an atom that does not (a picture, here shown as text): inside the word "bench."
    ("sleeps on a bench.", [reference("[1]", True)], "schläft auf einer Bank[1]."),
    # two that touch, the first glued to the word: they stay together, in their order
    ("sleeps on a bench .", [reference("[1]", True), reference("[2]", False)], "schläft auf einer Bank[1][2]."),
])
def test_atoms_glued_to_the_end_of_a_word_follow_that_words_translation(source, marks, expected):
    """``bench<a>[1]</a>.``: after the last target word aligned to "bench", before its stop, not
    before the target word aligned to the stop (``einer[1] Bank.``) nor after that stop."""
    flat = FlatText(source, marks)
    placement = place(flat, [(0, len(source))], ["schläft auf einer Bank."], [BENCH_WEIGHTS])
    assert plain(nest(flat, placement)) == expected


def test_atoms_only_spaces_after_a_glued_atom_follow_it_in_their_order():
    """``bench<a>[1]</a> <a>[2]</a>.``: the second reference goes with the first after "Bank", a
    space apart as in the source, not before "Bank." (the word aligned to the stop after it), which
    put the references in reverse order (``einer [2] Bank[1].``)."""
    first = Mark(17, 17, atom=True, literal="[1]", shows_text=True, glued_before=True, space_after=True)
    second = Mark(18, 18, atom=True, literal="[2]", shows_text=True, space_before=True)
    flat = FlatText("sleeps on a bench .", [first, second])
    placement = place(flat, [(0, 19)], ["schläft auf einer Bank."], [BENCH_WEIGHTS])
    assert plain(nest(flat, placement)) == "schläft auf einer Bank[1] [2]."


def test_an_atom_glued_to_a_word_before_its_comma_stays_before_the_word_aligned_to_the_comma():
    """``ball<img>, and a cat``, a picture that does not part words: the model reads ``ball,`` and
    "und" attends to it most (to its comma), as much as to "and".  The picture follows "Ball", the
    last target word aligned to the letters, not "und" (``Ball und[img] eine Katze``)."""
    source = "A dog with a red ball, and a cat."
    weights = [[1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0],
               [0, 0, 0, 0.3, 0.7, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0],
               [0, 0, 0, 0, 0, 0.3, 0.2, 0, 0], [0, 0, 0, 0, 0, 0, 0.1, 0.4, 0.5], [0, 0, 0, 0, 0, 0, 0, 0, 0.5]]
    flat = FlatText(source, [Mark(21, 21, atom=True, literal="[img]", shows_text=True, glued_before=True)])
    placement = place(flat, [(0, len(source))], ["Ein Hund mit einem roten Ball und eine Katze."], [weights])
    assert plain(nest(flat, placement)) == "Ein Hund mit einem roten Ball[img] und eine Katze."


def test_a_protected_spans_text_is_copied_and_pickled_with_its_mark():
    """nest writes a protected span (``\\n``, ``%1$s``) as a Literal; str's copy made it anew from its text
    alone, a TypeError in copy.deepcopy and pickle of the translated content."""
    copied = copy.deepcopy([Literal("%1$s", 3)])[0]
    unpickled = pickle.loads(pickle.dumps(Literal("\\n", 2)))
    assert (copied, copied.mark, unpickled, unpickled.mark) == ("%1$s", 3, "\\n", 2)
    assert isinstance(copied, Literal) and isinstance(unpickled, Literal)


@pytest.mark.parametrize("translation, weights, expected", [
    # "gilt" attends most to "mc2" too: the <sup> stays on the copy's "2", not over "mc2 gilt"
    ("E = mc2 gilt", [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0.6, 0.4]], (6, 7)),
    # the alignment gave "mc2" to "gilt" alone: the mark still goes on the copy, not on "gilt"
    ("gilt E = mc2", [[0, 0, 0.7, 0.3], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0.3, 0.7]], (11, 12)),
])
def test_a_mark_on_a_word_the_translation_copies_stays_on_that_copy(translation, weights, expected):
    flat = FlatText("E = mc2 holds", [Mark(6, 7)])
    assert place(flat, [(0, 13)], [translation], [weights]).spans == [expected]


def test_a_mark_inside_a_word_the_translation_does_not_copy_goes_on_one_of_its_words():
    """``H<sub>2</sub>O`` as "ein Glas Wasser": the <sub> on "Wasser", the word attending most to "H2O",
    not stretched over "ein Glas Wasser"."""
    flat = FlatText("drinks H2O", [Mark(8, 9)])
    weights = [[1, 0], [0.4, 0.6], [0.3, 0.7], [0.1, 0.9]]
    assert place(flat, [(0, 10)], ["trinkt ein Glas Wasser"], [weights]).spans == [(16, 22)]


def test_a_plain_word_is_not_moved_to_a_word_of_the_translation_that_is_spelt_alike():
    """English "die" is no German "die": the mark stays on "sterben", the word aligned to it."""
    flat = FlatText("they die here", [Mark(5, 8)])
    weights = [[1, 0, 0], [0.9, 0.1, 0], [0.1, 0.8, 0.1], [0, 0, 1]]
    assert place(flat, [(0, 13)], ["die Leute sterben hier"], [weights]).spans == [(10, 17)]


def test_a_mark_on_a_name_goes_on_its_copy_inside_a_compound_of_the_translation():
    """``a <a>Nike</a> shirt`` as "einem Nike-Shirt", the alignment giving "Nike" to "einem": the link on "Nike"."""
    flat = FlatText("a Nike shirt", [Mark(2, 6)])
    weights = [[0.2, 0.7, 0.1], [0.1, 0.3, 0.6]]
    assert place(flat, [(0, 12)], ["einem Nike-Shirt"], [weights]).spans == [(6, 10)]


def test_a_mark_on_a_number_the_translation_writes_in_words_goes_on_one_word():
    """``a group of <b>5</b> men`` as "eine Gruppe von fünf Männern", "von" attending most to "5": bold "fünf",
    not "von fünf"."""
    flat = FlatText("a group of 5 men", [Mark(11, 12)])
    weights = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0.3, 0.6, 0.1], [0, 0, 0.1, 0.8, 0.1], [0, 0, 0, 0, 1]]
    assert place(flat, [(0, 16)], ["eine Gruppe von fünf Männern"], [weights]).spans == [(16, 20)]


def test_a_mark_inside_a_word_goes_on_its_copy_wherever_the_alignment_put_the_word():
    """``writes x<sub>i</sub> here`` as "schreibt hier xi", "xi" aligned to "hier": the <sub> on the copy's "i"."""
    flat = FlatText("writes xi here", [Mark(8, 9)])
    weights = [[1, 0, 0], [0, 0.7, 0.3], [0, 0.2, 0.8]]
    assert place(flat, [(0, 14)], ["schreibt hier xi"], [weights]).spans == [(15, 16)]
