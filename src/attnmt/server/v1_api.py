"""attnmt's own API: ``POST /v1/translate`` with n-best lists, scores, alignments, confidence and
attention (what the page uses); errors are ``{"detail": "a sentence"}``.  Its request and response
bodies are attnmt.server.v1_bodies.

``POST /translate`` with this shape (``text`` or ``texts``) still works for one release;
``POST /translate`` is LibreTranslate's (attnmt.server.libretranslate).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect

from attnmt.decoding.glossary_pairs import GivenPairs
from attnmt.documents.paragraphs import Paragraph, joined_extras, sentence_traces
from attnmt.errors import UserError, json_value, value_shown
from attnmt.server.access import Refused
from attnmt.server.batcher import MODEL_LOG, Busy
from attnmt.server.client_text import log_failure, what_failed
from attnmt.server.context import Server
from attnmt.server.guards import while_connected
from attnmt.server.models import Options, ServedModel, ServeSettings, TooMuch
from attnmt.server.text_charges import forgive, logged_charge, refund
from attnmt.server.v1_bodies import ERRORS, TranslateRequest, TranslateResponse

STATUS = {"missing": 401, "invalid": 403, "slow": 429, "large": 413}  # a Refused reason's status in this API


def chosen_model(server: Server, name: str | None) -> ServedModel:
    """The model a request names (by name or pair), or the default; 422 naming the choices."""
    if name is None:
        return server.models.default
    found = server.models.by_name.get(name) or next((m for m in server.models.all if m.pair == name), None)
    if found is None:
        choices = ", ".join(sorted({m.name for m in server.models.all} | {m.pair for m in server.models.all
                                                                          if m.pair}))
        raise HTTPException(422, f"model: no served model is called {value_shown(name)}; the models are {choices}")
    return found


def describe(served: ServedModel, paragraph: Paragraph,
             request: TranslateRequest) -> tuple[list[dict], str | None]:
    """A text's hypotheses as the response gives them, and on request its sentences' attention
    (JSON text, a list of one viewer object per sentence): one scoring pass per sentence of a
    hypothesis for all its extras (runs in the model's thread)."""
    described, attention = [], None
    for rank, hypothesis in enumerate(paragraph.hypotheses):
        traced = request.return_alignments or request.return_confidence or (rank == 0 and request.return_attention)
        traces = sentence_traces(served.model, served.tokenizer, paragraph, rank) if traced else []
        each, assessed = paragraph.sentence_assessments(rank), hypothesis.assessment
        described.append({**hypothesis.fields(),
                          **joined_extras(paragraph, rank, traces, request.return_alignments,
                                          request.return_confidence),
                          **(assessed.fields() if assessed else {}),
                          **({"sentences": [a.fields() if a else None for a in each]} if request.return_quality
                             else {})})
        if rank == 0 and request.return_attention:
            attention = f"[{','.join(trace.to_json() for trace in traces)}]"
    return described, attention


def refusal(refused: Refused) -> HTTPException:
    return HTTPException(STATUS[refused.reason], str(refused), headers=refused.headers())


def admitted(server: Server, http: Request) -> None:
    try:
        server.access.admit(http)
    except Refused as refused:
        raise refusal(refused) from None


def checked(server: Server, served: ServedModel, request: TranslateRequest, http: Request,
            terms: list[tuple[str, object]] | None = None) -> tuple[list[str], Options]:
    """The request's texts and options (its glossary from ``terms``, where given: ``options``), or
    413 naming the first limit they pass (422: a blank text or glossary term, a source term given
    twice); then their characters are counted against the key's characters a minute (429 when over), and on
    the request's access-log line as charged (text_charges.logged_charge: a 500's or a 499's line too)."""
    named = request.named_texts()
    settings = server.settings_for(http)
    try:
        check_counts(request, len(named), settings)
        options = request.options(terms)
        served.check_texts(named, settings, markup=request.format == "html")
        if request.return_attention:
            check_attention(served, named, options, settings)
        logged_charge(server, http, [text for _, text in named])
    except TooMuch as error:
        raise HTTPException(413, str(error)) from None
    except ValueError as error:
        raise HTTPException(422, str(error)) from None
    except Refused as refused:
        raise refusal(refused) from None
    return [text for _, text in named], options


def check_counts(request: TranslateRequest, texts: int, settings: ServeSettings) -> None:
    """TooMuch for more glossary terms, or more texts with return_attention, than ``settings`` allow."""
    if request.glossary and len(request.glossary) > settings.max_glossary_terms:
        raise TooMuch(f"the glossary has {len(request.glossary)} terms; at most {settings.max_glossary_terms} a "
                      "request: send the terms your texts hold")
    if request.return_attention and texts > settings.max_attention_texts:
        raise TooMuch(f"return_attention is for at most {settings.max_attention_texts} texts a request, got {texts}")


def check_attention(served: ServedModel, named: list[tuple[str, str]], options: Options,
                    settings: ServeSettings) -> None:
    """TooMuch where return_attention could send more weights than ``settings`` allow
    (ServedModel.attention_weights: counted before any model work)."""
    sizes = {where: served.attention_weights(text, options) for where, text in named}
    total, largest = sum(sizes.values()), max(sizes, key=sizes.__getitem__)
    if total > settings.max_attention_weights:
        raise TooMuch(f"return_attention could send {total:,} attention weights (layers x heads x output x input "
                      f"pieces; {largest}: {sizes[largest]:,}); at most {settings.max_attention_weights:,} a request: "
                      "send fewer or shorter texts, or a lower max_length")


async def translate_native(server: Server, request: TranslateRequest, http: Request) -> Response:
    """Translates ``text`` or ``texts`` (the answer: a TranslateResponse as JSON); concurrent
    requests are batched together.  A client that hangs up leaves the queue (499)."""
    admitted(server, http)
    served = chosen_model(server, request.model)
    texts, options = checked(server, served, request, http, await given_glossary(http) if request.glossary else None)
    server.names(http, served)
    # the metrics count the characters as they reach the model's queue, as a file's chunks (file_charges.charger)
    counted = partial(server.count_characters, served, texts)
    try:
        translations, hypotheses, attention, quality = await while_connected(
            http, translation(served, request, texts, options, counted))
    except Busy:  # no room in the queue (503): no model read them
        refund(server, http)
        raise
    except ClientDisconnect:
        raise
    except UserError as error:  # a glossary term the vocabulary cannot write
        raise HTTPException(422, str(error)) from None
    except Exception as error:  # noqa: BLE001 - the model failed; say what, not on what text, and keep serving
        forgive(server, http)
        given = [text for _, text in request.named_strings()]  # its texts, prefix and glossary terms
        raise HTTPException(500, f"translation failed: {what_failed(error, given)}") from None
    server.note_texts(http, texts, translations)
    return answer(TranslateResponse(translations=translations, hypotheses=hypotheses, **text_quality(quality)),
                  attention)


async def given_glossary(http: Request) -> list[tuple[str, object]]:
    """The request's "glossary", pair by pair, as its JSON body gives it: pydantic's reading (as JSON's)
    keeps the last target of a source term given twice, silently."""
    return json_value(await http.body(), object_pairs_hook=GivenPairs)["glossary"].pairs


async def translation(served: ServedModel, request: TranslateRequest, texts: list[str], options: Options,
                      queued: Callable[[], object]) -> tuple[list[str], list | None, list | None, list | None]:
    """The texts' translations, and as asked their hypotheses, attention and best hypotheses' quality
    (``queued``: Batcher.translate's)."""
    batcher = served.batcher
    results = await batcher.translate(texts, options, queued)
    if not options.hypotheses:
        return results, None, None, None
    try:
        described = [await batcher.call(describe, served, paragraph, request) for paragraph in results]
    except (Busy, UserError):
        raise
    except Exception as error:  # the batcher logged the search's failures; this one is the description's
        log_failure(MODEL_LOG, f"{batcher.the_model} failed describing the hypotheses of {len(texts)} text(s)",
                    error, [text for _, text in request.named_strings()], batcher.log_text)
        raise
    quality = [each[0] if each else {} for each, _ in described]
    hypotheses = [each for each, _ in described] if request.wants_hypotheses else None
    attention = [each for _, each in described] if request.return_attention else None
    return [paragraph.hypotheses[0].text for paragraph in results], hypotheses, attention, quality


def text_quality(best: list[dict] | None) -> dict:
    """The response's quality, flags and calibrated, from each text's best hypothesis as described."""
    if best is None:
        return {}
    return {"quality": [h.get("quality") for h in best], "flags": [h.get("flags", []) for h in best],
            "calibrated": all(h.get("calibrated", True) for h in best)}


def answer(response: TranslateResponse, attention: list[str] | None) -> Response:
    """The response as JSON, with each text's attention where asked for: JSON text already
    (TranslationAttention.to_json), so its weights, millions for long texts, never become Python
    floats or pass through the response model."""
    body = response.model_dump_json(exclude_none=True)
    if attention is not None:
        body = f'{body[:-1]},"attention":[{",".join(attention)}]}}'
    return Response(body, media_type="application/json")


def json_error(problem: dict) -> str | None:
    """What the JSON parser said about a body that is not JSON (e.g. "not UTF-8: byte 0xe9")."""
    return (problem.get("ctx") or {}).get("error") if problem.get("type") == "json_invalid" else None


def is_json(media_type: str) -> bool:
    """A JSON body, as Flask's ``request.is_json`` (LibreTranslate's) says: application/json, or an
    application/...+json type (``media_type`` lower case: media types are case-insensitive)."""
    return media_type == "application/json" or (media_type.startswith("application/") and media_type.endswith("+json"))


def media_type_of(request: Request) -> str:
    """The request's Content-Type without its parameters, lower case ("" where it has none)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def describe_problem(problem: dict, media_type: str = "application/json") -> str:
    """One validation problem as text, e.g. 'beam: Input should be greater than or equal to 1';
    ``media_type``: the request's, which a body that is no JSON object may be the fault of."""
    loc, message = problem["loc"], problem["msg"].removeprefix("Value error, ")
    if problem["type"] == "json_invalid":
        where = f" at character {loc[-1]}" if isinstance(loc[-1], int) and loc[-1] else ""  # pydantic's: no place
        return f"the body is not valid JSON ({message}{where})"
    where = ".".join(str(part) for part in loc[1:] if loc[:1] in (["body"], ["query"])) or "body"  # a field's name
    if where == "body" and problem["type"] in ("missing", "model_attributes_type", "dict_type"):
        if not is_json(media_type):  # curl -d sends a form's type: the JSON in it is never parsed
            return (f"the body must be JSON sent with Content-Type: application/json (it came "
                    f"{'as ' + media_type if media_type else 'without one'}; curl: --json '{{\"text\": …}}')")
        return 'the body must be a JSON object, e.g. {"text": "A dog runs."}'
    if problem["type"] == "extra_forbidden":
        return f"unknown field {where!r}: the fields are {', '.join(TranslateRequest.model_fields)}"
    return message if where == "body" else f"{where}: {message}"


def add_native_routes(app: FastAPI, server: Server) -> None:
    """POST /v1/translate, and this API's errors: {"detail": "a sentence"}; validation errors
    also list each problem under "errors"."""

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [{"loc": list(e.get("loc", ())), "msg": json_error(e) or e.get("msg", ""), "type": e.get("type", "")}
                    for e in error.errors()]
        detail = "; ".join(describe_problem(problem, media_type_of(request)) for problem in problems) or \
            "invalid request"
        return JSONResponse({"detail": detail, "errors": problems}, status_code=422)

    @app.exception_handler(Busy)
    async def busy(request: Request, error: Busy) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503, headers={"Retry-After": "1"})

    @app.post("/v1/translate", response_model=TranslateResponse, response_model_exclude_none=True, responses=ERRORS)
    async def translate_v1(request: TranslateRequest, http: Request) -> Response:
        """Translates ``text`` or ``texts``; concurrent requests are batched together."""
        return await translate_native(server, request, http)
