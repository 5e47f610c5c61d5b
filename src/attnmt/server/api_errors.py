"""The errors the compatible APIs answer with, each in the shape its real service gives them.

    ApiError      a status, a message and headers, answered as ``{KEY: message}``
    LibreError    LibreTranslate's: ``{"error": message}`` (attnmt.server.libretranslate and its readers)
    DeepLError    DeepL's: ``{"message": message}`` (attnmt.server.deepl_api, deepl_documents)
    api_error     the one exception handler that answers both (Starlette finds it by the class's MRO)

The two differ in the body's key alone, which their clients read (LibreTranslate's clients
``error``, deepl-python and deepl-node ``message``): one type, each API's subclass naming its key alone.
"""

from __future__ import annotations

from typing import ClassVar

from fastapi import Request
from fastapi.responses import JSONResponse


class ApiError(Exception):
    """Answered as ``{KEY: message}`` with ``status`` and ``headers`` (a 429's or 503's Retry-After)."""

    KEY: ClassVar[str] = "error"

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}


class LibreError(ApiError):
    """Answered as LibreTranslate answers: ``{"error": message}``."""

    KEY = "error"


class DeepLError(ApiError):
    """Answered as DeepL answers: ``{"message": message}``."""

    KEY = "message"


async def api_error(request: Request, error: ApiError) -> JSONResponse:
    """``error`` as its API answers it."""
    return JSONResponse({error.KEY: str(error)}, status_code=error.status, headers=error.headers)
