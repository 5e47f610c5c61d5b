"""A field's result that Word writes again from elsewhere goes over the translation of its own words alone.

A cross-reference (Word's ``REF`` field) shows a copy of the words its bookmark holds, and a title field (``TITLE``,
``SUBJECT``, ``DOCPROPERTY Title``) the document's title; Word writes each result again when someone updates the fields
(F9, or printing), and whatever the result held goes.  Rule 1 of attnmt.documents.spans runs a mark from the first
target word aligned to its words to the last, over the words between: the demo model wrote ``See <Feeding the small
dog> for the details.`` as ``<Es wird ein kleiner Hund für den kleinen Hund>.``, "kleiner Hund" and "kleinen Hund"
both aligned to "small dog", and an update left ``<Ein kleiner Hund schneidet den kleinen Hund>.``, the sentence's
other words lost.  So such a result goes over one run of consecutive target words each aligned to its words
(Projector.aligned), the run giving them the most attention; the words either side stay outside it, and an update
changes the copy alone.  A link's words (``HYPERLINK``) or a text typed at a prompt (``FILLIN``) are the author's,
which no update writes again: they keep rule 1's span.  LibreOffice's cross-references (``text:bookmark-ref``,
``text:sequence-ref``, ``text:reference-ref``: opendocument_code.REFERENCES) are written again on an update too.

A cross-reference to a caption shows its label and number ("As <Figure 1> shows, the dog runs."): its result goes
over the translation's copy of the number, with the words right before it aligned to the label ("Wie <Abbildung 1>
zeigt").  The demo model, which knows no "Figure", wrote "Ein Arzt, der wie das Hund rennt." and the result took
"Arzt, der wie", the sentence's words; where the translation holds no copy of the number, the result goes over the
label's translation where the model wrote one, as many words as the label has, and holds the number again after them
("Ein <Abbildung 1> zeigt", a glossary's term: label_span, with_lost_number); else it is written as it came at a point
(attnmt.documents.emptied_marks), which is what an update writes where the label is kept.  A Word result is then
written as the update writes it, the caption's translated label and number (attnmt.documents.caption_references).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from lxml import etree

from attnmt.documents.flat import Mark
from attnmt.documents.span_geometry import trim_punctuation
from attnmt.documents.wordml import w
from attnmt.text.function_words import is_function_word

if TYPE_CHECKING:
    from attnmt.documents.spans import Projector

# A caption's label and number as a cross-reference shows them: words without digits, a space, the number (a
# chapter's before it: "Figure 1", "Table 3-2", "Fig. 1.4", "Abb. 2").  A number alone is kept whole (fields).
LABELLED_NUMBER = re.compile(r"[^\W\d_][^\d]*\s(\d+(?:[.\-\u2013]\d+)*)")
TRAILING = ".,;:!?)\"'\u201c\u201d\u00bb"  # what the translation may glue after a number it copied ("Abbildung 1,")


def is_field_result(mark: Mark) -> bool:
    """Whether ``mark`` is a field's result that the model reads as words: a Word field's, a simple field or a
    complex one's stand-in (a field read so is a mark, any other an atom: attnmt.documents.fields), or a LibreOffice
    cross-reference's (REFERENCES)."""
    node = mark.node
    if mark.atom or not isinstance(node, etree._Element) or not isinstance(node.tag, str):
        return False
    # Word's and OpenDocument's readers, loaded for an element only: a line of plain text starts without them (issue 44)
    from attnmt.documents.opendocument_code import REFERENCES

    return node.tag == w("fldSimple") or node.tag in REFERENCES


def is_copied_result(mark: Mark) -> bool:
    """Whether ``mark`` is a field's result Word writes again from elsewhere: a ``REF`` field's or a translated
    property's (attnmt.documents.fields.SHOWN_PROPERTIES), a simple field or a complex one's stand-in; or a
    LibreOffice cross-reference's (REFERENCES)."""
    if not is_field_result(mark):
        return False
    from attnmt.documents.fields import SHOWN_PROPERTIES, field_code_kind, shown_property

    if mark.node.tag != w("fldSimple"):
        return True  # LibreOffice's cross-reference
    code = mark.node.get(w("instr"), "")
    return field_code_kind(code) == "REF" or shown_property(code) in SHOWN_PROPERTIES


def copied_span(projector: Projector, mark: Mark) -> tuple[int, int] | None:
    """``mark``'s span on the translation (Projector.span); for a copied result (is_copied_result) in part of a
    sentence, cut to the run of its own target words inside that span that gives its words the most attention."""
    span = projector.span(mark)
    if span is None or not is_copied_result(mark):
        return span
    labelled = LABELLED_NUMBER.fullmatch(projector.flat.text[mark.start:mark.end].strip())
    if labelled is not None:
        return numbered_span(projector, mark, labelled.group(1), span)
    runs = []  # (attention, start, end) of each run of consecutive target words aligned to the mark's words
    for i, words in projector.words(mark):
        start, end = projector.sentences[i]
        if mark.start <= start and mark.end >= end:
            return span  # a whole sentence's copy: its translation, no word of another beside it
        for run in consecutive(projector.aligned(i, words)) if words else ():
            attention = sum(row[k] for t in run for row in [projector.weights[i][t]] for k in words if k < len(row))
            edges = projector.target_words[i][run[0]][0], projector.target_words[i][run[-1]][1]
            runs.append((attention, max(edges[0], span[0]), min(edges[1], span[1])))
    inside = [run for run in runs if run[1] < run[2]]
    if not inside:
        return span
    _, start, end = max(inside, key=lambda run: run[0])  # the first of equals
    return trim_punctuation(projector.flat.text[mark.start:mark.end].strip(), projector.target, start, end)


def numbered_span(projector: Projector, mark: Mark, number: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """The span of a cross-reference to a caption, ``mark`` (its label and ``number``), on the translation: the copy
    of the number nearest rule 1's ``span``, from the first of the target words right before it, in a row, aligned to
    the mark's words, as many as its label has at most; None where the translation holds no copy of the number."""
    found = []  # (distance to span, start, end) of each copy
    for i, words in projector.words(mark):
        targets, aligned = projector.target_words[i], set(projector.aligned(i, words)) if words else set()
        label = len(words) - 1
        for t, (start, end) in enumerate(targets):
            if projector.target[start:end].strip(TRAILING) != number:
                continue
            first = t
            while t - first < label and first - 1 in aligned and not has_digit(projector.target, targets[first - 1]):
                first -= 1
            found.append((abs(start - span[0]), targets[first][0], start + len(number)))
    return min(found)[1:] if found else label_span(projector, mark)


def label_span(projector: Projector, mark: Mark) -> tuple[int, int] | None:
    """The span of a cross-reference to a caption, ``mark``, whose number the translation holds no copy of: the
    target words aligned to its label's words (all of its words but the number), in a row and no more of them than
    the label has, its translation (a glossary's "Abbildung" for "Figure", or "Figure" copied), after which its
    number is written again (with_lost_number); None where the label went to more words, or to none (the demo
    model's "Arzt, der" for "Figure": the sentence's words, which an update would replace), or to a function word,
    which no label is (the demo model's "Auf" of "Auf einem Park …" for "Figure 1 shows a dog in the park.").
    Written at a point, the result stood beside the model's own label: "Ein Abbildung zeigt das Hund, Figure 1 der
    rennt."."""
    (i, words), *others = list(projector.words(mark)) or [(0, [])]
    label = words[:-1]
    targets = projector.aligned(i, label) if label and not others else []
    if not targets or len(targets) > len(label) or targets[-1] - targets[0] != len(targets) - 1:
        return None
    if any(is_function_word(projector.target[slice(*projector.target_words[i][t])]) for t in targets):
        return None  # a label is a noun: "Auf" of "Auf einem Park" for "Figure 1 shows a dog in the park"
    start, end = projector.target_words[i][targets[0]][0], projector.target_words[i][targets[-1]][1]
    labelled = projector.flat.text[projector.source_words[i][label[0]][0]:projector.source_words[i][label[-1]][1]]
    return trim_punctuation(labelled, projector.target, start, end)  # "Abb." for "Fig.", as "Abbildung" for "Figure"


def with_lost_number(flat_text: str, mark: Mark, held: str) -> str:
    """What a cross-reference to a caption, ``mark`` of ``flat_text``, is to hold after the translation's ``held``
    words (its label's translation: label_span): its number and the space before it as the source has them, where
    ``held`` has no copy of the number; "" where it has one, or ``mark`` is no such reference."""
    if not is_copied_result(mark):
        return ""
    text = flat_text[mark.start:mark.end].strip()
    labelled = LABELLED_NUMBER.fullmatch(text)
    if labelled is None or not held.strip() or labelled.group(1) in re.findall(r"\d+(?:[.\-\u2013]\d+)*", held):
        return ""
    return text[len(text[:labelled.start(1)].rstrip()):]


def has_digit(text: str, word: tuple[int, int]) -> bool:
    return any(character.isdigit() for character in text[word[0]:word[1]])


def consecutive(targets: Sequence[int]) -> Iterator[list[int]]:
    """``targets`` (ascending) in runs of consecutive numbers: [1, 2, 5] -> [1, 2], [5]."""
    run: list[int] = []
    for t in targets:
        if run and t != run[-1] + 1:
            yield run
            run = []
        run.append(t)
    if run:
        yield run
