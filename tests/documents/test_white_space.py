"""Elements styled to show their line breaks (attnmt.documents.white_space): each line break of their text stays
where it stood between the translated words, as a <br> does, and the lines are read as a <br>'s are."""

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


@pytest.mark.parametrize("style", ["white-space: pre-line", "white-space:pre", "white-space: pre-wrap",
                                   "color: red; WHITE-SPACE: Break-Spaces", "white-space-collapse: preserve-breaks"])
def test_an_address_in_a_block_styled_to_keep_its_lines_keeps_them(upper, style):
    """It came back on one line, "ANNA SMITH 12 MAIN STREET SPRINGFIELD", read as one sentence."""
    page = f'<p style="{style}">Anna Smith\n12 Main Street\nSpringfield</p>'
    assert translate_markup([page], upper) == [f'<p style="{style}">ANNA SMITH\n12 MAIN STREET\nSPRINGFIELD</p>']
    assert upper.given == ["Anna Smith", "12 Main Street", "Springfield"]


def test_a_poems_line_break_goes_with_the_word_that_followed_it(mirror):
    """A line that goes on in lower case goes on with its sentence, as after a <br>, and the break lands before
    the translation of the word after it (Mirror turns the words round)."""
    page = '<p style="white-space: pre-line">Roses are red,\nviolets are blue.\nAnna</p>'
    assert translate_markup([page], mirror) == [
        '<p style="white-space: pre-line">BLUE. ARE\nVIOLETS RED, ARE ROSES\nANNA</p>']
    assert mirror.given == ["Roses are red, violets are blue.", "Anna"]


def test_a_letters_indents_and_empty_lines_come_back_as_written(upper):
    """The spacing around each line break is the break's own: an indent under pre-wrap, an empty line between
    two paragraphs (which ends the sentence before it, a lower-case line after it or not)."""
    page = '<div style="white-space: pre-wrap">\n  Dear Anna,\n\n  thank you for the book.\n  Tom\n</div>'
    assert translate_markup([page], upper) == [
        '<div style="white-space: pre-wrap">\n  DEAR ANNA,\n\n  THANK YOU FOR THE BOOK.\n  TOM\n</div>']
    assert upper.given == ["Dear Anna,", "thank you for the book.", "Tom"]


def test_the_style_is_inherited_and_an_element_of_its_own_style_ends_it(upper):
    page = ('<div style="white-space: pre-line"><p>Line one\nLine two</p>'
            '<p style="white-space: normal">Joined\nwords <span style="white-space: pre">in\nhere</span> now</p></div>')
    assert translate_markup([page], upper) == [
        '<div style="white-space: pre-line"><p>LINE ONE\nLINE TWO</p>'
        '<p style="white-space: normal">JOINED WORDS <span style="white-space: pre">IN\nHERE</span> NOW</p></div>']
    assert upper.given == ["Line one", "Line two", "Joined words in here now"]


def test_kept_atoms_stay_on_their_lines(upper):
    """An e-mail address and a URL inside lines: the model reads neither, and each keeps its line."""
    page = '<p style="white-space: pre-line">Mail a@example.com today,\ncall https://b.example/y soon.\nThanks</p>'
    assert translate_markup([page], upper) == [
        '<p style="white-space: pre-line">MAIL a@example.com TODAY,\nCALL https://b.example/y SOON.\nTHANKS</p>']
    assert upper.given == ["Mail today, call soon.", "Thanks"]


@pytest.mark.parametrize("page, translated", [
    ('<p>A dog <span style="white-space:pre">runs\nfast</span> now.</p>',
     '<p>NOW.<span style="white-space:pre">\nFAST RUNS</span> DOG A</p>'),
    ('<p>We <em style="white-space: pre-wrap">sell\n  books</em> here.</p>',
     '<p>HERE.<em style="white-space: pre-wrap">\n  BOOKS SELL</em> WE</p>'),
    ('<p>Hello <span style="white-space:pre">a\nb</span></p>',
     '<p><span style="white-space:pre">B A\n</span>HELLO</p>')])
def test_a_line_break_kept_by_an_inline_style_stays_inside_its_element(mirror, page, translated):
    """The break lands at the start of the element's translation (before the word that followed it), and was moved
    out of it as padding: outside, where white-space is normal, it showed as a space ("NOW. \\n<span>FAST RUNS"),
    or was lost at the block's start.  Where that start is the translation's, it goes to the gap between words
    nearest its share of the source (attnmt.documents.inner_breaks), still inside its element."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize("style", ["white-space: pre-wrap", "white-space:pre", "white-space: break-spaces",
                                   "white-space-collapse: preserve"])
def test_runs_of_spaces_and_tabs_a_style_keeps_come_back_as_written(upper, style):
    """Under pre-wrap (not pre-line) a browser shows every space and tab: "Name:   Anna" lined up in columns came
    back "NAME: ANNA", read as one space.  The model still reads one, and each run is written back as it was."""
    page = f'<div style="{style}">  Name:   Anna\tSmith\nCity:\t\tBerlin  </div>'
    assert translate_markup([page], upper) == [f'<div style="{style}">  NAME:   ANNA\tSMITH\nCITY:\t\tBERLIN  </div>']
    assert upper.given == ["Name: Anna Smith", "City: Berlin"]


def test_a_run_of_spaces_goes_with_the_word_after_it_and_stays_out_of_a_tag_beside_it(mirror):
    """As a kept line break does: before the translation of the word that followed it (Mirror turns the words
    round), and outside the <b> that followed it, which took it in as the space at its edge."""
    page = '<p style="white-space: pre-wrap">Go to  https://a.example/x  now  <b>please</b>.</p>'
    assert translate_markup([page], mirror) == [
        '<p style="white-space: pre-wrap"><b>PLEASE</b>.  https://a.example/x  NOW TO GO</p>']
    assert mirror.given == ["Go to now please."]


@pytest.mark.parametrize("page, read", [
    ('<p style="white-space: pre-wrap">Total:  <b>12 €</b>  today.</p>', ["Total: today."]),
    ('<p style="white-space: pre-wrap">Pay\t<i>5 €</i>\tnow.</p>', ["Pay now."])])
def test_an_element_after_kept_spacing_starts_after_the_space_that_parts_the_words(unitless, page, read):
    """The space that keeps the words either side of kept spacing (or a line break) two was the element's, so a price
    that fills it no longer did: the model read "Total:  today.", and the page came back with a space more."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == read


@pytest.mark.parametrize("page, translated", [
    ('<p>A dog<br><b>runs fast</b> today.</p>', '<p>TODAY. <b>FAST RUNS</b><br>DOG A</p>'),
    ('<p style="white-space: pre-line">A dog\n<b>runs fast</b> today.</p>',
     '<p style="white-space: pre-line">TODAY. <b>FAST RUNS</b>\nDOG A</p>')])
def test_an_element_after_a_line_break_keeps_the_space_before_it_outside(mirror, page, translated):
    """The space that parts the words either side of the break was the bold's first character, and came back inside
    it ("TODAY.<b> FAST RUNS</b>"), where an underline or a link's background shows on it."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize("page, read", [
    ('<p style="white-space: pre-wrap"><span>A </span> <span>dog</span> runs.</p>', "A dog runs."),
    ('<p style="white-space: pre">A <b> dog</b> runs <i>fast </i> today.</p>', "A dog runs fast today.")])
def test_two_spaces_in_two_elements_texts_are_a_run_too(same, page, read):
    """A space at the start of a text after one that the text before ended in was dropped, as HTML's collapsing says;
    a style that keeps spaces shows both."""
    assert translate_markup([page], same) == [page]
    assert same.given == [read]


@pytest.mark.parametrize("page, translated", [
    ('<p>Hello <span style="white-space:pre">Anna\nSmith</span> today.</p>',
     '<p><span style="white-space:pre">ANNA</span> HELLO<span style="white-space:pre">\n</span>TODAY. '
     '<span style="white-space:pre">SMITH</span></p>'),
    ('<p>Guten Tag <em style="color: red; white-space: pre-line">liebe Anna\n\nSchmidt</em></p>',
     '<p><em style="color: red; white-space: pre-line">ANNA LIEBE</em> TAG GUTEN'
     '<em style="color: red; white-space: pre-line">\n\nSCHMIDT</em></p>'),
    ('<p>Hi there <span style="white-space:pre-wrap">dear Anna.   Smith and</span> Tom now.</p>',
     '<p><span style="white-space:pre-wrap">ANNA. DEAR</span> THERE HI<span style="white-space:pre-wrap">   </span>'
     'NOW. TOM <span style="white-space:pre-wrap">AND SMITH</span></p>'),
    ('<p>I met <b><span style="white-space:pre">Anna.\n  Bob met Carl</span></b> and Tom.</p>',
     '<p><b><span style="white-space:pre">ANNA.</span></b> MET I<span style="white-space:pre">\n  </span>'
     'TOM. AND <b><span style="white-space:pre">CARL MET BOB</span></b></p>'),
    ('<p>We met <span style="white-space:pre"><i>Anna\nBob</i></span> today.</p>',
     '<p><span style="white-space:pre"><i>ANNA</i></span> MET WE<span style="white-space:pre"><i>\n</i></span>'
     'TODAY. <span style="white-space:pre"><i>BOB</i></span></p>')])
def test_kept_whitespace_between_the_parts_of_an_element_a_sentence_end_cuts_stays_inside_a_copy_of_it(
        mirror, page, translated):
    """Its words went apart, so the element is written once in each sentence (attnmt.documents.sentence_marks), and
    the break or the run of spaces between the sentences went to the element around it, where white-space is normal:
    it showed as one space ("HELLO\\nTODAY." read "HELLO TODAY.").  A copy of the styled element (with what is inside
    it around the break) holds it alone."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize("page, translated", [
    ('<p>Hello <span style="white-space:pre">Anna\nSmith</span></p>',
     '<p><span style="white-space:pre">ANNA</span> HELLO<span style="white-space:pre">\nSMITH</span></p>'),
    ('<p>Hi <em style="white-space:pre-wrap">dear Anna.   Smith and Tom</em></p>',
     '<p><em style="white-space:pre-wrap">ANNA. DEAR</em> HI'
     '<em style="white-space:pre-wrap">   TOM AND SMITH</em></p>'),
    ('<p>We met <span style="white-space:pre"><i>Anna\nBob</i></span></p>',
     '<p><span style="white-space:pre"><i>ANNA</i></span> MET WE'
     '<span style="white-space:pre"><i>\nBOB</i></span></p>'),
])
def test_kept_whitespace_in_a_copy_right_beside_a_part_of_its_element_joins_that_part(mirror, page, translated):
    """The copy that holds the break stood beside the element's next part: ``<span>\\n</span><span>SMITH</span>``,
    one element written as two."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize("page, translated", [
    ('<p>Hello <a href="/x" style="white-space:pre">Anna\nSmith</a> today.</p>',
     '<p><a href="/x" style="white-space:pre">ANNA</a> HELLO\nTODAY. '
     '<a href="/x" style="white-space:pre">SMITH</a></p>'),
    ('<p>Hi <b><a href="/y" style="white-space:pre-wrap">dear Anna.   Smith</a></b> now.</p>',
     '<p><b><a href="/y" style="white-space:pre-wrap">ANNA. DEAR</a></b> HI   NOW. '
     '<b><a href="/y" style="white-space:pre-wrap">SMITH</a></b></p>'),
])
def test_kept_whitespace_between_the_parts_of_a_link_is_in_no_copy_of_the_link(mirror, page, translated):
    """A copy of the link around a break alone was one more link, to nothing a reader sees: the spacing goes outside
    it, where it shows as one space, as it did before copies."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize(("page", "given", "written"), [
    ("<p>A man walks in the park\nand a woman reads.</p>", ["A man walks in the park", "and a woman reads."],
     "<p>A MAN WALKS IN THE PARK\nAND A WOMAN READS.</p>"),
    ("<div>\n  Dear Anna,\n  thank you for the book.\n</div>", ["Dear Anna,", "thank you for the book."],
     "<div>\n  DEAR ANNA,\n  THANK YOU FOR THE BOOK.\n</div>"),
    ("<li>Press <b>Start</b>\nthen wait</li>", ["Press Start", "then wait"], "<li>PRESS <b>START</b>\nTHEN WAIT</li>"),
    ("two dogs play\nin the snow", ["two dogs play", "in the snow"], "TWO DOGS PLAY\nIN THE SNOW")])
def test_lines_split_ends_a_sentence_at_each_line_break_of_an_html_blocks_text(upper, page, given, written):
    """DeepL's split_sentences=1 with tag_handling=html (DocumentOptions.lines_split): each line break ends its
    sentence, a lower-case line after it too, and stays where it stood, its indent with it.  It was read as a space
    in HTML, as only an XML element's text read it."""
    assert translate_markup([page], upper, DocumentOptions(lines_split=True)) == [written]
    assert upper.given == given

