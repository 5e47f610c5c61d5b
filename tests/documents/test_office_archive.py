"""The archive an office file or e-book is, written again (attnmt.documents.archive): its members'
order and bytes kept, ``mimetype`` first as readers look for it."""

import io
import struct
import zipfile

from office_files import book_file, read_members, text_file, write_members

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


def named_raw(data: bytes, names: dict[str, bytes]) -> bytes:
    """The archive with each member ``names`` has (an ASCII name) named by the bytes it gives (as
    long), in its local header and the central directory, its UTF-8 flag left clear: as Info-ZIP's
    ``zip`` writes a Linux file's UTF-8 name, or an old DOS tool a code page 437 one."""
    for old, new in names.items():
        assert len(new) == len(old) and data.count(old.encode()) == 2
        data = data.replace(old.encode(), new)
    return data


def names_and_flags(data: bytes) -> list[tuple[bytes, int]]:
    """Each member's name as the archive holds it, and its UTF-8 flag (bit 11); zipfile.ZipFile
    checks that each local header's name is the central directory's as it reads the member."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        for info in infos:
            archive.read(info)
    return [(info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437"), info.flag_bits & 0x800)
            for info in infos]


def test_every_member_keeps_its_name_bytes_and_utf8_flag(mirror):
    """A name written without the UTF-8 flag (Info-ZIP's UTF-8 ``K\\xc3\\xa4se.png``, code page 437's
    ``M\\x84\\x94.png``) came out renamed: zipfile read it as code page 437 (``K├ñse.png``) and wrote
    that as UTF-8 with the flag set.  A name written with the flag keeps it."""
    members = read_members(book_file())
    members.update({"EPUB/K__se.png": b"png", "EPUB/M__.png": b"png", "EPUB/Brötchen.png": b"png"})
    book = named_raw(write_members(members), {"EPUB/K__se.png": "EPUB/Käse.png".encode(),
                                              "EPUB/M__.png": b"EPUB/M\x84\x94.png"})
    before = names_and_flags(book)
    assert ("EPUB/Käse.png".encode(), 0) in before and ("EPUB/Brötchen.png".encode(), 0x800) in before
    assert names_and_flags(translate_office(book, ".epub", mirror, DocumentOptions())) == before


def test_a_name_whose_utf8_reading_is_another_members_keeps_its_code_page_437_reading(mirror):
    """``Käse.png`` with the UTF-8 flag beside the same bytes without it: read as UTF-8 too, the
    second was refused as "member EPUB/Käse.png appears twice".  Both are translated as before
    names were read as UTF-8, and come out with their own name bytes, flags and bytes."""
    members = read_members(book_file())
    members.update({"EPUB/Käse.png": b"flagged", "EPUB/K__se.png": b"not flagged"})
    book = named_raw(write_members(members), {"EPUB/K__se.png": "EPUB/Käse.png".encode()})
    out = translate_office(book, ".epub", mirror, DocumentOptions())
    assert names_and_flags(out) == names_and_flags(book)
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        assert [archive.read(info) for info in archive.infolist()][-2:] == [b"flagged", b"not flagged"]
