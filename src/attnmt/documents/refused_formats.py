"""The formats attnmt does not translate but a user sends anyway, each refused in one line that says
how to have it translated: a PDF, a Rich Text Format document, an old binary Office file (.doc, .xls,
.ppt, from before Office 2007).  The command line and every server's file endpoint give these lines."""

from __future__ import annotations

import shlex
from pathlib import Path

# The binary formats of Office 97-2003 (a compound file each, templates and slide shows too), by extension, and
# the format each is saved as to be translated: attnmt reads an office file's XML, which these do not hold.
OLD_OFFICE = {".doc": ("Word", "docx"), ".dot": ("Word", "docx"), ".xls": ("Excel", "xlsx"),
              ".xlt": ("Excel", "xlsx"), ".ppt": ("PowerPoint", "pptx"), ".pps": ("PowerPoint", "pptx"),
              ".pot": ("PowerPoint", "pptx")}


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
    and says what to save it as; None for any other name.  It names the extension's format, not the file's:
    a server has only the name to go by, and a .pptx renamed .ppt is saved as .pptx all the same."""
    suffix = Path(filename).suffix.lower()
    if (old := OLD_OFFICE.get(suffix)) is None:
        return None
    program, new = old
    return (f"{filename}: {suffix} is {program} 97-2003's binary format, which attnmt does not translate: save it "
            f"as .{new} (File > Save As in {program}, or soffice --headless --convert-to {new} "
            f"{shlex.quote(Path(filename).name)}) and translate that")
