"""Files that cannot be translated get one clear line naming the file and member (attnmt.documents.archive)."""

import io
import re
import struct
import zipfile
from itertools import pairwise
from pathlib import Path

import pytest
from comment_files import threaded_sheet_file
from lxml import etree
from office_files import (
    EPUB2_PAGE,
    book_file,
    calc_file,
    docx_bytes,
    epub2_file,
    presentation_file,
    read_members,
    shared_string_sheet,
    sheet_file,
    slides_file,
    text_file,
    word_file,
    write_members,
)

from attnmt.documents import archive, ooxml_package
from attnmt.documents.office import SUFFIXES, translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import ConfigError, DataError


def refused(data: bytes, suffix: str, translator, **options) -> str:
    with pytest.raises(DataError) as caught:
        translate_office(data, suffix, translator, DocumentOptions(**options))
    message = str(caught.value)
    assert "\n" not in message
    return message


def replaced(data: bytes, member: str, new: bytes) -> bytes:
    members = read_members(data)
    members[member] = new
    return write_members(members)


@pytest.mark.parametrize("given", ["report.docx", Path("report.docx")])
def test_a_files_name_instead_of_its_bytes_is_refused_naming_the_argument(same, given):
    """A str was a TypeError in the zip reader, a Path an AttributeError."""
    with pytest.raises(ConfigError, match=rf"^data: expected the file's bytes, got {type(given).__name__}$"):
        translate_office(given, ".docx", same, DocumentOptions())


@pytest.mark.parametrize("name", [3, b"report.docx", ["report.docx"]])
def test_a_name_that_is_no_text_is_refused_naming_the_argument(same, name):
    """It was taken, and named the file in its errors as 3."""
    with pytest.raises(ConfigError, match=r"^name: expected None, a str or a path, the file's name in messages "
                                          rf"\(\"report.docx\"\), got {re.escape(repr(name))}$"):
        translate_office(word_file(), ".docx", same, DocumentOptions(), name=name)
    assert same.given == []


@pytest.mark.parametrize("name", ["/data/report.docx", Path("/data/report.docx")])
def test_a_name_given_as_a_str_or_a_path_names_the_file_in_its_errors(same, name):
    """A Path worked before the name was checked, as the rest of the library takes paths."""
    with pytest.raises(DataError, match=r"^/data/report\.docx: not a readable zip archive"):
        translate_office(word_file()[:-200], ".docx", same, DocumentOptions(), name=name)


@pytest.mark.parametrize(("data", "suffix", "kind"), [
    (sheet_file(), ".odt", ".xlsx"), (slides_file(), ".odp", ".pptx"), (text_file(), ".docx", ".odt"),
    (book_file(), ".pptx", ".epub"), (text_file(), ".epub", ".odt")])
def test_a_file_under_another_kinds_extension_is_named_as_what_it_is(same, data, suffix, kind):
    """An Excel workbook saved as .odt was only "member content.xml is missing", as if it were damaged."""
    assert refused(data, suffix, same).endswith(f"; it is a {kind} file: give it its own extension and translate it "
                                                "again")


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt", ".epub"])
def test_an_empty_file_is_refused_saying_it_is_empty(same, suffix):
    """It was "not a readable zip archive (File is not a zip file); the file is damaged": a placeholder of a
    file not yet synced, sent as no bytes at all, is no damaged file."""
    said = f": the file is empty (0 bytes), not a {suffix} file; send it again once it is saved"
    assert refused(b"", suffix, same).endswith(said)


def test_a_damaged_archive_is_refused(same):
    assert "not a readable zip archive" in refused(word_file()[:-200], ".docx", same)
    assert "not a readable zip archive" in refused(b"plain text, not a document", ".xlsx", same)


def test_a_workbook_whose_shared_strings_are_missing_is_refused_naming_the_member(same):
    """The workbook's relationships and [Content_Types].xml name xl/sharedStrings.xml, which is
    not in the archive: its cells came back untranslated, with no word said."""
    members = read_members(shared_string_sheet(sheet_file()))
    del members["xl/sharedStrings.xml"]
    assert refused(write_members(members), ".xlsx", same) == (
        "the .xlsx file: member xl/sharedStrings.xml is missing, though xl/workbook.xml and "
        "[Content_Types].xml name it; the file is damaged")
    assert same.given == []


DAMAGED = ("; the file is damaged (Excel repairs it, dropping the cell): open it in Excel or LibreOffice, save it "
           "again and translate that")


@pytest.mark.parametrize("index", ["1", "7", "-1"])
def test_a_cell_past_the_last_shared_string_is_refused_naming_the_sheet_and_cell(same, index):
    """The workbook came back translated with exit 0, the cell empty as LibreOffice shows it, where
    Excel says the file is damaged and drops the cell."""
    members = read_members(shared_string_sheet(sheet_file()))
    sheet = "xl/worksheets/sheet1.xml"
    members[sheet] = members[sheet].replace(b'<c r="A2" t="s"><v>0</v>', f'<c r="A2" t="s"><v>{index}</v>'.encode())
    assert refused(write_members(members), ".xlsx", same) == (
        f"the .xlsx file: cell A2 of sheet 'Sheet' ({sheet}) refers to shared string {index}, but "
        "xl/sharedStrings.xml holds 1" + DAMAGED)
    assert same.given == []


def test_a_cell_of_shared_strings_a_workbook_has_none_of_is_refused(same):
    """No xl/sharedStrings.xml, and neither the workbook's relationships nor [Content_Types].xml name one."""
    members = read_members(shared_string_sheet(sheet_file()))
    del members["xl/sharedStrings.xml"]
    for member in ("[Content_Types].xml", "xl/_rels/workbook.xml.rels"):
        members[member] = re.sub(rb"<(Override|Relationship) [^>]*sharedStrings[^>]*/>", b"", members[member])
    assert refused(write_members(members), ".xlsx", same) == (
        "the .xlsx file: cell A2 of sheet 'Sheet' (xl/worksheets/sheet1.xml) refers to shared string 0, but the "
        "workbook has no shared strings part" + DAMAGED)
    assert same.given == []


def test_a_workbook_whose_cells_all_have_their_shared_strings_is_translated(upper):
    out = read_members(translate_office(shared_string_sheet(sheet_file()), ".xlsx", upper, DocumentOptions()))
    assert "A red car stops." in upper.given and b"CAR STOPS." in out["xl/sharedStrings.xml"]


@pytest.mark.parametrize("member", ["xl/SharedStrings.xml", "XL/SHAREDSTRINGS.XML"])
def test_a_part_named_in_another_case_is_the_part_its_relationships_name_and_is_translated(upper, member):
    """Part names are compared case-insensitively (Open Packaging Conventions), as LibreOffice
    opens such a workbook with its strings: one whose xl/sharedStrings.xml was stored as
    xl/SharedStrings.xml was refused as damaged, and before that came back without its strings
    translated."""
    members = read_members(shared_string_sheet(sheet_file()))
    members[member] = members.pop("xl/sharedStrings.xml")
    out = read_members(translate_office(write_members(members), ".xlsx", upper, DocumentOptions()))
    assert "A red car stops." in upper.given and b"CAR STOPS." in out[member]
    assert "xl/sharedStrings.xml" not in out


def test_a_password_protected_office_file_is_refused(same):
    ole = archive.OLE_SIGNATURE + bytes(504)  # what Office writes for an encrypted .docx: a compound file
    assert "encrypted or password-protected" in refused(ole, ".docx", same)


MANIFEST = ('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="{media}"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
            '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA">'
            '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="AAAA"/>'
            '</manifest:encryption-data></manifest:file-entry></manifest:manifest>')


@pytest.mark.parametrize("make, suffix", [(text_file, ".odt"), (presentation_file, ".odp"), (calc_file, ".ods")])
def test_a_password_protected_opendocument_file_is_refused(same, make, suffix):
    """Its members are encrypted inside an ordinary zip; only the manifest says so (LibreOffice's
    File > Save with password), and the encrypted content.xml is no XML."""
    members = read_members(make())
    media = members["mimetype"].decode()
    members["META-INF/manifest.xml"] = MANIFEST.format(media=media).encode()
    members["content.xml"] = bytes(range(256))  # what encryption leaves of it
    message = refused(write_members(members), suffix, same)
    assert message == (f"the {suffix} file: the file is encrypted or password-protected (member content.xml is "
                       "encrypted, says META-INF/manifest.xml); remove the password and try again")


def test_a_zip_bomb_is_refused_by_its_unpacked_size(same, monkeypatch):
    bomb = write_members({"[Content_Types].xml": b"<Types/>", "word/document.xml": bytes(200_000)})
    assert len(bomb) < 2_000
    monkeypatch.setattr(archive, "MAX_UNPACKED", 100_000)
    assert "unpacks to 200008 bytes, more than the 100000 allowed" in refused(bomb, ".docx", same)


def test_a_part_too_large_to_parse_is_refused_naming_it_and_the_limit(same, monkeypatch):
    """Within MAX_UNPACKED, a part of 200 MB of ``<w:p/>`` (a 342 KB file) took 4.8 GB as a tree."""
    members = read_members(word_file())
    members["word/document.xml"] = members["word/document.xml"].replace(b"<w:body>", b"<w:body>" + b"<w:p/>" * 20_000)
    size = len(members["word/document.xml"])
    monkeypatch.setattr(archive, "MAX_PART", 100_000)
    assert refused(write_members(members), ".docx", same) == (
        f"the .docx file: member word/document.xml unpacks to {size} bytes, more than the 100000 an XML part may "
        "(a zip bomb, or a document too large to translate: split it)")


# The parts a Word file's translation parses (word_file): some more than once (styles, relationships).
WORD_PARSED = ("[Content_Types].xml", "word/_rels/document.xml.rels", "word/styles.xml", "word/document.xml",
               "word/header1.xml", "word/footer1.xml", "word/numbering.xml")


def test_parts_each_within_max_part_are_refused_past_max_parsed_before_the_one_that_passes_it(same, monkeypatch):
    """Each part was held to MAX_PART alone, and the parts that hold text are held parsed together."""
    members = read_members(word_file())
    members["word/header1.xml"] = members["word/header1.xml"].replace(b"<w:p>", b"<w:p/>" * 20_000 + b"<w:p>", 1)
    sizes = [len(members[member]) for member in WORD_PARSED]
    total = sum(sizes[:5])  # through the header
    monkeypatch.setattr(archive, "MAX_PARSED", total - 1, raising=False)
    parsed, parse_xml = [], archive.parse_xml
    monkeypatch.setattr(archive, "parse_xml", lambda data, where, *rest: parsed.append(where) or parse_xml(
        data, where, *rest))
    assert refused(write_members(members), ".docx", same) == (
        f"the .docx file: its XML parts unpack to {total} bytes with member word/header1.xml, more than the "
        f"{total - 1} one file's may together (a document too large: split it)")
    assert "the .docx file: member word/document.xml" in parsed
    assert "the .docx file: member word/header1.xml" not in parsed


def test_a_part_parsed_again_counts_once_against_max_parsed(same, monkeypatch):
    data = word_file()
    monkeypatch.setattr(archive, "MAX_PARSED", sum(len(read_members(data)[member]) for member in WORD_PARSED))
    assert translate_office(data, ".docx", same, DocumentOptions())


@pytest.mark.parametrize("failure", [MemoryError(), etree.XMLSyntaxError("unknown error", 2, 0, 0)],
                         ids=["python", "libxml2"])
def test_a_part_whose_tree_does_not_fit_in_memory_is_refused_as_too_large(same, monkeypatch, failure):
    """Under ``ulimit -v``, libxml2's ERR_NO_MEMORY (2) read "is not well-formed XML at line 0: unknown error"."""
    data, parse = word_file(), etree.fromstring
    size = len(read_members(data)["word/document.xml"])

    def fromstring(data: bytes, parser: etree.XMLParser) -> etree._Element:
        if b"<w:body>" in data:
            raise failure
        return parse(data, parser=parser)

    monkeypatch.setattr(archive.etree, "fromstring", fromstring)
    assert refused(data, ".docx", same) == (
        f"the .docx file: member word/document.xml is too large to read: its {size} bytes parsed ran out of memory")


def test_an_archive_of_too_many_members_is_refused(same, monkeypatch):
    monkeypatch.setattr(archive, "MAX_MEMBERS", 5)
    assert "more than the 5 allowed" in refused(word_file(), ".docx", same)


def test_macros_are_refused_unless_allowed(same):
    assert "holds macros (a .docm file)" in refused(word_file(), ".docm", same)
    with_macros = replaced(word_file(), "word/vbaProject.bin", b"\x00macro")
    assert "holds macros (member word/vbaProject.bin)" in refused(with_macros, ".docx", same)
    assert translate_office(with_macros, ".docx", same, DocumentOptions(macros=True))


def test_the_refusal_of_macros_tells_the_way_its_caller_gives(same):
    """The library's reader passes DocumentOptions; the command line and a server say their own way."""
    start = "the .docm file: the file holds macros (a .docm file); "
    assert refused(word_file(), ".docm", same) == start + ("they are refused unless asked for "
                                                           "(DocumentOptions(macros=True)), and kept as they are then")
    hint = "this server does not translate them"
    assert refused(word_file(), ".docm", same, macros_hint=hint) == start + hint


def test_an_external_entity_is_never_resolved(same):
    document = read_members(word_file())["word/document.xml"]
    evil = document.replace(b"?>", b'?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>', 1)
    message = refused(replaced(word_file(), "word/document.xml", evil), ".docx", same)
    assert message == ("the .docx file: member word/document.xml declares a DTD, which is never read, and which no "
                       "application that writes .docx files puts there")


def test_a_page_of_a_book_that_declares_entities_is_refused_naming_the_entity_and_its_line(same):
    """It was refused as "not written by an office application", which a book never is."""
    page = (b'<?xml version="1.0"?>\n<!DOCTYPE html [\n<!ENTITY lol "lol">]>\n'
            b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>&lol; a dog</p></body></html>')
    message = refused(replaced(book_file(), "EPUB/one.xhtml", page), ".epub", same)
    assert message == ("the .epub file: member EPUB/one.xhtml, line 3: its DOCTYPE declares the entity lol, and "
                       "declared entities are never expanded (one could read a file): write its text where it is "
                       "used, and take the declaration out")
    assert same.given == []


def laughing(part: bytes, root: str, before: bytes) -> bytes:
    """``part`` whose DOCTYPE (in place of its own, if any) declares the billion laughs on its lines
    2 to 13 (lol1 is ten &lol;, each next one ten of the one before), and which refers to &lol9;,
    10**9 "lol"s, before the first ``before``."""
    names = ["lol"] + [f"lol{i}" for i in range(1, 10)]
    declared = ['<!ENTITY lol "lol">'] + [f'<!ENTITY {name} "{f"&{less};" * 10}">' for less, name in pairwise(names)]
    doctype = "\n".join([f"<!DOCTYPE {root} [", *declared, "]>"]).encode()
    part = re.sub(rb"\s*<!DOCTYPE[^>]*>", b"", part, count=1)
    return part.replace(b"?>", b"?>\n" + doctype, 1).replace(before, b"&lol9;" + before, 1)


@pytest.mark.parametrize("member", ["EPUB/content.opf", "EPUB/one.xhtml"])
def test_a_books_part_whose_entities_grow_is_refused_naming_the_entity_and_its_line(same, member):
    """libxml2 stopped the growth first, and the refusal said "not well-formed XML at line 1:
    Maximum entity amplification factor exceeded, see xmlCtxtSetMaxAmplification"."""
    part = laughing(read_members(book_file())[member], "x", b"A book</dc:title>" if "opf" in member else b"A dog")
    message = refused(replaced(book_file(), member, part), ".epub", same)
    assert message == (f"the .epub file: member {member}, line 3: its DOCTYPE declares the entity lol, and declared "
                       "entities are never expanded (one could read a file): write its text where it is used, and "
                       "take the declaration out")
    assert same.given == []


def test_an_office_part_whose_entities_grow_is_refused_as_declaring_a_dtd(same):
    document = read_members(word_file())["word/document.xml"]
    part = laughing(document, "w:document", b"</w:t>")
    message = refused(replaced(word_file(), "word/document.xml", part), ".docx", same)
    assert message == ("the .docx file: member word/document.xml declares a DTD, which is never read, and which no "
                       "application that writes .docx files puts there")


def test_an_entity_in_an_attribute_of_a_books_page_is_refused_naming_its_line(same):
    """The parser, reading no DTD, dropped it: ``class="x&nbsp;y"`` came back as "xy"."""
    page = EPUB2_PAGE.replace("<p>", '<p class="x&nbsp;y">').encode()
    message = refused(replaced(epub2_file(), "OEBPS/Text/chapter 1.xhtml", page), ".epub", same)
    assert message == ("the .epub file: member OEBPS/Text/chapter 1.xhtml, line 4: the entity &nbsp; is in an "
                       "attribute value, where it cannot be kept unexpanded: write its text there instead")


def encrypted(algorithm: str, member: str) -> bytes:
    """META-INF/encryption.xml saying ``member`` is encrypted with ``algorithm``."""
    return (f'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            f'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod '
            f'Algorithm="{algorithm}"/><enc:CipherData><enc:CipherReference URI="{member}"/></enc:CipherData>'
            "</enc:EncryptedData></encryption>").encode()


def test_a_book_with_drm_is_refused_naming_its_encrypted_member(same):
    """Its encrypted page was refused as "not well-formed XML", which says nothing of why."""
    book = replaced(book_file(), "META-INF/encryption.xml",
                    encrypted("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "EPUB/one.xhtml"))
    assert refused(book, ".epub", same) == (
        "the .epub file: the book is encrypted (DRM: member EPUB/one.xhtml is encrypted, says "
        "META-INF/encryption.xml); only a book without DRM can be translated")


@pytest.mark.parametrize("algorithm", ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"])
def test_a_book_whose_fonts_are_obfuscated_is_translated(same, algorithm):
    translate_office(replaced(book_file(), "META-INF/encryption.xml", encrypted(algorithm, "EPUB/f.otf")), ".epub",
                     same, DocumentOptions())
    assert "A dog runs on the green grass." in same.given


def test_a_part_that_is_not_xml_names_its_line(same):
    message = refused(replaced(word_file(), "word/header1.xml", b"<hdr>\n<p>unclosed</hdr>"), ".docx", same)
    assert "member word/header1.xml is not well-formed XML at line 2: " in message


def test_a_zip_that_is_not_of_its_type_is_refused(same):
    assert "member [Content_Types].xml is missing" in refused(write_members({"a.txt": b"a"}), ".pptx", same)
    assert "member META-INF/container.xml is missing" in refused(write_members({"a.txt": b"a"}), ".epub", same)


def test_an_unknown_extension_is_refused_with_the_known_ones(same):
    message = refused(word_file(), ".pdf", same)
    assert "files ending in .pdf cannot be translated" in message and all(s in message for s in SUFFIXES)


def test_a_member_that_does_not_unpack_is_refused_before_any_translation(same):
    members = read_members(word_file())
    members["word/media/picture.bin"] = b"a picture's bytes" * 10
    data = bytearray(write_members(members, stored=("mimetype", "word/media/picture.bin")))
    start = data.find(b"a picture's bytes")
    data[start] ^= 0xFF  # the stored bytes no longer match their CRC
    message = refused(bytes(data), ".docx", same)
    assert "member word/media/picture.bin cannot be unpacked" in message and same.given == []


def test_a_member_whose_compressed_data_is_damaged_is_refused(same):
    """Deflate data that does not inflate is a zlib.error, not the BadZipFile a bad CRC is."""
    data = bytearray(word_file())
    entry = zipfile.ZipFile(io.BytesIO(data)).getinfo("word/document.xml")
    name, extra = struct.unpack("<HH", data[entry.header_offset + 26:entry.header_offset + 30])
    data[entry.header_offset + 30 + name + extra] = 0b111  # the first block: final, of the reserved type 3
    message = refused(bytes(data), ".docx", same)
    assert message.startswith("the .docx file: member word/document.xml cannot be unpacked (Error -3 ")
    assert message.endswith("; the file is damaged") and same.given == []


@pytest.mark.parametrize("make, suffix, message", [
    (sheet_file, ".docx", "the file is an Excel workbook, not a .docx file: give it its own extension (.xlsx)"),
    (word_file, ".pptx", "the file is a Word document, not a .pptx file: give it its own extension (.docx)"),
    (slides_file, ".xlsm", "the file is a PowerPoint presentation, not a .xlsm file"),
    (presentation_file, ".odt", "the file is an OpenDocument presentation, not a .odt file: give it its own "
                                "extension (.odp)"),
    (book_file, ".ods", "the file is of type application/epub+zip, not a .ods file"),
    (word_file, ".odp", "member content.xml is missing; this is not a .odp file"),
], ids=["xlsx-as-docx", "docx-as-pptx", "pptx-as-xlsm", "odp-as-odt", "epub-as-ods", "docx-as-odp"])
def test_a_file_under_another_formats_extension_is_refused_naming_what_it_is(same, make, suffix, message):
    """Its parts would not be found, and it would come back as it was: untranslated, without a word."""
    assert message in refused(make(), suffix, same, macros=True)


def test_a_word_file_whose_document_takes_its_type_from_a_default_is_translated(mirror):
    """[Content_Types].xml may give a part its type by its extension alone (<Default>), as OPC allows."""
    types = read_members(word_file())["[Content_Types].xml"].decode()
    main = 'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"'
    types = types.replace(f'<Override PartName="/word/document.xml" {main}/>', "")
    types = types.replace('<Default Extension="xml" ContentType="application/xml"/>',
                          f'<Default Extension="xml" {main}/>')
    assert "/word/document.xml" not in types and types.count("document.main+xml") == 1
    translated = translate_office(replaced(word_file(), "[Content_Types].xml", types.encode()), ".docx", mirror,
                                  DocumentOptions())
    assert b"GRASS" in read_members(translated)["word/document.xml"]


def strict(data: bytes) -> bytes:
    """The file as Office saves it in Strict Open XML (Word's "Strict Open XML Document"): its parts
    in ISO/IEC 29500 Strict's namespaces, http://purl.oclc.org/ooxml/..."""
    members = read_members(data)
    for name, content in members.items():
        for vocabulary in ("wordprocessingml", "presentationml", "spreadsheetml", "drawingml"):
            content = content.replace(f"http://schemas.openxmlformats.org/{vocabulary}/2006/main".encode(),
                                      f"http://purl.oclc.org/ooxml/{vocabulary}/main".encode())
        members[name] = content
    return write_members(members)


@pytest.mark.parametrize("make, suffix, member, save_as", [
    (word_file, ".docx", "word/document.xml", "a Word Document (.docx)"),
    (slides_file, ".pptx", "ppt/presentation.xml", "a PowerPoint Presentation (.pptx)"),
    (sheet_file, ".xlsx", "xl/workbook.xml", "an Excel Workbook (.xlsx)")], ids=["docx", "pptx", "xlsx"])
def test_a_strict_open_xml_file_is_refused_naming_how_to_save_it(same, make, suffix, member, save_as):
    """None of its paragraphs was found: it came back as it was, untranslated, and nothing said so."""
    assert refused(strict(make()), suffix, same).endswith(
        f"file: the file uses Strict Open XML (member {member}), which attnmt does not read; save it as {save_as} "
        "and translate it again")
    assert same.given == []


def table_sheet_file() -> bytes:
    """A table over A2:B3 whose header A2 is the shared string "A red car stops." (shared_string_sheet)."""
    import openpyxl
    from openpyxl.worksheet.table import Table

    book = openpyxl.Workbook()
    for row in (["A dog runs."], ["Item", "Count"], ["A cat sleeps.", 3]):
        book.active.append(row)
    book.active.add_table(Table(displayName="Seen", ref="A2:B3"))
    return shared_string_sheet(docx_bytes(book))


@pytest.mark.parametrize("make, member, number, translated", [
    pytest.param(table_sheet_file, "xl/worksheets/sheet1.xml", b"<v>0</v>", "A cat sleeps.", id="table header"),
    pytest.param(threaded_sheet_file, "xl/comments/comment1.xml", b'authorId="0"', "Check the red car.", id="author"),
    pytest.param(threaded_sheet_file, "xl/threadedComments/threadedComment1.xml", b'startIndex="7"',
                 "about the \N{THUMBS UP SIGN} car.", id="mention"),
])
def test_a_superscript_digit_where_a_sheet_writes_a_number_is_no_number(same, make, member, number, translated):
    """"²" is a digit to str.isdigit but no number to int(): the file stopped with a ValueError.
    Now it is read as what the number is when it is missing (no string, no author, no mention)."""
    members = read_members(make())
    assert number in members[member]
    members[member] = members[member].replace(number, number.replace(b"0", "²".encode()).replace(b"7", "²".encode()))
    translate_office(write_members(members), ".xlsx", same, DocumentOptions())
    assert any(translated in given for given in same.given)


SHEET = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
         'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">{}</row>'
         '</sheetData></worksheet>')


@pytest.mark.parametrize("cells, quick", [
    ('<c r="A1" s="1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1"><v>9</v></c>', True),
    ("<x:c r='A1' t = 's'>\n <x:v> 1 </x:v></x:c>", True),  # a prefix, single quotes, spaces
    ('<c r="A1" t="s"><v>2</v></c>', False),  # past the last: the parse names it
    ('<c r="A1" t="s"><v>-1</v></c>', False),
    ('<c r="A1" t="s"><f>A2</f><v>0</v></c>', False),  # not as Excel writes one: parsed
    ('<c r="A1" t="s"/><c r="B1" t="s"><v>0</v></c>', False),  # a cell without a value beside one
    ('<!-- <c r="A1" t="s"><v>5</v></c> --><c r="B1" t="s"><v>0</v></c>', False),
    ('<c r="A1" t="s"><v>&#48;</v></c>', False),
    ('<c r="A1" t="str"><v>7</v></c><c r="B1" t="s"><v>1</v></c>', True),
])
def test_shared_string_cells_as_excel_writes_them_are_checked_without_parsing(cells, quick):
    """all_within answers for a sheet of cells as Excel and LibreOffice write them, at a regular
    expression's speed; anything else is left to the parse, and where all_within answers, the parse
    (shared_string_indexes) finds every index under the count too."""
    data = SHEET.format(cells).encode()
    assert ooxml_package.all_within(data, 2) is quick
    if quick:
        assert all(0 <= index < 2 for _, index in ooxml_package.shared_string_indexes(data))
