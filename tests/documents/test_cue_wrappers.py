"""A tag or code over a subtitle cue's whole text (attnmt.documents.cue_wrappers): kept around it, so
that a sentence runs on into the next cue wrapped alike, through SRT files translated by conftest.py's
stand-ins."""

import pytest
from support import srt

from attnmt.documents.cue_text import ass_text, tags_of
from attnmt.documents.cue_wrappers import outer
from attnmt.documents.subtitles import translate_subtitle_text


@pytest.mark.parametrize("cues, written", [
    (["<i>A young woman in a red coat</i>", "<i>is crossing the bridge.</i>"],
     ["<i>BRIDGE. THE CROSSING</i>", "<i>IS COAT RED A IN WOMAN YOUNG A</i>"]),
    (["{\\i1}A young woman in a red coat{\\i0}", "{\\i1}is crossing the bridge.{\\i0}"],
     ["{\\i1}BRIDGE. THE CROSSING{\\i0}", "{\\i1}IS COAT RED A IN WOMAN YOUNG A{\\i0}"]),
])
def test_a_sentence_runs_on_between_cues_in_the_same_tag_each_kept_in_it(mirror, cues, written):
    """A narrator in italics over two cues: the second, translated alone, came back with a subject the
    demo model made up ("is crossing the bridge." -> "Eine Frau geht über die Brücke.")."""
    assert translate_subtitle_text(srt(*cues), mirror) == srt(*written)
    assert mirror.given == ["A young woman in a red coat is crossing the bridge."]


@pytest.mark.parametrize("cues, written", [
    (["<i>A young woman</i>\n<i>in a red coat</i>", "<i>is crossing the bridge.</i>"],
     ["<i>BRIDGE. THE</i>\n<i>CROSSING</i>", "<i>IS COAT RED A IN WOMAN YOUNG A</i>"]),
    (["<i>A young woman</i>\n<i>in a red coat</i>", "<i>is crossing</i>\n<i>the bridge.</i>"],
     ["<i>BRIDGE. THE</i>\n<i>CROSSING</i>", "<i>IS COAT RED A</i>\n<i>IN WOMAN YOUNG A</i>"]),
    (["{\\i1}A young woman{\\i0}\n{\\i1}in a red coat{\\i0}", "{\\i1}is crossing the bridge.{\\i0}"],
     ["{\\i1}BRIDGE. THE{\\i0}\n{\\i1}CROSSING{\\i0}", "{\\i1}IS COAT RED A IN WOMAN YOUNG A{\\i0}"]),
])
def test_a_sentence_runs_on_from_a_cue_in_italics_a_line_as_subtitle_edit_writes_them(mirror, cues, written):
    """Its tags taken out of its text line by line (cue_line_tags), such a cue counted as one with tags, and the
    next cue, translated alone, came back as "Eine Brücke überquert die Brücke."."""
    assert translate_subtitle_text(srt(*cues), mirror) == srt(*written)
    assert mirror.given == ["A young woman in a red coat is crossing the bridge."]


def test_a_speakers_turn_in_italics_runs_on_into_the_next_cue_in_italics(mirror):
    """ "<i>- He is walking to</i>" / "<i>the market.</i>": the next, alone, came back as "Ein Markt mit
    seinem Hund."."""
    out = translate_subtitle_text(srt("<i>- Where is he?</i>\n<i>- He is walking to</i>", "<i>the market.</i>"), mirror)
    assert out == srt("<i>- HE? IS WHERE</i>\n<i>- MARKET.</i>", "<i>THE TO WALKING IS HE</i>")
    assert mirror.given == ["Where is he?", "He is walking to the market."]


def vtt(*cues: str) -> str:
    """A WebVTT file with one cue a second."""
    return "WEBVTT\n\n" + "\n".join(f"00:0{k}.000 --> 00:0{k + 1}.000\n{text}\n" for k, text in enumerate(cues))


def test_a_sentence_runs_on_between_cues_of_one_voice_in_the_same_tag(mirror):
    """ "<v Anna><i>A man is walking</i></v>" / "<v Anna><i>down the street.</i></v>": the second, alone,
    came back as "Eine Straße entlang."."""
    out = translate_subtitle_text(vtt("<v Anna><i>A man is walking</i></v>", "<v Anna><i>down the street.</i></v>"),
                                  mirror)
    assert out == vtt("<v Anna><i>STREET. THE</i></v>", "<v Anna><i>DOWN WALKING IS MAN A</i></v>")
    assert mirror.given == ["A man is walking down the street."]


@pytest.mark.parametrize("cues", [
    ["<i>A young woman in a red coat</i>", "is crossing the bridge."],
    ["<i>A young woman</i>\n<i>in a red coat</i>", "is crossing the bridge."],
    ["<i>A young woman in a red coat</i>", "<b>is crossing the bridge.</b>"],
    ["<i>A young woman in a <b>red</b> coat</i>", "<i>is crossing the bridge.</i>"],
])
def test_cues_in_other_tags_or_with_tags_inside_stay_apart(same, cues):
    assert translate_subtitle_text(srt(*cues), same) == srt(*cues)
    assert same.given == ["A young woman in a red coat", "is crossing the bridge."]


@pytest.mark.parametrize("text, found", [
    ("<i>Hello there.</i>", ("<i>", "Hello there.", "</i>")),
    ('<font color="#ffff00">Hello.</font>', ('<font color="#ffff00">', "Hello.", "</font>")),
    ("<v Anna> Hello.</v>", ("<v Anna> ", "Hello.", "</v>")),  # a voice span's, cue_lines.speaker
    ("<v Anna><i>Hello.</i></v>", ("<v Anna><i>", "Hello.", "</i></v>")),
    ("<i> Hello.</i>", ("", "<i> Hello.</i>", "")),  # a space at its edge: the tag's own
    ("<i>Hello.</i> Bye.", ("", "<i>Hello.</i> Bye.", "")),
    ("{\\an8}Hello.", ("", "{\\an8}Hello.", "")),
    ("{\\p1}m 0 0 l 10 0{\\p0}", ("", "{\\p1}m 0 0 l 10 0{\\p0}", "")),  # a drawing is one code, no words
])
def test_outer_finds_one_tag_over_a_whole_cue(text, found):
    assert outer(text, tags_of(False)) == found


def test_an_ass_files_angle_brackets_are_text_not_a_tag_around_it():
    with ass_text():
        assert outer("<i>Hello.</i>", tags_of(False)) == ("", "<i>Hello.</i>", "")
