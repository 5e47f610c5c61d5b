"""RunningSums.strongest, the target word that gives a stretch of source words the most attention, is
``strongest`` over every row's ``given`` sum (attnmt.documents.running_sums), to the bit: rounding, ties, short
rows and rows of one weight included."""

from hypothesis import given as examples
from hypothesis import settings
from hypothesis import strategies as st

from attnmt.documents.attention_given import given
from attnmt.documents.dropped_words import strongest
from attnmt.documents.running_sums import RunningSums


def test_a_row_one_rounding_above_another_is_the_strongest_in_either_order():
    """0.1 + 0.2 is 0.30000000000000004, one rounding above 0.3: read from running sums, both are 0.3 or so."""
    above, level = [0.1, 0.2, 0.5], [0.3, 0.0, 0.5]
    assert given(above, [0, 1]) > given(level, [0, 1])
    assert RunningSums([above, level]).strongest([0, 1]) == 0
    assert RunningSums([level, above]).strongest([0, 1]) == 1


def test_of_rows_that_give_alike_the_first_is_the_strongest():
    identity = [[float(s == t) for s in range(4)] for t in range(4)]
    assert RunningSums(identity).strongest([1, 2, 3]) == 1
    assert RunningSums([[0.0, 0.5], [0.25, 0.25], [0.5]]).strongest([0, 1]) == 0  # 0.5 each; the last row short


def test_words_no_row_gives_anything_have_no_strongest():
    assert RunningSums([[0.0, 0.0, 1.0], [0.0, 0.0]]).strongest([0, 1]) is None


WEIGHT = st.one_of(st.sampled_from([0.0, 0.1, 0.2, 0.3, 1 / 3, 0.5, 0.7, 1.0]), st.floats(0.0, 1.0))


@settings(max_examples=300, deadline=None)
@examples(rows=st.lists(st.lists(WEIGHT, max_size=12), max_size=8), start=st.integers(0, 12),
          length=st.integers(1, 12), apart=st.booleans())
def test_the_strongest_is_the_one_of_every_rows_given_sum(rows, start, length, apart):
    words = list(range(start, start + 2 * length, 2)) if apart else list(range(start, start + length))
    assert RunningSums(rows).strongest(words) == strongest([given(row, words) for row in rows])
