"""The translation server's web page: a text box, a Translate button, the output and its attention;
and a file to drop, its progress and its translation to download.

One page, no network beyond its own server: ``assets/page.html`` (package data), with the
standalone viewer's attention view (``attnmt.inspect.viewer``) put in, fed by
``POST translate`` with ``return_attention``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from importlib import resources

from attnmt.inspect.viewer import with_attention_view

PAGE = with_attention_view((resources.files("attnmt.server") / "assets" / "page.html").read_text(encoding="utf-8"))


def page_html(model_name: str, suffixes: Sequence[str]) -> str:
    """The page, titled with the model's name, its file box taking the files of ``suffixes`` (the
    server's: attnmt.server.file_forms.served_suffixes)."""
    values = {"MODEL": html.escape(model_name), "FORMATS": ",".join(suffixes)}
    return re.sub("__(MODEL|FORMATS)__", lambda match: values[match.group(1)], PAGE)
