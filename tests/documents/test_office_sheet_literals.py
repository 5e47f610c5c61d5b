"""A workbook's formulas' text literals, conditional formats' texts and list validations' items
follow the translated cells whose text they name (attnmt.documents.sheet_literals); everything else
in them stays as it was written.  Mirror: words upper-cased in reverse order ("In progress" ->
"PROGRESS IN"), so that a kept literal differs from its cells even as Excel compares, case apart."""

import io

import openpyxl
import pytest
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_csv, read_members, write_members
from openpyxl.formatting.rule import CellIsRule, Rule
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.worksheet.datavalidation import DataValidation
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SHEET = "xl/worksheets/sheet1.xml"
STATES = ("Status", "In progress", "Not started", "in progress")  # A1:A4; "in progress" is "In progress" to Excel


def status_book() -> openpyxl.Workbook:
    """Column A holds STATES; the formulas, rules and lists are each test's."""
    book = openpyxl.Workbook()
    for row, state in enumerate(STATES, start=1):
        book.active[f"A{row}"] = state
    return book


def translate(data: bytes, translator) -> bytes:
    return translate_office(data, ".xlsx", translator, DocumentOptions())


def sheet_root(data: bytes) -> etree._Element:
    return etree.fromstring(read_members(data)[SHEET])


def test_a_formulas_text_literals_that_name_cells_follow_their_translation(mirror):
    """=COUNTIF(A2:A4,"In progress") counted nothing once A2 and A4 read "PROGRESS IN"."""
    book = status_book()
    sheet = book.active
    sheet["B1"] = '=COUNTIF(A2:A4,"In progress")'
    sheet["B2"] = '=IF(A2="not STARTED",1,MATCH("Done",A1:A4,0))'  # "Done": no cell's text, no result
    sheet["B3"] = "=SUMIF('Say \"In progress\"'!A1:A4,\"In progress*\",A1:A4)"  # a sheet's name, a wildcard
    out = translate(docx_bytes(book), mirror)
    formulas = {cell.getparent().get("r"): cell.text for cell in sheet_root(out).iter(f"{{{S}}}f")}
    assert formulas == {"B1": 'COUNTIF(A2:A4,"PROGRESS IN")', "B2": 'IF(A2="STARTED NOT",1,MATCH("Done",A1:A4,0))',
                        "B3": "SUMIF('Say \"In progress\"'!A1:A4,\"In progress*\",A1:A4)"}
    assert "In progress" not in mirror.given[-1]  # a literal is never given to the model: it follows a cell


def test_a_criterions_text_after_its_equality_operator_follows_its_cells(mirror):
    """=COUNTIF(A2:A4,"<>In progress") counted all three translated cells, where it counted one."""
    book = status_book()
    book.active["B1"] = '=COUNTIF(A2:A4,"<>In progress")+COUNTIFS(A2:A4,"=Not started")+COUNTIF(A2:A4,">In")'
    formula = sheet_root(translate(docx_bytes(book), mirror)).findtext(f".//{{{S}}}f")
    assert formula == 'COUNTIF(A2:A4,"<>PROGRESS IN")+COUNTIFS(A2:A4,"=STARTED NOT")+COUNTIF(A2:A4,">In")'


def test_a_literal_a_function_reads_as_a_keyword_or_a_reference_is_kept(known):
    """CELL's info type "address", INDIRECT's "Summary" (a defined name): cells reading "address" and
    "Summary", translated "Adresse" and "Übersicht", turned them into a type and a name Excel has not."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = "address", "Summary"
    book.active["B1"] = '=CELL("address",Sales[[#This Row],[Summary]])&INDIRECT("Summary")&IF(A2="Summary",1,0)'
    translator = known({"address": ("Adresse", [(0, 0)]), "Summary": ("Übersicht", [(0, 0)])})
    formula = sheet_root(translate(docx_bytes(book), translator)).findtext(f".//{{{S}}}f")
    assert formula == 'CELL("address",Sales[[#This Row],[Summary]])&INDIRECT("Summary")&IF(A2="Übersicht",1,0)'


def test_a_literal_whose_cells_were_translated_two_ways_is_kept(known):
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"], book.active["B1"] = "Open", "open", '=COUNTIF(A1:A2,"open")'
    translator = known({"Open": ("Offen", [(0, 0)]), "open": ("öffnen", [(0, 0)])})
    assert sheet_root(translate(docx_bytes(book), translator)).findtext(f".//{{{S}}}f") == 'COUNTIF(A1:A2,"open")'


def test_a_literal_takes_the_translation_of_the_cell_that_reads_it_exactly(known):
    """"Open" and "open" translated "Offen" and "offen" are one to Excel: each literal takes its own cell's."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = "Open", "open"
    book.active["B1"], book.active["B2"] = '=COUNTIF(A1:A2,"open")', '=COUNTIF(A1:A2,"OPEN")'
    translator = known({"Open": ("Offen", [(0, 0)]), "open": ("offen", [(0, 0)])})
    formulas = [f.text for f in sheet_root(translate(docx_bytes(book), translator)).iter(f"{{{S}}}f")]
    assert formulas == ['COUNTIF(A1:A2,"offen")', 'COUNTIF(A1:A2,"Offen")']


def test_a_formulas_cached_text_that_is_a_followed_literal_follows_it(mirror):
    """="In progress" keeps no cell's text but its own: its cached result said the source beside it."""
    book = status_book()
    book.active["B1"] = '="In progress"'
    members = read_members(docx_bytes(book))
    written = members[SHEET].decode()
    start = written.index('<c r="B1"')
    end = written.index("</c>", start) + len("</c>")
    members[SHEET] = (written[:start] + '<c r="B1" t="str"><f>"In progress"</f><v>In progress</v></c>'
                      + written[end:]).encode()
    out = openpyxl.load_workbook(io.BytesIO(translate(write_members(members), mirror)), data_only=True)
    assert (out.active["A2"].value, out.active["B1"].value) == ("PROGRESS IN", "PROGRESS IN")


def with_cells(data: bytes, cells: dict[str, str]) -> bytes:
    """``data``'s sheet with each cell of ``cells`` (by reference: its XML, as Excel writes it) for openpyxl's."""
    members = read_members(data)
    written = members[SHEET].decode()
    for reference, cell in cells.items():
        start = written.index(f'<c r="{reference}"')
        end = written.index("</c>", start) + len("</c>")
        written = written[:start] + cell + written[end:]
    members[SHEET] = written.encode()
    return write_members(members)


def target_book() -> bytes:
    """Revenue in B2:B3, the status a formula filled down from C2 gives it in C2:C3, a link's label in
    D2:D3, a count of C in E2 and a highlighting rule of C: each cell with the results Excel caches."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B2"], sheet["B3"] = "Status", 1200, 800
    for reference in ("C2", "C3", "D2", "D3", "E2"):
        sheet[reference] = "=0"
    rule = Rule(type="cellIs", operator="equal", formula=['"Above target"'], dxf=DifferentialStyle())
    sheet.conditional_formatting.add("C2:C3", rule)
    return with_cells(docx_bytes(book), {
        "C2": '<c r="C2" t="str"><f t="shared" ref="C2:C3" si="0">IF(B2&gt;1000,"Above target","Below target")</f>'
              "<v>Above target</v></c>",
        "C3": '<c r="C3" t="str"><f t="shared" si="0"/><v>Below target</v></c>',
        "D2": '<c r="D2" t="str"><f t="shared" ref="D2:D3" si="1">HYPERLINK("https://example.com","Click here")'
              "</f><v>Click here</v></c>",
        "D3": '<c r="D3" t="str"><f t="shared" si="1"/><v>Click here</v></c>',
        "E2": '<c r="E2"><f>COUNTIF(C2:C3,"Above target")</f><v>1</v></c>'})


def test_a_formulas_result_texts_are_translated_and_what_compares_with_them_follows(mirror):
    """The status read "Above target" and the link "Click here" in a translated sheet; the count and
    the rule that compare with the status take its translation, or they would match nothing."""
    root = sheet_root(translate(target_book(), mirror))
    formulas = {f.getparent().get("r"): f.text for f in root.iter(f"{{{S}}}f") if f.text}
    assert formulas == {"C2": 'IF(B2>1000,"TARGET ABOVE","TARGET BELOW")',
                        "D2": 'HYPERLINK("https://example.com","HERE CLICK")', "E2": 'COUNTIF(C2:C3,"TARGET ABOVE")'}
    assert root.findtext(f".//{{{S}}}cfRule/{{{S}}}formula") == '"TARGET ABOVE"'
    shown = {cell.get("r"): cell.findtext(f"{{{S}}}v") for cell in root.iter(f"{{{S}}}c")}
    assert (shown["D2"], shown["D3"]) == ("HERE CLICK", "HERE CLICK")  # a link reads no cell: its result stays


def test_a_result_text_that_a_cell_holds_takes_the_cells_translation(known):
    """"Done" in A1 and as IF's result are one text to a count: the model is not asked for it again."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["B1"] = "Done", '=IF(A2>0,"Done","Waiting for review")'
    translator = known({"Done": ("Erledigt", [(0, 0)]), "Waiting for review": ("Wartet auf Prüfung", [(0, 0)])})
    formula = sheet_root(translate(docx_bytes(book), translator)).findtext(f".//{{{S}}}f")
    assert formula == 'IF(A2>0,"Erledigt","Wartet auf Prüfung")'
    assert translator.given.count("Done") == 1


def test_a_result_text_or_a_list_item_the_model_garbled_keeps_its_source_as_a_cells_label_does(mirror):
    """A cell shows "Cheap" or a drop-down's "Maybe" alone, as it shows a header: the demo model wrote them
    "Ein Chemuner" and "In einem schrüt", where a cell's "Cheap" keeps its source.  A sentence is not judged."""
    book = openpyxl.Workbook()
    book.active["A1"] = '=IF(B1>10,"Expensive","Cheap")'
    book.active["A2"] = '=IF(B2>10,"Call the office today.","Low stock")'
    validation = DataValidation(type="list", formula1='"Yes,Maybe"')
    book.active.add_data_validation(validation)
    validation.add("C1:C9")
    judging = Judging(mirror, {"Cheap": 0.05, "Maybe": 0.1, "Low stock": 0.2, "Call the office today.": 0.0})
    root = sheet_root(translate(docx_bytes(book), judging))
    assert [f.text for f in root.iter(f"{{{S}}}f")] == ['IF(B1>10,"EXPENSIVE","Cheap")',
                                                       'IF(B2>10,"TODAY. OFFICE THE CALL","Low stock")']
    assert root.findtext(f".//{{{S}}}formula1") == '"YES,Maybe"'
    assert sorted(source for source, _ in judging.judged) == ["Cheap", "Expensive", "Low stock", "Maybe", "Yes"]


def test_a_text_pieced_together_or_read_as_a_reference_or_compared_is_kept(mirror):
    book = openpyxl.Workbook()
    book.active["A1"] = '="Total: "&B1&" units"'  # pieces of a text: no whole sentence
    book.active["A2"] = '=INDIRECT(IF(B1>0,"Summary","Detail")&"!A1")'  # sheets' names
    book.active["A3"] = '=IF(B1="Not started",CHOOSE(B2,"Low priority","High priority"),0)'
    formulas = [f.text for f in sheet_root(translate(docx_bytes(book), mirror)).iter(f"{{{S}}}f")]
    assert formulas == ['"Total: "&B1&" units"', 'INDIRECT(IF(B1>0,"Summary","Detail")&"!A1")',
                        'IF(B1="Not started",CHOOSE(B2,"PRIORITY LOW","PRIORITY HIGH"),0)']


def test_an_excel_2010_conditional_formats_text_follows_its_cells(mirror):
    """Excel writes a rule as x14's where it reads another sheet: its ``text`` kept the source."""
    members = read_members(docx_bytes(status_book()))
    rule = ('<extLst><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" '
            'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
            '<x14:conditionalFormattings><x14:conditionalFormatting '
            'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:cfRule type="containsText" '
            'priority="1" operator="containsText" text="Not started" id="{00000000-0000-0000-0000-000000000001}">'
            '<xm:f>NOT(ISERROR(SEARCH("Not started",A1)))</xm:f><x14:dxf/></x14:cfRule><xm:sqref>A1:A4</xm:sqref>'
            '</x14:conditionalFormatting></x14:conditionalFormattings></ext></extLst>')
    members[SHEET] = members[SHEET].replace(b"</worksheet>", f"{rule}</worksheet>".encode())
    found = sheet_root(translate(write_members(members), mirror)).find(
        ".//{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}cfRule")
    assert (found.get("text"), found.findtext("{http://schemas.microsoft.com/office/excel/2006/main}f")) == (
        "STARTED NOT", 'NOT(ISERROR(SEARCH("STARTED NOT",A1)))')


def list_book(items: str) -> openpyxl.Workbook:
    book = status_book()
    validation = DataValidation(type="list", formula1=items)
    book.active.add_data_validation(validation)
    validation.add("A2:A10")
    return book


def test_a_list_validations_items_follow_their_cells(mirror):
    """Excel flagged every translated cell as not in the list "In progress,Not started,Done"."""
    out = translate(docx_bytes(list_book('"In progress, Not started,Done"')), mirror)
    validation = openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0]
    assert validation.formula1 == '"PROGRESS IN, STARTED NOT,DONE"'  # its spaces kept; "Done": no cell's, translated


def test_a_list_validations_items_no_cell_holds_yet_are_translated_and_followed(mirror):
    """A template's drop-down, its cells still empty, offered English words in a translated sheet;
    the count and the rule that compare with what a user picks take the same words."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["B1"] = "Task", '=COUNTIF(A2:A9,"In progress")'
    validation = DataValidation(type="list", formula1='"Open,In progress,Done"')
    book.active.add_data_validation(validation)
    validation.add("A2:A9")
    rule = Rule(type="containsText", operator="containsText", text="Done", dxf=DifferentialStyle())
    rule.formula = ['NOT(ISERROR(SEARCH("Done",A2)))']
    book.active.conditional_formatting.add("A2:A9", rule)
    root = sheet_root(translate(docx_bytes(book), mirror))
    assert root.findtext(f".//{{{S}}}formula1") == '"OPEN,PROGRESS IN,DONE"'
    assert root.findtext(f".//{{{S}}}f") == 'COUNTIF(A2:A9,"PROGRESS IN")'
    cf_rule = root.find(f".//{{{S}}}cfRule")
    assert (cf_rule.get("text"), cf_rule.findtext(f"{{{S}}}formula")) == ("DONE", 'NOT(ISERROR(SEARCH("DONE",A2)))')


def test_a_list_item_whose_translation_holds_a_comma_keeps_its_source(known):
    book = list_book('"In progress,Not started"')
    translator = known({text: (text.replace(" ", ", ") if "progress" in text else text.upper(), [])
                        for text in STATES})
    with pytest.warns(LeftUntranslated, match=r"sheet1\.xml, the list of cells A2:A10: .*'In, progress'.* comma"):
        out = translate(docx_bytes(book), translator)
    validation = openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0]
    assert validation.formula1 == '"In progress,NOT STARTED"'


def test_a_list_whose_translation_is_over_excels_limit_is_kept(known):
    """Excel holds 255 characters in a list: a longer one is a damaged file to it."""
    book = list_book('"In progress,Not started"')
    translator = known({text: (text.upper() * 20, []) for text in STATES})
    with pytest.warns(LeftUntranslated, match=r"the list of cells A2:A10: .* 441 characters long, more than the 255"):
        out = translate(docx_bytes(book), translator)
    assert openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0].formula1 == (
        '"In progress,Not started"')


def test_an_excel_2010_list_validations_items_follow_their_cells(mirror):
    """Excel writes a list validation as x14's where it refers to another sheet, and may for a list of words."""
    members = read_members(docx_bytes(status_book()))
    validation = ('<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" '
                  'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
                  '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
                  '<x14:dataValidation type="list"><x14:formula1><xm:f>"Not started,In progress"</xm:f>'
                  '</x14:formula1><xm:sqref>A2:A10</xm:sqref></x14:dataValidation></x14:dataValidations></ext>'
                  '</extLst>')
    members[SHEET] = members[SHEET].replace(b"</worksheet>", f"{validation}</worksheet>".encode())
    root = sheet_root(translate(write_members(members), mirror))
    assert root.findtext(".//{http://schemas.microsoft.com/office/excel/2006/main}f") == '"STARTED NOT,PROGRESS IN"'


def test_a_literal_whose_translation_is_over_excels_limit_is_kept(known):
    book = status_book()
    book.active["B1"] = '=COUNTIF(A2:A4,"In progress")+COUNTIF(A2:A4,"Not started")'
    translator = known({text: (text.upper() * (30 if "progress" in text else 1), []) for text in STATES})
    with pytest.warns(LeftUntranslated, match=r"the formula of cell B1: the translation of the text 'In progress' "
                                              r"is 330 characters long"):
        out = translate(docx_bytes(book), translator)
    assert sheet_root(out).findtext(f".//{{{S}}}f") == 'COUNTIF(A2:A4,"In progress")+COUNTIF(A2:A4,"NOT STARTED")'


def test_a_conditional_formats_text_and_formulas_follow_their_cells(mirror):
    """The highlighting of "In progress" cells stopped once they read "PROGRESS IN"."""
    book = status_book()
    style = DifferentialStyle()
    rule = Rule(type="containsText", operator="containsText", text="In progress", dxf=style)
    rule.formula = ['NOT(ISERROR(SEARCH("In progress",A1)))']
    book.active.conditional_formatting.add("A1:A4", rule)
    book.active.conditional_formatting.add("A1:A4", CellIsRule(operator="equal", formula=['"Not started"']))
    starts = Rule(type="beginsWith", operator="beginsWith", text="In", dxf=style)  # a part of a cell's text
    starts.formula = ['LEFT(A1,LEN("In"))="In"']
    book.active.conditional_formatting.add("A1:A4", starts)
    root = sheet_root(translate(docx_bytes(book), mirror))
    rules = list(root.iter(f"{{{S}}}cfRule"))
    assert [rule.get("text") for rule in rules] == ["PROGRESS IN", None, "In"]
    assert [rule.findtext(f"{{{S}}}formula") for rule in rules] == [
        'NOT(ISERROR(SEARCH("PROGRESS IN",A1)))', '"STARTED NOT"', 'LEFT(A1,LEN("In"))="In"']


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_counts_the_translated_cells_with_the_followed_literal(mirror, tmp_path):
    book = list_book('"In progress,Not started"')
    book.active["B1"] = '=COUNTIF(A2:A4,"In progress")'
    book.active["C1"] = '=IF(A3="Not started","yes","no")'
    out = translate(docx_bytes(book), mirror)
    assert libreoffice_csv(out, ".xlsx", tmp_path)[0] == "STATUS,2,YES"  # IF's result text translated too


def test_a_review_lists_a_formulas_result_texts_and_a_lists_items_at_their_sheet(mirror):
    """A reviewer saw neither: translated apart from the cells, they were missing from the table, and a
    wrong "Above target" or drop-down item could not be found and corrected.  Each is listed at its
    sheet, numbered there after the sheet's own paragraphs (an inline string's, "Revenue"), as a cell's
    text is listed."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["B1"] = "Revenue", '=IF(A2>1000,"Above target","Below target")'
    validation = DataValidation(type="list", formula1='"Open,Closed"')
    book.active.add_data_validation(validation)
    validation.add("C1:C9")
    review = everything_listed()
    translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions(), review=review)
    rows = [(row["part"], row["paragraph"], row["source"], row["translation"]) for row in review.rows()]
    assert rows == [(SHEET, 1, "Revenue", "REVENUE"), (SHEET, 2, "Above target", "TARGET ABOVE"),
                    (SHEET, 3, "Below target", "TARGET BELOW"), (SHEET, 4, "Open", "OPEN"),
                    (SHEET, 5, "Closed", "CLOSED")]
    assert review.sentences == 5


def test_a_defined_names_text_a_cell_shows_is_translated_and_a_hidden_names_kept(mirror):
    """``=Greeting``, the name holding "Good morning, dear customer.", showed the source in a translated
    sheet, as a formula's result text did; the name and every reference stay as written."""
    from openpyxl.workbook.defined_name import DefinedName

    book = status_book()
    book.defined_names["Greeting"] = DefinedName("Greeting", attr_text='"Good morning, dear customer."')
    book.defined_names["Status"] = DefinedName("Status", attr_text='IF(Sheet!$A$2="In progress","Open","Closed")')
    book.defined_names["Setting"] = DefinedName("Setting", attr_text='"Keep this text."', hidden=True)
    book.active["B1"] = "=Greeting"
    out = read_members(translate(docx_bytes(book), mirror))
    names = {name.get("name"): name.text for name in etree.fromstring(out["xl/workbook.xml"]).iter(
        f"{{{S}}}definedName")}
    assert names == {"Greeting": '"CUSTOMER. DEAR MORNING, GOOD"', "Setting": '"Keep this text."',
                     "Status": 'IF(Sheet!$A$2="PROGRESS IN","OPEN","CLOSED")'}
    assert etree.fromstring(out[SHEET]).findtext(f".//{{{S}}}f") == "Greeting"


def test_a_review_row_shows_a_result_text_and_a_list_item_as_the_sheet_holds_them(sentencing):
    """Each row showed the model's sentence, "Über dem Ziel.", where the formula gives "Über dem Ziel" and the
    drop-down offers "Offen": a line's translation ends as its source does."""
    book = openpyxl.Workbook()
    book.active["B1"] = '=IF(A2>1000,"Above target","Below target")'
    validation = DataValidation(type="list", formula1='"Open,In progress"')
    book.active.add_data_validation(validation)
    validation.add("C1:C9")
    review = everything_listed()
    translator = sentencing({"Above target": "Über dem Ziel.", "Below target": "Unter dem Ziel!", "Open": "Offen.",
                             "In progress": "In Bearbeitung."})
    out = translate_office(docx_bytes(book), ".xlsx", translator, DocumentOptions(), review=review)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert sheet["B1"].value == '=IF(A2>1000,"Über dem Ziel","Unter dem Ziel!")'
    assert sheet.data_validations.dataValidation[0].formula1 == '"Offen,In Bearbeitung"'
    assert [(row["source"], row["translation"]) for row in review.rows()] == [
        ("Above target", "Über dem Ziel"), ("Below target", "Unter dem Ziel!"), ("Open", "Offen"),
        ("In progress", "In Bearbeitung")]
