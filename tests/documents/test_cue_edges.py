"""What a cue's turn holds at its edges (attnmt.documents.cue_edges): the sound descriptions it
ends with, translated alone and kept last, and what is no description but words of its sentence,
through SRT files translated by conftest.py's stand-ins."""

import pytest

from attnmt.documents.subtitles import translate_subtitle_text


def srt(*cues: str) -> str:
    """An SRT file with one cue a second."""
    return "\n".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k + 1},000\n{text}\n" for k, text in enumerate(cues))


@pytest.mark.parametrize("lines, translated, given", [
    ("♪ La la la ♪ [music]", "♪ LA LA LA ♪ [MUSIC]", ["La la la", "[music]"]),
    ("♪ The dog is running ♪ (cheering)", "♪ RUNNING IS DOG THE ♪ (CHEERING)", ["The dog is running", "(cheering)"]),
    ("<i>♪ The dog is running ♪</i> [MUSIC]", "<i>♪ RUNNING IS DOG THE ♪</i> [MUSIC]",
     ["The dog is running", "[MUSIC]"]),
    ("♪ La la la ♪\n[music]", "♪ LA LA LA ♪\n[MUSIC]", ["La la la", "[music]"]),
    ("in the park ♪ [music]", "PARK THE IN ♪ [MUSIC]", ["in the park", "[music]"]),
])
def test_a_lyrics_closing_note_before_a_description_stays_with_the_lyric(mirror, lines, translated, given):
    """The description was taken off the lyric's end, and the note before it was left to the
    model: "La la la ♪" came back "♪ LA LA LA", the cue "♪ ♪ LA LA LA [MUSIC]"."""
    assert translate_subtitle_text(srt(lines), mirror) == srt(translated)
    assert mirror.given == given
