"""A field's or a remark's name (or a speaker's label) that a look of its own sets apart at a text line's start, an HTML
element's (attnmt.documents.text_tags: ``<b>WARNING:</b> Do not touch the dog.``, ``<strong>Note:</strong> the park
closes at 6.``) or Markdown's emphasis (attnmt.documents.text_emphasis: ``**Warning:** Do not touch the dog.``): read
as a page's block reads it (attnmt.documents.markup_fields), the name a sentence of its own inside its element, its
colon kept as written, and the words after it a sentence (list_marks.field_alone: a remark's name so set apart is a
field's, list_marks.set_apart_field).  Read whole, the look around a word of it, the demo model wrote
"<b>WARNING:</b> Do not touch the dog." as "Ein <b>bereitet</b> sich zu.", the label lost and the bold moved onto
another word, where ``<p><b>WARNING:</b> Do not touch the dog.</p>`` came back "<p><b>WARNING:</b> Ein Wanderer
versucht den Hund.</p>"."""

from __future__ import annotations

import re
from collections.abc import Iterable

from attnmt.documents.flat import FlatBuilder
from attnmt.documents.list_marks import field_alone, is_label_alone
from attnmt.documents.terminal_codes import Style
from attnmt.documents.text_emphasis import EMPHASIS
from attnmt.documents.text_tags import TAG, Tag, markup, paired
from attnmt.text.list_marks import LIST_MARK

PLAIN = re.compile(r"[^<>*_~`\[\]\t\n]*")  # a look's words with no markup of their own inside


def opening_look(text: str) -> tuple[str, str, str, str] | None:
    """(its opening tag or mark, the words inside, its closing one, the rest) of the look ``text`` opens with, after
    its spaces: an element of text_tags' whose end tag closes it (``<b>WARNING:</b>``), or Markdown's emphasis
    (``**Warning:**``), around words with no markup of their own; None for none."""
    at = len(text) - len(text.lstrip(" "))
    tags = list(TAG.finditer(text))
    start = next((tag for tag in markup(tags) if tag.start() == at and not tag["end"]), None)
    end = paired(tags).get(at) if start is not None else None
    if start is not None and end is not None and PLAIN.fullmatch(text, start.end(), end.start()):
        return start[0], text[start.end():end.start()], end[0], text[end.end():]
    found = EMPHASIS.match(text, at)
    mark, inner = (found["mark"] or found["under"], found["inner"] or found["spaced"]) if found else ("", "")
    if found is None or not PLAIN.fullmatch(inner):
        return None
    return mark, inner, mark, text[found.end():]


def named_look(text: str, speakers: frozenset[str] = frozenset()) -> tuple[tuple[str, str, str, str],
                                                                           tuple[int, int]] | None:
    """The look ``text`` opens with (``opening_look``) and where the field's name inside it ends and its colon does
    (list_marks.field_alone: in the look, or right after it), where the look sets a field's name apart (one of the
    dialogue's ``speakers`` none); None for none."""
    look = opening_look(text)
    span = field_alone(look[1], look[3], speakers) if look is not None else None
    return (look, span) if look is not None and span is not None else None


def after_set_apart_name(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset()) -> str:
    """What of ``text`` (a text line's, after its list mark) follows a field's name set apart by the look it opens
    with and the colon after it (``named_look``), the spaces before the look, the look with the name inside it a
    sentence of its own, and the colon, an atom, added to ``builder``; or of the look that holds a speaker's label
    alone (list_marks.is_label_alone, one of the dialogue's ``speakers`` too), added as an atom, kept whole as a
    page's is (markup_fields.is_label_element): read as words, the demo model wrote "<b>ANNA:</b> Where are you
    going?" as "Ein <b>Feuerwehrmann</b> bereitet sich?"; all of ``text`` where it opens with neither."""
    look, found = opening_look(text), named_look(text, speakers)
    if look is not None and found is None and is_label_alone(look[1], look[3], speakers):
        builder.add_text(text[:len(text) - len(text.lstrip(" "))])
        builder.add_atom(literal="".join(look[:3]))
        return look[3]
    if found is None:
        return text
    (opening, inner, closing, rest), (end, colon) = found
    builder.add_text(text[:len(text) - len(text.lstrip(" "))])
    builder.open(Tag(opening, closing) if opening.startswith("<") else Style(opening, closing))
    builder.add_text(inner[:end])
    builder.breaks.append(len(builder.text))
    builder.add_atom(literal=inner[end:colon])
    builder.add_text(inner[colon:])
    builder.close()
    if colon > len(inner):  # "**Side Effects**: nausea": the colon after the look
        builder.add_atom(literal=rest[:colon - len(inner)])
    return rest[max(colon - len(inner), 0):]


def set_apart_names(lines: Iterable[str], speakers: frozenset[str] = frozenset()) -> frozenset[str]:
    """The names of the fields that ``lines`` open with, after a list mark, set apart by a look (``named_look``), as
    each is translated alone: "WARNING" of "<b>WARNING:</b> Do not touch the dog."; a short label the model garbles
    keeps its source (attnmt.documents.short_labels), as a text line's field's name does (list_marks.field_labels)."""
    found = set()
    for line in lines:
        mark = LIST_MARK.match(line)
        if named := named_look(line[mark.end("mark"):] if mark else line, speakers):
            found.add(named[0][1][:named[1][0]].strip())
    return frozenset(found)
