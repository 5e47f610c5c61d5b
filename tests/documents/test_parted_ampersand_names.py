"""Names joined by "&" that markup parts (attnmt.documents.split_names) where they stand side by side, or where a
line break or a comment stands inside one, with AmpersandDropping of conftest.py, which drops the words holding "&"
as the demo model did, and Mirror, which moves every word."""

import io

import docx
import pytest
from office_files import read_members, run_texts, text_run, word_paragraph

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

BOLD = "<w:rPr><w:b/></w:rPr>"


@pytest.mark.parametrize("text", [
    "<p>We met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T.</p>",
    "<p>We met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T <b>H</b>&amp;M.</p>",
    "<p>We met <b>Tom</b> &amp; Jerry AT&amp;T <i>H</i>&amp;M.</p>",
])
def test_parted_names_side_by_side_before_a_full_stop_leave_the_model_no_space_before_it(ampersand_dropping, text):
    """Taken out name by name, the first kept the space before it: the model read "We met ."."""
    assert translate_markup([text], ampersand_dropping)[0] == text.replace("We met", "WE MET")
    assert ampersand_dropping.given == ["We met."]


def test_parted_names_side_by_side_stay_whole_and_in_order_where_the_words_move(mirror):
    assert translate_markup(["<p>We met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T.</p>"], mirror)[0] == \
        "<p>MET <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T. WE</p>"
    assert mirror.given == ["We met."]


@pytest.mark.parametrize("name, text", [
    ("in.md", "We met **Tom** & Jerry *AT*&T.\n"),
    ("in.txt", "We met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T.\n"),
    ("in.srt", "1\n00:00:01,000 --> 00:00:02,000\nWe met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T.\n"),
    ("in.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nWe met <b>Tom</b> &amp; Jerry <i>AT</i>&amp;T.\n"),
])
def test_parted_names_side_by_side_before_a_full_stop_in_a_line_or_a_cue(ampersand_dropping, translated, name, text):
    assert translated(ampersand_dropping, name, text) == text.replace("We met", "WE MET")
    assert ampersand_dropping.given == ["We met."]


def test_parted_names_side_by_side_in_word_runs_keep_each_runs_look(ampersand_dropping):
    data = word_paragraph(text_run("We met ") + text_run("Tom", BOLD) + text_run(" &amp; Jerry ")
                          + text_run("AT", BOLD) + text_run("&amp;T."))
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert "".join(run_texts(out)) == "WE MET Tom & Jerry AT&T."
    assert [run.text for run in docx.Document(io.BytesIO(out)).paragraphs[0].runs if run.bold] == ["Tom", "AT"]
    assert ampersand_dropping.given == ["We met."]


@pytest.mark.parametrize("text", [
    "<p>We met Tom<br/>&amp; Jerry today.</p>",
    "<p>We met Tom &amp;<br/>Jerry today.</p>",
    "<p>We met Tom <!-- x -->&amp; Jerry today.</p>",
    "<p>We met AT<!-- x -->&amp;T today.</p>",
])
def test_a_line_break_or_a_comment_inside_a_name_stays_in_its_place_and_the_name_passes_through(ampersand_dropping,
                                                                                               text):
    """Read as words, the "&" went to the model (the line break ended a sentence at "Tom"), which dropped it."""
    assert translate_markup([text], ampersand_dropping)[0] == text.replace("We met", "WE MET").replace("today", "TODAY")
    assert ampersand_dropping.given == ["We met today."]


def test_a_line_break_inside_a_name_goes_with_the_name_where_the_words_move(mirror):
    assert translate_markup(["<p>We met Tom<br/>&amp; Jerry today.</p>"], mirror)[0] == \
        "<p>Tom<br/>&amp; Jerry TODAY. MET WE</p>"


def test_a_paragraph_that_is_a_name_a_line_break_parts_is_given_no_model(ampersand_dropping):
    page = "<p>Marks<br/>&amp; Spencer</p>"
    assert translate_markup([page], ampersand_dropping)[0] == page
    assert ampersand_dropping.given == []


def test_an_empty_line_parts_a_name_into_two_blocks_each_read_as_written(ampersand_dropping):
    """Two line breaks in a row show the words as two blocks: no name crosses them."""
    assert translate_markup(["<p>We met Tom<br/><br/>&amp; Jerry today.</p>"], ampersand_dropping)[0] == \
        "<p>WE MET TOM<br/><br/>JERRY TODAY.</p>"
    assert ampersand_dropping.given == ["We met Tom", "& Jerry today."]


@pytest.mark.parametrize("name, text", [
    ("in.md", "We met Tom  \n& Jerry today.\n"),
    ("in.md", "We met **Tom**<br>& Jerry today.\n"),
    ("in.txt", "We met Tom<br/>&amp; Jerry today.\n"),
    ("in.srt", "1\n00:00:01,000 --> 00:00:02,000\nWe met Tom<br>&amp; Jerry today.\n"),
])
def test_a_line_break_inside_a_name_in_a_line_or_a_cue_stays_in_its_place(ampersand_dropping, translated, name, text):
    assert translated(ampersand_dropping, name, text) == text.replace("We met", "WE MET").replace("today", "TODAY")
    assert ampersand_dropping.given == ["We met today."]


def test_a_line_break_inside_a_name_in_word_runs_stays_in_its_place(ampersand_dropping):
    data = word_paragraph(text_run("We met ") + text_run("Tom", BOLD) + "<w:r><w:br/></w:r>"
                          + text_run("&amp; Jerry today."))
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert run_texts(out) == ["WE MET ", "Tom", "\n& Jerry TODAY."]  # python-docx reads a w:br as "\n"
    assert ampersand_dropping.given == ["We met today."]


@pytest.mark.parametrize("line", [
    r"We met {\b1}Tom{\b0} & Jerry today.",
    r"We met {\i1}AT{\i0}&T today.",
    r"We met Tom {\i1}& Jerry{\i0} today.",
])
def test_a_name_that_ass_override_tags_part_passes_through_with_its_tags(ampersand_dropping, translated, line):
    """The tags are atoms that show nothing: read as words, ``{\\i1}AT{\\i0}&T`` came back ``{\\i1}TODAY{\\i0}``."""
    script = ("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR,"
              " MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{}\n")
    out = translated(ampersand_dropping, "in.ass", script.replace("{}", line))
    assert out == script.replace("{}", line.replace("We met", "WE MET").replace("today", "TODAY"))
    assert ampersand_dropping.given == ["We met today."]


def test_a_bookmark_inside_a_name_in_word_runs_stays_in_its_place(ampersand_dropping):
    bookmark = '<w:bookmarkStart w:id="1" w:name="here"/><w:bookmarkEnd w:id="1"/>'
    data = word_paragraph(text_run("We met Tom ") + bookmark + text_run("&amp; Jerry today."))
    out = translate_office(data, ".docx", ampersand_dropping, DocumentOptions())
    assert run_texts(out) == ["WE MET Tom ", "& Jerry TODAY."]
    assert b'<w:t xml:space="preserve">WE MET Tom </w:t></w:r>' + bookmark.encode() in \
        read_members(out)["word/document.xml"]
    assert ampersand_dropping.given == ["We met today."]
