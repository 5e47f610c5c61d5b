"""A Word numbering's level texts (attnmt.documents.word_numbering): the words it writes around its
numbers ("Chapter %1:") are translated, the numbers' places (%1 to %9) kept, and a text of numbers and
symbols alone (a bullet, "%1.") kept as it is.  Upper: every sentence upper-cased, each word aligned to itself."""

import io

import docx
from lxml import etree
from office_files import W, docx_bytes, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

NUMBERING = "word/numbering.xml"


def numbered(*texts: str, override: str | None = None) -> bytes:
    """A Word file of two numbered headings, its numbering's levels writing ``texts`` (level 1 first), and
    its list overriding its first level's text with ``override``, as Word writes a restarted list."""
    document = docx.Document()
    for words in ("The garden", "The house"):
        paragraph = document.add_paragraph(words)._p
        paragraph.get_or_add_pPr().append(etree.fromstring(
            f'<w:numPr xmlns:w="{W}"><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr>'))
    members = read_members(docx_bytes(document))
    levels = "".join(f'<w:lvl w:ilvl="{level}"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
                     f'<w:lvlText w:val="{text}"/></w:lvl>' for level, text in enumerate(texts))
    overridden = (f'<w:lvlOverride w:ilvl="0"><w:lvl w:ilvl="0"><w:lvlText w:val="{override}"/></w:lvl>'
                  "</w:lvlOverride>" if override else "")
    members[NUMBERING] = (f'<w:numbering xmlns:w="{W}"><w:abstractNum w:abstractNumId="3">{levels}</w:abstractNum>'
                          f'<w:num w:numId="7"><w:abstractNumId w:val="3"/>{overridden}</w:num></w:numbering>').encode()
    return write_members(members)


def level_texts(data: bytes) -> list[str]:
    root = etree.fromstring(read_members(data)[NUMBERING])
    return [text.get(f"{{{W}}}val") for text in root.iter(f"{{{W}}}lvlText")]


def test_level_texts_are_translated_their_numbers_kept(upper):
    """"Chapter 1:" stood in English above "DER GARTEN": numbering.xml was never read.  A text of numbers and
    symbols alone ("%1.%2.%3", "(%4)", a bullet: Symbol's private-use dot, as Word writes it) reads the same in
    any language, and is not given to the translator."""
    out = translate_office(numbered("Chapter %1:", "Step %1.%2 of the plan", "%1.%2.%3", "(%4)", "\uf0b7",
                                    "Article %6"), ".docx", upper, DocumentOptions())
    assert level_texts(out) == ["CHAPTER %1:", "STEP %1.%2 OF THE PLAN", "%1.%2.%3", "(%4)", "\uf0b7", "ARTICLE %6"]
    assert upper.given == ["The garden", "The house", "Chapter:", "Step of the plan", "Article"]
    assert [paragraph.text for paragraph in docx.Document(io.BytesIO(out)).paragraphs] == ["THE GARDEN", "THE HOUSE"]


def test_a_lists_override_of_a_level_is_translated(upper):
    out = translate_office(numbered("%1.", override="Part %1"), ".docx", upper, DocumentOptions())
    assert level_texts(out) == ["%1.", "PART %1"]
