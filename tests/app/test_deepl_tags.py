"""DeepL's tag_handling=xml and ignore_tags: which tags may be kept, and empty elements written as sent."""

import pytest

from attnmt.server.deepl_tags import empty_as_sent, mark_for, marked_ignored, tag_names, unmarked


@pytest.mark.parametrize(("sent", "translated", "written"), [
    ('a <x id="1"></x> b', 'A <x id="1"/> B', 'A <x id="1"></x> B'),  # Weblate's placeholders
    ("a <x/> b", "A <x/> B", "A <x/> B"),
    ('a <x a="1"></x> <x/>', 'A <x a="1"/> <x/>', 'A <x a="1"/> <x/>'),  # both ways: left as the writer wrote it
    ("a <p></p> <br/>", "A <p/> <br/>", "A <p></p> <br/>")])
def test_an_empty_element_is_written_as_the_text_wrote_it(sent, translated, written):
    assert empty_as_sent(sent, translated) == written


def test_ignore_tags_is_read_as_a_json_list_or_a_forms_commas():
    assert tag_names({"t": ["x", " y "]}, "t") == tag_names({"t": "x, y"}, "t") == tag_names({"t": ["x,y"]}, "t") == [
        "x", "y"]
    assert tag_names({}, "t") == tag_names({"t": ""}, "t") == []


def test_an_ignored_element_is_marked_to_be_kept_and_the_mark_taken_out_again():
    texts = ['a <x id="1">Acme</x> b <x/> <xy>c</xy>', '<X>d</X> <x translate="yes">e</x>']
    mark = mark_for(texts)
    marked = marked_ignored(texts, ["x"], html=False, mark=mark)
    assert marked == ['a <x translate="no" attnmt-ignored="0" id="1">Acme</x> b <x translate="no" attnmt-ignored="0"/> '
                      '<xy>c</xy>', '<X>d</X> <x translate="yes">e</x>']  # XML's names keep their case; one says
    assert marked_ignored(["<X>d</X>"], ["x"], html=True, mark=mark) == ['<X translate="no" attnmt-ignored="0">d</X>']
    assert unmarked(marked, mark) == texts


def test_the_mark_is_one_no_text_of_the_request_holds():
    """A client's own ``translate="No"`` was taken out as the mark: ` translate="No"` was the mark for every request."""
    texts = ['<x translate="no" attnmt-ignored="0">a</x>', 'b translate="no" attnmt-ignored="1"', '<x translate="No">']
    mark = mark_for(texts)
    assert mark == ' translate="no" attnmt-ignored="2"' and unmarked(texts, mark) == texts
