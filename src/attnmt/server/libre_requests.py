"""LibreTranslate's requests, read and checked: their parameters and the errors it answers them with.

    parameters        a request's parameters, from JSON, a form (in its charset) or the query (Unicode checked)
    first_values      a query's and a form's parameters, as LibreTranslate reads them (a file's form too)
    texts_of          ``q`` as texts, within the server's count and character limits (texts_in: without them)
    text_names        the names errors give ``q``'s texts
    language_of       ``source`` or ``target``;  alternatives_of: ``alternatives``
    refusal           a key's refusal (attnmt.server.access) as a LibreError, with LibreTranslate's status;
                      refusals_worded: each raised within so
    FIELDS, FILE_BODY the request bodies in the OpenAPI schema

Apart from attnmt.server.libretranslate (the routes, and what they do with a request) because
the streaming endpoint (attnmt.server.streaming) reads its requests the same way: one reading of
LibreTranslate's parameters, with LibreTranslate's words for what is wrong with them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from urllib.parse import parse_qsl, unquote_to_bytes

from fastapi import Request
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

from attnmt.errors import json_value, value_shown
from attnmt.server.access import Refused
from attnmt.server.api_errors import LibreError
from attnmt.server.context import Server
from attnmt.server.models import ServeSettings, characters
from attnmt.server.v1_api import is_json, media_type_of
from attnmt.text.language_codes import primary_subtag

FORMATS = ("text", "html")  # html: attnmt.documents carries the tags over
# Chinese in the Traditional script, as clients write it (LibreTranslate's zt is zh-Hant): never a zh model's.
TRADITIONAL_CHINESE = ("zh-hant", "zh-tw", "zh-hk", "zh-mo")
# A code naming a script (sr-Latn, uz-Cyrl, pa-Arab), which a model of the language alone may not write.
SCRIPT = re.compile(r"[a-z]{2,3}-[a-z]{4}(-|$)")
# What unquote_to_bytes reads as one byte: a %-escape, or any other byte as it is.
ENCODED_BYTE = re.compile(rb"%[0-9A-Fa-f]{2}|.", re.DOTALL)
# One text of a list as PHP's http_build_query and jQuery's $.param write it in a form: q[] or q[0], q[1], ...
LIST_ITEM = re.compile(r"q\[(\d*)\]")


def json_body(required: list[str], properties: dict) -> dict:
    """A request body for the OpenAPI schema, where the endpoint reads the body itself (JSON, a
    form or the query)."""
    return {"requestBody": {"content": {"application/json": {"schema": {
        "type": "object", "required": required, "properties": properties}}}}}


# LibreTranslate's request fields, as the OpenAPI schema gives them.
FIELDS = {"q": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
          "source": {"type": "string", "description": 'a language code, or "auto"'},
          "target": {"type": "string"}, "format": {"type": "string", "enum": list(FORMATS)},
          "alternatives": {"type": "integer", "minimum": 0}, "api_key": {"type": "string"}}
# translate_file's body in the OpenAPI schema.
FILE_BODY = {"requestBody": {"content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file", "source", "target"],
    "properties": {"file": {"type": "string", "format": "binary"}, "source": FIELDS["source"],
                   "target": FIELDS["target"], "api_key": FIELDS["api_key"]}}}}}}
# A Refused reason's status in LibreTranslate's API, and what its message starts with.
STATUS = {"missing": 400, "invalid": 403, "slow": 429, "large": 400}
PREFIX = {"slow": "Slowdown: ", "large": "Invalid request: "}


def missing(name: str) -> LibreError:
    return LibreError(400, f"Invalid request: missing {name} parameter")


async def parameters(request: Request) -> tuple[dict, bytes | None]:
    """The request's parameters, and its raw body where it was JSON."""
    content_type = media_type_of(request)
    if is_json(content_type):
        body = await request.body()
        try:
            data = json_value(body)
        except UnicodeDecodeError as error:  # as /v1/translate says it: the byte, and where
            raise LibreError(400, f"Invalid JSON format (not UTF-8: byte 0x{error.object[error.start]:02x} at "
                                  f"character {error.start})") from None
        except json.JSONDecodeError as error:  # as /v1/translate says it: why, and where (json_value: no place)
            where = f" at character {error.pos}" if error.pos else ""  # "starting at" is said once
            why = f"{error.msg.removesuffix(' at')}{where}" if body.strip() else "the body is empty"
            raise LibreError(400, f"Invalid JSON format ({why})") from None
        if not isinstance(data, dict):
            raise LibreError(400, f"Invalid JSON format (the body is {json_kind(data)}, where the parameters are "
                                  "sent as one JSON object, {…})")
        return data, body
    return first_values(await form_items(request, content_type)), None


def json_kind(data: object) -> str:
    """What a JSON value that is no object is, as the user would say it: "a list", "a text", "null"."""
    kinds = {list: "a list", str: "a text", bool: "true or false", int: "a number", float: "a number"}
    return "null" if data is None else kinds.get(type(data), type(data).__name__)


async def form_items(request: Request, content_type: str, example: str = '{"q": …}') -> list[tuple[str, object]]:
    """The query's items, then the form's (url-encoded or multipart; none for another type), for an API that
    reads a form: a JSON object sent as a form is refused (``check_not_json``, ``example`` its body)."""
    # bytes that are not text in their charset are refused, named: Starlette's form parser reads a form in
    # the charset of its Content-Type alone (none: UTF-8), and whatever is not as Latin-1
    check_charset(request.scope["query_string"], "query")
    items: list[tuple[str, object]] = list(request.query_params.multi_items())
    body = await request.body()
    if content_type == "multipart/form-data":
        return items + multipart_items(body, request)
    check_not_json(body, content_type, example)
    if content_type == "application/x-www-form-urlencoded":
        charset = charset_named(request.headers["content-type"])
        check_charset(body, "form", charset)
        items += urlencoded_items(body, charset)
    return items


def check_not_json(body: bytes, content_type: str, example: str = '{"q": …}') -> None:
    """400 for a JSON object sent with a type other than JSON's (``curl -d`` sends a form's): read as
    a form, it has no fields, and was refused as "missing q parameter", for a request that has one.
    ``example``: the API's body, as the message shows it."""
    if not body.lstrip().startswith(b"{"):
        return
    try:
        data = json_value(body)
    except ValueError:  # a form whose first field's name starts with "{", not JSON
        return
    if isinstance(data, dict):
        raise LibreError(400, f"Invalid request: the body is JSON, which must be sent with Content-Type: "
                              f"application/json (it came {'as ' + content_type if content_type else 'without one'}; "
                              f"curl: --json '{example}')")


def first_values(*sent: Iterable[tuple[str, object]]) -> dict[str, str | list[str]]:
    """The text parameters of ``sent`` (a query's items, then a form's), by name: the first of a
    name given twice, the query's before the form's, as Flask reads them for LibreTranslate.  A q
    given twice (``q=a&q=b``, a client's list) is refused: Flask would drop a text without a word.  A
    list as PHP and jQuery write it (``q[]=a&q[]=b``, ``q[0]=a&q[1]=b``) is ``q``'s list of texts."""
    params: dict[str, str | list[str]] = {}
    texts = 0
    items: list[tuple[str, str]] = []  # q[...]'s index as written ("" for q[]), and its text
    for name, value in chain(*sent):
        if not isinstance(value, str):  # a form's file is no parameter
            continue
        if item := LIST_ITEM.fullmatch(name):
            items.append((item[1], value))
            continue
        params.setdefault(name, value)
        texts += name == "q"
    if texts > 1 or (texts and items):
        raise LibreError(400, f"Invalid request: q is given {texts + len(items)} times; send one q, or several texts "
                              "as a JSON list ({\"q\": [\"…\", \"…\"]})")
    if items:
        params["q"] = listed_texts(items)
    return params


def listed_texts(items: list[tuple[str, str]]) -> list[str]:
    """The texts of ``q[]=…&q[]=…`` in the order sent, or of ``q[0]=…&q[1]=…`` in their indices' order;
    400 where indices are missing, mixed with ``q[]`` or given twice: a text would be lost or misplaced."""
    indices = [index for index, _ in items]
    if not any(indices):
        return [text for _, text in items]
    if sorted(indices, key=lambda index: int(index or -1)) != [str(i) for i in range(len(items))]:
        raise LibreError(400, f"Invalid request: q's list is sent as {', '.join(f'q[{i}]' for i in indices)}; send "
                              f"q[0] to q[{len(items) - 1}], each once, or q[] for every text")
    return [text for _, text in sorted(items, key=lambda item: int(item[0]))]


def urlencoded_items(body: bytes, charset: str = "UTF-8") -> list[tuple[str, str]]:
    """The fields of a url-encoded form, their bytes read in ``charset`` whether sent as they are or
    %-escaped, as Flask reads them for LibreTranslate (Starlette's form parser read bytes sent as
    they are as Latin-1: "café" came as "cafÃ©").  ``body`` has passed check_charset: Latin-1 maps each
    byte to one character and back, so a character split between the two ways still decodes."""
    return [(name.encode("latin-1").decode(charset), value.encode("latin-1").decode(charset))
            for name, value in parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="latin-1")]


def multipart_items(body: bytes, request: Request) -> list[tuple[str, str]]:
    """The text fields of a multipart form, each read in the charset its part's Content-Type names,
    else in the form's (UTF-8 where neither names one), as Werkzeug reads them for LibreTranslate; a
    file's part is no parameter.  Starlette's parser reads every part in the form's charset alone."""
    _, options = parse_options_header(request.headers["content-type"])
    if b"boundary" not in options:
        raise LibreError(400, "Invalid request: the form cannot be read (Missing boundary in multipart.)")
    charset = charset_named(request.headers["content-type"])
    items = []
    for part in multipart_parts(body, options[b"boundary"]):
        _, disposition = parse_options_header(part.headers.get(b"content-disposition"))
        if b"filename" in disposition:
            continue
        name = decoded(disposition.get(b"name", b""), "form's field name", charset)
        where = f"form's field {value_shown(name)}"
        value = decoded(part.data, where, charset_named(part.headers.get(b"content-type"), charset, where))
        items.append((name, value))
    return items


@dataclass
class Part:
    """One part of a multipart body: its headers (their names in lower case) and its data."""

    headers: dict[bytes, bytes] = field(default_factory=dict)
    data: bytearray = field(default_factory=bytearray)


def multipart_parts(body: bytes, boundary: bytes) -> list[Part]:
    """The parts of a multipart ``body``, as python_multipart (Starlette's parser) reads them."""
    parts: list[Part] = []
    header = (bytearray(), bytearray())  # the name and the value of the header being read

    def header_end() -> None:
        parts[-1].headers[bytes(header[0]).lower()] = bytes(header[1])
        for read in header:
            read.clear()

    parser = MultipartParser(boundary, {
        "on_part_begin": lambda: parts.append(Part()),
        "on_header_field": lambda data, start, end: header[0].extend(data[start:end]),
        "on_header_value": lambda data, start, end: header[1].extend(data[start:end]),
        "on_header_end": header_end,
        "on_part_data": lambda data, start, end: parts[-1].data.extend(data[start:end])})
    try:
        parser.write(body)
        parser.finalize()
    except FormParserError:
        raise LibreError(400, "Invalid request: the form cannot be read (Invalid multipart data.)") from None
    return parts


def charset_named(content_type: bytes | str | None, default: str = "UTF-8", where: str = "form") -> str:
    """The charset a ``content_type`` names, as named (``default`` where it names none); 400 where
    Python knows no such charset, or it writes a form's "&", "=" and "%" otherwise than ASCII does."""
    named = parse_options_header(content_type)[1].get(b"charset", b"").decode("latin-1").strip()
    if not named:
        return default
    try:
        ascii_like = "&=%".encode(named) == b"&=%"
    except LookupError:
        ascii_like = False
    if not ascii_like:
        raise LibreError(400, f"Invalid request: the charset {value_shown(named)} of the {where} is not one a "
                              "form can be read in; send it as UTF-8")
    return named


def decoded(data: bytes | bytearray, where: str, charset: str) -> str:
    """``data`` read in ``charset``; 400 where it is not text in it, naming the byte and its place."""
    try:
        return data.decode(charset)
    except UnicodeDecodeError as error:
        raise LibreError(400, f"Invalid request: the {where} is not {charset} (byte 0x{data[error.start]:02x} at "
                              f"character {error.start})") from None


def check_charset(sent: bytes, where: str, charset: str = "UTF-8") -> None:
    """400 where the parameters (a query or a url-encoded form, as ``sent``: %-encoded) are not text in
    ``charset``, naming the first byte that is not and its place in ``sent`` (a JSON body's message
    names both too)."""
    data = unquote_to_bytes(sent)
    try:
        data.decode(charset)
    except UnicodeDecodeError as error:
        place = [m.start() for m in ENCODED_BYTE.finditer(sent)][error.start]
        raise LibreError(400, f"Invalid request: the {where} is not {charset} (byte 0x{data[error.start]:02x} at "
                              f"character {place})") from None


def check_unicode(params: dict) -> None:
    """400 for parameters holding an unpaired surrogate (JSON's "\\ud800" on its own): text no
    model, detector or answer can take."""
    try:
        json.dumps(params, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise LibreError(400, "Invalid request: a parameter is not valid Unicode (it has an unpaired surrogate, "
                              "such as \\ud800 on its own)") from None


def refusal(refused: Refused) -> LibreError:
    return LibreError(STATUS[refused.reason], PREFIX.get(refused.reason, "") + str(refused), refused.headers())


@contextmanager
def refusals_worded() -> Iterator[None]:
    """A Refused raised within (a text's charge: attnmt.server.text_charges) raised as its ``refusal``."""
    try:
        yield
    except Refused as refused:
        raise refusal(refused) from None


def texts_of(settings: ServeSettings, params: dict) -> list[str]:
    """``q`` as a list of texts, within the count and character limits of ``settings`` (``characters``: a form's
    CRLF counts as a JSON client's LF).  A text keeps its line ends as sent, a form's too: its answer ends its
    lines as the user did, as a JSON client's does (a form's CRLF came back LF)."""
    texts = texts_in(params)
    # LibreTranslate's words for both limits, which its clients match, then which limit and text it is
    if len(texts) > settings.max_texts:
        raise LibreError(400, f"Invalid request: request ({len(texts)}) exceeds text limit ({settings.max_texts}): "
                              f"{len(texts)} texts; at most {settings.max_texts} in one request")
    for name, text in zip(text_names(params), texts, strict=True):
        if (count := characters(text)) > settings.max_chars:
            raise LibreError(400, f"Invalid request: request ({count}) exceeds text limit ({settings.max_chars}): "
                                  f"{name} has {count} characters; at most {settings.max_chars} in one text")
    total = sum(map(characters, texts))
    if total > settings.max_request_chars:
        raise LibreError(400, f"Invalid request: request ({total}) exceeds character limit "
                              f"({settings.max_request_chars})")
    return texts


def texts_in(params: dict) -> list[str]:
    """``q`` as a list of texts (one text: a list of one); 400 where it is missing or is not text."""
    q = params.get("q")
    if not q:
        raise missing("q")
    texts = q if isinstance(q, list) else [q]
    if not all(isinstance(text, str) for text in texts):
        raise LibreError(400, "Invalid request: q must be a text or a list of texts")
    return texts


def text_names(params: dict) -> list[str]:
    """The names of ``q``'s texts in errors: "q" for one text, "q[0]", "q[1]", ... for a list."""
    q = params["q"]
    return [f"q[{i}]" for i in range(len(q))] if isinstance(q, list) else ["q"]


def language_of(params: dict, name: str, served: Sequence[str] = ()) -> str:
    """The ``source`` or ``target`` code of a request, in lower case: LibreTranslate reads "EN" as "en".
    A code with a region or script (a browser's ``de-DE``, Weblate's ``pt-BR``, LibreTranslate's own
    ``zh-Hans``) is its language's where only that is among the ``served`` codes; but Traditional Chinese
    is no ``zh`` (LibreTranslate's zh is zh-Hans: a model of Simplified would answer in the wrong script),
    nor is a code naming another script (``sr-Latn``) its language's: which one its model writes is unknown."""
    code = params.get(name)
    if not code:
        raise missing(name)
    if not isinstance(code, str):
        raise LibreError(400, f"Invalid request: {name} must be a language code such as \"en\"")
    code = code.lower()
    language, tag = primary_subtag(code), code.replace("_", "-")
    script = tag.startswith(TRADITIONAL_CHINESE) or (SCRIPT.match(tag) is not None and not tag.startswith("zh-hans"))
    return code if code in served or language not in served or script else language


def alternatives_of(server: Server, params: dict) -> int:
    """``alternatives`` as a count: one below 0 is 0, as LibreTranslate reads it (a client sending -1 for
    "none" got 400 here, where LibreTranslate translates its text)."""
    try:
        count = max(0, int(params.get("alternatives") or 0))
    except (TypeError, ValueError, OverflowError):
        raise LibreError(400, "Invalid request: alternatives parameter is not a number") from None
    if count > server.settings.max_alternatives:
        raise LibreError(400, f"Invalid request: alternatives parameter must be <= {server.settings.max_alternatives}")
    return count
