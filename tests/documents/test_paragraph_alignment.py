"""A text's word alignment joined from its sentences' (attnmt.documents.paragraphs.text_pairs):
the numbers are those of the whole text's words and the whole translation's, split at
whitespace as Pharaoh's are, whatever stands between the sentences; and its word probabilities
(attnmt.documents.sentence_words.text_words), the words the same."""

import pytest

from attnmt.decoding.quality import Assessment
from attnmt.documents.paragraphs import text_pairs
from attnmt.documents.pipeline import paragraph_sentences
from attnmt.documents.sentence_words import text_words, word_numbers

DIAGONAL = [(0, 0), (1, 1), (2, 2)]  # each sentence's word k with its translation's word k
SENTENCES, TRANSLATIONS = ["A dog runs.", "A cat sleeps."], ["Ein Hund rennt.", "Eine Katze schläft."]


@pytest.mark.parametrize("text, translated, expected", [
    ("A dog runs. A cat sleeps.", "Ein Hund rennt. Eine Katze schläft.",
     [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]),
    # "runs.A" and "rennt.Eine" are one word each: five words a side, not six
    ("A dog runs.A cat sleeps.", "Ein Hund rennt.Eine Katze schläft.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]),
    ("A dog runs.A cat sleeps.", "Ein Hund rennt. Eine Katze schläft.", [(0, 0), (1, 1), (2, 2), (2, 3), (3, 4),
                                                                         (4, 5)]),
    ("A dog runs. A cat sleeps.", "Ein Hund rennt.Eine Katze schläft.", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3),
                                                                          (5, 4)]),
])
def test_sentences_that_touch_share_the_word_where_they_touch(text, translated, expected):
    """Counting on from one sentence to the next gave 5-5 where each side's last word is 4."""
    pairs = text_pairs([DIAGONAL, DIAGONAL], SENTENCES, TRANSLATIONS, text, translated)
    assert pairs == expected
    assert max(s for s, _ in pairs) < len(text.split()) and max(t for _, t in pairs) < len(translated.split())


def test_a_url_the_sentence_went_without_is_counted_where_the_text_has_it():
    """The model reads "see dogs run" (the URL is kept as it is); the text's word 1 is the URL."""
    pairs = text_pairs([DIAGONAL], ["see dogs run"], ["sieh Hunde rennen"], "see https://a.org/dogs dogs run",
                       "sieh https://a.org/dogs Hunde rennen")
    assert pairs == [(0, 0), (2, 2), (3, 3)]


def test_the_lines_of_a_text_and_the_spaces_between_its_sentences_are_counted_as_they_stand():
    pairs = text_pairs([DIAGONAL, DIAGONAL], SENTENCES, TRANSLATIONS, "  A dog runs.\n\nA cat sleeps.",
                       "  Ein Hund rennt.\n\nEine Katze schläft.")
    assert pairs == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]


@pytest.mark.parametrize("text, expected", [
    ("A co\u00adoperative dog runs fast.", [[0, 1, 2, 3, 4]]),
    ("A co\u00adoperative dog runs.A cat sleeps.", [[0, 1, 2, 3], [3, 4, 5]]),
    ("A \u00ad dog runs.", [[0, 2, 3]]),  # a soft hyphen alone is a word of the text, as Pharaoh's split has it
])
def test_a_word_with_a_soft_hyphen_is_numbered_where_the_text_has_it(text, expected):
    """The sentences are read without soft hyphens ("cooperative"), which the text has: the word
    was not found, and it took the number of the word before it (0, 0, 2, ...)."""
    sentences = paragraph_sentences(text)
    assert word_numbers(sentences, text) == expected


def sentence_words(*probabilities: float) -> Assessment:
    """A stand-in for a sentence's assessment: its words' probabilities (TRANSLATIONS' words)."""
    return Assessment(1.0, [], False, [(f"word {k}", p) for k, p in enumerate(probabilities)])


@pytest.mark.parametrize("translated, expected", [
    ("Ein Hund rennt. Eine Katze schläft.",
     [("Ein", 0.9), ("Hund", 0.8), ("rennt.", 0.5), ("Eine", 0.5), ("Katze", 0.7), ("schläft.", 0.6)]),
    # "rennt.Eine": one word of the text, its probability that of both sentence words in it
    ("Ein Hund rennt.Eine Katze schläft.", [("Ein", 0.9), ("Hund", 0.8), ("rennt.Eine", 0.25), ("Katze", 0.7),
                                            ("schläft.", 0.6)]),
])
def test_a_texts_word_probabilities_are_those_of_its_words(translated, expected):
    """The sentences' words one after the other were "rennt." and "Eine" for "rennt.Eine"."""
    parts = [sentence_words(0.9, 0.8, 0.5), sentence_words(0.5, 0.7, 0.6)]
    assert text_words(parts, TRANSLATIONS, translated) == expected


def test_a_url_the_sentence_went_without_is_a_word_with_no_probability():
    words = text_words([sentence_words(0.9, 0.8, 0.5)], ["sieh Hunde rennen"], "sieh https://a.org/dogs Hunde rennen")
    assert words == [("sieh", 0.9), ("https://a.org/dogs", None), ("Hunde", 0.8), ("rennen", 0.5)]


@pytest.mark.parametrize("sentence, translated, expected", [
    ("Ein Hund rennt.", "Ein Hund rennt", [("Ein", 0.9), ("Hund", 0.8), ("rennt", 0.5)]),
    ("Ein Hund rennt.", "Ein Hund rennt!", [("Ein", 0.9), ("Hund", 0.8), ("rennt!", 0.5)]),
    ('"Ein Hund rennt."', "\u201eEin Hund rennt\u201c", [("\u201eEin", 0.9), ("Hund", 0.8), ("rennt\u201c", 0.5)]),
])
def test_a_word_whose_edge_marks_the_text_changed_keeps_its_probability(sentence, translated, expected):
    """Looked for as the sentence has it, "rennt." was nowhere in the text: "Hund" took its probability too."""
    assert text_words([sentence_words(0.9, 0.8, 0.5)], [sentence], translated) == expected


def test_a_sentence_whose_end_mark_changed_leaves_the_next_sentences_words_in_place():
    """The first sentence's "rennt." was found as the second's last word, and the second's words all after it."""
    assert word_numbers(["Ein Hund rennt.", "Ein Hund rennt."], "Ein Hund rennt! Ein Hund rennt.") == [[0, 1, 2],
                                                                                                     [3, 4, 5]]


def test_the_alignment_of_a_sentence_whose_end_mark_changed_numbers_its_own_words():
    pairs = text_pairs([DIAGONAL, DIAGONAL], ["A dog runs!", "A dog runs."], ["Ein Hund rennt.", "Ein Hund rennt."],
                       "A dog runs! A dog runs.", "Ein Hund rennt! Ein Hund rennt.")
    assert pairs == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]


@pytest.mark.parametrize("sentences, text, expected", [
    (["Il court !", "Elle marche !"], "Il court. Elle marche !", [[0, 1, 1], [2, 3, 4]]),
    (["Il court !", "Elle marche !"], "Il court Elle marche !", [[0, 1, 1], [2, 3, 4]]),
    (["Il court !", "Elle marche."], "Il court ? Elle marche.", [[0, 1, 2], [3, 4]]),
    (["Il court !", "Elle marche !"], "Il court ! Elle marche !", [[0, 1, 2], [3, 4, 5]]),
])
def test_a_spaced_end_mark_the_text_changed_is_numbered_in_its_own_sentence(sentences, text, expected):
    """French writes "Il court !": the "!" the text wrote as "." was found as the next sentence's, and that
    sentence's words all after it ([[0, 1, 4], [4, 4, 4]])."""
    assert word_numbers(sentences, text) == expected


def test_a_spaced_mark_after_a_url_the_sentence_went_without_is_found_past_it():
    assert word_numbers(["Voir !", "Merci."], "Voir https://a.org ! Merci.") == [[0, 2], [3]]


@pytest.mark.parametrize("sentences, text, expected", [
    (["« Il court ! »", "Elle marche !"], "« Il court. » Elle marche !", [[0, 1, 2, 2, 3], [4, 5, 6]]),
    (["Il court !", "« Elle marche. »"], "Il court « Elle marche. »", [[0, 1, 1], [2, 3, 4, 5]]),
    (["¡ Corre !", "¿ Vienes ? ¡ Sí !"], "¡ Corre. ¿ Vienes ? ¡ Sí !", [[0, 1, 1], [2, 3, 4, 5, 6, 7]]),
])
def test_marks_of_their_own_beside_quotes_and_inverted_marks_stay_in_their_sentence(sentences, text, expected):
    """The changed "!" before a closing "»", or dropped before the next sentence's "«", and Spanish "¡ ... !"."""
    assert word_numbers(sentences, text) == expected


def test_a_spaced_end_mark_the_text_changed_keeps_the_next_sentences_probabilities():
    """"Elle marche !" had none: the first sentence's "!" took its last word, and its words the same one."""
    parts = [sentence_words(0.9, 0.8, 0.5), sentence_words(0.5, 0.7, 0.6)]
    words = text_words(parts, ["Il court !", "Elle marche !"], "Il court. Elle marche !")
    assert words == [("Il", 0.9), ("court.", 0.4), ("Elle", 0.5), ("marche", 0.7), ("!", 0.6)]
