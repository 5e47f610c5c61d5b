"""A subtitle file's blocks and timing lines (attnmt.documents.cue_blocks), read through
translate_subtitle_text with the stand-in translators of conftest.py."""

import warnings

import pytest

from attnmt.documents.subtitles import translate_subtitle_text


@pytest.mark.parametrize("timing", ["00:00:01,000 --> 00:00:02,000", "00:01,000 --> 00:02.000 line:0"])
def test_a_webvtt_timing_line_with_srts_commas_is_kept_with_a_warning_naming_it(mirror, timing):
    """It was translated without a word, while browsers and webvtt-py drop such a cue."""
    source = f"WEBVTT\n\n{timing}\nA dog runs.\n"
    with pytest.warns(UserWarning) as caught:
        out = translate_subtitle_text(source, mirror, where="in.vtt")
    assert [str(warning.message) for warning in caught] == [
        f"in.vtt, line 3: timings written as {timing!r}, with SRT's commas, not as 00:01.000 --> 00:02.500 (players "
        "skip such a cue); the cue's text is translated and the line kept as it was"]
    assert out == source.replace("A dog runs.", "RUNS. DOG A")


def test_srts_own_commas_give_no_warning(mirror):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        translate_subtitle_text("1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n", mirror)
