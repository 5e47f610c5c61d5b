"""Word's own caption labels in the target language: a caption's label that is one of the three Insert Caption
offers in English (``Figure``, ``Table``, ``Equation``) is written as the target language's Word writes it
(``Abbildung 1: Ein Hund rennt.``).

Read alone before its number field (attnmt.documents.office_labels), the label was a sentence of one word to the
model, which the demo model, trained on captions of photos, wrote as one ("Figure" -> "Auf einem Arzt", "Table" ->
"In einem Lebensmittelgeschäft"); its source kept as garbled (attnmt.documents.short_labels), a German document
said ``Figure 1: Ein Hund rennt.``.  These three are Word's own words, written by Word's German version as
``Abbildung``, ``Tabelle``, ``Gleichung``: no model needs to guess them.  A label a document's author chose
(``Plate``, ``Exhibit``, ``Fig.``) is still the model's, and a glossary's term for a label (``--glossary``) is the
user's word, which wins; so is a label in a language not in ``LABELS``, and every label of a source not in English.

A numbered part's heading before its colon (attnmt.text.numbered_parts: "Chapter 3", "Part One", "Book II",
"Section 4.2", "Appendix A", "Step 2", "Figure 3"), a field's name the model read as a caption and garbled, is
written alike (attnmt.text.numbered_parts.numbered_label, with the words of ``LABELS`` and ``PARTS`` there:
"Kapitel 3", "Teil Eins", "Buch II"), its number as written, a count in words in the target's word."""

from __future__ import annotations

from collections.abc import Iterable

from attnmt.text.language_codes import primary_subtag
from attnmt.text.numbered_parts import LABELS


def own_labels(captions: Iterable[str], source_lang: str | None, target_lang: str | None) -> dict[str, str]:
    """Each of ``captions`` (caption labels, stripped: office_labels.caption_labels) that is an English label of
    Insert Caption's, mapped to ``target_lang``'s Word's own; none where the source (None: the model's, read as
    English) is in another language or the target's labels are not known."""
    if source_lang is not None and primary_subtag(source_lang) != "en" or target_lang is None:
        return {}
    own = LABELS.get(primary_subtag(target_lang), {})
    return {label: own[label] for label in captions if label in own}

