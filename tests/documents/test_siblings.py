"""attnmt.documents.siblings: SortedSiblings places every mark as the readable Siblings does, and
its work grows with the marks, not with their square."""

import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from support import lines_run as attnmt_lines_run

from attnmt.documents import sentence_marks, siblings, spans
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.sentence_marks import part_at_sentences
from attnmt.documents.spans import identity, place


@st.composite
def layouts(draw):
    """Words in one or two sentences, marks over any characters (nested anywhere, atoms and empty
    ones among them), a translation of any length and any alignment: marks that overlap, cover
    one another's points, and are cut to parents that became points."""
    words = draw(st.integers(1, 8))
    text = " ".join(f"w{k}" for k in range(words))
    cut = draw(st.integers(1, words))
    sentences = [(0, len(" ".join(f"w{k}" for k in range(cut))))]
    if cut < words:
        sentences.append((sentences[0][1] + 1, len(text)))
    marks = []
    for j in range(draw(st.integers(1, 14))):
        start, end = sorted(draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=2)))
        atom = draw(st.booleans()) and draw(st.booleans())
        parent = draw(st.one_of(st.none(), st.integers(0, j - 1))) if j else None
        marks.append(Mark(start, start if atom else end, parent, atom=atom))
    translations, alignments = [], []
    for s, e in sentences:
        targets, sources = draw(st.integers(1, 6)), len(text[s:e].split())
        translations.append(" ".join(draw(st.sampled_from(["W", "w1", "Wort", "x"])) for _ in range(targets)))
        alignments.append([[float(draw(st.booleans())) for _ in range(sources)] for _ in range(targets)])
    return FlatText(text, marks), sentences, translations, alignments


@settings(max_examples=50, deadline=None)
@given(layouts())
def test_sorted_siblings_place_every_mark_as_the_readable_siblings_do(layout):
    flat, sentences, translations, alignments = layout
    fast = place(flat, sentences, translations, alignments)
    original, spans.SortedSiblings = spans.SortedSiblings, siblings.Siblings
    try:
        readable = place(flat, sentences, translations, alignments)
    finally:
        spans.SortedSiblings = original
    assert (fast.spans, fast.parents) == (readable.spans, readable.parents)


def lines_run(path: str, call) -> int:
    """How many lines of the module at ``path`` ``call()`` runs: a count of steps, not of seconds."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != path:
            return None
        count += event == "line"
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(previous)
    return count


def test_two_thousand_sibling_marks_take_steps_in_proportion_to_their_number():
    """``<b>a</b>`` 2,000 times, the word written otherwise: each mark keeps its share of it, one letter
    (unspaced_marks.glued_letters); then 2,000 atoms inside a word kept as it is, and one mark over
    the word that moves them all to its nearer edge.  Held against every earlier sibling (the readable
    Siblings), that was 20 million steps, 250 times the bound (for 20,000 marks: minutes); now a few
    dozen a mark."""
    n = 2_000
    upper = FlatText("a" * n, [Mark(k, k + 1) for k in range(n)])
    placed = []
    steps = lines_run(siblings.__file__, lambda: placed.append(place(upper, [(0, n)], ["A" * n], [identity(1)])))
    assert placed[0].spans == [(k, k + 1) for k in range(n)]
    assert steps < 40 * n
    kept = FlatText("a" * n, [Mark(k, k, atom=True) for k in range(1, n)] + [Mark(0, n)])
    steps = lines_run(siblings.__file__, lambda: placed.append(place(kept, [(0, n)], ["a" * n], [identity(1)])))
    assert placed[1].spans == [(0, 0)] * (n // 2) + [(n, n)] * (n // 2 - 1) + [(0, n)]
    assert steps < 40 * n


def test_two_thousand_sibling_marks_take_steps_in_proportion_to_their_number_in_all_of_attnmt():
    """The marks above, every line of attnmt counted (about 210 a mark since a mark cut in two keeps the piece
    its words' translation is in, siblings.held_piece: 207 at 500, 1,000 and 2,000 marks): a quadratic search anywhere
    in placing them fails here, not only in siblings.py.  A mark kept to the same part of a word as
    its punctuation, looked for among the whole paragraph for each mark (121387fe, reverted), took
    24 million steps, 12,000 a mark: with 20,000 marks the test of siblings.py's steps ran for ten
    minutes, and passed."""
    n = 2_000
    upper = FlatText("a" * n, [Mark(k, k + 1) for k in range(n)])
    assert attnmt_lines_run(lambda: place(upper, [(0, n)], ["A" * n], [identity(1)])) < 300 * n
    kept = FlatText("a" * n, [Mark(k, k, atom=True) for k in range(1, n)] + [Mark(0, n)])
    assert attnmt_lines_run(lambda: place(kept, [(0, n)], ["a" * n], [identity(1)])) < 300 * n


def test_a_thousand_one_word_marks_with_spaces_between_take_steps_in_proportion_to_their_number():
    """``<b>a</b> `` 1,000 times in one sentence, each word aligned to itself: each mark's words were
    found by going through every word of the text, and its most attending target word by going
    through every target word (the latter alone: 3 million steps, 30 times the bound; the weights are
    a million numbers, so more marks cost this test their square); now each word's is found once,
    and each mark takes under a hundred steps."""
    n = 1_000
    flat = FlatText("a " * (n - 1) + "a", [Mark(2 * k, 2 * k + 1) for k in range(n)])
    weights = identity(n)
    placed = []
    steps = lines_run(spans.__file__, lambda: placed.append(place(flat, [(0, 2 * n - 1)], ["A " * (n - 1) + "A"],
                                                                  [weights])))
    assert placed[0].spans == [(2 * k, 2 * k + 1) for k in range(n)]
    assert steps < 100 * n


def test_two_thousand_marks_in_two_thousand_sentences_are_matched_to_their_sentences_in_proportion():
    """One marked word in each of 2,000 sentences: each mark's sentences were found by going through
    every sentence's words again (millions of steps); now each sentence's words are found once."""
    n = 2_000
    flat = FlatText("a " * (n - 1) + "a", [Mark(2 * k, 2 * k + 1) for k in range(n)])
    sentences = [(2 * k, 2 * k + 1) for k in range(n)]
    parted = []
    steps = lines_run(sentence_marks.__file__, lambda: parted.append(part_at_sentences(flat, sentences, ["A"] * n,
                                                                                       [None] * n)))
    assert parted[0].flat is flat and parted[0].origin == list(range(n))
    assert steps < 20 * n


def test_marks_nested_four_hundred_deep_over_as_many_sentences_read_two_spans_each(monkeypatch):
    """Mark k over sentences k to the last, inside mark k - 1, each sentence translated whole: whether a mark's
    shares stand apart was read from its span in every sentence it reaches, 80,000 spans (a document's
    elements nested 500 deep spent most of its seconds there); only its first and last sentence can tell."""
    n, read = 400, []
    text = "a " * (n - 1) + "a"
    flat = FlatText(text, [Mark(2 * k, len(text), k - 1 if k else None) for k in range(n)])
    span = spans.Projector.span
    monkeypatch.setattr(spans.Projector, "span", lambda projector, mark: read.append(mark) or span(projector, mark))
    parted = part_at_sentences(flat, [(2 * k, 2 * k + 1) for k in range(n)], ["A"] * n, [None] * n)
    assert parted.flat.marks == flat.marks and parted.origin == list(range(n))
    assert len(read) == 2 * (n - 1)


# "Child playing on a playground, hanging from bars." as the demo model translated it, and its attention
# [target word][source word]: "auf" attends to "on" and "from" alike, a shade more to "from".
PLAYGROUND = "Child playing on a playground, hanging from bars."
SPIELPLATZ = "Ein Kind spielt auf einem Spielplatz von Barn."
WEIGHTS = [[0.80, 0.08, 0.00, 0.02, 0.00, 0.00, 0.00, 0.09],
           [0.99, 0.01, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],
           [0.00, 0.85, 0.09, 0.00, 0.00, 0.06, 0.00, 0.00],
           [0.01, 0.02, 0.34, 0.12, 0.10, 0.03, 0.35, 0.02],
           [0.00, 0.00, 0.03, 0.40, 0.24, 0.02, 0.05, 0.25],
           [0.00, 0.00, 0.00, 0.00, 0.99, 0.00, 0.00, 0.00],
           [0.00, 0.00, 0.01, 0.00, 0.18, 0.09, 0.50, 0.16],
           [0.00, 0.00, 0.01, 0.01, 0.05, 0.07, 0.12, 0.48]]


def test_a_sibling_cut_in_two_keeps_the_piece_its_words_translation_stands_in():
    """``<b>playground</b>, <i>hanging from bars</i>``: the <i>'s span runs from "auf" (its link to "from")
    to "Barn", over the <b>'s "Spielplatz".  Of the two pieces left, the longer, "auf einem", gives
    "hanging from bars" 0.72 of attention, "von Barn" 1.42: the <i> went on "auf einem"."""
    bold, italic = PLAYGROUND.index("playground"), PLAYGROUND.index("hanging")
    flat = FlatText(PLAYGROUND, [Mark(bold, bold + len("playground")), Mark(italic, italic + len("hanging from bars"))])
    placed = place(flat, [(0, len(PLAYGROUND))], [SPIELPLATZ], [WEIGHTS])
    assert [SPIELPLATZ[s:e] for s, e in placed.spans] == ["Spielplatz", "von Barn"]


def test_a_sibling_cut_in_two_with_no_attention_to_tell_keeps_the_longest_piece():
    """A whole sentence's mark needs no alignment: where nothing tells the pieces apart, the longest, as before."""
    pieces = [(0, 3), (5, 12), (14, 16)]
    assert siblings.held_piece(pieces, lambda: []) == (5, 12)
    assert siblings.held_piece(pieces, lambda: [(0, 0.2), (14, 0.9)]) == (14, 16)
    assert siblings.held_piece([], lambda: []) is None
