"""A plain text's lines translated: a hard-wrapped paragraph whole (attnmt.documents.hard_wrap), every
other line alone (pipeline.translate_lines).

    translate_text_lines(lines, translator) -> each line's output lines (a paragraph's with its last)
    lines_written(groups, endings) -> those lines and their endings
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import Place
from attnmt.documents.hard_wrap import filled, joined, wrapped_paragraphs
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, translate_lines
from attnmt.documents.translators import Translator
from attnmt.text.tokenizer import check_text_list

if TYPE_CHECKING:  # its module loads quality estimation, which a text without a review never needs
    from attnmt.documents.review import Review


def translate_text_lines(lines: Sequence[str], translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                         review: Review | None = None, first_line: int = 1, *,
                         empty_kept: bool = False) -> list[list[str]]:
    """Plain text lines translated as pipeline.translate_lines translates them, but for each hard-wrapped
    paragraph (``wrapped_paragraphs``; none where ``options.rewrap`` is false), translated as one text
    (``joined``) and filled again to its width (``filled``): the output lines of each input line, a
    paragraph's all with its last line, none with its others, any other line's translation alone with it.
    A paragraph whose translation is its text (every sentence kept its source: --below-quality source)
    keeps its lines as written.  ``review`` lists a paragraph's sentences at its first line (``lines[0]``
    is line ``first_line``); ``empty_kept``: translate_lines'."""
    check_text_list(lines, "lines")  # a str's characters would be read as its lines here, before translate_lines
    found = {paragraph.start: paragraph for paragraph in wrapped_paragraphs(lines)} if options.rewrap else {}
    inside = {k for paragraph in found.values() for k in range(paragraph.start + 1, paragraph.end)}
    starts = [k for k in range(len(lines)) if k not in inside]
    units = [joined(lines, found[k]) if k in found else lines[k] for k in starts]
    translations = translate_lines(units, translator, options, review, empty_kept=empty_kept,
                                   places=[Place(None, first_line + k) for k in starts])
    groups: list[list[str]] = [[] for _ in lines]
    for k, unit, translation in zip(starts, units, translations, strict=True):
        if (paragraph := found.get(k)) is None:
            groups[k] = [translation]
        else:
            kept = translation == unit
            own = lines[k:paragraph.end]
            groups[paragraph.end - 1] = list(own) if kept else with_line_ends(filled(translation, paragraph), own)
    return groups


def with_line_ends(filled_lines: list[str], lines: Sequence[str]) -> list[str]:
    """A paragraph's ``filled_lines`` ending as its source ``lines`` did: its last as their last, with the
    spaces after its text, and the others with the spaces their others share.  A format=flowed e-mail's
    (RFC 3676) ends each line but a paragraph's last in a space, a soft break its reader fills again to
    its window: dropped, the translation's lines would be fixed where the source's flowed."""
    def end(line: str) -> str:
        return line[len(line.rstrip()):]

    soft = {end(line) for line in lines[:-1]}
    inner = soft.pop() if len(soft) == 1 else ""
    return [line + inner for line in filled_lines[:-1]] + [filled_lines[-1] + end(lines[-1])]


def lines_written(groups: Sequence[list[str]], endings: Sequence[str] | None) -> tuple[list[str], list[str] | None]:
    """``translate_text_lines``' output lines and their endings, for attnmt.text.data.with_endings: each
    line ending as its input line did (``endings``, a file's own), a paragraph's as its lines did, its last
    as its last did (a file's last line may have none); a line past ``endings`` in LF, and None (a stream's
    lines, all in LF) kept None."""
    lines = [line for group in groups for line in group]
    if endings is None:
        return lines, None

    def ending(k: int) -> str:
        return endings[k] if k < len(endings) else "\n"

    # a group of several lines is a paragraph's, with its last line: the line before it is in it too
    return lines, [end for k, group in enumerate(groups)
                   for end in [*[ending(k - 1)] * (len(group) - 1), *[ending(k)][:len(group)]]]
