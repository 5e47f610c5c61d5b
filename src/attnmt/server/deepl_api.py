"""DeepL's API v2, so that DeepL's clients (the official deepl-python and deepl-node, and the tools
built on them) can use attnmt's models by pointing their server URL here::

    POST /v2/translate  text (repeated in a form, a list in JSON), target_lang, source_lang (none:
                        detected, per text), tag_handling (html or xml: tags carried over; xml written as XML)
                        -> {"translations": [{"detected_source_language": "EN", "text": ...}, ...]}
                        (show_billed_characters: each with "billed_characters", the characters sent)
    GET|POST /v2/languages?type=source|target -> [{"language", "name"[, "supports_formality"]}, ...]
    GET|POST /v2/usage  -> {"character_count": 0, "character_limit": 1000000000000}: no quota is kept
    GET  /v2/glossary-language-pairs -> {"supported_languages": []}: no glossary is kept
    GET  /v2/glossaries -> {"glossaries": []}; POST /v2/glossaries -> 400, saying none is kept
    GET|DELETE /v2/glossaries/{id}, GET /v2/glossaries/{id}/entries -> 404, saying none is kept
    POST /v2/document, /v2/document/{id}, /v2/document/{id}/result: a file (attnmt.server.deepl_documents)
    GET  /v3/glossaries, /v3/style_rules, /v3/translation_memories -> {"glossaries": []} (and so on); POST -> 400
    GET|PATCH|DELETE /v3/glossaries/{id}, its /entries and /dictionaries -> 404, saying none is kept

The key comes as DeepL's clients send it, ``Authorization: DeepL-Auth-Key KEY`` (or the older
``auth_key`` parameter), and counts against the limits of attnmt's keys file (attnmt.server.access).
Errors are ``{"message": "..."}`` with DeepL's statuses: 400 a bad request, 413 over a text limit (or a request of more
characters than its key may have a minute), 403 a missing or unknown key, 429 over a rate limit (requests or the key's
characters a minute), 500 when the model fails, 503 when the queue is full (charged nothing).  No 456: no quota for
a billing period is kept (/v2/usage), and a minute's window has room again within a minute, as a 429 says.

What DeepL's options ask that no model here can do is refused, never dropped without a word: a
``formality`` of ``more`` or ``less`` (``prefer_…`` falls back, as DeepL's does), a ``glossary_id`` or ``glossary_ids``,
``custom_instructions``, a ``style_id`` or a ``translation_memory_id``.
An ``ignore_tags`` element is kept whole, its text as sent (attnmt.server.deepl_tags).
``split_sentences`` and ``preserve_formatting`` are read as DeepL reads them (attnmt.server.deepl_text);
With ``tag_handling=xml``, ``splitting_tags`` and ``non_splitting_tags`` name the elements that end a sentence, and
those never read as blocks of their own (attnmt.server.deepl_tags.splits_of).
``context`` and ``model_type``, which change only which of DeepL's models answers and how, are read past; so are
``tag_handling_version`` and ``outline_detection``: markup's other sentences are found as attnmt.documents finds them
(docs/serving.md).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

from fastapi import FastAPI, Request

from attnmt.server.access import Refused, utf8_header
from attnmt.server.api_errors import DeepLError, LibreError
from attnmt.server.auto_source import detected
from attnmt.server.context import Server
from attnmt.server.deepl_tags import (
    TagError,
    check_xml,
    empty_as_sent,
    mark_for,
    marked_ignored,
    splits_of,
    tag_names,
    unmarked,
)
from attnmt.server.deepl_text import as_formatted, as_split, line_breaks, preserved, split_of
from attnmt.server.detect import language_name
from attnmt.server.libre_requests import (
    check_unicode,
    form_items,
    json_body,
    language_of,
    parameters,
)
from attnmt.server.libretranslate import model_for, translated_by_source
from attnmt.server.markup_texts import NO_SPLITS
from attnmt.server.models import TooMuch
from attnmt.server.text_charges import logged_charge
from attnmt.server.v1_api import is_json, media_type_of

# DeepL's target codes for a language it writes in more than one variety (EN alone is deprecated there)
VARIETIES = {"en": ("EN-GB", "EN-US"), "pt": ("PT-BR", "PT-PT")}
# Every target code of DeepL's that names a region or script, as its documentation lists them (the variants its
# glossaries are not made for); it refuses any other, such as a browser's DE-DE
TARGET_VARIANTS = ("DE-CH", "EN-GB", "EN-US", "ES-419", "ES-ES", "FR-CA", "FR-CH", "IT-CH", "PT-BR", "PT-PT",
                   "ZH-HANS", "ZH-HANT")
# DeepL's own answer for an account without a character limit
NO_LIMIT = 1_000_000_000_000
# formality values DeepL's clients send: "prefer_…" falls back to the default where a language has none
FORMALITY = ("default", "prefer_more", "prefer_less")  # tuples: JSON may send a list, unhashable
TAG_HANDLING = ("html", "xml")
SHOWN = (True, "1", "true")  # show_billed_characters as deepl-python sends it in JSON and in a form
GLOSSARIES = "it keeps no glossaries (attnmt's /v1/translate takes one with each request)"
# DeepL's options that would change a translation in a way no model here can; what a client may do instead.
# glossary_ids is deepl-python's several glossaries at once: a JSON list for a text, one comma-separated field
# for a document
UNSUPPORTED = {"glossary_id": GLOSSARIES, "glossary_ids": GLOSSARIES,
               "custom_instructions": "no model here takes instructions: each translates as it was trained",
               "style_id": "it keeps no style rules", "translation_memory_id": "it keeps no translation memories"}
# What DeepL's API v3 keeps for an account (deepl-python's DeepLClient lists each under its own name) and the
# translate option that names one: this server keeps none, for the reason UNSUPPORTED gives for that option
KEPT = {"glossaries": "glossary_id", "style_rules": "style_id", "translation_memories": "translation_memory_id"}
# A Refused reason's status in DeepL's API: it answers 403 to a missing key as to a wrong one
REFUSED = {"missing": 403, "invalid": 403, "slow": 429, "large": 413}
T = TypeVar("T")
# DeepL's translate fields that this server reads, as the OpenAPI schema gives them
FIELDS = {"text": {"type": "array", "items": {"type": "string"}},
          "target_lang": {"type": "string", "description": 'a language code, such as "DE" or "EN-US"'},
          "source_lang": {"type": "string", "description": "none: each text's language detected"},
          "tag_handling": {"type": "string", "enum": list(TAG_HANDLING)},
          "ignore_tags": {"type": "array", "items": {"type": "string"}, "description": "elements kept as sent"},
          "splitting_tags": {"type": "array", "items": {"type": "string"},
                             "description": "XML elements that end a sentence"},
          "non_splitting_tags": {"type": "array", "items": {"type": "string"},
                                 "description": "XML elements never read as blocks of their own"},
          "formality": {"type": "string", "enum": list(FORMALITY)}}


def deepl_key(request: Request, params: dict) -> object:
    """The key of ``Authorization: DeepL-Auth-Key KEY``, else the older ``auth_key`` parameter."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return utf8_header(token.strip()) if scheme.lower() == "deepl-auth-key" else params.get("auth_key")


async def deepl_parameters(request: Request) -> dict:
    """The request's parameters (a JSON object, or a form, url-encoded or multipart, and the query:
    ``text`` given once a text, every other name its first value)."""
    media = media_type_of(request)
    if is_json(media):
        return (await parameters(request))[0]
    items = await form_items(request, media, '{"text": […], "target_lang": …}')
    params: dict = {"text": [value for name, value in items if name == "text"]}
    for name, value in items:
        params.setdefault(name, value)
    return params


def texts_of(server: Server, request: Request, params: dict) -> list[str]:
    """``text`` as a list of texts, within the server's count and character limits."""
    text = params.get("text")
    texts = [text] if isinstance(text, str) else text
    if not texts:
        raise DeepLError(400, "Parameter 'text' not specified.")
    if not isinstance(texts, list) or not all(isinstance(each, str) for each in texts):
        raise DeepLError(400, "Parameter 'text' must be a text or a list of texts.")
    settings = server.settings_for(request)
    if len(texts) > settings.max_texts:
        raise DeepLError(413, f"{len(texts)} texts; at most {settings.max_texts} in one request")
    for i, each in enumerate(texts):
        if len(each) > settings.max_chars:
            raise DeepLError(413, f"text[{i}] has {len(each)} characters; at most {settings.max_chars} in one text")
    if (total := sum(map(len, texts))) > settings.max_request_chars:
        raise DeepLError(413, f"the texts have {total} characters; at most {settings.max_request_chars} in one request")
    return texts


def served_language(params: dict, name: str, codes: list[str]) -> str:
    """The code ``name`` gives (libre_requests.language_of: "EN-US" is en where en is served); 400 in
    DeepL's words, naming the parameter and what is served, for a language no model here reads or writes."""
    code = language_of(params, name, codes)
    if code not in codes:
        served = ", ".join(each.upper() for each in codes)
        raise DeepLError(400, f"Value for '{name}' not supported: {params[name]!r}; the languages served here "
                              f"are {served} (/v2/languages lists them)")
    return code


def served_source(params: dict, codes: list[str]) -> str:
    """``source_lang``'s code (served_language); 400 in DeepL's words for one with a region or script ("EN-GB",
    "PT-BR") that is no served code itself: DeepL lists those among its targets alone and refuses them as a source,
    so a client that works here would fail against DeepL.  It names the code to send instead."""
    sent = params["source_lang"]
    if isinstance(sent, str) and (language := re.split(r"[-_]", sent)[0]) != sent and sent.lower() not in codes:
        raise DeepLError(400, f"Value for 'source_lang' not supported: {sent!r}; a source language names no region "
                              f"or script, as DeepL's: send {language.upper()!r}")
    return served_language(params, "source_lang", codes)


def served_target(params: dict, codes: list[str]) -> str:
    """``target_lang``'s code (served_language); 400 in DeepL's words for one with a region or script DeepL
    has no variant for ("DE-DE", "de-AT"): read as de here, a client worked that DeepL refuses.  It names the
    code to send instead."""
    sent = params["target_lang"]
    if (isinstance(sent, str) and (language := re.split(r"[-_]", sent)[0]) != sent
            and sent.upper().replace("_", "-") not in TARGET_VARIANTS and sent.lower() not in codes):
        raise DeepLError(400, f"Value for 'target_lang' not supported: {sent!r}; DeepL's target languages name a "
                              f"region or script only in {', '.join(TARGET_VARIANTS)}: send {language.upper()!r}")
    return served_language(params, "target_lang", codes)


def checked_options(params: dict) -> str:
    """The text format DeepL's ``tag_handling`` asks for ("text", "html" or "xml": written back as XML);
    400 for an option no model here honours."""
    formality = params.get("formality") or "default"
    if formality not in FORMALITY:
        raise DeepLError(400, f"'formality' {formality!r} is not supported for given 'target_lang': no model "
                              "here is told how formal to be; send prefer_more or prefer_less to fall back")
    for name, why in UNSUPPORTED.items():
        if params.get(name):
            raise DeepLError(400, f"Parameter '{name}' is not supported by this server: {why}")
    tags = params.get("tag_handling")
    if tags and tags not in TAG_HANDLING:
        raise DeepLError(400, f"Value for 'tag_handling' not supported: {tags!r} (html or xml)")
    split_of(params)  # DeepL refuses a value it does not know whether the text's format reads it or not
    preserved(params)
    return tags or "text"


async def translate_deepl(server: Server, request: Request) -> dict:
    params = await deepl_parameters(request)
    check_unicode(params)
    server.access.admit(request, deepl_key(request, params))
    texts = texts_of(server, request, params)
    text_format = checked_options(params)
    if text_format == "xml":
        try:
            check_xml(texts)
        except TagError as error:
            raise DeepLError(400, str(error)) from None
    # DeepL reads ignore_tags only with tag_handling; the texts as sent are what is charged, logged and detected
    names = tag_names(params, "ignore_tags") if text_format != "text" else []
    mark = mark_for(texts)
    marked = marked_ignored(texts, names, text_format == "html", mark)
    marked = as_split(marked, params) if text_format == "text" else marked
    codes = server.models.codes()
    if not params.get("target_lang"):
        raise DeepLError(400, "Parameter 'target_lang' not specified.")
    target = served_target(params, codes)
    if params.get("source_lang"):
        sources = [served_source(params, codes)] * len(texts)
    else:
        read = "text" if text_format == "text" else "html"  # markup's text is read, not its tags
        sources = [found["language"] for found in await detected(server, texts, target, read)]
    # a text in the target language already needs no model: as it is, as /translate gives it back
    routed = {code: model_for(server, code, target) for code in dict.fromkeys(sources)
              if code != target or target not in codes}
    for code, served in routed.items():
        try:
            served.check_texts([(f"text[{i}]", text) for i, text in enumerate(texts) if sources[i] == code],
                               server.settings_for(request), markup=text_format == "html")
        except TooMuch as error:
            raise DeepLError(413, str(error)) from None
    # a Refused, over the key's characters a minute, is answered with DeepL's status (``answered``: 429, or 413 for
    # more than a minute holds), not in /translate's words ("Slowdown: …")
    logged_charge(server, request, texts, sum(source not in routed for source in sources))
    # DeepL's split_sentences says how line breaks are read, a text's (as_split) and a block's of markup: a line alone
    # by default but for HTML, as DeepL reads them
    tags = splits_of(params) if text_format == "xml" else NO_SPLITS  # DeepL's XML handling alone reads them
    best, _, _ = await translated_by_source(server, request, routed, sources, marked, 0, text_format, False,
                                            line_breaks(params), tags)
    best = unmarked(best, mark)
    best = as_formatted(texts, best, params) if text_format == "text" else best
    server.note_texts(request, texts, best)
    if text_format == "xml":
        best = [empty_as_sent(sent, text) for sent, text in zip(texts, best, strict=True)]
    translations: list[dict[str, str | int]] = [
        {"detected_source_language": source.upper(), "text": text} for source, text in zip(sources, best, strict=True)]
    if params.get("show_billed_characters") in SHOWN:  # what deepl-python's TextResult.billed_characters reads
        for translation, text in zip(translations, texts, strict=True):
            translation["billed_characters"] = len(text)
    return {"translations": translations}


def languages_of(server: Server, kind: str) -> list[dict]:
    """DeepL's list of the served source (``kind`` "source") or target languages."""
    if kind == "source":
        return [{"language": code.upper(), "name": language_name(code)} for code in server.models.sources()]
    if kind != "target":
        raise DeepLError(400, f"Value for 'type' not supported: {kind!r} (source or target)")
    targets = dict.fromkeys(target for _, target in server.models.by_pair)
    return [{"language": variety, "name": language_name(code), "supports_formality": False}
            for code in targets for variety in VARIETIES.get(code, (code.upper(),))]


async def answered(work: Callable[[], Awaitable[T]]) -> T:
    """``work``'s answer, the errors of the readers and models LibreTranslate's API shares with
    this one worded as DeepL words them: ``{"message"}``, with DeepL's statuses for a key and limits."""
    try:
        return await work()
    except Refused as refused:
        raise DeepLError(REFUSED[refused.reason], str(refused), refused.headers()) from None
    except LibreError as error:
        raise DeepLError(error.status, re.sub(r"^Invalid request: ", "", str(error)), error.headers) from None


def none_to_create(kept: str, params: dict) -> dict:
    """400 for a glossary, style rule or translation memory to create (``kept``, a key of KEPT): none is kept."""
    raise DeepLError(400, f"{kept.replace('_', ' ').capitalize()} are not supported by this server: "
                          f"{UNSUPPORTED[KEPT[kept]]}")


def no_such_glossary(glossary_id: str, params: dict) -> dict:
    """404 for a glossary asked for by its id, as DeepL answers one it does not have: this server keeps none."""
    why = UNSUPPORTED["glossary_id"].removeprefix("it ")
    raise DeepLError(404, f"Glossary {glossary_id!r} not found: this server {why}")


def add_deepl_routes(app: FastAPI, server: Server) -> None:
    async def answer(request: Request, reply: Callable[[dict], T]) -> T:
        """``reply`` to the request's parameters once its key is admitted, its errors in DeepL's words."""
        async def work() -> T:
            params = await deepl_parameters(request)
            server.access.admit(request, deepl_key(request, params))
            return reply(params)
        return await answered(work)

    @app.post("/v2/translate", tags=["DeepL"], openapi_extra=json_body(["text", "target_lang"], FIELDS))
    async def translate(request: Request) -> dict:
        """DeepL's translate (text, target_lang, source_lang, tag_handling, formality, ...)."""
        return await answered(lambda: translate_deepl(server, request))

    @app.get("/v2/languages", tags=["DeepL"])
    @app.post("/v2/languages", tags=["DeepL"])  # DeepL takes both
    async def languages(request: Request) -> list[dict]:
        """The served languages, as DeepL lists its source or target languages."""
        return await answer(request, lambda params: languages_of(server, params.get("type") or "source"))

    @app.get("/v2/usage", tags=["DeepL"])
    @app.post("/v2/usage", tags=["DeepL"])  # DeepL takes both
    async def usage(request: Request) -> dict:
        """No quota is kept: DeepL's answer for an account without a character limit."""
        return await answer(request, lambda _: {"character_count": 0, "character_limit": NO_LIMIT})

    @app.get("/v2/glossary-language-pairs", tags=["DeepL"])
    async def glossary_pairs(request: Request) -> dict:
        """None: no glossary is kept by this server (attnmt's /v1/translate takes one in the request)."""
        return await answer(request, lambda _: {"supported_languages": []})

    @app.get("/v2/glossaries", tags=["DeepL"])
    async def glossaries(request: Request) -> dict:
        """None, as glossary-language-pairs says: this server keeps no glossary."""
        return await answer(request, lambda _: {"glossaries": []})

    @app.post("/v2/glossaries", tags=["DeepL"])
    async def create_glossary(request: Request) -> dict:
        """400: no glossary is kept.  A 404 read to deepl-python's create_glossary as "Glossary not found"."""
        return await answer(request, partial(none_to_create, "glossaries"))

    @app.get("/v2/glossaries/{glossary_id}", tags=["DeepL"])
    @app.delete("/v2/glossaries/{glossary_id}", tags=["DeepL"])
    @app.get("/v2/glossaries/{glossary_id}/entries", tags=["DeepL"])
    async def glossary(glossary_id: str, request: Request) -> dict:
        """404: no glossary is kept.  A bare 404 "Not Found", without a key checked, said nothing of why."""
        return await answer(request, partial(no_such_glossary, glossary_id))

    for kept in KEPT:
        add_kept_routes(app, kept, answer)

    @app.get("/v3/glossaries/{glossary_id}", tags=["DeepL"])
    @app.patch("/v3/glossaries/{glossary_id}", tags=["DeepL"])
    @app.delete("/v3/glossaries/{glossary_id}", tags=["DeepL"])
    @app.get("/v3/glossaries/{glossary_id}/entries", tags=["DeepL"])
    @app.get("/v3/glossaries/{glossary_id}/dictionaries", tags=["DeepL"])
    @app.put("/v3/glossaries/{glossary_id}/dictionaries", tags=["DeepL"])
    @app.delete("/v3/glossaries/{glossary_id}/dictionaries", tags=["DeepL"])
    async def multilingual_glossary(glossary_id: str, request: Request) -> dict:
        """404, as for /v2/glossaries/{id}: DeepLClient's multilingual glossaries are kept no more than v2's."""
        return await answer(request, partial(no_such_glossary, glossary_id))


def add_kept_routes(app: FastAPI, kept: str, answer: Callable[[Request, Callable[[dict], dict]], Awaitable[dict]],
                    ) -> None:
    """GET /v3/{kept}, an empty list, and POST, 400: DeepLClient's list_multilingual_glossaries,
    get_all_style_rules and list_translation_memories raised on a 404 (GlossaryNotFoundException for a list)."""
    async def listed(request: Request) -> dict:
        return await answer(request, lambda _: {kept: []})

    async def created(request: Request) -> dict:
        return await answer(request, partial(none_to_create, kept))

    listed.__doc__ = f"None: this server keeps no {kept.replace('_', ' ')} (DeepL's API v3)."
    created.__doc__ = f"400: this server keeps no {kept.replace('_', ' ')}."
    app.get(f"/v3/{kept}", tags=["DeepL"])(listed)
    app.post(f"/v3/{kept}", tags=["DeepL"])(created)
