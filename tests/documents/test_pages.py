"""Pages parsed and written back (attnmt.documents.pages): what libxml2 gets wrong about HTML is
put right, and nothing the page said is lost."""

import pytest

from attnmt.documents.markup import translate_markup


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("tag", ["wbr", "embed", "source", "track", "keygen"])
def test_a_void_element_libxml2_does_not_know_is_a_point_and_the_sentence_goes_on_after_it(same, mirror, tag):
    """libxml2 nested the rest of the block inside it: left untranslated (wbr and embed are atoms),
    the sentence cut in two there, and an end tag written."""
    text = f'<p>a red <{tag} class="x">car drives.</p>'
    assert one(text, same) == text
    assert same.given == ["a red car drives."]
    assert one(text, mirror) == f'<p>DRIVES. <{tag} class="x">CAR RED A</p>'


def test_what_follows_a_void_element_keeps_its_markup_and_the_block_its_tail(same):
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><video><source src="a.webm">'
            '<source src="a.mp4"><track src="a.vtt"></video><p>A <wbr><b>dog</b> runs.</p>after</body></html>')
    assert one(page, same) == page
    assert same.given == ["A dog runs.", "after"]
