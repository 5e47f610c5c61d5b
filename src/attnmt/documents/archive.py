"""The zip archives that Office, OpenDocument and EPUB files are, read and written again safely.

Reading refuses, each with one line naming the file and member: what is not a zip archive
(a password-protected Office file is an OLE compound file, not a zip); an encrypted member;
more than MAX_MEMBERS members or more than MAX_UNPACKED bytes unpacked (a zip bomb: the
sizes in the central directory are the ones ``zipfile`` holds each member to, so a member
cannot unpack to more than it declares); a member that does not unpack (a bad CRC, damaged
compressed data).

Members stay packed in the file's bytes: every one is unpacked once when the archive is read,
a piece at a time, to check it, and then only when it is asked for (a part to parse) or
written again, one at a time, so that a document's pictures are never held unpacked beside
the file, and a part's bytes not beside its parsed tree.

A member's name written in UTF-8 without zip's UTF-8 flag (Info-ZIP's ``zip`` on Linux writes
the file system's bytes so) is read as UTF-8, as readers read it (``member_name``), unless that
would be another member's name (``name_members``).

Writing keeps the member order, each member's name (its very bytes, and its UTF-8 flag: KeptName),
date, attributes and compression, and the bytes of every member not changed; a ``mimetype``
member (OpenDocument, EPUB) goes first, stored (uncompressed) and with no extra field, as
readers that sniff the first bytes of the file need.

XML parts are parsed safely, with no DTD loaded, no entity resolved and no network
(attnmt.documents.part_parsing); a part that unpacks to more than MAX_PART bytes, or takes the
file's parts parsed past MAX_PARSED, is refused before it is read.
"""

from __future__ import annotations

import io
import shutil
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from lxml import etree

from attnmt.documents.flat import FlatText
from attnmt.documents.page_writer import open_empties
from attnmt.documents.part_parsing import parse_xml
from attnmt.documents.spans import Nested
from attnmt.errors import DataError
from attnmt.text.data import OLE_SIGNATURE

MAX_MEMBERS = 10_000  # members of one archive (a 500-page document has a few dozen; an EPUB, a few hundred)
MAX_UNPACKED = 1 << 30  # bytes of all members unpacked together (1 GiB)
# Bytes one XML part may unpack to, to be parsed (256 MiB): its tree takes up to some 20 times that (a
# part of empty paragraphs, ``<w:p/>``, 6 bytes each), where a 1,500-page document's body is 20 MB.
MAX_PART = 1 << 28
# Bytes of one file's parts parsed, their trees held together (two at MAX_PART; the sums of big files: documents.md).
MAX_PARSED = 2 * MAX_PART
MIMETYPE = "mimetype"
# A bad CRC is a BadZipFile, damaged deflate data a zlib.error, a member cut short an EOFError.
UNPACK_ERRORS = (zipfile.BadZipFile, zlib.error, OSError, ValueError, NotImplementedError, EOFError)
PIECE = 1 << 20  # bytes unpacked at a time when a member is checked
UTF8_NAME = 0x800  # general purpose flag bit 11: the name is UTF-8 (without it, code page 437 by the standard)
HEAD = 512  # bytes of a part that hold its XML declaration


@dataclass
class Archive:
    """An archive's members, in order: their zip entries, read from ``packed`` (the file, opened)
    when asked for; ``replaced`` holds the new bytes of the members ``replace`` was given."""

    name: str  # the file's name, for errors
    suffix: str  # its extension (.docx, .epub), which names its kind in errors
    entries: list[zipfile.ZipInfo]
    packed: zipfile.ZipFile
    replaced: dict[str, bytes] = field(default_factory=dict)
    parsed: set[str] = field(default_factory=set)  # the members read to be parsed (``to_parse``), a tree each,
    parsed_bytes: int = 0  # and their bytes, within MAX_PARSED (a member parsed again: its tree is a passing one)

    def names(self) -> list[str]:
        return [entry.filename for entry in self.entries]

    @cached_property
    def members(self) -> dict[str, zipfile.ZipInfo]:
        """Each entry by its name (``member_name``, which may not be the one ``packed`` knows it by)."""
        return {entry.filename: entry for entry in self.entries}

    def __contains__(self, member: str) -> bool:
        return member in self.members

    def part(self, name: str) -> str | None:
        """The member that is the Office Open XML part ``name`` (without its leading "/"): the Open
        Packaging Conventions compare part names case-insensitively, as Office and LibreOffice
        read them (a workbook's xl/SharedStrings.xml is the xl/sharedStrings.xml its relationships
        and content types name), the member of the very name first; None where there is none."""
        if name in self:
            return name
        return self.folded.get(name.casefold())

    @cached_property
    def folded(self) -> dict[str, str]:
        """Each member by its name casefolded (``part``); of two that fold alike, the first."""
        return {member.casefold(): member for member in reversed(self.names())}

    def read(self, member: str, size: int = -1) -> bytes:
        """The member's bytes (its new ones where replaced); its first ``size`` bytes where given."""
        if member in self.replaced:
            return self.replaced[member][:size] if size >= 0 else self.replaced[member]
        try:
            with self.packed.open(self.members[member]) as unpacked:
                return unpacked.read(size)
        except UNPACK_ERRORS as e:
            raise DataError(f"{self.name}: member {member} cannot be unpacked ({e}); the file is damaged") from e

    def size(self, member: str) -> int:
        """The member's size unpacked (its new bytes' where replaced), as ``zipfile`` holds it to."""
        return len(self.replaced[member]) if member in self.replaced else self.members[member].file_size

    def replace(self, member: str, data: bytes) -> None:
        self.replaced[member] = data

    def to_parse(self, member: str) -> bytes:
        """The bytes to parse of a member (parse_part, HTML pages, chunks): unread over MAX_PART, past MAX_PARSED."""
        if (size := self.size(member)) > MAX_PART:
            raise DataError(f"{self.name}: member {member} unpacks to {size} bytes, more than the {MAX_PART} an XML "
                            "part may (a zip bomb, or a document too large to translate: split it)")
        if member not in self.parsed:
            total = self.parsed_bytes + size
            if total > MAX_PARSED:
                raise DataError(f"{self.name}: its XML parts unpack to {total} bytes with member {member}, more "
                                f"than the {MAX_PARSED} one file's may together (a document too large: split it)")
            self.parsed.add(member)
            self.parsed_bytes = total
        return self.read(member)


# A zip's kind by its own marks: its ``mimetype`` (OpenDocument, EPUB), else its main folder beside
# [Content_Types].xml (Office Open XML)
KIND_BY_MIMETYPE = {"application/epub+zip": ".epub", "application/vnd.oasis.opendocument.text": ".odt",
                    "application/vnd.oasis.opendocument.presentation": ".odp",
                    "application/vnd.oasis.opendocument.spreadsheet": ".ods"}
KIND_BY_FOLDER = {"word/": ".docx", "ppt/": ".pptx", "xl/": ".xlsx"}


def kind_advice(archive: Archive) -> str:
    """What to do where the archive's marks say it is a kind of file other than its extension's: an Excel workbook
    named .odt was only "member content.xml is missing; this is not a .odt file", as if it were damaged."""
    media = archive.read(MIMETYPE)[:100].decode("ascii", "replace").strip() if MIMETYPE in archive else ""
    found = next((kind for prefix, kind in KIND_BY_MIMETYPE.items() if media.startswith(prefix)), None)
    if found is None and "[Content_Types].xml" in archive:
        found = next((kind for folder, kind in KIND_BY_FOLDER.items()
                      if any(member.startswith(folder) for member in archive.names())), None)
    return f"; it is a {found} file: give it its own extension and translate it again" if found else ""


def read_archive(data: bytes, name: str, suffix: str) -> Archive:
    """The members of a zip archive, checked as the module says (``data`` is kept, not copied);
    ``suffix``: the file's extension."""
    if not data:  # a file not saved yet, or a cloud drive's placeholder not yet downloaded, is sent as no bytes
        raise DataError(f"{name}: the file is empty (0 bytes), not a {suffix} file; send it again once it is saved")
    if data.startswith(OLE_SIGNATURE):
        raise DataError(f"{name}: the file is encrypted or password-protected (or an old binary Office file); "
                        "remove the password, or save it as .docx, .pptx or .xlsx, and try again")
    try:
        packed = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as e:
        raise DataError(f"{name}: not a readable zip archive ({e}); the file is damaged or not of its type") from e
    entries = packed.infolist()
    name_members(entries)
    check_entries(entries, name)
    for entry in entries:  # every member unpacks, its CRC right, before any work is done
        try:
            with packed.open(entry) as unpacked:
                while unpacked.read(PIECE):
                    pass
        except UNPACK_ERRORS as e:
            raise DataError(f"{name}: member {entry.filename} cannot be unpacked ({e}); the file is damaged") from e
    return Archive(name, suffix, entries, packed)


def name_members(entries: list[zipfile.ZipInfo]) -> None:
    """Each entry named as readers read it (``member_name``), but for one whose name read as UTF-8
    would be the name of a member that keeps ``zipfile``'s (``Käse.bin`` with the UTF-8 flag beside
    the same bytes without it): that one keeps zipfile's code page 437 reading too, so that both
    stay members of their own and are written back with their bytes, as before names were read as
    UTF-8.  Two members without the flag of the same bytes are one name either way (check_entries)."""
    read = [member_name(entry) for entry in entries]
    kept = {entry.filename for entry, name in zip(entries, read, strict=True) if name == entry.filename}
    for entry, name in zip(entries, read, strict=True):
        if name not in kept:
            entry.filename = name


def member_name(entry: zipfile.ZipInfo) -> str:
    """The member's name as readers read it.  One written without the UTF-8 flag is code page 437
    by the zip standard, as ``zipfile`` reads it, but Info-ZIP's ``zip`` on Linux and macOS writes
    the file system's UTF-8 bytes so, and unzip and EPUB reading systems read bytes that are valid
    UTF-8 as UTF-8: ``Käse.xhtml``, which the manifest links, not ``K├ñse.xhtml``."""
    if entry.flag_bits & UTF8_NAME or entry.orig_filename.isascii():
        return entry.filename
    try:
        return name_bytes(entry).decode("utf-8")
    except UnicodeDecodeError:
        return entry.filename


def name_bytes(entry: zipfile.ZipInfo) -> bytes:
    """The member's name as the archive holds it (``zipfile`` decoded it: UTF-8 under the flag,
    code page 437 without, which maps every byte to a character and back)."""
    return entry.orig_filename.encode("utf-8" if entry.flag_bits & UTF8_NAME else "cp437")


def check_entries(entries: list[zipfile.ZipInfo], name: str) -> None:
    if len(entries) > MAX_MEMBERS:
        raise DataError(f"{name}: the archive has {len(entries)} members, more than the {MAX_MEMBERS} allowed")
    unpacked = sum(entry.file_size for entry in entries)
    if unpacked > MAX_UNPACKED:
        raise DataError(f"{name}: the archive unpacks to {unpacked} bytes, more than the {MAX_UNPACKED} allowed "
                        "(a zip bomb, or a file too large to translate)")
    seen = set()
    for entry in entries:
        if entry.flag_bits & 0x1:
            raise DataError(f"{name}: member {entry.filename} is encrypted; remove the password and try again")
        if entry.filename in seen:
            raise DataError(f"{name}: member {entry.filename} appears twice; the archive is damaged")
        seen.add(entry.filename)


def write_archive(archive: Archive) -> bytes:
    """The archive again: members in their order (``mimetype`` first: ``copy_entry``), each as it
    came but for the changed ones' bytes."""
    entries = sorted(archive.entries, key=lambda entry: entry.filename != MIMETYPE)  # stable: the rest keep order
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for entry in entries:
            new = copy_entry(entry)
            if entry.filename in archive.replaced:
                out.writestr(new, archive.replaced[entry.filename])
                continue
            new.file_size = entry.file_size  # a member over 2 GiB needs ZIP64 from the start
            with archive.packed.open(entry) as unpacked, out.open(new, "w") as packed:
                shutil.copyfileobj(unpacked, packed, PIECE)  # a piece at a time: a large picture is never held whole
    return buffer.getvalue()


class KeptName(zipfile.ZipInfo):
    """An entry written with the name bytes and UTF-8 flag it was read with.  ``zipfile`` writes a
    name that is not ASCII as UTF-8 and sets the flag, which would rename a member whose name is
    in code page 437 (``K├ñse.xhtml`` from Info-ZIP's UTF-8 bytes, read as code page 437) and
    say UTF-8 where its writer did not; this hook is where it encodes the name, in the local
    header and the central directory alike."""

    __slots__ = ("name", "utf8")
    name: bytes  # the name's bytes as the archive held them
    utf8: bool  # whether its UTF-8 flag was set

    def _encodeFilenameFlags(self) -> tuple[bytes, int]:  # noqa: N802 (zipfile's name)
        return self.name, self.flag_bits | (UTF8_NAME if self.utf8 else 0)


def copy_entry(entry: zipfile.ZipInfo) -> KeptName:
    """A fresh entry with the old one's name (its bytes and UTF-8 flag: KeptName), date,
    attributes, comment, extra field and compression (sizes and offsets are the writer's to set);
    ``mimetype`` stored and with no extra field, so that its bytes stand at a fixed offset, where
    readers sniff for them (EPUB's container format requires both; epubcheck reports an extra
    field as PKG-005)."""
    mimetype = entry.filename == MIMETYPE
    new = KeptName(entry.filename, entry.date_time)
    new.name, new.utf8 = name_bytes(entry), bool(entry.flag_bits & UTF8_NAME)
    new.compress_type = zipfile.ZIP_STORED if mimetype else entry.compress_type
    new.external_attr, new.internal_attr = entry.external_attr, entry.internal_attr
    new.create_system, new.comment = entry.create_system, entry.comment
    new.extra = b"" if mimetype else entry.extra
    return new


def parse_part(archive: Archive, member: str, doctype: bool = False) -> etree._ElementTree:
    """One XML member, parsed safely (attnmt.documents.part_parsing); DataError naming it otherwise.  Its
    CDATA sections stay sections, as an EPUB page's ``<script>//<![CDATA[`` needs
    (attnmt.documents.pages.parse_xml).  A part that may have a DOCTYPE (an EPUB page) nests as
    deep as an .xhtml file's page may, pages.MAX_DEPTH, and is refused deeper (pages.check_depth):
    libxml2 stops at 256 levels unless its limits are lifted (``huge_tree``), which is done only
    where the part's DOCTYPE declares no entity (part_parsing.declares_no_entity), so that nothing can grow.
    A part over MAX_PART bytes unpacked, or past the file's MAX_PARSED (Archive.to_parse), is refused unread."""
    return parse_xml(archive.to_parse(member), f"{archive.name}: member {member}", archive.suffix, doctype)


def serialise_part(tree: etree._ElementTree, original: bytes) -> bytes:
    """An XML part written back with its declaration (encoding; standalone where ``original``,
    the part as read or its first HEAD bytes, says it) and DOCTYPE as they were.  An EPUB page's
    empty XHTML elements keep their end tags (open_empties): a reading system reads either form,
    but one that reads the page as HTML takes ``<a id="x"/>`` for a start tag."""
    info = tree.docinfo
    declared = b"standalone" in original[:original.find(b"?>")] if original.startswith(b"<?xml") else False
    with open_empties(tree):
        return etree.tostring(tree, xml_declaration=True, encoding=info.encoding or "UTF-8",
                              standalone=info.standalone if declared else None)


class Job(Protocol):
    """A piece of a part to translate: its flat texts, then, given their translated contents,
    the part changed in place (attnmt.documents.markup.TreeJob is one)."""

    def flats(self) -> list[FlatText]: ...

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None: ...


@dataclass
class Part:
    """One XML member of the archive that is translated, or has its language set (an EPUB's HTML
    page: attnmt.documents.epub.HtmlPart)."""

    member: str
    tree: etree._ElementTree
    jobs: Sequence[Job] = field(default_factory=list)
    changed: bool = False  # to be written again: something besides the jobs changed it (a language attribute),
    # or the jobs did (attnmt.documents.office.translate_jobs sets it as it lets them go)

    def written(self, original: bytes) -> bytes:
        """The member's new bytes (serialise_part; ``original``: its first HEAD bytes as read)."""
        return serialise_part(self.tree, original)
