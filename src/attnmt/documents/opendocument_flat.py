"""Flat OpenDocument files (.fodt, .fods, .fodp): what LibreOffice saves as one XML document
(``office:document``) instead of a zip archive.  Its root holds what an .odt splits into parts:
content.xml's body and automatic styles, styles.xml's styles and master pages (their headers and
footers), meta.xml's ``office:meta`` (its title and subject translated as meta.xml's are); a chart,
or an embedded object (a spreadsheet in a text), is an ``office:document`` of its own inside the
``draw:object`` that shows it, where an .odt names a folder (``Object 1/``).

Its paragraphs are found and translated as an .odt's are (attnmt.documents.opendocument), its
styles' languages set the same way, and the file written again with its declaration as it was.
Read as text, every line of its XML was sent to the model, and the file came back broken.

The file is parsed as an archive's parts are (part_parsing.parse_xml: no DTD, no entity), with
libxml2's limits lifted where no DOCTYPE declares an entity: its pictures are base64 text in it.
"""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Part
from attnmt.documents.office_suffixes import FLAT_SUFFIXES
from attnmt.documents.opendocument import DOCUMENT, OpenDocumentParagraph, document_jobs
from attnmt.documents.opendocument_cell_lines import LinedPart, cell_lines
from attnmt.documents.opendocument_cells import take_back
from attnmt.documents.opendocument_code import OFFICE, set_language
from attnmt.documents.opendocument_formulas import forget_cell_results
from attnmt.documents.opendocument_package import CHART, EMBEDDED, MEDIA_TYPES, check_media
from attnmt.documents.package_properties import property_jobs, set_document_language
from attnmt.documents.part_parsing import parse_xml
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError

FLAT_MEDIA_TYPES = {flat: MEDIA_TYPES[zipped] for flat, zipped in FLAT_SUFFIXES.items()}
MIMETYPE = f"{{{OFFICE}}}mimetype"
BODY = f"{{{OFFICE}}}body"
BODY_PART = "office:body"  # the name a review's rows give the body's part
META = f"{{{OFFICE}}}meta"  # the file's properties, an .odt's meta.xml
# Basic's modules, where a flat file keeps its macros (``office:scripts``: ooo:library-embedded, ooo:module).
MODULE = "{http://openoffice.org/2004/office}module"


def read_flat(data: bytes, name: str, suffix: str) -> etree._ElementTree:
    """The file's XML, parsed safely; DataError, one line naming ``name``, where it does not parse or
    is no flat OpenDocument file of its extension's kind (``suffix``: .fodt, .fods or .fodp)."""
    tree = parse_xml(data, name, suffix, large=True)
    root = tree.getroot()
    if root.tag != DOCUMENT:
        raise DataError(f"{name}: the root element is {etree.QName(root).localname}, not office:document; "
                        f"this is not a {suffix} file (LibreOffice's flat XML)")
    check_media(name, root.get(MIMETYPE, ""), suffix, FLAT_MEDIA_TYPES)
    return tree


def has_macros(tree: etree._ElementTree) -> bool:
    """Whether the file keeps Basic macros in its ``office:scripts`` (MODULE)."""
    return next(tree.getroot().iter(MODULE), None) is not None


def flat_parts(tree: etree._ElementTree, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    """The file's paragraphs as parts of one tree, in the order a reader meets them, which the review's
    rows name: ``office:body``, then ``office:master-styles`` (the master pages' headers and footers),
    then each chart and embedded object (``chart 1``, ``object 1`` …, in the body's order), then
    ``office:meta`` (the title and subject, as an .odt's meta.xml's).  With ``options.target_lang``, the
    styles' languages are set (the first part marked changed where any was).  The body's is a LinedPart: the
    cells' lines joined here are parted again (LinedPart.part_lines) before the file is written."""
    root = tree.getroot()
    added = cell_lines(root)  # a cell's sentence over its lines read whole, as an .ods's
    jobs = document_jobs(root, None, False, options, glossary)
    # a paragraph's job holds its root, any other job (a tooltip's, a conditional text's, custom shows') its element
    in_body = [next((job.root if isinstance(job, OpenDocumentParagraph) else job.element).iterancestors(BODY), None)
               is not None for job in jobs]
    parts = [LinedPart(BODY_PART, tree, [job for job, inside in zip(jobs, in_body, strict=True) if inside]),
             Part("office:master-styles", tree, [job for job, inside in zip(jobs, in_body, strict=True) if not inside])]
    numbers: dict[str, int] = {}  # charts and objects each counted from 1
    for document in [document for document in root.iter(DOCUMENT) if document is not root
                     and document.get(MIMETYPE, "").strip() in EMBEDDED]:
        chart = document.get(MIMETYPE, "").strip() == CHART
        kind = "chart" if chart else "object"
        numbers[kind] = numbers.get(kind, 0) + 1
        parts.append(Part(f"{kind} {numbers[kind]}", tree, document_jobs(document, None, chart, options, glossary)))
    take_back(added)  # the cells not translated, as they were
    meta = root.find(META)  # the document's title and subject, translated as an .odt's meta.xml's are
    if meta is not None and (properties := property_jobs(meta, glossary)):
        parts.append(Part("office:meta", tree, properties))
    if options.target_lang:
        parts[0].changed = set_language(root, options.target_lang) | set_document_language(root, options.target_lang)
    if forget_cell_results(root):  # computed again from the translated cells
        parts[0].changed = True
    return parts
