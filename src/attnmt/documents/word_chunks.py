"""Word's imported chunks (``w:altChunk``): content in another format, held in a part of its own,
that Word shows inline where the element stands; generated and mail-merged documents import HTML,
XHTML, plain text, RTF or a whole .docx so.  Left unread, a chunk's English stood in the German
document with no word said.

- An HTML chunk (``text/html``) is translated as an HTML file is (attnmt.documents.pages), read in
  the encoding its byte order mark, XML declaration or ``<meta>`` declares (Word's own HTML says
  ``charset=windows-1252``; UTF-8 where none does), and written as UTF-8, saying so (pages.say_utf8);
- an XHTML chunk (``application/xhtml+xml``) as an EPUB's XHTML page is: parsed as XML, and written
  back in its own encoding (archive.serialise_part);
- a plain-text chunk (``text/plain``) a line for a line, as a text file is (files.translate_plain_text);
- any other (RTF, a .docx, MHT) is kept as it is, and one warning names its part; so is a chunk
  whose bytes are not text in the encoding it declares, with a warning naming it and the line.

A chunk written as UTF-8 that says nothing of its encoding (plain text, an HTML fragment) and is
not ASCII starts with a byte order mark: a reader takes text without one for the system's code
page, and an "ä" came out "Ã¤".  attnmt.documents.office adds these parts to a Word file's, after
its own; their sentences are placed in the review by the chunk's member."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.charsets import bom_charset, declared_charset
from attnmt.documents.elements import Vocabulary
from attnmt.documents.epub import HtmlPageJob, HtmlPart, PageJob
from attnmt.documents.flat import FlatText
from attnmt.documents.letterless import needs_translation, translated_line
from attnmt.documents.ooxml_dialects import WORD
from attnmt.documents.ooxml_package import APPLICATIONS, OOXML_PARTS
from attnmt.documents.pages import parse, say_utf8
from attnmt.documents.pipeline import DocumentOptions, flat_line
from attnmt.documents.spans import Nested
from attnmt.documents.tables import relationships
from attnmt.documents.terminal_codes import written
from attnmt.documents.text_units import split_lines
from attnmt.errors import warn
from attnmt.text.data import with_endings

CHUNK = "/relationships/aFChunk"  # how the type of a relationship to an imported chunk ends
# The Word parts that may import a chunk: those whose paragraphs are Word's (the body, headers, footers,
# notes, comments), not a chart's or SmartArt's.
WORD_TEXTS = tuple(end for end, texts in OOXML_PARTS[".docx"] if texts is WORD)


def imported_chunks(archive: Archive, kinds: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(``kinds`` less the chunks; the chunks, each with its content type): the members that a Word
    part imports (its ``aFChunk`` relationships, to a member the file holds), in order, each once.
    A chunk's type is no guide to its text: a .docx chunk, as the Open XML SDK writes it, has a main
    part's (``wordprocessingml.document.main+xml``), and was read as the document's XML and refused."""
    chunks: dict[str, str] = {}
    for member, kind in kinds.items():
        if not kind.endswith(WORD_TEXTS) or not any(mark in kind for mark in APPLICATIONS[".docx"]):
            continue
        for related in relationships(archive, member).values():
            if related.kind.endswith(CHUNK) and related.mode is None and related.member in archive:
                chunks[related.member] = kinds.get(related.member, "")
    return {member: kind for member, kind in kinds.items() if member not in chunks}, chunks


def chunk_parts(archive: Archive, chunks: dict[str, str], options: DocumentOptions,
                glossary: Glossary | None) -> list[Part]:
    """The ``chunks`` (imported_chunks) as parts to translate (those with words, or a term of
    ``glossary``); one warning names those of a content type that is not translated (READERS)."""
    found: list[Part] = []
    kept = []
    for member, kind in chunks.items():
        media = kind.split(";")[0].strip().lower()
        if media in READERS:
            found += READERS[media](archive, member, options, glossary)
        else:
            kept.append(f"{member} ({media or 'no content type'})")
    if kept:
        one = len(kept) == 1
        warn(f"{archive.name}: the imported chunk{'' if one else 's'} {', '.join(kept)} "
             f"{'is left as it is' if one else 'are left as they are'}, untranslated; attnmt translates HTML, "
             "XHTML and plain-text chunks (w:altChunk)")
    return found


@dataclass
class ChunkPage(HtmlPart):
    """An HTML chunk: written as an HTML file is (HtmlPart), in UTF-8, which a page's ``<meta>``
    says (pages.Parsed.serialise), as does a fragment's (pages.say_utf8), or else a byte order mark
    (``utf8_bytes``)."""

    def written(self, original: bytes) -> bytes:
        declared = self.page.document or say_utf8(self.page.root)
        return utf8_bytes(self.page.serialise(None), declared)


def html_chunk(archive: Archive, member: str, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    """The HTML chunk ``member`` as a part to translate (pages.parse: a repair of its markup warned
    of, markup nested too deep refused); none where it has nothing to translate, or its text cannot
    be read (``chunk_text``)."""
    where = f"{archive.name}: member {member}"
    text = chunk_text(archive.to_parse(member), where, html=True)
    page = parse(text, False, where, whole=True) if text is not None else None
    if page is None:
        return []
    job = HtmlPageJob(page, Vocabulary(source_lang=options.source_lang), options, glossary)
    return [ChunkPage(member, page.root.getroottree(), [job], page=page)] if job.flats() else []


def xhtml_chunk(archive: Archive, member: str, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    """The XHTML chunk ``member`` as a part to translate, parsed as an EPUB's page is (parse_part),
    its root then saying the target language in ``xml:lang``, and in ``lang`` where it has one
    (epub.PageJob); none where it has nothing to translate."""
    tree = parse_part(archive, member, doctype=True)
    job = PageJob(tree.getroot(), Vocabulary(source_lang=options.source_lang), options, glossary, epub3=False)
    return [Part(member, tree, [job])] if job.flats() else []


class LinesJob:
    """A plain-text chunk's lines, each a flat text (numbered as its line in the review), and its
    text again from their translations (letterless.translated_line), each line with its ending."""

    def __init__(self, text: str, glossary: Glossary | None) -> None:
        self.bom = "\ufeff" if text.startswith("\ufeff") else ""
        self.lines, self.endings = split_lines(text[len(self.bom):])
        self.glossary, self.text = glossary, text
        self.texts = [flat_line(line) for line in self.lines]

    def flats(self) -> list[FlatText]:
        return list(self.texts)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        lines = [translated_line(line, written(flat, content), self.glossary)
                 for line, flat, content in zip(self.lines, self.texts, results, strict=True)]
        self.text = self.bom + with_endings(lines, self.endings)


@dataclass
class TextPart(Part):
    """A plain-text chunk, written as UTF-8 (``utf8_bytes``).  It has no tree: an empty one stands
    for it, which the walks over every part's tree after translation pass over."""

    job: LinesJob = field(kw_only=True)

    def written(self, original: bytes) -> bytes:
        return utf8_bytes(self.job.text, declared=False)


def text_chunk(archive: Archive, member: str, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    """The plain-text chunk ``member`` as a part to translate; none where it has nothing to translate,
    or is not text (``chunk_text``)."""
    text = chunk_text(archive.read(member), f"{archive.name}: member {member}", html=False)
    if text is None or not needs_translation(text, glossary):
        return []
    job = LinesJob(text, glossary)
    return [TextPart(member, etree.ElementTree(etree.Element("text")), [job], job=job)]


# How each content type of chunk is read (its parts, by chunk_parts); any other is kept as it is.
READERS: dict[str, Callable[[Archive, str, DocumentOptions, Glossary | None], list[Part]]] = {
    "text/html": html_chunk, "application/xhtml+xml": xhtml_chunk, "text/plain": text_chunk}


def chunk_text(data: bytes, where: str, html: bool) -> str | None:
    """A chunk's text, in the encoding its byte order mark says (the mark kept as its first
    character), else, in ``html``, the one its XML declaration or a ``<meta>`` declares
    (``declared_charset``), else UTF-8; None, with a warning naming ``where`` and the line, where its
    bytes are not text in that encoding, or it names an encoding Python does not know."""
    encoding = bom_charset(data) or (declared_charset(data, html=True) if html else None) or "utf-8"
    try:
        return data.decode(encoding)
    except LookupError:
        warn(f"{where}: the chunk declares the encoding {encoding}, which attnmt cannot read; it is left as it is, "
             "untranslated")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        warn(f"{where}, line {line}: the text is not {encoding} (byte 0x{data[error.start]:02x}); the chunk is "
             "left as it is, untranslated")
    return None


def utf8_bytes(text: str, declared: bool) -> bytes:
    """``text`` as UTF-8, starting with a byte order mark where it is not ASCII and nothing else says
    its encoding (not ``declared``, and no mark of its own already)."""
    if not declared and not text.startswith("\ufeff") and not text.isascii():
        text = "\ufeff" + text
    return text.encode("utf-8")
