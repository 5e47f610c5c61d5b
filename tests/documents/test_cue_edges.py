"""What a cue's turn holds at its edges (attnmt.documents.cue_edges): the sound descriptions it
ends with, translated alone and kept last, and what is no description but words of its sentence,
through SRT files translated by conftest.py's stand-ins."""

import pytest
from support import srt

from attnmt.documents.cue_edges import cue_edges
from attnmt.documents.cue_text import tags_of
from attnmt.documents.subtitles import translate_subtitle_text


@pytest.mark.parametrize("lines, translated, given", [
    ("♪ Sing with me ♪ [music]", "♪ ME WITH SING ♪ [MUSIC]", ["Sing with me", "[music]"]),
    ("♪ The dog is running ♪ (cheering)", "♪ RUNNING IS DOG THE ♪ (CHEERING)", ["The dog is running", "(cheering)"]),
    ("<i>♪ The dog is running ♪</i> [MUSIC]", "<i>♪ RUNNING IS DOG THE ♪</i> [MUSIC]",
     ["The dog is running", "[MUSIC]"]),
    ("♪ Sing with me ♪\n[music]", "♪ ME WITH SING ♪\n[MUSIC]", ["Sing with me", "[music]"]),
    ("in the park ♪ [music]", "PARK THE IN ♪ [MUSIC]", ["in the park", "[music]"]),
])
def test_a_lyrics_closing_note_before_a_description_stays_with_the_lyric(mirror, lines, translated, given):
    """The description was taken off the lyric's end, and the note before it was left to the
    model: "Sing with me ♪" came back "♪ ME WITH SING", the cue "♪ ♪ ME WITH SING [MUSIC]"."""
    assert translate_subtitle_text(srt(lines), mirror) == srt(translated)
    assert mirror.given == given


@pytest.mark.parametrize("lines, given", [
    ("Call me (tomorrow).", ["Call me (tomorrow)."]),
    ("Call me tomorrow (ext. 12)", ["Call me tomorrow (ext. 12)"]),
    ("Meet me at five (or six)?", ["Meet me at five (or six)?"]),
    ("He said (quietly) no.", ["He said (quietly) no."]),
])
def test_words_in_parentheses_that_the_sentence_goes_on_over_are_no_description(same, lines, given):
    """"(tomorrow)." was taken off its sentence as a sound description: the model read "Call me"
    and "(tomorrow)." apart, and translated so, "tomorrow" was no part of the call."""
    assert translate_subtitle_text(srt(lines), same) == srt(lines)
    assert same.given == given


@pytest.mark.parametrize("lines, given", [
    ("Call me (DOOR SLAMS).", ["Call me", "(DOOR SLAMS)."]),
    ("Call me. (door slams)", ["Call me.", "(door slams)"]),
    ("Call me, please! (laughs).", ["Call me, please!", "(laughs)."]),
    ("Call me now [door slams].", ["Call me now", "[door slams]."]),
    ("I'm leaving now (door slams)", ["I'm leaving now", "(door slams)"]),
])
def test_a_description_after_a_sentences_end_in_brackets_or_in_capitals_is_still_the_tail(same, lines, given):
    assert translate_subtitle_text(srt(lines), same) == srt(lines)
    assert same.given == given


@pytest.mark.parametrize("lines, translated, given", [
    ("[singing] ♪ Happy birthday to you ♪", "[SINGING] ♪ YOU TO BIRTHDAY HAPPY ♪",
     ["[singing]", "Happy birthday to you"]),
    ("JOHN: ♫ Sing with me ♫", "JOHN: ♫ ME WITH SING ♫", ["Sing with me"]),
    ("(SINGS) ♪ I saw a man", "(SINGS) ♪ MAN A SAW I", ["(SINGS)", "I saw a man"]),
])
def test_a_lyrics_opening_note_after_a_label_stays_after_it(mirror, lines, translated, given):
    """The label was taken off, and the lyric's opening note went to the model with its words:
    "♪ Happy birthday to you" came back "YOU TO BIRTHDAY HAPPY ♪", the cue ending in two notes."""
    assert translate_subtitle_text(srt(lines), mirror) == srt(translated)
    assert mirror.given == given


@pytest.mark.parametrize("cues, translated", [
    (["<i> Hello</i> there."], ["<i> HELLO</i> THERE."]),
    (["<i> Hello there.</i>"], ["<i> HELLO THERE.</i>"]),
    (["{\\i1}<b> Stop</b> here."], ["{\\i1}<b> STOP</b> HERE."]),
    (["I went home", "<i> and then</i> I slept."], ["I WENT HOME", "<i> AND THEN</i> I SLEPT."])])
def test_a_space_right_after_the_start_tags_a_cue_opens_with_stays_inside_them(upper, cues, translated):
    """It was dropped (``<i>HELLO</i> THERE.``): a subtitle editor or a CAT tool comparing the file saw the
    tag's content changed, as the space at its other edge (cue_text) is kept."""
    assert translate_subtitle_text(srt(*cues), upper) == srt(*translated)


def test_a_space_inside_the_start_tags_goes_nowhere_where_the_translation_opens_with_none(mirror):
    """Put before the translation's first word, it would have started the line with a space."""
    assert translate_subtitle_text(srt("<i> Hello</i> there."), mirror) == srt("THERE. <i>HELLO</i>")


@pytest.mark.parametrize("lines, translated", [
    ("<i>\u00a0<b>Hello</b> there.</i>", "<i>\u00a0<b>HELLO</b> THERE.</i>"),
    ("{\\an8}\u00a0<i>Hello</i> there.", "{\\an8}\u00a0<i>HELLO</i> THERE."),
    ("<i>&nbsp;<b>Hello</b> there.</i>", "<i>&nbsp;<b>HELLO</b> THERE.</i>")])
def test_a_no_break_space_after_a_start_tag_stays_before_the_next_one(upper, lines, translated):
    """It went after every start tag the translation opened with: "<i><b>\u00a0HELLO</b>", inside the bold."""
    assert translate_subtitle_text(srt(lines), upper) == srt(translated)


def test_a_lead_before_any_tag_stays_before_a_tail_in_tags():
    """The tail's start tags rebound the name of the text's own (none here), and the no-break space
    went inside the translation's first tag: "<b>\u00a0HALLO</b>"."""
    edges = cue_edges("\u00a0<b>Hello</b> there. <i>[DOOR SLAMS]</i>", tags_of(False))
    assert (edges.body, edges.tail) == ("<b>Hello</b> there.", "<i>[DOOR SLAMS]</i>")
    assert edges.led("<b>HALLO</b> DA.") == "\u00a0<b>HALLO</b> DA."


@pytest.mark.parametrize("text, written, given", [
    ("[MUSIC] ANNA: Where are you?", "[MUSIC] ANNA: YOU? ARE WHERE", ["[MUSIC]", "Where are you?"]),
    ("(door slams) DR. OKAFOR: Who is there?", "SLAMS) (DOOR DR. OKAFOR: THERE? IS WHO",
     ["(door slams)", "Who is there?"]),
    ("<i>[thunder]</i> MAN 2: Run!", "<i>[THUNDER]</i> MAN 2: RUN!", ["[thunder]", "Run!"]),
    ("[MUSIC] KENJI: (whispering) Quiet now.", "[MUSIC] KENJI: (WHISPERING) NOW. QUIET",
     ["[MUSIC]", "(whispering)", "Quiet now."]),
    ("[MUSIC] TRANSLATOR: Ann Goldstein", "[MUSIC] TRANSLATOR: Ann Goldstein",  # a person's name kept as written
     ["[MUSIC]", "TRANSLATOR"]),
    ("(cheering) INGREDIENTS: Flour, eggs, milk.", "(CHEERING) INGREDIENTS: MILK. EGGS, FLOUR,",
     ["(cheering)", "INGREDIENTS", "Flour, eggs, milk."]),
])
def test_a_speakers_name_or_a_fields_after_a_description_in_a_cue_is_read_as_at_its_start(mirror, text, written,
                                                                                         given):
    """As in a text line: the cue took a name only at its label's start, and the demo model wrote "[MUSIC] ANNA:
    Where are you?" as "[MUSIK] Auf diesem Fünen.", ANNA lost, and read "TRANSLATOR: Ann Goldstein" after "[MUSIC]"
    whole.  The description and a field's name are each translated alone, the speaker's name kept as written."""
    assert translate_subtitle_text(srt(text), mirror) == srt(written)
    assert mirror.given == given


def test_a_speakers_name_after_a_description_starts_a_new_speaker_whom_the_cue_before_does_not_run_on_into(mirror):
    """"I was walking with" / "[MUSIC] ANNA: ...my dog." was read as one sentence, ANNA's words another speaker's."""
    out = translate_subtitle_text(srt("I was walking with", "[MUSIC] ANNA: ...my dog."), mirror)
    assert out == srt("WITH WALKING WAS I", "[MUSIC] ANNA: ...DOG. MY")
    assert mirror.given == ["I was walking with", "[MUSIC]", "my dog."]
