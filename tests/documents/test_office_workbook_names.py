"""A workbook's defined names' comments (attnmt.documents.workbook_names): what Excel's Name Manager shows
beside each name is translated, the name and what it refers to kept; a translation longer than the 255
characters Excel takes keeps its source, with a warning."""

import io

import openpyxl
import pytest
from office_files import docx_bytes
from openpyxl.workbook.defined_name import DefinedName

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated


def named_book(comment: str) -> bytes:
    """A sheet whose B1 reads the defined name TaxRate (A1, commented ``comment``) and a name without a comment."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Rates"
    sheet["A1"], sheet["B1"], sheet["C1"] = 0.19, "=100*TaxRate", "The tax is high."
    book.defined_names["TaxRate"] = DefinedName("TaxRate", attr_text="Rates!$A$1", comment=comment)
    book.defined_names["Plain"] = DefinedName("Plain", attr_text="Rates!$C$1")
    return docx_bytes(book)


def names(data: bytes) -> dict[str, tuple[str, str | None]]:
    book = openpyxl.load_workbook(io.BytesIO(data))
    return {name: (defined.attr_text, defined.comment) for name, defined in book.defined_names.items()}


def test_a_defined_names_comment_is_translated_and_the_name_kept(upper):
    """Name Manager's comment stayed English beside a translated sheet."""
    out = translate_office(named_book("The tax rate of the year"), ".xlsx", upper, DocumentOptions())
    assert names(out) == {"TaxRate": ("Rates!$A$1", "THE TAX RATE OF THE YEAR"), "Plain": ("Rates!$C$1", None)}
    assert openpyxl.load_workbook(io.BytesIO(out)).active["B1"].value == "=100*TaxRate"
    assert upper.given == ["The tax is high.", "The tax rate of the year"]


def test_a_comment_whose_translation_is_over_excels_limit_keeps_its_source(fixed):
    """Excel's Name Manager takes 255 characters: a German comment grows past what the English one took."""
    source = "The tax rate of the year"
    with pytest.warns(LeftUntranslated, match=r"workbook\.xml, the defined name TaxRate: .* is 256 characters long"):
        out = translate_office(named_book(source), ".xlsx", fixed("x" * 256, []), DocumentOptions())
    assert names(out)["TaxRate"] == ("Rates!$A$1", source)
