"""DeepL's tag_handling=xml and ignore_tags: which tags may be kept, and empty elements written as sent."""

import pytest

from attnmt.server.deepl_tags import TagError, check_ignored, empty_as_sent, ignored_names


@pytest.mark.parametrize(("sent", "translated", "written"), [
    ('a <x id="1"></x> b', 'A <x id="1"/> B', 'A <x id="1"></x> B'),  # Weblate's placeholders
    ("a <x/> b", "A <x/> B", "A <x/> B"),
    ('a <x a="1"></x> <x/>', 'A <x a="1"/> <x/>', 'A <x a="1"/> <x/>'),  # both ways: left as the writer wrote it
    ("a <p></p> <br/>", "A <p/> <br/>", "A <p></p> <br/>")])
def test_an_empty_element_is_written_as_the_text_wrote_it(sent, translated, written):
    assert empty_as_sent(sent, translated) == written


def test_ignore_tags_is_read_as_a_json_list_or_a_forms_commas():
    assert ignored_names(["x", " y "]) == ignored_names("x, y") == ["x", "y"]
    assert ignored_names(None) == []


def test_only_an_ignored_element_holding_text_is_refused():
    check_ignored(['a <x id="1"></x> b <x/>', "<xy>c</xy>"], ["x"])
    with pytest.raises(TagError, match=r"text\[1\] has a <x> holding text"):
        check_ignored(["a", 'b <x id="2">keep</x>'], ["x"])
