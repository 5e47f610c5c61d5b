"""Excel's escaped strings (attnmt.documents.xstring) and tables' names and totals labels
(attnmt.documents.tables) through translation, read back raw and with openpyxl.  Mirror: words
upper-cased in reverse order, each aligned to its source word."""

import io

import openpyxl
import pytest
from lxml import etree
from office_files import docx_bytes, read_members, shared_string_sheet, sheet_file, write_members
from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import AutoFilter, FilterColumn, Filters
from openpyxl.worksheet.table import Table
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
# A cell's two lines as Excel writes them when a line was pasted from Windows: CR as _x000D_, then LF.
CR_STRINGS = (f'<sst xmlns="{S}" count="1" uniqueCount="1">'
              '<si><t xml:space="preserve">A man walks home._x000D_\nThe dog sleeps.</t></si></sst>')


def translate(data: bytes, translator) -> bytes:
    return translate_office(data, ".xlsx", translator, DocumentOptions())


def test_a_carriage_return_escaped_in_a_shared_string_stays_between_the_translated_lines(mirror):
    out = translate(shared_string_sheet(sheet_file(), CR_STRINGS), mirror)
    assert {"A man walks home.", "The dog sleeps."} <= set(mirror.given)
    assert not any("_x" in sentence for sentence in mirror.given)
    # XML's own reference, which every reader reads: openpyxl reads no _x000D_, and showed it as text
    assert "<t>HOME. WALKS MAN A&#13;\nSLEEPS. DOG THE</t>" in read_members(out)["xl/sharedStrings.xml"].decode()
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A2"].value == "HOME. WALKS MAN A\r\nSLEEPS. DOG THE"


def test_a_carriage_return_openpyxl_wrote_comes_back_as_openpyxl_reads_it(mirror):
    """openpyxl writes a cell's and a note's carriage return as ``&#13;``; it came back ``_x000D_``, which openpyxl
    and pandas show as text: ``A man in a red shirt_x000D_`` over ``is playing the guitar.``."""
    book = openpyxl.Workbook()
    book.active["A1"] = "A man in a red shirt\r\nis playing the guitar."
    book.active["B3"] = "Two dogs run.\r\nThe cat sleeps.\rA bird sings."
    book.active["B3"].comment = Comment("Check the red car.\r\nThe dog sleeps.", "Ann")
    out = translate(docx_bytes(book), mirror)
    assert not any("\r" in sentence or "_x" in sentence for sentence in mirror.given)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert sheet["A1"].value.count("\r\n") == 1 and "_x" not in sheet["A1"].value
    assert sheet["B3"].value == "RUN. DOGS TWO\r\nSLEEPS. CAT THE\rSINGS. BIRD A"
    assert sheet["B3"].comment.text == "CAR. RED THE CHECK\r\nSLEEPS. DOG THE"


RICH_ESCAPES = (f'<sst xmlns="{S}" count="1" uniqueCount="1"><si>'
                '<r><t xml:space="preserve">Open the file _x005F_x0041_ now._x000D_\n</t></r>'
                '<r><rPr><b/></rPr><t xml:space="preserve">The red</t></r>'
                '<r><t xml:space="preserve"> car_x0009_stops.</t></r></si></sst>')


def test_escapes_in_a_rich_strings_runs_are_read_and_written_as_excel_and_openpyxl_read_them(same):
    """A run's escapes (a carriage return, a tab, an escaped underscore) read as the characters they stand for."""
    out = translate(shared_string_sheet(sheet_file(), RICH_ESCAPES), same)
    assert "Open the file _x0041_ now." in same.given and not any("_x005F" in given for given in same.given)
    written = read_members(out)["xl/sharedStrings.xml"].decode()
    assert "_x005F_x0041_ now.&#13;\n" in written and "_x000D_" not in written
    value = openpyxl.load_workbook(io.BytesIO(out)).active["A2"].value
    assert str(value) == "Open the file _x0041_ now.\r\nThe red car\tstops."


def test_escapes_in_an_inline_string_and_a_note_are_read_and_written_again(same):
    book = openpyxl.Workbook()
    book.active["A1"] = "Code _x005F_x0041_ rings a bell_x0007_ here."  # openpyxl writes the text as it is given
    book.active["A1"].comment = Comment("Check the red car._x000D_\nThe dog sleeps.", "Ann")
    out = read_members(translate(docx_bytes(book), same))
    assert same.given == ["Code _x0041_ rings a bell\x07 here.", "Check the red car.", "The dog sleeps."]
    assert "<t>Code _x005F_x0041_ rings a bell_x0007_ here.</t>" in out["xl/worksheets/sheet1.xml"].decode()
    assert "<t>Check the red car.&#13;\nThe dog sleeps.</t>" in out["xl/comments/comment1.xml"].decode()


def one_string(text: str) -> bytes:
    return shared_string_sheet(sheet_file(), f'<sst xmlns="{S}" count="1" uniqueCount="1"><si><t>{text}</t></si></sst>')


def test_an_escaped_surrogate_without_its_other_half_stays_as_it_is_written(same):
    """A lone surrogate is no character: kept, it stopped the whole file (UnicodeEncodeError)."""
    out = translate(one_string("A dog _xD83D_ runs."), same)
    assert "A dog _xD83D_ runs." in same.given
    assert ">A dog _xD83D_ runs.<" in read_members(out)["xl/sharedStrings.xml"].decode()  # not _x005F_xD83D_


def test_an_escaped_surrogate_pair_is_one_character(same):
    out = translate(one_string("A dog _xD83D__xDE00_ runs."), same)
    assert "A dog \U0001F600 runs." in same.given
    assert "<t>A dog \U0001F600 runs.</t>" in read_members(out)["xl/sharedStrings.xml"].decode()


def test_the_text_of_a_surrogate_pairs_escapes_is_escaped_again(same):
    """A cell showing the escapes themselves (``_xD83D__xDE00_``, Excel writing each underscore escaped) came back
    written plainly, which Excel reads as the emoji: the text had changed."""
    out = translate(one_string("A dog _x005F_xD83D__x005F_xDE00_ runs."), same)
    assert "A dog runs." in same.given  # the escapes' text kept whole, as a program's name is (protected)
    assert "<t>A dog _x005F_xD83D__x005F_xDE00_ runs.</t>" in read_members(out)["xl/sharedStrings.xml"].decode()


PHONETIC = ('<t>The dog sleeps in the house.</t><rPh sb="4" eb="7"><t>ドッグ</t></rPh>'
            '<phoneticPr fontId="1" type="noConversion"/>')


def phonetic_string(where: str, translator) -> etree._Element:
    """PHONETIC as a shared string (cell A2) or an inline one (A1), its element once translated."""
    if where == "shared":
        strings = f'<sst xmlns="{S}" count="1" uniqueCount="1"><si>{PHONETIC}</si></sst>'
        data = shared_string_sheet(sheet_file(), strings)
        part, name = "xl/sharedStrings.xml", "si"
    else:
        members = read_members(sheet_file())
        sheet = members["xl/worksheets/sheet1.xml"].decode()
        members["xl/worksheets/sheet1.xml"] = sheet.replace("<t>A dog runs.</t>", PHONETIC).encode()
        data, part, name = write_members(members), "xl/worksheets/sheet1.xml", "is"
    return etree.fromstring(read_members(translate(data, translator))[part]).find(f".//{{{S}}}{name}")


@pytest.mark.parametrize("where", ["shared", "inline"])
def test_a_translated_strings_phonetic_runs_are_dropped_and_its_settings_kept(mirror, where):
    """A reading over the source's characters 4 to 7 ("dog") was kept in the translation, over
    whatever stood there (or past its end)."""
    string = phonetic_string(where, mirror)
    assert [etree.QName(child).localname for child in string] == ["t", "phoneticPr"]
    assert string[0].text == "HOUSE. THE IN SLEEPS DOG THE"


def test_a_strings_phonetic_runs_stay_where_its_text_is_unchanged(same):
    string = phonetic_string("shared", same)
    assert [etree.QName(child).localname for child in string] == ["t", "rPh", "phoneticPr"]


def goods_file(formula: str | None = None, totals: bool = False) -> bytes:
    """A table "Goods" over A1:B2 whose second header has two lines ("Unit", "price"), as openpyxl
    names it (``Unit_x000a_price``, as Excel does); with a totals row labelled "Total" in A3."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Item", "Unit\nprice"])
    sheet.append(["A red apple", 1.5])
    table = Table(displayName="Goods", ref="A1:B3" if totals else "A1:B2", totalsRowCount=1 if totals else None)
    if totals:
        sheet.append(["Total", "=SUBTOTAL(109,B2:B2)"])
        table._initialise_columns()
        table.tableColumns[0].totalsRowLabel = "Total"
        table.tableColumns[1].totalsRowFunction = "sum"
    sheet.add_table(table)
    if formula:
        sheet["D1"] = formula
    return docx_bytes(book)


# A list validation in Excel 2010's extension (x14), where Excel writes one whose list is on another sheet.
X14_VALIDATION = ('<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" '
                  'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
                  '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
                  '<x14:dataValidation type="list"><x14:formula1><xm:f>INDIRECT("Goods[Item]")</xm:f></x14:formula1>'
                  '<xm:sqref>D1</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>')


def validated_goods_file(where: str, table: str = "Goods") -> bytes:
    """The goods file with a rule on D1 that names the column Goods[Item] (in a string, as INDIRECT
    takes it; the table's name written ``table``): a data validation's list, a conditional format's
    formula, or an x14 validation."""
    book = openpyxl.load_workbook(io.BytesIO(goods_file()))
    sheet = book.active
    if where == "validation":
        validation = DataValidation(type="list", formula1=f'INDIRECT("{table}[Item]")')
        sheet.add_data_validation(validation)
        validation.add("D1")
    elif where == "conditional format":
        sheet.conditional_formatting.add("D1", FormulaRule(formula=[f'COUNTIF(INDIRECT("{table}[Item]"),D1)>0']))
    members = read_members(docx_bytes(book))
    if where == "x14 validation":
        member = "xl/worksheets/sheet1.xml"
        validation = X14_VALIDATION.replace("Goods[", f"{table}[")
        members[member] = members[member].replace(b"</worksheet>", f"{validation}</worksheet>".encode())
    return write_members(members)


def column_attributes(out: bytes, key: str) -> list[str | None]:
    """Each tableColumn's ``key`` as written (escaped), in the translated file's table."""
    return [c.get(key) for c in etree.fromstring(read_members(out)["xl/tables/table1.xml"]).iter(f"{{{S}}}tableColumn")]


def test_a_header_of_two_lines_names_its_column_with_the_line_break_escaped(mirror):
    """"Unit\nprice" is one header wrapped by hand, read as one sentence: its break stays between the words."""
    out = translate(goods_file(), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert sheet["B1"].value == "PRICE\nUNIT"
    assert column_attributes(out, "name") == ["ITEM", "PRICE_x000A_UNIT"]
    assert sheet.tables["Goods"].tableColumns[1].name == "PRICE\nUNIT"  # openpyxl reads a name's escapes


def test_a_header_of_two_lines_kept_for_a_formula_shows_its_lines_not_the_escape(mirror):
    out = translate(goods_file("=COUNTA(Goods[Item])"), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet["A1"].value, sheet["B1"].value] == ["Item", "Unit\nprice"]
    assert sheet["A2"].value == "APPLE RED A"
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


def test_a_totals_row_label_follows_its_translated_cell(mirror):
    out = translate(goods_file(totals=True), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert sheet["A3"].value == "TOTAL" and sheet["B3"].value == "=SUBTOTAL(109,B2:B2)"
    assert column_attributes(out, "totalsRowLabel") == ["TOTAL", None]
    assert sheet.tables["Goods"].tableColumns[0].totalsRowLabel == "TOTAL"


@pytest.mark.parametrize("where", ["validation", "conditional format", "x14 validation"])
def test_a_rule_naming_a_tables_column_keeps_its_header(mirror, where):
    """INDIRECT("Goods[Item]") in a validation list or a conditional format broke (the list came up
    empty) once the columns took their translated names: only cells' formulas were searched."""
    out = translate(validated_goods_file(where), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet["A1"].value, sheet["A2"].value] == ["Item", "APPLE RED A"]
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


@pytest.mark.parametrize(("where", "table"), [("validation", "goods"), ("conditional format", "GOODS"),
                                              ("x14 validation", "gOODS")])
def test_a_rule_naming_a_tables_column_in_another_case_keeps_its_header(mirror, where, table):
    """Excel reads table names in any case, INDIRECT("goods[Item]") as Goods[Item]; only "Goods[" was
    looked for, so the columns were renamed and the list came up empty."""
    out = translate(validated_goods_file(where, table), mirror)
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


# A bold header "Item" with its reading over it, as Excel writes a Japanese header's.
RICH_ITEM = '<r><rPr><b/></rPr><t>Item</t></r><rPh sb="0" eb="4"><t>アイテム</t></rPh><phoneticPr fontId="0"/>'


def rich_header_file(where: str) -> bytes:
    """The goods file with a formula naming Goods[Item], its header A1 RICH_ITEM: an inline string,
    or the shared string 0 that A2 shows too (shared_string_sheet)."""
    members = read_members(goods_file("=COUNTA(Goods[Item])"))
    sheet = members["xl/worksheets/sheet1.xml"].decode()
    start = sheet.index('<c r="A1"')
    end = sheet.index("</c>", start) + len("</c>")
    cell = '<c r="A1" t="s"><v>0</v></c>' if where == "shared" else f'<c r="A1" t="inlineStr"><is>{RICH_ITEM}</is></c>'
    members["xl/worksheets/sheet1.xml"] = (sheet[:start] + cell + sheet[end:]).encode()
    if where == "inline":
        return write_members(members)
    strings = f'<sst xmlns="{S}" count="1" uniqueCount="1"><si>{RICH_ITEM}</si></sst>'
    return shared_string_sheet(write_members(members), strings)


@pytest.mark.parametrize(("where", "below"), [("inline", "APPLE RED A"), ("shared", "ITEM")])
def test_a_header_kept_for_a_formula_keeps_its_runs_and_reading(mirror, where, below):
    """The header given back its source text for =COUNTA(Goods[Item]) came back as plain text: its
    bold run and its phonetic guide were gone.  A2 (``below``) shows its own translation, or the
    shared string's where it shows the header's string."""
    out = translate(rich_header_file(where), mirror)
    header = etree.fromstring(read_members(out)["xl/worksheets/sheet1.xml"]).find(f".//{{{S}}}c[@r='A1']")
    assert header.get("t") == "inlineStr"
    assert etree.tostring(header[0], encoding="unicode").split(">", 1)[1] == f"{RICH_ITEM}</is>"
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A2"].value == below
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


def moved_parts(data: bytes, moves: dict[str, str]) -> bytes:
    """The file with each member of ``moves`` at its new name, as the Open Packaging Conventions
    allow (a part is found through relationships, not by its name): its relationships part moved
    with it, and the relationships and content types that name it naming the new one."""
    members = read_members(data)
    for old, new in moves.items():
        members[new] = members.pop(old)
        folder, _, name = old.rpartition("/")
        new_folder, _, new_name = new.rpartition("/")
        if f"{folder}/_rels/{name}.rels" in members:
            members[f"{new_folder}/_rels/{new_name}.rels"] = members.pop(f"{folder}/_rels/{name}.rels")
        for member in [m for m in members if m.endswith(".rels") or m == "[Content_Types].xml"]:
            members[member] = members[member].replace(f'"{old}"'.encode(), f'"{new}"'.encode()).replace(
                f'"/{old}"'.encode(), f'"/{new}"'.encode())
    return write_members(members)


def test_a_defined_name_in_a_workbook_not_named_workbook_xml_keeps_its_tables_header(mirror):
    """A defined name Items = Goods[Item] in a workbook part named xl/book.xml (its package's
    relationships name it) was not searched, only xl/workbook.xml was: the columns took their
    translated names, and every formula using Items showed #NAME?."""
    book = openpyxl.load_workbook(io.BytesIO(goods_file("=COUNTA(Items)")))
    book.defined_names["Items"] = DefinedName("Items", attr_text="Goods[Item]")
    out = translate(moved_parts(docx_bytes(book), {"xl/workbook.xml": "xl/book.xml"}), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet["A1"].value, sheet["A2"].value] == ["Item", "APPLE RED A"]
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


def test_a_formula_in_a_sheet_not_under_xl_worksheets_keeps_its_tables_header(mirror):
    """=COUNTA(Goods[Item]) in a sheet part named xl/sheets/data.xml (the workbook's relationships
    name it) was not searched, only members under xl/worksheets/ were, and the columns were renamed."""
    out = translate(moved_parts(goods_file("=COUNTA(Goods[Item])"),
                                {"xl/worksheets/sheet1.xml": "xl/sheets/data.xml"}), mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet["A1"].value, sheet["A2"].value] == ["Item", "APPLE RED A"]
    assert column_attributes(out, "name") == ["Item", "Unit_x000a_price"]


def test_a_string_whose_translation_is_over_excels_cell_limit_keeps_its_source(fixed):
    """A cell of 31,999 characters (1,600 sentences) translated to 44,799 (1,600 of 27 characters,
    1,599 spaces) was written whole, over the 32,767 Excel allows; Excel cut it, reporting the
    workbook damaged.  It keeps its source, with a warning naming the shared string, and the review
    does not list its sentences (the workbook shows the source); the other cell is translated."""
    source = " ".join(["A man rides a bike."] * 1600)
    strings = f'<sst xmlns="{S}" count="1" uniqueCount="1"><si><t>{source}</t></si></sst>'
    review = everything_listed()
    translator = fixed("Ein Mann fährt ein Fahrrad.", [(k, k) for k in range(5)])
    with pytest.warns(UserWarning, match=(r"^the \.xlsx file: shared string 0 of xl/sharedStrings\.xml: its "
                                          r"translation is 44,799 characters long, more than the 32,767 Excel "
                                          r"allows in a cell, so the source text is kept there$")):
        out = translate_office(shared_string_sheet(sheet_file(), strings), ".xlsx", translator, DocumentOptions(),
                               review=review)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert (sheet["A2"].value, sheet["A1"].value) == (source, "Ein Mann fährt ein Fahrrad.")
    assert [segment.place.part for segment in review.segments] == ["xl/worksheets/sheet1.xml"]


def test_excels_cell_limit_counts_utf16_code_units(known):
    """An emoji is one character to Python and two to Excel: 16,384 of them (32,768 units) are
    over the limit, 16,383 and a "!" (32,767) are not."""
    over, under = "\U0001F600" * 16_384, "\U0001F600" * 16_383 + "!"
    translator = known({"A dog runs.": (over, [(0, 0)]), "The cat sleeps.": (under, [(0, 0)])})
    with pytest.warns(UserWarning, match=r"^the \.xlsx file: cell A1 of xl/worksheets/sheet1\.xml: .* 32,768 "):
        out = translate(sheet_file(), translator)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert (sheet["A1"].value, sheet["A2"].value) == ("A dog runs.", under)


def filtered_sheet_file() -> bytes:
    """A sheet of regions and sales filtered to show the rows of "East side" (row 3, West, hidden), as
    Excel writes an AutoFilter: the values it shows, as their cells read, in ``filter val``."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["Region", "Sales"], ["East side", 3], ["West side", 4], ["east side", 5]):
        sheet.append(row)
    sheet.auto_filter.ref = "A1:B4"
    sheet.auto_filter.add_filter_column(0, ["East side", "*side"])
    sheet.row_dimensions[3].hidden = True
    return docx_bytes(book)


def test_an_autofilters_values_follow_their_translated_cells(mirror):
    out = translate(filtered_sheet_file(), mirror)
    sheet = etree.fromstring(read_members(out)["xl/worksheets/sheet1.xml"])
    # "East side" and "east side" (Excel compares case apart) both read "SIDE EAST"; a wildcard is no cell's text
    assert [f.get("val") for f in sheet.iter(f"{{{S}}}filter")] == ["SIDE EAST", "*side"]
    book = openpyxl.load_workbook(io.BytesIO(out))
    assert book.active["A2"].value == "SIDE EAST"
    assert book.active.auto_filter.filterColumn[0].filters.filter == ["SIDE EAST", "*side"]


def test_a_tables_autofilter_values_follow_their_translated_cells(mirror):
    book = openpyxl.load_workbook(io.BytesIO(filtered_sheet_file()))
    book.active.auto_filter.ref = None
    table = Table(ref="A1:B4", displayName="Sales")
    west = FilterColumn(colId=0, filters=Filters(filter=["West side"]))
    table.autoFilter = AutoFilter(ref="A1:B4", filterColumn=[west])
    book.active.add_table(table)
    table = etree.fromstring(read_members(translate(docx_bytes(book), mirror))["xl/tables/table1.xml"])
    assert [f.get("val") for f in table.iter(f"{{{S}}}filter")] == ["SIDE WEST"]


def test_a_plain_cells_start_is_read_as_a_rich_text_cells_and_a_word_paragraphs(mirror):
    """A plain string's text is no run: "Step 1: open the door." went to the model whole, where a rich-text cell's,
    a Word paragraph's and an .ods cell's "Step 1" is a sentence of its own, and the demo model dropped it ("Auf einer
    offenen Tür."); so did a speaker's label typed at its start, translated as a word."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = "Step 1: open the door.", "ANNA: The car is red."
    out = openpyxl.load_workbook(io.BytesIO(translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions())))
    assert [out.active["A1"].value, out.active["A2"].value] == ["1 STEP: DOOR. THE OPEN", "ANNA: RED. IS CAR THE"]
    assert {"Step 1", "open the door.", "The car is red."} <= set(mirror.given)
