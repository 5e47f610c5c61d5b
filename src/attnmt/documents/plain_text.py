"""A plain text's lines translated: a hard-wrapped paragraph whole (attnmt.documents.hard_wrap), an e-mail's
subject without its key, its other headers and a reply's attribution line as written
(attnmt.documents.mail_headers), and every other line alone (pipeline.translate_lines).

    translate_text_lines(lines, translator) -> each line's output lines (a paragraph's with its last)
    lines_written(groups, endings) -> those lines and their endings
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import Place
from attnmt.documents.hard_wrap import Wrapped, filled, joined, wrapped_paragraphs
from attnmt.documents.mail_headers import Header, attributions, mail_headers, separators
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
    (``joined``) and filled again to its width (``filled``), and an e-mail's headers (``mail_headers``, each
    with the lines it is folded onto but where ``options.rewrap`` is false): a subject's text translated
    after its key and folded again, the others, a reply's ``attributions`` and a forwarded message's
    ``separators``, kept as written.  The
    output lines of each input line: a paragraph's or a header's all with its last line, none with its
    others, any other line's translation alone with it.  A paragraph or a subject whose translation is its
    text (every sentence kept its source: --below-quality source) keeps its lines as written.  ``review``
    lists a paragraph's sentences at its first line (``lines[0]`` is line ``first_line``); ``empty_kept``:
    translate_lines'."""
    check_text_list(lines, "lines")  # a str's characters would be read as its lines here, before translate_lines
    headers = mail_headers(lines, folded=options.rewrap)
    kept = attributions(lines) | separators(lines, headers)
    kept |= {k for header in headers if not header.value for k in range(header.start, header.end)}
    spans: dict[int, Wrapped | Header] = {header.start: header for header in headers if header.value}
    taken = kept | {k for span in spans.values() for k in range(span.start, span.end)}
    if options.rewrap:
        spans |= {paragraph.start: paragraph for paragraph in wrapped_paragraphs(lines)
                  if taken.isdisjoint(range(paragraph.start, paragraph.end))}
    inside = {k for span in spans.values() for k in range(span.start + 1, span.end)}
    starts = [k for k in range(len(lines)) if k not in inside | kept]
    units = [text_of(lines, spans[k]) if k in spans else lines[k] for k in starts]
    translations = translate_lines(units, translator, options, review, empty_kept=empty_kept,
                                   places=[Place(None, first_line + k) for k in starts])
    groups = [[] if k in inside else [line] for k, line in enumerate(lines)]
    for k, unit, translation in zip(starts, units, translations, strict=True):
        if (span := spans.get(k)) is None:
            groups[k] = [translation]
        else:
            own = lines[k:span.end]
            groups[k], groups[span.end - 1] = [], list(own) if translation == unit else written(translation, span, own)
    return groups


def text_of(lines: Sequence[str], span: Wrapped | Header) -> str:
    """What the model reads of a paragraph (``joined``) or a subject (its value)."""
    return span.value if isinstance(span, Header) else joined(lines, span)


def written(translation: str, span: Wrapped | Header, lines: Sequence[str]) -> list[str]:
    """A paragraph's ``translation`` filled again as its source ``lines`` were (``with_line_ends``), or a
    subject's after its key: on its one line, or folded again onto its lines' indentation within its width."""
    if isinstance(span, Wrapped):
        return with_line_ends(filled(translation, span), lines)
    if span.end - span.start == 1:
        return [span.key + translation]
    return filled(translation, Wrapped(span.start, span.end, span.key, span.indent, span.width))


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
