"""An index mark's texts, which the index shows once LibreOffice updates it, translated
(attnmt.documents.opendocument_index_marks), in a zipped .odt and a flat .fodt.  Mirror: words
upper-cased in reverse order ("red fountain" -> "FOUNTAIN RED")."""

import pytest
from flat_files import flat_file, zipped_file
from lxml import etree
from office_files import read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
# As LibreOffice's Insert > Table of Contents and Index > Index Entry writes them: an alphabetical entry at a
# point (its text not the words beside it) under a key, one over words under the same key, a contents entry.
BODY = ('<office:text><text:p>The <text:alphabetical-index-mark text:string-value="red fountain" '
        'text:key1="Water features"/>fountain in the square is old.</text:p>'
        '<text:p>A <text:alphabetical-index-mark-start text:id="IMark1" text:key1="Water features"/>small lake'
        '<text:alphabetical-index-mark-end text:id="IMark1"/> lies behind it.</text:p>'
        '<text:p>A tall tree<text:toc-mark text:string-value="Trees in the park" text:outline-level="2"/> '
        'stands by the lake.</text:p></office:text>')


@pytest.mark.parametrize("suffix", [".odt", ".fodt"])
def test_an_index_marks_entry_and_keys_are_translated_with_its_paragraph(mirror, suffix):
    data = zipped_file(body=BODY) if suffix == ".odt" else flat_file(body=BODY)
    out = translate_office(data, suffix, mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"] if suffix == ".odt" else out)
    marks = [(etree.QName(mark).localname, dict(mark.attrib))
             for mark in content.iter(f"{{{TEXT}}}alphabetical-index-mark", f"{{{TEXT}}}alphabetical-index-mark-start",
                                      f"{{{TEXT}}}toc-mark")]
    assert marks == [
        ("alphabetical-index-mark", {f"{{{TEXT}}}string-value": "FOUNTAIN RED", f"{{{TEXT}}}key1": "FEATURES WATER"}),
        ("alphabetical-index-mark-start", {f"{{{TEXT}}}id": "IMark1", f"{{{TEXT}}}key1": "FEATURES WATER"}),
        ("toc-mark", {f"{{{TEXT}}}string-value": "PARK THE IN TREES", f"{{{TEXT}}}outline-level": "2"})]


def test_an_index_mark_in_a_footnote_is_translated(mirror):
    """The mark belongs to the note's paragraph, inside the paragraph the note stands in."""
    body = ('<office:text><text:p>A ship<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1'
            '</text:note-citation><text:note-body><text:p>It has <text:alphabetical-index-mark '
            'text:string-value="tall masts"/>three masts.</text:p></text:note-body></text:note> sails.</text:p>'
            '</office:text>')
    out = translate_office(zipped_file(body=body), ".odt", mirror, DocumentOptions())
    mark = next(etree.fromstring(read_members(out)["content.xml"]).iter(f"{{{TEXT}}}alphabetical-index-mark"))
    assert mark.get(f"{{{TEXT}}}string-value") == "MASTS TALL"
