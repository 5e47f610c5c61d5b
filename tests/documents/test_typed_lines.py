"""A spreadsheet cell's or note's lines typed by hand (Alt+Enter): a sentence wrapped over them is read whole, its break
kept between the translation's words; a list, an address and a header's unit in brackets stay line by line."""

import io

import openpyxl
import openpyxl.comments
import pytest
from conftest import Fixed, Judging
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_csv, ods_of_cells, read_members

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.wrapped_lines import ended_lines

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TEXT_P, CELL = f"{{{TEXT}}}p", "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}table-cell"


def translated_sheet(cells: dict[str, str], translator, note: str | None = None):
    """The active sheet of a workbook holding ``cells`` (and ``note`` on A1), translated by ``translator``."""
    book = openpyxl.Workbook()
    for key, value in cells.items():
        book.active[key] = value
    if note is not None:
        book.active["A1"].comment = openpyxl.comments.Comment(note, "Peter")
    out = translate_office(docx_bytes(book), ".xlsx", translator, DocumentOptions())
    return openpyxl.load_workbook(io.BytesIO(out)).active


def test_a_sentence_wrapped_by_hand_in_a_cell_or_a_note_is_translated_whole(mirror):
    """The demo model wrote "A man in a red shirt\\nis playing the guitar." line by line: "Ein Mann in einem roten
    Hemd\\nEine Band spielt Gitarre."  A line that goes on in lower case goes on with its sentence, as a <br> does; a
    list, an address and a line that starts anew stay line by line."""
    sheet = translated_sheet({"A1": "A man in a red shirt\nis playing the guitar.",
                              "A2": "Two dogs run\nthrough the snow. A cat sleeps.", "A3": "Eggs\nMilk\nFlour",
                              "A4": "10 Main Street\nSpringfield", "A5": "Dear Anna,\nThe parcel left today."},
                             mirror, note="The customer called yesterday\nand asked for a new invoice.")
    assert "A man in a red shirt is playing the guitar." in mirror.given
    assert "Two dogs run through the snow." in mirror.given
    assert "The customer called yesterday and asked for a new invoice." in mirror.given
    assert sheet["A1"].value == "GUITAR. THE PLAYING\nIS SHIRT RED A IN MAN A"
    assert sheet["A2"].value == "SNOW. THE\nTHROUGH RUN DOGS TWO SLEEPS. CAT A"
    assert sheet["A1"].comment.text == "INVOICE. NEW A FOR ASKED\nAND YESTERDAY CALLED CUSTOMER THE"
    assert {"Eggs", "Milk", "Flour", "10 Main Street", "Springfield", "Dear Anna,"} <= set(mirror.given)
    assert sheet["A4"].value == "STREET MAIN 10\nSPRINGFIELD"
    assert sheet["A5"].value == "ANNA, DEAR\nTODAY. LEFT PARCEL THE"


def test_a_header_and_its_unit_in_brackets_on_the_next_line_are_two_labels(mirror):
    """"Total\\n(in euros)" was read as a wrapped sentence, "Total" no label alone: the demo model wrote it
    "Ein Coma" (read whole, "Ein Cun-T-T-T-Fe.")."""
    judging = Judging(mirror, {"Total": 0.1, "Price": 0.1, "Total (in euros)": 0.1})
    sheet = translated_sheet({"A1": "Total\n(in euros)", "A2": "Price\n[EUR per kg]"}, judging)
    assert {"Total", "(in euros)", "Price", "[EUR per kg]"} <= set(mirror.given)
    assert sheet["A1"].value.startswith("Total\n")
    assert sheet["A2"].value.startswith("Price\n")


def test_a_line_opening_with_an_aside_in_brackets_that_goes_on_is_still_wrapped():
    assert ended_lines("Total (in euros)", [5]) == [5]
    assert ended_lines("Total (in euros) Tax (in %)", [5, 16]) == [5, 16]
    assert ended_lines("A dog (a big one) runs", [5]) == []
    assert ended_lines("Price [EUR]", [5]) == [5]


def test_a_break_the_alignment_puts_at_an_edge_goes_between_the_translations_words(mirror):
    """Rule 2 puts a break before the translation of the word after it: "Unit<br>price" turned around read
    "<br>PRICE UNIT", an empty line above the words; now it parts them as it parted the source."""
    assert translate_markup(["<p>Unit<br>price</p>"], mirror) == ["<p>PRICE<br>UNIT</p>"]
    assert translate_markup(["<p>The man runs<br>home.</p>"], mirror) == ["<p>HOME. RUNS<br>MAN THE</p>"]


def test_a_break_inside_a_sentence_translated_as_one_word_is_left_out():
    sheet = translated_sheet({"A1": "Unit\nprice"}, Fixed("Stückpreis", [(0, 0), (1, 0)]))
    assert sheet["A1"].value == "Stückpreis"


def test_an_ods_cells_sentence_wrapped_over_its_paragraphs_is_translated_whole_and_keeps_its_lines(mirror):
    """LibreOffice makes each line of a cell a paragraph; read one at a time, the sentence was cut at its line.
    Joined for reading, the cell is written back as paragraphs again (Calc shows no text:line-break in a cell)."""
    cells = (["A man in a red shirt", "is playing the guitar."], ["Eggs", "Milk"], ["Total", "(in euros)"])
    out = translate_office(ods_of_cells(cells), ".ods", mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"])
    cells = [["".join(p.itertext()) for p in cell.iter(TEXT_P)] for cell in content.iter(CELL)]
    assert "A man in a red shirt is playing the guitar." in mirror.given
    assert cells == [["GUITAR. THE PLAYING", "IS SHIRT RED A IN MAN A"], ["EGGS", "MILK"], ["TOTAL", "EUROS) (IN"]]
    assert not list(content.iter(f"{{{TEXT}}}line-break"))


def test_a_list_typed_an_item_a_line_in_lower_case_stays_line_by_line(mirror):
    """"Groceries\\napples\\nbread\\nmilk": each item goes on in lower case, and the cell went to the model as one
    sentence, "Groceries apples bread milk", its breaks put between the translation's words wherever the alignment
    put them (Mirror's came back "MILK\\nBREAD\\nAPPLES\\nGROCERIES").  A sentence wrapped over short lines, a stop
    after its last, and a header whose short lines end or start with a function word are still read whole."""
    sheet = translated_sheet({"A1": "Groceries\napples\nbread\nmilk", "A2": "Shopping list:\napples\nolive oil\nmilk",
                              "A3": "Two dogs\nrun through\nthe snow.", "A4": "Number of\nemployees\nper site"},
                             mirror)
    assert {"Groceries", "Shopping list:", "apples", "olive oil", "milk"} <= set(mirror.given)
    assert sheet["A1"].value == "GROCERIES\nAPPLES\nBREAD\nMILK"
    assert sheet["A2"].value == "LIST: SHOPPING\nAPPLES\nOIL OLIVE\nMILK"
    assert {"Two dogs run through the snow.", "Number of employees per site"} <= set(mirror.given)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_cells_list_typed_an_item_a_line_shows_its_items_in_order_in_libreoffice(mirror, tmp_path):
    book = openpyxl.Workbook()
    book.active["A1"] = "Groceries\napples\nbread\nmilk"
    out = translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions())
    assert libreoffice_csv(out, ".xlsx", tmp_path) == ['"GROCERIES', "APPLES", "BREAD", 'MILK"']


def test_an_ods_cells_list_typed_a_paragraph_an_item_in_lower_case_stays_paragraph_by_paragraph(mirror):
    out = translate_office(ods_of_cells([["Groceries", "apples", "bread", "milk"]]), ".ods", mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"])
    assert ["".join(p.itertext()) for p in content.iter(TEXT_P)] == ["GROCERIES", "APPLES", "BREAD", "MILK"]
    assert mirror.given == ["Groceries", "apples", "bread", "milk"]


def test_a_list_typed_a_line_an_item_in_a_page_stays_line_by_line(mirror):
    assert translate_markup(["<p>Groceries<br>apples<br>bread<br>milk</p>"], mirror) == [
        "<p>GROCERIES<br>APPLES<br>BREAD<br>MILK</p>"]
    assert ended_lines("Groceries apples bread milk", [9, 16, 22]) == [9, 16, 22]
    assert ended_lines("Unit price", [4]) == []  # two lines: a wrapped name ("Stückpreis")
