"""A short label the model garbled keeps its source: ``<img alt="Logo">`` came back ``alt="Zwei Geschäfts"``, a Word
caption's label "Figure" "Auf einem Arzt".

A model trained on sentences (the demo's, on Multi30k's captions) reads a word or two alone as the start of a
caption, and writes one: "Logo" -> "Zwei Geschäfts", "Search" -> "In einem Auss", "Close" -> "In einem Restaurant",
"Table" -> "In einem Lebensmittelgeschäft".  In running text its neighbours carry such a word; a label stands alone,
where a screen reader reads it in place of a picture or a button or a browser shows it as a tip or in an empty
field.  Left in the source's language, a reader still understands it.

A label is a text of at most ``SHORT`` words that stands alone: a page's ``alt``, ``title``, ``placeholder`` or
``aria-label`` (attnmt.documents.short_attributes), an office file's alt text line or a Word caption's label, which
goes to the model alone before its number field (attnmt.documents.office_labels).  Its translation is taken only
where the model finds it plausible: its translator's ``plausibility`` (ModelTranslator.plausibility, exp(mean
log-prob)) at ``FLOOR`` or over, judged as it is written: without the full stop the model added, which its source
lacks ("Close" -> "In einem Restaurant." is 0.30 to the demo model, "In einem Restaurant" 0.24).  Under it,
``KeepingLabels`` answers the label with itself, its words aligned in order, and notes it (``kept``: a page's
attribute then stays as written and its element says the source's language). A translator without a plausibility (a
user's own, translations already found) has its labels taken as they come, and so does a label holding one of its
glossary's terms: the user's word.  A label that is one term and nothing else is written as the glossary's target
term ("Figure" -> "Abbildung": the demo model wrote "Ein Arzt in einem Abbildung", the term inside the sentence it
made of the label).

Word's own names for its labels per language (Abbildung, Tabelle, Gleichung for German) are not looked up: a user
who wants them gives them in a glossary (``--glossary``), and the label a document's author typed ("Plate", "Chart",
"Exhibit") is as common as Word's three.

``FLOOR`` measured with the demo model on 81 labels of web pages and captions as ``<img alt>``, each translation
judged good or bad by hand: at 0.3, 1 of 20 good ones kept in English ("Company logo" -> "Logo", 0.10) and 55 of 61
bad ones ("Menu" -> "Männer unterhalten sich", 0.41, is taken); good ones start at 0.35 ("Two dogs" -> "Zwei
Hunde"); at 0.2 / 0.25 / 0.35 / 0.4: good kept 1 / 1 / 2 / 3, bad kept out 44 / 52 / 57 / 57.  On 50 labels written
after: 1 of 12 good ones kept ("Our office" -> "Büro", 0.09), 31 of 38 bad ones kept out.  In office files (each
label translated alone, as the document's pipeline sends it, and judged with the model's stop, as office files'
labels were before the two guards were one: without it, a translation is 0.05 to 0.1 less plausible): 40 caption
labels, good ones lost 0 of 7, bad ones kept out 29 of 33 ("Plate" -> "Ein Katzen", 0.32, "Dog" -> "Ein Hund
schwimmt", 0.59, are taken); 50 alt texts, good ones lost 2 of 20 ("Company logo" -> "Logo", 0.18; "Placeholder
image" -> "Ein Bild", 0.13), bad ones kept out 21 of 30 ("Menu" -> "Männer unterhalten sich", 0.49, "Soccer players"
-> "Fußballspieler kämpfen", 0.51, are taken).

A block whose whole text is one label with no mark that ends a sentence (``alone``) is one too: a page's ``<th>``,
``<li>``, heading or ``<title>`` (short_attributes.job_labels), an office file's paragraph, cell or slide title
(office_labels.alone_blocks).  Measured as written (no stop) on 60 such labels (headers, headings, buttons,
captions' words): good ones lost 3 of 14 ("Red shoes" -> "Rote Schuhe", 0.21; "Children" -> "Kinder", 0.26;
"People" -> "Leute", 0.25), bad ones kept out 40 of 46 ("Dog food" -> "Ein Hund grillt Essen", 0.44, is taken); on
50 written after, 0 of 9 good ones lost, 35 of 41 bad ones kept out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from attnmt.decoding.garbled_labels import garbled
from attnmt.decoding.glossary import Glossary
from attnmt.documents.flat import FlatText
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import (
    checked_answer,
    translator_glossary,
    translator_plausibility,
    translator_rewritten,
)
from attnmt.documents.translators import Wrapper

SHORT = 3  # words: "Search the site" is a label; "A dog runs on the beach" a caption the model reads as one
SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？")  # a sentence's last mark, of which a label has none


@dataclass
class KeepingLabels(Wrapper):
    """A Translator that answers each of ``labels`` (sentences as the pipeline sends them, stripped) its wrapped
    translator finds implausible (under FLOOR) with the label itself, and notes it in ``kept``."""

    labels: frozenset[str] = frozenset()
    kept: set[str] = field(default_factory=set)  # the labels answered with themselves

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts, weights = checked_answer(self.translator, sentences, weighed)
        plausibility, glossary = translator_plausibility(self.translator), translator_glossary(self.translator)
        rewritten = []  # the labels given the glossary's term or their source: not the model's translation
        for i, sentence in enumerate(sentences):
            term = whole_term(sentence, glossary) if sentence.strip() in self.labels else None
            if term is not None:  # the user's word for the label, not the model's sentence around it
                texts[i], weights[i] = term, None
                rewritten.append(i)
        judged = [i for i, sentence in enumerate(sentences) if plausibility is not None
                  and sentence.strip() in self.labels and not (glossary and glossary.matches(sentence))]
        kept = [] if plausibility is None or not judged else garbled(
            plausibility, [sentences[i] for i in judged], [texts[i] for i in judged])
        for i in (i for i, keep in zip(judged, kept, strict=True) if keep):
            texts[i], weights[i] = sentences[i], None  # None: aligned in order (translator_parts.translated_by)
            self.kept.add(sentences[i].strip())
            rewritten.append(i)
        assessing = translator_rewritten(self.translator)
        if assessing is not None and rewritten:  # a review shows the quality of what the document holds
            assessing([sentences[i] for i in rewritten], [texts[i] for i in rewritten])
        return texts, weights


def whole_term(label: str, glossary: Glossary | None) -> str | None:
    """The target term of ``glossary`` where ``label`` is one of its terms and nothing else: the model read "Figure"
    (Figure -> Abbildung) as a sentence's start and wrote "Ein Arzt in einem Abbildung" around the term."""
    found = glossary.found_in(label.strip()) if glossary else []
    return found[0][2] if len(found) == 1 and found[0][:2] == (0, len(label.strip())) else None


def alone(sentences: Sequence[str]) -> bool:
    """Whether a block's ``sentences`` (those with words) are one short sentence with no mark that ends a sentence:
    a column's header or a table's cell ("Price" came back "Es ist", "Total" "Ein Coma"), a heading
    ("Introduction": "Amm Ste"), a button, a menu's link.  "A cat sleeps." is a sentence, and so is a short one
    beside others, which its neighbours carry."""
    return (len(sentences) == 1 and 0 < len(sentences[0].split()) <= SHORT
            and not sentences[0].rstrip().endswith(SENTENCE_ENDS))


def keep_sources(labels: Sequence[tuple[FlatText, list[str]]], kept: set[str]) -> None:
    """Each of ``labels`` (short_attributes.label_sentences, office_labels.alone_blocks) whose sentences were all
    ``kept`` (KeepingLabels.kept) marked as keeping its source, written as it was (FlatText.source_kept)."""
    for flat, sentences in labels:
        if sentences and all(sentence in kept for sentence in sentences):
            flat.source_kept = True
