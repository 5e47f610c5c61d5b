"""A self-contained HTML attention viewer, in the spirit of bertviz's head view.

One file, no network: the attention weights are embedded as JSON, the script and
the style are inline, so it opens from disk in any browser.  Queries are listed on
the left, keys on the right, and a line joins each pair with an opacity equal to
the attention weight.  Choose the kind, layer and head (or all heads, one colour
each); hover a token to see only what it attends to (left) or what attends to it
(right).

The view is also chosen by the address's fragment, e.g.
``attention.html#kind=cross&layer=0&head=1`` (``head=all`` overlays every head);
the page keeps the fragment in step with the controls, so a view can be linked.

The viewer's parts live in ``assets/`` as package data: ``attention.css``, ``attention.html``
and ``attention.js`` (whose ``showAttention(data)`` draws new data), shared with the
translation server's page (``attnmt.server.page``), and ``viewer.html``, this page.

The data is ``TranslationAttention.to_dict()``::

    {"sentence": str, "translation": str,
     "kinds": {kind: {"title", "rows", "cols", "row_title", "col_title",
                      "weights": [layer][head][row][col]}}}
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path

from attnmt.errors import OutputError
from attnmt.files import write_text

ASSETS = resources.files("attnmt.inspect") / "assets"


def asset(name: str) -> str:
    """A file of the viewer's: markup, style or script, kept as package data beside this module."""
    return (ASSETS / name).read_text(encoding="utf-8")


STYLE, MARKUP, SCRIPT = asset("attention.css"), asset("attention.html"), asset("attention.js")


def with_attention_view(template: str) -> str:
    """``template`` with the attention view's style, markup and script in place of
    __ATTENTION_STYLE__, __ATTENTION_MARKUP__ and __ATTENTION_SCRIPT__."""
    parts = {"STYLE": STYLE, "MARKUP": MARKUP, "SCRIPT": SCRIPT}
    return re.sub(r"__ATTENTION_(STYLE|MARKUP|SCRIPT)__", lambda match: parts[match.group(1)], template)


PAGE = with_attention_view(asset("viewer.html"))


def viewer_html(data: dict) -> str:
    """The viewer page for ``TranslationAttention.to_dict()`` data, as one HTML string."""
    # "<" escaped so that no piece (e.g. "</s>") or sentence can close the <script> element.
    values = {
        "DATA": json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"),
        "TITLE": html.escape(data["sentence"]),
        "TRANSLATION": html.escape(data["translation"]),
    }
    # One pass, so a sentence that happens to contain "__DATA__" stays text.
    return re.sub(r"__(DATA|TITLE|TRANSLATION)__", lambda match: values[match.group(1)], PAGE)


def write_viewer(data: dict, path: Path) -> Path:
    """Writes the viewer page to ``path``; returns the path."""
    path = Path(path)
    write_text(path, viewer_html(data), OutputError)
    return path
