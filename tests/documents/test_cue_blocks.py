"""A subtitle file's blocks and timing lines (attnmt.documents.cue_blocks), read through
translate_subtitle_text with the stand-in translators of conftest.py."""

import warnings

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
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


NEXT_CUE = "\n\n2\n00:00:02,000 --> 00:00:03,000\nA cat sleeps.\n"


@pytest.mark.parametrize("source", [
    "1\n00:00:01,000 --> 00:00:02,000\nA man walks.\n  \nA dog runs." + NEXT_CUE,
    "WEBVTT\n\n00:01.000 --> 00:04.000\nA man walks.\n \t\nA dog runs.\n\n00:04.000 --> 00:06.000\nA cat sleeps.\n",
    "1\n00:00:01,000 --> 00:00:02,000\n- A man walks.\n  \n- A dog runs." + NEXT_CUE,
])
def test_a_line_of_spaces_inside_a_cue_stays_in_it_as_it_is(mirror, source):
    """It ended the cue: the text after it was left untranslated, with a warning to take out the
    blank line, while srt and webvtt-py read one cue."""
    assert translated_without_warnings(source, mirror) == mirrored(source)


@pytest.mark.parametrize("source", [
    "1\n00:00:01,000 --> 00:00:02,000\nA man walks.\n  \n2\n00:00:02,000 --> 00:00:03,000\nA dog runs.\n \t\n"
    "3\n00:00:03,000 --> 00:00:04,000\nA cat sleeps.\n",
    "WEBVTT\n\n00:01.000 --> 00:02.000\nA man walks.\n \n00:02.000 --> 00:03.000\nA dog runs.\n",
])
def test_cues_parted_by_a_line_of_spaces_give_no_warning(mirror, source):
    """Editors leave spaces on the line between cues: each such cue was warned about as one
    starting "without a blank line before it", though it was read and written back right."""
    assert translated_without_warnings(source, mirror) == mirrored(source)
    assert mirror.given == [text for text in ("A man walks.", "A dog runs.", "A cat sleeps.") if text in source]


def translated_without_warnings(source, mirror):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return translate_subtitle_text(source, mirror)


def mirrored(source):
    """``source`` with each of its sentences as the ``mirror`` stand-in writes it."""
    for text in ("A man walks.", "A dog runs.", "A cat sleeps."):
        source = source.replace(text, " ".join(word.upper() for word in reversed(text.split())))
    return source


@pytest.mark.parametrize(("source", "line"), [
    ("WEBVTT\n\n00:01.000 --> 00:02.000\n00:02.000 --> 00:04.000\nA man walks.\n\n00:05.000 --> 00:06.000\n"
     "A dog runs.\n", 4),
    ("1\n00:00:01,000 --> 00:00:02,000\n00:00:02,000 --> 00:00:04,000\nA man walks.\n\n"
     "2\n00:00:05,000 --> 00:00:06,000\nA dog runs.\n", 3),
    ("WEBVTT\n\n1\n00:01.000 --> 00:02.000\n2\n00:02.000 --> 00:04.000\nA man walks.\n\n3\n00:05.000 --> 00:06.000\n"
     "A dog runs.\n", 5),
])
def test_a_timing_line_right_after_a_timing_line_starts_a_cue_with_a_warning(mirror, source, line):
    """An empty cue run on into the next: the second timing line was read as cue text, given to
    the model with the text and lost, with no warning; WebVTT's parser ends cue text at it.  A
    WebVTT cue without text (after its identifier, too) gained a blank line in the output."""
    with pytest.warns(UserWarning) as caught:
        out = translate_subtitle_text(source, mirror, where="in")
    assert [str(warning.message) for warning in caught] == [
        f"in, line {line}: a cue starts without a blank line before it; it is translated as a cue of its own"]
    assert out == mirrored(source)
    assert mirror.given == ["A man walks.", "A dog runs."]


@pytest.mark.parametrize("source, translated", [
    ("\ufeff", "\ufeff"),  # an empty subtitle file saved with a byte order mark
    ("\ufeff\r\n", "\ufeff\r\n"),
    ("\ufeff\n\n1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n",
     "\ufeff\n\n1\n00:00:01,000 --> 00:00:02,000\nRUNS. DOG A\n"),
])
def test_a_byte_order_mark_alone_on_its_line_is_no_block_to_warn_about(mirror, source, translated):
    """It was read as a block without a timing line: "line 1: a block without a timing line ... is
    not a cue, so it is left untranslated", for a file with nothing in it to translate."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert translate_subtitle_text(source, mirror) == translated


def test_a_webvtt_headers_language_is_the_target_language_once_translated(upper):
    """YouTube's captions say ``Language: en`` below ``WEBVTT``: translated into German, the file still said
    English, and a player or an upload offered its cues as English.  A cue's own words stay the model's."""
    source = "WEBVTT\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:02.000\nLanguage: en is a code.\n"
    out = translate_subtitle_text(source, upper, DocumentOptions(target_lang="de"))
    assert out == "WEBVTT\nKind: captions\nLanguage: de\n\n00:01.000 --> 00:02.000\nLANGUAGE: EN IS A CODE.\n"
    assert translate_subtitle_text(source, upper).startswith("WEBVTT\nKind: captions\nLanguage: en\n")


@pytest.mark.parametrize("timing, past, readers", [
    ("00:00:61,000 --> 00:01:02,000", "61 seconds", "srt and pysubs2 carry them into the next unit"),
    ("00:75:01,000 --> 00:75:03,000", "75 minutes", "srt and pysubs2 carry them into the next unit"),
    ("01:00:00,000 --> 01:00:60,500", "60 seconds", "srt and pysubs2 carry them into the next unit"),
    ("WEBVTT:00:01:99.000 --> 00:02:00.000", "99 seconds", "browsers and webvtt-py skip such a cue"),
    ("WEBVTT:75:01.000 --> 75:03.000 line:0", "75 minutes", "browsers and webvtt-py skip such a cue"),
])
def test_a_time_past_59_minutes_or_seconds_is_kept_with_a_warning_naming_its_line(mirror, timing, past, readers):
    """It was translated without a word, while browsers and webvtt-py drop such a cue, and srt and pysubs2 read
    00:00:61,000 as 00:01:01,000: a typo only the file's author can set right."""
    vtt = timing.startswith("WEBVTT:")
    timing = timing.removeprefix("WEBVTT:")
    source = (f"WEBVTT\n\nNOTE x\n\nintro\n{timing}\nA dog runs.\n" if vtt
              else f"1\n00:00:01,000 --> 00:00:02,000\nA cat.\n\n2\n{timing}\nA dog runs.\n")
    with pytest.warns(UserWarning) as caught:
        out = translate_subtitle_text(source, mirror, where="in.sub")
    unit = past.split()[1]
    assert [str(warning.message) for warning in caught] == [
        f"in.sub, line 6: timings {timing!r} count {past}, where a time's {unit} run to 59 ({readers}); the cue's "
        "text is translated and the line kept as it was"]
    assert out == source.replace("A dog runs.", "RUNS. DOG A").replace("A cat.", "CAT. A")


def test_times_of_59_minutes_and_seconds_or_of_many_hours_give_no_warning(mirror):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        translate_subtitle_text("1\n00:59:59,999 --> 123:00:00,000\nHi.\n", mirror)
        translate_subtitle_text("WEBVTT\n\n59:59.999 --> 100:00:00.000\nHi.\n", mirror)


CUES = ("00:01.000 --> 00:02.000 line:0\n<v Anna>A dog <00:01.500>runs fast.\n\nNOTE kept\n\n"
        "00:03.000 --> 00:04.000\nA cat.\n")


@pytest.mark.parametrize("first", ["", "1\n", "webvtt\n\n", "WEBVTT-en\n\n", "\nWEBVTT\n\n"])
def test_a_webvtt_file_without_its_header_is_translated_as_webvtt_with_a_warning_naming_line_1(mirror, first):
    """It was translated without a word, as SRT: its timestamp read as words, its NOTE left with a warning
    that it was no cue; browsers and webvtt-py refuse such a file whole."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        whole = translate_subtitle_text("WEBVTT\n\n" + CUES, mirror).removeprefix("WEBVTT\n\n")
    source = first + CUES
    with pytest.warns(UserWarning) as caught:
        sent = translate_file_bytes(source.encode(), "film.vtt", mirror, DocumentOptions()).decode()
    assert sent == first + whole  # as the same cues under their header, the file's lines kept
    shown = source.split("\n")[0]
    assert [str(warning.message) for warning in caught] == [
        f"film.vtt, line 1: a WebVTT file starts with the line WEBVTT, not {shown!r}; browsers and webvtt-py refuse "
        "a file without it, and so it is translated as WebVTT and written as it was (add WEBVTT and a blank line "
        "before its first line)"]


def test_an_srt_file_named_vtt_is_translated_as_srt_with_one_warning(mirror):
    """Read as WebVTT, each of its cues was warned about for SRT's commas."""
    source = "1\n00:00:01,000 --> 00:00:02,000\n<i>A dog</i> runs.\n\n2\n00:00:03,000 --> 00:00:04,000\nA cat.\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        as_srt = translate_file_bytes(source.encode(), "film.srt", mirror, DocumentOptions())
    with pytest.warns(UserWarning) as caught:
        assert translate_file_bytes(source.encode(), "film.vtt", mirror, DocumentOptions()) == as_srt
    assert [str(warning.message) for warning in caught] == [
        "film.vtt, line 1: a WebVTT file starts with the line WEBVTT, not '1'; browsers and webvtt-py refuse a file "
        "without it, and its timings are SRT's, so it is translated as SRT (name it .srt)"]


@pytest.mark.parametrize("name, source", [
    ("film.vtt", "WEBVTT - English\n\n" + CUES),
    ("film.webvtt", "\ufeffWEBVTT\tx\n\n" + CUES),
    ("film.vtt", "WEBVTT"),
    ("film.vtt", "\n\n"),
    ("film.srt", "1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n"),
])
def test_a_webvtt_header_an_empty_file_or_an_srt_file_gives_no_warning(mirror, name, source):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        translate_file_bytes(source.encode(), name, mirror, DocumentOptions())


@pytest.mark.parametrize("timing", ["00:01.5 --> 00:02.000", "00:03 --> 00:04.000", "00:05.000 --> 00:06.0000",
                                    "0:01.000 --> 0:02.000", "00:00:07.000 --> 00:00:08.50 align:start"])
def test_a_webvtt_time_with_other_digits_is_kept_with_a_warning_naming_its_line(mirror, timing):
    """Browsers skip such a cue (three digits after the point, two of minutes and seconds: WebVTT's parsing rules),
    as webvtt-py does all but 00:01.5; it was translated without a word."""
    source = f"WEBVTT\n\n{timing}\nA dog runs.\n\n00:09.000 --> 00:10.000\nA cat.\n"
    with pytest.warns(UserWarning) as caught:
        out = translate_subtitle_text(source, mirror, where="in.vtt")
    assert [str(warning.message) for warning in caught] == [
        f"in.vtt, line 3: timings written as {timing!r}, not as 00:01.000 --> 00:02.500 (browsers skip such a cue: a "
        "WebVTT time has two digits of minutes and of seconds and three after its point); the cue's text is "
        "translated and the line kept as it was"]
    assert out == source.replace("A dog runs.", "RUNS. DOG A").replace("A cat.", "CAT. A")


def test_srt_times_of_other_digits_than_webvtts_give_no_warning(mirror):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        translate_subtitle_text("1\n0:00:01,5 --> 0:00:02,25\nHi.\n", mirror)
        translate_subtitle_text("WEBVTT\n\n1:00:01.500 --> 100:00:02.250\nHi.\n", mirror)
