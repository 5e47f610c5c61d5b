"""Text files in UTF-16 with a byte order mark (Subtitle Edit's and Windows Notepad's "Unicode"):
read, translated and written back in their encoding, their mark and line endings kept
(attnmt.documents.files), checked with Python's codecs and the ``srt`` package."""

import codecs
import re

import pytest
import srt

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import UserError

OPTIONS = DocumentOptions()
MARKS = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE, "utf-32-le": codecs.BOM_UTF32_LE}
ASS = ("[Script Info]\r\nScriptType: v4.00+\r\n\r\n[Events]\r\n"
       "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n"
       "Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,A caf\u00e9 opens.\r\n")
# (name, text, its translation by Mirror): CRLF throughout, as Windows tools write them
FILES = [
    ("film.srt", "1\r\n00:00:01,000 --> 00:00:02,000\r\nA caf\u00e9 opens.\r\n\r\n"
                 "2\r\n00:00:03,000 --> 00:00:04,000\r\nA dog runs.\r\n",
     "1\r\n00:00:01,000 --> 00:00:02,000\r\nOPENS. CAF\u00c9 A\r\n\r\n"
     "2\r\n00:00:03,000 --> 00:00:04,000\r\nRUNS. DOG A\r\n"),
    ("film.vtt", "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nA caf\u00e9 opens.\r\n",
     "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nOPENS. CAF\u00c9 A\r\n"),
    ("film.ass", ASS, ASS.replace("A caf\u00e9 opens.", "OPENS. CAF\u00c9 A")),
    ("read.md", "# A caf\u00e9\r\n\r\nA dog runs.\r\n", "# CAF\u00c9 A\r\n\r\nRUNS. DOG A\r\n"),
    ("notes.txt", "A caf\u00e9 opens.\r\n\r\nA dog runs.\r\n", "OPENS. CAF\u00c9 A\r\n\r\nRUNS. DOG A\r\n"),
]


@pytest.mark.parametrize("encoding", list(MARKS))
@pytest.mark.parametrize(("name", "text", "translated"), FILES, ids=[name for name, _, _ in FILES])
def test_a_utf16_text_file_with_a_byte_order_mark_is_written_back_in_it(mirror, encoding, name, text, translated):
    """Such a file was refused as "the text is UTF-16, not UTF-8", with iconv's advice, where its mark
    says its encoding as surely as UTF-8's does (and HTML and XML in UTF-16 were read).  UTF-32's alike."""
    out = translate_file_bytes(MARKS[encoding] + text.encode(encoding), name, mirror, OPTIONS)
    assert out.startswith(MARKS[encoding])
    assert codecs.decode(out[len(MARKS[encoding]):], encoding) == translated


def test_a_utf16_srt_file_reads_as_subtitles_in_its_translation(mirror):
    out = translate_file_bytes(codecs.BOM_UTF16_LE + FILES[0][1].encode("utf-16-le"), "film.srt", mirror, OPTIONS)
    cues = list(srt.parse(out.decode("utf-16")))
    assert [(cue.index, cue.start.seconds, cue.content) for cue in cues] == [(1, 1, "OPENS. CAF\u00c9 A"),
                                                                             (2, 3, "RUNS. DOG A")]


@pytest.mark.parametrize(("name", "data", "said"), [
    ("film.srt", "1\r\n00:00:01,000 --> 00:00:02,000\r\nA man.\r\n".encode("utf-16-le"),
     "film.srt: the text is UTF-16LE, not UTF-8 (every other byte is 0); convert it to UTF-8 first"),
    ("notes.txt", "A caf\u00e9.\n".encode("cp1252"),
     "notes.txt, line 1: the text is not UTF-8 (byte 0xe9); convert it to UTF-8 first"),
], ids=["utf16-without-mark", "cp1252"])
def test_a_file_without_a_byte_order_mark_that_is_not_utf8_is_still_refused(same, name, data, said):
    with pytest.raises(UserError, match="^" + re.escape(said)):
        translate_file_bytes(data, name, same, OPTIONS)
    assert same.given == []


@pytest.mark.parametrize("encoding", list(MARKS))
def test_a_utf16_file_with_half_a_character_names_its_line_and_mark(same, encoding):
    """A lone surrogate (a file joined at a cut pair) on line 3 of a UTF-16 subtitle file."""
    text = FILES[0][1].encode(encoding)
    lone = "\ud83d".encode(encoding, "surrogatepass")
    data = MARKS[encoding] + text[:text.index("A".encode(encoding))] + lone + text[text.index("A".encode(encoding)):]
    said = f"film.srt, line 3: the text is not {encoding}, which its byte order mark says"
    with pytest.raises(UserError, match="^" + re.escape(said)):
        translate_file_bytes(data, "film.srt", same, OPTIONS)
    assert same.given == []
