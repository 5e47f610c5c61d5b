"""Word's drop caps (attnmt.documents.dropcaps): the letters of a frame read with the paragraph
they begin, and given back to the frame, read back with python-docx."""

import io

import docx
import pytest
from lxml import etree
from office_files import docx_bytes

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
BIG = '<w:rPr><w:sz w:val="96"/></w:rPr>'


def drop_cap_file(*paragraphs: str, kind: str = "drop", frame: str = f"<w:r>{BIG}<w:t>T</w:t></w:r>") -> bytes:
    """Word's Insert > Drop Cap: ``frame`` (runs: "T") in a framed paragraph of its own
    (``w:dropCap``), then ``paragraphs`` (each its runs and what is between them)."""
    document = docx.Document()
    body = document.element.body
    xml = [f'<w:pPr><w:framePr w:dropCap="{kind}" w:lines="3"/></w:pPr>{frame}', *paragraphs]
    for number, inner in enumerate(xml):
        body.insert(number, etree.fromstring(f'<w:p xmlns:w="{W}">{inner}</w:p>'))
    return docx_bytes(document)


def translated(data: bytes, translator) -> docx.document.Document:
    return docx.Document(io.BytesIO(translate_office(data, ".docx", translator, DocumentOptions())))


TWO_DOGS = "<w:r><w:t>wo dogs are running in the grass.</w:t></w:r>"


@pytest.mark.parametrize("kind", ["drop", "margin"])
def test_a_drop_cap_is_read_with_its_word_and_gets_the_translations_first_letter(fixed, kind):
    """Read apart, "T" was a sentence of its own (the model made one up for it) and "wo dogs ..."
    another, which lost its first word."""
    translator = fixed("Zwei Hunde laufen im Gras.", [(k, k) for k in range(6)])
    frame, rest = translated(drop_cap_file(TWO_DOGS, kind=kind), translator).paragraphs[:2]
    assert translator.given == ["Two dogs are running in the grass."]
    assert (frame.text, frame.runs[0].font.size.pt) == ("Z", 48)
    assert rest.text == "wei Hunde laufen im Gras."


def test_a_frame_that_is_no_drop_cap_is_translated_apart(same):
    """Its one letter is no sentence, and is kept as written (letterless.is_one_letter)."""
    frame = translated(drop_cap_file(TWO_DOGS, kind="none"), same).paragraphs[0]
    assert same.given == ["wo dogs are running in the grass."]
    assert frame.text == "T"


def test_a_drop_cap_before_a_paragraph_without_words_keeps_its_letter(same):
    """"1" then "984" is no sentence, so no job wrote the paragraph again, and the frame's letter,
    moved to it to be read, never went back: an empty frame, then "1984"."""
    data = drop_cap_file("<w:r><w:t>984</w:t></w:r>", "<w:r><w:t>A man rides a bike.</w:t></w:r>",
                         frame=f"<w:r>{BIG}<w:t>1</w:t></w:r>")
    frame, year, sentence = translated(data, same).paragraphs[:3]
    assert same.given == ["A man rides a bike."]
    assert (frame.text, year.text, sentence.text) == ("1", "984", "A man rides a bike.")


@pytest.mark.parametrize("before", ['<w:proofErr w:type="spellStart"/>',
                                    '<w:bookmarkStart w:id="0" w:name="_GoBack"/><w:bookmarkEnd w:id="0"/>',
                                    '<w:commentRangeStart w:id="1"/>', '<w:permStart w:id="2" w:edGrp="everyone"/>'],
                         ids=["spelling", "bookmark", "comment", "permission"])
def test_a_drop_cap_is_read_with_its_word_past_the_marks_word_puts_before_it(fixed, before):
    """A file Word has edited marks a misspelt "wo" (``w:proofErr``), where the cursor was
    (bookmark ``_GoBack``) or a range's start before the paragraph's first run: its text was not
    found, and "T" and "wo dogs ..." were read apart."""
    translator = fixed("Zwei Hunde laufen im Gras.", [(k, k) for k in range(6)])
    frame = f'<w:bookmarkStart w:id="9" w:name="Start"/><w:r>{BIG}<w:t>T</w:t></w:r><w:bookmarkEnd w:id="9"/>'
    data = drop_cap_file(before + TWO_DOGS, frame=frame)
    cap, rest = translated(data, translator).paragraphs[:2]
    assert translator.given == ["Two dogs are running in the grass."]
    assert (cap.text, rest.text) == ("Z", "wei Hunde laufen im Gras.")


def test_a_drop_cap_of_two_runs_gets_as_many_letters_in_each(fixed):
    """"T" plain and "w" italic: both letters of the translation went into the first run, and the
    italic one was left empty."""
    translator = fixed("Zwei Hunde laufen im Gras.", [(k, k) for k in range(6)])
    frame = f"<w:r>{BIG}<w:t>T</w:t></w:r><w:r><w:rPr><w:i/><w:sz w:val=\"96\"/></w:rPr><w:t>w</w:t></w:r>"
    data = drop_cap_file("<w:r><w:t>o dogs are running in the grass.</w:t></w:r>", frame=frame)
    cap, rest = translated(data, translator).paragraphs[:2]
    assert translator.given == ["Two dogs are running in the grass."]
    assert [(run.text, run.italic) for run in cap.runs] == [("Z", None), ("w", True)]
    assert rest.text == "ei Hunde laufen im Gras."


def test_a_drop_cap_before_another_frame_keeps_its_letter(same):
    """Its letter was moved into the next frame, which moved both on: the first frame came back empty."""
    second = f'<w:pPr><w:framePr w:dropCap="drop" w:lines="3"/></w:pPr><w:r>{BIG}<w:t>W</w:t></w:r>'
    data = drop_cap_file(second, "<w:r><w:t>o dogs run.</w:t></w:r>", frame=f"<w:r>{BIG}<w:t>T</w:t></w:r>")
    first, framed, rest = translated(data, same).paragraphs[:3]
    assert (first.text, framed.text, rest.text) == ("T", "W", "o dogs run.")
