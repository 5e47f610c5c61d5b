"""A list's mark at the start of a line of plain text or a JSONL text (attnmt.text.list_marks.LIST_MARK), kept
whole, an atom at the line's start (attnmt.documents.pipeline.flat_line, attnmt.documents.whole_sentence.flat_whole),
and what follows it is the line's text; in a text line, at the start of each field after a tab or a line break too,
which ends a sentence as the line's start does: "- A dog runs.\t- A cat sleeps." lost its second "- "; and at the
start of an HTML block's text (attnmt.documents.markup_runs.flatten): ``<p>(2) Two dogs play.</p>`` lost its "(2)".
A speaker's label after the mark, or at the start where there is none (attnmt.text.speaker_labels: ``ANNA: Where
are you going?``, ``- Q: How long?``), is kept so in a text line and a JSONL text (``after_line_start``), and at a
Word paragraph's start (``after_speaker_label``); so is one that a look of its own sets apart at a block's start
(``is_label_alone``: ``<p><b>INTERVIEWER:</b> How did you start?</p>``, a bold run in Word).  A sound's
description in brackets after them, before words, ends a sentence in a text line, an HTML block and a Word paragraph
(``after_description``), as a cue's is translated alone (attnmt.documents.cue_labels)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from attnmt.documents.flat import FIELD_END, FlatBuilder
from attnmt.text.field_names import kept_value
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.speaker_labels import (
    BRACKETED,
    DESCRIPTIONS,
    LABEL,
    REMARKS,
    descriptions_end,
    field_name,
    labelled,
    speaker_label,
)

REMARK_WORDS = 3  # a remark's name has this many words at most: "Tip", "Important note", "Kitchen safety warning"


def after_list_mark(builder: FlatBuilder, line: str) -> str:
    """What of ``line`` follows its list mark (``LIST_MARK``), the mark and the spaces before it added to
    ``builder`` (an atom, kept where it stood); all of ``line`` where it starts with none."""
    mark = LIST_MARK.match(line)
    return line if mark is None else kept_start(builder, line, mark, "mark")


def after_line_start(builder: FlatBuilder, line: str, speakers: frozenset[str] = frozenset()) -> str:
    """What of ``line`` follows its list mark (``after_list_mark``) and the speaker's label after it
    (attnmt.text.speaker_labels.speaker_label, with the ``speakers`` of the dialogue ``line`` is of), each added to
    ``builder`` as an atom, kept where it stood."""
    text = after_list_mark(builder, line)
    label = speaker_label(text, speakers)
    return text if label is None else kept_start(builder, text, label, "label")


def after_line_head(builder: FlatBuilder, line: str, speakers: frozenset[str] = frozenset()) -> str:
    """What of ``line`` follows its list mark and speaker's label (``after_line_start``), the name of a field
    (``after_field_name``) and the sound descriptions after them (``after_description``), the name and the
    descriptions each a sentence of their own: a text line's start, an HTML block's."""
    text = after_field_name(builder, after_line_start(builder, line, speakers), speakers)
    return after_described_label(builder, text, speakers)


def after_field_name(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset(), after: str = "",
                     apart: bool = False) -> str:
    """What of ``text`` follows the colon after the name of a field it starts with (attnmt.text.speaker_labels.
    field_name: "BENEFITS: Free parking."), the name added to ``builder`` as a sentence of its own and the colon as an
    atom, kept as written; all of ``text`` where it starts with none.  Read with its value, the demo model lost the
    name: "BENEFITS: Free parking and Wi-Fi." came back "Auf einem Parkplatz ...".  A value that is a measure alone
    or persons' names after a role (field_names.kept_value: "15 min", "TRANSLATOR: Ann Goldstein") is kept as written
    too.  ``after``: what follows ``text`` in its block, where ``text`` is a piece of its own, the value after it
    (``field_alone``); ``apart``: that piece has a look of its own, which sets a name in sentence case apart as a
    field's (``field_in``: "Prep time:" in bold before " 15 min")."""
    found = field_in(text, after, speakers, apart)
    if found is None or found[1] > len(text):
        return text
    builder.add_text(text[:found[0]])
    builder.breaks.append(len(builder.text))
    builder.add_atom(literal=text[found[0]:found[1]])
    if not after and kept_value(text[:found[0]], text[found[1]:]):  # "PREP TIME: 15 min": kept as written
        builder.add_atom(literal=text[found[1]:])
        return ""
    return text[found[1]:]


def after_speaker_label(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset(),
                        after: str = "", apart: bool = False) -> str:
    """What of ``text`` follows the speaker's label it starts with (one of the dialogue's ``speakers`` too), the label
    added to ``builder`` as an atom, kept where it stood, and the sound descriptions after it, a sentence of their own
    (``after_description``: a Word paragraph's "[LAUGHS] Yes." as a text line's); or the name of a field it starts
    with (``after_field_name``, its value in ``after`` where a run holds the name alone: "Ingredients:" in bold
    before " flour, eggs", ``apart`` where its look sets it apart); all of ``text`` where it starts with none."""
    return after_described_label(builder, after_label(builder, text, speakers, after, apart), speakers)


def after_label(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset(), after: str = "",
                apart: bool = False) -> str:
    """What of ``text`` follows the speaker's label it starts with (one of the dialogue's ``speakers`` too), added to
    ``builder`` as an atom, kept where it stood, or the name of a field and its colon (``after_field_name``, its value
    in ``after`` too, ``apart`` where its look sets it apart); all of ``text`` where it starts with neither."""
    label = speaker_label(text, speakers)
    if label is None:
        return after_field_name(builder, text, speakers, after, apart)
    return kept_start(builder, text, label, "label")


def after_described_label(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset()) -> str:
    """What of ``text`` follows the sound descriptions it starts with (``after_description``) and a speaker's label
    or a field's name right after them (``after_label``: "[MUSIC] ANNA: Where are you?", "(MUSIC CONTINUES) NARRATOR:
    Once upon a time."); all of ``text`` where it starts with no description.  Read with the words after it, the demo
    model wrote "[MUSIC] ANNA: Where are you?" as "[MUSIK] Auf diesem Fünen.", the name lost."""
    described = after_description(builder, text)
    return described if described == text else after_label(builder, described, speakers)


def is_label_alone(said: str, after: str, speakers: frozenset[str] = frozenset()) -> bool:
    """Whether ``said``, the first piece of a block with a look of its own (an HTML element's text, a Word run's),
    is a speaker's label alone (one of the dialogue's ``speakers`` too), and ``after`` it come words: "INTERVIEWER:"
    before " How did you start?"."""
    found = speaker_label(f"{said.strip()} {after.strip()}", speakers)
    return found is not None and found.end("label") == len(said.strip()) and bool(after.strip())


def field_alone(said: str, after: str, speakers: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Where a field's name ends and its colon does (attnmt.text.speaker_labels.field_name), where ``said``, the first
    piece of a block with a look of its own (an HTML element's text), holds the name, its colon in it or at the start
    of ``after``, and after it comes the value: "Ingredients:" before " flour, eggs", "Side Effects" before ":
    nausea"; None for none.  Read with its value, the demo model wrote ``<p><b>Ingredients:</b> flour, eggs</p>`` as
    "Krankenschwestern <b>in einer</b> Badewanne mit Eiern", the name and its colon lost."""
    found = set_apart_field(said + after, len(said), speakers)
    return found if found is not None and found[0] <= len(said) else None


def value_kept(said: str, after: str, speakers: frozenset[str] = frozenset(), apart: bool = False) -> bool:
    """Whether ``said``, the first piece of a paragraph (a Word run; ``apart`` where its look is its own), is a
    field's name and its colon alone (``field_in``), and its value ``after`` it is kept as written (field_names.
    kept_value: "Translator:" in bold before " Ann Goldstein", which the demo model wrote "Ein Moner läuft")."""
    found = field_in(said, after, speakers, apart)
    return (found is not None and found[1] <= len(said) and not said[found[1]:].strip()
            and kept_value(said[:found[0]], said[found[1]:] + after))


def set_apart_field(text: str, end: int, speakers: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Where the name of a field ``text`` opens with ends and its colon does (attnmt.text.speaker_labels.
    field_name), where its first ``end`` characters have a look of their own (bold, its own element): written in
    sentence case too, each word's first letter read as a capital ("<strong>Prep time:</strong> 15 min", "Side
    effects:"), as a look that sets the name apart says what title case says in a text line.  Read whole, the demo
    model wrote "Prep time: 15 min" as "Müner haben Spaß".  So set apart, a remark's name is a field's too
    (``remark_name``: "<b>Tip:</b> Add salt.").  A look that goes on past the colon sets no name apart: a link's or
    a heading's whole title, "<a>Part One: The storm</a>" in an EPUB's contents, is one title, where its words read
    in title case had made "Part One" a field's name before a person's ("The Storm"), translated alone."""
    found = field_name(text, speakers)
    if found is not None:
        return found
    capitalised = re.sub(r"(?<![^\W\d_])[^\W\d_]", lambda letter: letter[0].upper()
                         if len(letter[0].upper()) == 1 else letter[0], text[:end])
    found = field_name(capitalised + text[end:], speakers) or remark_name(capitalised + text[end:])
    return found if found is not None and found[1] >= len(text[:end].rstrip()) else None


def remark_name(line: str) -> tuple[int, int] | None:
    """Where the name of a remark that ``line`` opens with, after its list mark, ends and where the colon after it
    does: ``REMARK_WORDS`` words at most written as a label is (speaker_labels.labelled), the last a remark's word
    (speaker_labels.REMARKS: "Tip", "Important Note", "WARNING"; not "Note That"); None for none.  In a line of text
    such a word is read with its sentence; set apart by a look of its own (``set_apart_field``) it is a name the
    model lost read whole: the demo model wrote ``<p><b>Tip:</b> Add salt.</p>`` as ``<p>Ein <b>Dema.</b></p>``."""
    mark = LIST_MARK.match(line)
    found = LABEL.match(line, mark.end("mark") if mark else 0)
    words = re.findall(r"[^\W\d_]+", found["label"]) if found else []
    if found is None or not 0 < len(words) <= REMARK_WORDS or words[-1].upper() not in REMARKS or not labelled(words):
        return None
    return found.start("label") + len(found["label"][:-1].rstrip()), found.end("label")


def field_in(said: str, after: str, speakers: frozenset[str], apart: bool) -> tuple[int, int] | None:
    """Where the name of a field that ``said`` then ``after`` open with ends and its colon does: read as a text
    line's (attnmt.text.speaker_labels.field_name), or, where ``said`` has a look of its own (``apart``: a Word or
    PowerPoint run in bold before its value in plain text), in sentence case too (``set_apart_field``): "Prep
    time:" in bold, then " 15 min", which the mirror translator wrote whole as "MIN 15 TIME: PREP"."""
    return set_apart_field(said + after, len(said), speakers) if apart else field_name(said + after, speakers)


def kept_start(builder: FlatBuilder, line: str, found: re.Match[str], name: str) -> str:
    """What of ``line`` follows the group ``name`` of ``found``, its indent added to ``builder`` as text and the
    group as an atom, kept where it stood."""
    builder.add_text(found["indent"])
    builder.add_atom(literal=found[name])
    return line[found.end(name):]


def after_description(builder: FlatBuilder, text: str) -> str:
    """What of ``text`` follows the descriptions in brackets it starts with (``DESCRIPTIONS``), added to ``builder``
    as a sentence of their own, each (``BRACKETED``: "[MUSIC]", then "(cheering)"); all of ``text`` where it starts
    with none.  Read with the words after them, the demo model wrote "[LAUGHS] Yes, of course." as "Häner
    bewäntliche U-Fahrerfahrer.", the brackets lost; alone, it wrote "[LAUGHS]" as "[EINE LACHT]", and two together,
    "[MUSIC] (cheering)", as "Großer Ärenen"."""
    found = DESCRIPTIONS.match(text)
    if found is None:
        return text
    at = 0
    for each in re.finditer(BRACKETED, found[0]):
        builder.add_text(found[0][at:each.end()])
        builder.breaks.append(len(builder.text))
        at = each.end()
    return text[found.end():]


def after_block_mark(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset()) -> str:
    """``after_line_start`` of the text that starts an HTML block, after the line breaks and spaces its markup put
    there (``<li>\n  a) A cat sleeps.</li>``, ``<p>ANNA: Where are you?</p>``), which go into ``builder`` first
    where it starts with a mark or a speaker's label (one of the page's dialogue's ``speakers`` too)."""
    words = text.lstrip()
    if (LIST_MARK.match(words) is None and speaker_label(words, speakers) is None and DESCRIPTIONS.match(words) is None
            and field_name(words, speakers) is None):
        return text
    builder.add_text(text[:len(text) - len(words)])
    return after_line_head(builder, words, speakers)


def add_fields(builder: FlatBuilder, text: str, speakers: frozenset[str] = frozenset()) -> None:
    """``text``, a piece of a text line, into ``builder``, the list mark that starts a field after each of its tabs
    and line breaks (``FIELD_END``), and the speaker's label after it (one of the dialogue's ``speakers`` too), kept
    as ``after_line_start`` keeps the line's, or the name of a field, a sentence of its own (``after_field_name``)."""
    fields = re.split(f"({FIELD_END.pattern})", text)  # fields at even places, what parts them at odd ones
    builder.add_text(fields[0])
    for end, field in zip(fields[1::2], fields[2::2], strict=True):
        builder.add_text(end)
        builder.add_text(after_field_name(builder, after_line_start(builder, field, speakers), speakers))


def field_labels(lines: Iterable[str], speakers: frozenset[str] = frozenset()) -> frozenset[str]:
    """The names of the fields ``lines`` open with, after a list mark or sound descriptions (``after_field_name``,
    the dialogue's ``speakers`` none of them), as each is translated alone: "PREP TIME" of "PREP TIME: 15 min",
    "INGREDIENTS" of "[MUSIC] INGREDIENTS: Flour."; a short label the model garbles keeps its source
    (attnmt.documents.short_labels)."""
    found = set()
    for line in lines:
        text = line[at:].lstrip(" \t") if (at := descriptions_end(line, speakers)) else line
        if field := field_name(text, speakers):
            mark = LIST_MARK.match(text)
            found.add(text[mark.end("mark") if mark else 0:field[0]].strip())
    return frozenset(found)
