"""The labels and tips of a form's controls translated (attnmt.documents.opendocument_forms), in a zipped
.odt and a flat .fodt as LibreOffice writes them.  Mirror: words upper-cased in reverse order ("Send the
form" -> "FORM THE SEND")."""

import pytest
from flat_files import NAMESPACES, flat_file, zipped_file
from lxml import etree
from office_files import read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

FORM = NAMESPACES["form"]
# A questionnaire as Form > Form Controls writes it: a check box with a tip, a push button, a list box of two
# entries (each a label shown and a value sent), each drawn in a paragraph by a draw:control.
BODY = ('<office:text><office:forms form:automatic-focus="false" form:apply-design-mode="false"><form:form '
        'form:name="Form"><form:checkbox form:name="Agree" form:id="control1" form:label="I agree to the terms" '
        'form:title="Tick this box to agree"/><form:button form:name="Send" form:id="control2" '
        'form:label="Send the form" form:button-type="push"/><form:listbox form:name="Colour" form:id="control3" '
        'form:dropdown="true"><form:option form:label="Dark red" form:value="red"/><form:option form:label="Light '
        'blue" form:value="blue"/></form:listbox></form:form></office:forms>'
        '<text:p>Please fill in the form below.</text:p>'
        + "".join(f'<text:p><draw:control draw:control="control{n}" svg:width="6cm" svg:height="1cm"/></text:p>'
                  for n in (1, 2, 3))
        + '</office:text>')


@pytest.mark.parametrize("suffix", [".odt", ".fodt"])
def test_a_form_controls_labels_and_tips_are_translated_and_its_names_and_values_kept(mirror, suffix):
    data = zipped_file(body=BODY) if suffix == ".odt" else flat_file(body=BODY)
    out = translate_office(data, suffix, mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"] if suffix == ".odt" else out)
    controls = [(etree.QName(control).localname, {etree.QName(name).localname: value
                                                   for name, value in control.attrib.items()
                                                   if name.startswith(f"{{{FORM}}}") and "-" not in name})
                for control in content.iter(f"{{{FORM}}}checkbox", f"{{{FORM}}}button", f"{{{FORM}}}option")]
    assert controls == [
        ("checkbox", {"name": "Agree", "id": "control1", "label": "TERMS THE TO AGREE I",
                      "title": "AGREE TO BOX THIS TICK"}),
        ("button", {"name": "Send", "id": "control2", "label": "FORM THE SEND"}),
        ("option", {"label": "RED DARK", "value": "red"}), ("option", {"label": "BLUE LIGHT", "value": "blue"})]
