"""The words a spreadsheet's formulas show as their result, translated: ``=IF(B2>1000,"Above
target","Below target")`` and ``=HYPERLINK("https://example.com","Click here")`` showed "Above
target" and "Click here" in a sheet whose every other word was German.  One rule for an .xlsx's
formulas (attnmt.documents.sheet_literals) and an .ods's or .fods's (attnmt.documents.opendocument_literals),
which OpenFormula writes alike, its arguments parted by ";" (``of:=IF([.B2]>1000;"Above target";…)``).

Users read those words as the cell's text, and a translated spreadsheet is expected to show them
in the target language, as a cell's own string is, with every formula still working.  A literal
that a formula gives as its result is what other formulas may compare with:
``=COUNTIF(C2:C9,"Above target")``, ``=IF(C2="Above target",…)``, a conditional format's
``"Above target"``, a list validation's items.  Translated in its own formula alone, it would have
left those counting nothing.  So its translation is not written into that formula: it is added to
what the spreadsheet's cells show (followed_texts.Followed), and each text literal, text rule and
list item of the spreadsheet that reads it, its own formula's included, then follows it as one that
reads a cell's text does (sheet_literals: Excel's 255 characters kept; opendocument_literals), the
formula's cached result following too.

A list validation's items (``"Open,In progress,Done"``, an .ods's ``cell-content-is-in-list("Open";…)``)
are such texts too: a cell's drop-down offers them, and the one a user picks is the cell's text;
kept, a translated template offered English words, which its counts and rules then compared with
(sheet_literals and opendocument_literals write them; in an .xlsx an item whose translation holds a
comma is kept).

A result literal is one literal that is a whole argument a function gives as its value
(RESULTS: IF's two, IFERROR's and IFNA's fallback, IFS's and SWITCH's values and SWITCH's default,
CHOOSE's choices, HYPERLINK's label), or a whole formula (``="Total"``).  One that reads, case
apart, a cell's text is that cell's, and takes its translation: the model is not asked again, so
that a result and the cells it is compared with read the same.  Left as written: a literal without
letters (``""``, ``"-"``), a piece of a text put together (``"Total: "&A1``), which is no
argument's whole value, and any literal inside an argument a function reads as a keyword or reference
(followed_texts.KEYWORDS: ``INDIRECT(IF(A1,"Summary","Detail"))`` names sheets or ranges).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import chain

from attnmt.documents.followed_texts import KEYWORDS, LITERAL, TOKEN, Followed, called_function
from attnmt.documents.letterless import needs_translation
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.review import Review
from attnmt.documents.short_labels import KeepingLabels, alone
from attnmt.documents.translator_parts import translator_glossary
from attnmt.documents.translators import ForXml, Translator

# Whether a function's argument (from 0, of its ``count``) is its value, as the function gives it.
RESULTS: dict[str, Callable[[int, int], bool]] = {
    "IF": lambda index, count: index in (1, 2),
    "IFERROR": lambda index, count: index == 1,
    "IFNA": lambda index, count: index == 1,
    "IFS": lambda index, count: index % 2 == 1,
    "SWITCH": lambda index, count: (index >= 2 and index % 2 == 0) or (index >= 3 and index == count - 1
                                                                         and count % 2 == 0),
    "CHOOSE": lambda index, count: index >= 1,
    "HYPERLINK": lambda index, count: index == 1,
}


@dataclass
class Call:
    """A call (an array's or a reference's brackets too: no ``name``) open while a formula is read."""

    name: str
    start: int  # where its argument now read begins in the formula
    index: int = 0  # that argument's, from 0
    literal: tuple[int, str] | None = None  # where the argument's one literal ends, and its text
    whole: dict[int, str] = field(default_factory=dict)  # each argument that is one literal: its text

    def ends_argument(self, formula: str, at: int) -> None:
        """The argument now read ends at ``at`` (a separator or the closing bracket)."""
        if self.literal is not None and not formula[self.literal[0]:at].strip():
            self.whole[self.index] = self.literal[1]
        self.index, self.start, self.literal = self.index + 1, at + 1, None


def result_literals(formula: str) -> list[str]:
    """The texts of ``formula``'s result literals (module docstring), in order of their calls' ends."""
    if (whole := LITERAL.fullmatch(formula.strip())) is not None and whole.group().startswith('"'):
        return [unquoted(whole.group())]
    calls: list[Call] = []
    found: list[str] = []
    for match in TOKEN.finditer(formula):
        token = match.group()
        if token.startswith('"'):
            if calls and not formula[calls[-1].start:match.start()].strip() and not in_keyword(calls):
                calls[-1].literal = (match.end(), unquoted(token))
        elif token in "({[":
            calls.append(Call(called_function(formula, match.start()) if token == "(" else "", match.end()))
        elif calls and token in ",;)}]":
            call = calls[-1]
            call.ends_argument(formula, match.start())
            if token in ")}]":
                calls.pop()
                gives = RESULTS.get(call.name)
                found += [text for index, text in call.whole.items() if gives and gives(index, call.index)]
    return found


def in_keyword(calls: list[Call]) -> bool:
    """Whether the argument now read is inside one a function reads as a keyword or reference."""
    return any(call.index in KEYWORDS.get(call.name, ()) for call in calls)


def unquoted(literal: str) -> str:
    return literal[1:-1].replace('""', '"')


def translate_results(formulas: Iterable[tuple[str, str]], followed: Followed, translator: Translator,
                      options: DocumentOptions, offered: Iterable[tuple[str, str]] = (),
                      review: Review | None = None) -> None:
    """Each result literal of ``formulas`` (the cells' formulas, without their "=", each after the
    member that holds it), and each of the texts ``offered`` (a list validation's items, each after
    its member), that no cell of ``followed`` showed translated by ``translator`` and added to
    ``followed``, which its literals then follow (module docstring).  ``review`` lists each at its
    member (Review.places_after), as it lists a cell's text: a reviewer sees and corrects it too."""
    glossary = translator_glossary(translator)
    held = chain(((member, text) for member, formula in formulas if '"' in formula
                  for text in result_literals(formula)), offered)
    todo = [(member, text) for member, text in dict.fromkeys(held)
            if not followed.holds(text) and needs_translation(text, glossary)]
    lines = [text.split("\n") for _, text in todo]
    places = review.places_after([member for member, _ in todo]) if review is not None else None
    # a cell shows such a text alone, as it shows a header: one the model garbled keeps its source, as a cell's does
    labels = KeepingLabels(translator, frozenset(line.strip() for each in lines for line in each if alone([line])),
                           language=options.target_lang)
    line_places = places and [place for place, each in zip(places, lines, strict=True) for _ in each]
    outputs = translate_lines([line for each in lines for line in each], ForXml(labels), options, review,
                              empty_kept=True, places=line_places)
    if review is not None and line_places is not None:  # its row shows what the formula or list holds
        for place, line, output in zip(line_places, [line for each in lines for line in each], outputs, strict=True):
            review.written(place, line, output)
    translated = iter(outputs)
    for (_, text), each in zip(todo, lines, strict=True):
        followed.add(text, "\n".join(next(translated) for _ in each))
