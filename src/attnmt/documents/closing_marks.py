"""What closes what is before it (a sentence's stop, a comma, a closing bracket), and the space before
an atom that such a mark follows, taken out of what the model reads.

An atom (a URL, inline code, a placeholder) is taken out of the text the model reads, the spaces
around it left as they were: "Visit https://example.org, then" read "Visit , then", and the model
copied the space before the comma into its translation ("Besuchen Sie , dann"), or read the line's
end "Visit ." as no sentence's.  Where the atom is written with a space before it and the mark
right after it, that space is taken out of the flat text: the model reads "Visit, then", and the
atom writes its space back before itself (Mark.space_before; attnmt.documents.atom_spacing), so the
line comes back "Visit https://example.org, then"."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from typing import TYPE_CHECKING

from attnmt.decoding.protected import LABELLED_CODE
from attnmt.documents.inserted_spaces import take_out_last_space
from attnmt.text.sentence_ends import SENTENCE_ENDS

# A letter or digit and a plain space, at the text's end: where an atom after it is closed up.
LETTER_SPACE = re.compile(r"[^\W_] \Z")
LABELLED = re.compile(LABELLED_CODE)
# Where atoms open a field's value or a list, at the text's end: a label's colon ("Tel.: "), an opening bracket,
# or nothing (the block's start); and the comma that parts such atoms from what follows, with its space.
OPENS_LIST = re.compile(r"(?:\A|[:：(\[{（] ?)\Z")
LIST_COMMA = re.compile(r"[，、]|,(?: |\Z)")

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder


def closes(character: str) -> bool:
    """Whether ``character`` closes what is before it, and so takes no space before it: a sentence's
    stop (SENTENCE_ENDS), a comma, a semicolon or a colon, a closing bracket.  Not a quote: German
    opens with ``»``, which closes elsewhere."""
    return character in SENTENCE_ENDS or character in ",;:，、；：" or unicodedata.category(character) == "Pe"


def closes_up_run(text: str, start: int, end: int, edges: Collection[int]) -> bool:
    """Whether the space before text[start:end], a run taken out of a flat text as an atom (a measure, an emoji:
    attnmt.documents.symbols), goes out with it, as a URL's does (``space_closed_up``): a comma, a semicolon, a
    colon or a closing bracket right after it, or after the end of the element it ends (``<b>runs 👍🏽</b>, fast``),
    a plain space after a letter or digit before it, and no mark's edge (``edges``) at that space or at its start.
    "Pay 5 €, then go." read "Pay , then go."; it reads "Pay, then go.".  Not before a
    sentence's stop, where the atom ends the translation instead (attnmt.documents.final_stops)."""
    return (end < len(text) and closes(text[end]) and text[end] not in SENTENCE_ENDS
            and LETTER_SPACE.search(text, max(start - 2, 0), start) is not None
            and not {start - 1, start} & set(edges))


def space_closed_up(builder: FlatBuilder, text: str) -> bool:
    """Whether the space before ``builder``'s pending atoms is taken out of its text (module docstring),
    every position after it moved back: ``text``, the plain text that follows them, starts with a mark
    that closes, and the atoms, written after a plain space after a word's letter or digit, show text.
    Not after punctuation ("said: <i>bonjour</i>, and" read "said:, and"), nor atoms that show nothing (a
    comment's anchor: "word <anchor/>, more" shows "word , more") nor a line break, which ends a line.  The
    atoms part no words there (FlatBuilder.gap): no word follows them, only the mark."""
    atoms = builder.pending_atoms
    if not atoms or not text or not closes(text[0]) or not LETTER_SPACE.search(builder.text):
        return False
    if not atoms[0].space_before or any(atom.line_break or not atom.shows_text for atom in atoms):
        return False
    take_out_last_space(builder)
    for atom in atoms:
        atom.closed_up = True
    builder.gap = False
    return True


def comma_taken_along(builder: FlatBuilder, text: str) -> str:
    """``text``, the plain text after ``builder``'s pending atoms, without the comma (and its space) that starts
    it where the atoms open a field's value or a list (OPENS_LIST): that comma becomes an atom of its own, kept
    with them.  No word before them is closed by it: "Tel.: +49 30 1234567, Fax: +49 30 7654321" read "Tel.: ,
    Fax:" and "Types (`str`, `int`, etc)." read "Types (, , etc).", a space before each comma, or a bracket
    opened on a comma; now they read "Tel.: Fax:" and "Types (etc).", and each comma comes back after its atom."""
    atoms, comma = builder.pending_atoms, LIST_COMMA.match(text)
    if not atoms or comma is None or not OPENS_LIST.search(builder.text):
        return text
    if any(atom.line_break or not atom.shows_text for atom in atoms):
        return text
    # After a space the comma's own space is given back as the atoms' (Mark.space_after); right after a bracket,
    # where the text has none to drop, it goes with the comma: "Types (etc).", not "Types ( etc)."
    taken = comma.group() if not builder.text[-1:].isspace() else comma.group().rstrip(" ")
    builder.add_atom(literal=taken)
    builder.gap = False  # the atoms part no words there: the comma's space does
    return text[len(taken):]


def closed_up_to_label(builder: FlatBuilder, text: str, match: re.Match[str]) -> None:
    """Where ``match``, a protected span of ``text`` just added to ``builder`` as its last atom, is a code after
    its label (attnmt.decoding.protected.LABELLED_CODE: "Room B12"), the space between them taken out of the text
    (Mark.closed_up), as before a closing mark: the code goes after the label's translation (attnmt.documents.
    glued_points), where it went before the word after it ("Please go to Room B12 at noon." read "Please go to
    Room at noon.", and the code came back before the translation of "at", away from its room)."""
    found = LABELLED.match(text, match.start())
    if found is None or found.end() != match.end() or not builder.text.endswith(" "):
        return
    take_out_last_space(builder)
    builder.pending_atoms[-1].closed_up = True


# The brackets and quotes that hold a protected span alone, each opening one and its closing one:
# "(support@example.com)", "<john@example.com>", "[https://example.org]", '"report.pdf"', "„notes.txt“".
BRACKETS = {"(": ")", "[": "]", "<": ">", "（": "）"}
QUOTED = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u201e": "\u201c\u201d",
          "\u201a": "\u2018\u2019", "\u00ab": "\u00bb", "\u00bb": "\u00ab", "\u2039": "\u203a", "\u203a": "\u2039"}


def bracketed(text: str, start: int, end: int, position: int) -> tuple[int, int]:
    """[start, end) of a protected span of ``text`` (none of it before ``position``, where the last one ended),
    widened over the brackets or quotes around it where they hold it alone: they go with it, kept as written.  Left
    to the model, "Contact us (support@example.com) for help." read "Contact us () for help.", and the demo model
    dropped the brackets; 'Open "report.pdf" now.' read 'Open "" now.', quotes around nothing, which it dropped too.
    Quotes glued to a word outside them are none (``x"a.py"y``)."""
    if not position < start or end >= len(text):
        return start, end
    opening, closing = text[start - 1], text[end]
    apart = not text[start - 2:start - 1].isalnum() and not text[end + 1:end + 2].isalnum()
    if BRACKETS.get(opening) == closing or closing in QUOTED.get(opening, "") and apart:
        return start - 1, end + 1
    return start, end
