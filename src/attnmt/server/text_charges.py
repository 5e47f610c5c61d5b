"""What a text request is charged, and how its access-log line counts it::

    charge          the texts' characters counted against the request's key's characters a minute
    logged_charge   ``charge``, then the whole request counted on its access-log line as charged
    refund          all of it given back, for a request the model's queue has no room for (503)
    forgive         the key's characters given back, for a request a model failed on (500, a stream's error)

Apart from the routes because attnmt's (attnmt.server.v1_api), LibreTranslate's (attnmt.server.libretranslate,
attnmt.server.streaming) and DeepL's (attnmt.server.deepl_api) text APIs charge texts the same way.  Each raises
Refused, which every API words as its own (v1_api.refusal, libre_requests.refusal, deepl_api.answered).
"""

from __future__ import annotations

from fastapi import Request

from attnmt.server.access import log_of
from attnmt.server.context import Server
from attnmt.server.models import characters


def charge(server: Server, request: Request, texts: list[str]) -> None:
    """Counts the texts' characters against the request's key's characters a minute (raises Refused)."""
    server.access.charge(request, sum(map(characters, texts)))


def logged_charge(server: Server, request: Request, texts: list[str], given_back: int = 0) -> None:
    """``charge``, then the request counted whole on its access-log line (Server.count_whole: ``given_back`` of
    its texts need no model), as a file's line counts a chunk as it is charged (file_charges.logged_charger): so the
    line of a request the model then fails on (500), or its client leaves (499), counts what its key was charged."""
    charge(server, request, texts)
    server.count_whole(request, texts, given_back)


def refund(server: Server, request: Request) -> None:
    """Gives back what ``request`` was charged (``logged_charge``), its access-log line counting none as charged:
    it is refused because the model's queue is full (Busy: 503), and no model read its texts."""
    server.access.give_back(request)
    for counted in ("texts", "characters", "given_back"):
        log_of(request).pop(counted, None)


def forgive(server: Server, request: Request) -> None:
    """Gives back the characters ``request`` was charged against its key's characters a minute: a model failed on
    its texts (500), and its client has none of their translations.  deepl-python retries a 500 five times: each
    try was charged, and the key was locked out (429) by characters never translated.  Its access-log line and the
    metrics still count the texts, which a model read (``refund`` is for those none read)."""
    server.access.give_back(request)
