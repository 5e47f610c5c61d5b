"""Word's button fields, a template's prompts: ``{ MACROBUTTON NoMacro [Type the town here] }`` shows its
text until someone clicks it and types over it (a letter's "[Click here and type the recipient's name]"), and
``{ GOTOBUTTON Prices See the price list }`` shows its text as a button that jumps to a bookmark.

The text is the rest of the code after the macro's or the bookmark's name, unquoted, and the result is what
Word shows of it.  Kept as every other field is, a translated template prompted its reader in the source's
language, and Word wrote the code's English again on each update.  So the code's text is translated as a line,
as an ``IF`` field's two texts are (attnmt.documents.word_conditions.IfFieldJob), and the result, where it shows
that text, shows its translation.  The name before it is kept, and so is a button whose text holds a field of
its own (a picture, ``{ MACROBUTTON NoMacro { INCLUDEPICTURE … } }``), as LibreOffice's placeholder for it
(``text:placeholder``) is translated (attnmt.documents.opendocument).

A result written in runs of several looks ("[Type the **name** of the town here]", a highlighted prompt with a
bold word) is read as one text, each run of a look other than its first run's a mark over its words
(ButtonFieldJob), and written back run by run, each piece of the translation into the next run of its look (or,
with none left, the run before it: the paragraph's writer keeps the field's runs, and adds none to them).  Written
whole into its first run, the translation lost the later runs' looks, which were left empty."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lxml import etree

from attnmt.documents.flat import FlatBuilder
from attnmt.documents.spans import Nested, plain
from attnmt.documents.word_conditions import Choice, IfFieldJob, code_of, field_pieces, spanning
from attnmt.documents.wordml import w
from attnmt.documents.xstring import replace_text, text_in

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
    return ButtonFieldJob([ButtonText(spanning(owners, *shown.span(2)), quoted=False)], result)


class ButtonFieldJob(IfFieldJob):
    """A button's text (IfFieldJob's one choice) read from its result's runs where the result shows it: each
    ``w:t`` in a run whose look differs from the first's a mark over its words (the module docstring)."""

    def __init__(self, choices: Sequence[Choice], result: Sequence[etree._Element]) -> None:
        super().__init__(choices, result)
        if "".join(map(text_in, self.result)) == self.texts[0] and len({look(t) for t in self.result}) > 1:
            builder = FlatBuilder(collapse=False)
            for part in self.result:
                marked = look(part) != look(self.result[0])
                if marked:
                    builder.open(part, keeps_edge_spaces=True)
                builder.add_text(text_in(part))
                if marked:
                    builder.close()
            self.lines = [builder.build()]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)  # the code's text, and the result's first run where its look is the only one
        if not self.lines[0].marks:
            return
        texts = ["" for _ in self.result]  # what each w:t shows, filled in the translation's order
        at = 0  # the w:t written last: a piece goes to one after it of its look, else it joins that one
        for piece in results[0]:
            wanted = look(self.lines[0].marks[piece.mark].node if isinstance(piece, Nested) else self.result[0])
            at = next((k for k in range(at, len(self.result)) if look(self.result[k]) == wanted and (
                k > at or not texts[k])), at)
            texts[at] += plain([piece])
        for part, text in zip(self.result, texts, strict=True):
            replace_text(part, text)

def look(part: etree._Element) -> bytes:
    """The run properties of the run holding ``part`` (a ``w:t``), as written: b"" for none."""
    properties = part.getparent().find(w("rPr"))
    return b"" if properties is None else etree.tostring(properties)
