"""Word's own caption labels in the target language: a caption's label that is one of the three Insert Caption
offers in English (``Figure``, ``Table``, ``Equation``) is written as the target language's Word writes it
(``Abbildung 1: Ein Hund rennt.``).

Read alone before its number field (attnmt.documents.office_labels), the label was a sentence of one word to the
model, which the demo model, trained on captions of photos, wrote as one ("Figure" -> "Auf einem Arzt", "Table" ->
"In einem Lebensmittelgeschäft"); its source kept as garbled (attnmt.documents.short_labels), a German document
said ``Figure 1: Ein Hund rennt.``.  These three are Word's own words, written by Word's German version as
``Abbildung``, ``Tabelle``, ``Gleichung``: no model needs to guess them.  A label a document's author chose
(``Plate``, ``Exhibit``, ``Fig.``) is still the model's, and a glossary's term for a label (``--glossary``) is the
user's word, which wins; so is a label in a language not in ``LABELS``, and every label of a source not in English."""

from __future__ import annotations

from collections.abc import Iterable

from attnmt.text.language_codes import primary_subtag

# Insert Caption's labels as each language's Word writes them.
LABELS = {
    "de": {"Figure": "Abbildung", "Table": "Tabelle", "Equation": "Gleichung"},
    "fr": {"Figure": "Figure", "Table": "Tableau", "Equation": "Équation"},
    "es": {"Figure": "Ilustración", "Table": "Tabla", "Equation": "Ecuación"},
    "it": {"Figure": "Figura", "Table": "Tabella", "Equation": "Equazione"},
    "nl": {"Figure": "Figuur", "Table": "Tabel", "Equation": "Vergelijking"},
    "pt": {"Figure": "Figura", "Table": "Tabela", "Equation": "Equação"},
    "pl": {"Figure": "Rysunek", "Table": "Tabela", "Equation": "Równanie"},
    "cs": {"Figure": "Obrázek", "Table": "Tabulka", "Equation": "Rovnice"},
    "ru": {"Figure": "Рисунок", "Table": "Таблица", "Equation": "Уравнение"},
}


def own_labels(captions: Iterable[str], source_lang: str | None, target_lang: str | None) -> dict[str, str]:
    """Each of ``captions`` (caption labels, stripped: office_labels.caption_labels) that is an English label of
    Insert Caption's, mapped to ``target_lang``'s Word's own; none where the source (None: the model's, read as
    English) is in another language or the target's labels are not known."""
    if source_lang is not None and primary_subtag(source_lang) != "en" or target_lang is None:
        return {}
    own = LABELS.get(primary_subtag(target_lang), {})
    return {label: own[label] for label in captions if label in own}
