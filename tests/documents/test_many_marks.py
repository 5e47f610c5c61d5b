"""A paragraph of thousands of marks (``<b>a</b> `` 5,000 times, a link or ``**a**`` as often) is
translated with work in proportion to its marks and its weights, not to their square, and written
as the readable code below, kept here as the reference, writes it."""

import math
from numbers import Real

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import lines_run

from attnmt.documents import nesting, translator_parts
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.translator_parts import checked_weights
from attnmt.errors import ConfigError


def readable_checked_weights(name, weights):
    """checked_weights as it was: each weight checked with isinstance(value, Real)."""
    if weights is None:
        return None
    found = []
    for row in weights if translator_parts.listed(weights) else [None]:
        values = list(row) if translator_parts.listed(row) else [None]
        if not all(isinstance(value, Real) and math.isfinite(value) for value in values):
            raise ConfigError(f"{name} returned {weights!r:.80} as a sentence's weights")
        found.append([float(value) for value in values if isinstance(value, Real)])
    return found


def readable_part_words_in_place(flat, content):
    """part_words_in_place as it was: the emptied texts taken out of their list once for each leaf."""
    leaves = []

    def walk(pieces):
        for i, piece in enumerate(pieces):
            if isinstance(piece, str) or flat.marks[piece.mark].atom:
                leaves.append((pieces, i))
            else:
                walk(piece.content)

    def text_beside(n, step):
        texts = []
        while 0 <= n < len(leaves) and isinstance(text := leaves[n][0][leaves[n][1]], str):
            texts.append(text)
            n += step
        return "".join(texts[::step])

    walk(content)
    for n, (pieces, i) in enumerate(leaves):
        piece = pieces[i]
        mark = None if isinstance(piece, str) else flat.marks[piece.mark]
        if mark is None or not mark.parts_words:
            continue
        for neighbour, before in ((n - 1, True), (n + 1, False)):
            if 0 <= neighbour < len(leaves) and not (mark.space_before if before else mark.space_after):
                holder, k = leaves[neighbour]
                text = holder[k]
                if not isinstance(text, str) or nesting.would_glue(
                        mark, text_beside(neighbour, -1 if before else 1).strip(" "), before):
                    continue
                if before and text.endswith(" "):
                    holder[k] = text[:-1]
                elif not before and text.startswith(" "):
                    holder[k] = text[1:]
    for pieces, _ in leaves:
        pieces[:] = [piece for piece in pieces if piece != ""]


class Readable:
    """The readable functions in place of the fast ones, for as long as the ``with`` lasts."""

    def __enter__(self):
        self.kept = nesting.part_words_in_place, translator_parts.checked_weights
        nesting.part_words_in_place = readable_part_words_in_place
        translator_parts.checked_weights = readable_checked_weights

    def __exit__(self, *exc):
        nesting.part_words_in_place, translator_parts.checked_weights = self.kept


WEIGHT = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), st.booleans(),
                   st.just(-0.0), st.sampled_from([1e308, 5e-324, "1", None]))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.lists(st.lists(WEIGHT, max_size=5), max_size=4),
                 st.lists(st.one_of(st.lists(WEIGHT, max_size=3), st.tuples(WEIGHT, WEIGHT), WEIGHT), max_size=3)))
def test_weights_are_checked_and_copied_as_the_readable_check_does(weights):
    def outcome(check):
        try:
            found = check("T.translate", weights)
        except ConfigError:
            return "refused"
        return None if found is None else [[(type(v), repr(v)) for v in row] for row in found]

    assert outcome(checked_weights) == outcome(readable_checked_weights)


WORD = st.sampled_from(["a", "Dog", "runs.", "x,", "(b)", "«c»", "2012", "ok!"])
ATOM = st.sampled_from(["<br/>", '<a href="#">w</a>', '<img src="p.png" alt="a"/>', "<wbr/>", "<code>f()</code>"])
GAP = st.sampled_from([" ", "", "  ", "\t", " . "])


def fragment(depth: int):
    pieces = [WORD, ATOM, GAP]
    if depth:
        inner = st.lists(fragment(depth - 1), min_size=0, max_size=4).map("".join)
        tag = st.sampled_from(["b", "i", "u", "em", "span"])
        pieces.append(st.tuples(tag, inner).map(lambda t: f"<{t[0]}>{t[1]}</{t[0].split()[0]}>"))
    return st.one_of(*pieces)


PAGES = st.lists(fragment(2), min_size=1, max_size=14).map(lambda parts: f"<p>{''.join(parts)}</p>")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=PAGES, which=st.booleans())
def test_a_page_of_any_marks_is_written_as_the_readable_code_writes_it(page, which, same, mirror):
    translator = mirror if which else same
    fast = translate_markup([page], translator)
    with Readable():
        readable = translate_markup([page], translator)
    assert fast == readable


class Identity:
    """Each sentence its own translation, each word attending to itself (the document machinery alone),
    its weights made here: attnmt.documents.spans.identity's lines would count as attnmt's."""

    glossary = None

    def translate(self, sentences, weighed):
        def weights(n):
            return [[float(s == t) for s in range(n)] for t in range(n)]

        return list(sentences), [weights(len(s.split())) if w else None for s, w in zip(sentences, weighed,
                                                                                        strict=True)]


def growth(page) -> float:
    """How many times the lines of attnmt run grow from a page of 300 marks to one of 900."""
    few, many = (lines_run(lambda n=n: page(n)) for n in (300, 900))
    return many / few


def test_a_paragraph_of_bold_words_takes_steps_in_proportion_to_its_marks():
    """``<b>a</b> `` over and over, one sentence whose 900 words each attend to themselves: each of
    its 810,000 weights was checked by a line of Python, twice, and each emptied text was taken out
    of the paragraph's list once for each mark (growth of 9 for 3 times the marks); now a row is
    checked at once and each list is cleaned once (growth near 3)."""
    assert growth(lambda n: translate_markup(["<p>" + "<b>a</b> " * n + "</p>"], Identity())) < 4


def test_a_paragraph_of_links_takes_steps_in_proportion_to_its_marks():
    assert growth(lambda n: translate_markup(["<p>" + '<a href="#">w</a> ' * n + "</p>"], Identity())) < 4


def test_a_markdown_paragraph_of_strong_words_takes_steps_in_proportion_to_its_marks():
    assert growth(lambda n: translate_markdown("**a** " * n + "\n", Identity())) < 4
