"""A file sent to the server, read from its request: the multipart form (``uploaded``), the file's bytes within the
server's limit (``file_bytes``), and its name as its sender named it, in a format the server translates
(``checked_name``).  Apart from the routes that take a file (attnmt.server.file_api, attnmt.server.libre_files,
attnmt.server.deepl_documents) because each reads a file so, and answers in its own words."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from fastapi import HTTPException, Request
from starlette.datastructures import FormData, UploadFile
from starlette.requests import ClientDisconnect

from attnmt.documents.files import suffix_of, supported_suffixes
from attnmt.errors import UserError
from attnmt.server.file_jobs import MACROS_HINT
from attnmt.server.models import ServeSettings, TooMuch

FORM_ROOM = 64 * 1024  # a file's request body may pass max_file_bytes by this much: the form's other fields
HIDDEN = ("Cc", "Cf")  # controls (C0, DEL, C1) and invisible format characters: dropped from a sent file's name
JOINERS = "\u200c\u200d"  # ZWNJ and ZWJ, the format characters kept: Persian, Indic and emoji names need them


async def uploaded(request: Request) -> tuple[FormData, UploadFile | None]:
    """A multipart form, and its ``file`` (None where it has none); the form is read with at most
    one file and a few fields, each API reading a field given twice as its clients expect.
    ValueError for a form that cannot be read; ClientDisconnect (499, as for a JSON body) for a
    client that hangs up before the form's end."""
    try:
        form = await request.form(max_files=1, max_fields=16)
    except (HTTPException, ClientDisconnect):  # a body over its limit or too slow (BodyRefused), or no client
        raise
    except Exception as error:  # noqa: BLE001 - starlette's parser errors vary by version
        if "too many files" in str(error).lower():  # starlette's words for a second file (max_files=1)
            raise ValueError('the form has more than one file: send one file, as the field "file"') from None
        raise ValueError(f"the body is not a multipart form with a file ({error})") from None
    file = form.get("file")
    return form, file if isinstance(file, UploadFile) else None


async def file_bytes(file: UploadFile, max_bytes: int) -> bytes:
    """The file's bytes; TooMuch naming the file where it has more than ``max_bytes``."""
    data = await file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooMuch(f"{sent_name(file)}: the file is over {max_bytes:,} bytes, the most this server translates")
    return data


def served_suffixes(settings: ServeSettings) -> list[str]:
    """The extensions of the files this server takes: those of office files with macros only
    where its operator allows them (``settings.allow_macros``)."""
    return supported_suffixes(macros=settings.allow_macros)


def sent_name(file: UploadFile) -> str:
    r"""The file's name as its sender named it.  Browsers and curl (7.81 on) write a ``"`` in a form's
    file name as ``%22`` (HTML's form encoding; ``%`` itself goes as it is), which the multipart parser
    keeps: ``a"b.txt`` arrived as ``a%22b.txt``, and its translation came back named so.  The line
    breaks that encoding writes as ``%0A`` and ``%0D`` are left escaped: a name is one line of a log
    or an error.  Control characters a client sent as they are (C0, DEL and C1: no file name a
    person sees has one) are dropped, and the format is read from what is left: ``a\x00b.txt`` came
    back as ``a\x00b.de.txt``, and ``a.txt\x00.docx``, which a C library reads as ``a.txt``, is
    ``a.txt.docx``.  So are the invisible format characters (Unicode's Cf, but ZWNJ and ZWJ): a
    bidi control makes a name read otherwise than it is (``\u202efdp.exe.txt``, RIGHT-TO-LEFT
    OVERRIDE first, shows as ``txt.exe.pdf``), and a ZERO WIDTH SPACE or BOM hides in it.  What is
    left gets a stem where it has none (with_stem)."""
    name = (file.filename or "").replace("%22", '"')
    return with_stem("".join(c for c in name if unicodedata.category(c) not in HIDDEN or c in JOINERS))


def with_stem(name: str) -> str:
    r"""``name``, or ``file`` and its extension where nothing but dots and spaces comes before that:
    ``.txt`` (also what is left of ``\x01\x02.txt``) reads as a dot-file with no extension, and was
    refused as a format attnmt does not translate, ``.txt`` among those it does; ``..txt`` came back
    as ``..de.txt``.  A name of dots and spaces alone is no name (""): its format cannot be read."""
    base = name.replace("\\", "/").rpartition("/")[2]  # the name alone, as translated_name reads it
    stem, dot, extension = base.rpartition(".")
    if not base.strip(". "):
        return ""
    return f"file.{extension}" if dot and not stem.strip(". ") else name


def checked_name(file: UploadFile, settings: ServeSettings) -> str:
    """The file's name, its extension one this server translates; ValueError naming the formats
    otherwise, DataError (a ValueError) for an office file with macros the server does not take."""
    from attnmt.documents.office import MACRO_SUFFIXES, macros_refused

    name = sent_name(file)
    if not name:
        raise ValueError("the file has no name: its extension says its format")
    suffix = Path(name).suffix.lower()
    if suffix in MACRO_SUFFIXES and not settings.allow_macros:
        raise macros_refused(name, f"a {suffix} file", MACROS_HINT)
    try:  # one line for a PDF, or naming the formats served: a ValueError, which LibreTranslate's
        suffix_of(name, macros=settings.allow_macros)  # /translate_file answers in its own words
    except UserError as error:
        raise ValueError(str(error)) from None
    return name
