"""A spreadsheet's validity messages keep no title in the source's language
(attnmt.documents.opendocument_validations), in a zipped .ods and a flat .fods as LibreOffice writes
them.  Mirror: words upper-cased in reverse order ("Wrong value" -> "VALUE WRONG")."""

import pytest
from flat_files import flat_file, zipped_file
from lxml import etree
from office_files import read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
# A list rule on A1 with both messages, as LibreOffice's Validity dialog writes them, and a sheet of one cell.
BODY = ('<office:spreadsheet><table:content-validations><table:content-validation table:name="val1" '
        'table:condition="of:cell-content-is-in-list(&quot;Yes&quot;;&quot;No&quot;)" '
        'table:allow-empty-cell="true" table:base-cell-address="S.A1">'
        '<table:help-message table:title="Your answer" table:display="true"><text:p>Pick one</text:p>'
        '</table:help-message><table:error-message table:message-type="stop" table:title="Wrong value" '
        'table:display="true"><text:p>Not in the list</text:p></table:error-message></table:content-validation>'
        '</table:content-validations><table:table table:name="S"><table:table-row>'
        '<table:table-cell table:content-validation-name="val1"/></table:table-row></table:table></office:spreadsheet>')


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_a_validity_messages_title_is_translated_with_its_text(mirror, suffix):
    data = zipped_file("spreadsheet", body=BODY) if suffix == ".ods" else flat_file("spreadsheet", body=BODY)
    out = translate_office(data, suffix, mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"] if suffix == ".ods" else out)
    shown = [(m.get(f"{{{TABLE}}}title"), "".join(m.itertext()))
             for m in content.iter(f"{{{TABLE}}}help-message", f"{{{TABLE}}}error-message")]
    assert shown == [("ANSWER YOUR", "ONE PICK"), ("VALUE WRONG", "LIST THE IN NOT")]
