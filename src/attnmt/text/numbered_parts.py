"""A numbered part's heading: "Chapter 3", "Part One", "Book II", "Section 4.2", "Appendix A", "Step 2", and a
caption's label with its number ("Figure 3").

Before a colon it is a field's name (attnmt.text.speaker_labels.is_field), translated alone; its word is a known
one, written by each language's own (attnmt.documents.caption_labels), and its number kept as written: read as a
sentence, the demo model wrote "Book II: A man walks." as "Ein Mann geht ..." (the heading lost), and "Chapter 3"
alone as a caption it garbled, kept in English beside a German title."""

from __future__ import annotations

import re

from attnmt.text.count_values import ENGLISH_COUNTS, count_in
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
# A numbered part's word as each language writes it before the number ("Kapitel 3", "Chapitre 3").
PARTS = {
    "de": {"Chapter": "Kapitel", "Part": "Teil", "Book": "Buch", "Section": "Abschnitt", "Appendix": "Anhang",
           "Step": "Schritt", "Volume": "Band", "Act": "Akt", "Scene": "Szene", "Lesson": "Lektion"},
    "fr": {"Chapter": "Chapitre", "Part": "Partie", "Book": "Livre", "Section": "Section", "Appendix": "Annexe",
           "Step": "Étape", "Volume": "Volume", "Act": "Acte", "Scene": "Scène", "Lesson": "Leçon"},
    "es": {"Chapter": "Capítulo", "Part": "Parte", "Book": "Libro", "Section": "Sección", "Appendix": "Apéndice",
           "Step": "Paso", "Volume": "Volumen", "Act": "Acto", "Scene": "Escena", "Lesson": "Lección"},
    "it": {"Chapter": "Capitolo", "Part": "Parte", "Book": "Libro", "Section": "Sezione", "Appendix": "Appendice",
           "Step": "Passo", "Volume": "Volume", "Act": "Atto", "Scene": "Scena", "Lesson": "Lezione"},
    "nl": {"Chapter": "Hoofdstuk", "Part": "Deel", "Book": "Boek", "Section": "Sectie", "Appendix": "Bijlage",
           "Step": "Stap", "Volume": "Deel", "Act": "Bedrijf", "Scene": "Scène", "Lesson": "Les"},
    "pt": {"Chapter": "Capítulo", "Part": "Parte", "Book": "Livro", "Section": "Seção", "Appendix": "Apêndice",
           "Step": "Passo", "Volume": "Volume", "Act": "Ato", "Scene": "Cena", "Lesson": "Lição"},
    "pl": {"Chapter": "Rozdział", "Part": "Część", "Book": "Księga", "Section": "Sekcja", "Appendix": "Załącznik",
           "Step": "Krok", "Volume": "Tom", "Act": "Akt", "Scene": "Scena", "Lesson": "Lekcja"},
    "cs": {"Chapter": "Kapitola", "Part": "Část", "Book": "Kniha", "Section": "Oddíl", "Appendix": "Příloha",
           "Step": "Krok", "Volume": "Svazek", "Act": "Dějství", "Scene": "Scéna", "Lesson": "Lekce"},
    "ru": {"Chapter": "Глава", "Part": "Часть", "Book": "Книга", "Section": "Раздел", "Appendix": "Приложение",
           "Step": "Шаг", "Volume": "Том", "Act": "Действие", "Scene": "Сцена", "Lesson": "Урок"},
}
# The English words of a numbered part, and of Word's Insert Caption's labels: those every language above writes.
PART_WORDS = frozenset(PARTS["de"]) | frozenset(LABELS["de"])
COLONS = ":："  # what may end a heading alone on its line, no value after it ("Part iv:")
NUMBERED = re.compile(r"(?P<word>[^\W\d_]+)\s+(?P<number>\d+(?:[.-]\d+)*[a-z]?|[^\W\d_]+)")  # "4.2", "3a", "II"
ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")


def numbered_part(name: str) -> tuple[str, str] | None:
    """The word and the number of ``name`` where it is a numbered part's (one of ``PART_WORDS`` in any case, then
    digits, a Roman numeral, a capital letter or a count in English words from zero to twenty): ("Chapter", "3")
    of "Chapter 3", ("BOOK", "II") of "BOOK II"; None for any other name ("Chapter Notes", "Part Time")."""
    found = NUMBERED.fullmatch(name.strip())
    if found is None or found["word"].title() not in PART_WORDS:
        return None
    number = found["number"]
    letters = number.isalpha() and (len(number) == 1 and number.isupper() or number.lower() in ENGLISH_COUNTS
                                    or number in (number.upper(), number.lower())
                                    and ROMAN.fullmatch(number.upper()) is not None)
    return (found["word"], number) if number[0].isdigit() or letters else None


def heading_alone(text: str) -> bool:
    """Whether ``text`` is a numbered part's heading alone, a colon after it or none ("Act III", "Part iv:"), which a
    text line, a document's short label and a sentence given to ``attnmt.translate`` write as ``numbered_label``
    does: read as a sentence, the demo model wrote "Volume 2" as "Zwei Frauen" and "Lesson 5" as "5"."""
    return numbered_part(text.strip().rstrip(COLONS).rstrip()) is not None


def numbered_label(name: str, language: str | None, term: str | None = None) -> str | None:
    """``name``, a numbered part's heading in English ("Chapter 3", "BOOK II", "Part One", "Act III"), written in
    ``language``: its word as ``term`` (a glossary's for the word: the user's) or else the language's own
    (``PARTS``, ``LABELS``) in the case the source writes it, its number as written, a count in words in the
    language's word (count_values.count_in: "Teil Eins"), and the colon a heading alone on its line ends with after
    it ("Part iv:" -> "Teil iv:"; read as a sentence, the demo model wrote "Ein Mann steht vor einer
    Menschenmenge:"); None for any other name or a language not known."""
    bare = name.rstrip().rstrip(COLONS).rstrip()
    found = numbered_part(bare)
    code = primary_subtag(language) if language else ""
    own = {**LABELS.get(code, {}), **PARTS.get(code, {})}
    word = term or (own.get(found[0].title()) if found else None)
    if found is None or word is None:
        return None
    if found[0].isupper() and len(found[0]) > 1 and term is None:
        word = word.upper()
    return f"{word} {count_in(found[1], language) or found[1]}{name.rstrip()[len(bare):]}"
