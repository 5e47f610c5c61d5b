"""A review's verbatim flag on a sentence that holds a key combination the page keeps (attnmt.documents.review_keys):
judged as the page shows the sentence, the combination written back as it came.  The review assesses with the
verbatim rule alone (quality 0.9: a sentence is listed for its flag only); Known gives each sentence its translation."""

import pytest

from attnmt.decoding.dictated import verbatim_differs
from attnmt.decoding.quality import Assessment
from attnmt.documents.markup import translate_markup
from attnmt.documents.review import Review


def verbatim_review() -> Review:
    return Review(lambda sources, texts: [Assessment(0.9, ["verbatim"] if verbatim_differs(s, t) else [], False)
                                          for s, t in zip(sources, texts, strict=True)], 0.5)


def flagged(page: str, sentence: str, translation: str, known) -> list[tuple[str, str]]:
    """(flags, translation) of each row the review lists for ``page``, ``sentence`` translated word for word."""
    review = verbatim_review()
    pairs = [(k, k) for k in range(min(len(sentence.split()), len(translation.split())))]
    translate_markup([page], known({sentence: (translation, pairs)}), review=review)
    return [(",".join(segment.flags), segment.translation) for segment in review.segments]


@pytest.mark.parametrize("page, sentence, translation", [
    ("<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>", "Close it with Alt-F4 now.",
     "Schließe es mit Alt-F jetzt."),
    ("<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>", "Close it with Alt-F4 now.", "Schließe es jetzt."),
    ("<li>Reload with <kbd><kbd>Ctrl</kbd>+<kbd>F5</kbd></kbd> twice.</li>", "Reload with Ctrl+F5 twice.",
     "Lade mit Strg+F zweimal neu."),
    ("<p>Use <kbd>Shift</kbd> + <kbd>F10</kbd> for the menu.</p>", "Use Shift+F10 for the menu.",
     "Nutze Shift für das Menü."),
])
def test_keys_the_page_writes_back_are_no_verbatim_fault(known, page, sentence, translation):
    """The model dropped the 4 of Alt-F4: --review flagged the sentence verbatim, where the page shows Alt-F4."""
    assert flagged(page, sentence, translation, known) == []


@pytest.mark.parametrize("sentence, translation", [
    ("Close 2 windows with Alt-F4 now.", "Schließe 3 Fenster mit Alt-F4 jetzt."),  # a number of its own words
    ("Close 2 windows with Alt-F4 now.", "Schließe 2 Fenster mit Alt-F5 jetzt."),  # a key the page does not write over
])
def test_a_number_of_the_sentences_own_or_a_key_of_the_models_stays_flagged_beside_a_kept_combination(
        known, sentence, translation):
    page = ("<p>Close it with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>"
            "<p>Close 2 windows with <kbd>Alt</kbd>-<kbd>F4</kbd> now.</p>")
    review = verbatim_review()
    translator = known({"Close it with Alt-F4 now.": ("Schließe es mit Alt-F jetzt.", [(k, k) for k in range(5)]),
                        sentence: (translation, [(k, k) for k in range(6)])})
    translate_markup([page], translator, review=review)
    assert [(segment.source, segment.flags) for segment in review.segments] == [(sentence, ["verbatim"])]
