"""The words a numbering writes around its numbers translated (attnmt.documents.opendocument_numbering), in a
zipped .odt and a flat .fodt as LibreOffice writes them.  Mirror: words upper-cased in reverse order ("Step" ->
"STEP")."""

import pytest
from flat_files import AUTOMATIC, STYLES, flat_file, zipped_file
from lxml import etree
from office_files import read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
LOEXT = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
# Heading numbering "Chapter 1: " and a list numbered "Step 1.", each with the whole format LibreOffice 7.2 on
# writes beside the prefix and suffix, and draws the number from; a level of a number and a stop alone.
LEVEL = ('<text:{tag} xmlns:loext="{loext}" text:level="{level}" loext:num-list-format="{format}" '
         'style:num-prefix="{prefix}" style:num-suffix="{suffix}" style:num-format="1"/>')
OUTLINE = ('<text:outline-style style:name="Outline">'
           + LEVEL.format(tag="outline-level-style", loext=LOEXT, level=1, format="Chapter %1%: ", prefix="Chapter ",
                          suffix=": ")
           + '</text:outline-style>')
LIST = ('<text:list-style style:name="L1">'
        + LEVEL.format(tag="list-level-style-number", loext=LOEXT, level=1, format="Step %1%.", prefix="Step ",
                       suffix=".")
        + LEVEL.format(tag="list-level-style-number", loext=LOEXT, level=2, format="%1%.%2%.", prefix="", suffix=".")
        + '</text:list-style>')
BODY = ('<office:text><text:h text:outline-level="1">The garden</text:h><text:list text:style-name="L1">'
        '<text:list-item><text:p>Dig a hole.</text:p></text:list-item></text:list></office:text>')


@pytest.mark.parametrize("suffix", [".odt", ".fodt"])
def test_a_numberings_prefix_is_translated_and_its_whole_format_follows(mirror, suffix):
    styles = STYLES.replace("</office:styles>", f"{OUTLINE}</office:styles>")
    automatic = AUTOMATIC.replace("</office:automatic-styles>", f"{LIST}</office:automatic-styles>")
    if suffix == ".odt":
        members = read_members(translate_office(zipped_file(body=BODY, styles=styles, automatic=automatic), suffix,
                                                mirror, DocumentOptions()))
        roots = [etree.fromstring(members[name]) for name in ("styles.xml", "content.xml")]
    else:
        roots = [etree.fromstring(translate_office(flat_file(body=BODY, styles=styles, automatic=automatic), suffix,
                                                   mirror, DocumentOptions()))]
    levels = [(level.get(f"{{{STYLE}}}num-prefix"), level.get(f"{{{STYLE}}}num-suffix"),
               level.get(f"{{{LOEXT}}}num-list-format"))
              for root in roots for level in root.iter(f"{{{TEXT}}}outline-level-style",
                                                       f"{{{TEXT}}}list-level-style-number")]
    assert levels == [("CHAPTER ", ": ", "CHAPTER %1%: "), ("STEP ", ".", "STEP %1%."), ("", ".", "%1%.%2%.")]
