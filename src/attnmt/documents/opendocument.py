"""OpenDocument text, presentations and spreadsheets (.odt, .odp, .ods): the paragraphs and
headings (``text:p``, ``text:h``) of content.xml and styles.xml (headers, footers, master
pages), translated as HTML blocks are (attnmt.documents.markup), for ODF is mixed content too.

Inside a paragraph, ``text:span`` and ``text:a`` are marks; everything else (``text:s`` spaces,
tabs, line breaks, fields, notes, frames, bookmarks) is an atom kept as it is.  A note's or a
text box's own paragraphs are translated as paragraphs of their own.  A spreadsheet cell whose
value is not a string (a number, a date, a formula's) is not touched.  ``fo:language`` and
``fo:country`` of the styles follow the target language.
"""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.markup import TreeJob, Vocabulary, is_comment
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
MARKS = frozenset({f"{{{TEXT}}}span", f"{{{TEXT}}}a"})
BREAKS = frozenset({f"{{{TEXT}}}line-break", f"{{{TEXT}}}tab", f"{{{TEXT}}}s"})
PARAGRAPHS = (f"{{{TEXT}}}p", f"{{{TEXT}}}h")
PARTS = ("content.xml", "styles.xml")


class OpenDocumentVocabulary(Vocabulary):
    """A paragraph's spans and links are marks, all else in it atoms; spaces collapse, as ODF
    renders them (``text:s`` holds the rest)."""

    def __init__(self) -> None:
        super().__init__(xml=False)

    def is_atom(self, node: etree._Element) -> bool:
        return is_comment(node) or node.tag not in MARKS

    def is_inline(self, node: etree._Element) -> bool:
        return True  # the job's root is one paragraph: whatever is in it belongs to its text

    def is_untranslated(self, node: etree._Element) -> bool:
        return is_comment(node)

    def parts_words(self, node: etree._Element) -> bool:
        return not is_comment(node) and node.tag in BREAKS


def is_value(paragraph: etree._Element) -> bool:
    """Whether the paragraph shows a spreadsheet cell's number, date or formula result."""
    cell = next(paragraph.iterancestors(f"{{{TABLE}}}table-cell", f"{{{TABLE}}}covered-table-cell"), None)
    if cell is None:
        return False
    kind = cell.get(f"{{{OFFICE}}}value-type")
    return cell.get(f"{{{TABLE}}}formula") is not None or kind not in (None, "string")


def opendocument_parts(archive: Archive, options: DocumentOptions) -> list[Part]:
    vocabulary = OpenDocumentVocabulary()
    job_options = replace(options, attributes=())
    parts = []
    for member in PARTS:
        if member not in archive:
            continue
        tree = parse_part(archive, member)
        jobs = [TreeJob(p, vocabulary, job_options) for p in tree.getroot().iter(*PARAGRAPHS) if not is_value(p)]
        part = Part(member, tree, [job for job in jobs if job.runs])
        if options.target_lang:
            part.changed = set_language(tree.getroot(), options.target_lang)
        parts.append(part)
    return parts


def set_language(root: etree._Element, language: str) -> bool:
    """Every style's ``fo:language`` (and ``fo:country``) set to ``language``; whether any was."""
    code, _, country = language.replace("_", "-").partition("-")
    found = False
    for element in root.iter():
        if element.get(f"{{{FO}}}language") is None:
            continue
        found = True
        element.set(f"{{{FO}}}language", code.lower())
        if country:
            element.set(f"{{{FO}}}country", country.upper())
        else:
            element.attrib.pop(f"{{{FO}}}country", None)
    return found
