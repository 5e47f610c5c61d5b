"""Who may translate how often: API keys and rate limits (the ``limits`` package); who may
read the metrics; which web pages may call the API (CORS).

A keys file (``attnmt serve --api-keys FILE``) holds one key a line, optionally
followed by that key's requests per minute, its characters per request (``char-limit=N``,
in place of the server's ``--char-limit``, higher or lower: LibreTranslate's per-key
character limit) and its characters per minute (``chars-per-minute=N``); ``#`` starts a
comment::

    3f9c2e-team-a 600 char-limit=50000
    a71b0d-nightly-job chars-per-minute=200000
    9e04c1-trial 10 char-limit=500 chars-per-minute=5000

With a keys file every request needs a valid key: ``api_key`` in the body or
query (as LibreTranslate's clients send it) or ``Authorization: Bearer KEY``.  A request
may carry keys in more than one of these places (a LibreTranslate client's ``api_key`` and a
gateway's bearer token): the first that the keys file holds is its key, tried in that order
(``given_keys``), and the others are ignored; it is refused only when none is valid.
Keys are never logged: the access log names a key by its line in the file.

Limits count requests in a moving one-minute window, per key (the key's own
number) and per client address (``--req-limit``); a request over either is
refused with 429 and ``Retry-After``, the seconds until the window has room.
A key's characters a minute count the same way, once the request has passed every
other check (a refused request costs none; one the model's queue then has no room for, or the
model fails on, is given them back: attnmt.server.text_charges); a request with more characters than
the key may translate in a minute is refused as too large (retrying cannot help).

A file costs more than one request, as LibreTranslate charges it: one per ``char-limit``
bytes of it (the key's, else the server's ``--char-limit``), at least one (``file_cost``), against
the same per-minute limits; a file that costs more requests than a limit allows in a minute is
refused as too large.  Its characters then count against the key's characters a minute as
they are translated (attnmt.server.file_jobs).

``GET /metrics`` answers anyone who reaches the server, as Prometheus expects; an
operator may keep it to clients on this machine (``--metrics-access loopback``) and/or
ask for a key of its own (``--metrics-key-file FILE``: ``Authorization: Bearer KEY``, what
Prometheus sends with ``authorization: {credentials_file: FILE}``).

A web page may call the API from another origin only if ``attnmt serve --cors-origins``
names it.  A browser's ``Origin`` header is the origin as the URL standard serialises it:
scheme and host lower-cased, and no port where it is the scheme's default
(``https://a.example``, never ``https://a.example:443``), so each origin given, and each
request's ``Origin``, is compared in that form (``serialised_origin``).
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from fastapi.middleware.cors import CORSMiddleware
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp

from attnmt.config_ranges import written_whole_number
from attnmt.errors import ConfigError
from attnmt.server.character_windows import CharacterWindows, Charge


@dataclass(frozen=True)
class ApiKey:
    line: int  # where it is in the keys file: how the log names it
    per_minute: int | None  # its own rate limit; None: only the address limit applies
    char_limit: int | None = None  # characters per request; None: the server's --char-limit
    chars_per_minute: int | None = None  # characters translated per minute; None: no such limit


KEY_FIELDS = {"char-limit": "char_limit", "chars-per-minute": "chars_per_minute"}
KEY_LINE = "'KEY [REQUESTS_PER_MINUTE] [char-limit=N] [chars-per-minute=N]' (whole numbers >= 1)"


class Refused(Exception):
    """A request without a valid key or over a limit.  ``reason``: "missing", "invalid", "slow"
    (over a rate: retry later) or "large" (more characters than its key may ever send at once)."""

    def __init__(self, reason: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)} if self.retry_after is not None else {}


def read_api_keys(path: str | Path) -> dict[str, ApiKey]:
    """The keys of a keys file; a malformed line is a ConfigError naming it."""
    path = Path(path)
    keys: dict[str, ApiKey] = {}
    for number, line in enumerate(read_key_file(path, "keys file").splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        limits = key_limits(fields[1:])
        if limits is None:
            raise ConfigError(f"{path}:{number}: expected {KEY_LINE}")
        if fields[0] in keys:
            raise ConfigError(f"{path}:{number}: this key is already on line {keys[fields[0]].line}")
        keys[fields[0]] = ApiKey(number, **limits)
    if not keys:
        raise ConfigError(f"{path}: no keys in it (one a line: {KEY_LINE})")
    return keys


def key_limits(fields: list[str]) -> dict[str, int | None] | None:
    """A key line's limits after the key (``600 char-limit=5000``) as ApiKey's fields; None if malformed."""
    limits: dict[str, int | None] = {"per_minute": None}
    for position, given in enumerate(fields):
        name, equals, value = given.rpartition("=")
        name = KEY_FIELDS.get(name) if equals else "per_minute" if position == 0 else None
        number = written_whole_number(value)
        if name is None or limits.get(name) is not None or number is None or number < 1:
            return None
        limits[name] = number
    return limits


class Access:
    """Checks a request's key and counts it against its key's and its address's limits."""

    def __init__(self, keys: dict[str, ApiKey] | None = None, per_address: int | None = None) -> None:
        if per_address is not None and per_address < 1:
            raise ConfigError(f"--req-limit must be at least 1 request a minute, got {per_address}")
        self.keys = keys
        self.per_address = RateLimitItemPerMinute(per_address) if per_address else None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.characters = CharacterWindows()  # each key's characters a minute, which a 503 or a 500 gives back

    @property
    def keys_required(self) -> bool:
        return self.keys is not None

    def admit(self, request: Request, body_key: object = None) -> ApiKey | None:
        """Checks ``request`` (the keys it carries, ``body_key`` among them: given_keys), counts it
        against its key's and its address's limits and notes its key's line for the access log; raises Refused."""
        found = self.key_of(given_keys(request, body_key))
        self.count_request(found, request.client.host if request.client else "")
        return noted(request, found)

    def identify(self, request: Request, body_key: object = None) -> ApiKey | None:
        """``request``'s key, checked and noted as ``admit`` does, counted against no limit: for a
        request that follows work admitted and charged already (a DeepL document's status and result,
        which deepl-python asks every 5 seconds: counted, a key of 10 requests a minute failed its document)."""
        return noted(request, self.key_of(given_keys(request, body_key)))

    def char_limit(self, request: Request, default: int) -> int:
        """The most characters the admitted ``request`` may hold: its key's ``char-limit``, else ``default``."""
        key = getattr(request.state, "api_key", None)
        return key.char_limit if key is not None and key.char_limit is not None else default

    def charge(self, request: Request, characters: int) -> None:
        """Counts the admitted ``request``'s characters against its key's characters a minute; raises Refused."""
        key = getattr(request.state, "api_key", None)
        if key is None or key.chars_per_minute is None:
            return
        if characters > key.chars_per_minute:
            raise Refused("large", f"the request has {characters} characters; this key may translate at most "
                                   f"{key.chars_per_minute} a minute")
        wait = self.characters.wait(key.line, characters, key.chars_per_minute)
        if wait > 0:
            raise Refused("slow", f"{key.chars_per_minute} characters per 1 minute per key",
                          retry_after=max(1, math.ceil(wait)))
        charges_of(request).append(self.characters.charge(key.line, characters))

    def give_back(self, request: Request) -> None:
        """Gives back every character the admitted ``request`` was charged (``charge``): for a request then
        refused because the model's queue is full (503), or one the model failed on (500)."""
        for charge in charges_of(request):
            self.characters.give_back(charge)
        charges_of(request).clear()

    def charge_file(self, request: Request, size: int, char_limit: int) -> None:
        """Counts a file of ``size`` bytes as ``file_cost`` requests against the admitted ``request``'s
        limits, the one its admission counted included; raises Refused (the limit named)."""
        cost = file_cost(size, char_limit)
        why = f"a file of {size:,} bytes costs {cost} requests (one per {char_limit:,} bytes: a request's characters)"
        limits = self.request_limits(request)
        for limit, kind, _ in limits:
            if cost > limit.amount:
                raise Refused("large", f"{why}; at most {limit.amount} a minute per {kind}")
        if cost == 1:
            return  # the one request its admission counted
        for limit, kind, who in limits:
            self.count(limit, kind, who, cost - 1, f"{why}: over {limit} per {kind}")

    def request_limits(self, request: Request) -> list[tuple[RateLimitItemPerMinute, str, str]]:
        """The admitted ``request``'s requests-a-minute limits: (limit, kind, who), its address's and its key's."""
        limits = []
        if self.per_address is not None:
            limits.append((self.per_address, "address", request.client.host if request.client else ""))
        key = getattr(request.state, "api_key", None)
        if key is not None and key.per_minute is not None:
            limits.append((RateLimitItemPerMinute(key.per_minute), "key", str(key.line)))
        return limits

    def key_of(self, given: list[object]) -> ApiKey | None:
        """The request's ApiKey, the first of the ``given`` keys that the keys file holds (None
        without a keys file), or Refused.  A key that is not text (JSON's 5) was given, but no line
        holds it: a wrong key (403), as LibreTranslate answers it, not a missing one."""
        if self.keys is None:
            return None
        if not given:
            raise Refused("missing", "Please contact the server operator to get an API key")
        found = next((self.keys[key] for key in given if isinstance(key, str) and key in self.keys), None)
        if found is None:
            raise Refused("invalid", "Invalid API key")
        return found

    def count_request(self, found: ApiKey | None, address: str) -> None:
        """Counts one request against ``address``'s limit and its key's (``found``); raises Refused over either."""
        if self.per_address is not None:
            self.count(self.per_address, "address", address)
        if found is not None and found.per_minute is not None:
            self.count(RateLimitItemPerMinute(found.per_minute), "key", str(found.line))

    def count(self, limit: RateLimitItemPerMinute, kind: str, who: str, cost: int = 1,
              message: str | None = None) -> None:
        """Counts ``cost`` against ``who``'s ``limit``; over it: Refused("slow") with the seconds
        until the window has room (``message``: what the refusal says, default "N per 1 minute per KIND")."""
        if not self.limiter.hit(limit, kind, who, cost=cost):
            reset = self.limiter.get_window_stats(limit, kind, who).reset_time
            raise Refused("slow", message or f"{limit} per {kind}", retry_after=max(1, math.ceil(reset - time.time())))


@dataclass(frozen=True)
class MetricsAccess:
    """Who may read ``GET /metrics``: anyone (the default), or only clients on this machine
    (``loopback``) and/or requests that carry ``key``."""

    loopback: bool = False
    key: str | None = field(default=None, repr=False)  # never in a log or a traceback

    def check(self, request: Request) -> None:
        """Raises HTTPException: 403 for a client elsewhere (``loopback``), 401 without the key."""
        if self.loopback and not is_loopback(request.client.host if request.client else ""):
            raise HTTPException(403, "/metrics answers only clients on this machine (--metrics-access loopback)")
        given = [key.encode() for key in given_keys(request) if isinstance(key, str)]
        if self.key is not None and not any(secrets.compare_digest(key, self.key.encode()) for key in given):
            raise HTTPException(401, "/metrics needs its key: Authorization: Bearer KEY (--metrics-key-file)",
                                headers={"WWW-Authenticate": "Bearer"})


def read_metrics_key(path: str | Path) -> str:
    """The key in a file (its text without surrounding space, as Prometheus reads a credentials_file)."""
    key = read_key_file(Path(path), "metrics key").strip()
    if not key or any(character.isspace() for character in key):
        raise ConfigError(f"{path}: expected one key (no spaces) for GET /metrics, the file's whole text")
    return key


def read_key_file(path: Path, what: str) -> str:
    """The text of a keys file or a metrics key file, UTF-8 with or without the byte order mark that
    Windows Notepad writes (read as part of the first key, it made that key unusable, without a word);
    a ConfigError naming the file (and the line of a byte that is not UTF-8) where it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the {what} ({error.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:  # its object is the bytes after a byte order mark
        line = error.object[:error.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 (byte 0x{error.object[error.start]:02x}); "
                          f"save the {what} as UTF-8") from None


DEFAULT_PORTS = {"http": 80, "https": 443}  # the ports a browser leaves out of a web page's Origin


def serialised_origin(origin: str) -> str:
    """``origin`` as a browser's ``Origin`` header writes it: scheme and host lower-cased, a port
    that is the scheme's default dropped (``HTTPS://A.example:443`` -> ``https://a.example``),
    any other written as a plain number.  Anything else (``null``, or a header that is no bare
    origin) comes back lower-cased, to match only what is written the same way."""
    written = origin.lower()
    try:
        parts = urlsplit(written)
        port = parts.port
    except ValueError:  # "http://[", "https://a.example:99999"
        return written
    if not parts.hostname or "@" in parts.netloc or written != f"{parts.scheme}://{parts.netloc}":
        return written  # "null", or one with a path or a user
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname  # an IPv6 address keeps its brackets
    return f"{parts.scheme}://{host}" if port in (None, DEFAULT_PORTS.get(parts.scheme)) else \
        f"{parts.scheme}://{host}:{port}"


class WebOrigins(CORSMiddleware):
    """Starlette's CORS, comparing origins as browsers serialise them (``serialised_origin``):
    the origins given, and each request's ``Origin``, so that ``https://a.example:443`` given lets
    in the page whose browser sends ``https://a.example``.  The answer names the request's own
    ``Origin``, which is what the browser checks it against."""

    def __init__(self, app: ASGIApp, allow_origins: Sequence[str], **options) -> None:
        super().__init__(app, allow_origins=[serialised_origin(origin) for origin in allow_origins], **options)

    def is_allowed_origin(self, origin: str) -> bool:
        return super().is_allowed_origin(serialised_origin(origin))

    def preflight_response(self, request_headers: Headers) -> Response:
        """Starlette's answer to a preflight, but a refusal as JSON in both APIs' shapes (as a body
        refused: attnmt.server.guards.BodyRefused), naming a refused origin and how to let it in, and
        refused headers and the ones a page may send: Starlette answered text/plain "Disallowed CORS
        origin", or "headers", naming none."""
        answer = super().preflight_response(request_headers)
        if answer.status_code != 400:
            return answer
        message = bytes(answer.body).decode()  # "Disallowed CORS origin, method": what was refused
        others = message.removeprefix("Disallowed CORS origin")
        origin_refused = others != message
        if origin_refused:
            origin = request_headers["origin"]
            message = (f"Disallowed CORS origin{others}: the page of {origin!r} may not call this server; to let it, "
                       f"start it with --cors-origins {serialised_origin(origin)}")
        asked = request_headers.get("access-control-request-headers", "").split(",")
        refused = [name.strip() for name in asked if name.strip() and name.strip().lower() not in self.allow_headers]
        if refused:  # Starlette named none
            message += (f"{';' if origin_refused else ':'} the page asked to send {', '.join(refused)}; a page may "
                        f"send only {', '.join(self.allow_headers)} (as LibreTranslate's CORS lets them)")
        kept = {name: value for name, value in answer.headers.items() if name not in ("content-type", "content-length")}
        return JSONResponse({"detail": message, "error": message}, status_code=400, headers=kept)


def file_cost(size: int, char_limit: int) -> int:
    """The requests a file of ``size`` bytes costs: one per ``char_limit`` (a request's most
    characters) of its bytes, at least one; LibreTranslate's translate_file counts
    ``max(1, int(size / char_limit))``."""
    return max(1, size // char_limit)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address, or "localhost") is this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def given_keys(request: Request, body_key: object = None) -> list[object]:
    """The API keys a request carries, in the order they are tried: ``body_key`` (the body's or
    form's ``api_key``, which JSON may make a number), ``api_key`` in the query, then
    ``Authorization: Bearer KEY``.  An empty one is none, as LibreTranslate reads it.  The header's
    bytes are read as UTF-8, as the keys file is and as curl sends a key of letters beyond ASCII
    (Starlette reads them as Latin-1); bytes that are not UTF-8 stay as read, matching no key."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    bearer = utf8_header(token.strip()) if scheme.lower() == "bearer" else None
    return [key for key in (body_key, request.query_params.get("api_key"), bearer) if key]


def utf8_header(value: str) -> str:
    """A header's ``value``, which Starlette decodes as Latin-1, read as its UTF-8 bytes where they are UTF-8."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


def noted(request: Request, found: ApiKey | None) -> ApiKey | None:
    """``found``, the admitted ``request``'s key, kept on it (Access.char_limit, Access.charge) and its
    line noted for the access log."""
    if found is not None:
        log_of(request)["key"] = found.line
    request.state.api_key = found
    return found


def charges_of(request: Request) -> list[Charge]:
    """What the admitted ``request`` has been charged of its key's characters a minute (Access.charge)."""
    if not hasattr(request.state, "charges"):
        request.state.charges = []
    return request.state.charges


def log_of(request: Request) -> dict:
    """What the access-log line of ``request`` adds (attnmt.server.metrics writes it)."""
    if not hasattr(request.state, "log"):
        request.state.log = {}
    return request.state.log
