"""Server-sent events as the server writes them (``POST /translate/stream``, a file job's ``GET
/v1/files/{job_id}/events``): ``event: NAME``, one ``data:`` line of JSON, a blank line."""

from __future__ import annotations

from attnmt.text.json_lines import json_record


def event(name: str, data: dict) -> str:
    """One event, ``data`` its one ``data:`` line (json_record): a U+2028, U+2029 or U+0085 in a text
    is written as its escape, as JSONL output and the access log write it, so that a proxy or logger
    splitting where str.splitlines does (EventSource splits at CR and LF alone) reads the event whole.
    Written raw, each cut the event's JSON in two there."""
    return f"event: {name}\ndata: {json_record(data)}\n\n"
