"""Word's ``IF`` field, the choice a mail merge makes between two texts:
``{ IF { MERGEFIELD Gender } = "F" "Dear Madam" "Dear Sir" }``.

Its code compares two values (``{ MERGEFIELD Gender }`` and ``"F"``) and gives the first text where
they match, the second where not; its result is the text Word chose the last time it computed it
("Dear Sir").  The two texts are what a reader sees, written by the author: kept, the letter greeted
its reader in the source's language whatever the field chose.  So each of the two texts with words
is translated (IfFieldJob), as a link field's screen tip is (attnmt.documents.link_tips), and the
result, where it is one of them, is written as that text's translation: what Word shows before it
computes the field again is what it shows after.  A text is a part of the sentence the field stands in, and is
written so (attnmt.documents.chosen_items: "der alte Mann" for "the old man").  The compared values are data,
never read, and so is every other part of the code (the field in it, a ``\\* MERGEFORMAT`` switch).

A text is read from the ``w:instrText``s it lies in (Word splits a code where it was typed at
different times), or the ``w:instr`` of a ``w:fldSimple``; one that holds a field of its own ("Dear
{ MERGEFIELD Name }") is kept as it is, as a result that is neither text (or that holds a field) is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

from attnmt.documents.chosen_items import as_written
from attnmt.documents.flat import FlatBuilder, FlatText, Place
from attnmt.documents.spans import Nested, plain
from attnmt.documents.wordml import w
from attnmt.documents.xstring import replace_text, text_in

OPERATORS = frozenset({"=", "<>", "<", "<=", ">", ">="})
NESTED = "\x00"  # stands for a field inside the code, which no code's text holds
# A token of a field's code: a quoted text (\" a quote, \\ a backslash in it), a field inside it, or a word.
TOKEN = re.compile(rf'"((?:[^"\\]|\\.)*)"|{NESTED}|[^\s"{NESTED}]+', re.DOTALL)
CODE_TAGS = (w("fldChar"), w("instrText"), w("t"), w("fldSimple"))
# A piece of a field's code: the element whose text (or attribute) holds it, or None for a field inside it.
Piece = tuple[etree._Element, str | None] | None


@dataclass
class Choice:
    """One of the two texts of an IF field's code: its ``segments``, each a piece of the code (an
    element, or the ``attribute`` of one, whose code holds it) and its [start, end) there, in order
    (Word splits a code's text over several ``w:instrText`` where it was typed at different times),
    and whether it is quoted."""

    segments: list[tuple[tuple[etree._Element, str | None], int, int]]
    quoted: bool

    def text(self) -> str:
        written = "".join(code_of(piece)[start:end] for piece, start, end in self.segments)
        return re.sub(r"\\(.)", r"\1", written) if self.quoted else written

    def write(self, text: str) -> None:
        """``text`` in the first segment's place, escaped (and quoted where a word became several), the
        others emptied."""
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        if not self.quoted and (escaped != text or not text or any(c.isspace() for c in text)):
            escaped = f'"{escaped}"'  # an unquoted word translated into several: quoted, or it would be several
        self.place(escaped)

    def place(self, escaped: str) -> None:
        """``escaped``, the code's text for the choice, in the first segment's place, the others emptied."""
        for number, ((element, attribute), start, end) in reversed(list(enumerate(self.segments))):
            code = code_of((element, attribute))
            code = code[:start] + (escaped if number == 0 else "") + code[end:]
            if attribute is not None:
                element.set(attribute, code)
            else:
                replace_text(element, code)


class IfFieldJob:
    """The texts of an IF field to translate (the module docstring), each one flat text, and the
    ``result``'s ``w:t`` elements, written with the translation of the text they show."""

    def __init__(self, choices: Sequence[Choice], result: Sequence[etree._Element],
                 target_lang: str | None = None) -> None:
        self.choices, self.result, self.target_lang = list(choices), list(result), target_lang
        self.texts = [choice.text() for choice in self.choices]
        self.lines = [flat_text(text) for text in self.texts]
        # (its result's first part, the text it showed, its translation) once finished, where it changed
        self.reshown: tuple[etree._Element, str, str] | None = None
        # (its place, a text's source, its translation as written) once finished, for its review row (Review.written)
        self.chosen: list[tuple[Place | None, str, str]] = []

    def flats(self) -> list[FlatText]:
        return self.lines

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        # each a part of the sentence it is shown in: "der alte Mann" for "the old man", not "Der alte Mann"
        translations = [as_written(text, plain(content), self.target_lang)
                        for text, content in zip(self.texts, results, strict=True)]
        for choice, translation in reversed(list(zip(self.choices, translations, strict=True))):
            choice.write(translation)  # the last first: the first's place in a code they share stays where it was
        self.chosen = [(line.place, text, translation)
                       for line, text, translation in zip(self.lines, self.texts, translations, strict=True)]
        shown = "".join(text_in(part) for part in self.result)
        chosen = next((translation for source, translation in zip(self.texts, translations, strict=True)
                       if source == shown), None)
        if self.result and chosen is not None:
            self.reshown = (self.result[0], shown, chosen)
            replace_text(self.result[0], chosen)
            for part in self.result[1:]:
                replace_text(part, "")


def flat_text(text: str) -> FlatText:
    builder = FlatBuilder(collapse=False)
    builder.add_text(text)
    return builder.build()


def if_field_job(node: etree._Element, reads: Callable[[str], bool],
                 target_lang: str | None = None) -> IfFieldJob | None:
    """The job of the IF field whose code starts in ``node`` (a ``w:instrText``, or a ``w:fldSimple``),
    for the texts of it that ``reads`` (those with words); None for any other node, or an IF field
    whose code is not that of two values compared and two texts (``IF a = b "yes" "no"``)."""
    code = node.get(w("instr"), "") if node.tag == w("fldSimple") else text_in(node)
    if [word.upper() for word in code.split()[:1]] != ["IF"]:
        return None
    found = field_pieces(node)
    if found is None:
        return None
    pieces, result = found
    choices = chosen(pieces)
    if choices is None:
        return None
    wanted = [choice for choice in choices if reads(choice.text())]
    return IfFieldJob(wanted, result, target_lang) if wanted else None


def field_pieces(node: etree._Element) -> tuple[list[Piece], list[etree._Element]] | None:
    """The pieces of the code of the field whose code starts in ``node`` and its result's ``w:t``s: a
    ``w:fldSimple``'s code is its ``w:instr`` attribute, a complex field's its ``w:instrText``s
    (``complex_pieces``, None where it does not end in ``node``'s paragraph)."""
    if node.tag == w("fldSimple"):
        return [(node, w("instr"))], list(node.iter(w("t")))
    return complex_pieces(node)


def complex_pieces(first: etree._Element) -> tuple[list[Piece], list[etree._Element]] | None:
    """The pieces of the code of the complex field whose code starts in ``first`` (its
    ``w:instrText``s, None for each field inside it), and its result's ``w:t``s (none where the
    result holds a field); None where the field does not end in ``first``'s paragraph."""
    paragraph = next(first.iterancestors(w("p")), None)
    if paragraph is None:
        return None
    parts = list(paragraph.iter(*CODE_TAGS))
    pieces: list[Piece] = []
    result: list[etree._Element] = []
    depth, in_result, nested_result = 1, False, False
    for part in parts[parts.index(first):]:
        kind = part.get(w("fldCharType")) if part.tag == w("fldChar") else None
        if kind == "begin":
            depth += 1
            if depth == 2 and not in_result:
                pieces.append(None)
            nested_result = nested_result or in_result
        elif kind == "end":
            depth -= 1
            if not depth:
                return pieces, [] if nested_result else result
        elif kind == "separate" and depth == 1:
            in_result = True
        elif part.tag == w("instrText") and depth == 1 and not in_result:
            pieces.append((part, None))
        elif part.tag == w("t") and depth == 1 and in_result:
            result.append(part)
    return None


def chosen(pieces: Sequence[Piece]) -> list[Choice] | None:
    """The two texts (or the one, where the second is left out) of an IF field's code, of ``pieces``
    (each an element and the attribute its code is in, or None for a field inside the code), that
    hold no field; None where the code is no comparison of two values."""
    code, owners = "", []
    for piece in pieces:
        owners += [(piece, len(code))]
        code += NESTED if piece is None else code_of(piece)
    tokens = list(TOKEN.finditer(code))
    if len(tokens) < 5 or tokens[0].group().upper() != "IF" or tokens[2].group() not in OPERATORS:
        return None
    choices = []
    for token in tokens[4:6]:
        quoted = token.group(1) is not None
        start, end = token.span(1) if quoted else token.span()
        if token.group() == NESTED or token.group().startswith("\\") or NESTED in code[start:end]:
            continue  # a field, a switch (\* MERGEFORMAT: no second text), or a text holding a field
        segments = spanning(owners, start, end)
        choices += [Choice(segments, quoted)] if segments else []  # "": nothing to read
    return choices


def spanning(owners: Sequence[tuple[Piece, int]], start: int, end: int) -> list[
        tuple[tuple[etree._Element, str | None], int, int]]:
    """The segments of the code's [``start``, ``end``): each piece of ``owners`` (a piece of the code and where
    it starts in it) that holds some of it, and its [start, end) there."""
    return [(piece, max(start, at) - at, min(end, at + len(code_of(piece))) - at)
            for piece, at in owners if piece is not None and at < end and start < at + len(code_of(piece))]


def code_of(piece: tuple[etree._Element, str | None]) -> str:
    """The code text of ``piece``: its element's text, or its attribute's value."""
    element, attribute = piece
    return element.get(attribute, "") if attribute is not None else text_in(element)

