"""A name joined by "&" (attnmt.decoding.protected.AMPERSAND_NAME: ``Tom & Jerry``, ``AT&T``) passes through a line
of plain text and a JSONL text as it passes through a subtitle's cue (test_cue_text), with the stand-in translators
of conftest.py: the demo model, whose vocabulary writes "&", dropped it ("We watched Tom & Jerry." came back "Ein
bereitet sich.", "A man works at AT&T." "Ein Mann arbeitet in der Nähe eines Footballs.")."""

import pytest

from attnmt.documents.cue_text import tags_of
from attnmt.documents.cue_wrap import wrap
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.sentence_translate import sentence_reads, written

NAMES = [  # (text, what the model reads of it, what comes back from AmpersandDropping)
    ("We watched Tom & Jerry.", "We watched.", "WE WATCHED Tom & Jerry."),
    ("A man works at AT&T.", "A man works at.", "A MAN WORKS AT AT&T."),
    ("Salt & pepper, R & D.", "Salt & pepper, R & D.", "SALT PEPPER, R D."),  # no name: the model's to translate
]


@pytest.mark.parametrize("text, given, expected", NAMES)
def test_a_name_joined_by_an_ampersand_passes_through_a_text_line_as_written(ampersand_dropping, text, given,
                                                                             expected):
    out = translate_file_bytes(f"{text}\n".encode(), "in.txt", ampersand_dropping, DocumentOptions())
    assert out.decode() == f"{expected}\n"
    assert ampersand_dropping.given == [given]


@pytest.mark.parametrize("text, given, expected", NAMES)
def test_a_name_joined_by_an_ampersand_passes_through_a_jsonl_text_as_written(ampersand_dropping, text, given,
                                                                              expected):
    """As ``attnmt translate --input-format jsonl`` and ``attnmt.translate`` read and write a text."""
    [sentence], [read] = sentence_reads([text], [None], lambda _: True)
    assert read == given
    translation = ampersand_dropping.texts([read])[0]
    assert written(text, sentence, read, translation, None, lambda _: True, ampersand_dropping.weights) == expected


def test_a_name_in_a_line_of_html_passes_through_as_written(ampersand_dropping):
    """Its "&amp;" too: read as "&", the name would have come back "Tom & Jerry"."""
    line = "We met <b>Tom &amp; Jerry</b> at H&M.\n"
    out = translate_file_bytes(line.encode(), "in.txt", ampersand_dropping, DocumentOptions())
    assert out.decode() == "WE MET <b>Tom &amp; Jerry</b> AT H&M.\n"
    assert ampersand_dropping.given == ["We met at."]


def test_a_line_of_html_writes_the_models_ampersand_as_the_rest_of_the_line_wrote_its_own(same):
    """The name's "&amp;" had every "&" of the line written so."""
    line = "<b>Tom &amp; Jerry</b> & friends run.\n"
    assert translate_file_bytes(line.encode(), "in.txt", same, DocumentOptions()).decode() == line
    assert same.given == ["& friends run."]


@pytest.mark.parametrize("name, text", [
    ("in.txt", "We met <b>Tom</b> &amp; Jerry today.\n"),
    ("in.srt", "1\n00:00:01,000 --> 00:00:02,000\nWe met <i>Tom</i> &amp; Jerry today.\n"),
])
def test_a_name_a_tag_parts_in_a_text_line_or_a_cue_keeps_its_tags_and_its_written_ampersand(ampersand_dropping,
                                                                                             translated, name, text):
    """Read piece by piece, no piece held the name; taken out whole, read, its "&" is written as the line wrote it."""
    assert translated(ampersand_dropping, name, text) == text.replace("We met", "WE MET").replace("today", "TODAY")
    assert ampersand_dropping.given == ["We met today."]


@pytest.mark.parametrize("text, lines", [
    ("WE MET Tom &amp; Jerry TODAY.", ["WE MET", "Tom &amp; Jerry TODAY."]),
    ("WE MET <b>Tom</b> &amp; Jerry TODAY.", ["WE MET", "<b>Tom</b> &amp; Jerry TODAY."]),
    ("WE MET Tom & Jerry TODAY.", ["WE MET", "Tom & Jerry TODAY."]),
])
def test_a_cues_lines_are_never_cut_inside_a_name_joined_by_an_ampersand(text, lines):
    """The most even cut parted the name: "WE MET Tom &amp;" / "Jerry TODAY."."""
    assert wrap(text, 2, tags_of(False)) == lines


def test_a_cue_whose_source_broke_a_line_inside_a_name_keeps_the_name_on_one_line(ampersand_dropping, translated):
    cue = "1\n00:00:01,000 --> 00:00:02,000\n{}\n"
    assert translated(ampersand_dropping, "in.srt", cue.format("We met Tom\n&amp; Jerry today.")) == \
        cue.format("WE MET\nTom &amp; Jerry TODAY.")
    assert ampersand_dropping.given == ["We met today."]
