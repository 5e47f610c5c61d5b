"""A data validation's input and error messages are translated, its rule is not, and so is a
hyperlink's screen tip, its target not (attnmt.documents.validations); read back with openpyxl and lxml."""

import io

import openpyxl
import pytest
from conftest import Judging
from lxml import etree
from office_files import docx_bytes, read_members, write_members
from openpyxl.worksheet.datavalidation import DataValidation
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

SHEET = "xl/worksheets/sheet1.xml"
# Excel 2010's validation (x14), as Excel writes one whose list is on another sheet.
X14_VALIDATION = ('<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" '
                  'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
                  '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
                  '<x14:dataValidation type="list" showInputMessage="1" promptTitle="Your colour" '
                  'prompt="Pick a colour."><x14:formula1><xm:f>Colours!$A$1:$A$3</xm:f></x14:formula1>'
                  '<xm:sqref>C1</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>')


def validated_file(prompt: str = "Choose yes or no.", x14: bool = False) -> bytes:
    """A sheet of numbers alone (no text of its own to translate) whose B1 takes "Yes" or "No",
    with an input message and an error message; ``x14``: with an Excel 2010 validation on C1 too."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = 12
    validation = DataValidation(type="list", formula1='"Yes,No"', showInputMessage=True, showErrorMessage=True,
                                promptTitle="Your answer", prompt=prompt, errorTitle="Wrong value",
                                error="The value is not in the list.")
    sheet.add_data_validation(validation)
    validation.add("B1")
    members = read_members(docx_bytes(book))
    if x14:
        members[SHEET] = members[SHEET].replace(b"</worksheet>", f"{X14_VALIDATION}</worksheet>".encode())
    return write_members(members)


def translate(data: bytes, translator) -> bytes:
    return translate_office(data, ".xlsx", translator, DocumentOptions())


def test_a_data_validations_messages_are_translated_and_its_list_item_by_item(mirror):
    """They were left in English, though Excel shows them when the cell is selected or a wrong value typed;
    the list's items, which no cell holds yet, are translated one by one (attnmt.documents.result_literals),
    so that the prompt and the drop-down offer the same words."""
    out = translate(validated_file(), mirror)
    validation = openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0]
    assert (validation.promptTitle, validation.prompt) == ("ANSWER YOUR", "NO. OR YES CHOOSE")
    assert (validation.errorTitle, validation.error) == ("VALUE WRONG", "LIST. THE IN NOT IS VALUE THE")
    assert validation.formula1 == '"YES,NO"'
    assert "Yes,No" not in " ".join(mirror.given)


def test_an_excel_2010_validations_message_is_translated_and_its_range_kept(mirror):
    root = etree.fromstring(read_members(translate(validated_file(x14=True), mirror))[SHEET])
    x14 = root.find(".//{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}dataValidation")
    assert (x14.get("promptTitle"), x14.get("prompt")) == ("COLOUR YOUR", "COLOUR. A PICK")
    assert x14.findtext(".//{http://schemas.microsoft.com/office/excel/2006/main}f") == "Colours!$A$1:$A$3"


def test_a_messages_lines_are_translated_apart_and_its_line_break_kept(mirror):
    out = translate(validated_file("Choose yes or no.\nAsk Anna if unsure."), mirror)
    validation = openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0]
    assert validation.prompt == "NO. OR YES CHOOSE\nUNSURE. IF ANNA ASK"


def test_a_title_whose_translation_is_longer_than_excel_takes_keeps_its_source(known):
    """Excel's dialog takes a title of 32 characters at most: the translation's 36 were written."""
    translations = {"Your answer": "Ihre Antwort auf die gestellte Frage", "Choose yes or no.": "Ja oder nein.",
                    "Wrong value": "Falscher Wert", "The value is not in the list.": "Nicht in der Liste.",
                    "Yes": "Ja", "No": "Nein"}
    translator = known({source: (translation, []) for source, translation in translations.items()})
    with pytest.warns(LeftUntranslated, match=r"sheet1\.xml, the data validation of cells B1: .*promptTitle is 36"):
        out = translate(validated_file(), translator)
    validation = openpyxl.load_workbook(io.BytesIO(out)).active.data_validations.dataValidation[0]
    assert (validation.promptTitle, validation.prompt, validation.errorTitle) == (
        "Your answer", "Ja oder nein.", "Falscher Wert")


def test_a_hyperlinks_screen_tip_is_translated_and_its_target_kept(mirror):
    """A link's screen tip (``tooltip``), which Excel shows when the mouse rests on the cell, was left
    in English, as HTML's ``title`` is not; the sheet held numbers alone, so it was not even read."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = 12
    sheet["A1"].hyperlink = "https://example.com/dogs"
    sheet["A1"].hyperlink.tooltip = "See the dog in the park."
    out = translate(docx_bytes(book), mirror)
    link = openpyxl.load_workbook(io.BytesIO(out)).active["A1"].hyperlink
    assert (link.tooltip, link.target) == ("PARK. THE IN DOG THE SEE", "https://example.com/dogs")


def test_an_opendocument_content_validations_messages_are_translated_with_their_titles(mirror):
    content = etree.fromstring(read_members(translate_office(validated_sheet(), ".ods", mirror, DocumentOptions()))
                               ["content.xml"])
    table = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
    translated = content.find(f".//{{{table}}}content-validation")
    assert [("".join(m.itertext()), m.get(f"{{{table}}}title")) for m in translated] == [
        ("NO. OR YES CHOOSE", "ANSWER YOUR"), ("LIST. THE IN NOT IS VALUE THE", "VALUE WRONG")]
    assert translated.get(f"{{{table}}}condition") == 'of:cell-content-is-in-list("Yes";"No")'


def test_an_opendocument_validations_short_title_the_model_garbled_keeps_its_source(mirror):
    """As an .xlsx's promptTitle does, and as the message's paragraph alone does."""
    judging = Judging(mirror, {"Your answer": 0.1, "Wrong value": 0.9})
    content = etree.fromstring(read_members(translate_office(validated_sheet(), ".ods", judging, DocumentOptions()))
                               ["content.xml"])
    table = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
    translated = content.find(f".//{{{table}}}content-validation")
    assert [m.get(f"{{{table}}}title") for m in translated] == ["Your answer", "VALUE WRONG"]


def validated_sheet() -> bytes:
    """An .ods whose one validity rule has a help and an error message, each with its title."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import ContentValidation, ContentValidations, ErrorMessage, HelpMessage, Table
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    validation = ContentValidation(name="answer", condition='of:cell-content-is-in-list("Yes";"No")')
    for message, title, text in ((HelpMessage, "Your answer", "Choose yes or no."),
                                 (ErrorMessage, "Wrong value", "The value is not in the list.")):
        element = message(title=title, display="true")
        element.addElement(P(text=text))
        validation.addElement(element)
    validations = ContentValidations()
    validations.addElement(validation)
    document.spreadsheet.addElement(validations)
    document.spreadsheet.addElement(Table(name="S"))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def test_a_hyperlinks_display_text_follows_its_translated_cell(mirror):
    """A link's ``display`` is the text its cell showed when the link was made; left in English beside the
    translated cell, Excel's Edit Hyperlink dialog showed the source, and writing it back undid the cell."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Data Sheet"
    sheet["A4"] = "Back to the top."
    sheet["A5"] = "Read the guide."
    members = read_members(docx_bytes(book))
    links = (b'<hyperlinks><hyperlink ref="A4" location="\'Data Sheet\'!A1" display="Back to the top."/>'
             b'<hyperlink ref="A5" location="A1" display="Open it"/></hyperlinks>')
    members[SHEET] = members[SHEET].replace(b"</sheetData>", b"</sheetData>" + links)
    out = translate(write_members(members), mirror)
    links = etree.fromstring(read_members(out)[SHEET]).iter("{*}hyperlink")
    assert [(link.get("display"), link.get("location")) for link in links] == [
        ("TOP. THE TO BACK", "'Data Sheet'!A1"), ("Open it", "A1")]  # a display other than its cell's is kept
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A4"].value == "TOP. THE TO BACK"


def headed_file(header: str) -> bytes:
    """A sheet of numbers whose odd pages' header is ``header`` and whose footer numbers its pages."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = 12
    members = read_members(docx_bytes(book))
    footer = "&amp;CPage &amp;P of &amp;N&amp;RTom &amp;&amp; Jerry"
    members[SHEET] = members[SHEET].replace(b"</worksheet>", f"<headerFooter><oddHeader>{header}</oddHeader>"
                                            f"<oddFooter>{footer}</oddFooter></headerFooter></worksheet>".encode())
    return write_members(members)


def test_print_headers_and_footers_are_translated_section_by_section_with_their_codes_kept(mirror):
    """They were kept in English while an .ods's were translated; each section is its own text, and
    every code (a field, a font, a size, a colour) and "&&", a literal ampersand, is kept as Excel reads it."""
    out = translate(headed_file('&amp;L&amp;"Arial,Bold"The red car&amp;R&amp;12&amp;K00FF00Ask the dog'), mirror)
    assert {"The red car", "Page of", "Tom & Jerry", "Ask the dog"} <= set(mirror.given)
    sheet = etree.fromstring(read_members(out)[SHEET])
    assert [node.text for node in sheet.iter("{*}oddHeader", "{*}oddFooter")] == [
        '&L&"Arial,Bold"CAR RED THE&R&12&K00FF00DOG THE ASK', "&C&P OF PAGE &N&RJERRY && TOM"]
    footer = openpyxl.load_workbook(io.BytesIO(out)).active.oddFooter
    assert (footer.center.text, footer.right.text) == ("&P OF PAGE &N", "JERRY && TOM")


def test_a_sizes_code_and_a_translation_that_starts_with_a_number_are_parted_by_a_space(mirror):
    """``&12Report for 2024`` came back ``&122024 FOR REPORT``: Excel's and LibreOffice's readers take every
    digit after "&" as the size, so LibreOffice printed " FOR REPORT" and the year was lost."""
    out = translate(headed_file("&amp;C&amp;12Report for 2024"), mirror)
    sheet = etree.fromstring(read_members(out)[SHEET])
    assert sheet.findtext("{*}headerFooter/{*}oddHeader") == "&C&12 2024 FOR REPORT"
    header = openpyxl.load_workbook(io.BytesIO(out)).active.oddHeader
    assert (header.center.size, header.center.text) == (12, "2024 FOR REPORT")


def test_a_headers_short_section_the_model_garbled_keeps_its_source_as_an_ods_does(mirror):
    """Excel's own footer "Page &P of &N" came back "Viele &P Arbeiter &N" where an .ods's, a paragraph, kept its
    source as a short label the model garbled; a section that reads as a sentence is not judged."""
    judging = Judging(mirror, {"Page of": 0.1, "The red car": 0.05, "A dog runs in the park.": 0.0})
    out = translate(headed_file("&amp;LThe red car&amp;RA dog runs in the park."), judging)
    sheet = etree.fromstring(read_members(out)[SHEET])
    assert [node.text for node in sheet.iter("{*}oddHeader", "{*}oddFooter")] == [
        "&LThe red car&RPARK. THE IN RUNS DOG A", "&CPage &P of &N&RJERRY && TOM"]
    assert sorted(source for source, _ in judging.judged) == ["Page of", "The red car", "Tom & Jerry"]


def test_a_header_whose_translation_is_over_excels_limit_keeps_its_source(known):
    """Excel takes 255 characters in a header; a longer one is refused by its Page Setup dialog."""
    translator = known({"A dog runs.": ("Ein Hund rennt.", []), "Page of": ("Seite von", []),
                        "Tom & Jerry": ("Tom & Jerry", [])})
    with pytest.warns(LeftUntranslated, match=r"sheet1\.xml, its oddHeader: its translation is 322 characters"):
        out = translate(headed_file("&amp;L" + "A dog runs. " * 20), translator)
    sheet = etree.fromstring(read_members(out)[SHEET])
    assert sheet.findtext("{*}headerFooter/{*}oddHeader") == "&L" + "A dog runs. " * 20
    assert sheet.findtext("{*}headerFooter/{*}oddFooter") == "&CSeite von &P &N&RTom && Jerry"


def test_form_buttons_captions_are_translated_and_a_notes_shape_kept(mirror):
    """A button's caption is in the sheet's legacy drawing (VML, which Excel does not write as well-formed
    XML), which was never read; the drawing's other bytes, a note's shape among them, are kept."""
    import xlsxwriter

    data = io.BytesIO()
    book = xlsxwriter.Workbook(data)
    sheet = book.add_worksheet()
    sheet.write("A1", 12)
    sheet.write_comment("A1", "See the dog.")
    sheet.insert_button("B3", {"caption": "Send the report", "macro": "send"})
    book.close()
    members = read_members(data.getvalue())
    drawing = "xl/drawings/vmlDrawing1.vml"
    members[drawing] = members[drawing].replace(b"</font></div>", b"</font><br></div>")  # as Excel writes a break
    out = read_members(translate(write_members(members), mirror))
    assert out[drawing] == members[drawing].replace(b">Send the report<", b">REPORT THE SEND<")
    assert "See the dog." in mirror.given  # once, from the comments part
    assert mirror.given.count("See the dog.") == 1


def test_a_buttons_short_caption_the_model_garbled_keeps_its_source_as_a_cells_label_does(mirror):
    """A button's "Send the report" stands alone as a cell's header does; a caption the model finds plausible is
    translated."""
    import xlsxwriter

    data = io.BytesIO()
    book = xlsxwriter.Workbook(data)
    sheet = book.add_worksheet()
    sheet.insert_button("B3", {"caption": "Send the report", "macro": "send"})
    sheet.insert_button("B6", {"caption": "Print it", "macro": "print"})
    book.close()
    judging = Judging(mirror, {"Send the report": 0.1, "Print it": 0.8})
    drawing = read_members(translate(data.getvalue(), judging))["xl/drawings/vmlDrawing1.vml"]
    assert b">Send the report<" in drawing and b">IT PRINT<" in drawing
    assert sorted(source for source, _ in judging.judged) == ["Print it", "Send the report"]


def captions(drawing: bytes, translator) -> bytes:
    """The legacy ``drawing``'s bytes with its form controls' captions translated by ``translator``."""
    from attnmt.documents.pipeline import translate_flats
    from attnmt.documents.sheet_buttons import VmlPart, caption_jobs

    jobs = caption_jobs(drawing, None)
    for job, content in zip(jobs, translate_flats([job.flats()[0] for job in jobs], translator), strict=True):
        job.finish([content])
    return VmlPart("vml", etree.ElementTree(etree.Element("vml")), jobs, data=drawing, captions=jobs).written(b"")


def test_a_captions_translation_is_written_with_entities_for_what_is_not_ascii(fixed):
    drawing = (b"<xml><v:shape id='b'><v:textbox><div><font>\n Send &amp; save </font></div></v:textbox>"
               b"<x:ClientData ObjectType='Button'/></v:shape></xml>")
    translator = fixed("Envoyer & r\u00e9sumer", [(0, 0), (1, 1), (2, 2)])
    assert captions(drawing, translator) == drawing.replace(b"Send &amp; save", b"Envoyer &amp; r&#233;sumer")
    assert translator.given == ["Send & save"]


def test_a_caption_written_in_windows_1252_is_read_as_its_characters(fixed):
    drawing = b"<v:shape><v:textbox><div>Caf\xe9 menu</div></v:textbox><x:ClientData ObjectType='Label'/></v:shape>"
    translator = fixed("Carte du caf\u00e9", [(0, 2), (1, 0)])
    assert captions(drawing, translator) == drawing.replace(b"Caf\xe9 menu", b"Carte du caf&#233;")
    assert translator.given == ["Caf\u00e9 menu"]


def test_a_caption_of_several_runs_is_translated_as_one_sentence_each_run_on_its_words(mirror):
    """Excel writes a caption whose words differ in look as a run each: the model was given "Send the"
    "report" and "now" apart, fragments each translated on its own, and each run kept its place."""
    black = b'<font face="Calibri" size="220" color="#000000">'
    red = black.replace(b"#000000", b"#FF0000")
    drawing = (b"<v:shape o:button='t'><v:textbox style='mso-direction-alt:auto'>\n<div style='text-align:center'>"
               + black + b"Send the </font>" + red + b"<b>report</b></font>" + black.replace(b" ", b"\n", 1)
               + b" now</font><br></div>\n<div><font>Two dogs</font></div>\n</v:textbox>"
               b"<x:ClientData ObjectType='Button'/></v:shape>")
    out = captions(drawing, mirror)
    assert mirror.given == ["Send the report now", "Two dogs"]
    assert out == drawing.replace(
        black + b"Send the </font>" + red + b"<b>report</b></font>" + black.replace(b" ", b"\n", 1) + b" now</font>",
        black.replace(b" ", b"\n", 1) + b"NOW</font> " + red + b"<b>REPORT</b></font> " + black + b"THE SEND</font>",
    ).replace(b">Two dogs<", b">DOGS TWO<")


def test_a_caption_whose_run_tags_do_not_nest_is_read_a_text_at_a_time(mirror):
    drawing = (b"<v:shape><v:textbox><div><font><b>Send the</font></b> report</div></v:textbox>"
               b"<x:ClientData ObjectType='Button'/></v:shape>")
    assert captions(drawing, mirror) == drawing.replace(b"Send the", b"THE SEND").replace(b" report", b" REPORT")


def test_a_chart_sheets_footer_is_translated(mirror):
    from openpyxl.chart import BarChart, Reference

    book = openpyxl.Workbook()
    book.active.append([1])
    chart_sheet, chart = book.create_chartsheet(), BarChart()
    chart.add_data(Reference(book.active, min_col=1, min_row=1, max_row=1))
    chart_sheet.add_chart(chart)
    chart_sheet.headerFooter.oddFooter.center.text = "Sales by region &P"
    out = read_members(translate(docx_bytes(book), mirror))
    assert etree.fromstring(out["xl/chartsheets/sheet1.xml"]).findtext("{*}headerFooter/{*}oddFooter") == (
        "&CREGION BY SALES &P")


def test_a_headers_review_line_shows_the_printed_text_not_excels_codes(mirror):
    """A reviewer read ``&"DejaVu Serif,Book"&12Page &P`` in the review; it is what the page prints,
    each field a name in angle brackets and a look's code nothing."""
    review = everything_listed()
    header = '&amp;C&amp;"DejaVu Serif,Book"&amp;12The &amp;Bred&amp;B car'
    translate_office(headed_file(header), ".xlsx", mirror, DocumentOptions(), review=review)
    assert [row["source"] for row in review.rows()] == ["The red car", "Page <page> of <pages>", "Tom & Jerry"]
