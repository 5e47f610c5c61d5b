"""A translation server: an HTTP API and a web page over one loaded model (FastAPI on uvicorn).

::

    POST /translate  {"text": "A dog runs."} or {"texts": [...]}, options beam, max_length, return_attention,
                     format ("html": texts are HTML, split into sentences, tags carried over; attnmt.documents)
                     -> {"translations": [...]}  (+ "attention": one viewer data object per text, on request)
    GET  /health     -> model name, vocabulary size, device, limits
    GET  /           -> the page: a text box, Translate, the output and its attention (attnmt.app.page)
    GET  /docs       -> OpenAPI documentation (/openapi.json: the schema)

Concurrent requests are translated together (``attnmt.app.request_batcher``), in a thread
that owns the model, so the event loop stays free to accept and answer.  Every
limit answers with a status and a sentence saying what was wrong: 422 for a
malformed request (bad JSON, unknown or mistyped fields, empty text), 413 for
too much (too many texts, text too long, body too large), 503 when the queue is
full.
"""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from typing import Any, Literal, NamedTuple

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnmt.app.guards import (
    LOOPBACK_NAMES,
    BodyDeadline,
    HTTPMiddleware,
    SecurityHeaders,
    StrictJSONRoute,
    content_policy,
    run_until_stopped,
)
from attnmt.app.page import page_html
from attnmt.app.request_batcher import Batcher, Busy
from attnmt.decoding import DEFAULT, Decoding
from attnmt.errors import ConfigError, UserError
from attnmt.glossary import Glossary
from attnmt.inspect.align import trace_extras
from attnmt.inspect.trace import trace_translation
from attnmt.model import Transformer
from attnmt.translate import TextCodec, Translation, translate, translate_n_best


@dataclass
class ServeSettings:
    """Limits and batching of the server; every limit is checked before any model work."""

    max_texts: int = 64  # texts per request
    max_chars: int = 2000  # characters per text (the model's own token limit applies too)
    max_attention_texts: int = 8  # texts per request with return_attention (their matrices are large)
    max_body_bytes: int = 1_000_000
    max_batch: int = 32  # texts translated together
    batch_window_ms: float = 5.0  # how long a lone request waits for company
    max_queued: int = 1024  # texts waiting; beyond this, 503
    header_timeout_s: float = 10.0  # a connection silent this long (opened, or answered) is closed
    body_timeout_s: float = 30.0  # a request body must arrive within this long of its headers; else 408
    shutdown_timeout_s: float = 10.0  # on SIGTERM or Ctrl-C, requests in flight get this long to finish

    def __post_init__(self) -> None:
        for key, value in asdict(self).items():
            if value < (0 if key == "batch_window_ms" else 1):
                raise ConfigError(f"serve setting {key} must be {'>= 0' if key == 'batch_window_ms' else '>= 1'}, "
                                  f"got {value}")


class Options(NamedTuple):
    """The decoding options of a request: only requests with equal ones share a batch."""

    decoding: Decoding
    hypotheses: bool = False  # False: translations only; True: the n_best best with their scores
    glossary: Glossary | None = None
    prefix: str | None = None
    format: str = "text"  # "html": HTML fragments or pages (attnmt.documents)


class TranslateRequest(BaseModel):
    """Give ``text`` (one) or ``texts`` (several), never both."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str | None = Field(None, description="one text to translate", examples=["A dog runs."])
    texts: list[str] | None = Field(None, description="several texts, translated in order")
    beam: int = Field(DEFAULT.beam_size, ge=1, le=16, description="beam size; 1 is greedy search")
    max_length: int | None = Field(
        None, ge=1, le=1024,
        description=f"most output subword tokens per translation (default {DEFAULT.max_len_a} x input tokens "
                    f"+ {DEFAULT.max_len_b})",
    )
    return_attention: bool = Field(False, description="also return each translation's tokens and attention")
    n_best: int = Field(1, ge=1, le=16, description="hypotheses per text in 'hypotheses' (at most beam)")
    return_scores: bool = Field(False, description="return 'hypotheses': each with its score (log-prob / length "
                                "penalty) and log-prob")
    return_alignments: bool = Field(False, description="add each hypothesis's word alignment (Pharaoh pairs)")
    return_confidence: bool = Field(False, description="add each hypothesis's pieces with their probabilities")
    glossary: dict[str, str] | None = Field(None, description='terms the translations must use: {"source term": '
                                            '"target term"} (docs/translating.md, Terminology)')
    prefix: str | None = Field(None, description="text every translation starts with")
    min_len: int = Field(DEFAULT.min_len, ge=0, le=1024, description="no EOS before this many output tokens")
    sampling_topk: int = Field(DEFAULT.sampling_topk, ge=0, description="1: no sampling; 0 or k > 1: sample "
                               "from all tokens or the k most likely (with beam 1)")
    sampling_topp: float = Field(DEFAULT.sampling_topp, gt=0, le=1, description="with sampling: nucleus size")
    sampling_temperature: float = Field(DEFAULT.sampling_temperature, gt=0, description="with sampling")
    seed: int | None = Field(DEFAULT.seed, description="with sampling: the same seed, the same output")
    no_repeat_ngram_size: int = Field(DEFAULT.no_repeat_ngram_size, ge=0, description="0: off")
    repetition_penalty: float = Field(DEFAULT.repetition_penalty, gt=0, description="1: off")
    disable_unk: bool = Field(DEFAULT.disable_unk, description="never generate the unknown piece")
    format: Literal["text", "html"] = Field("text", description='"html": each text is HTML (a fragment or a page), '
                                            "split into sentences, its tags carried onto the translation")

    @property
    def wants_hypotheses(self) -> bool:
        return self.n_best > 1 or self.return_scores or self.return_alignments or self.return_confidence

    def options(self) -> Options:
        decoding = Decoding(beam_size=self.beam, n_best=self.n_best, **{
            key: getattr(self, key) for key in DECODING_FIELDS}).with_max_length(self.max_length)
        return Options(decoding, self.wants_hypotheses, Glossary.of(self.glossary) if self.glossary else None,
                       self.prefix, self.format)

    @model_validator(mode="after")
    def one_nonblank_text_or_texts(self) -> TranslateRequest:
        if (self.text is None) == (self.texts is None):
            raise ValueError('give either "text": "..." or "texts": ["...", ...]')
        if self.texts == []:
            raise ValueError('"texts" is empty: give at least one text')
        if self.n_best > self.beam:
            raise ValueError(f'"n_best" {self.n_best} needs "beam" {self.n_best} or more (got {self.beam})')
        if self.format == "html" and (self.wants_hypotheses or self.return_attention or self.glossary or self.prefix):
            raise ValueError('"format": "html" returns the translated HTML only: leave out n_best, return_scores, '
                             "return_alignments, return_confidence, return_attention, glossary and prefix")
        try:
            self.options()
        except UserError as error:
            raise ValueError(str(error)) from None
        for where, text in self.named_texts():
            if not text.strip():
                raise ValueError(f"{where} is empty: give a sentence to translate")
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(f"{where} is not valid Unicode (it has an unpaired surrogate)") from None
        return self

    def named_texts(self) -> list[tuple[str, str]]:
        """(name for messages, text) pairs: ("text", ...) or ("texts[0]", ...), ..."""
        if self.text is not None:
            return [("text", self.text)]
        return [(f"texts[{i}]", text) for i, text in enumerate(self.texts or [])]


# The request fields that are Decoding fields of the same name.
DECODING_FIELDS = ("min_len", "sampling_topk", "sampling_topp", "sampling_temperature", "seed", "no_repeat_ngram_size",
                   "repetition_penalty", "disable_unk")


class TranslateResponse(BaseModel):
    translations: list[str] = Field(description="one per input text, in order")
    hypotheses: list[list[dict[str, Any]]] | None = Field(
        None, description="with n_best > 1 or return_scores/alignments/confidence, per text the n_best best: "
                          '{"text", "score", "log_prob"[, "alignment": "0-0 1-1 …"][, "confidence": '
                          '[[piece, probability], …]]}',
    )
    attention: list[dict[str, Any]] | None = Field(
        None, description="with return_attention, one per text: TranslationAttention.to_dict(), i.e. "
                          '{"sentence", "translation", "kinds": {"cross" | "encoder" | "decoder_self": '
                          '{"rows", "cols" (tokens), "weights" [layer][head][row][col], ...}}}',
    )


class Health(BaseModel):
    status: str
    model: str
    vocab_size: int
    device: str
    parameters: int
    max_input_tokens: int
    limits: dict[str, int | float]
    batches: int = Field(description="model batches run since the start")
    translated: int = Field(description="texts translated since the start (batches / translated: mean batch size)")


class ErrorMessage(BaseModel):
    detail: str = Field(description="what was wrong, in a sentence")


ERRORS = {
    413: {"model": ErrorMessage, "description": "too many texts, a text too long, or a body too large"},
    422: {"model": ErrorMessage, "description": "not valid JSON, an unknown or mistyped field, or an empty text"},
    500: {"model": ErrorMessage, "description": "the model failed on this batch; the server goes on"},
    503: {"model": ErrorMessage, "description": "the queue is full; retry after the Retry-After seconds"},
}


def check_limits(request: TranslateRequest, tokenizer: TextCodec, settings: ServeSettings,
                 max_tokens: int) -> list[str]:
    """The request's texts, or an HTTPException naming the first limit it passes (413), or
    a text that is nothing but invisible characters (422)."""
    named = request.named_texts()
    if len(named) > settings.max_texts:
        raise HTTPException(413, f"{len(named)} texts in one request; at most {settings.max_texts}")
    if request.return_attention and len(named) > settings.max_attention_texts:
        raise HTTPException(413, f"return_attention is for at most {settings.max_attention_texts} texts "
                                 f"a request, got {len(named)}")
    for where, text in named:
        if len(text) > settings.max_chars:
            raise HTTPException(413, f"{where} has {len(text)} characters; at most {settings.max_chars}")
        if request.format == "html":  # split into sentences: only the character limit applies
            continue
        tokens = len(tokenizer.encode(text))
        if tokens == 0:
            raise HTTPException(422, f"{where} has nothing to translate: only spaces or invisible characters")
        if tokens > max_tokens:
            raise HTTPException(413, f"{where} is {tokens} subword tokens long; this model reads at most "
                                     f"{max_tokens}: split it into sentences")
    return [text for _, text in named]


class BodyLimit(HTTPMiddleware):
    """413 for a request body over ``max_bytes``, before reading it when it declares its length,
    else as soon as the bytes read pass the limit."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"the request body is over {self.max_bytes} bytes"
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await JSONResponse({"detail": detail}, status_code=413)(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise HTTPException(413, detail)  # answered by the app's HTTPException handler
            return message

        await self.app(scope, counted, send)


def add_error_handlers(app: FastAPI) -> None:
    """Errors as {"detail": "a sentence"}; validation errors also list each problem under "errors"."""

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [{"loc": list(e.get("loc", ())), "msg": json_error(e) or e.get("msg", ""), "type": e.get("type", "")}
                    for e in error.errors()]
        detail = "; ".join(describe(problem) for problem in problems) or "invalid request"
        return JSONResponse({"detail": detail, "errors": problems}, status_code=422)

    @app.exception_handler(Busy)
    async def busy(request: Request, error: Busy) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503, headers={"Retry-After": "1"})


def json_error(problem: dict) -> str | None:
    """What the JSON parser said about a body that is not JSON (e.g. "not UTF-8: byte 0xe9")."""
    return (problem.get("ctx") or {}).get("error") if problem.get("type") == "json_invalid" else None


def describe(problem: dict) -> str:
    """One validation problem as text, e.g. 'beam: Input should be greater than or equal to 1'."""
    loc, message = problem["loc"], problem["msg"].removeprefix("Value error, ")
    if problem["type"] == "json_invalid":
        return f"the body is not valid JSON ({message}{f' at character {loc[-1]}' if loc[-1] else ''})"
    where = ".".join(str(part) for part in loc[1:] if loc[:1] == ["body"]) or "body"
    if where == "body" and problem["type"] in ("missing", "model_attributes_type", "dict_type"):
        return 'the body must be a JSON object, e.g. {"text": "A dog runs."}'
    if problem["type"] == "extra_forbidden":
        return f"unknown field {where!r}: the fields are {', '.join(TranslateRequest.model_fields)}"
    return message if where == "body" else f"{where}: {message}"


def create_app(model: Transformer, tokenizer: TextCodec, name: str = "model",
               settings: ServeSettings | None = None, parameters: int | None = None,
               allowed_hosts: Sequence[str] | None = None) -> FastAPI:
    """The FastAPI application serving ``model`` (in eval mode); the batcher runs while it does.

    ``parameters``: the trained model's parameter count, for /health, where ``model`` is an
    inference copy (packed layers hold their weights outside ``parameters()``); default: counted.
    ``allowed_hosts``: the Host names it answers to (None: any; others get 400)."""
    settings = settings or ServeSettings()
    if parameters is None:
        parameters = model.num_parameters()
    model.eval()
    max_tokens = model.config.longest_input
    device = next(model.parameters()).device

    def run_batch(texts: list[str], options: Options) -> list:
        if options.format == "html":  # lxml and sentencex: the documents extra, needed only here
            from attnmt.documents import translate_html_texts

            return translate_html_texts(model, tokenizer, texts, options.decoding)
        guides = dict(glossary=options.glossary, prefix=options.prefix)
        if options.hypotheses:
            return translate_n_best(model, tokenizer, texts, options.decoding, **guides)
        return translate(model, tokenizer, texts, options.decoding, **guides)

    def describe(text: str, found: list[Translation], request: TranslateRequest) -> tuple[list[dict], dict | None]:
        """A text's hypotheses as the response gives them, and the best one's attention on request:
        one scoring pass per hypothesis for all its extras."""
        described, attention = [], None
        for rank, hypothesis in enumerate(found):
            traced = request.return_alignments or request.return_confidence or (rank == 0 and request.return_attention)
            trace = trace_translation(model, tokenizer, text, target=hypothesis.text) if traced else None
            described.append({"text": hypothesis.text, "score": round(hypothesis.score, 4),
                              "log_prob": round(hypothesis.log_prob, 4),
                              **trace_extras(trace, request.return_alignments, request.return_confidence)})
            if rank == 0 and request.return_attention:
                attention = trace.to_dict()
        return described, attention

    def attention_of(text: str, translation: str) -> dict:
        return trace_translation(model, tokenizer, text, target=translation).to_dict()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        async with Batcher(run_batch, settings.max_batch, settings.batch_window_ms / 1000,
                           settings.max_queued) as batcher:
            app.state.batcher = batcher
            yield

    app = FastAPI(title=f"attnmt: {name}", description=__doc__.split("\n\n")[0], lifespan=lifespan)
    app.router.route_class = StrictJSONRoute
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(BodyDeadline, seconds=settings.body_timeout_s)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app.add_middleware(SecurityHeaders, policy=content_policy(page_html(name)))
    add_error_handlers(app)

    @app.post("/translate", response_model=TranslateResponse, response_model_exclude_none=True, responses=ERRORS)
    async def translate_texts(request: TranslateRequest) -> TranslateResponse:
        """Translates ``text`` or ``texts``; concurrent requests are batched together."""
        texts = check_limits(request, tokenizer, settings, max_tokens)
        batcher: Batcher = app.state.batcher
        try:
            options = request.options()
            results = await batcher.translate(texts, options)
            hypotheses = attention = None
            if options.hypotheses:
                described = [await batcher.call(describe, text, found, request)
                             for text, found in zip(texts, results, strict=True)]
                hypotheses = [each for each, _ in described]
                attention = [each for _, each in described] if request.return_attention else None
                translations = [found[0].text if found else "" for found in results]
            else:
                translations = results
                if request.return_attention:
                    attention = [await batcher.call(attention_of, text, translation)
                                 for text, translation in zip(texts, translations, strict=True)]
        except Busy:
            raise
        except UserError as error:  # a glossary term the vocabulary cannot write
            raise HTTPException(422, str(error)) from None
        except Exception as error:  # noqa: BLE001 - the model failed; say so, keep serving
            raise HTTPException(500, f"translation failed: {type(error).__name__}: {error}") from None
        return TranslateResponse(translations=translations, hypotheses=hypotheses, attention=attention)

    @app.get("/health", response_model=Health)
    async def health() -> Health:
        """The model being served and the server's limits."""
        batcher: Batcher = app.state.batcher
        return Health(status="ok", model=name, vocab_size=model.config.vocab_size, device=str(device),
                      parameters=parameters, max_input_tokens=max_tokens,
                      limits=asdict(settings), batches=batcher.batches, translated=batcher.batched_texts)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> str:
        return page_html(name)

    return app


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(model: Transformer, tokenizer: TextCodec, name: str, host: str = "127.0.0.1", port: int = 8000,
          settings: ServeSettings | None = None, parameters: int | None = None,
          allowed_hosts: Sequence[str] = ()) -> None:
    """Serves ``model`` (the inference copy ``attnmt serve`` loads: attnmt.app.options.load_for_translation)
    as ``name`` until Ctrl-C or SIGTERM; ``parameters``: as for ``create_app``.  On loopback it answers
    only to loopback names and ``allowed_hosts``; elsewhere to any name, unless ``allowed_hosts``
    lists some."""
    settings = settings or ServeSettings()
    hosts = [*LOOPBACK_NAMES, host, *allowed_hosts] if is_loopback(host) else (list(allowed_hosts) or None)
    app = create_app(model, tokenizer, name, settings, parameters, hosts)
    if not is_loopback(host):
        print(f"attnmt: serving on {host}: anyone who can reach this machine can use the model "
              "(there is no authentication)", file=sys.stderr)
    print(f"serving {name} at http://{host}:{port}/ (API: POST /translate, docs: /docs); Ctrl-C stops",
          file=sys.stderr)
    run_until_stopped(app, host, port, settings.header_timeout_s, settings.shutdown_timeout_s)
    print("attnmt: server stopped", file=sys.stderr)
