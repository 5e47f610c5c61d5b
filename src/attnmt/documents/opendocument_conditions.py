"""OpenDocument's conditional text, what LibreOffice writes for Word's IF field: a
``text:conditional-text`` shows ``text:string-value-if-true`` where its condition holds, else
``text:string-value-if-false``, and holds the text it showed the last time it was computed
(``<text:conditional-text text:condition="ooow:Gender == &quot;F&quot;" text:string-value-if-true="Dear
Madam" text:string-value-if-false="Dear Sir">Dear Sir</text:conditional-text>``).  The two texts are what a
reader sees: each is translated line by line, as a link's tooltip is (validations.AttributeJob), and the
text shown, where it is one of them, becomes its translation, as attnmt.documents.word_conditions does for
Word's IF field.  Each choice is a part of the sentence around it, and its translation is written so (attnmt.
documents.chosen_items: no stop the source did not have, "ein rotes Auto" for "a red car").  The condition is kept.

An input list (``text:drop-down``, Insert > Field > More Fields > Functions > Input list: the choice a template
offers, "a red flower" or "a blue flower") is read the same way: each choice (``text:label``'s ``text:value``)
is translated, and the text shown after them, where it is one of them, becomes its translation (DropDownJob).
Kept as any other field, the choices and the one shown stayed in the source's language in a translated
sentence.  So is a content control's list, what a .docx's drop-down list or combo box becomes: its items' shown
texts, and the item it shows (ControlListJob, attnmt.documents.opendocument_controls).  And so is a macro
field's text (``text:execute-macro``, what LibreOffice writes for Word's ``MACROBUTTON``: a template's prompt,
"[Type the town here]"), translated as a line after its event listeners (MacroTextJob), as Word's is
(attnmt.documents.word_buttons)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.chosen_items import as_written
from attnmt.documents.comments import TextJob
from attnmt.documents.flat import FlatText, Place, parted
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import TEXT
from attnmt.documents.opendocument_controls import CONTROL, LIST_ITEM, ItemJob
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob
from attnmt.documents.xstring import replace_text, text_in

CONDITIONAL = f"{{{TEXT}}}conditional-text"
CHOICES = (f"{{{TEXT}}}string-value-if-true", f"{{{TEXT}}}string-value-if-false")
DROP_DOWN, LABEL, VALUE = f"{{{TEXT}}}drop-down", f"{{{TEXT}}}label", f"{{{TEXT}}}value"
EXECUTE_MACRO = f"{{{TEXT}}}execute-macro"


class ConditionalTextJob:
    """A conditional text's choices to translate (``jobs``, each an attribute's), and the text it shows."""

    def __init__(self, element: etree._Element, jobs: Sequence[AttributeJob], target_lang: str | None = None) -> None:
        self.element, self.jobs, self.target_lang = element, list(jobs), target_lang
        self.texts = [job.flats() for job in self.jobs]
        # (the field, the text it showed, the text it shows now) once finished, where that changed: the review's
        # row of its paragraph showed the text it came with (attnmt.documents.office.reshown)
        self.reshown: tuple[etree._Element, str, str] | None = None
        # (its place, a choice's source, its translation as written) once finished: the review's row of each choice
        # showed the model's ("Ein rotes Auto.": Review.written)
        self.chosen: list[tuple[Place | None, str, str]] = []

    def flats(self) -> list[FlatText]:
        return [flat for texts in self.texts for flat in texts]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        shown, sources = self.shown(), [job.text for job in self.jobs]
        for job, run, lines in zip(self.jobs, parted(results, self.texts), self.texts, strict=True):
            job.finish(run)
            job.write(as_written(job.text, job.written(), self.target_lang))  # a choice is a part of a sentence
            self.chosen.append((lines[0].place if len(lines) == 1 else None, job.text, job.written()))
        chosen = next((job.written() for job, source in zip(self.jobs, sources, strict=True) if source == shown), None)
        if chosen is not None:
            self.show(chosen)
        if self.shown() != shown:
            self.reshown = (self.element, shown, self.shown())

    def shown(self) -> str:
        """The text the field shows."""
        return text_in(self.element)

    def show(self, text: str) -> None:
        """``text`` shown in place of the field's text, where it holds nothing else."""
        if len(self.element) == 0:
            replace_text(self.element, text)


class DropDownJob(ConditionalTextJob):
    """An input list's choices to translate (``jobs``, each a ``text:label``'s), and the text it shows after them."""

    def shown(self) -> str:
        return (self.element.text or "") + "".join(child.tail or "" for child in self.element)

    def show(self, text: str) -> None:
        self.element.text = None
        for child in self.element:
            child.tail = None
        self.element[-1].tail = text  # a choice was shown: the list holds its labels


class ControlListJob(ConditionalTextJob):
    """A content control's list items to translate (``jobs``, each an item's shown text), and the item it shows:
    all the control's text, in its first text (a span's, where it has one), the others emptied."""

    def shown(self) -> str:
        return "".join(self.element.itertext())

    def show(self, text: str) -> None:
        written = [(node, slot) for node, slot in text_slots(self.element) if getattr(node, slot)]
        for number, (node, slot) in enumerate(written):
            setattr(node, slot, None if number else text)


class MacroTextJob(TextJob):
    """A macro field's text, line by line: its own text, after the event listeners it holds, where it goes back."""

    def written(self) -> str:
        return (self.element.text or "") + "".join(child.tail or "" for child in self.element)

    def write(self, text: str) -> None:
        self.element.text = None if len(self.element) else text
        for child in self.element:
            child.tail = None
        if len(self.element):
            self.element[-1].tail = text


def text_slots(element: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """Where the text inside ``element`` is held, in the order a reader reads it: each node and "text" or "tail"."""
    yield element, "text"
    for child in element:
        yield from text_slots(child)
        yield child, "tail"


def conditional_jobs(paragraph: etree._Element, glossary: Glossary | None,
                     target_lang: str | None = None) -> list[ConditionalTextJob | TextJob]:
    """A job for each conditional text, input list and content control's list of ``paragraph`` with a choice to
    translate (words, or a term of ``glossary``), its choices written in ``target_lang`` as parts of a sentence, and
    for each macro field's text with words."""
    found: list[ConditionalTextJob | TextJob] = []
    for element in paragraph.iter(CONDITIONAL, DROP_DOWN, CONTROL, EXECUTE_MACRO):
        if element.tag == EXECUTE_MACRO:
            macro = MacroTextJob(element)
            found += [macro] if needs_translation(macro.text, glossary) else []
            continue
        if element.tag == CONTROL:
            items = [ItemJob(item) for item in element.iterchildren(LIST_ITEM)]
            items = [item for item in items if needs_translation(item.text, glossary)]
            found += [ControlListJob(element, items, target_lang)] if items else []
            continue
        if element.tag == DROP_DOWN:
            labels = [AttributeJob(label, VALUE, escaped=False) for label in element.iterchildren(LABEL)
                      if needs_translation(label.get(VALUE, ""), glossary)]
            found += [DropDownJob(element, labels, target_lang)] if labels else []
            continue
        jobs = [AttributeJob(element, name, escaped=False) for name in CHOICES
                if needs_translation(element.get(name, ""), glossary)]
        found += [ConditionalTextJob(element, jobs, target_lang)] if jobs else []
    return found
