"""The formats attnmt does not translate but a user sends anyway, each refused in one line that says
how to have it translated: a PDF, a Rich Text Format document, an old binary Office file (.doc, .xls,
.ppt, from before Office 2007).  The command line and every server's file endpoint give these lines."""

from __future__ import annotations

import shlex
from pathlib import Path

# The binary formats of Office 97-2003 (a compound file each, templates and slide shows too), and the
# format each is saved as to be translated: attnmt reads an office file's XML, which these do not hold.
OLD_OFFICE = {".doc": ("a Word 97-2003 document", "docx"), ".dot": ("a Word 97-2003 template", "docx"),
              ".xls": ("an Excel 97-2003 workbook", "xlsx"), ".xlt": ("an Excel 97-2003 template", "xlsx"),
              ".ppt": ("a PowerPoint 97-2003 presentation", "pptx"),
              ".pps": ("a PowerPoint 97-2003 slide show", "pptx"), ".pot": ("a PowerPoint 97-2003 template", "pptx")}


def pdf_refused(filename: str) -> str:
    """The one line that refuses a PDF named ``filename``, and says how to have it translated."""
    return (f"{filename} is a PDF, not text, and attnmt does not translate it: convert it to .docx or .odt first "
            f"(e.g. with LibreOffice: soffice --headless --infilter=writer_pdf_import --convert-to docx "
            f"{shlex.quote(Path(filename).name)}) and translate that")  # quoted: "Brief an Anna.pdf" pastes whole


def rtf_refused(filename: str) -> str:
    """The one line that refuses a Rich Text Format document named ``filename``, and says how to save it."""
    return (f"{filename} is a Rich Text Format document, not text, and attnmt does not translate it: save it as "
            f".docx or .odt (soffice --headless --convert-to docx {shlex.quote(Path(filename).name)}) and "
            "translate that")


def old_office_refused(filename: str) -> str | None:
    """The one line that refuses an old binary Office file named ``filename`` (by its extension: OLD_OFFICE),
    and says what to save it as; None for any other name."""
    if (old := OLD_OFFICE.get(Path(filename).suffix.lower())) is None:
        return None
    kind, new = old
    return (f"{filename} is {kind}, a binary format attnmt does not translate: save it as .{new} (File > Save As "
            f"in Office, or soffice --headless --convert-to {new} {shlex.quote(Path(filename).name)}) and "
            "translate that")
