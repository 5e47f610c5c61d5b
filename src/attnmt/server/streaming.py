"""``POST /translate/stream``: a translation sent as it grows, as server-sent events.

::

    POST /translate/stream  {"q": "A dog runs.", "source": "en", "target": "de"[, "beam": 4][, "api_key"]}
                            (source and target may be left out: the first model; "format" only "text";
                            no "alternatives")
    event: partial   data: {"translatedText": "Ein"}
    event: partial   data: {"translatedText": "Ein Hund"}
    ...
    event: done      data: {"translatedText": "Ein Hund rennt."}
                     (and "detectedLanguage": {"confidence", "language"} for source "auto", as /translate;
                     a text in the target language already: this event alone, the text as it is)

Every event carries the whole text so far, never a delta: a client shows each one in place
of the last.  A text of several sentences is split as ``attnmt translate`` splits it, and its
sentences are searched one after another: each event joins the translations of the sentences
done and the best hypothesis so far of the one being searched, as ``done`` joins them, and ends
with that hypothesis (what comes after it, a sentence repeated included, waits for its search).  Each
sentence's search is the one ``POST /v1/translate`` runs for it with the same
``beam`` (by default attnmt's, as ``POST /translate`` uses), and after each step a ``partial`` event sends the
best hypothesis so far (attnmt.decoding.search.best_so_far), when its text changed: the leading
active hypothesis, or a finished one that scores higher than every active one.  With
``beam`` 1 (greedy search) each text extends the last; with a wider beam a later one may
rewrite it, even shorten it (a shorter hypothesis finishes and wins).  ``done`` carries the
translation, exactly what those endpoints answer.

A stream runs alone in its model's thread, between batches, and stops at the next step
when its client goes away.  Errors before the first event answer as LibreTranslate's do
(attnmt.server.libretranslate); one after it is an ``error`` event, as is the end of a stream
still running when a stopping server's ``--shutdown-timeout`` runs out.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from functools import partial

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from attnmt.config_ranges import written_whole_number
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.capitals import read_as, written_as
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.inputs import padded_sources
from attnmt.decoding.quality import Assessment
from attnmt.decoding.search import Hypothesis, beam_search
from attnmt.documents.paragraphs import traced_weights
from attnmt.documents.pipeline import paragraph_sentences, translate_paragraphs
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import Plausibility
from attnmt.documents.translators import FoundTranslations
from attnmt.server.api_errors import LibreError
from attnmt.server.auto_source import detected, given_back
from attnmt.server.batcher import MODEL_LOG, Busy
from attnmt.server.client_text import log_failure, what_failed
from attnmt.server.context import Server
from attnmt.server.libre_requests import (
    FIELDS,
    alternatives_of,
    check_unicode,
    json_body,
    language_of,
    parameters,
    refusals_worded,
    texts_of,
)
from attnmt.server.libretranslate import admit, model_for
from attnmt.server.models import MOST_BEAM, ServedModel, TooMuch
from attnmt.server.sent_events import event
from attnmt.server.text_charges import charge, forgive

# The stream's body in the OpenAPI schema: LibreTranslate's fields for one text, and the beam.
STREAM_FIELDS = {"q": {"type": "string"}, "source": FIELDS["source"], "target": FIELDS["target"],
                 "format": {"type": "string", "enum": ["text"]},
                 "beam": {"type": "integer", "minimum": 1, "maximum": MOST_BEAM, "default": DEFAULT.beam_size},
                 "api_key": FIELDS["api_key"]}


class Gone(Exception):
    """The client left: the search stops."""


# Follows the hypothesis of the sentence being searched in the text joined so far, to cut the text
# after its first place: a lone surrogate, which no request's text holds (check_unicode refuses it).
SEARCHED_END = "\udfff"


def run_stream(served: ServedModel, text: str, decoding: Decoding, send: Callable[[str], None],
               gone: threading.Event, done: dict[str, str] | None = None, as_read: dict[str, str] | None = None,
               ) -> str:
    """In the model's thread: searches the translation of each of ``text``'s sentences in turn as
    ``translate`` does, sending the text so far after each step where it changed, until the end
    (returns the translation) or until ``gone`` (raises Gone).  The text so far is the translation
    up to the first place of the sentence being searched (the sentences before it are all done, the
    parts without letters before it pass through) and its best hypothesis, cut there: a sentence
    that comes again later, and the parts after it, wait for the whole translation, or each update
    would show them ahead of the search, the later sentences as gaps.  ``done``, where given,
    receives each sentence's translation, and ``as_read`` each sentence as the model read it with the
    model's own translation (a sentence in capitals: in sentence case, attnmt.decoding.capitals), which
    its quality is assessed on, as translate assesses it."""
    model, tokenizer, options = served.model, served.tokenizer, served.document_options
    done = {} if done is None else done
    shown = ""
    # a sentence longer than the model reads is parted, and the symbols its vocabulary cannot write are
    # kept, as translate parts and keeps them: read whole, such a sentence was cut at the model's longest input
    fits, writes = served.fits, served.writes

    def joined(translations: dict[str, str], weigh: Callable[[str, str], Weights] | None = None,
               judge: Plausibility | None = None) -> str:
        found = FoundTranslations(translations, weigh, fits=fits, writes=writes, plausibility=judge)
        return translate_paragraphs([text], found, options)[0]

    def step(best: dict[int, Hypothesis]) -> None:
        nonlocal shown
        if gone.is_set():
            raise Gone
        marked = joined({**done, sentence: written_as(sentence, tokenizer.decode(best[0].tokens), read) + SEARCHED_END})
        so_far = marked[:marked.index(SEARCHED_END)].rstrip()
        if so_far != shown:
            shown = so_far
            send(so_far)

    with evaluating(model):
        for sentence in dict.fromkeys(paragraph_sentences(text, options, fits=fits, writes=writes)):
            # a sentence in capitals read in sentence case, as translate reads it (attnmt.decoding.capitals)
            read = read_as(sentence, None, lambda text: len(tokenizer.encode(text)))
            [(_, src)] = padded_sources(model, tokenizer, [read], max_tokens=1 << 30, max_sentences=1)
            [[found, *_]] = beam_search(model, src, decoding, on_step=step)
            done[sentence] = written_as(sentence, tokenizer.decode(found.tokens), read)
            if as_read is not None:
                as_read[read] = tokenizer.decode(found.tokens)
    # a URL inside a sentence placed by the weights; a field's name the model garbled keeps its source, as translate's
    return joined(done, partial(traced_weights, model, tokenizer), served.plausibility)


async def events(served: ServedModel, text: str, decoding: Decoding, quality: bool = False,
                 translated: Callable[[str], None] = lambda _: None, said: dict | None = None,
                 failed: Callable[[], None] = lambda: None) -> AsyncIterator[str]:
    """The stream's events, while the search runs in the model's thread; the last one, ``done``, with
    the translation's quality where ``quality`` (ServeSettings.quality) and the fields of ``said``
    (the detected language), once ``translated`` has been handed the translation (for the access
    log, written when the stream ends); ``failed`` is called where the model fails on it, before its
    ``error`` event."""
    loop = asyncio.get_running_loop()
    partials: asyncio.Queue[str] = asyncio.Queue()
    gone = threading.Event()

    def send(partial: str) -> None:  # called in the model's thread
        loop.call_soon_threadsafe(partials.put_nowait, partial)

    done: dict[str, str] = {}
    as_read: dict[str, str] = {}
    search = asyncio.ensure_future(served.batcher.call(run_stream, served, text, decoding, send, gone, done, as_read))
    getting: asyncio.Future[str] | None = None
    try:
        while not (search.done() and partials.empty()):
            getting = asyncio.ensure_future(partials.get())
            await asyncio.wait([getting, search], return_when=asyncio.FIRST_COMPLETED)
            if getting.done():
                yield event("partial", {"translatedText": getting.result()})
            else:
                getting.cancel()
        translation = search.result()
        translated(translation)
        assessed = await served.batcher.call(served.assessed_text, text, translation, as_read) if quality else None
        yield event("done", {"translatedText": translation, **(assessed.fields() if assessed else {}), **(said or {})})
    except Busy as error:  # the server is stopping, and the stream is out of time
        yield event("error", {"error": str(error)})
    except Exception as error:  # noqa: BLE001 - the stream has begun: say so in it (what failed, not on what)
        failed()
        log_failure(MODEL_LOG, f"{served.batcher.the_model} failed on a stream of 1 text", error, [text],
                    served.batcher.log_text)
        yield event("error", {"error": f"Cannot translate text: {what_failed(error, [text])}"})
    finally:
        gone.set()  # a client that left stops the search at its next step
        if getting is not None:  # a client that left while it waited: no more partials will come
            getting.cancel()
        search.add_done_callback(lambda done: done.cancelled() or done.exception())  # Gone is expected


async def as_it_is(text: str, assessed: Assessment | None, said: dict) -> AsyncIterator[str]:
    """The stream of a text already in the target language (attnmt.server.auto_source): its ``done``
    event alone, the text as it is, its quality where ``assessed`` (given_back), and ``said``."""
    yield event("done", {"translatedText": text, **(assessed.fields() if assessed else {}), **said})


def beam_of(params: dict) -> int:
    """The request's ``beam`` (a number, or its digits in a form), by default attnmt's."""
    beam = params.get("beam", DEFAULT.beam_size)
    if isinstance(beam, str):
        beam = written_whole_number(beam)
    if isinstance(beam, bool) or not isinstance(beam, int) or not 1 <= beam <= MOST_BEAM:
        raise LibreError(400, f"Invalid request: beam must be a whole number from 1 to {MOST_BEAM}")
    return beam


def check_format(params: dict) -> None:
    """LibreError (400) for a ``format`` other than text, in the words ``POST /translate`` has for
    one it does not know: the stream searches plain text sentence by sentence, and HTML's tags are
    carried over only once a sentence's translation is whole (POST /translate does that)."""
    stream_format = params.get("format") or "text"
    if stream_format != "text":
        raise LibreError(400, f"{stream_format} format is not supported by /translate/stream, which streams plain "
                              "text: send html to POST /translate")


def check_alternatives(server: Server, params: dict) -> None:
    """LibreError (400) for ``alternatives`` asked of the stream, read as ``POST /translate`` reads
    them: the stream sends one translation, and a client asking for more got none, without a word."""
    if alternatives_of(server, params):
        raise LibreError(400, "Invalid request: /translate/stream sends one translation, without alternatives: "
                              "send alternatives to POST /translate")


def add_streaming_route(app: FastAPI, server: Server) -> None:
    @app.post("/translate/stream", tags=["streaming"], openapi_extra=json_body(["q"], STREAM_FIELDS))
    async def translate_stream(request: Request) -> StreamingResponse:
        """One text's translation as it grows: server-sent events ``partial`` (the whole text so far
        each time; with beam > 1 it may change), then ``done``."""
        params, _ = await parameters(request)
        check_unicode(params)
        admit(server, request, params)
        if isinstance(params.get("q"), list):
            raise LibreError(400, "Invalid request: a stream translates one text: q must be a text, not a list")
        check_format(params)
        check_alternatives(server, params)
        settings = server.settings_for(request)
        [text] = texts_of(settings, params)
        decoding = Decoding(beam_size=beam_of(params))
        said = {}
        if params.get("source") or params.get("target"):  # both, or neither (the default model)
            source, target = (language_of(params, name, server.models.codes()) for name in ("source", "target"))
            if source == "auto":
                [said["detectedLanguage"]] = await detected(server, [text], target)
                source = said["detectedLanguage"]["language"]
            if source == target and target in server.models.codes():  # in it already: as /translate answers it
                with refusals_worded():  # and charges it, and logs it so
                    charge(server, request, [text])
                server.note_whole(request, [text], [text], 1)
                assessed = given_back(server, target) if settings.quality else None
                return StreamingResponse(as_it_is(text, assessed, said), media_type="text/event-stream",
                                         headers={"Cache-Control": "no-cache"})
            served = model_for(server, source, target)
        else:
            served = server.models.default
        try:
            served.check_texts([("q", text)], settings)
        except TooMuch as error:
            raise LibreError(400, f"Invalid request: {error}") from None
        with refusals_worded():
            charge(server, request, [text])
        server.record(request, served, [text], [])  # the translation: once done (--log-text)
        # a stream the model fails on gives back its key's characters, as a 500 of POST /translate does
        stream = events(served, text, decoding, settings.quality,
                        lambda translation: server.record_translations(request, [translation]), said,
                        partial(forgive, server, request))
        return StreamingResponse(stream, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
