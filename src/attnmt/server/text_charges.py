"""What a LibreTranslate or DeepL text request is charged, and how its access-log line counts it::

    charge          the texts' characters counted against the request's key's characters a minute
    logged_charge   ``charge``, then the whole request counted on its access-log line as charged

Apart from attnmt.server.libretranslate (its routes) because DeepL's text API (attnmt.server.deepl_api) and
the stream (attnmt.server.streaming) charge texts the same way.
"""

from __future__ import annotations

from fastapi import Request

from attnmt.server.access import Refused
from attnmt.server.context import Server
from attnmt.server.libre_requests import refusal
from attnmt.server.models import characters


def charge(server: Server, request: Request, texts: list[str]) -> None:
    """Counts the texts' characters against the request's key's characters a minute."""
    try:
        server.access.charge(request, sum(map(characters, texts)))
    except Refused as refused:
        raise refusal(refused) from None


def logged_charge(server: Server, request: Request, texts: list[str], given_back: int) -> None:
    """``charge``, then the request counted whole on its access-log line (Server.count_whole: ``given_back`` of
    its texts need no model), as a file's line counts a chunk as it is charged (file_api.logged_charger): so the
    line of a request the model then fails on (500), or its client leaves (499), counts what its key was charged."""
    charge(server, request, texts)
    server.count_whole(request, texts, given_back)
