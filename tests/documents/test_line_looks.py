"""A field's or a remark's name that a look of its own sets apart at a text line's or a cue's start is translated
alone inside its look, its colon kept, and the words after it are a sentence, as a page's block reads it
(attnmt.documents.line_looks, attnmt.documents.cue_labels): read whole, the demo model wrote "<b>WARNING:</b> Do not
touch the dog." as "Ein <b>bereitet</b> sich zu." in a text line and a cue alike."""

import pytest
from conftest import Judging
from support import srt

from attnmt.decoding.garbled_labels import FLOOR
from attnmt.documents.pipeline import translate_lines
from attnmt.documents.subtitles import translate_subtitle_text


@pytest.mark.parametrize(("line", "written", "given"), [
    ("<b>WARNING:</b> Do not touch the dog.", "<b>WARNING:</b> DOG. THE TOUCH NOT DO",
     ["WARNING", "Do not touch the dog."]),
    ("<strong>Note:</strong> the park closes at 6.", "<strong>NOTE:</strong> 6. AT CLOSES PARK THE",
     ["Note", "the park closes at 6."]),
    ("**Warning:** Do not touch the dog.", "**WARNING:** DOG. THE TOUCH NOT DO", ["Warning", "Do not touch the dog."]),
    ("- <b>Step 1:</b> open the door.", "- <b>1 STEP:</b> DOOR. THE OPEN", ["Step 1", "open the door."]),
    ("**Side Effects**: a big cat.", "**EFFECTS SIDE**: CAT. BIG A", ["Side Effects", "a big cat."]),
])
def test_a_name_a_look_sets_apart_at_a_lines_start_is_translated_alone_inside_its_look(mirror, line, written, given):
    assert translate_lines([line], mirror) == [written]
    assert mirror.given == given


def test_a_look_around_no_fields_name_is_read_with_its_sentence_as_before(mirror):
    """A bold word that is no name ("A red"), a remark's word read as a sentence's ("Note that:"), and a look that
    goes on past the colon ("<b>Tip: add</b> salt.") are the sentence's, as a page's are."""
    lines = ["<b>A red</b> hat.", "<b>Note that:</b> a dog.", "**Warning signs of:** a cat.", "<b>Tip: add</b> salt."]
    assert translate_lines(lines, mirror) == ["HAT. <b>RED A</b>", "DOG. A <b>THAT: NOTE</b>",
                                              "CAT. A **OF: SIGNS WARNING**", "SALT. <b>ADD TIP</b>:"]
    assert mirror.given == ["A red hat.", "Note that: a dog.", "Warning signs of: a cat.", "Tip: add salt."]


def test_a_set_apart_name_the_model_garbles_keeps_its_source_in_a_line_and_a_cue(mirror):
    """The short label's guard judges the name alone, as a page's "<b>Tip:</b>" (attnmt.documents.short_labels)."""
    judging = Judging(mirror, {"Tip": FLOOR / 2, "WARNING": FLOOR / 2})
    assert translate_lines(["<b>Tip:</b> add salt.", "<b>WARNING:</b> hot water."], judging) == [
        "<b>Tip:</b> SALT. ADD", "<b>WARNING:</b> WATER. HOT"]
    assert translate_subtitle_text(srt("<b>Tip:</b> add salt."), judging) == srt("<b>Tip:</b> SALT. ADD")
    assert [source for source, _ in judging.judged] == ["Tip", "Tip"]  # "WARNING" came back as it was


@pytest.mark.parametrize(("cue", "written", "given"), [
    ("<b>WARNING:</b> Do not touch the dog.", "<b>WARNING:</b> DOG. THE TOUCH NOT DO",
     ["WARNING", "Do not touch the dog."]),
    ("<i>Note:</i> the park closes at 6.", "<i>NOTE:</i> 6. AT CLOSES PARK THE", ["Note", "the park closes at 6."]),
    ('<font color="#ffff00">Tip:</font> add salt.', '<font color="#ffff00">TIP:</font> SALT. ADD',
     ["Tip", "add salt."]),
])
def test_a_name_a_tag_sets_apart_at_a_cues_start_is_translated_alone_inside_its_tag(mirror, cue, written, given):
    assert translate_subtitle_text(srt(cue), mirror) == srt(written)
    assert mirror.given == given


def test_a_tag_around_no_fields_name_in_a_cue_is_read_with_its_sentence_as_before(mirror):
    assert translate_subtitle_text(srt("<b>Note that:</b> a dog.", "<i>Tip: add</i> salt."), mirror) == srt(
        "DOG. A <b>THAT: NOTE</b>", "SALT. <i>ADD TIP</i>:")
    assert mirror.given == ["Note that: a dog.", "Tip: add salt."]


def test_a_speakers_label_a_look_sets_apart_at_a_lines_start_is_kept_whole(mirror):
    """As a page's "<p><b>INTERVIEWER:</b> How did you start?</p>": read as words, the demo model wrote "<b>ANNA:</b>
    Where are you going?" as "Ein <b>Feuerwehrmann</b> bereitet sich?"."""
    lines = ["<b>ANNA:</b> Where are you going?", "- **INTERVIEWER:** How did you start?"]
    assert translate_lines(lines, mirror) == ["<b>ANNA:</b> GOING? YOU ARE WHERE",
                                              "- **INTERVIEWER:** START? YOU DID HOW"]
    assert mirror.given == ["Where are you going?", "How did you start?"]
