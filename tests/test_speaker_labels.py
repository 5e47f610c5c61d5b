"""A speaker's label at a line's start (attnmt.text.speaker_labels): a name in capitals before a colon, or an
interview's "Q:" and "A:", but not a remark's word ("NOTE:") nor a word in mixed case."""

import pytest

from attnmt.text.speaker_labels import speaker_label


@pytest.mark.parametrize("line, label", [
    ("ANNA: Where are you going?", "ANNA:"),
    ("  MAN 2: Come in.", "MAN 2:"),
    ("DR. SMITH (V.O.): Hello.", "DR. SMITH (V.O.):"),
    ("INTERVIEWER: What do you do?", "INTERVIEWER:"),
    ("Q: How long?", "Q:"),
    ("A: Two years.", "A:"),
])
def test_a_name_in_capitals_or_an_interviews_letter_before_a_colon_is_a_speakers_label(line, label):
    assert speaker_label(line)["label"] == label


@pytest.mark.parametrize("line", [
    "NOTE: Do not touch.", "WARNING: Hot.", "P.S.: I love you.", "IMPORTANT NOTE: Read it.",  # a remark's word
    "Anna: Hi.", "I: went home.", "ANNA:", "HTTP://EXAMPLE.ORG is down.", "Time: 10:30",
])
def test_a_remarks_word_a_name_in_mixed_case_or_a_label_with_no_words_after_it_is_none(line):
    assert speaker_label(line) is None
