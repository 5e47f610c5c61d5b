"""Word's button fields, a template's prompts: ``{ MACROBUTTON NoMacro [Type the town here] }`` shows its
text until someone clicks it and types over it (a letter's "[Click here and type the recipient's name]"), and
``{ GOTOBUTTON Prices See the price list }`` shows its text as a button that jumps to a bookmark.

The text is the rest of the code after the macro's or the bookmark's name, unquoted, and the result is what
Word shows of it.  Kept as every other field is, a translated template prompted its reader in the source's
language, and Word wrote the code's English again on each update.  So the code's text is translated as a line,
as an ``IF`` field's two texts are (attnmt.documents.word_conditions.IfFieldJob), and the result, where it shows
that text, shows its translation.  The name before it is kept, and so is a button whose text holds a field of
its own (a picture, ``{ MACROBUTTON NoMacro { INCLUDEPICTURE … } }``), as LibreOffice's placeholder for it
(``text:placeholder``) is translated (attnmt.documents.opendocument)."""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from attnmt.documents.word_conditions import Choice, IfFieldJob, code_of, field_pieces, spanning
from attnmt.documents.wordml import w

KINDS = frozenset({"MACROBUTTON", "GOTOBUTTON"})
# A button's code: its kind, the macro's or bookmark's name, then the text it shows (spaces around it its own).
BUTTON = re.compile(r"\s*(\S+)\s+\S+\s+(.*?)\s*$", re.DOTALL)


class ButtonText(Choice):
    """A button's text in its code: written as it reads, neither quoted nor escaped (Word shows it as typed)."""

    def text(self) -> str:
        return "".join(code_of(piece)[start:end] for piece, start, end in self.segments)

    def write(self, text: str) -> None:
        self.place(text)


def button_field_job(node: etree._Element, reads: Callable[[str], bool]) -> IfFieldJob | None:
    """The job of the button field whose code starts in ``node`` (a ``w:instrText``, or a ``w:fldSimple``), where
    ``reads`` its text (it has words); None for any other node, or a button whose code holds a field."""
    kind = code_of((node, w("instr") if node.tag == w("fldSimple") else None)).split()[:1]
    if not kind or kind[0].upper() not in KINDS:  # Word reads a field's kind in any case: "macrobutton"
        return None
    found = field_pieces(node)
    if found is None or None in found[0]:  # None: a field inside the button's code
        return None
    pieces, result = found
    owners, code = [], ""
    for piece in pieces:
        owners.append((piece, len(code)))
        code += code_of(piece) if piece is not None else ""
    shown = BUTTON.match(code)
    if shown is None or not reads(shown.group(2)):
        return None
    return IfFieldJob([ButtonText(spanning(owners, *shown.span(2)), quoted=False)], result)
