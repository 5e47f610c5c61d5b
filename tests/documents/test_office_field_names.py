"""A field's name in a run or a span of its own at an office paragraph's start that the model garbles keeps its
source, as a text line's and a page's do (attnmt.documents.short_labels.field_sentences): a Word paragraph, a
PowerPoint text box, an OpenDocument paragraph, each through translate_office."""

import io
import zipfile

import docx
import pptx
from conftest import Judging, Sentencing
from office_files import docx_bytes, odt_span
from pptx.util import Inches

from attnmt.decoding.garbled_labels import FLOOR
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


def judging(mirror) -> Judging:
    """The demo model wrote "Benefits" alone as "Ein Dema"; "Key Features" it writes well."""
    return Judging(mirror, {"Benefits": FLOOR / 2, "Key Features": FLOOR + 0.01})


def test_a_word_paragraphs_bold_field_name_the_model_garbles_keeps_its_source(mirror):
    document = docx.Document()
    for label, words in [("Benefits:", " free parking."), ("Key Features:", " a red dog."),
                         ("ANNA:", " A red dog.")]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = True
        paragraph.add_run(words)
    judge = judging(mirror)
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", judge, DocumentOptions())))
    assert [paragraph.text for paragraph in out.paragraphs] == [
        "Benefits: PARKING. FREE", "FEATURES KEY: DOG. RED A", "ANNA: DOG. RED A"]
    assert [paragraph.runs[0].bold for paragraph in out.paragraphs] == [True, True, True]
    assert [source for source, _ in judge.judged] == ["Benefits", "Key Features"]


def test_a_powerpoint_text_box_s_bold_field_name_the_model_garbles_keeps_its_source(mirror):
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.paragraphs[0]
    for text, bold in (("Benefits:", True), (" free parking.", False)):
        run = box.add_run()
        run.text, run.font.bold = text, bold
    data = io.BytesIO()
    deck.save(data)
    out = pptx.Presentation(io.BytesIO(translate_office(data.getvalue(), ".pptx", judging(mirror), DocumentOptions())))
    assert [shape.text_frame.text for shape in out.slides[0].shapes] == ["Benefits: PARKING. FREE"]


def test_an_opendocument_paragraph_s_field_name_in_a_span_the_model_garbles_keeps_its_source(mirror):
    data = odt_span("", "Benefits:", " free parking.", fontweight="bold")
    out = translate_office(data, ".odt", judging(mirror), DocumentOptions())
    content = zipfile.ZipFile(io.BytesIO(out)).read("content.xml").decode()
    assert '<text:span text:style-name="T1">Benefits:</text:span> PARKING. FREE</text:p>' in content


def test_a_measure_or_persons_names_after_a_word_paragraphs_bold_field_name_are_kept_as_written(mirror):
    """The demo model wrote "Ann Goldstein" after a bold "Translator:" as "Ein Moner läuft"."""
    document = docx.Document()
    for label, words in [("Translator:", " Ann Goldstein"), ("WEIGHT:", " 1.2 kg"), ("Colour:", " Space Grey")]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = True
        paragraph.add_run(words)
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())))
    assert [paragraph.text for paragraph in out.paragraphs] == [
        "TRANSLATOR: Ann Goldstein", "WEIGHT: 1.2 kg", "COLOUR: GREY SPACE"]
    assert [run.bold for run in out.paragraphs[0].runs] == [True, None]
    assert mirror.given == ["Translator", "WEIGHT", "Colour", "Space Grey"]


def test_persons_names_after_an_opendocument_paragraph_s_field_name_in_a_span_stay_outside_it_as_written(mirror):
    out = translate_office(odt_span("", "Translator:", " Ann Goldstein", fontweight="bold"), ".odt", mirror,
                           DocumentOptions())
    content = zipfile.ZipFile(io.BytesIO(out)).read("content.xml").decode()
    assert '<text:span text:style-name="T1">TRANSLATOR:</text:span> Ann Goldstein</text:p>' in content


def test_a_field_name_in_sentence_case_in_a_word_run_of_its_own_look_is_a_fields(mirror):
    """"Prep time:" in bold before " 15 min" was read whole ("MIN 15 TIME: PREP"), where a page's <b> and an .odt's
    span set it apart: a run bold or italic where the rest is not does too; runs of one look say nothing."""
    document = docx.Document()
    for label, words, bold, italic in [("Prep time:", " 15 min", True, None),
                                       ("Side effects:", " nausea and headache.", True, None),
                                       ("Cooking time:", " 40 minutes", None, True),
                                       ("Prep time:", " 15 min", None, None), ("Dear sir:", " thank you.", True, None)]:
        paragraph = document.add_paragraph()
        run = paragraph.add_run(label)
        run.bold, run.italic = bold, italic
        paragraph.add_run(words)
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())))
    assert [paragraph.text for paragraph in out.paragraphs] == [
        "TIME PREP: 15 min", "EFFECTS SIDE: HEADACHE. AND NAUSEA", "TIME COOKING: MINUTES 40", "MIN 15 TIME: PREP",
        "YOU. THANK SIR: DEAR"]
    assert [run.bold for run in out.paragraphs[0].runs] == [True, None]


def test_a_field_name_in_sentence_case_in_a_powerpoint_run_of_its_own_look_is_a_fields(mirror):
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for looks in ((True, False), (True, True)):
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.paragraphs[0]
        for text, bold in zip(("Prep time:", " 15 min"), looks, strict=True):
            run = box.add_run()
            run.text, run.font.bold = text, bold
    data = io.BytesIO()
    deck.save(data)
    out = pptx.Presentation(io.BytesIO(translate_office(data.getvalue(), ".pptx", mirror, DocumentOptions())))
    assert [shape.text_frame.text for shape in out.slides[0].shapes] == ["TIME PREP: 15 min", "MIN 15 TIME: PREP"]


def test_a_remarks_name_in_a_word_run_of_its_own_look_is_translated_alone(mirror):
    """"Tip:" in bold before " Add salt." is a name set apart, as a page's <b> is: read whole, the demo model wrote
    it "Ein Dema."; in a run of the paragraph's one look it is read with its sentence."""
    document = docx.Document()
    for label, words, bold in [("Tip:", " add salt.", True), ("Caution:", " hot water.", True),
                               ("Tip:", " add salt.", None)]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = bold
        paragraph.add_run(words)
    judge = Judging(mirror, {"Tip": FLOOR / 2, "Caution": FLOOR})
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", judge, DocumentOptions())))
    assert [paragraph.text for paragraph in out.paragraphs] == [
        "Tip: SALT. ADD", "CAUTION: WATER. HOT", "SALT. ADD TIP:"]
    assert [run.bold for run in out.paragraphs[0].runs] == [True, None]
    assert [source for source, _ in judge.judged] == ["Tip", "Caution"]


def test_a_word_paragraph_whose_every_sentence_kept_its_source_says_the_sources_language():
    """"SIGNAL: 3 bars" came back from the demo model as "EIN SCHILD: Drei weiblichen", so both kept their source; the
    paragraph held English with no w:lang, read as the document's target language."""
    document = docx.Document()
    for text in ("SIGNAL: 3 bars", "A dog runs."):
        document.add_paragraph(text)
    translator = Judging(Sentencing({"SIGNAL": "EIN SCHILD", "3 bars": "Drei weiblichen", "A dog runs.": "Ein Hund."}),
                         {})
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", translator,
                                                    DocumentOptions(target_lang="de"))))
    kept, translated = out.paragraphs[:2]
    assert (kept.text, translated.text) == ("SIGNAL: 3 bars", "Ein Hund.")
    assert kept.runs[0]._r.rPr.find(docx.oxml.ns.qn("w:lang")).get(docx.oxml.ns.qn("w:val")) == "en"
    assert translated.runs[0]._r.rPr is None
