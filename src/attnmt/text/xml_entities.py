"""The entities an XML file's DOCTYPE declares, which attnmt never expands, and the one check every
XML input makes of them: a page or a bilingual file read as XML (a Qt Linguist ``.ts``, XLIFF,
``.resx``, SVG: attnmt.documents.doctype), a TBX termbase (attnmt.decoding.termbase), an EPUB's
parts (attnmt.documents.part_parsing; an office file's parts may have no DTD at all).

    check_entities(dtd, where, keeps_internal)  -> DataError naming the first entity refused
    doctype_dtd(doctype)                         -> the DTD a DOCTYPE's text declares, read alone

An external entity (``<!ENTITY ext SYSTEM "file:///etc/passwd">``, or ``PUBLIC``) is refused by
every input, its file or address never opened: kept as a reference, as it was in a page, the
translation carried it to whatever reads the file next (lrelease, a .resx compiler, a CAT tool),
which may resolve it, and the words it stands for were never translated.  An internal one (its text
in the declaration) cannot read anything: a page keeps a reference to it as written
(``keeps_internal``), where a termbase's terms and an EPUB's pages must be text itself.
"""

from __future__ import annotations

from lxml import etree

from attnmt.errors import DataError
from attnmt.text.xml_start import first_element


def check_entities(dtd: etree.DTD | None, where: str, keeps_internal: bool) -> None:
    """DataError naming ``where`` (a file, and a line where known) and the first entity ``dtd``
    declares that is external (its system identifier, never read), or any it declares unless the
    input ``keeps_internal`` ones unexpanded."""
    for entity in dtd.entities() if dtd is not None else ():
        if entity.system_url is not None:
            raise DataError(f"{where}: its DOCTYPE declares the external entity {entity.name} "
                            f'(SYSTEM "{entity.system_url}"), which is never read, for it could read any file '
                            "or address: write its text where it is used, and take the declaration out")
        if not keeps_internal:
            raise DataError(f"{where}: its DOCTYPE declares the entity {entity.name}, and declared entities "
                            "are never expanded (one could read a file): write its text where it is used, "
                            "and take the declaration out")


def doctype_dtd(doctype: str) -> etree.DTD | None:
    """The DTD that the text of a DOCTYPE (``<!DOCTYPE x [...]>``) declares, read as safely as
    first_element reads any (nothing loaded, resolved or fetched); None where it declares no entity
    or cannot be read so."""
    if "<!ENTITY" not in doctype:
        return None
    root = first_element(f"{doctype}<x/>".encode())
    return None if root is None else root.getroottree().docinfo.internalDTD
