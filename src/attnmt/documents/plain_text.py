"""A plain text's lines translated: a hard-wrapped paragraph whole (attnmt.documents.hard_wrap), an e-mail's
subject without its key, its other headers and a reply's attribution line as written
(attnmt.documents.mail_headers), and every other line alone (pipeline.translate_lines), as
attnmt.documents.text_units reads them.

    translate_text_lines(lines, translator) -> each line's output lines (a paragraph's with its last)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import Place
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, translate_lines
from attnmt.documents.text_units import text_units
from attnmt.documents.translators import Translator
from attnmt.text.tokenizer import check_text_list

if TYPE_CHECKING:  # its module loads quality estimation, which a text without a review never needs
    from attnmt.documents.review import Review


def translate_text_lines(lines: Sequence[str], translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                         review: Review | None = None, first_line: int = 1, *,
                         empty_kept: bool = False) -> list[list[str]]:
    """Plain text lines translated as pipeline.translate_lines translates them, but for each hard-wrapped
    paragraph (none where ``options.rewrap`` is false), translated as one text and filled again to its width,
    and an e-mail's headers (each with the lines it is folded onto but where ``options.rewrap`` is false): a
    subject's text translated after its key and folded again, the others, a reply's attribution lines and a
    forwarded message's separator, kept as written (text_units.text_units).  The output lines of each input
    line: a paragraph's or a header's all with its last line, none with its others, any other line's
    translation alone with it.  A paragraph or a subject whose translation is its text (every sentence kept
    its source: --below-quality source) keeps its lines as written.  ``review`` lists a paragraph's sentences
    at its first line (``lines[0]`` is line ``first_line``); ``empty_kept``: translate_lines'."""
    check_text_list(lines, "lines")  # a str's characters would be read as its lines here, before translate_lines
    units = text_units(lines, options.rewrap)
    translations = translate_lines(units.texts, translator, options, review, empty_kept=empty_kept,
                                   places=[Place(None, first_line + k) for k in units.starts])
    return units.groups(translations)
