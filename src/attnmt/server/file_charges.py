"""What a file sent to the server is charged, and how its access-log line counts it::

    charged_file        its requests (access.file_cost), once, as it is sent
    charger             each chunk's characters as it reaches the model, counted in the metrics too
    logged_charger      ``charger``, each chunk counted on the request's access-log line as it is charged
    given_back_charger  the characters of a file given back as it came, all at once

A text request's are attnmt.server.text_charges'.  Each raises Refused, which every API words as its own.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request

from attnmt.server.context import Server
from attnmt.server.models import ServedModel


def charged_file(server: Server, request: Request, size: int) -> None:
    """Counts a file of ``size`` bytes against the admitted ``request``'s limits (access.file_cost,
    at its key's characters per request); raises Refused."""
    server.access.charge_file(request, size, server.settings_for(request).max_request_chars)


def charger(server: Server, request: Request, served: ServedModel) -> Callable[[list[str]], None]:
    """Counts a chunk's sentences' characters against the admitted ``request``'s key's characters a minute
    (raises Refused), and in the metrics of ``served``."""

    def charge(sentences: list[str]) -> None:
        server.access.charge(request, sum(map(len, sentences)))
        server.count_characters(served, sentences)
    return charge


def logged_charger(server: Server, request: Request, served: ServedModel) -> Callable[[list[str]], None]:
    """``charger``, each chunk charged then counted on ``request``'s access-log line (Server.count_texts)."""
    charge = charger(server, request, served)

    def charged(sentences: list[str]) -> None:
        charge(sentences)
        server.count_texts(request, served, sentences)
    return charged


def given_back_charger(server: Server, request: Request) -> Callable[[list[str]], None]:
    """Counts the sentences of a file given back as it came (FileJobs.given_back) against the admitted
    ``request``'s key's characters a minute (raises Refused), as a translated file's chunks count, and notes
    them for its access-log line as /translate notes its texts given back: ``model`` null, ``given_back`` all."""

    def charge(sentences: list[str]) -> None:
        server.access.charge(request, sum(map(len, sentences)))
        server.note_whole(request, sentences, sentences, len(sentences))

    return charge
