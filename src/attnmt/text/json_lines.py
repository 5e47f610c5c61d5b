"""JSON records a line each, as ``str.splitlines`` reads them too: the one writer of JSONL output
(``attnmt translate``'s hypotheses, ``attnmt score``'s scores), of the server's log records (the
access log's, the batcher's refusals) and of its server-sent events' data.

JSON escapes every control character below U+0020, but leaves U+0085, U+2028 and U+2029 as they
are: valid JSON, yet a reader that splits where ``str.splitlines`` does (Python's readlines, log
shippers) took each for the end of a record.  They are written as their ``\\uXXXX`` escapes,
which read back as the same text."""

from __future__ import annotations

import json
from datetime import UTC, datetime

# The line breaks JSON leaves unescaped, as the escapes JSON itself would write for them.
JSON_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_record(record: dict) -> str:
    """``record`` as one line of JSON, without a line feed: UTF-8 as it is, but for the line breaks
    JSON leaves raw (JSON_BREAKS), so that it is one line to str.splitlines too.  (A logger adds
    its own line feed.)"""
    return json.dumps(record, ensure_ascii=False).translate(JSON_BREAKS)


def json_line(record: dict) -> str:
    """``record`` as one JSONL line, its line feed included (json_record)."""
    return json_record(record) + "\n"


def log_record(record: dict) -> str:
    """``record`` as a line of the server's log (json_record), the time it is written first, in UTC
    to the millisecond: ``{"time": "2026-12-02T10:54:29.113+00:00", …}``."""
    return json_record({"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **record})
