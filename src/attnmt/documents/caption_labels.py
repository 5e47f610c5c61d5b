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
written alike (``numbered_label``: "Kapitel 3", "Teil Eins", "Buch II"), its number as written, a count in words
in the target's word."""

from __future__ import annotations

from collections.abc import Iterable

from attnmt.text.count_values import count_in
from attnmt.text.language_codes import primary_subtag
from attnmt.text.numbered_parts import numbered_part

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
# A numbered part's word as each language writes it before the number ("Kapitel 3", "Chapitre 3").
PARTS = {
    "de": {"Chapter": "Kapitel", "Part": "Teil", "Book": "Buch", "Section": "Abschnitt", "Appendix": "Anhang",
           "Step": "Schritt"},
    "fr": {"Chapter": "Chapitre", "Part": "Partie", "Book": "Livre", "Section": "Section", "Appendix": "Annexe",
           "Step": "Étape"},
    "es": {"Chapter": "Capítulo", "Part": "Parte", "Book": "Libro", "Section": "Sección", "Appendix": "Apéndice",
           "Step": "Paso"},
    "it": {"Chapter": "Capitolo", "Part": "Parte", "Book": "Libro", "Section": "Sezione", "Appendix": "Appendice",
           "Step": "Passo"},
    "nl": {"Chapter": "Hoofdstuk", "Part": "Deel", "Book": "Boek", "Section": "Sectie", "Appendix": "Bijlage",
           "Step": "Stap"},
    "pt": {"Chapter": "Capítulo", "Part": "Parte", "Book": "Livro", "Section": "Seção", "Appendix": "Apêndice",
           "Step": "Passo"},
    "pl": {"Chapter": "Rozdział", "Part": "Część", "Book": "Księga", "Section": "Sekcja", "Appendix": "Załącznik",
           "Step": "Krok"},
    "cs": {"Chapter": "Kapitola", "Part": "Část", "Book": "Kniha", "Section": "Oddíl", "Appendix": "Příloha",
           "Step": "Krok"},
    "ru": {"Chapter": "Глава", "Part": "Часть", "Book": "Книга", "Section": "Раздел", "Appendix": "Приложение",
           "Step": "Шаг"},
}


def own_labels(captions: Iterable[str], source_lang: str | None, target_lang: str | None) -> dict[str, str]:
    """Each of ``captions`` (caption labels, stripped: office_labels.caption_labels) that is an English label of
    Insert Caption's, mapped to ``target_lang``'s Word's own; none where the source (None: the model's, read as
    English) is in another language or the target's labels are not known."""
    if source_lang is not None and primary_subtag(source_lang) != "en" or target_lang is None:
        return {}
    own = LABELS.get(primary_subtag(target_lang), {})
    return {label: own[label] for label in captions if label in own}


def numbered_label(name: str, language: str | None, term: str | None = None) -> str | None:
    """``name``, a numbered part's heading in English ("Chapter 3", "BOOK II", "Part One"), written in
    ``language``: its word as ``term`` (a glossary's for the word: the user's) or else the language's own
    (``PARTS``, ``LABELS``) in the case the source writes it, its number as written, a count in words in the
    language's word (count_values.count_in: "Teil Eins"); None for any other name or a language not known."""
    found = numbered_part(name)
    code = primary_subtag(language) if language else ""
    own = {**LABELS.get(code, {}), **PARTS.get(code, {})}
    word = term or (own.get(found[0].title()) if found else None)
    if found is None or word is None:
        return None
    if found[0].isupper() and len(found[0]) > 1 and term is None:
        word = word.upper()
    return f"{word} {count_in(found[1], language) or found[1]}"
