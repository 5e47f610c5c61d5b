"""A translated file sent back: its media type and charset (``TranslatedFile``), and the name it is saved under
(``attachment``).  Apart from the routes that send one (attnmt.server.file_api, attnmt.server.libre_files,
attnmt.server.deepl_documents) because each sends it so."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from fastapi.responses import FileResponse
from starlette.background import BackgroundTask
from starlette.responses import MalformedRangeHeader

from attnmt.documents.charsets import page_charset, unicode_marked
from attnmt.documents.files import MARKUP_KINDS, TEXT_SUFFIXES
from attnmt.text.invisible import unaccented

# How much of a translated page is read for the charset it declares (as attnmt translate reads a page's).
DECLARATION_BYTES = 64 * 1024
# Media types of translated files that their names are guessed wrongly by (Python's mimetypes: .ass is AAC audio).
TEXT_TYPES = {".ass": "text/x-ssa", ".ssa": "text/x-ssa", ".mdx": "text/markdown", ".webvtt": "text/vtt"}


def own_charset(path: str, filename: str) -> str | None:
    """The charset a translated text file is written in where it is not UTF-8: the UTF-16 or UTF-32 its byte
    order mark says (Subtitle Edit's "Unicode"), or the one a page declares (a <meta charset="windows-1252">),
    which browsers would read as the HTTP header's utf-8 instead; None for UTF-8 and any other file."""
    kind = TEXT_SUFFIXES.get(Path(filename).suffix.lower())
    if kind is None:
        return None
    with open(path, "rb") as f:
        head = f.read(DECLARATION_BYTES)
    if (marked := unicode_marked(head)) is not None:
        return marked[:6]  # "utf-16", "utf-32": the mark says the byte order
    return page_charset(head, filename, kind == "html") if kind in MARKUP_KINDS else None


class TranslatedFile(FileResponse):
    """A translated file, whole when its request's Range header cannot be read: a unit other than
    bytes, or a range that is no range (RFC 9110 14.2: such a header may be ignored, one of an
    unknown unit must be). Starlette answered those with a plain-text 400, in neither API's shape;
    an unsatisfiable range (past the file's end) is still 416, with the file's size.  An ASS/SSA
    file is text/x-ssa (TEXT_TYPES): guessed from its name, a .ass was audio/aac (ADTS audio); an MDX page
    text/markdown, as a .md is (Python guesses nothing for .mdx), and a .webvtt text/vtt, as a .vtt is.  A text
    file's charset is its own (``own_charset``), where Starlette said utf-8 of every one."""

    def __init__(self, path: str, filename: str, background: BackgroundTask | None = None) -> None:
        super().__init__(path, filename=filename, media_type=TEXT_TYPES.get(Path(filename).suffix.lower()),
                         background=background)
        self.headers["content-disposition"] = attachment(filename)  # with an ASCII stand-in (attachment)
        charset = own_charset(path, filename)
        kind = self.headers.get("content-type", "")
        if charset is not None and kind.startswith("text/"):
            self.headers["content-type"] = f"{kind.split(';')[0]}; charset={charset}"

    @classmethod
    def _parse_range_header(cls, http_range: str, file_size: int) -> list[tuple[int, int]]:
        try:
            return super()._parse_range_header(http_range, file_size)
        except MalformedRangeHeader:
            return []  # no ranges: the whole file


def attachment(filename: str) -> str:
    """A Content-Disposition naming ``filename`` (RFC 6266): a name beyond plain ASCII also as RFC 5987
    writes it, after an ASCII stand-in for the clients that read ``filename`` alone (``Bericht März.de.txt``:
    ``filename="Bericht Marz.de.txt"``), as Flask's send_file, LibreTranslate's, writes it; with
    ``filename*`` alone, ``curl -OJ`` saved a download under its URL's last part, the job's id and %-escapes."""
    plain = ascii_name(filename)
    return f'attachment; filename="{plain}"' + ("" if plain == filename else f"; filename*=utf-8''{quote(filename)}")


def ascii_name(filename: str) -> str:
    """``filename`` in printable ASCII: accents dropped (NFKD), any other character, a quote or a
    backslash (which a quoted header value would have to escape) made "_"."""
    return "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in unaccented(filename))
