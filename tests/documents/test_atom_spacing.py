"""The spaces around atoms placed on a translation (attnmt.documents.atom_spacing)."""

import pytest

from attnmt.documents.markup import translate_markup


@pytest.mark.parametrize("page", [
    "<p>Write to <b>a@example.com</b> <b>https://example.org</b></p>",
    "<p>Tags: <i>#travel</i> <i>#food</i> <i>#summer</i></p>",
    "<p>Sizes: <b>20 m²</b> <b>30 m²</b></p>",
])
def test_a_spaced_list_of_kept_elements_ending_a_block_keeps_its_spaces(unitless, page):
    """Each element a run of its own at the target's end, none wrote the space between them:
    ``<b>a@example.com</b><b>https://example.org</b>``."""
    assert translate_markup([page], unitless) == [page]

