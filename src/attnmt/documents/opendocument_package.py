"""An OpenDocument file's package: its kind (``mimetype``), and the manifest
(META-INF/manifest.xml) that names its members: the charts and the embedded objects (a spreadsheet, a
text, a presentation or a drawing put in with Insert > Object > OLE Object), each a document of its own
inside the file, and the members that are encrypted.  attnmt.documents.opendocument reads the file's
parts after these checks.

A password-protected file is a zip like any other, its members encrypted inside it: only the
manifest says so (``manifest:encryption-data``), and it is refused by that before a part is read
(its content.xml would be read as XML that is not well-formed).
"""

from __future__ import annotations

from lxml import etree

from attnmt.documents.archive import MIMETYPE, Archive, kind_advice, parse_part
from attnmt.errors import DataError

MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
CHART = "application/vnd.oasis.opendocument.chart"
MANIFEST_PATH = "META-INF/manifest.xml"
MEDIA_TYPES = {".odt": "application/vnd.oasis.opendocument.text",  # and its -template variant, by prefix
               ".odp": "application/vnd.oasis.opendocument.presentation",
               ".ods": "application/vnd.oasis.opendocument.spreadsheet"}
# The documents a file holds inside it (``Object 1/``), each translated as a document of its own: a chart, and an
# embedded object of a kind that holds paragraphs.  A formula (LibreOffice Math) is none: it is kept.
EMBEDDED = frozenset((CHART, *MEDIA_TYPES.values(), "application/vnd.oasis.opendocument.graphics"))


def check_kind(archive: Archive, suffix: str) -> None:
    """DataError naming what the file is where its ``mimetype`` is another kind's (a presentation
    named .odt, an EPUB book), or where it holds no content.xml: it would come back untranslated."""
    media = archive.read(MIMETYPE).decode("ascii", "replace").strip() if MIMETYPE in archive else ""
    check_media(archive.name, media, suffix, MEDIA_TYPES)
    if "content.xml" not in archive:
        raise DataError(f"{archive.name}: member content.xml is missing; this is not a {suffix} file"
                        f"{kind_advice(archive)}")


def check_media(name: str, media: str, suffix: str, kinds: dict[str, str]) -> None:
    """DataError naming what the file ``name`` is where its media type (``media``, "" where it has
    none) is not its extension's (``suffix``; ``kinds``: each extension's media type): the extension
    of its kind where it is one of ``kinds``."""
    if media and not media.startswith(kinds[suffix]):
        found = next((other for other, prefix in kinds.items() if media.startswith(prefix)), None)
        what = f"an OpenDocument {kinds[found].rpartition('.')[2]}" if found else f"of type {media}"
        instead = f": give it its own extension ({found}) and translate it again" if found else ""
        raise DataError(f"{name}: the file is {what}, not a {suffix} file{instead}")


def read_manifest(archive: Archive) -> etree._Element | None:
    """META-INF/manifest.xml's root; None where the file has none."""
    if MANIFEST_PATH not in archive:
        return None
    # doctype: OpenOffice.org wrote its manifests with a DOCTYPE (never with entities)
    return parse_part(archive, MANIFEST_PATH, doctype=True).getroot()


def check_encryption(archive: Archive, manifest: etree._Element | None) -> None:
    """DataError where the manifest says a member is encrypted (a password-protected file), naming
    content.xml where it is one of them."""
    if manifest is None:
        return
    encrypted = [entry.get(f"{{{MANIFEST}}}full-path", "") for entry in manifest.iter(f"{{{MANIFEST}}}file-entry")
                 if entry.find(f"{{{MANIFEST}}}encryption-data") is not None]
    if encrypted:
        member = "content.xml" if "content.xml" in encrypted else encrypted[0]
        raise DataError(f"{archive.name}: the file is encrypted or password-protected (member {member} is "
                        "encrypted, says META-INF/manifest.xml); remove the password and try again")


def object_folders(manifest: etree._Element | None) -> list[tuple[str, bool]]:
    """The folders of the documents that META-INF/manifest.xml names inside the file (``Object 1/``: EMBEDDED),
    in its order, each with whether it is a chart.  A spreadsheet put into a text (a price table) stayed in the
    source's language where only the charts were read."""
    if manifest is None:
        return []
    folders = []
    for entry in manifest.iter(f"{{{MANIFEST}}}file-entry"):
        path, media = entry.get(f"{{{MANIFEST}}}full-path", ""), entry.get(f"{{{MANIFEST}}}media-type", "")
        if media in EMBEDDED and path.strip("./"):
            folders.append((path.removeprefix("./").rstrip("/") + "/", media == CHART))
    return folders
