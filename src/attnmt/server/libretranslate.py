"""LibreTranslate's API, so that its clients (browser extensions, Nextcloud, ``deep-translator``,
``libretranslatepy``) can use attnmt's models::

    POST /translate  q (a text or a list), source (a code or "auto"), target, format, alternatives, api_key
                     as JSON, a form or query parameters
                     -> {"translatedText": ... [, "alternatives": [...]] [, "detectedLanguage": {...}]}
                        (a list: one detectedLanguage per text, each text translated by its language's model)
                        and, for text with ``attnmt serve --quality``, attnmt's extra "quality", "flags"
                        and "calibrated" (attnmt.decoding.quality), as the stream's "done" event then does
    GET  /languages  -> [{"code", "name", "targets"}, ...]: the served pairs, and each language into itself
    POST /detect     q -> [{"language", "confidence"}, ...]  (among the served languages, as /languages lists them;
                        for a list, one ranking: each text's confidences averaged, as LibreTranslate's)
    GET  /frontend/settings -> the limits and defaults LibreTranslate's page and clients read
    POST /translate_file, GET /download_file/ID.NAME  -> a file translated: attnmt.server.libre_files

Errors are ``{"error": "..."}`` with LibreTranslate's statuses: 400 for a bad request
(missing parameter, unsupported language or format, over a limit), 403 for an unknown
API key, 429 over a rate limit, 500 when the model fails; and 503 when the queue is full (charged nothing).
``alternatives`` are the next best of beam search's n-best list, without repeats (html has none:
``[]``, as LibreTranslate answers, for the clients that ask for them with every request).  A text is
split into sentences as ``attnmt translate`` splits it (attnmt.documents.paragraphs): every sentence
is translated, and an alternative joins each sentence's next best.

A JSON body with attnmt's own shape (``text`` or ``texts``, no ``q``) posted to
``/translate`` is answered by attnmt's API as before (attnmt.server.v1_api; now at ``/v1/translate``).

A request's parameters are read and checked, and its errors worded, by attnmt.server.libre_requests;
what its texts are charged, and how its log line counts them, by attnmt.server.text_charges.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.requests import ClientDisconnect

from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.quality import Assessment, blank_pair
from attnmt.server.access import Refused
from attnmt.server.api_errors import LibreError
from attnmt.server.auto_source import detected, given_back
from attnmt.server.batcher import Busy
from attnmt.server.client_text import what_failed
from attnmt.server.context import Server
from attnmt.server.detect import language_name
from attnmt.server.file_forms import served_suffixes
from attnmt.server.guards import while_connected
from attnmt.server.libre_requests import (
    FIELDS,
    FORMATS,
    alternatives_of,
    check_unicode,
    json_body,
    language_of,
    parameters,
    refusal,
    refusals_worded,
    text_names,
    texts_in,
    texts_of,
)
from attnmt.server.markup_texts import NO_SPLITS, LineBreaks, TagSplits
from attnmt.server.models import Options, ServedModel, ServeSettings, TooMuch
from attnmt.server.text_charges import forgive, logged_charge, refund
from attnmt.server.v1_api import translate_native
from attnmt.server.v1_bodies import TranslateRequest

# /frontend/settings' default source, as LibreTranslate names it.
AUTO_DETECT = {"code": "auto", "name": "Auto Detect"}


def admit(server: Server, request: Request, params: dict) -> None:
    try:
        server.access.admit(request, params.get("api_key"))
    except Refused as refused:
        raise refusal(refused) from None


def char_limit(settings: ServeSettings) -> int:
    """The most characters a text may have, as /frontend/settings' ``charLimit`` says it: LibreTranslate's
    page cuts its text there, so it is the lower of the per-text and per-request limits (``--char-limit``)."""
    return min(settings.max_chars, settings.max_request_chars)


def model_for(server: Server, source: str, target: str) -> ServedModel:
    codes = server.models.codes()
    for code in (source, target):
        if code not in codes:
            raise LibreError(400, f"{code} is not supported")
    served = server.models.by_pair.get((source, target))
    if served is None:
        raise LibreError(400, f"{language_name(target)} ({target}) is not available as a target language from "
                              f"{language_name(source)} ({source})")
    return served


async def translated(request: Request, served: ServedModel, texts: list[str], alternatives: int,
                     text_format: str = "text", quality: bool = False, lines: LineBreaks = LineBreaks.PARAGRAPHS,
                     tags: TagSplits = NO_SPLITS, queued: Callable[[], object] = lambda: None,
                     ) -> tuple[list[str], list[list[str]], list[Assessment | None]]:
    """The best translation of each text, up to ``alternatives`` other distinct ones, and (text format,
    ``quality``) the best one's quality (attnmt.decoding.quality; None for html and blank texts).  A text's
    hard-wrapped paragraphs (a pasted e-mail's) are translated whole and filled again, but where ``lines`` are
    read as DeepL's (Options.lines), and XML's elements split as DeepL's ``tags`` say (Options.tags).  A client
    that hangs up leaves the queue (ClientDisconnect: 499); Busy where the queue has no room for them (else
    ``queued`` is called: Batcher.translate)."""
    n_best = alternatives + 1
    quality = quality and text_format == "text"
    options = Options(Decoding(beam_size=max(DEFAULT.beam_size, n_best), n_best=n_best),
                      hypotheses=alternatives > 0 or quality, format=text_format, quality=quality, lines=lines,
                      tags=tags)
    try:
        results = await while_connected(request, served.batcher.translate(texts, options, queued))
    except (Busy, ClientDisconnect):
        raise
    except Exception as error:  # noqa: BLE001 - the model failed; say what, not on what text, and keep serving
        raise LibreError(500, f"Cannot translate text: {what_failed(error, texts)}") from None
    if not options.hypotheses:
        return results, [[] for _ in texts], [None] * len(texts)
    best = [paragraph.hypotheses[0].text for paragraph in results]
    others = [list(dict.fromkeys(h.text for h in paragraph.hypotheses[1:] if h.text != first))
              for first, paragraph in zip(best, results, strict=True)]
    if not quality:
        return best, others, [None] * len(texts)
    return best, others, [paragraph.hypotheses[0].assessment for paragraph in results]


async def translated_by_source(server: Server, request: Request, routed: dict[str, ServedModel], sources: list[str],
                               texts: list[str], alternatives: int, text_format: str, quality: bool,
                               lines: LineBreaks = LineBreaks.PARAGRAPHS, tags: TagSplits = NO_SPLITS,
                               ) -> tuple[list[str], list[list[str]], list[Assessment | None]]:
    """translated() for each text by the model its source language routes to (``routed``): each
    model gets its texts as one request, which its batcher batches as any other, and the answers
    come back in the order of ``texts``.  A list in one language is one request to one model.  A text
    routed to none, already in the target language, comes back as it is, as LibreTranslate answers it.  A
    model's queue without room for its texts refuses the request (503), charged nothing (text_charges.refund); a
    model's failure (500) gives back its key's characters (text_charges.forgive).  Either answers none of the
    texts, though an earlier model translated its own: so the whole request is given back, which its client
    sends again whole."""
    best = list(texts)
    others: list[list[str]] = [[] for _ in texts]
    assessed: list[Assessment | None] = [None] * len(texts)
    for code, served in routed.items():
        places = [i for i, source in enumerate(sources) if source == code]
        group = [texts[i] for i in places]
        server.names(request, served)
        # the metrics count them as they reach the model's queue, as a file's chunks (file_charges.charger); its line
        # counted them as charged (logged_charge)
        try:
            answers = await translated(request, served, group, alternatives, text_format, quality, lines, tags,
                                       partial(server.count_characters, served, group))
        except Busy as error:
            refund(server, request)
            raise LibreError(503, str(error), {"Retry-After": "1"}) from None
        except LibreError:  # the model failed (translated: 500)
            forgive(server, request)
            raise
        for i, one_best, its_others, its_assessment in zip(places, *answers, strict=True):
            best[i], others[i], assessed[i] = one_best, its_others, its_assessment
    return best, others, assessed


async def translate_libre(server: Server, request: Request, params: dict) -> dict:
    check_unicode(params)
    admit(server, request, params)
    settings = server.settings_for(request)
    texts = texts_of(settings, params)
    source, target = (language_of(params, name, server.models.codes()) for name in ("source", "target"))
    alternatives = alternatives_of(server, params)
    text_format = params.get("format") or "text"
    if text_format not in FORMATS:
        raise LibreError(400, f"{text_format} format is not supported")
    detections = await detected(server, texts, target, text_format) if source == "auto" else None
    sources = [each["language"] for each in detections] if detections else [source] * len(texts)
    # a text in the target language already (detected so, or so named) needs no model: as it is
    routed = {code: model_for(server, code, target) for code in dict.fromkeys(sources)
              if code != target or target not in server.models.codes()}
    names = text_names(params)
    for code, served in routed.items():
        try:
            served.check_texts([(names[i], text) for i, text in enumerate(texts) if sources[i] == code], settings,
                               markup=text_format == "html")
        except TooMuch as error:
            raise LibreError(400, f"Invalid request: {error}") from None
    with refusals_worded():
        logged_charge(server, request, texts, sum(source not in routed for source in sources))
    searched = alternatives if text_format == "text" else 0  # html has none: [] each, as LibreTranslate answers
    best, others, assessed = await translated_by_source(server, request, routed, sources, texts, searched,
                                                        text_format, settings.quality)
    server.note_texts(request, texts, best)
    one = not isinstance(params["q"], list)
    answer: dict = {"translatedText": best[0] if one else best}
    if alternatives:
        answer["alternatives"] = others[0] if one else others
    if text_format == "text" and settings.quality:  # attnmt's extra fields; LibreTranslate's clients read theirs
        # None: a blank text, passed through as it is: quality 1, calibrated as its model's other texts;
        # or one in the target language already, which no model read (given_back)
        quality = [(a or (blank_pair(routed[sources[i]].calibration) if sources[i] in routed
                          else given_back(server, target))).fields() for i, a in enumerate(assessed)]
        for key in ("quality", "flags", "calibrated"):
            answer[key] = quality[0][key] if one else [q[key] for q in quality]
    if detections:
        answer["detectedLanguage"] = detections[0] if one else detections
    return answer


async def translate_attnmt_shape(server: Server, request: Request, body: bytes) -> Response:
    """attnmt's own request posted to /translate: answered as /v1/translate answers it."""
    try:
        parsed = TranslateRequest.model_validate_json(body)
    except ValidationError as error:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in error.errors()]) from None
    answer = await translate_native(server, parsed, request)
    # Deprecation (RFC 9745) and the successor's address tell clients where this API went.
    answer.headers.update({"Deprecation": "true", "Link": '</v1/translate>; rel="successor-version"'})
    return answer


def add_libretranslate_routes(app: FastAPI, server: Server) -> None:
    @app.post("/translate", tags=["LibreTranslate"], openapi_extra=json_body(["q", "source", "target"], FIELDS))
    async def translate(request: Request):
        """LibreTranslate's translate (q, source, target, format, alternatives, api_key)."""
        params, body = await parameters(request)
        if body is not None and "q" not in params and ("text" in params or "texts" in params):
            return await translate_attnmt_shape(server, request, body)
        return await translate_libre(server, request, params)

    @app.post("/detect", tags=["LibreTranslate"])
    async def detect(request: Request) -> list[dict]:
        """The served languages, source and target, most likely first, with confidences in percent."""
        params, _ = await parameters(request)
        check_unicode(params)
        admit(server, request, params)
        texts = texts_in(params)  # as /translate reads q: 5 or [null] is no text to detect
        ranked = await asyncio.to_thread(server.detector.rank_texts, texts)
        return [{"confidence": confidence, "language": code} for code, confidence in ranked]

    @app.get("/languages", tags=["LibreTranslate"])
    async def languages() -> list[dict]:
        """Each language served, with the languages it translates into, itself among them and in alphabetical
        order, as LibreTranslate lists them (Argos gives every language a translation into itself): /translate
        gives a text sent from a language into itself back as it is, and a client fills its menu of targets from
        these (German listed none, on an en-de server)."""
        return [{"code": code, "name": language_name(code), "targets": sorted({code, *server.models.targets_of(code)})}
                for code in server.models.codes()]

    @app.get("/frontend/settings", tags=["LibreTranslate"])
    async def frontend_settings() -> dict:
        """What LibreTranslate's clients read: limits, whether keys are needed, default languages: the
        source "auto", as LibreTranslate's default is (its clients start on it), the target the first pair's."""
        first = next(iter(server.models.by_pair), ("auto", "auto"))
        return {"charLimit": char_limit(server.settings), "frontendTimeout": 500,
                "apiKeys": server.access.keys_required, "keyRequired": server.access.keys_required,
                "suggestions": False, "filesTranslation": True,
                "supportedFilesFormat": served_suffixes(server.settings),
                "language": {"source": AUTO_DETECT,
                             "target": {"code": first[1], "name": language_name(first[1])}}}

    @app.post("/suggest", tags=["LibreTranslate"])
    async def suggest() -> dict:
        """LibreTranslate's suggestions, which this server does not take (``"suggestions": false`` in
        /frontend/settings): 403, as LibreTranslate answers where they are off."""
        raise LibreError(403, "Suggestions are disabled on this server.")
