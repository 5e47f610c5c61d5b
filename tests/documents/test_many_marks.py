"""A paragraph of thousands of marks (``<b>a</b> `` 5,000 times, a link or ``**a**`` as often) is
translated with work in proportion to its marks and its weights, not to their square, and written
as the readable code below, kept here as the reference, writes it."""

import math
from numbers import Real

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import lines_run

from attnmt.documents import glued_points, nesting, spans, translator_parts
from attnmt.documents.kept_words import core
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.translator_parts import checked_weights
from attnmt.errors import ConfigError
from attnmt.text.sentence_ends import closing_length


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


def readable_glued_point(flat, words, target, target_words, aligned, position):
    """glued_points.glued_point as it was: each point's atoms found among all marks, its word among all words."""
    def atoms_at(at):
        return [mark for mark in flat.marks if mark.atom and mark.start == at]

    def glued_word():
        nonlocal position
        atoms = atoms_at(position)
        if not atoms or atoms[-1].glued_after:
            return None
        while not atoms[0].glued_before:
            earlier = len(flat.text[:position].rstrip())
            atoms = atoms_at(earlier) if earlier < position else []
            if not atoms:
                return None
            position = earlier
        for k, (start, end) in enumerate(words):
            rest = flat.text[position:end]
            if start < position <= end and core(flat.text, start, end)[1] == position:
                return k if not rest or closing_length(rest) != len(rest) else None
        return None

    k = glued_word()
    if k is None:
        return None
    following = aligned([k + 1]) if k + 1 < len(words) else []
    return glued_points.letters_end(target, [target_words[t] for t in glued_points.letters_aligned(
        flat.text, words[k], aligned([k]), following)])


class ReadableProjector(spans.Projector):
    """spans.Projector with point and inside_closing as they were: every sentence and every word of
    the sentence gone through for each point."""

    def point(self, position):
        before = [i for i, (s, e) in enumerate(self.sentences) if e <= position]
        inside = [i for i, (s, e) in enumerate(self.sentences) if s < position < e]
        if not inside:
            if before:
                return self.target_spans[before[-1]][1] + position - self.sentences[before[-1]][1]
            return position if self.sentences else len(self.target)
        i = inside[0]
        following = [k for k, (ws, _) in enumerate(self.source_words[i]) if ws >= position]
        closed = self.inside_closing(i, position) if following else None
        inside_word = [k for k, (ws, we) in enumerate(self.source_words[i]) if ws < position < we]
        if closed is None and inside_word:
            closed = spans.kept_point(self.flat.text, self.source_words[i][inside_word[0]], self.target,
                                      [self.target_words[i][t] for t in self.aligned(i, inside_word)], position)
        if closed is None:
            closed = readable_glued_point(self.flat, self.source_words[i], self.target, self.target_words[i],
                                          lambda words: self.aligned(i, words), position)
        if closed is not None:
            return closed
        for k in following:
            best = self.most_attending(i, [k])
            if k in self.links[i] or best is not None:
                return self.target_words[i][min(self.links[i].get(k, [best]))][0]
        return self.before_closing(i, position)

    def inside_closing(self, i, position):
        for k, (ws, we) in enumerate(self.source_words[i]):
            rest = self.flat.text[position:we]
            if not ws < position < we or closing_length(rest) != len(rest):
                continue
            for t in self.aligned(i, [k]):
                ts, te = self.target_words[i][t]
                te = ts + len(self.target[ts:te].rstrip(",;:"))
                closing = min(closing_length(self.target[ts:te]), len(rest))
                if 0 < closing < te - ts:
                    return te - closing
        return None


class Readable:
    """The readable functions in place of the fast ones, for as long as the ``with`` lasts."""

    def __enter__(self):
        self.kept = nesting.part_words_in_place, translator_parts.checked_weights, spans.Projector
        nesting.part_words_in_place = readable_part_words_in_place
        translator_parts.checked_weights = readable_checked_weights
        spans.Projector = ReadableProjector

    def __exit__(self, *exc):
        nesting.part_words_in_place, translator_parts.checked_weights, spans.Projector = self.kept


WEIGHT = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), st.booleans(),
                   st.just(-0.0), st.sampled_from([1e308, 5e-324, "1", None]))


@settings(max_examples=50, deadline=None)
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


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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


def test_a_paragraph_of_line_breaks_takes_steps_in_proportion_to_them():
    """``a<br/>`` over and over: each break is a point, whose sentence, words and atoms were found by
    going through every sentence, word and mark of the paragraph (growth near 8); now by bisection
    and one index of the atoms by position."""
    assert growth(lambda n: translate_markup(["<p>" + "a<br/>" * n + "</p>"], Identity())) < 4


def test_a_paragraph_of_images_between_words_takes_steps_in_proportion_to_them():
    assert growth(lambda n: translate_markup(["<p>" + 'a <img src="x.png"/> ' * n + "</p>"], Identity())) < 4
    assert growth(lambda n: translate_markup(["<p>" + "a<sup>1</sup> " * n + "</p>"], Identity())) < 4


class Upper(Identity):
    """Identity's alignment, each sentence upper-cased: a word with a mark inside it is no longer the
    source's, so the mark is placed by its parts (attnmt.documents.kept_words.SameParts)."""

    def translate(self, sentences, weighed):
        return [s.upper() for s in sentences], super().translate(sentences, weighed)[1]


def test_a_markdown_paragraph_of_links_inside_brackets_takes_steps_in_proportion_to_them():
    """``[[1](x)](y)`` over and over, apart and as one word: each link inside the word had that word's
    parts found again (growth near 9 for the one word); now each word's parts are found once."""
    assert growth(lambda n: translate_markdown("[[1](x)](y) " * n + "\n", Upper())) < 4
    assert growth(lambda n: translate_markdown("See [[a b](x)](y). " * n + "\n", Upper())) < 4
    assert growth(lambda n: translate_markdown("[[1](x)](y)" * n + "\n", Upper())) < 4
