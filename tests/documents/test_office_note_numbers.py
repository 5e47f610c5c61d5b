"""A note's number typed in superscript, glued to a word ("book¹") or to a sentence's stop ("park.¹²"),
in each office format that sets text above the line (Word's w:vertAlign or w:position, ODF's style:text-position,
a slide's baseline): kept whole after what it followed (markers.is_note_number), as an HTML page's
``park.<sup>12</sup>`` is.  As a mark, the model read "book1" and "park.12 A woman" as words: the
number was lost, the superscript went onto the translated word, and the next sentence ran into the
first."""

import io

import docx
import pptx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from lxml import etree
from office_files import docx_bytes, odt_span, read_members, word_children, word_paragraph, write_members
from pptx.util import Inches

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
# (before, the superscript number, after) of one paragraph.
GLUED = ("A woman is reading a book", "1", " and a man is sleeping.")
AFTER_STOP = ("A man is walking his dog in the park.", "12", " A woman is reading.")
# GLUED's sentence as the model reads it, translated word for word (source word k to target word k).
BOOK = "A woman is reading a book and a man is sleeping."
BUCH = "Eine Frau liest gerade ein Buch und ein Mann schläft."
BUCH_WORDS = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 8)]


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def noted(suffix: str, before: str, number: str, after: str) -> bytes:
    """One paragraph, ``number`` set in superscript between plain ``before`` and ``after``: a Word run's
    ``w:vertAlign``, an ODF span whose automatic style raises it, a slide's run with ``baseline``."""
    if suffix == ".docx":
        return word_paragraph(f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r><w:r><w:rPr>'
                              f'<w:vertAlign w:val="superscript"/></w:rPr><w:t>{number}</w:t></w:r>'
                              f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>')
    if suffix == ".odt":
        return odt_span(before, number, after, textposition="super 58%")
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
    paragraph = box.text_frame.paragraphs[0]
    for text in (before, number, after):
        paragraph.add_run().text = text
    paragraph.runs[1]._r.get_or_add_rPr().set("baseline", "30000")
    data = io.BytesIO()
    deck.save(data)
    return data.getvalue()


def raised_pieces(data: bytes, suffix: str) -> list[tuple[str, bool]]:
    """(text, whether it is set above the line) of each run or piece of the first paragraph."""
    if suffix == ".docx":
        return [(run.text, bool(run.font.superscript)) for run in docx.Document(io.BytesIO(data)).paragraphs[0].runs]
    if suffix == ".odt":
        paragraph = etree.fromstring(read_members(data)["content.xml"]).find(f".//{{{TEXT}}}p")
        pieces = [(paragraph.text or "", False)]
        for span in paragraph:
            pieces += [("".join(span.itertext()), span.get(f"{{{TEXT}}}style-name") == "T1"), (span.tail or "", False)]
        return [piece for piece in pieces if piece[0]]
    runs = pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0].text_frame.paragraphs[0].runs
    return [(run.text, run._r.rPr is not None and run._r.rPr.get("baseline") == "30000") for run in runs]


@pytest.mark.parametrize("suffix", [".docx", ".odt", ".pptx"])
def test_a_superscript_number_glued_to_a_word_stays_after_its_translation(fixed, suffix):
    translator = fixed(BUCH, BUCH_WORDS)
    out = translate(noted(suffix, *GLUED), suffix, translator)
    assert translator.given == [BOOK]
    assert raised_pieces(out, suffix) == [("Eine Frau liest gerade ein Buch", False), ("1", True),
                                          (" und ein Mann schläft.", False)]


@pytest.mark.parametrize("suffix", [".docx", ".odt", ".pptx"])
def test_a_superscript_number_after_a_stop_ends_the_sentence_and_stays(same, suffix):
    out = translate(noted(suffix, *AFTER_STOP), suffix, same)
    assert same.given == ["A man is walking his dog in the park.", "A woman is reading."]
    assert raised_pieces(out, suffix) == [(AFTER_STOP[0], False), ("12", True), (AFTER_STOP[2], False)]


def test_superscript_digits_typed_after_a_stop_in_an_ordinary_run_are_kept(unnoted):
    """Characters, not a run set above the line: read with the sentence before them, the model dropped them."""
    runs = '<w:r><w:t xml:space="preserve">A dog runs on the grass.³ A man rides a bike.¹²</w:t></w:r>'
    out = translate(word_paragraph(runs), ".docx", unnoted)
    assert unnoted.given == ["A dog runs on the grass.", "A man rides a bike."]
    assert word_children(out) == [("r", "A dog runs on the grass.³ A man rides a bike.¹²")]


def test_a_word_link_to_a_note_over_a_superscript_number_stays_whole(same):
    """A w:hyperlink to the note (w:anchor) around the superscript "1": the link went onto a word, its "1" lost."""
    link = '<w:hyperlink w:anchor="fn1"><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>1</w:t></w:r>'
    out = translate(word_paragraph(f'<w:r><w:t>A man is walking his dog</w:t></w:r>{link}</w:hyperlink>'
                                   '<w:r><w:t xml:space="preserve"> in the park.</w:t></w:r>'), ".docx", same)
    assert same.given == ["A man is walking his dog in the park."]
    assert word_children(out) == [("r", "A man is walking his dog"), ("hyperlink", "1"), ("r", " in the park.")]


def test_a_superscript_number_after_a_space_and_a_superscript_word_stay_marks(same):
    """Apart from the word before it ("area 20 ²") or with letters ("TM"), a superscript is read with its words."""
    runs = ('<w:r><w:t xml:space="preserve">A dog runs </w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/>'
            '</w:rPr><w:t>2</w:t></w:r><w:r><w:t xml:space="preserve"> times, Acme</w:t></w:r><w:r><w:rPr>'
            '<w:vertAlign w:val="superscript"/></w:rPr><w:t>TM</w:t></w:r><w:r><w:t>.</w:t></w:r>')
    translate(word_paragraph(runs), ".docx", same)
    assert same.given == ["A dog runs 2 times, AcmeTM."]


def raised_by_position(own: bool) -> bytes:
    """LibreOffice's Word file of an HTML page's ``A woman<sup>1</sup> is ...`` and ``sleeping.<sup>2</sup> A
    man ...``: each number raised by ``w:position`` (4 points), the run's own or its character style's."""
    document = docx.Document()
    style = document.styles.add_style("Raised", WD_STYLE_TYPE.CHARACTER)
    raised = f'<w:position {nsdecls("w")} w:val="8"/>'
    style.element.get_or_add_rPr().append(parse_xml(raised))
    for before, number, after in (("A woman", "1", " is sitting on a bench."),
                                  ("The dog is sleeping.", "2", " A man is reading.")):
        paragraph = document.add_paragraph(before)
        run = paragraph.add_run(number)
        if own:
            run._r.get_or_add_rPr().append(parse_xml(raised))
        else:
            run.style = style
        paragraph.add_run(after)
    return docx_bytes(document)


@pytest.mark.parametrize("own", [True, False], ids=["run", "character style"])
def test_a_number_raised_by_its_position_is_a_note_number_kept_after_its_word(same, own):
    """Read as a word, "1" was lost and "Frau" came out raised; "sleeping.2 A man" ended no sentence."""
    out = docx.Document(io.BytesIO(translate(raised_by_position(own), ".docx", same)))
    assert same.given == ["A woman is sitting on a bench.", "The dog is sleeping.", "A man is reading."]
    assert [[run.text for run in paragraph.runs] for paragraph in out.paragraphs] == [
        ["A woman", "1", " is sitting on a bench."], ["The dog is sleeping.", "2", " A man is reading."]]


@pytest.mark.parametrize("suffix", [".odt", ".pptx"])
def test_a_height_in_superscript_digits_is_not_above_the_line_and_no_error(same, suffix):
    """A slide's ``baseline="²"``, an ODF ``style:text-position="² 58%"``: "²" isdigit, and float() refused it, a
    ValueError out of the file.  It reads as no number, so as no height above the line."""
    if suffix == ".odt":
        data = odt_span(*AFTER_STOP, textposition="² 58%")
    else:
        members = read_members(noted(suffix, *AFTER_STOP))
        slide = members["ppt/slides/slide1.xml"]
        members["ppt/slides/slide1.xml"] = slide.replace(b'baseline="30000"', 'baseline="²"'.encode())
        data = write_members(members)
    out = translate(data, suffix, same)
    assert "".join(text for text, _ in raised_pieces(out, suffix)) == "".join(AFTER_STOP)
