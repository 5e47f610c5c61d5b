"""A number kept whole that ends a sentence after the word it numbers goes right after that word's translation
(attnmt.documents.numbered_words): "See page <4>." where the model writes the verb last."""

import io

import docx
import pytest
from office_files import W, complex_field, text_run, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


def word_text(paragraph: str, translator) -> str:
    """The text of the first paragraph of the translated Word file of ``paragraph``, fields' results among it."""
    out = translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions(target_lang="de"))
    paragraph = docx.Document(io.BytesIO(out)).paragraphs[0]._p
    return "".join(text.text or "" for text in paragraph.iter(f"{{{W}}}t"))


@pytest.mark.parametrize(("before", "code", "number", "read", "translation", "alignment", "written"), [
    ("The results are shown on page ", "PAGEREF _Ref1 \\h", "4", "The results are shown on page .",
     "Die Ergebnisse sind auf Seite dargestellt.", [(0, 0), (1, 1), (2, 2), (3, 5), (4, 3), (5, 4)],
     "Die Ergebnisse sind auf Seite 4 dargestellt."),
    ("See note ", "NOTEREF _Ref2 \\h", "12", "See note .", "Anmerkung beachten.", [(0, 1), (1, 0)],
     "Anmerkung 12 beachten."),
    ("Read step ", "REF _Ref3 \\r \\h", "3", "Read step .", "Schritt lesen.", [(0, 1), (1, 0)],
     "Schritt 3 lesen."),
    ("Details are described on page ", "PAGEREF _Ref4 \\h", "7", "Details are described on page .",  # its article too
     "Details sind auf der Seite beschrieben.", [(0, 0), (1, 1), (2, 5), (3, 2), (4, 3), (4, 4), (5, 5)],
     "Details sind auf der Seite 7 beschrieben."),
])
def test_a_fields_number_at_a_sentences_end_follows_the_word_it_numbers(known, before, code, number, read,
                                                                          translation, alignment, written):
    """The rule for atoms before a stop put the number after the verb German writes last: "Anmerkung beachten 12."."""
    translator = known({read: (translation, alignment)})
    assert word_text(text_run(before) + complex_field(f" {code} ", number) + text_run("."), translator) == written
    assert translator.given == [read]

