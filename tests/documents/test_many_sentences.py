"""A paragraph of thousands of marks that the model's length parts into thousands of sentences (a
real model reads each sentence on its own: ``<b>a b.</b> `` 4,000 times, or ``a. <img/> `` as often)
is translated with work in proportion to its marks, not to their square, and written as the readable
code below, kept here as the reference, writes it: which sentences need alignments, the controls a
mark holds at its translations' edges, the stop an atom shows after a sentence, where a long
sentence is parted, and the text added after an element's last child."""

import re
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import lines_run

from attnmt.decoding.glossary import Glossary
from attnmt.documents import markup_runs, no_break_spaces, pipeline, sentences, spans
from attnmt.documents.bidi import edges, held
from attnmt.documents.flat import SENTENCE_ENDS, FlatText, Mark, atom_text, is_stop
from attnmt.documents.markup import translate_markup
from attnmt.documents.sentences import CLAUSE_CUTS, SPACE_CUTS, fitting_parts
from attnmt.errors import collected_warnings
from attnmt.text.sentence_ends import closing_length


def readable_needs_alignment(flat, sentence_spans):
    """needs_alignment as it was, asked of one sentence at a time: every mark's edges gone through, and
    every no-break space between two words."""
    bound = [match.start() for match in re.finditer(r"(?<=\S)[\u00a0\u202f](?=\S)", flat.text)]
    return [any(start < edge < end for m in flat.marks for edge in (m.start, m.end))
            or any(start <= at < end for at in bound) for start, end in sentence_spans]


class ReadableProjector(spans.Projector):
    """spans.Projector with held_controls as it was: every sentence gone through for each mark."""

    def held_controls(self, mark, start, end):
        bounds = [0] + [e for _, e in self.sentences] + [len(self.flat.text)]
        for i, ((s, e), (ts, te)) in enumerate(zip(self.sentences, self.target_spans, strict=True)):
            if ts == start:
                start -= s - held(self.flat.text, s, max(mark.start, bounds[i]), -1)
            if te == end:
                following = self.sentences[i + 1][0] if i + 1 < len(self.sentences) else bounds[-1]
                end += held(self.flat.text, e, min(mark.end, following), 1) - e
        return start, end


def readable_without_added_end(atoms, sentence, translation):
    """without_added_end as it was: every mark of the text gone through for each sentence."""
    flat, (start, end) = atoms.flat, sentence
    source = flat.text[start:end].rstrip()
    words_end = start + len(source) - closing_length(source)
    if flat.text[start:words_end].rstrip()[-1:] in SENTENCE_ENDS:
        return translation
    after = [m for m in flat.marks if m.atom and not m.reference and m.start >= words_end
             and closing_length(gap := flat.text[words_end:m.start].rstrip()) == len(gap)]
    if not is_stop("".join(map(atom_text, after))):
        return translation
    kept = translation.rstrip()
    without = kept.rstrip(SENTENCE_ENDS).rstrip()
    closing = closing_length(without)
    words = without[:len(without) - closing].rstrip(SENTENCE_ENDS).rstrip()
    shorter = words + without[len(without) - closing:] if closing else without
    return shorter + translation[len(kept):] if words else translation


def readable_last_fitting(ends, fits):
    if not ends or not fits(ends[0]):
        return None
    good, step = 0, 1
    while good + step < len(ends) and fits(ends[good + step]):
        good, step = good + step, step * 2
    bad = min(good + step, len(ends))
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if fits(ends[middle]) else (good, middle)
    return ends[good]


def readable_fitting_parts(text, sentence_spans, fits, terms=()):
    """fitting_parts as it was: each part's cuts looked for in the whole rest of its sentence, each
    against every term."""
    def first_part_end(start, end):
        def part_fits(at):
            return fits(text[slice(*edges(text, start, at))])

        for cuts in (CLAUSE_CUTS, SPACE_CUTS):
            ends = [m.end() for m in cuts.finditer(text, start, end)
                    if start < m.start() and not any(s < m.start() < e for s, e in terms)]
            if (found := readable_last_fitting(ends, part_fits)) is not None:
                return found
        found = readable_last_fitting(range(start + 1, end), part_fits)
        return start + 1 if found is None else found

    parts = []
    for start, end in sentence_spans:
        while not fits(text[start:end]):
            cut = first_part_end(start, end)
            parts.append(edges(text, start, cut))
            start = edges(text, cut, end)[0]
        parts.append((start, end))
    return parts


def readable_add_text(element, text, entities):
    """add_text as it was: ``len(element)``, which lxml counts child by child, for each text."""
    pieces = re.split(f"([{re.escape(''.join(entities))}])", text) if entities else [text]
    for k, piece in enumerate(pieces):
        if k % 2:
            element.append(markup_runs.etree.Entity(entities[piece]))
        elif piece and len(element):
            element[-1].tail = (element[-1].tail or "") + piece
        elif piece:
            element.text = (element.text or "") + piece


class Readable:
    """The readable functions in place of the fast ones, for as long as the ``with`` lasts."""

    PLACES = ((pipeline, "needs_alignment", readable_needs_alignment), (spans, "Projector", ReadableProjector),
              (pipeline, "without_added_end", readable_without_added_end),
              (sentences, "fitting_parts", readable_fitting_parts), (markup_runs, "add_text", readable_add_text))

    def __enter__(self):
        self.kept = [getattr(module, name) for module, name, _ in self.PLACES]
        for module, name, readable in self.PLACES:
            setattr(module, name, readable)

    def __exit__(self, *exc):
        for (module, name, _), kept in zip(self.PLACES, self.kept, strict=True):
            setattr(module, name, kept)


class Uniform:
    """Each sentence its own translation, each word attending to every word alike; it reads at most
    ``longest`` characters, so a paragraph is parted into sentences that long."""

    glossary = None

    def __init__(self, longest: int = 40) -> None:
        self.fits = lambda sentence: len(sentence) <= longest

    def translate(self, texts, weighed):
        def weights(n):
            return [[1 / n] * n for _ in range(n)]

        return list(texts), [weights(len(s.split())) if w else None for s, w in zip(texts, weighed, strict=True)]


WORD = st.sampled_from(["a", "Dog", "runs.", "x,", "said;", "(b)", "«c»", '"yes."', "–", "2012", "ok!", "b)",
                        "\u2067d\u2069", "\u200fe", "f\u202c"])
ATOM = st.sampled_from(["<br/>", '<img src="p.png"/>', "<b>.</b>", "<i>!</i>", "<sup>1</sup>", "<wbr/>"])
GAP = st.sampled_from([" ", "", "  ", " . ", "\u2067 ", " \u2069", '" ', "» "])


def fragment(depth: int):
    pieces = [WORD, ATOM, GAP]
    if depth:
        inner = st.lists(fragment(depth - 1), min_size=0, max_size=4).map("".join)
        tag = st.sampled_from(["b", "i", "em", "span"])
        pieces.append(st.tuples(tag, inner).map(lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"))
    return st.one_of(*pieces)


PAGES = st.lists(fragment(2), min_size=1, max_size=16).map(lambda parts: f"<p>{''.join(parts)}</p>")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=PAGES, which=st.sampled_from(["uniform", "same", "mirror", "termed"]), longest=st.integers(3, 40))
def test_a_page_parted_into_many_sentences_is_written_as_the_readable_code_writes_it(page, which, longest, same,
                                                                                       mirror, termed):
    translator = {"uniform": Uniform(longest), "same": same, "mirror": mirror, "termed": termed}[which]
    if which != "uniform":
        translator.fits = lambda sentence: len(sentence) <= longest
    fast = translate_markup([page], translator)
    with Readable():
        readable = translate_markup([page], translator)
    assert fast == readable


TEXT = st.lists(st.sampled_from(["a", "bb", "ccc", " ", "  ", ", ", "; ", ": ", " – ", " — ", "–", "\u200e", ",",
                                 "\u2067", "\t"]), max_size=30).map("".join)


@settings(max_examples=50, deadline=None)
@given(text=TEXT, longest=st.integers(1, 12), data=st.data())
def test_a_long_sentence_is_parted_where_the_readable_code_parts_it(text, longest, data):
    """Terms (a glossary's, which no cut may fall inside) may overlap; text of cuts alone (" – – ")
    starts a part inside a cut."""
    def fits(sentence):
        return len(sentence) <= longest

    n = len(text)
    terms = data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)).map(sorted).map(tuple), max_size=4))
    stripped = edges(text, 0, n)
    whole = [stripped] if stripped[0] < stripped[1] else []
    assert fitting_parts(text, whole, fits, terms) == readable_fitting_parts(text, whole, fits, terms)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)).map(sorted), max_size=8),
       st.lists(st.integers(0, 30), max_size=10))
def test_the_sentences_that_need_alignments_are_those_the_readable_code_finds(mark_spans, cuts):
    flat = FlatText("x x\u00a0x" * 6, [Mark(start, end) for start, end in mark_spans])
    bounds = sorted(set(cuts))
    sentence_spans = list(pairwise(bounds))
    assert no_break_spaces.needs_alignment(flat, sentence_spans) == readable_needs_alignment(flat, sentence_spans)


def growth(page) -> float:
    """How many times the lines of attnmt run grow from a page of 300 marks to one of 1,200."""
    few, many = (lines_run(lambda n=n: page(n)) for n in (300, 1200))
    return many / few


def test_a_paragraph_of_bold_sentences_parted_by_the_models_length_takes_steps_in_proportion_to_them():
    """``<b>a b.</b> `` over and over, parted into sentences of 40 characters: each mark went through
    every sentence for the controls at its translation's edges, each sentence through every mark's
    edges, and each part's cuts were looked for in the whole rest of the paragraph (growth near 9
    for 4 times the marks); now each is found by bisection (growth near 4)."""
    assert growth(lambda n: translate_markup(["<p>" + "<b>a b.</b> " * n + "</p>"], Uniform())) < 4.5


def test_a_paragraph_of_sentences_and_images_takes_steps_in_proportion_to_them():
    """``a. <img/> ``: each sentence went through every mark for the atoms that show its stop."""
    assert growth(lambda n: translate_markup(["<p>" + 'a. <img src="x.png"/> ' * n + "</p>"], Uniform())) < 4.5


def test_a_paragraph_of_stops_kept_in_markup_takes_steps_in_proportion_to_them():
    """``a b<i>.</i> ``: a sentence whose stop an atom after it shows went through every mark of the
    paragraph for those atoms; now it finds them by bisection."""
    assert growth(lambda n: translate_markup(["<p>" + "a b<i>.</i> " * n + "</p>"], Uniform())) < 4.5


def test_a_paragraph_of_glossary_terms_takes_steps_in_proportion_to_them():
    """``2012. ``, a term in each sentence: each sentence went through every term of the paragraph
    for one that runs across it and the one before."""
    translator = Uniform()
    translator.glossary = Glossary.of({"2012": "zweitausendzwölf"})
    assert growth(lambda n: translate_markup(["<p>" + "2012. " * n + "</p>"], translator)) < 4.5


def test_the_text_after_each_of_thousands_of_images_is_added_without_counting_them(monkeypatch):
    """lxml counts an element's children one by one for ``len(element)``: asked once for each text
    after an image, of a paragraph of them, it went through 1 + 2 + ... + n children."""
    counted = []

    def counting_len(thing):
        n = len(thing)
        if isinstance(thing, markup_runs.etree._Element):
            counted.append(n)
        return n

    monkeypatch.setattr(markup_runs, "len", counting_len, raising=False)
    for n in (300, 1200):
        counted.clear()
        translate_markup(["<p>" + 'a. <img src="x.png"/> ' * n + "</p>"], Uniform())
        assert sum(counted) < 20 * n


def test_the_terms_around_a_place_or_across_a_gap_are_found_by_bisection():
    across = sentences.terms_across([(10, 12), (2, 8), (3, 5)])
    assert [p for p in range(14) if across(p, p)] == [3, 4, 5, 6, 7, 11]
    # (2, 8) runs from before 3..7 to after as far as 7; (10, 12) from before 11 to after 11
    assert [(before, after) for before in range(14) for after in range(before, 14) if across(before, after)] == [
        (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (4, 4), (4, 5), (4, 6), (4, 7), (5, 5), (5, 6), (5, 7), (6, 6),
        (6, 7), (7, 7), (11, 11)]


def readable_across_terms(text, sentence_spans, terms, breaks, fits=None):
    """across_terms as it was: every term gone through for each sentence."""
    joined = []
    for start, end in sentence_spans:
        across = [(s, e) for s, e in terms if joined and s < joined[-1][1] and e > start]
        if not across:
            joined.append((start, end))
        elif any(joined[-1][1] <= b <= start for b in breaks):
            s, e = across[0]
            sentences.warn(f"across fields {text[s:e]!r}")
            joined.append((start, end))
        elif fits is None or fits(text[joined[-1][0]:end]):
            joined[-1] = (joined[-1][0], end)
        else:
            s, e = across[0]
            sentences.warn(f"too long {text[s:e]!r}")
            joined.append((start, end))
    return joined


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=12), st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)),
                                                            max_size=6),
       st.lists(st.integers(0, 40), max_size=3), st.integers(1, 40))
def test_sentences_are_joined_across_terms_as_the_readable_code_joins_them(cuts, terms, breaks, longest):
    """Terms in any order, overlapping or not; the term each warning names is the same too."""
    text = "abcdefghij" * 4
    bounds = sorted(set(cuts))
    sentence_spans = list(pairwise(bounds))[::2]

    def outcome(join):
        named = []
        kept, sentences.warn = sentences.warn, lambda message: named.append(message.split("'")[1])
        try:
            return join(text, sentence_spans, terms, sorted(breaks), lambda s: len(s) <= longest), named
        finally:
            sentences.warn = kept

    assert outcome(sentences.across_terms) == outcome(readable_across_terms)


def test_a_paragraph_of_terms_across_sentences_beside_thousands_of_fields_takes_steps_in_proportion_to_them():
    """``Wham! Guide `` 300 and 1,200 times, a term across each two sentences, then as many fields
    (``x<tab>``): each two sentences went through every tab of the paragraph for one between them
    (growth near 9 for 4 times the terms); now the first tab after the first sentence is found by bisection."""
    glossary = Glossary.of({"Wham! Guide": "Wham! Führer"})

    def spans(n):
        text = "Wham! Guide " * n + "x\t" * n
        return sentences.sentence_spans(text, breaks=[m.start() for m in re.finditer("\t", text)], glossary=glossary)

    assert growth(spans) < 4.5


def test_a_paragraph_of_terms_across_fields_warns_of_them_in_steps_in_proportion_to_them():
    """``Wham!<tab>Guide<tab>`` 300 and 1,200 times: the term (its tab read as a space) runs across
    each two fields, which are translated apart, and each warning went through every term from the
    first for the one to name (growth near 10 for 4 times the terms); now the terms wait in a heap
    in their order, each dropped once it ends before the fields still to come."""
    glossary = Glossary.of({"Wham! Guide": "Wham! Führer"})

    def spans(n):
        text = "Wham!\tGuide\t" * n
        return sentences.sentence_spans(text, breaks=[m.start() for m in re.finditer("\t", text)], glossary=glossary)

    with collected_warnings() as heard:
        assert growth(spans) < 4.5
    assert [str(warning).split("'")[1] for warning in heard] == ["Wham!\\tGuide"]


def test_a_paragraph_parted_into_thousands_of_sentences_is_handed_to_fits_a_few_times_not_once_a_sentence():
    """``a b `` 1,000 and 4,000 times, parted into sentences of 40 characters: after each part the
    whole rest of the paragraph was handed to ``fits`` (a real model's tokenizes it), 230,610
    characters in all, then 3,323,310; now a beginning of the rest about twice the part's length is
    handed first, and that one does not fit tells that the rest does not (40,684, then 163,984)."""
    handed = []
    translator = Uniform()
    translator.fits = lambda sentence: handed.append(len(sentence)) or len(sentence) <= 40
    totals = []
    for n in (1000, 4000):
        handed.clear()
        translate_markup(["<p>" + "a b " * n + "</p>"], translator)
        totals.append(sum(handed))
    assert totals[1] < 4.5 * totals[0]
    assert totals[0] < 12 * len("a b ") * 1000


PIECES = re.compile(r"\w+|[^\w\s]")  # what a tokenizer might count: each word, each other character


@settings(max_examples=50, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "bb", "ccc", "dddd", " ", "  ", ", ", "; ", " – ", "\u200e", ".",
                                      "\u2067", "\t"]), max_size=120).map("".join),
       longest=st.integers(1, 12), data=st.data())
def test_a_long_sentence_is_parted_where_the_readable_code_parts_it_by_a_models_count_of_pieces(text, longest,
                                                                                                 data):
    """``fits`` counting words and other characters, as a tokenizer's pieces, not characters; texts
    long enough for many parts, each rest asked of its beginnings first."""
    def fits(sentence):
        return len(PIECES.findall(sentence)) <= longest

    n = len(text)
    terms = data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)).map(sorted).map(tuple), max_size=4))
    stripped = edges(text, 0, n)
    whole = [stripped] if stripped[0] < stripped[1] else []
    assert fitting_parts(text, whole, fits, terms) == readable_fitting_parts(text, whole, fits, terms)


def test_the_beginnings_of_a_rest_handed_to_fits_end_at_a_space_not_inside_a_word():
    """A subword tokenizer may read a word's first letters in more pieces than the whole word, so a
    beginning cut inside a word could fail to fit where the whole rest fits."""
    handed = []
    text = " ".join(["abcd", "efg"] * 100)
    fitting_parts(text, [(0, len(text))], lambda sentence: handed.append(sentence) or len(sentence) <= 40)
    assert {word for sentence in handed for word in sentence.split()} == {"abcd", "efg"}
