"""A short phrase the source does not say, added at a translation's end (attnmt.decoding.quality_added): its
first word reads the source's end and the model expected none of its words."""

import re

import torch

from attnmt.decoding.forced import ForcedPass
from attnmt.decoding.quality_added import ADDED_LEAD, ADDED_UNLIKELY, tail_added
from attnmt.decoding.quality_features import features_of

WORD = re.compile(r"\w+|[^\w\s]")  # a word or a mark: the stand-in pass's pieces


def spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in WORD.finditer(text)]


TEXT = "Ein Mann arbeitet an einem Gebäude im Regen."  # 8 words and the full stop, one piece each


def test_two_unlikely_words_after_a_word_that_reads_the_sources_end_are_added():
    at_end = [0.0] * 6 + [0.7, 0.1, 0.9]
    log_probs = [-0.1] * 6 + [-7.0, -8.0, -0.1]
    assert tail_added(at_end, log_probs, TEXT, spans(TEXT))


def test_a_tail_the_model_expects_or_that_reads_a_source_word_is_not_added():
    """A verb or particle that ends a German sentence reads the source's end too, but the model expects it."""
    at_end = [0.0] * 6 + [0.7, 0.1, 0.9]
    assert not tail_added(at_end, [-0.1] * 6 + [-2.0, -2.0, -0.1], TEXT, spans(TEXT))
    assert not tail_added([0.0] * 6 + [ADDED_LEAD - 0.1, 0.1, 0.9], [-0.1] * 6 + [-7.0, -8.0, -0.1], TEXT,
                          spans(TEXT))


def test_a_tail_whose_first_word_alone_is_unexpected_is_not_added():
    """'neben einem Gebäude aus Stein.' for 'near a stone building.': the model did not expect 'aus' (-8.1, reading
    the source's end), but after it the source says 'Stein' (-2.3); a tail added says nothing after its first word."""
    text = "Zwei Männer sitzen neben einem Gebäude aus Stein."
    at_end = [0.0] * 6 + [0.82, 0.39, 0.9]
    assert not tail_added(at_end, [-0.1] * 6 + [-8.1, -2.3, -0.1], text, spans(text))
    assert tail_added(at_end, [-0.1] * 6 + [-8.1, -8.3, -0.1], text, spans(text))


def test_a_translation_the_model_finds_unlikely_throughout_has_no_tail_added():
    """'Wie geht es dir?' for 'How are you?', an idiom a model of captions never learnt: every word unlikely, its
    tail no less expected than the words before it.  The same tail after words the model expected is added."""
    text = "Wie geht es dir?"
    at_end = [0.06, 0.23, 0.64, 0.54, 0.9]
    assert not tail_added(at_end, [-7.4, -9.1, -5.9, -11.3, -0.5], text, spans(text))
    assert tail_added(at_end, [-0.4, -1.1, -5.9, -11.3, -0.5], text, spans(text))


def test_a_translation_of_two_words_is_no_tail_added_to_another():
    text = "Im Regen."
    assert not tail_added([0.9, 0.9, 0.9], [-9.0, -9.0, -0.1], text, spans(text))


def test_the_added_flag_reads_a_short_phrase_added_at_the_end():
    """'im Regen' after 'Ein Mann arbeitet an einem Gebäude' for 'A man works on a building.': each word's
    attention on one source word, 'im' on the source's end; 'im' and 'Regen' at ADDED_UNLIKELY - 1."""
    source = "A man works on a building ."
    source_pieces = [*source.split(), "</s>"]
    cross = torch.zeros(9, len(source_pieces))  # [T, S]
    for k in range(6):
        cross[k, k] = 1.0
    cross[6, -2:] = 0.45
    cross[7, 5] = 1.0
    cross[8, -2:] = 0.5
    log_probs = [-0.1] * 6 + [ADDED_UNLIKELY - 1, ADDED_UNLIKELY - 1, -0.1, -0.1]
    forced = ForcedPass(list(range(3, 3 + len(source_pieces))), list(range(3, 12)), log_probs, cross)
    found = features_of(forced, "A man works on a building.", TEXT, source_pieces, 0,
                        target_pieces=[TEXT[b:e] for b, e in spans(TEXT)], target_spans=spans(TEXT))
    assert found.added
