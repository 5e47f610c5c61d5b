"""Quotes inside a Word paragraph's sentence (attnmt.documents.word_quotes): the model is given the words without
their marks, and the quote is written around their translation in the target language's form, in the run it stood
in, as an HTML page's and an .odt's are.  Upper upper-cases each sentence, Mirror reverses its words too."""

import io

import docx
import pytest
from office_files import read_members, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

PLAIN, BOLD, ITALIC = "", "<w:rPr><w:b/></w:rPr>", "<w:rPr><w:i/></w:rPr>"


def run(*texts: str, look: str = PLAIN) -> str:
    """A run of ``look`` holding a text element for each of ``texts`` (a merged run holds several)."""
    return f"<w:r>{look}" + "".join(f'<w:t xml:space="preserve">{text}</w:t>' for text in texts) + "</w:r>"


def translated_runs(runs: str, translator, target_lang: str | None = "de") -> list[tuple[str, bool, bool]]:
    """(text, bold, italic) of each run of the first paragraph of ``runs`` translated."""
    out = translate_office(word_paragraph(runs), ".docx", translator, DocumentOptions(target_lang=target_lang))
    paragraph = docx.Document(io.BytesIO(out)).paragraphs[0]
    return [(piece.text, bool(piece.bold), bool(piece.italic)) for piece in paragraph.runs]


@pytest.mark.parametrize("text, given, written", [
    ('The girl said "hello" to the old man.', "The girl said hello to the old man.",
     "THE GIRL SAID „HELLO“ TO THE OLD MAN."),
    ("He read \u201cThe Times\u201d in the garden.", "He read The Times in the garden.",
     "HE READ „THE TIMES“ IN THE GARDEN."),
    ('"A dog runs," she said.', "A dog runs, she said.", "„A DOG RUNS“, SHE SAID."),
    ('She said "I am here."', "She said I am here.", "SHE SAID „I AM HERE.“"),
    ("He said \"she told me 'run' today\" and left.", "He said she told me run today and left.",
     "HE SAID „SHE TOLD ME ‚RUN‘ TODAY“ AND LEFT."),
    ("I don't know \"where\" the dogs' bowl is.", "I don't know where the dogs' bowl is.",
     "I DON'T KNOW „WHERE“ THE DOGS' BOWL IS."),
])
def test_a_quote_inside_a_paragraphs_sentence_is_read_without_its_marks_and_written_in_the_target_form(
        upper, text, given, written):
    """The demo model lost both marks of 'The girl said "hello" to the old man.': "Das Mädchen mit einem alten Mann,
    der auf dem alten Mann steht."; an apostrophe (don't, the dogs') is no quote."""
    assert translated_runs(run(text), upper) == [(written, False, False)]
    assert upper.given == [given]


def test_a_quote_wraps_its_words_where_the_translation_puts_them(mirror):
    assert translated_runs(run('The girl said "hello there" and left.'), mirror) == [
        ("LEFT. AND „THERE HELLO“ SAID GIRL THE", False, False)]


def test_a_quote_around_a_bold_word_is_written_outside_the_bold_run(upper):
    runs = run("The man said \u201c") + run("hello", look=BOLD) + run("\u201d to the dog.")
    assert translated_runs(runs, upper) == [("THE MAN SAID „", False, False), ("HELLO", True, False),
                                            ("“ TO THE DOG.", False, False)]
    assert upper.given == ["The man said hello to the dog."]


def test_a_quote_around_an_italic_runs_words_and_more_wraps_both(upper):
    runs = run('A woman reads a book called "') + run("The old man", look=ITALIC) + run(' and the sea".')
    assert translated_runs(runs, upper) == [("A WOMAN READS A BOOK CALLED „", False, False),
                                            ("THE OLD MAN", False, True), (" AND THE SEA“.", False, False)]
    assert upper.given == ["A woman reads a book called The old man and the sea."]


def test_a_quote_inside_an_italic_run_stays_inside_it(upper):
    runs = run("The boy said ") + run('"goodbye"', look=ITALIC) + run(" to the woman.")
    assert translated_runs(runs, upper) == [("THE BOY SAID ", False, False), ("„GOODBYE“", False, True),
                                            (" TO THE WOMAN.", False, False)]


def test_a_quote_over_two_text_elements_of_one_run_is_read_as_one(upper):
    """LibreOffice writes a paragraph's opening quote in a run of its own, of the same look as the rest: merged, the
    run holds two text elements, each read alone, and the quote's marks went to the model as words."""
    runs = run("\u201c") + run("A dog runs,\u201d she said.")
    assert translated_runs(runs, upper) == [("„A DOG RUNS“, SHE SAID.", False, False)]
    assert upper.given == ["A dog runs, she said."]


def test_a_quote_is_written_with_french_guillemets_and_their_spaces(upper):
    assert translated_runs(run('She said "hello" to him.'), upper, "fr") == [
        ("SHE SAID «\u00a0HELLO\u00a0» TO HIM.", False, False)]


def test_a_quote_with_no_target_language_known_keeps_its_marks_around_its_words(upper):
    assert translated_runs(run('She said "hello" to him.'), upper, None) == [('SHE SAID "HELLO" TO HIM.', False, False)]
    assert upper.given == ["She said hello to him."]


HINT, LANGUAGE = '<w:rPr><w:rFonts w:hint="eastAsia"/></w:rPr>', '<w:rPr><w:lang w:val="en-GB"/></w:rPr>'


@pytest.mark.parametrize("runs, written", [
    (run("He said ") + run("\u201c", look=HINT) + run("hello\u201d to him."),
     [("HE SAID „HELLO“ TO HIM.", False, False)]),
    (run("He said ") + run("\u201c", look=LANGUAGE) + run("hello") + run("\u201d", look=LANGUAGE) + run(" to him."),
     [("HE SAID „HELLO“ TO HIM.", False, False)]),
    (run("He said ") + run("\u201c", look=HINT) + run("hello", look=BOLD) + run("\u201d", look=HINT) + run(" to him."),
     [("HE SAID „", False, False), ("HELLO", True, False), ("“ TO HIM.", False, False)]),
])
def test_a_quote_mark_set_apart_by_its_font_hint_or_language_alone_is_read_with_its_quote(upper, runs, written):
    """Word writes a curly quote in a run of its own with East Asian languages on (w:hint="eastAsia") or typed on
    another keyboard (w:lang): as a run of its own look, the quote went to the model as words."""
    assert translated_runs(runs, upper) == written
    assert upper.given == ["He said hello to him."]


def test_a_non_breaking_hyphen_after_a_quote_around_a_bold_word_stays_non_breaking(same):
    """The quote's marks, taken out of the text once it was read, moved the words after them two places: the hyphen
    of "555‑0100" was looked for two places off, and came back a plain "-"."""
    runs = (run('She said "') + run("hello", look=BOLD) + run('" to the office at 555')
            + "<w:r><w:noBreakHyphen/></w:r>" + run("0100 today."))
    out = translate_office(word_paragraph(runs), ".docx", same, DocumentOptions(target_lang="de"))
    body = read_members(out)["word/document.xml"].decode()
    assert "555</w:t><w:noBreakHyphen/><w:t" in body and "555-0100" not in body
    assert same.given == ["She said hello to the office at 555-0100 today."]
