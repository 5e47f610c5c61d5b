"""The words of a Word document's index and contents entries, which live in field codes: ``{ XE
"Fruit:orange" \\t "See also park" }`` marks "orange", under "Fruit", for the index that an ``INDEX``
field builds, and ``{ TC "Watering and care" }`` an entry for a table of contents.

Word builds the index from those codes whenever someone updates the fields, and shows what it last
built, the ``INDEX`` field's result, until then.  That result is read as its paragraphs' own words
(attnmt.documents.fields' OPEN_KINDS), and the codes' entries are translated here, so that the
translated document's index reads in the target language, and goes on doing so once Word builds it
again; kept, the first update of the fields brought back every English entry.  What is translated:
an ``XE`` field's entry, each of its levels apart (Word parts them with ``:``, and lists "orange"
under "Fruit"), and its cross-reference's text (``\\t "See also park"``); a ``TC`` field's entry.
Every other part of a code is kept as written: a switch, a bookmark's name (``\\r``), an entry's
type (``\\f``), the reading of a Japanese entry (``\\y``), an entry without letters.

A code may be split over several ``w:instrText`` elements (Word starts a new one where the typing
stopped); the translated code is written whole into the first, and the others are emptied, but where
an entry's words are in runs of several looks (a bold word in it, which the index shows bold): those
are carried through translation (attnmt.documents.entry_looks).  A simple field (``w:fldSimple``)
holds its code in ``w:instr``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

from lxml import etree

from attnmt.documents.archive import Part
from attnmt.documents.entry_looks import (
    LookedEntry,
    Piece,
    code_pieces,
    looks_differ,
    pieces_in,
    replaced,
    side_by_side,
    write_pieces,
)
from attnmt.documents.fields import ARGUMENT, ESCAPED, field_code_kind, field_kind
from attnmt.documents.letterless import needs_translation
from attnmt.documents.pipeline import DocumentOptions, translate_flats, translate_lines
from attnmt.documents.review import Review
from attnmt.documents.tables import XML_SPACE
from attnmt.documents.translator_parts import translator_glossary
from attnmt.documents.translators import ForXml, Translator
from attnmt.documents.wordml import w
from attnmt.documents.xstring import text_in

ENTRY_KINDS = frozenset({"XE", "TC"})  # the fields whose code holds an entry's words
LEVEL = re.compile(r"(?<!\\):")  # where an XE entry's levels part: a colon that is not escaped (``\:``)


def entry_spans(code: str) -> list[tuple[int, int]]:
    """Where the texts to translate are in ``code`` (module docstring): each quoted text's inside,
    or a bare word's whole."""
    arguments = list(ARGUMENT.finditer(code))
    if not arguments or field_code_kind(code) not in ENTRY_KINDS:
        return []
    spans = [argument_span(arguments[1])] if len(arguments) > 1 and not arguments[1].group(2) else []
    if field_code_kind(code) == "XE":
        spans += [argument_span(after) for switch, after in zip(arguments[1:], arguments[2:], strict=False)
                  if (switch.group(2) or "").lower() == "\\t" and not after.group(2)]
    return spans


def argument_span(argument: re.Match[str]) -> tuple[int, int]:
    group = 1 if argument.group(1) is not None else 3
    return argument.start(group), argument.end(group)


def levels(code: str, span: tuple[int, int]) -> list[str]:
    """The texts, unescaped, that the code's text at ``span`` holds: an XE entry's levels."""
    written = code[span[0]:span[1]]
    parts = LEVEL.split(written) if field_code_kind(code) == "XE" else [written]
    return [ESCAPED.sub(r"\1", part) for part in parts]


def written(text: str, kind: str) -> str:
    """``text`` as a code's quoted text holds it: a backslash and a double quote escaped, and a colon
    in an XE entry, which would part it into levels."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return text.replace(":", "\\:") if kind == "XE" else text


def translated_code(code: str, translations: dict[str, str]) -> str:
    """``code`` with each text of its entries (entry_spans) that ``translations`` holds written as
    its translation."""
    for span in reversed(entry_spans(code)):
        code = code[:span[0]] + translated_span(code, span, translations) + code[span[1]:]
    return code


def translated_span(code: str, span: tuple[int, int], translations: dict[str, str]) -> str:
    """The text of ``code`` at ``span`` (one of entry_spans) with each level that ``translations``
    holds written as its translation, quoted where a bare word became several."""
    new = ":".join(written(translations.get(part, part), field_code_kind(code)) for part in levels(code, span))
    return new if code[span[0] - 1:span[0]] == '"' or " " not in new else f'"{new}"'


def looked_spans(code: EntryCode) -> list[tuple[int, int]]:
    """The quoted texts of ``code``'s entries (entry_spans) whose characters are in runs of more than
    one look, each in a run of its own side by side: they are translated as a paragraph of those
    runs is (attnmt.documents.entry_looks)."""
    if code.holders[0].tag == w("fldSimple") or not side_by_side(code.holders):
        return []
    pieces, text = code_pieces(code.holders), code.code
    return [span for span in entry_spans(text)
            if text[span[0] - 1:span[0]] == '"' and looks_differ(pieces_in(pieces, *span))]


def looked_entry(code: EntryCode, span: tuple[int, int]) -> LookedEntry:
    """The text of ``code`` at ``span`` (looked_spans) as a paragraph of its runs, level by level,
    each stretch unescaped."""
    parted: list[list[Piece]] = [[]]
    for run, raw in pieces_in(code_pieces(code.holders), *span):
        for index, part in enumerate(LEVEL.split(raw) if field_code_kind(code.code) == "XE" else [raw]):
            if index:
                parted.append([])
            if part:
                parted[-1].append((run, ESCAPED.sub(r"\1", part)))
    return LookedEntry(parted)


class EntryCode:
    """One field's code: the ``w:instrText`` elements it is written in, or a simple field's attribute."""

    def __init__(self, holders: list[etree._Element]) -> None:
        self.holders = holders  # entry_codes adds a complex field's elements as it reads them

    @property
    def code(self) -> str:
        first = self.holders[0]
        return first.get(w("instr"), "") if first.tag == w("fldSimple") else "".join(map(text_in, self.holders))

    def write(self, code: str) -> None:
        first = self.holders[0]
        if first.tag == w("fldSimple"):
            first.set(w("instr"), code)
            return
        for holder, text in zip(self.holders, [code, *[""] * (len(self.holders) - 1)], strict=True):
            del holder[:]
            holder.text = text
            holder.set(XML_SPACE, "preserve")


def entry_codes(root: etree._Element) -> list[EntryCode]:
    """The codes of ``root``'s entry fields (ENTRY_KINDS), in the order they begin."""
    found: list[EntryCode] = []
    open_codes: list[list[etree._Element] | None] = []  # each complex field open: its code's elements, until its result
    for node in root.iter(w("fldChar"), w("instrText"), w("fldSimple")):
        kind = field_kind(node)
        if node.tag == w("fldSimple"):
            found.append(EntryCode([node]))
        elif kind == "begin":
            holders: list[etree._Element] = []
            open_codes.append(holders)
            found.append(EntryCode(holders))
        elif kind == "separate" and open_codes:
            open_codes[-1] = None
        elif kind == "end" and open_codes:
            open_codes.pop()
        elif node.tag == w("instrText") and open_codes and (code := open_codes[-1]) is not None:
            code.append(node)
    return [code for code in found if code.holders and entry_spans(code.code)]


def translate_entries(parts: Iterable[Part], translator: Translator, options: DocumentOptions,
                      review: Review | None = None) -> None:
    """Each entry field's words in ``parts`` (a Word document's) translated by ``translator``, each
    text once, and the parts holding one marked changed (module docstring); an entry in runs of
    several looks is translated with them (``looked_spans``).  ``review`` lists each text at the part
    that holds it (Review.places_after), as it lists a paragraph's."""
    glossary = translator_glossary(translator)
    held = [(part, code) for part in parts for code in entry_codes(part.tree.getroot())]
    found = [(part.member, (code, span)) for part, code in held for span in looked_spans(code)]
    looked = {key: looked_entry(*key) for _, key in found}
    texts = ((part.member, text) for part, code in held for span in entry_spans(code.code)
             if (code, span) not in looked for text in levels(code.code, span))
    todo = [(member, text) for member, text in dict.fromkeys(texts) if needs_translation(text, glossary)]
    if not todo and not looked:
        return
    places = review.places_after([member for member, _ in [*todo, *found]]) if review is not None else None
    translated = translate_lines([text for _, text in todo], ForXml(translator), options, review, empty_kept=True,
                                 places=places and places[:len(todo)])
    translations = {text: now for (_, text), now in zip(todo, translated, strict=True)}
    if review is not None and places is not None:  # each text's row shows what the code holds
        for place, (_, text) in zip(places[:len(todo)], todo, strict=True):
            review.written(place, text, translations[text])
    if looked:
        entries = list(looked.values())
        for entry, place in zip(entries, places[len(todo):], strict=True) if places else ():
            entry.flat.place = place
        for entry, content in zip(entries, translate_flats([entry.flat for entry in entries], ForXml(translator),
                                                           options, review), strict=True):
            entry.translated(content)
    for part, code in held:
        part.changed |= write_entry(code, translations, looked)


def write_entry(code: EntryCode, translations: dict[str, str],
                looked: dict[tuple[EntryCode, tuple[int, int]], LookedEntry]) -> bool:
    """``code`` written with its entries' texts translated: by ``translations``, or, in runs of several
    looks, as ``looked`` holds them translated; whether it changed."""
    if not any(held is code for held, _ in looked):
        new = translated_code(code.code, translations)
        if new != code.code:
            code.write(new)
        return new != code.code
    text, kind = code.code, field_code_kind(code.code)
    pieces = code_pieces(code.holders)
    for span in reversed(entry_spans(text)):
        if span[0] == span[1]:
            continue  # an empty text: nothing to translate, nor a run to write it in
        entry = looked.get((code, span))
        now = entry.pieces(partial(written, kind=kind)) if entry is not None else [
            (pieces_in(pieces, *span)[0][0], translated_span(text, span, translations))]
        pieces = replaced(pieces, *span, now)
    write_pieces(code.holders, pieces)
    return True
