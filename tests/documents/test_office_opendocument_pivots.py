"""The header cells a spreadsheet's DataPilot table reads its fields' names from keep their source
text (attnmt.documents.opendocument_pivots), in a flat .fods and a zipped .ods, whether its source
is written as an address or by a range's name.  Mirror: words upper-cased in reverse order."""

import io
import shutil
import subprocess
import zipfile

import pytest
from flat_files import NAMESPACES, flat_file, zipped_file
from lxml import etree
from office_files import libreoffice_csv, read_members
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
TABLE = NAMESPACES["table"]
TEXT = NAMESPACES["text"]
HEADERS = '<table:table-cell office:value-type="string"><text:p>Animal</text:p></table:table-cell>' \
          '<table:table-cell office:value-type="string"><text:p>Count</text:p></table:table-cell>'
ROWS = "".join(f'<table:table-row><table:table-cell office:value-type="string"><text:p>{animal}</text:p>'
               f'</table:table-cell><table:table-cell office:value-type="float" office:value="{count}">'
               f'<text:p>{count}</text:p></table:table-cell></table:table-row>'
               for animal, count in (("A dog swims.", 3), ("A cat sleeps.", 5)))
# The pivot table's own cells, as LibreOffice wrote them when it last laid the table out.
PIVOT = ('<table:table table:name="Pivot"><table:table-row><table:table-cell office:value-type="string">'
         '<text:p>Animal</text:p></table:table-cell><table:table-cell office:value-type="string">'
         '<text:p>Sum - Count</text:p></table:table-cell></table:table-row></table:table>')
# A DataPilot table as LibreOffice 7.4 writes one (its members and sort settings left out), over SOURCE.
DATA_PILOT = ('<table:data-pilot-tables><table:data-pilot-table table:name="DataPilot1" table:application-data="" '
              'table:target-range-address="Pivot.A1:Pivot.B4" table:buttons="Pivot.A1" '
              'table:show-filter-button="false">{source}<table:data-pilot-field table:source-field-name="Animal" '
              'table:orientation="row" table:used-hierarchy="-1" table:function="auto"><table:data-pilot-level '
              'table:show-empty="false"/></table:data-pilot-field><table:data-pilot-field '
              'table:source-field-name="Count" table:orientation="data" table:used-hierarchy="-1" '
              'table:function="sum"><table:data-pilot-level table:show-empty="false"/></table:data-pilot-field>'
              '<table:data-pilot-field table:source-field-name="" table:is-data-layout-field="true" '
              'table:orientation="column"><table:data-pilot-level table:show-empty="false"/>'
              '</table:data-pilot-field></table:data-pilot-table></table:data-pilot-tables>')


def pivot_body(address: str = "Data.A1:Data.B3", sheet: str = "Data", above: str = "", named: str = "",
               source: str | None = None) -> str:
    """A spreadsheet whose sheet ``sheet`` holds the headers "Animal", "Count" and two rows under
    them (``above``: rows before them), and a DataPilot table over ``address`` (``source``: its
    whole source element instead); ``named``: the spreadsheet's named ranges."""
    source = source or f'<table:source-cell-range table:cell-range-address="{address}"/>'
    return (f'<office:spreadsheet><table:table table:name="{sheet}">{above}<table:table-row>{HEADERS}'
            f'</table:table-row>{ROWS}</table:table>{PIVOT}{named}{DATA_PILOT.format(source=source)}'
            '</office:spreadsheet>')


def sheet_rows(root: etree._Element, sheet: str = "Data") -> list[list[str]]:
    """Each row's cells' texts, of the sheet named ``sheet``."""
    table = next(t for t in root.iter(f"{{{TABLE}}}table") if t.get(f"{{{TABLE}}}name") == sheet)
    return [["".join(cell.itertext()) for cell in row.iter(f"{{{TABLE}}}table-cell")]
            for row in table.iter(f"{{{TABLE}}}table-row")]


def translate_flat(body: str, translator, review: Review | None = None) -> etree._Element:
    return etree.fromstring(translate_office(flat_file("spreadsheet", body=body, masters=""), ".fods", translator,
                                             DocumentOptions(), review=review))


@pytest.mark.parametrize(("address", "sheet"), [("Data.A1:Data.B3", "Data"), ("$Data.$A$1:.$B$3", "Data"),
                                                ("data.A1:data.B3", "Data"),
                                                ("'My Sheet'.A1:'My Sheet'.B3", "My Sheet"),
                                                ("$'Anna''s'.$A$1:$'Anna''s'.$B$3", "Anna's")])
def test_the_headers_a_data_pilot_reads_keep_their_source_in_a_flat_file(mirror, address, sheet):
    """The headers were translated while the DataPilot table kept its fields "Animal" and "Count":
    LibreOffice found neither, and the pivot table lost its rows and data.  The cells below, and
    the pivot table's own cells, are translated."""
    root = translate_flat(pivot_body(address, sheet), mirror)
    assert sheet_rows(root, sheet) == [["Animal", "Count"], ["SWIMS. DOG A", "3"], ["SLEEPS. CAT A", "5"]]
    assert sheet_rows(root, "Pivot") == [["ANIMAL", "COUNT - SUM"]]
    assert [field.get(f"{{{TABLE}}}source-field-name") for field in root.iter(f"{{{TABLE}}}data-pilot-field")] == [
        "Animal", "Count", ""]


def test_the_headers_a_data_pilot_reads_keep_their_source_in_a_zipped_file(mirror):
    out = translate_office(zipped_file("spreadsheet", body=pivot_body()), ".ods", mirror, DocumentOptions())
    root = etree.fromstring(read_members(out)["content.xml"])
    assert sheet_rows(root) == [["Animal", "Count"], ["SWIMS. DOG A", "3"], ["SLEEPS. CAT A", "5"]]


def value_header_file(suffix: str) -> bytes:
    """pivot_body's spreadsheet, its header "Animal" written as odfpy writes a string cell, its
    ``office:string-value`` alone, over two lines: "Animal" / "kind"."""
    value = '<table:table-cell office:value-type="string" office:string-value="Animal&#10;kind"/>'
    body = pivot_body().replace(HEADERS.split("</table:table-cell>")[0] + "</table:table-cell>", value, 1)
    return (flat_file if suffix == ".fods" else zipped_file)("spreadsheet", body=body)


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_a_header_whose_text_is_its_string_value_alone_keeps_it_when_its_lines_go_on(mirror, suffix):
    """Such a header is given paragraphs to read and its lines joined, as any such cell is
    (attnmt.documents.opendocument_cell_lines.cell_lines): kept, it is written back as it was, the value its text,
    no paragraph added (read by odfpy where it reads the file)."""
    from odf.opendocument import load
    from odf.table import TableCell

    out = translate_office(value_header_file(suffix), suffix, mirror, DocumentOptions())
    if suffix == ".ods":
        header = load(io.BytesIO(out)).spreadsheet.getElementsByType(TableCell)[0]
        assert (header.getAttribute("stringvalue"), header.childNodes) == ("Animal\nkind", [])
    header = next(etree.fromstring(out if suffix == ".fods" else read_members(out)["content.xml"]).iter(
        f"{{{TABLE}}}table-cell"))
    assert (header.get(f"{{{NAMESPACES['office']}}}string-value"), len(header)) == ("Animal\nkind", 0)
    assert not any("kind" in given for given in mirror.given) and "A dog swims." in mirror.given


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_libreoffice_shows_a_kept_header_of_a_string_value_alone_as_it_was(mirror, suffix, tmp_path):
    out = translate_office(value_header_file(suffix), suffix, mirror, DocumentOptions())
    assert libreoffice_csv(out, suffix, tmp_path)[:2] == ['"Animal', 'kind",Count']


def test_the_headers_are_found_through_repeated_rows_and_cells_and_header_rows(mirror):
    """Two empty rows written as one repeated row, an empty cell repeated before each row's cells,
    the headers in table:table-header-rows: the range B3:C5's first row is the headers' row."""
    body = pivot_body("Data.B3:Data.C5", above='<table:table-row table:number-rows-repeated="2"><table:table-cell '
                                                'table:number-columns-repeated="3"/></table:table-row>')
    shifted = ROWS.replace('<table:table-row>', '<table:table-row><table:table-cell/>')
    headers = f'<table:table-row><table:table-cell table:number-columns-repeated="1"/>{HEADERS}</table:table-row>'
    body = body.replace(f"<table:table-row>{HEADERS}</table:table-row>{ROWS}",
                        f"<table:table-header-rows>{headers}</table:table-header-rows>{shifted}")
    rows = sheet_rows(translate_flat(body, mirror))
    assert rows == [[""], ["", "Animal", "Count"], ["", "SWIMS. DOG A", "3"], ["", "SLEEPS. CAT A", "5"]]


def test_a_source_given_by_a_range_name_keeps_that_ranges_headers(mirror):
    """LibreOffice reads a source's range name (in any case) before its address, which may be stale:
    the named range A2:B4 starts under a title, which is translated."""
    title = '<table:table-row><table:table-cell office:value-type="string"><text:p>The animals seen.</text:p>' \
            '</table:table-cell></table:table-row>'
    named = ('<table:named-expressions><table:named-range table:name="Animals" table:base-cell-address="$Data.$A$1" '
             'table:cell-range-address="$Data.$A$2:.$B$4"/></table:named-expressions>')
    source = '<table:source-cell-range table:name="animals" table:cell-range-address="Data.A1:Data.B3"/>'
    rows = sheet_rows(translate_flat(pivot_body(above=title, named=named, source=source), mirror))
    assert rows[:2] == [["SEEN. ANIMALS THE"], ["Animal", "Count"]]


@pytest.mark.parametrize("source", ['<table:source-cell-range table:cell-range-address="Report.A1:Report.B3"/>',
                                    '<table:database-source-table table:database-name="Zoo" '
                                    'table:database-table-name="Animals"/>'])
def test_a_data_pilot_of_no_range_of_this_spreadsheet_keeps_no_header(mirror, source):
    """A sheet the spreadsheet does not have, a database's table."""
    assert sheet_rows(translate_flat(pivot_body(source=source), mirror))[0] == ["ANIMAL", "COUNT"]


def test_the_review_does_not_list_the_headers_a_data_pilot_keeps(mirror):
    """Every translated sentence is listed (quality 0.2): the data, and the pivot table's own cells."""
    review = everything_listed()
    translate_flat(pivot_body(), mirror, review)
    assert sorted(segment.source for segment in review.segments) == ["A cat sleeps.", "A dog swims.", "Animal",
                                                                     "Sum - Count"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_finds_the_fields_of_a_translated_data_pilot(mirror, tmp_path):
    """Converted to .xlsx by LibreOffice, the pivot table still lays out its row field and its data
    field, as the source's own conversion does; with its headers translated it had neither."""
    for name, data in (("flat.fods", flat_file("spreadsheet", body=pivot_body())),
                       ("zipped.ods", zipped_file("spreadsheet", body=pivot_body()))):
        (tmp_path / name).write_bytes(translate_office(data, "." + name.split(".")[1], mirror, DocumentOptions()))
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "xlsx",
                          "--outdir", str(tmp_path / "xlsx"), "flat.fods", "zipped.ods"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    for name in ("flat.xlsx", "zipped.xlsx"):
        with zipfile.ZipFile(io.BytesIO((tmp_path / "xlsx" / name).read_bytes())) as book:
            pivot = etree.fromstring(book.read("xl/pivotTables/pivotTable1.xml"))
        fields = {etree.QName(element).localname: element.get("count") for element in pivot.iter()}
        assert (fields.get("rowFields"), fields.get("dataFields")) == ("1", "1"), name


def test_a_repeat_count_written_in_superscript_digits_reads_as_one_row(mirror):
    """``table:number-rows-repeated="²"``: "²" isdigit, and int() refused it, a ValueError out of the
    file; a count that is no whole number in decimal digits stands for one row, as a missing one does."""
    body = pivot_body("Data.A2:Data.B4", above='<table:table-row table:number-rows-repeated="²"><table:table-cell/>'
                                                '</table:table-row>')
    assert sheet_rows(translate_flat(body, mirror))[:2] == [[""], ["Animal", "Count"]]


def test_a_data_fields_name_given_in_libreoffice_is_translated_and_its_source_field_kept(mirror):
    """A data field renamed in LibreOffice keeps its name in the DataPilot (``tableooo:display-name``),
    which LibreOffice writes in the pivot table's cells when it lays it out again: it stayed in the
    source while those cells were translated."""
    renamed = ('xmlns:tableooo="http://openoffice.org/2009/table" table:source-field-name="Count" '
               'tableooo:display-name="Sum of all counts" ')
    body = pivot_body().replace('table:source-field-name="Count" ', renamed).replace(">Sum - Count<",
                                                                                     ">Sum of all counts<")
    field = [f for f in translate_flat(body, mirror).iter(f"{{{TABLE}}}data-pilot-field")][1]
    shown = field.get("{http://openoffice.org/2009/table}display-name")
    assert (field.get(f"{{{TABLE}}}source-field-name"), shown) == ("Count", "COUNTS ALL OF SUM")


def test_an_item_renamed_in_libreoffice_is_translated_and_its_source_value_kept(mirror):
    """A DataPilot member given a name of its own (``tableooo:display-name``, which LibreOffice keeps
    and shows in the pivot table's cells in place of the cell's value) stayed in the source; the
    value it stands for (``table:name``) is the source cells', and is kept."""
    members = ('<table:data-pilot-members><table:data-pilot-member xmlns:tableooo="http://openoffice.org/2009/table" '
               'table:name="A dog swims." tableooo:display-name="The big dog" table:display="true"/>'
               '</table:data-pilot-members>')
    level = '<table:data-pilot-level table:show-empty="false"/>'
    body = pivot_body().replace(level, level.replace("/>", f">{members}</table:data-pilot-level>"), 1)
    member = next(translate_flat(body, mirror).iter(f"{{{TABLE}}}data-pilot-member"))
    shown = member.get("{http://openoffice.org/2009/table}display-name")
    assert (member.get(f"{{{TABLE}}}name"), shown) == ("A dog swims.", "DOG BIG THE")
