"""A short label of an office file the model garbled keeps its source, as a page's short attribute does
(attnmt.documents.short_attributes): a picture's alt text ("Logo" came back "Zwei Geschäfts") and a Word
caption's label, which goes to the model alone before its number field (attnmt.documents.fields.numbers_caption:
"Figure" came back "Auf einem Arzt", "Table" "In einem Lebensmittelgeschäft").

A label here is a line of an alt text (attnmt.documents.alt_texts: Word's, PowerPoint's, Excel's and a VML shape's
``descr``, ``title`` or ``alt``; OpenDocument's ``svg:title``, ``svg:desc``) or a caption's label (the sentence that
ends at a caption's number: a SEQ field, or a STYLEREF showing the chapter's number), of at most ``SHORT`` words.
Its translation is taken only where the model finds it plausible (``FLOOR`` or over, the translator's
``plausibility``); under it, the label's source is its translation, its words aligned in order.  A translator
without a plausibility has its labels taken, and so does a label holding one of its glossary's terms; a label
that is one term and nothing else is written as the glossary's target term ("Figure" -> "Abbildung": the demo model
wrote "Ein Arzt in einem Abbildung", the term inside the sentence it made of the label).

Word's own names for its labels per language (Abbildung, Tabelle, Gleichung for German) are not looked up: a
user who wants them gives them in a glossary (``--glossary``), which this guard leaves alone, and the label a
document's author typed ("Plate", "Chart", "Exhibit") is as common as Word's three.

Measured with the demo model (each label translated alone, as the document's pipeline sends it; good or bad judged
by hand), at short_attributes' FLOOR: 40 caption labels, good ones lost 0 of 7, bad ones kept out 29 of 33 ("Plate"
-> "Ein Katzen", 0.32, "Dog" -> "Ein Hund schwimmt", 0.59, are taken); 50 alt texts, good ones lost 2 of 20
("Company logo" -> "Logo", 0.18; "Placeholder image" -> "Ein Bild", 0.13), bad ones kept out 21 of 30 ("Menu" ->
"Männer unterhalten sich", 0.49, "Soccer players" -> "Fußballspieler kämpfen", 0.51, are taken)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.alt_texts import AltTextJob, SvgAltTextJob
from attnmt.documents.archive import Job
from attnmt.documents.fields import numbers_caption
from attnmt.documents.flat import FlatText
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import WORD
from attnmt.documents.short_attributes import FLOOR, SHORT
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import checked_answer, translator_glossary, translator_plausibility
from attnmt.documents.translators import Wrapper


@dataclass
class KeepingLabels(Wrapper):
    """A Translator that answers each of ``labels`` (sentences as the pipeline sends them) its wrapped translator
    finds implausible (under FLOOR) with the label itself."""

    labels: frozenset[str] = frozenset()

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts, weights = checked_answer(self.translator, sentences, weighed)
        plausibility, glossary = translator_plausibility(self.translator), translator_glossary(self.translator)
        for i, sentence in enumerate(sentences):
            term = whole_term(sentence, glossary) if sentence.strip() in self.labels else None
            if term is not None:  # the user's word for the label, not the model's sentence around it
                texts[i], weights[i] = term, None
        judged = [i for i, sentence in enumerate(sentences) if sentence.strip() in self.labels and texts[i].strip()
                  and not (glossary and glossary.matches(sentence))]
        if plausibility is None or not judged:
            return texts, weights
        found = plausibility([sentences[i] for i in judged], [texts[i] for i in judged])
        for i, plausible in zip(judged, found, strict=True):
            if plausible is not None and plausible < FLOOR:
                texts[i], weights[i] = sentences[i], None  # None: aligned in order (translator_parts.translated_by)
        return texts, weights


def whole_term(label: str, glossary: Glossary | None) -> str | None:
    """The target term of ``glossary`` where ``label`` is one of its terms and nothing else: the model read "Figure"
    (Figure -> Abbildung) as a sentence's start and wrote "Ein Arzt in einem Abbildung" around the term."""
    found = glossary.found_in(label.strip()) if glossary else []
    return found[0][2] if len(found) == 1 and found[0][:2] == (0, len(label.strip())) else None


def office_labels(jobs: Sequence[Job], sentences: Sequence[Sequence[tuple[int, int]]]) -> frozenset[str]:
    """The short labels among ``jobs``' flat texts, whose ``sentences`` (each flat's spans, in the jobs' order) are
    given: an alt text's short line, a Word caption's short label."""
    found: set[str] = set()
    spans = iter(sentences)
    for job in jobs:
        for flat in job.flats():
            found.update(flat.text[start:end] for start, end in job_labels(job, flat, next(spans)))
    return frozenset(text.strip() for text in found)


def job_labels(job: Job, flat: FlatText, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``flat`` (one of ``job``'s) that are short labels (the module docstring)."""
    if isinstance(job, AltTextJob | SvgAltTextJob):
        return [span for span in spans if is_short(flat, span)]
    if isinstance(job, ParagraphJob) and job.dialect is WORD:
        return [span for span in spans if is_short(flat, span) and before_caption_number(flat, span[1])]
    return []


def is_short(flat: FlatText, span: tuple[int, int]) -> bool:
    """Whether ``flat``'s sentence ``span`` has words, at most SHORT of them."""
    return 0 < len(flat.text[span[0]:span[1]].split()) <= SHORT


def before_caption_number(flat: FlatText, end: int) -> bool:
    """Whether a sentence ending at ``end`` of ``flat`` ends where a caption's number starts: at a break, with only
    spaces between, where an atom holds a caption's number field (fields.numbers_caption)."""
    breaks = [at for at in flat.breaks if at >= end and not flat.text[end:at].strip()]
    return any(mark.atom and mark.start in breaks and holds_caption_number(mark.node) for mark in flat.marks)


def holds_caption_number(node: object) -> bool:
    """Whether ``node`` (an atom's) is, or holds, a caption's number field or its separator (fields.numbers_caption)."""
    return isinstance(node, etree._Element) and any(numbers_caption(part) for part in node.iter())
