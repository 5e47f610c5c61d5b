"""A markup text's CRLF line ends, kept: an HTML or XML parser reads a CRLF as an LF (lxml's, as the HTML and XML
standards say), and its writer writes an LF back, so a Windows page sent to the server's ``format: html`` came back
with LF between its tags but for its DOCTYPE's line, which the page's writer copies as it was.  A text is read
with LF line ends and its translation written with CRLF where the text had any, as a markup file's bytes are
(attnmt.documents.files)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def with_line_ends(texts: Sequence[str], translate: Callable[[list[str]], list[str]]) -> list[str]:
    """``translate`` of ``texts`` each read with LF line ends, each translation with CRLF line ends where its text
    had any: ``<p>A dog.</p>\\r\\n<p>A cat.</p>`` gives ``<p>Ein Hund.</p>\\r\\n<p>Eine Katze.</p>``."""
    crlf = ["\r\n" in text for text in texts]
    found = translate([text.replace("\r\n", "\n") for text in texts])
    return [text.replace("\n", "\r\n") if kept else text for text, kept in zip(found, crlf, strict=True)]
