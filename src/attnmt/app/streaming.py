"""``POST /translate/stream``: a translation sent as it grows, as server-sent events.

::

    POST /translate/stream  {"q": "A dog runs.", "source": "en", "target": "de"[, "api_key"]}
                            (source and target may be left out: the first model)
    event: partial   data: {"translatedText": "Ein"}
    event: partial   data: {"translatedText": "Ein Hund"}
    ...
    event: done      data: {"translatedText": "Ein Hund rennt."}

Streaming decodes greedily (beam 1), one token a step, and sends the output after
each step.  Beam search is not streamed: its leading hypothesis can change from one
step to the next (and the best finished one may be shorter than a prefix already
shown), so a display of it would rewrite itself; greedy search only ever appends.
A stream runs alone in its model's thread, between batches, and stops at the next
step when its client goes away.  Errors before the first event answer as
LibreTranslate's do (attnmt.app.libretranslate); one after it is an ``error`` event.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator

import torch
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from attnmt.app.context import Server
from attnmt.app.libretranslate import LibreError, admit, detected, model_for, parameters, texts_of
from attnmt.app.served import ServedModel, TooMuch
from attnmt.decoder_state import DecoderState, output_limits
from attnmt.decoding import Decoding
from attnmt.translate import evaluating, source_batches

GREEDY = Decoding(beam_size=1)


class Gone(Exception):
    """The client left: the search stops."""


def growing_translation(served: ServedModel, text: str) -> Iterator[str]:
    """The greedy translation of ``text`` after each decoding step (the last one is the translation)."""
    model, c = served.model, served.model.config
    with evaluating(model), torch.inference_mode():
        [(_, src)] = source_batches(model, served.tokenizer, [text], max_tokens=1 << 30, max_sentences=1)
        limit = int(output_limits(model, src, GREEDY)[0])
        state = DecoderState.start(model, src, use_cache=True)
        if state.cache is not None:
            state.cache.reserve(limit)
        tokens: list[int] = []
        while len(tokens) < limit:
            banned = sorted({c.pad_id, c.bos_id, *([c.eos_id] if len(tokens) < GREEDY.min_len else [])})
            token = state.choose.best_tokens(state.logits(), banned)  # [1]
            if int(token) == c.eos_id:
                return
            tokens.append(int(token))
            yield served.tokenizer.decode(tokens)
            state.extend(token)


def run_stream(served: ServedModel, text: str, send: Callable[[str], None], gone: threading.Event) -> None:
    """In the model's thread: sends each step's translation until the end or until ``gone``."""
    for partial in growing_translation(served, text):
        if gone.is_set():
            raise Gone
        send(partial)


def event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def events(served: ServedModel, text: str) -> AsyncIterator[str]:
    """The stream's events, while the search runs in the model's thread."""
    loop = asyncio.get_running_loop()
    partials: asyncio.Queue[str] = asyncio.Queue()
    gone = threading.Event()
    search = asyncio.ensure_future(served.batcher.call(
        run_stream, served, text, lambda partial: loop.call_soon_threadsafe(partials.put_nowait, partial), gone))
    last = ""
    try:
        while not (search.done() and partials.empty()):
            getting = asyncio.ensure_future(partials.get())
            await asyncio.wait([getting, search], return_when=asyncio.FIRST_COMPLETED)
            if getting.done():
                last = getting.result()
                yield event("partial", {"translatedText": last})
            else:
                getting.cancel()
        search.result()
        yield event("done", {"translatedText": last})
    except Exception as error:  # noqa: BLE001 - the stream has begun: say so in it
        yield event("error", {"error": f"Cannot translate text: {type(error).__name__}: {error}"})
    finally:
        gone.set()  # a client that left stops the search at its next step
        search.add_done_callback(lambda done: done.cancelled() or done.exception())  # Gone is expected


def add_streaming_route(app: FastAPI, server: Server) -> None:
    @app.post("/translate/stream", tags=["streaming"])
    async def translate_stream(request: Request) -> StreamingResponse:
        """One text's greedy translation as it grows: server-sent events ``partial``, then ``done``."""
        params, body = await parameters(request)
        admit(server, request, params)
        if isinstance(params.get("q"), list):
            raise LibreError(400, "Invalid request: a stream translates one text: q must be a text, not a list")
        [text] = texts_of(server, params, body is not None)
        source, target = params.get("source"), params.get("target")
        if source or target:
            if source == "auto":
                source = (await detected(server, [text], target or ""))["language"]
            served = model_for(server, source or "", target or "")
        else:
            served = server.models.default
        try:
            served.check_texts([("q", text)], server.settings)
        except (TooMuch, ValueError) as error:
            raise LibreError(400, f"Invalid request: {error}") from None
        server.record(request, served, [text], [])
        return StreamingResponse(events(served, text), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})
