"""A sentence an SVG picture draws over several <tspan> lines (attnmt.documents.svg_lines): read whole, its
translation laid back over the lines by the source's share of words in each, through conftest.py's stand-ins."""

import pytest
from office_files import read_members, svg_page_book

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.svg_lines import laid_over, spread


def test_a_sentence_broken_over_tspan_lines_is_translated_whole_and_spread_over_them(sentencing):
    """Each <tspan> line was read apart, so the model translated "A man rides" and "a red bike." as two
    fragments; the sentence is read whole and its translation laid over the lines by the source's share of
    words in each (3 of 6 here: 4 of the 7 translated words on the first line), each line's attributes kept."""
    translator = sentencing({"A man rides a red bike.": "Ein Mann fährt auf einem roten Fahrrad."})
    page = ('<div><svg viewBox="0 0 100 50"><text x="0" y="20"><tspan x="0" dy="1.2em">A man rides</tspan>'
            '<tspan x="0" dy="1.2em" fill="red">a red bike.</tspan></text></svg></div>')
    assert translate_markup([page], translator)[0] == (
        '<div><svg viewBox="0 0 100 50"><text x="0" y="20"><tspan x="0" dy="1.2em">Ein Mann fährt auf</tspan>'
        '<tspan x="0" dy="1.2em" fill="red">einem roten Fahrrad.</tspan></text></svg></div>')
    assert translator.given == ["A man rides a red bike."]


def test_lines_placed_at_their_own_heights_are_one_sentence_too(mirror):
    """Inkscape writes each line of a text at its own ``y`` (no ``dy``), a line of the file each: read as blocks,
    they were three fragments; the spaces between the lines are kept."""
    page = ('<svg><text x="5" y="10">\n  <tspan x="5" y="10">The results</tspan>\n  <tspan x="5" y="22">of the'
            '</tspan>\n  <tspan x="5" y="34">survey</tspan>\n</text></svg>')
    assert translate_markup([page], mirror)[0] == (
        '<svg><text x="5" y="10">\n  <tspan x="5" y="10">SURVEY THE</tspan>\n  <tspan x="5" y="22">OF RESULTS'
        '</tspan>\n  <tspan x="5" y="34">THE</tspan>\n</text></svg>')
    assert mirror.given == ["The results of the survey"]


def test_lines_whose_words_are_moved_by_the_translation_stay_lines(known):
    """Read inline (a space between the tspans), the words came back by alignment, and a translation that put
    them in another order left the second line empty and the full stop outside it."""
    translator = known({"A man rides a red bike.": (
        "Ein rotes Fahrrad fährt ein Mann.", [(0, 4), (1, 5), (2, 3), (3, 0), (4, 1), (5, 2)])})
    page = ('<svg><text x="0" y="20"><tspan x="0" dy="1.2em">A man rides a</tspan> '
            '<tspan x="0" dy="1.2em">red bike.</tspan></text></svg>')
    assert translate_markup([page], translator)[0] == (
        '<svg><text x="0" y="20"><tspan x="0" dy="1.2em">Ein rotes Fahrrad fährt</tspan> '
        '<tspan x="0" dy="1.2em">ein Mann.</tspan></text></svg>')


def test_lines_kept_from_translation_come_back_as_they_were(same):
    page = ('<svg><text x="0" y="9"><tspan x="0" dy="1em"> A  man </tspan><tspan x="0" dy="1em">rides.</tspan>'
            '</text></svg>')
    assert translate_markup([page], same)[0] == page
    assert same.given == ["A man rides."]


def test_tspans_that_are_labels_side_by_side_or_without_a_new_line_stay_apart(mirror):
    """Tspans at different x, or with no ``dy`` or ``y`` of their own, are not lines of one sentence."""
    page = ('<svg><text y="10"><tspan x="0">North</tspan><tspan x="50">South</tspan></text>'
            '<text x="0" y="30"><tspan>Sales</tspan><tspan font-weight="bold">total</tspan></text></svg>')
    translate_markup([page], mirror)
    assert mirror.given == ["North", "South", "Sales", "total"]


@pytest.mark.parametrize(("sentence", "translation", "page", "translated"), [
    ("Click here now", "Hier klicken",
     '<svg><text x="5" y="10">\n  <tspan x="5" y="10">Click</tspan>\n  <tspan x="5" y="22">here</tspan>\n'
     '  <tspan x="5" y="34">now</tspan>\n</text></svg>',
     '<svg><text x="5" y="10">\n  <tspan x="5" y="10">Hier</tspan>\n  <tspan x="5" y="22">klicken</tspan>\n'
     '</text></svg>'),
    ("Thank you", "Danke", '<svg><text x="0" y="9"><tspan x="0" dy="1em">Thank</tspan><tspan x="0" dy="1em" '
     'fill="red">you</tspan></text></svg>', '<svg><text x="0" y="9"><tspan x="0" dy="1em">Danke</tspan></text></svg>'),
], ids=["two words over three lines", "one word over two lines"])
def test_lines_a_translation_of_fewer_words_leaves_empty_are_left_out(sentencing, sentence, translation, page,
                                                                       translated):
    """A word a line from the first, the last lines were empty <tspan>s; a browser draws one as nothing (Chromium:
    the same pixels and box without it), so it goes, with the spaces before it; those before </text> stay."""
    assert translate_markup([page], sentencing({sentence: translation}))[0] == translated


def test_a_picture_translated_into_fewer_lines_is_read_as_one_sentence_again(sentencing, mirror):
    """The empty line left made the text no lines of words (svg_lines.is_lined): translated again (into a third
    language, or back), "Hier" and "klicken" were read as two fragments."""
    page = ('<svg><text x="0" y="9"><tspan x="0" dy="1em">Click</tspan><tspan x="0" dy="1em">here</tspan>'
            '<tspan x="0" dy="1em">now</tspan></text></svg>')
    translated = translate_markup([page], sentencing({"Click here now": "Hier klicken"}))[0]
    translate_markup([translated], mirror)
    assert mirror.given == ["Hier klicken"]


def test_a_translation_is_spread_over_lines_by_their_share_of_words():
    words = "a b c d e f g".split()
    assert spread(words, [3, 3]) == [["a", "b", "c", "d"], ["e", "f", "g"]]  # 3.5 words rounded up
    assert spread(words[:5], [1, 1, 8]) == [["a"], ["b"], ["c", "d", "e"]]  # a word a line at least
    assert spread(["Hallo"], [2, 1, 1]) == [["Hallo"], [], []]


def test_a_translation_without_spaces_is_split_over_the_lines_by_characters(sentencing):
    """Chinese writes no spaces: the translation was one word, all of it on the first line and the second left
    empty; its characters are laid over the lines by the source's share of words (3 of 6: 6 of the 11 characters,
    the full stop going with the one before it)."""
    translator = sentencing({"A man rides a red bike.": "一个男人骑着红色自行车。"})
    page = ('<svg><text x="0" y="20"><tspan x="0" dy="1.2em">A man rides</tspan><tspan x="0" dy="1.2em">a red bike.'
            '</tspan></text></svg>')
    assert translate_markup([page], translator)[0] == (
        '<svg><text x="0" y="20"><tspan x="0" dy="1.2em">一个男人骑着</tspan><tspan x="0" dy="1.2em">红色自行车。'
        '</tspan></text></svg>')


def test_a_line_split_by_characters_starts_with_no_stop_mark_or_joined_character():
    """A stop or a closing mark (、 。 」) stays with the character before it, an opening mark (「) with the one
    after it, and so do a sound mark written apart (か + ゛ is が) and what a no-break space joins."""
    assert laid_over("東京、大阪。", ["a", "b", "c"]) == ["東", "京、大", "阪。"]
    assert laid_over("「東京」", ["a", "b"]) == ["「東", "京」"]
    assert laid_over("カか\u3099", ["a b c", "d"]) == ["カ", "か\u3099"]
    assert laid_over("10\u00a0km", ["a", "b"]) == ["10\u00a0k", "m"]


def test_a_word_is_split_by_characters_only_where_it_is_wider_than_every_line():
    """A long compound is parted by the lines' shares (2, 1, 1 words: 8, 4, 4 of its 16 letters); a short
    word stays whole on the first line, and words as many as the lines are laid over them by words."""
    assert laid_over("Donaudampfschiff", ["a b", "c", "d"]) == ["Donaudam", "pfsc", "hiff"]
    assert laid_over("Danke", ["Thank", "you"]) == ["Danke", ""]
    assert laid_over("Ein roter Hund", ["a", "b"]) == ["Ein roter", "Hund"]


def test_an_svg_page_of_a_book_reads_its_lines_as_one_sentence(mirror):
    """EPUB 3's SVG content document (a comic's page) is translated as an inline picture is."""
    book = svg_page_book(b'<svg xmlns="http://www.w3.org/2000/svg"><text x="10" y="20"><tspan x="10" y="20">A girl '
                         b'climbs</tspan><tspan x="10" y="32">a wall.</tspan></text></svg>')
    out = read_members(translate_file_bytes(book, "book.epub", mirror, DocumentOptions(target_lang="de")))
    assert mirror.given[-1] == "A girl climbs a wall."
    assert out["OEBPS/Text/pic.svg"].decode().endswith(
        '<text x="10" y="20"><tspan x="10" y="20">WALL. A CLIMBS</tspan><tspan x="10" y="32">GIRL A</tspan>'
        '</text></svg>')
