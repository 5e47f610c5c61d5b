"""The header cells a pivot cache reads its fields' names from keep their source text
(attnmt.documents.pivot_caches), whether the cache's source is a range, a table or a defined
name.  Mirror: words upper-cased in reverse order."""

import io
import warnings

import openpyxl
import pytest
from lxml import etree
from office_files import docx_bytes, read_members, write_members
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.table import Table
from support import everything_listed

from attnmt.documents.archive import Part, parse_part, read_archive
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.pivot_caches import pivot_headers
from attnmt.documents.review import Review
from attnmt.documents.tables import keep_tables_whole
from attnmt.errors import LeftUntranslated

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CACHE = "xl/pivotCache/pivotCacheDefinition1.xml"
# A pivot cache as Excel writes one, but for its records (optional), over the sheet "Data"'s A1:B3.
CACHE_DEFINITION = (f'<pivotCacheDefinition xmlns="{S}" recordCount="2"><cacheSource type="worksheet">'
                    '<worksheetSource {source}/></cacheSource><cacheFields count="2">'
                    '<cacheField name="Fruit" numFmtId="0"><sharedItems count="2"><s v="A red apple"/>'
                    '<s v="A yellow banana"/></sharedItems></cacheField>'
                    '<cacheField name="Amount" numFmtId="0"><sharedItems containsSemiMixedTypes="0" '
                    'containsString="0" containsNumber="1" containsInteger="1" minValue="3" maxValue="5"/>'
                    '</cacheField></cacheFields></pivotCacheDefinition>')


def pivot_file(source: str, table: bool = False, name: bool = False) -> bytes:
    """A sheet "Data" of fruits (A1:B3, headers "Fruit", "Amount") and a pivot cache whose
    ``worksheetSource`` has the attributes ``source``; the range a table "Fruits" with ``table``,
    and a defined name "FruitList" with ``name``.  The pivot table itself is left out: the
    cache is what names the fields."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Data"
    for row in (["Fruit", "Amount"], ["A red apple", 3], ["A yellow banana", 5]):
        sheet.append(row)
    if table:
        sheet.add_table(Table(displayName="Fruits", ref="A1:B3"))
    if name:
        book.defined_names["FruitList"] = DefinedName("FruitList", attr_text="Data!$A$1:$B$3")
    members = read_members(docx_bytes(book))
    members[CACHE] = CACHE_DEFINITION.format(source=source).encode()
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheDefinition+xml"
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>", f'<Override PartName="/{CACHE}" ContentType="{kind}"/></Types>'.encode())
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>", f'<Relationship Id="rId99" Type="{R}/pivotCacheDefinition" '
                             f'Target="pivotCache/pivotCacheDefinition1.xml"/></Relationships>'.encode())
    members["xl/workbook.xml"] = members["xl/workbook.xml"].replace(
        b"</workbook>", f'<pivotCaches><pivotCache xmlns:r="{R}" cacheId="1" r:id="rId99"/></pivotCaches>'
                        f'</workbook>'.encode())
    return write_members(members)


def translate(data: bytes, translator, review: Review | None = None) -> bytes:
    return translate_office(data, ".xlsx", translator, DocumentOptions(), review=review)


def data_rows(out: bytes) -> list[list]:
    return [[cell.value for cell in row] for row in openpyxl.load_workbook(io.BytesIO(out))["Data"].iter_rows()]


@pytest.mark.parametrize(("source", "table", "name"), [('ref="A1:B3" sheet="Data"', False, False),
                                                       ('ref="A1:B3" sheet="data"', True, False),
                                                       ('name="Fruits"', True, False),
                                                       ('name="fruitlist"', False, True)])
def test_the_headers_a_pivot_cache_names_its_fields_after_keep_their_source(mirror, source, table, name):
    """The headers were translated while the cache kept its fields "Fruit" and "Amount": Excel
    took the fields out of the pivot table when it refreshed it.  The cells below are translated."""
    out = translate(pivot_file(source, table, name), mirror)
    assert data_rows(out) == [["Fruit", "Amount"], ["APPLE RED A", 3], ["BANANA YELLOW A", 5]]
    assert read_members(out)[CACHE] == CACHE_DEFINITION.format(source=source).encode()  # refreshed by Excel


def test_a_tables_columns_stay_named_after_the_headers_a_pivot_cache_reads(mirror):
    out = translate(pivot_file('name="Fruits"', table=True), mirror)
    columns = etree.fromstring(read_members(out)["xl/tables/table1.xml"]).iter(f"{{{S}}}tableColumn")
    assert [column.get("name") for column in columns] == ["Fruit", "Amount"]


@pytest.mark.parametrize("source", ['ref="A1:B3" sheet="Report"', 'name="Vegetables"',
                                    f'ref="A1:B3" sheet="Data" xmlns:r="{R}" r:id="rId1"'])
def test_a_cache_of_no_range_of_this_workbook_keeps_no_header(mirror, source):
    """A sheet the workbook does not have, a name it does not define, another workbook's sheet."""
    assert data_rows(translate(pivot_file(source), mirror))[0] == ["FRUIT", "AMOUNT"]


def test_the_review_does_not_list_the_headers_a_pivot_cache_keeps(mirror):
    review = everything_listed()
    translate(pivot_file('ref="A1:B3" sheet="Data"'), mirror, review)
    assert sorted(segment.source for segment in review.segments) == ["A red apple", "A yellow banana"]


def test_a_pinned_header_whose_column_name_differs_is_written_once(mirror):
    """A table whose column is named otherwise than its header cell ("Kind" over "Fruit"), which
    a pivot cache reads: the cell takes the cache's text once, so the strings no longer shown are
    the translations it showed, not an inline string written a moment before."""
    members = read_members(pivot_file('name="Fruits"', table=True))
    members["xl/tables/table1.xml"] = members["xl/tables/table1.xml"].replace(b'name="Fruit"', b'name="Kind"')
    archive = read_archive(write_members(members), "fruits.xlsx", ".xlsx")
    sheet = Part("xl/worksheets/sheet1.xml", parse_part(archive, "xl/worksheets/sheet1.xml"))
    for text in sheet.tree.getroot().iter(f"{{{S}}}t"):
        text.text = mirror.texts([text.text or ""])[0]  # as translated
    _, gone = keep_tables_whole(archive, [sheet], pivot_headers(archive))
    assert sorted(string.findtext(f"{{{S}}}t") for string in gone) == ["AMOUNT", "FRUIT"]
    header = sheet.tree.getroot().find(f".//{{{S}}}c[@r='A1']")
    assert header is not None and header.findtext(f".//{{{S}}}t") == "Fruit"


PIVOT_TABLE = "xl/pivotTables/pivotTable1.xml"
# A pivot table over the cache, as LibreOffice writes one: its fruits in rows, the sum of the amounts.
PIVOT_DEFINITION = (f'<pivotTableDefinition xmlns="{S}" name="Fruits sold" cacheId="1" dataCaption="Values" '
                    'grandTotalCaption="All fruits" missingCaption="42"><location ref="D3:E5" firstHeaderRow="1" '
                    'firstDataRow="1" firstDataCol="1"/><pivotFields count="2"><pivotField axis="axisRow" '
                    'showAll="0"><items count="2"><item x="0"/><item x="1"/></items></pivotField><pivotField '
                    'dataField="1" showAll="0"/></pivotFields><rowFields count="1"><field x="0"/></rowFields>'
                    '<dataFields count="1"><dataField name="Sum of Amount" fld="1" subtotal="sum"/></dataFields>'
                    '</pivotTableDefinition>')


def pivot_table_file(definition: str = PIVOT_DEFINITION) -> bytes:
    """pivot_file's workbook with the pivot table ``definition`` over its cache."""
    members = read_members(pivot_file('ref="A1:B3" sheet="Data"'))
    members[PIVOT_TABLE] = definition.encode()
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.pivotTable+xml"
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>", f'<Override PartName="/{PIVOT_TABLE}" ContentType="{kind}"/></Types>'.encode())
    return write_members(members)


def test_a_pivot_tables_data_field_name_and_captions_are_translated(mirror):
    """Excel and LibreOffice write these labels into the sheet from the definition, which kept
    them in the source; its fields' names (the headers) and its table's name are kept."""
    members = read_members(pivot_table_file())
    definition = etree.fromstring(read_members(translate(write_members(members), mirror))[PIVOT_TABLE])
    assert [definition.get(name) for name in ("name", "dataCaption", "grandTotalCaption", "missingCaption")] == [
        "Fruits sold", "VALUES", "FRUITS ALL", "42"]
    assert definition.find(f".//{{{S}}}dataField").get("name") == "AMOUNT OF SUM"
    assert data_rows(translate(write_members(members), mirror))[0] == ["Fruit", "Amount"]


AXIS = 'axis="axisRow"'  # the pivot definition's first field's, before which a name is written


def test_a_field_and_an_item_renamed_in_a_pivot_table_are_translated(mirror):
    """A field's name given in the table (pivotField name) and an item's (item n), which Excel shows in
    place of the header's and the cell's, stayed in the source."""
    definition = PIVOT_DEFINITION.replace(AXIS, f'name="Kind of fruit" {AXIS}').replace('<item x="0"/>',
                                                                                       '<item n="Red apples" x="0"/>')
    root = etree.fromstring(read_members(translate(pivot_table_file(definition), mirror))[PIVOT_TABLE])
    assert root.find(f".//{{{S}}}pivotField").get("name") == "FRUIT OF KIND"
    assert [item.get("n") for item in root.iter(f"{{{S}}}item")] == ["APPLES RED", None]


def test_names_of_a_pivot_table_whose_translations_would_be_one_keep_their_sources_with_a_warning(known):
    """"Sum of Amount" and "Total of Amount" both became "Betrag": Excel refuses a table of two data
    fields of one name (in any case), and repaired the file by taking the table out.  Another field's
    name that no other's translation meets is translated."""
    translator = known({"Sum of Amount": ("Betrag", [(2, 0)]), "Total of Amount": ("betrag", [(2, 0)]),
                        "Kind of fruit": ("Obstsorte", [(2, 0)]), "Values": ("Werte", [(0, 0)]),
                        "All fruits": ("Alles Obst", [(0, 0), (1, 1)]), "Fruit": ("Obst", [(0, 0)]),
                        "Amount": ("Menge", [(0, 0)]), "A red apple": ("Ein roter Apfel", [(0, 0), (1, 1), (2, 2)]),
                        "A yellow banana": ("Eine gelbe Banane", [(0, 0), (1, 1), (2, 2)])})
    definition = PIVOT_DEFINITION.replace(AXIS, f'name="Kind of fruit" {AXIS}').replace(
        '<dataFields count="1">', '<dataFields count="2"><dataField name="Total of Amount" fld="1"/>')
    with pytest.warns(LeftUntranslated) as heard:
        out = translate(pivot_table_file(definition), translator)
    root = etree.fromstring(read_members(out)[PIVOT_TABLE])
    assert [field.get("name") for field in root.iter(f"{{{S}}}dataField")] == ["Total of Amount", "Sum of Amount"]
    assert root.find(f".//{{{S}}}pivotField").get("name") == "Obstsorte"
    assert [str(warning.message) for warning in heard] == [
        f"the .xlsx file: {PIVOT_TABLE}: the translation of the pivot table's field name {source!r} would be "
        f"{target!r}, another of its names, which Excel refuses, so its source is kept"
        for source, target in [("Total of Amount", "betrag"), ("Sum of Amount", "Betrag")]]


def test_a_fields_caption_of_its_subtotals_is_translated(mirror):
    """A field's own label of its subtotals (pivotField subtotalCaption), which Excel writes in the
    subtotal rows' cells, stayed in the source."""
    definition = PIVOT_DEFINITION.replace(AXIS, f'subtotalCaption="All of the fruit" {AXIS}')
    root = etree.fromstring(read_members(translate(pivot_table_file(definition), mirror))[PIVOT_TABLE])
    assert root.find(f".//{{{S}}}pivotField").get("subtotalCaption") == "FRUIT THE OF ALL"


def test_items_the_source_names_alike_are_translated_without_a_warning(mirror):
    """Two items the source itself names alike clash in the source already: their translations, alike
    too, are written, and no warning is given for them."""
    definition = PIVOT_DEFINITION.replace('<item x="0"/><item x="1"/>', '<item n="Other fruit" x="0"/>'
                                                                           '<item n="Other fruit" x="1"/>')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = translate(pivot_table_file(definition), mirror)
    root = etree.fromstring(read_members(out)[PIVOT_TABLE])
    assert [item.get("n") for item in root.iter(f"{{{S}}}item")] == ["FRUIT OTHER", "FRUIT OTHER"]
