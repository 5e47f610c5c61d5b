"""The archive an office file or e-book is, written again (attnmt.documents.archive): its members'
order and bytes kept, ``mimetype`` first as readers look for it."""

import io
import struct
import zipfile

from office_files import book_file, read_members, text_file

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


def test_mimetype_stays_first_and_stored_and_the_order_is_kept(mirror):
    data = text_file()
    out = translate_office(data, ".odt", mirror, DocumentOptions())
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        first = archive.infolist()[0]
        assert (first.filename, first.compress_type) == ("mimetype", zipfile.ZIP_STORED)
    assert out[30:38] == b"mimetype"  # the name in the first local header, where readers sniff for it
    before, after = read_members(data), read_members(out)
    assert list(after) == list(before)
    assert {name for name in before if before[name] != after[name]} == {"content.xml"}


def with_extra_fields(data: bytes) -> bytes:
    """The archive again, each member with an extended timestamp (Info-ZIP's extra field 0x5455,
    which zip tools add to every member)."""
    stamp = struct.pack("<HHBI", 0x5455, 5, 1, 1_700_000_000)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as archive:
        for entry in source.infolist():
            entry.extra = stamp
            archive.writestr(entry, source.read(entry))
    return out.getvalue()


def test_mimetype_is_written_with_no_extra_field_and_the_others_keep_theirs(mirror):
    """Its extra field was kept, which EPUB forbids (epubcheck PKG-005): the name and its bytes
    must stand at a fixed offset, ``application/epub+zip`` from byte 38."""
    data = with_extra_fields(book_file())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.infolist()[0].extra  # the book as the zip tool wrote it
    out = translate_office(data, ".epub", mirror, DocumentOptions())
    name_length, extra_length = struct.unpack("<HH", out[26:30])  # the first local header's
    assert (name_length, extra_length) == (8, 0)
    assert out[30:58] == b"mimetypeapplication/epub+zip"
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        first, *others = archive.infolist()
        assert first.extra == b"" and all(entry.extra for entry in others)
