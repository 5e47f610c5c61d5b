"""An OpenDocument spreadsheet's formulas, validation lists and conditional formats follow the
translated cells whose text their literals name (attnmt.documents.opendocument_literals), written as
LibreOffice writes them.  Mirror: words upper-cased in reverse order ("In progress" -> "PROGRESS IN")."""

import pytest
from flat_files import flat_file, zipped_file
from lxml import etree
from office_files import SOFFICE, libreoffice_csv, read_members
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
DECLARED = f'xmlns:calcext="{CALCEXT}" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"'
# The old conditional format (ODF's), which LibreOffice writes beside its own.
AUTOMATIC = ('<office:automatic-styles><style:style style:name="ce1" style:family="table-cell">'
             '<style:map style:condition="cell-content()=&quot;Not started&quot;" style:apply-style-name="Good" '
             'style:base-cell-address="S.A1"/></style:style></office:automatic-styles>')


def cell(text: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


def status_body(settings: str = '<table:calculation-settings table:case-sensitive="false"/>') -> str:
    """Column A: Status, In progress, Not started, in progress; B1 counts "In progress", C1 is "In progress"
    (its result cached: it reads no cell); A2:A10 take a list; A1:A4 are highlighted by two rules."""
    formulas = ('<table:table-cell table:formula="of:=COUNTIF([.A2:.A4];&quot;In progress&quot;)" '
                'office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>'
                '<table:table-cell table:formula="of:=&quot;In progress&quot;" office:value-type="string" '
                'office:string-value="In progress"><text:p>In progress</text:p></table:table-cell>')
    rows = [cell("Status") + formulas, cell("In progress"), cell("Not started"), cell("in progress")]
    rules = ('<calcext:conditional-formats><calcext:conditional-format calcext:target-range-address="S.A1:S.A4">'
             '<calcext:condition calcext:apply-style-name="Good" '
             'calcext:value="contains-text(&quot;In progress&quot;)" calcext:base-cell-address="S.A1"/>'
             '<calcext:condition calcext:apply-style-name="Good" '
             'calcext:value="=&quot;Not started&quot;" calcext:base-cell-address="S.A1"/>'
             '</calcext:conditional-format></calcext:conditional-formats>')
    validation = ('<table:content-validations><table:content-validation table:name="val1" table:condition='
                  '"of:cell-content-is-in-list(&quot;In progress&quot;;&quot;Not started&quot;;&quot;Done&quot;)" '
                  'table:base-cell-address="S.A2"/></table:content-validations>')
    table = "".join(f"<table:table-row>{row}</table:table-row>" for row in rows)
    return (f'<office:spreadsheet {DECLARED}>{settings}{validation}<table:table table:name="S">{table}{rules}'
            "</table:table></office:spreadsheet>")


def translated(suffix: str, translator, body: str) -> tuple[bytes, etree._Element]:
    data = (zipped_file("spreadsheet", body=body, automatic=AUTOMATIC) if suffix == ".ods" else
            flat_file("spreadsheet", body=body, automatic=AUTOMATIC))
    out = translate_office(data, suffix, translator, DocumentOptions())
    return out, etree.fromstring(read_members(out)["content.xml"] if suffix == ".ods" else out)


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_formulas_lists_and_rules_follow_their_translated_cells(mirror, suffix):
    _, content = translated(suffix, mirror, status_body())
    formulas = [c.get(f"{{{TABLE}}}formula") for c in content.iter(f"{{{TABLE}}}table-cell")][1:3]
    assert formulas == ['of:=COUNTIF([.A2:.A4];"PROGRESS IN")', 'of:="PROGRESS IN"']
    result = content.findall(f".//{{{TABLE}}}table-cell")[2]
    assert (result.get(f"{{{OFFICE}}}string-value"), "".join(result.itertext())) == ("PROGRESS IN", "PROGRESS IN")
    validation = content.find(f".//{{{TABLE}}}content-validation")
    # "Done" is no cell's text: translated as the item a user picks (attnmt.documents.result_literals)
    assert validation.get(f"{{{TABLE}}}condition") == 'of:cell-content-is-in-list("PROGRESS IN";"STARTED NOT";"DONE")'
    assert [c.get(f"{{{CALCEXT}}}value") for c in content.iter(f"{{{CALCEXT}}}condition")] == [
        'contains-text("PROGRESS IN")', '="STARTED NOT"']
    assert content.find(f".//{{{STYLE}}}map").get(f"{{{STYLE}}}condition") == 'cell-content()="STARTED NOT"'


def test_a_spreadsheet_that_compares_case_keeps_a_literal_of_another_case(mirror):
    """ODF compares case where ``table:case-sensitive`` is not written: there "IN progress" reads no
    cell, and is kept, where "In progress" reads A2 and follows it."""
    body = status_body(settings="").replace("[.A2:.A4];&quot;In progress", "[.A2:.A4];&quot;IN progress")
    _, content = translated(".ods", mirror, body)
    formulas = [c.get(f"{{{TABLE}}}formula") for c in content.iter(f"{{{TABLE}}}table-cell")][1:3]
    assert formulas == ['of:=COUNTIF([.A2:.A4];"IN progress")', 'of:="PROGRESS IN"']


def test_a_cell_written_as_its_value_alone_is_read_by_its_value(mirror):
    """odfpy writes a string cell as ``office:string-value`` without a paragraph: read as "", its
    translation made "" a cell's text, and IF([.A2]="";…) compared with "PROGRESS IN"."""
    body = status_body()
    for text in ("In progress", "in progress"):
        body = body.replace(cell(text), f'<table:table-cell office:value-type="string" office:string-value="{text}"/>')
    body = body.replace("of:=&quot;In progress&quot;", "of:=IF([.A2]=&quot;&quot;;&quot;empty&quot;;[.A2])")
    _, content = translated(".ods", mirror, body)
    formulas = [c.get(f"{{{TABLE}}}formula") for c in content.iter(f"{{{TABLE}}}table-cell")][1:3]
    # "" still asks whether A2 is empty; "empty", IF's result, is translated (attnmt.documents.result_literals)
    assert formulas == ['of:=COUNTIF([.A2:.A4];"PROGRESS IN")', 'of:=IF([.A2]="";"EMPTY";[.A2])']


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_counts_the_translated_cells_with_the_followed_literal(mirror, tmp_path):
    out, _ = translated(".ods", mirror, status_body())
    assert libreoffice_csv(out, ".ods", tmp_path)[0] == "STATUS,2,PROGRESS IN"


def target_body() -> str:
    """Revenue in A2:A3, the status a formula gives it in B2:B3, a link's label in C2 and a count of
    B in D2, with the results LibreOffice caches; B2:B3 highlighted where they read "Above target"."""
    status = ('<table:table-cell table:formula="of:=IF([.A{row}]&gt;1000;&quot;Above target&quot;;'
              '&quot;Below target&quot;)" office:value-type="string" office:string-value="{shown}" '
              'calcext:value-type="string"><text:p>{shown}</text:p></table:table-cell>')
    link = ('<table:table-cell table:formula="of:=HYPERLINK(&quot;https://example.com&quot;;&quot;Click here&quot;)" '
            'office:value-type="string" office:string-value="Click here">'
            '<text:p>Click here</text:p></table:table-cell>')
    count = ('<table:table-cell table:formula="of:=COUNTIF([.B2:.B3];&quot;Above target&quot;)" '
             'office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>')
    rows = [cell("Revenue") + cell("Status"),
            '<table:table-cell office:value-type="float" office:value="1200"><text:p>1200</text:p></table:table-cell>'
            + status.format(row=2, shown="Above target") + link + count,
            '<table:table-cell office:value-type="float" office:value="800"><text:p>800</text:p></table:table-cell>'
            + status.format(row=3, shown="Below target")]
    rule = ('<calcext:conditional-formats><calcext:conditional-format calcext:target-range-address="S.B2:S.B3">'
            '<calcext:condition calcext:apply-style-name="Good" calcext:value="=&quot;Above target&quot;" '
            'calcext:base-cell-address="S.B2"/></calcext:conditional-format></calcext:conditional-formats>')
    table = "".join(f"<table:table-row>{row}</table:table-row>" for row in rows)
    return (f'<office:spreadsheet {DECLARED}><table:table table:name="S">{table}{rule}</table:table>'
            "</office:spreadsheet>")


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_a_formulas_result_texts_are_translated_and_what_compares_with_them_follows(mirror, suffix):
    """LibreOffice computed "Above target" and showed "Click here" beside translated cells, as an .xlsx
    did; the count and the rule that compare with the status take its translation, or match nothing."""
    _, content = translated(suffix, mirror, target_body())
    formulas = [formula for c in content.iter(f"{{{TABLE}}}table-cell") if (formula := c.get(f"{{{TABLE}}}formula"))]
    assert formulas == ['of:=IF([.A2]>1000;"TARGET ABOVE";"TARGET BELOW")',
                        'of:=HYPERLINK("https://example.com";"HERE CLICK")', 'of:=COUNTIF([.B2:.B3];"TARGET ABOVE")',
                        'of:=IF([.A3]>1000;"TARGET ABOVE";"TARGET BELOW")']
    assert content.find(f".//{{{CALCEXT}}}condition").get(f"{{{CALCEXT}}}value") == '="TARGET ABOVE"'
    link = content.findall(f".//{{{TABLE}}}table-cell")[4]  # reads no cell: its cached result stays, translated
    assert (link.get(f"{{{OFFICE}}}string-value"), "".join(link.itertext())) == ("HERE CLICK", "HERE CLICK")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_shows_a_formulas_translated_result_texts(mirror, tmp_path):
    out, _ = translated(".ods", mirror, target_body())
    assert libreoffice_csv(out, ".ods", tmp_path)[1:3] == ["1200,TARGET ABOVE,HERE CLICK,1", "800,TARGET BELOW,,"]


@pytest.mark.parametrize(("suffix", "part"), [(".ods", "content.xml"), (".fods", "office:body")])
def test_a_review_lists_a_formulas_result_texts_after_the_cells_of_their_part(mirror, suffix, part):
    """"Above target" and "Click here" were translated but never listed: a reviewer could not see them."""
    data = (zipped_file("spreadsheet", body=target_body(), automatic=AUTOMATIC) if suffix == ".ods" else
            flat_file("spreadsheet", body=target_body(), automatic=AUTOMATIC))
    review = everything_listed()
    translate_office(data, suffix, mirror, DocumentOptions(), review=review)
    rows = [(row["paragraph"], row["source"]) for row in review.rows() if row["part"] == part]  # not the header's
    assert rows == [(1, "Revenue"), (2, "Status"), (3, "Above target"), (4, "Below target"), (5, "Click here")]
