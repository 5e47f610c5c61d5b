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



@pytest.mark.parametrize("page, read", [("<p><b>runs 👍🏽</b> fast.</p>", "runs fast."),
                                        ("<p>A dog <i>jumps high 🐕</i> in the park.</p>",
                                         "A dog jumps high in the park."),
                                        ("<p>It is <b>warm, 12 °C</b> today.</p>", "It is warm, today.")])
def test_an_atom_ending_an_element_it_does_not_fill_leaves_one_space_after_it(unitless, page, read):
    """The space inside the element before the atom and the one after the element both stayed: the model read
    "runs  fast.", and the page came back ``<b>runs 👍🏽</b>  fast.``."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]
