"""What a file given as a glossary is, before it is read as one (attnmt.decoding.glossary_files): a spreadsheet,
an Office, PDF or RTF document or a MultiTerm termbase, which hold no glossary's text, are refused saying what
to give instead; an XML file, whatever its name, is read as XML (a termbase where its root is TBX's)."""

from __future__ import annotations

from pathlib import Path

from attnmt.errors import DataError
from attnmt.text.data import BROKEN_STREAM, OLE_SIGNATURE, ZIP_START, open_bytes

# The first bytes of the files a glossary is often saved from, which are no text: what each is, and what to do.
AS_TEXT = "save the sheet as CSV (UTF-8), or the terms as TSV (source term<TAB>target term a line)"
AS_TBX = "export the termbase as TBX, or the terms as CSV"
AS_TERMS = "copy the terms into a CSV or TSV file (source term<TAB>target term a line)"
ACCESS = "a MultiTerm termbase (.sdltb) or another Access database"
NOT_TEXT = {ZIP_START: ("a zip archive (as an .xlsx, .ods or .docx file is)", AS_TEXT),
            OLE_SIGNATURE: ("an Office 97-2003 file (.xls, .doc)", AS_TEXT),
            b"\x00\x01\x00\x00Standard Jet DB": (ACCESS, AS_TBX), b"\x00\x01\x00\x00Standard ACE DB": (ACCESS, AS_TBX),
            b"%PDF-": ("a PDF document", AS_TERMS), b"{\\rtf": ("an RTF document", AS_TERMS)}


def check_text(data: bytes, path: str | Path) -> None:
    """A DataError naming ``path`` where ``data``, its bytes, are those of a file NOT_TEXT names."""
    if kind := next((kind for magic, kind in NOT_TEXT.items() if data.startswith(magic)), None):
        raise DataError(f"{path}: {kind[0]}, not a text glossary: {kind[1]}")


def declares_xml(path: str | Path) -> bool:
    """Whether the file ``path`` starts with an XML declaration (``<?xml``, after a byte order mark, in UTF-8 or
    UTF-16), which no TSV line of terms is: a TBX export saved as terms.txt, or a translation memory (.tmx),
    was read as TSV ("got 0 TABs in '<?xml …'").  False for a file that cannot be read (reading it names why)."""
    try:
        with open_bytes(path) as file:
            start = file.read(64)
    except (OSError, *BROKEN_STREAM):
        return False
    return any(start.decode(encoding, "ignore").lstrip("\ufeff \t\r\n").startswith("<?xml")
               for encoding in ("utf-8", "utf-16", "utf-16-be"))


def other_format(line: str) -> str:
    """What a TSV glossary's ``line`` without a tab may be instead, to add to the error naming it: a JSON object or
    list (``{"dog": "Hund"}``: a glossary as the API takes it), or a CSV row, a semicolon or a comma between its
    terms (a sheet saved as CSV but named ``terms.txt``), which is read as CSV by its name; else a term of a
    do-not-translate list (``kept_as_is``)."""
    if line.lstrip("\ufeff ").startswith(("{", "[")):
        return "; it reads as JSON: name the file .json, or give the terms as TSV (source term<TAB>target term a line)"
    delimiter = next((delimiter for delimiter in ";," if delimiter in line), None)
    return f"; its {delimiter!r} between the terms is a CSV file's: rename it to end in .csv" if delimiter else (
        kept_as_is(line, "<TAB>"))


def kept_as_is(term: str, shown: str) -> str:
    """What to add to the error naming a glossary's row of one ``term``, as a do-not-translate list has (``Wi-Fi``
    a line): such a term is its own target, ``shown`` (the file's delimiter) between them.  A list of terms without
    their targets cannot be told from one, so it is not read as one."""
    term = term.strip()[:40]
    return f"; a term to keep as it is (do not translate) is its own target: {term}{shown}{term}"
