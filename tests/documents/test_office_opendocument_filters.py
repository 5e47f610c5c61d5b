"""A spreadsheet's filters (attnmt.documents.opendocument_filters) after its cells are translated,
as LibreOffice saves an AutoFilter: a database range whose conditions name the text of cells of a
column.  Mirror: words upper-cased in reverse order ("East side" -> "SIDE EAST")."""

import pytest
from flat_files import flat_file
from lxml import etree
from office_files import calc_file, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
ROWS = ("Region", "East side", "West side", "east side", "Total")
# An AutoFilter over A1:A4 (its header "Region") showing "East side", ticked with "West side" in its
# list, a value no cell holds and a regular expression; row 5's "Total" is outside the range.
FILTER = ('<table:database-ranges><table:database-range table:name="__Anonymous_Sheet_DB__0" '
          'table:target-range-address="\'My data\'.A1:\'My data\'.A4" table:display-filter-buttons="true">'
          '<table:filter><table:filter-or>'
          '<table:filter-condition table:field-number="0" table:value="East side" table:operator="=">'
          '<table:filter-set-item table:value="East side"/><table:filter-set-item table:value="West side"/>'
          '</table:filter-condition>'
          '<table:filter-condition table:field-number="0" table:value="Total" table:operator="="/>'
          '<table:filter-condition table:field-number="0" table:value="^East.*" table:operator="match"/>'
          '</table:filter-or></table:filter></table:database-range></table:database-ranges>')


def filtered_sheet() -> str:
    """A sheet "My data" of one column of ROWS filtered by FILTER (a spreadsheet's body's content)."""
    rows = "".join(f'<table:table-row><table:table-cell office:value-type="string"><text:p>{text}</text:p>'
                   "</table:table-cell></table:table-row>" for text in ROWS)
    return f'<table:table table:name="My data">{rows}</table:table>{FILTER}'


def filtered_calc_file() -> bytes:
    """The calc file's sheet, renamed "My data", of one column of ROWS filtered by FILTER."""
    members = read_members(calc_file())
    content = members["content.xml"].decode()
    start, end = content.index("<table:table "), content.index("</office:spreadsheet>")
    members["content.xml"] = (content[:start] + filtered_sheet() + content[end:]).encode()
    return write_members(members)


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_a_filters_values_follow_their_translated_cells(mirror, suffix):
    data = (filtered_calc_file() if suffix == ".ods" else
            flat_file("spreadsheet", body=f"<office:spreadsheet>{filtered_sheet()}</office:spreadsheet>"))
    out = translate_office(data, suffix, mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"] if suffix == ".ods" else out)
    values = [element.get(f"{{{TABLE}}}value") for element in content.iter(f"{{{TABLE}}}filter-condition",
                                                                            f"{{{TABLE}}}filter-set-item")]
    # "East side" and "east side" both read "SIDE EAST"; "Total" is below the range, and no cell reads "^East.*"
    assert values == ["SIDE EAST", "SIDE EAST", "SIDE WEST", "Total", "^East.*"]


def test_a_formulas_text_taken_out_leaves_its_filters_value_to_the_other_cells(mirror):
    """A formula cell reading "East side" in the filtered column loses its text, to be computed
    again (attnmt.documents.opendocument_formulas): its emptied paragraph is no translation of it."""
    members = read_members(filtered_calc_file())
    formula = ('<table:table-row><table:table-cell table:formula="of:=[.A2]" office:value-type="string" '
               'office:string-value="East side"><text:p>East side</text:p></table:table-cell></table:table-row>')
    content = members["content.xml"].decode().replace("</table:table>", formula + "</table:table>", 1)
    members["content.xml"] = content.replace(".A4", ".A6").encode()  # the range: rows 1 to 6, the formula's
    out = translate_office(write_members(members), ".ods", mirror, DocumentOptions())
    condition = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TABLE}}}filter-condition")
    assert condition.get(f"{{{TABLE}}}value") == "SIDE EAST"


def test_a_filters_value_follows_cells_written_as_their_value_alone(mirror):
    """odfpy writes a string cell as ``office:string-value`` without a paragraph, which LibreOffice
    shows: read as empty, its filter value kept "East side" beside cells reading "SIDE EAST"."""
    members = read_members(filtered_calc_file())
    content = members["content.xml"].decode()
    for text in ("East side", "east side"):
        content = content.replace(f'<table:table-cell office:value-type="string"><text:p>{text}</text:p>'
                                  "</table:table-cell>",
                                  f'<table:table-cell office:value-type="string" office:string-value="{text}"/>')
    members["content.xml"] = content.encode()
    out = translate_office(write_members(members), ".ods", mirror, DocumentOptions())
    condition = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TABLE}}}filter-condition")
    assert condition.get(f"{{{TABLE}}}value") == "SIDE EAST"
