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


@pytest.mark.parametrize("page, read, translation, pairs, out", [
    ("<p>Press <kbd>Up</kbd>/<kbd>Down</kbd> to stop it.</p>", "Press / to stop it.", "Drücken Sie, um es anzuhalten.",
     [(0, 0), (0, 1), (2, 2), (4, 3), (3, 4)], "<p>Drücken Sie, <kbd>Up</kbd> <kbd>Down</kbd> um es anzuhalten.</p>"),
    ("<p>Set <code>a</code>/<code>b</code> to zero.</p>", "Set / to zero.", "Setzen Sie auf null.",
     [(0, 0), (0, 1), (2, 2), (3, 3)], "<p>Setzen Sie <code>a</code> <code>b</code> auf null.</p>"),
    ("<p>The area is <var>w</var> × <var>h</var>, where <var>w</var> is the width.</p>",
     "The area is × , where w is the width.", "Der Gebiet × ist gerade zu sehen.",
     [(0, 0), (1, 1), (3, 2), (2, 3), (9, 6)],
     "<p>Der Gebiet <var>w</var> × ist gerade zu <var>h</var> <var>w</var> sehen.</p>"),
])
def test_atoms_that_show_text_with_text_between_them_in_the_source_stay_apart(known, page, read, translation, pairs,
                                                                              out):
    """The words between them dropped, they came back glued: ``<kbd>Up</kbd><kbd>Down</kbd>`` ("UpDown"),
    ``<var>h</var><var>w</var>`` (one name, "hw"); the page's space between them was none in the source."""
    translator = known({read: (translation, pairs)})
    assert translate_markup([page], translator) == [out]
    assert translator.given == [read]


def test_two_addresses_with_text_between_them_in_the_source_stay_apart(known):
    """Put after the sentence, one after the other, they read "a@example.comb@example.com": one address."""
    translator = known({"Write to, or to today.": ("Schreiben Sie heute.", [(0, 0), (0, 1), (4, 2)])})
    out = translate_markup(["<p>Write to a@example.com, or to b@example.com today.</p>"], translator)[0]
    assert "a@example.com b@example.com" in out and out.count("@") == 2
