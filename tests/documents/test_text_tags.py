"""HTML's inline tags in a line of plain text (attnmt.documents.text_tags): the model reads the sentence a page's same
line gives it, and the tags come back around the translation of their words, as written."""

import pytest
from conftest import Fixed, Same

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.whole_sentence import model_reads, with_symbols

LINES = ["A man with a <b>red</b> hat sings.",
         "A man sleeping in a <i>green</i> room on a couch.",
         'A balding man wearing a <a href="x">red life jacket</a> is sitting in a small boat.',
         "A young child is standing alone<br>on some jagged rocks.",
         "<i>A woman</i> is sitting by her <b>dried <em>flower</em> display</b> at a market.",
         "A dog &amp; a cat play in the <b>snow</b>.",
         "A <span class='x'>brown</span> dog runs &lt;fast&gt;.<br/>Two men wait.",
         'He said "<i>hello</i>" to me.', '<b>"Hello"</b> he said.', '"<b>Hello</b> there."',
         'A "<b>bold" word</b> here.', "Salt &amp; pepper go in <i>the</i> &#8220;soup&#8221;."]


def translated(translator: Same, name: str, text: str) -> str:
    return translate_file_bytes(text.encode(), name, translator, DocumentOptions()).decode()


@pytest.mark.parametrize("line", LINES)
def test_a_text_line_gives_the_translator_the_sentences_the_same_line_of_a_page_does(line):
    """The demo model was given "A man with a <b>red</b> hat sings." and wrote "Ein Mann mit einem farbenfrohen Hut
    singt.", its tags lost, where the page's line came back "<p>Ein Mann mit einem <b>roten</b> Hut singt.</p>"."""
    as_text, as_page = Same(), Same()
    translated(as_text, "in.txt", line + "\n")
    translated(as_page, "in.html", f"<p>{line}</p>\n")
    assert as_text.given == as_page.given


@pytest.mark.parametrize(("line", "given"), [('He said "<i>hello</i>" to me.', "He said hello to me."),
                                              ('<b>"Hello"</b> he said.', "Hello he said.")])
def test_a_quote_around_an_element_or_inside_one_is_read_as_a_quote_and_comes_back_as_written(same, line, given):
    """Read apart, its marks were cut from the element's words and went to the model as words."""
    assert translated(same, "in.txt", line + "\n") == line + "\n"
    assert same.given == [given]


@pytest.mark.parametrize(("line", "given"), [("A man with a <b>red</b> hat sings.", "A man with a red hat sings."),
                                              ("A child waits<br>on the rocks.", "A child waits on the rocks.")])
def test_the_model_reads_a_text_lines_words_without_their_tags_which_come_back_as_written(same, line, given):
    """A ``<br>`` parts the words beside it, as a space would."""
    assert translated(same, "in.txt", line + "\n") == line + "\n"
    assert same.given == [given]


@pytest.mark.parametrize(("line", "expected"), [
    ("A man with a <b>red</b> hat sings.", "SINGS. HAT <b>RED</b> A WITH MAN A"),
    ('See <a href="x">the docs</a> <i>now</i>.', '<i>NOW</i>. <a href="x">DOCS THE</a> SEE'),
])
def test_a_text_lines_tags_come_back_as_written_around_the_translation_of_their_words(mirror, line, expected):
    """Mirror writes the words backwards, each aligned to its own: a tag goes where its words went."""
    assert translated(mirror, "in.txt", line + "\n") == expected + "\n"


@pytest.mark.parametrize("tag", ["<b>", '<a href="x">'])
def test_a_tag_the_translation_left_around_no_words_holds_its_source_words_again_as_a_pages_does(tag):
    """The model dropped "red": the element is not lost, its words show a reviewer what is untranslated."""
    end = "</" + tag[1] + ">"
    dropping = Fixed("Ein Mann mit Hut singt.", [(0, 0), (1, 1), (2, 2), (5, 3), (6, 4)])
    assert translated(dropping, "in.txt", f"A man with a {tag}red{end} hat sings.\n") == \
        f"Ein Mann mit {tag}red{end} Hut singt.\n"


def test_a_tag_beside_one_alike_whose_word_holds_both_translations_is_not_filled_again():
    """A sibling took the one word "black" and "white" came back in: its source words again would say it twice."""
    merging = Fixed("Ein schwarz-weißer Hund.", [(0, 0), (1, 1), (3, 1), (4, 2)])
    line = "A <b>black</b> and <b>white</b> dog.\n"
    assert translated(merging, "in.txt", line) == "Ein <b>schwarz-weißer</b> Hund.\n"


@pytest.mark.parametrize("line", ["a < b and c > d", "I <3 you.", "Use a List<String> here.", "A <b>dog runs.",
                                  "A dog</b> runs.", '<p align="center">A dog runs.</p>', "A <b/>dog runs.",
                                  "A <x>dog</x> runs."])
def test_a_tag_that_is_no_markup_stays_text_as_written(same, line):
    """Not an element of the text line's tags, or not closed by its end tag in the line: nothing reads it as markup,
    and nothing of it is lost."""
    assert translated(same, "in.txt", line + "\n") == line + "\n"


def test_tags_that_cross_are_read_as_far_as_they_nest(same):
    """The ``<b>`` closes first: it is markup, the ``<i>`` it cut across is text."""
    line = "A <b>dog <i>runs</b> fast</i>."
    assert translated(same, "in.txt", line + "\n") == line + "\n"
    assert same.given == ["A dog <i>runs fast</i>."]


def test_a_character_reference_in_a_line_of_markup_is_read_and_written_back_as_it_was(same):
    """As a page's: the model reads "&" and the quotes (a quote's marks read apart from its words)."""
    assert translated(same, "in.txt", "Salt &amp; pepper go in <i>the</i> &#8220;soup&#8221;.\n") == \
        "Salt &amp; pepper go in <i>the</i> &#8220;soup&#8221;.\n"
    assert same.given == ["Salt & pepper go in the soup."]  # a name, "Tom &amp; Jerry", passes through


def test_a_line_without_markup_keeps_its_references_as_its_text(same):
    """Plain text: its "&amp;" is what it says, not HTML's escape (a page reads it "&")."""
    assert translated(same, "in.txt", "Salt &amp; pepper sell well.\n") == "Salt &amp; pepper sell well.\n"
    assert same.given == ["Salt &amp; pepper sell well."]


def test_a_urls_reference_in_a_line_of_markup_stays_as_written(same):
    line = "Open <b>https://example.com/?a=1&amp;b=2</b> now &amp; wait.\n"
    assert translated(same, "in.txt", line) == line
    assert same.given == ["Open now & wait."]


def test_an_icon_fonts_private_use_character_in_a_line_of_markup_stays_what_it_is(same):
    """Each tag stands for one such character while the emphasis is read: never one the line holds."""
    line = "\ue000 A <b>dog</b> runs \ue001 home."
    assert translated(same, "in.txt", line + "\n") == line + "\n"
    assert same.given == ["\ue000 A dog runs \ue001 home."]


@pytest.mark.parametrize(("line", "given", "expected"), [
    ("Water is H<sub>2</sub>O.", "Water is.", "IS H<sub>2</sub>O. WATER"),
    ("Sugar is C<sub>6</sub>H<sub>12</sub>O<sub>6</sub>.", "Sugar is .",  # as a page gives it
     "C<sub>6</sub>H<sub>12</sub>O<sub>6</sub>. IS SUGAR"),
    ("A room of 25 m<sup>2</sup> here.", "A room of here.", "25 m<sup>2</sup> HERE. OF ROOM A"),
    ("A study<sup>3</sup> shows it.", "A study shows it.", "IT. SHOWS STUDY<sup>3</sup> A"),
    ("The area is x<sup>2</sup> now.", "The area is x now.", "NOW. X<sup>2</sup> IS AREA THE"),
    ("He came in 1<sup>st</sup> place.", "He came in 1st place.", "PLACE. 1<sup>ST</sup> IN CAME HE"),
])
def test_a_text_lines_scripts_stay_markup_kept_with_their_words_as_a_pages_are(mirror, line, given, expected):
    """``Water is H<sub>2</sub>O.`` went to the model as words, and the demo model wrote "2 bereitet sich in der
    Nacht.", the formula and its tags lost: a formula or a unit is kept whole, a script without letters by its word,
    and an ordinal's ending is an element over the ending of its word."""
    assert translated(mirror, "in.txt", line + "\n") == expected + "\n"
    assert mirror.given == [given]


@pytest.mark.parametrize(("line", "read", "expected"), [
    ("A man with a <b>red</b> hat sings.", "A man with a red hat sings.", "SINGS. HAT <b>RED</b> A WITH MAN A"),
    ("Salt &amp; pepper go to <i>the</i> soup.", "Salt & pepper go to the soup.",
     "SOUP. <i>THE</i> TO GO PEPPER &amp; SALT"),
    ("Water is H<sub>2</sub>O.", "Water is.", "IS H<sub>2</sub>O. WATER"),
    ("I <3 you &amp; me.", "I <3 you &amp; me.", "ME. &AMP; YOU <3 I"),  # no element: text as written
])
def test_a_jsonl_text_and_a_translate_sentence_read_a_text_lines_tags(mirror, line, read, expected):
    """``{"text": "A <b>red</b> car."}`` and ``attnmt.translate(..., ["A <b>red</b> car."])`` gave the model the tags
    as words, where a text line did not: the demo model wrote "Ein bereitet sich an.", and now "Ein <b>rotes</b>
    Auto.", as for the text line."""
    assert model_reads(line, None, lambda _: True) == read
    translation = mirror.texts([read])[0]
    assert with_symbols(line, read, translation, None, lambda _: True, mirror.weights) == expected
