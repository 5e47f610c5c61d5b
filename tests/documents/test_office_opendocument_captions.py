"""LibreOffice's captions (attnmt.documents.caption_numbers, opendocument_vocabulary.numbers_caption): a label, a
``text:sequence`` number field, a separator and the caption's text, as Insert Caption writes them; and the number
fields in running text, a cross-reference to a caption's number among them (opendocument_vocabulary.NUMBER_FIELDS)."""

import io

import pytest
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, libreoffice_saved, odf_bytes, read_members, write_members

from attnmt.decoding.garbled_labels import FLOOR
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"


def sequence(name: str, shown: str) -> str:
    """A caption's number field as LibreOffice writes it."""
    return (f'<text:sequence text:ref-name="ref{name}0" text:name="{name}" text:formula="ooow:{name}+1" '
            f'style:num-format="1">{shown}</text:sequence>')


def odt_paragraphs(*inlines: str) -> bytes:
    """An OpenDocument text of a paragraph for each of ``inlines`` (its content, text: and style: names)."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    for k in range(len(inlines)):
        document.text.addElement(P(text=f"@{k}@"))
    members = read_members(odf_bytes(document))
    for k, inline in enumerate(inlines):
        members["content.xml"] = members["content.xml"].replace(f">@{k}@<".encode(),
                                                                f' xmlns:style="{STYLE}">{inline}<'.encode())
    return write_members(members)


def translated_paragraphs(data: bytes, translator) -> list[etree._Element]:
    out = translate_office(data, ".odt", translator, DocumentOptions())
    return list(etree.fromstring(read_members(out)["content.xml"]).iter(f"{{{TEXT}}}p"))


def shown(paragraph: etree._Element) -> str:
    return "".join(paragraph.itertext())


@pytest.mark.parametrize(("inline", "given", "out"), [
    (f"Figure {sequence('Figure', '1')}: A black dog jumps.", ["Figure", "A black dog jumps."],
     "FIGURE 1: A BLACK DOG JUMPS."),
    (f"Table {sequence('Table', '2')}. Prices of the fruit", ["Table", "Prices of the fruit"],
     "TABLE 2. PRICES OF THE FRUIT"),
    (f"Illustration {sequence('Illustration', '3')}<text:s/>\u2013 A woman sells fruit.",
     ["Illustration", "A woman sells fruit."], "ILLUSTRATION 3 \u2013 A WOMAN SELLS FRUIT."),
    (f"Drawing {sequence('Drawing', '1.4')} - Two boys play in a field.", ["Drawing", "Two boys play in a field."],
     "DRAWING 1.4 - TWO BOYS PLAY IN A FIELD."),
    (f'<text:bookmark-start text:name="__RefNumPara__1"/>Figure {sequence("Figure", "5")}'
     '<text:bookmark-end text:name="__RefNumPara__1"/>: A cat sleeps on the sofa.',
     ["Figure", "A cat sleeps on the sofa."], "FIGURE 5: A CAT SLEEPS ON THE SOFA."),
    (f'<text:span text:style-name="T1">Plate {sequence("Plate", "6")}: A man rides a horse.</text:span>',
     ["Plate", "A man rides a horse."], "PLATE 6: A MAN RIDES A HORSE."),
], ids=["colon", "full-stop", "spaced-dash", "chapter-number", "cross-referenced", "in-a-span"])
def test_a_libreoffice_captions_label_and_text_are_read_apart_around_its_number(upper, inline, given, out):
    """Read as one sentence, "Figure : A black dog jumps." came back "Ein bärtiger 1 schwarzer Hund springt über den
    Zaun." from the demo model, the label and the colon lost.  The label and the text are read each alone; the number
    and its separator stay where they were (LibreOffice writes a space after a field as ``<text:s/>``)."""
    paragraph = translated_paragraphs(odt_paragraphs(inline), upper)[0]
    assert upper.given == given
    assert shown(paragraph) == out
    assert paragraph.find(f".//{{{TEXT}}}sequence").get(f"{{{TEXT}}}name") == given[0]


def test_a_number_field_in_running_text_parts_no_separator_off_words(upper):
    """Only a separator with spaces after it is a caption's: "Step 2." ends its sentence, and "2-3" is no dash."""
    inline = f"Step {sequence('Step', '2')}-3 of the plan is easy."
    translated_paragraphs(odt_paragraphs(inline), upper)
    assert upper.given == ["Step", "-3 of the plan is easy."]


def test_a_libreoffice_captions_label_the_model_garbled_keeps_its_source(mirror):
    """As a Word caption's (short_labels): "Figure" alone came back "Auf einem Arzt" from the demo model."""
    judging = Judging(mirror, {"Figure": FLOOR / 2, "Table": FLOOR + 0.01})
    data = odt_paragraphs(f"Figure {sequence('Figure', '1')}: A black dog jumps.",
                          f"Table {sequence('Table', '1')}: A black dog jumps.")
    assert [shown(p) for p in translated_paragraphs(data, judging)] == [
        "Figure 1: JUMPS. DOG BLACK A", "TABLE 1: JUMPS. DOG BLACK A"]


def sequence_reference(form: str, shown: str) -> str:
    """A cross-reference to the caption ``sequence('Figure', ...)`` numbers, showing ``form`` (value, page, ...)."""
    return (f'<text:sequence-ref text:reference-format="{form}" text:ref-name="refFigure0">{shown}'
            '</text:sequence-ref>')


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize(("inline", "given", "out"), [
    (f"The dog in figure {sequence_reference('value', '1')} runs in the park.",
     "The dog in figure 1 runs in the park.", "PARK. THE IN RUNS 1 FIGURE IN DOG THE"),
    (f"See page {sequence_reference('page', '4')} for a man.", "See page 4 for a man.", "MAN. A FOR 4 PAGE SEE"),
    ('This is page <text:page-number text:select-page="current">1</text:page-number> of the report.',
     "This is page 1 of the report.", "REPORT. THE OF 1 PAGE IS THIS"),
    ("The report has <text:page-count>1</text:page-count> pages.", "The report has 1 pages.",
     "PAGES. 1 HAS REPORT THE"),
], ids=["caption-number", "page-reference", "page-number", "page-count"])
def test_a_number_field_amid_words_is_read_in_its_place(mirror, tmp_path, inline, given, out):
    """As Word's number fields are: an atom, the model read "The dog in figure runs in the park.", and LibreOffice
    showed "PARK. THE IN 1 RUNS FIGURE IN DOG THE", the number after the wrong word; "This is page of the report."
    showed "REPORT. THE 1 OF PAGE IS THIS"."""
    data = odt_paragraphs(f"Figure {sequence('Figure', '1')}: A black dog jumps.", inline)
    translated = translate_office(data, ".odt", mirror, DocumentOptions())
    assert mirror.given[-1] == given
    assert odfpy_lines(translated)[1] == out
    if "page-number" not in inline:  # LibreOffice shows a page's number as it lays the page out ("0" in text)
        assert libreoffice_saved(translated, ".odt", "txt", tmp_path / "txt").decode("utf-8-sig").splitlines()[1] == out


def odfpy_lines(data: bytes) -> list[str]:
    """The text of each paragraph of the OpenDocument text ``data``, as odfpy reads it."""
    from odf import teletype
    from odf.opendocument import load
    from odf.text import P

    return [teletype.extractText(paragraph) for paragraph in load(io.BytesIO(data)).getElementsByType(P)]
