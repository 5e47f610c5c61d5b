"""How quality reads a very short pair (attnmt.decoding.quality_features.short_ending): the final mark of a
translation of a source of a few words, read from the source's end, is the source's, not the model's doubt that a
sentence ends so soon; one that reads a source word still to translate keeps its doubt."""

import re

import pytest
import torch

from attnmt.decoding.forced import ForcedPass
from attnmt.decoding.quality_features import features_of

PIECE = re.compile(r"\w+|[^\w\s]")  # a word or a mark: the stand-in pass's pieces


def read(source: str, translation: str, mark_at_end: float, mark_log_prob: float = -3.0):
    """features_of ``translation`` (its words, then its final mark, one piece each) of ``source`` (its words,
    its final mark and </s>, one piece each), every piece at log-prob -0.1 but the final mark's
    (``mark_log_prob``), each word's attention on a source word and the mark's ``mark_at_end`` on the source's
    end, the rest on its first word."""
    words = translation[:-1].split()
    source_pieces = [*PIECE.findall(source), "</s>"]
    cross = torch.zeros(len(words) + 1, len(source_pieces))  # [T, S]
    for k in range(len(words)):
        cross[k, min(k, len(source_pieces) - 2)] = 1.0
    cross[-1, -2:] = mark_at_end / 2
    cross[-1, 0] = 1.0 - mark_at_end
    forced = ForcedPass(list(range(3, 3 + len(source_pieces))), list(range(3, 4 + len(words))),
                        [-0.1] * len(words) + [mark_log_prob, -0.1], cross)
    spans = [(m.start(), m.end()) for m in PIECE.finditer(translation)]
    return features_of(forced, source, translation, source_pieces, 0, target_pieces=[translation[b:e]
                                                                                      for b, e in spans],
                       target_spans=spans)


def test_the_final_mark_of_a_very_short_pair_read_from_the_sources_end_is_not_the_models_doubt():
    """'Ein Mann.' for 'A man.': its '.' at -3.0 counts as its other pieces' mean, -0.1, not (-0.1 * 3 - 3) / 4,
    in the mean log-prob; the least likely piece is still the mark."""
    features = read("A man.", "Ein Mann.", mark_at_end=0.9)
    assert features.mean_log_prob == pytest.approx(-0.1)
    assert features.min_log_prob == pytest.approx(-3.0)


@pytest.mark.parametrize(("source", "translation", "mark_at_end"), [
    ("Two girls smile.", "Zwei Mädchen.", 0.1),  # the mark reads "smile", still to translate: cut
    ("A man and his dog walk.", "Ein Mann und sein Hund.", 0.9),  # more than SHORT_SOURCE words
    ("Help!", "Hilfe.", 0.9),  # not the source's mark
    ("A man", "Ein Mann.", 0.9),  # the source has no final mark
])
def test_a_final_mark_the_source_does_not_vouch_for_keeps_its_doubt(source, translation, mark_at_end):
    features = read(source, translation, mark_at_end)
    pieces = len(translation[:-1].split()) + 2  # its words, its mark and EOS
    assert features.mean_log_prob == pytest.approx((-0.1 * (pieces - 1) - 3.0) / pieces)
    assert features.min_log_prob == pytest.approx(-3.0)


def test_a_source_of_four_words_is_very_short():
    assert read("A dog is running.", "Ein Hund rennt.", mark_at_end=0.9).mean_log_prob == pytest.approx(-0.1)
