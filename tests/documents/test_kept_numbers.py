"""An inline element around a number alone whose number the translation lost (attnmt.documents.kept_numbers): it holds
its source text again, its attributes as they were, and the words the alignment put in it follow it; where the
translation holds the number, in digits as the target writes them or in words, it is left as placed.  Known gives
each sentence the model reads its translation and alignment."""

import pytest

from attnmt.documents.markup import translate_markup


def one(text, translator):
    return translate_markup([text], translator)[0]


@pytest.mark.parametrize("page, sentence, translation, pairs, out", [
    ('<p><data value="1200">1,200</data> visitors came today.</p>', "1,200 visitors came today.",
     "Ein Basketballspieler kam heute.", [(0, 1), (1, 1), (2, 2), (3, 3)],
     '<p>Ein <data value="1200">1,200</data> Basketballspieler kam heute.</p>'),
    ('<li>The shop sold <span class="count">350</span> red shoes.</li>', "The shop sold 350 red shoes.",
     "Der Laden verkaufte drei rote Schuhe.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
     '<li>Der Laden verkaufte <span class="count">350</span> drei rote Schuhe.</li>'),
    ('<p>Only <span class="price">$19.99</span> for a hat.</p>', "Only $19.99 for a hat.",
     "Nur für einen Hut.", [(0, 0), (2, 1), (3, 2), (4, 3)],
     '<p>Nur <span class="price">$19.99</span> für einen Hut.</p>'),
])
def test_a_number_the_translation_lost_comes_back_in_its_element(known, page, sentence, translation, pairs, out):
    """The demo model wrote ``Ein <data value="1200">Basketballspieler</data>``: the number was gone."""
    assert one(page, known({sentence: (translation, pairs)})) == out


@pytest.mark.parametrize("page, sentence, translation, pairs, out", [
    ('<p><data value="1200">1,200</data> visitors came.</p>', "1,200 visitors came.",
     "1.200 Besucher kamen.", [(0, 0), (1, 1), (2, 2)], '<p><data value="1200">1.200</data> Besucher kamen.</p>'),
    ("<p>He has <b>2</b> dogs.</p>", "He has 2 dogs.", "Er hat zwei Hunde.", [(0, 0), (1, 1), (2, 2), (3, 3)],
     "<p>Er hat <b>zwei</b> Hunde.</p>"),
    ("<p>He has <b>12</b> dogs.</p>", "He has 12 dogs.", "Er hat Hunde, 12.", [(0, 0), (1, 1), (2, 2), (3, 2)],
     "<p>Er hat Hunde, <b>12</b>.</p>"),
])
def test_a_number_the_translation_holds_is_not_written_twice(known, page, sentence, translation, pairs, out):
    assert one(page, known({sentence: (translation, pairs)})) == out


@pytest.mark.parametrize("value", ["$19.99", "19,99\u00a0€", "4.5/5"])
def test_a_value_with_its_sign_is_kept_whole_where_its_neighbours_went(fixed, value):
    """The demo model read "A man pays $19.99 for a hat." and wrote "Ein Mann bereitet <data value="19.99">sich für
    eine 19.99</data>.": the sign lost, and words in the value."""
    translator = fixed("Ein Mann bezahlt für einen Hut.", [(k, k) for k in range(6)])
    page = f'<p>A man pays <data value="19.99">{value}</data> for a hat.</p>'
    assert one(page, translator) == f'<p>Ein Mann bezahlt <data value="19.99">{value}</data> für einen Hut.</p>'
    assert translator.given == ["A man pays for a hat."]


def test_a_number_alone_in_a_value_is_still_read_by_the_model(fixed):
    translator = fixed("1.200 Besucher kamen.", [(0, 0), (1, 1), (2, 2)])
    assert one('<p><data value="1200">1,200</data> visitors came.</p>', translator) == (
        '<p><data value="1200">1.200</data> Besucher kamen.</p>')
    assert translator.given == ["1,200 visitors came."]
