"""A page's quote whose words hold an element (attnmt.documents.split_quotes): read as one quote, the model given its
words without their marks, and written around their translation in the target language's form, the element inside
it; one an element crosses stays as written.  Upper upper-cases each sentence, Mirror reverses its words too."""

import pytest

from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions, translate_lines

GERMAN = DocumentOptions(target_lang="de")


@pytest.mark.parametrize("page, given, written", [
    ('<p>He said "<b>hello</b> there" and left.</p>', "He said hello there and left.",
     "<p>HE SAID „<b>HELLO</b> THERE“ AND LEFT.</p>"),
    ('<li>Click "<span class="ui">Save</span> as" then.</li>', "Click Save as then.",
     '<li>CLICK „<span class="ui">SAVE</span> AS“ THEN.</li>'),
    ('<p>Read “the <a href="/g">guide</a>” first.</p>', "Read the guide first.",
     '<p>READ „THE <a href="/g">GUIDE</a>“ FIRST.</p>'),
    ("<td>She wrote «<i>bonjour</i> à tous» hier.</td>", "She wrote bonjour à tous hier.",
     "<td>SHE WROTE „<i>BONJOUR</i> À TOUS“ HIER.</td>"),
    ("<p>A man reads '<em>The</em> Times' now.</p>", "A man reads The Times now.",
     "<p>A MAN READS ‚<em>THE</em> TIMES‘ NOW.</p>"),
    ('<p><i>He said "<b>yes</b>" and "no <a href="/n">way</a>".</i></p>', "He said yes and no way.",
     '<p><i>HE SAID „<b>YES</b>“ AND „NO <a href="/n">WAY</a>“.</i></p>'),
])
def test_a_quote_whose_words_hold_an_element_is_read_as_one_quote(upper, page, given, written):
    """Read as words, the quote's marks lost their pairing and English's form ("He said "hello there" and left.")."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == [given]


def test_a_split_quote_wraps_its_words_where_the_translation_puts_them(mirror):
    page = '<p>He said "<b>hello</b> there" and left.</p>'
    assert translate_markup([page], mirror, GERMAN) == ["<p>LEFT. AND „THERE <b>HELLO</b>“ SAID HE</p>"]


def test_a_comma_ending_a_split_quote_goes_after_it_in_german(upper):
    page = '<p>"<b>Hello</b> there," she said.</p>'
    assert translate_markup([page], upper, GERMAN) == ["<p>„<b>HELLO</b> THERE“, SHE SAID.</p>"]
    assert upper.given == ["Hello there, she said."]


@pytest.mark.parametrize("page, kept", [
    ('<p>A "<b>bold" word</b> and "<i>this</i> one" here.</p>', 'A "<b>BOLD" WORD</b>'),  # <b> crosses its mark
    ('<p>Use <code>"a</code> or <b>b</b>" and "<i>this</i> one" here.</p>', '<code>"a</code> OR <b>B</b>"'),
])
def test_a_quote_an_element_crosses_or_code_opens_stays_as_written_beside_one_read(upper, page, kept):
    out = translate_markup([page], upper, GERMAN)[0]
    assert kept in out and "AND „<i>THIS</i> ONE“ HERE." in out


def test_a_markdown_paragraphs_quote_around_emphasis_is_read_as_one_quote(upper):
    assert translate_markdown('He said "**hello** there" and left.\n', upper, GERMAN) == (
        "HE SAID „**HELLO** THERE“ AND LEFT.\n")
    assert upper.given == ["He said hello there and left."]


@pytest.mark.parametrize("page, given, written", [
    ('<p>"<b>Hello</b> there."</p>', ["Hello there."], "<p>„<b>HELLO</b> THERE.“</p>"),
    ("<p>'<i>A man</i> is sleeping.'</p>", ["A man is sleeping."], "<p>‚<i>A MAN</i> IS SLEEPING.‘</p>"),
    ("<li>“Click <a href=\"/s\">Save</a> now.”</li>", ["Click Save now."],
     '<li>„CLICK <a href="/s">SAVE</a> NOW.“</li>'),
    ("<td>«<em>Deux</em> chiens jouent.»</td>", ["Deux chiens jouent."], "<td>„<em>DEUX</em> CHIENS JOUENT.“</td>"),
    ('<p>"<b>A dog</b> runs. <i>A man</i> sleeps."</p>', ["A dog runs.", "A man sleeps."],
     "<p>„<b>A DOG</b> RUNS. <i>A MAN</i> SLEEPS.“</p>"),
])
def test_a_quote_around_a_whole_sentence_whose_words_hold_an_element_is_read_as_one_quote(upper, page, given,
                                                                                         written):
    """Left to the sentence's edges, its marks went to the model as words: Mirror wrote THERE." "<b>HELLO</b>."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == given


def test_a_quote_around_a_whole_sentence_stays_a_pair_where_the_translation_reorders_its_words(mirror):
    assert translate_markup(['<p>"<b>Hello</b> there."</p>'], mirror, GERMAN) == ["<p>„THERE. <b>HELLO</b>“</p>"]


def test_a_whole_sentences_guillemets_stay_a_pair_where_the_model_cannot_write_them(dropping):
    """The demo model, which writes no », wrote «<b>Ein Hund</b> rennt. for «<b>A dog</b> runs.»."""
    assert translate_markup(["<p>«<b>A dog</b> runs.»</p>"], dropping, GERMAN) == ["<p>„RUNS. <b>DOG A</b>“</p>"]


@pytest.mark.parametrize("page, given, written", [
    ('<p>"Hello <code>x.py</code>"</p>', ["Hello"], "<p>„HELLO <code>x.py</code>“</p>"),
    ("<li>“<code>x.py</code> is broken.”</li>", ["is broken."], "<li>„<code>x.py</code> IS BROKEN.“</li>"),
    ("<td>«Lancez <code>make test</code>»</td>", ["Lancez"], "<td>„LANCEZ <code>make test</code>“</td>"),
    ("<p>'Run <code>make test</code> now.'</p>", ["Run now."], "<p>‚RUN <code>make test</code> NOW.‘</p>"),
    ('<p>He said "open <code>x.py</code>" and left.</p>', ["He said open and left."],
     "<p>HE SAID „OPEN <code>x.py</code>“ AND LEFT.</p>"),
    ('<p>He said "<code>x.py</code> is broken" here.</p>', ["He said is broken here."],
     "<p>HE SAID „<code>x.py</code> IS BROKEN“ HERE.</p>"),
])
def test_a_quote_whose_words_hold_kept_code_is_read_as_one_quote(upper, page, given, written):
    """<p>"Hello <code>x.py</code>"</p> gave the model '"Hello "', its quotes as words around a space (the demo model's
    garbled translation kept the English); one word of the quote and the code spaced as without the quote."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == given


def test_a_quote_around_kept_code_alone_stays_as_written(upper):
    assert translate_markup(['<p>"<code>pip install attnmt</code>"</p>'], upper, GERMAN) == [
        '<p>"<code>pip install attnmt</code>"</p>']


@pytest.mark.parametrize("page, given, written", [
    ('<p>Use "<code>npm install</code>" now.</p>', "Use now.", '<p>USE "<code>npm install</code>" NOW.</p>'),
    ('<li>Open “<a href="/r">report.pdf</a>”, then save.</li>', "Open, then save.",
     '<li>OPEN “<a href="/r">report.pdf</a>”, THEN SAVE.</li>'),
    ("<td>Lancez « <code>make test</code> » ici.</td>", "Lancez ici.",
     "<td>LANCEZ « <code>make test</code> » ICI.</td>"),
    ('<p>"<samp>x.py</samp>" is broken.</p>', "is broken.", '<p>"<samp>x.py</samp>" IS BROKEN.</p>'),
    ('<p>Read „<a href="https://x.org">https://x.org</a>“.</p>', "Read.",
     '<p>READ „<a href="https://x.org">https://x.org</a>“.</p>'),
    ("<p>Open 'report.pdf' in the browser.</p>", "Open in the browser.", "<p>OPEN 'report.pdf' IN THE BROWSER.</p>"),
])
def test_a_quote_around_kept_code_alone_among_words_goes_with_it_as_written(upper, page, given, written):
    """The model read the quotes around nothing, 'Use " " now.' (the demo model dropped them: Ein Mann mit freiem
    <code>npm install</code> Oberkörper.); they go with the code, as written, as a text line's go with a file's name."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == [given]


def test_a_quote_around_kept_code_alone_goes_where_the_code_goes(mirror):
    assert translate_markup(['<p>Use "<code>npm install</code>" now.</p>'], mirror, GERMAN) == [
        '<p>"<code>npm install</code>" NOW. USE</p>']


@pytest.mark.parametrize("line, given, written", [
    ('"Hello x.py"', ["Hello"], "„HELLO x.py“"),
    ('"Open report.pdf now."', ["Open now."], "„OPEN report.pdf NOW.“"),
    ("«Voir https://example.org»", ["Voir"], "„VOIR https://example.org“"),
    ('He said "open x.py"', ["He said open"], "HE SAID „OPEN x.py“"),
])
def test_a_text_lines_quote_whose_words_hold_what_is_kept_is_read_as_one_quote(upper, line, given, written):
    """A page's rule in a text line: '"Hello x.py"' gave the model '"Hello "'; a quote ending the line in a kept file
    name came back with a space after it too (HE SAID „OPEN x.py“ )."""
    assert translate_lines([line], upper, GERMAN) == [written]
    assert upper.given == given


@pytest.mark.parametrize("line, written", [
    ('He said "open x.py"', "„OPEN x.py“ SAID HE"),
    ("He said **open x.py**", "**OPEN x.py** SAID HE"),
    ("She wrote 'see https://example.org'", "‚SEE https://example.org‘ WROTE SHE"),
])
def test_a_text_line_ending_in_no_space_ends_its_translation_in_none(mirror, line, written):
    """The space before a kept name that ended a quote stayed at the line's end where the words went first."""
    assert translate_lines([line], mirror, GERMAN) == [written]


@pytest.mark.parametrize("line, given, written", [
    ('"Two **dogs** play in the snow."', ["Two dogs play in the snow."], "„TWO **DOGS** PLAY IN THE SNOW.“"),
    ("\"He said 'hello' to me.\"", ["He said hello to me."], "„HE SAID ‚HELLO‘ TO ME.“"),
    ("“Read [the guide](guide) first.”", ["Read the guide first."], "„READ [THE GUIDE](guide) FIRST.“"),
    ("«A ~~red~~ car stops.»", ["A red car stops."], "„A ~~RED~~ CAR STOPS.“"),
])
def test_a_text_lines_quote_around_all_of_it_whose_words_hold_marks_is_read_as_a_pages_is(upper, line, given, written):
    """Left to the sentence's edges, its words' emphasis, link or quote was never read: the model was given '"Two
    **dogs** play in the snow."' (the demo model wrote Zwei Krankenschwestern), 'He said 'hello' to me.' its quotes."""
    assert translate_lines([line], upper, GERMAN) == [written]
    assert upper.given == given


def test_a_pages_quote_around_a_quote_is_read_as_two(upper):
    assert translate_markup(["<p>\"He said 'hello' to me.\"</p>"], upper, GERMAN) == ["<p>„HE SAID ‚HELLO‘ TO ME.“</p>"]
    assert upper.given == ["He said hello to me."]


@pytest.mark.parametrize("page, given, written", [
    ('<p>"A dog runs.<sup>1</sup>"</p>', ["A dog runs."], "<p>„A DOG RUNS.<sup>1</sup>“</p>"),
    ('<li>“A man sleeps.<sup><a href="#fn2">2</a></sup>” A dog runs.</li>', ["A man sleeps.", "A dog runs."],
     '<li>„A MAN SLEEPS.<sup><a href="#fn2">2</a></sup>“ A DOG RUNS.</li>'),
    ('<td>«Deux chiens jouent.<a href="#n3">[3]</a>»</td>', ["Deux chiens jouent."],
     '<td>„DEUX CHIENS JOUENT.<a href="#n3">[3]</a>“</td>'),
    ('<p>"A dog runs,<sup>4</sup>" he said.</p>', ["A dog runs, he said."],
     "<p>„A DOG RUNS,<sup>4</sup>“ HE SAID.</p>"),
])
def test_a_quote_whose_words_end_in_a_notes_reference_is_read_as_one_quote(upper, page, given, written):
    """The reference parted the stop from the closing quote: the model read '"A dog runs. "', and the demo model wrote
    Ein großer Hund rennt <sup>1</sup> mit der Aufschrift „E“., a space before the note's mark."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == given


def test_a_notes_reference_between_a_stop_and_a_bracket_parts_nothing(upper):
    assert translate_markup(["<p>(A dog runs.<sup>1</sup>)</p>"], upper, GERMAN) == ["<p>(A DOG RUNS.<sup>1</sup>)</p>"]
    assert upper.given == ["(A dog runs.)"]


@pytest.mark.parametrize("page, given, written", [
    ("<p>The file (<code>config.yml</code>) holds the settings.</p>", "The file holds the settings.",
     "<p>THE FILE (<code>config.yml</code>) HOLDS THE SETTINGS.</p>"),
    ('<li>See [<a href="https://x.org">https://x.org</a>] now.</li>', "See now.",
     '<li>SEE [<a href="https://x.org">https://x.org</a>] NOW.</li>'),
])
def test_brackets_around_kept_code_alone_go_with_it_as_written(upper, page, given, written):
    """The model read "The file ( ) holds the settings.", as a text line's "(report.pdf)" is read without them."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == [given]


@pytest.mark.parametrize("page, given, written", [
    ('<p>Note (<a href="#fn1">1</a>) here.</p>', "Note here.", '<p>NOTE (<a href="#fn1">1</a>) HERE.</p>'),
    ('<li>See the cat [<a href="#n12">12</a>] sleep.</li>', "See the cat sleep.",
     '<li>SEE THE CAT [<a href="#n12">12</a>] SLEEP.</li>'),
    ('<td>A bird sings (<sup><a href="#fn3">3</a></sup>) at dawn.</td>', "A bird sings at dawn.",
     '<td>A BIRD SINGS (<sup><a href="#fn3">3</a></sup>) AT DAWN.</td>'),
])
def test_brackets_around_a_notes_reference_alone_go_with_it(upper, page, given, written):
    """The model read "Note () here.": brackets around a kept note reference are the reference's, as around code."""
    assert translate_markup([page], upper, GERMAN) == [written]
    assert upper.given == [given]


def test_brackets_around_a_footnotes_reference_in_markdown_go_with_it(upper):
    text = "A cat sleeps ([^2]) all day.\n\n[^2]: Cats sleep.\n"
    assert translate_markdown(text, upper) == "A CAT SLEEPS ([^2]) ALL DAY.\n\n[^2]: CATS SLEEP.\n"
    assert upper.given == ["A cat sleeps all day.", "Cats sleep."]
