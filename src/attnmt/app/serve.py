"""A translation server: an HTTP API and a web page over one loaded model (FastAPI on uvicorn).

::

    POST /translate  {"text": "A dog runs."} or {"texts": [...]}, options beam, max_length, return_attention
                     -> {"translations": [...]}  (+ "attention": one viewer data object per text, on request)
    GET  /health     -> model name, vocabulary size, device, limits
    GET  /           -> the page: a text box, Translate, the output and its attention (attnmt.app.page)
    GET  /docs       -> OpenAPI documentation (/openapi.json: the schema)

Concurrent requests are translated together (``attnmt.app.batching``), in a thread
that owns the model, so the event loop stays free to accept and answer.  Every
limit answers with a status and a sentence saying what was wrong: 422 for a
malformed request (bad JSON, unknown or mistyped fields, empty text), 413 for
too much (too many texts, text too long, body too large), 503 when the queue is
full.
"""

from __future__ import annotations

import ipaddress
import sys
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import torch
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnmt.app.batching import Batcher, Busy
from attnmt.app.page import page_html
from attnmt.errors import ConfigError
from attnmt.inspect.align import align_one, pharaoh
from attnmt.inspect.trace import trace_translation
from attnmt.model import Transformer
from attnmt.translate import TextCodec, Translation, token_confidence, translate, translate_n_best


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

    def __post_init__(self) -> None:
        for key, value in asdict(self).items():
            if value < (0 if key == "batch_window_ms" else 1):
                raise ConfigError(f"serve setting {key} must be {'>= 0' if key == 'batch_window_ms' else '>= 1'}, "
                                  f"got {value}")


class Options(NamedTuple):
    """The decoding options of a request: only requests with equal ones share a batch."""

    beam: int
    max_length: int | None
    n_best: int = 0  # 0: translations only; n >= 1: the n best hypotheses with their scores


class TranslateRequest(BaseModel):
    """Give ``text`` (one) or ``texts`` (several), never both."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str | None = Field(None, description="one text to translate", examples=["A dog runs."])
    texts: list[str] | None = Field(None, description="several texts, translated in order")
    beam: int = Field(4, ge=1, le=16, description="beam size; 1 is greedy search")
    max_length: int | None = Field(
        None, ge=1, le=1024,
        description="most output subword tokens per translation (default 1.5 x input tokens + 10)",
    )
    return_attention: bool = Field(False, description="also return each translation's tokens and attention")
    n_best: int = Field(1, ge=1, le=16, description="hypotheses per text in 'hypotheses' (at most beam)")
    return_scores: bool = Field(False, description="return 'hypotheses': each with its score (log-prob / length "
                                "penalty) and log-prob")
    return_alignments: bool = Field(False, description="add each hypothesis's word alignment (Pharaoh pairs)")
    return_confidence: bool = Field(False, description="add each hypothesis's pieces with their probabilities")

    @property
    def wants_hypotheses(self) -> bool:
        return self.n_best > 1 or self.return_scores or self.return_alignments or self.return_confidence

    @model_validator(mode="after")
    def one_nonblank_text_or_texts(self) -> TranslateRequest:
        if (self.text is None) == (self.texts is None):
            raise ValueError('give either "text": "..." or "texts": ["...", ...]')
        if self.texts == []:
            raise ValueError('"texts" is empty: give at least one text')
        if self.n_best > self.beam:
            raise ValueError(f'"n_best" {self.n_best} needs "beam" {self.n_best} or more (got {self.beam})')
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
        tokens = len(tokenizer.encode(text))
        if tokens == 0:
            raise HTTPException(422, f"{where} has nothing to translate: only spaces or invisible characters")
        if tokens > max_tokens:
            raise HTTPException(413, f"{where} is {tokens} subword tokens long; this model reads at most "
                                     f"{max_tokens}: split it into sentences")
    return [text for _, text in named]


class BodyLimit:
    """ASGI middleware: 413 for a request body over ``max_bytes``, before reading it when it
    declares its length, else as soon as the bytes read pass the limit."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
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
        problems = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                    for e in error.errors()]
        detail = "; ".join(describe(problem) for problem in problems) or "invalid request"
        return JSONResponse({"detail": detail, "errors": problems}, status_code=422)

    @app.exception_handler(Busy)
    async def busy(request: Request, error: Busy) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503, headers={"Retry-After": "1"})


def describe(problem: dict) -> str:
    """One validation problem as text, e.g. 'beam: Input should be greater than or equal to 1'."""
    loc, message = problem["loc"], problem["msg"].removeprefix("Value error, ")
    if problem["type"] == "json_invalid":
        return f"the body is not valid JSON ({message} at character {loc[-1]})"
    where = ".".join(str(part) for part in loc[1:] if loc[:1] == ["body"]) or "body"
    if where == "body" and problem["type"] in ("missing", "model_attributes_type", "dict_type"):
        return 'the body must be a JSON object, e.g. {"text": "A dog runs."}'
    if problem["type"] == "extra_forbidden":
        return f"unknown field {where!r}: the fields are {', '.join(TranslateRequest.model_fields)}"
    return message if where == "body" else f"{where}: {message}"


def create_app(model: Transformer, tokenizer: TextCodec, name: str = "model",
               settings: ServeSettings | None = None, parameters: int | None = None) -> FastAPI:
    """The FastAPI application serving ``model`` (in eval mode); the batcher runs while it does.

    ``parameters``: the trained model's parameter count, for /health, where ``model`` is an
    inference copy (packed layers hold their weights outside ``parameters()``); default: counted."""
    settings = settings or ServeSettings()
    if parameters is None:
        parameters = model.num_parameters()
    model.eval()
    max_tokens = model.config.max_positions - 2
    device = next(model.parameters()).device

    def run_batch(texts: list[str], options: Options) -> list:
        a, b = (1.5, 10) if options.max_length is None else (0.0, options.max_length)
        if options.n_best:
            return translate_n_best(model, tokenizer, texts, options.n_best, beam_size=options.beam,
                                    max_len_a=a, max_len_b=b)
        return translate(model, tokenizer, texts, beam_size=options.beam, max_len_a=a, max_len_b=b)

    def describe(text: str, hypothesis: Translation, request: TranslateRequest) -> dict:
        described = {"text": hypothesis.text, "score": round(hypothesis.score, 4),
                     "log_prob": round(hypothesis.log_prob, 4)}
        if request.return_alignments:
            described["alignment"] = pharaoh(align_one(model, tokenizer, text, hypothesis.text))
        if request.return_confidence:
            described["confidence"] = [[piece, round(p, 4)]
                                       for piece, p in token_confidence(model, tokenizer, text, hypothesis.text)]
        return described

    def attention_of(text: str, translation: str) -> dict:
        return trace_translation(model, tokenizer, text, target=translation).to_dict()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        async with Batcher(run_batch, settings.max_batch, settings.batch_window_ms / 1000,
                           settings.max_queued) as batcher:
            app.state.batcher = batcher
            yield

    app = FastAPI(title=f"attnmt: {name}", description=__doc__.split("\n\n")[0], lifespan=lifespan)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    add_error_handlers(app)

    @app.post("/translate", response_model=TranslateResponse, response_model_exclude_none=True, responses=ERRORS)
    async def translate_texts(request: TranslateRequest) -> TranslateResponse:
        """Translates ``text`` or ``texts``; concurrent requests are batched together."""
        texts = check_limits(request, tokenizer, settings, max_tokens)
        batcher: Batcher = app.state.batcher
        try:
            n_best = request.n_best if request.wants_hypotheses else 0
            results = await batcher.translate(texts, Options(request.beam, request.max_length, n_best))
            hypotheses = None
            if n_best:
                hypotheses = [[await batcher.call(describe, text, h, request) for h in found]
                              for text, found in zip(texts, results, strict=True)]
                translations = [found[0].text if found else "" for found in results]
            else:
                translations = results
            attention = None
            if request.return_attention:
                attention = [await batcher.call(attention_of, text, translation)
                             for text, translation in zip(texts, translations, strict=True)]
        except Busy:
            raise
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


def serve(model_dir: str | Path, host: str = "127.0.0.1", port: int = 8000, weights: str | Path | None = None,
          settings: ServeSettings | None = None, threads: int = 0, int8: bool = False,
          device: str = "cpu", bf16: bool = False, shortlist: str | Path | None = None) -> None:
    """Loads MODEL_DIR onto ``device`` and serves it until Ctrl-C, through the same fast copy as
    ``attnmt translate`` (int8 linear layers with ``int8``, bf16 ones with ``bf16``: refused with
    one line where the CPU does not multiply bf16).  ``threads``: PyTorch's CPU threads (0: its
    default).  ``shortlist``: a vocabulary shortlist file (attnmt.fast.shortlist)."""
    import uvicorn

    from attnmt.checkpoint import load_model_dir
    from attnmt.fast import prepare
    from attnmt.fast.prepared import load_int8

    if threads > 0:
        torch.set_num_threads(threads)
    if int8 and device == "cpu":  # prepared once, then memory-mapped (attnmt.fast.prepared)
        fast, tokenizer = load_int8(model_dir, weights)
    else:
        model, tokenizer = load_model_dir(model_dir, weights)
        fast = prepare(model.to(device), int8=int8, bf16=bf16)
    if shortlist:
        from attnmt.fast.shortlist import Shortlist, use_shortlist

        use_shortlist(fast, Shortlist.load(shortlist))
    app = create_app(fast, tokenizer, Path(model_dir).resolve().name, settings, fast.trained_parameters)
    if not is_loopback(host):
        print(f"attnmt: serving on {host}: anyone who can reach this machine can use the model "
              "(there is no authentication)", file=sys.stderr)
    print(f"serving {model_dir} at http://{host}:{port}/ (API: POST /translate, docs: /docs); Ctrl-C stops",
          file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
