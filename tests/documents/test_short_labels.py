"""A short alt text or Word caption label whose translation the model finds implausible keeps its source
(attnmt.documents.short_labels), with the ``mirror`` fixture's translations judged as ``Judging`` is told."""

import io

import docx
import openpyxl
import openpyxl.comments
import pptx
import pytest
import srt
from chart_files import SLIDE_CHART, linked_chart_slides_file
from conftest import Judging
from lxml import etree
from odf.opendocument import OpenDocumentText
from odf.text import H, P
from office_files import (
    DRAW,
    PNG,
    complex_field,
    docx_bytes,
    framed_text_file,
    odf_bytes,
    paragraph_texts,
    read_members,
    text_run,
    word_paragraph,
    write_members,
)
from openpyxl.worksheet.datavalidation import DataValidation

from attnmt.decoding.garbled_labels import FLOOR
from attnmt.decoding.glossary import Glossary
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text

WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def caption(label: str, code: str = " SEQ Figure \\* ARABIC ") -> str:
    """A caption as Word's Insert Caption writes it: ``label``, a SEQ number field, ": A black dog jumps."."""
    return text_run(f"{label} ") + complex_field(code, "1") + text_run(": A black dog jumps.")


def word_alt_texts(descr: str, title: str, judging) -> tuple[str, str]:
    """A Word picture's ``descr`` and ``title`` as translated with ``judging``."""
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    document.add_picture(io.BytesIO(PNG))
    properties = document.inline_shapes[0]._inline.docPr
    properties.set("descr", descr)
    properties.set("title", title)
    out = translate_office(docx_bytes(document), ".docx", judging, DocumentOptions())
    translated = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{WP}}}docPr")
    return translated.get("descr"), translated.get("title")


def test_a_word_pictures_short_alt_text_the_model_garbled_keeps_its_value(mirror):
    """The demo model made descr="Logo" "Zwei Geschäfts": a screen reader read a caption of nothing in the picture."""
    judging = Judging(mirror, {"company logo": FLOOR - 0.01, "a red car": FLOOR + 0.01})
    assert word_alt_texts("company logo", "a red car", judging) == ("company logo", "CAR RED A")


def test_a_long_alt_text_is_taken_at_any_plausibility(mirror):
    """Four words and more are a caption the model reads as one: judged by nothing here."""
    judging = Judging(mirror, {"a dog on the beach": 0.0, "logo": 0.0})
    assert word_alt_texts("a dog on the beach", "logo", judging) == ("BEACH THE ON DOG A", "logo")
    assert [source for source, _ in judging.judged] == ["logo"]


def test_a_slides_alt_text_is_judged_line_by_line(mirror):
    """Each line of a PowerPoint picture's ``descr`` is a text of its own: the garbled short one keeps its source."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_picture(io.BytesIO(PNG), 0, 0)._element.nvPicPr.cNvPr.set("descr", "bar chart\ntwo brown dogs")
    data = io.BytesIO()
    deck.save(data)
    out = translate_office(data.getvalue(), ".pptx", Judging(mirror, {"bar chart": 0.1}), DocumentOptions())
    picture = pptx.Presentation(io.BytesIO(out)).slides[0].shapes[0]
    assert picture._element.nvPicPr.cNvPr.get("descr") == "bar chart\nDOGS BROWN TWO"


def test_a_libreoffice_frames_short_alt_text_the_model_garbled_keeps_its_value(mirror):
    judging = Judging(mirror, {"signature": 0.2})
    out = translate_office(framed_text_file("two men talking", "signature"), ".odt", judging, DocumentOptions())
    frame = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{DRAW}}}frame")
    assert [child.text for child in frame] == ["signature", "TALKING MEN TWO"]


def test_a_word_captions_label_the_model_garbled_keeps_its_source(mirror):
    """Read alone before its number, "Figure" came back "Auf einem Arzt" from the demo model; the caption's text is
    translated still, and so is a label the model finds plausible."""
    judging = Judging(mirror, {"Figure": FLOOR / 2, "Table": FLOOR + 0.01})
    out = translate_office(word_paragraph(caption("Figure"), caption("Table", " SEQ Table \\* ARABIC ")), ".docx",
                           judging, DocumentOptions())
    assert paragraph_texts(out)[:2] == ["Figure 1: JUMPS. DOG BLACK A", "TABLE 1: JUMPS. DOG BLACK A"]


def test_a_short_paragraph_alone_is_a_label(mirror):
    """A paragraph of one short sentence is a heading, a cell, a sign-off: the demo model made "Introduction" "Amm
    Ste".  The garbled one keeps its source, the plausible one is translated."""
    judging = Judging(mirror, {"Introduction": 0.07, "Welcome home": FLOOR + 0.01})
    out = translate_office(word_paragraph(text_run("Introduction"), text_run("Welcome home")), ".docx", judging,
                           DocumentOptions())
    assert paragraph_texts(out)[:2] == ["Introduction", "HOME WELCOME"]


def test_a_short_sentence_beside_another_is_running_text(mirror):
    """A short sentence among others of its paragraph is translated at any plausibility: its neighbours carry it."""
    judging = Judging(mirror, {"Welcome home.": 0.0, "The dog runs.": 0.0})
    out = translate_office(word_paragraph(text_run("Welcome home. The dog runs.")), ".docx", judging, DocumentOptions())
    assert paragraph_texts(out)[0] == "HOME. WELCOME RUNS. DOG THE"
    assert judging.judged == []


def test_a_sheets_short_cells_the_model_garbled_keep_their_source(mirror):
    """A column's header ("Price" came back "Es ist", "Total" "Ein Coma"), shared or inline, alone in its cell."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B1"], sheet["A2"], sheet["B2"] = "Price", "Red shoes", "A dog runs.", 12.5
    judging = Judging(mirror, {"Price": 0.09, "Red shoes": FLOOR + 0.01, "A dog runs.": 0.0})
    out = openpyxl.load_workbook(io.BytesIO(translate_office(docx_bytes(book), ".xlsx", judging, DocumentOptions())))
    assert [[cell.value for cell in row] for row in out.active.iter_rows()] == [["Price", "SHOES RED"],
                                                                               ["RUNS. DOG A", 12.5]]
    assert sorted(source for source, _ in judging.judged) == ["Price", "Red shoes"]


def test_a_sheets_line_alone_in_a_cell_or_a_note_is_a_label_as_an_ods_paragraph_is(mirror):
    """A line of a cell or a note is what LibreOffice makes an .ods cell's or note's paragraph: "Anna Smith:" above a
    note LibreOffice saved with no author was translated at any plausibility ("Ein Krühner:"), where the .ods's kept
    it.  A short line running on into the next, read with it as one sentence (its break placed among the
    translation's words), or beside another sentence of its line, is running text."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "Unit price\nThe price is in euros."
    sheet["A2"] = "Two dogs\nrun on the beach."
    sheet["A3"] = 42
    sheet["A3"].comment = openpyxl.comments.Comment("Anna Smith:\nCheck it. Blue hat\nRed shoes", " ")
    judging = Judging(mirror, dict.fromkeys(["Unit price", "Anna Smith:", "Red shoes", "Two dogs", "Blue hat"], 0.1))
    out = openpyxl.load_workbook(io.BytesIO(translate_office(docx_bytes(book), ".xlsx", judging,
                                                             DocumentOptions()))).active
    assert out["A1"].value == "Unit price\nEUROS. IN IS PRICE THE"
    assert out["A2"].value == "BEACH. THE ON\nRUN DOGS TWO"
    assert out["A3"].comment.text == "Anna Smith:\nIT. CHECK HAT BLUE\nRed shoes"


def test_a_charts_labels_without_its_workbook_are_labels_as_its_workbooks_cells_are(mirror):
    """A chart that reads no workbook in the file (LibreOffice's .pptx embeds none; a linked one) shows its cached
    categories and series name alone on its axis and in its legend: taken at any plausibility, the demo model made
    "January" "Ein Allem Homma", where a chart reading its workbook follows the cells, judged as labels."""
    judging = Judging(mirror, {"East": 0.1, "Dogs": 0.1, "West": FLOOR + 0.01})
    out = read_members(translate_office(linked_chart_slides_file(), ".pptx", judging, DocumentOptions()))
    chart = etree.fromstring(out[SLIDE_CHART])
    caches = [[v.text for v in cache.iter(f"{{{CHART}}}v")] for cache in chart.iter(f"{{{CHART}}}strCache")]
    assert caches == [["Dogs"], ["East", "WEST"]]
    assert sorted(source for source, _ in judging.judged) == ["Dogs", "East", "West"]


def test_a_sheets_text_value_and_a_validations_title_alone_are_labels_as_a_cells_string_is(mirror):
    """SheetJS writes every string as a text value (t="str"): its header "Price" was translated at any plausibility
    where Excel's shared string kept its source; so was a drop-down's input title, "Choose" ("Ein Wachmann nimmt")."""
    book = openpyxl.Workbook()
    validation = DataValidation(type="list", formula1='"1,2"', promptTitle="Choose", prompt="Pick a number.")
    book.active.add_data_validation(validation)
    validation.add("B2")
    members = read_members(docx_bytes(book))
    cells = '<sheetData><row r="1"><c r="A1" t="str"><v>Price</v></c><c r="B1" t="str"><v>Red shoes</v></c></row>'
    assert b"<sheetData></sheetData>" in members["xl/worksheets/sheet1.xml"]
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(b"<sheetData>", cells.encode())
    judging = Judging(mirror, {"Price": 0.09, "Choose": 0.2, "Red shoes": FLOOR + 0.01, "Pick a number.": 0.0})
    out = openpyxl.load_workbook(io.BytesIO(translate_office(write_members(members), ".xlsx", judging,
                                                             DocumentOptions()))).active
    assert (out["A1"].value, out["B1"].value) == ("Price", "SHOES RED")
    kept = out.data_validations.dataValidation[0]
    assert (kept.promptTitle, kept.prompt) == ("Choose", "NUMBER. A PICK")
    assert sorted(source for source, _ in judging.judged) == ["Choose", "Price", "Red shoes"]


def test_a_slides_table_cell_and_an_opendocument_heading_alone_are_labels(mirror):
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    table = slide.shapes.add_table(1, 2, 0, 0, 4000000, 400000).table
    table.cell(0, 0).text, table.cell(0, 1).text = "Age", "Two dogs"
    data = io.BytesIO()
    deck.save(data)
    out = translate_office(data.getvalue(), ".pptx", Judging(mirror, {"Age": 0.16}), DocumentOptions())
    cells = pptx.Presentation(io.BytesIO(out)).slides[0].shapes[0].table.rows[0].cells
    assert [cell.text for cell in cells] == ["Age", "DOGS TWO"]
    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text="Our team"))
    document.text.addElement(P(text="Our team"))  # a label judged once
    document.text.addElement(P(text="A cat sleeps."))  # a sentence
    judging = Judging(mirror, {"Our team": 0.17, "A cat sleeps.": 0.0})
    out = etree.fromstring(read_members(translate_office(odf_bytes(document), ".odt", judging,
                                                         DocumentOptions()))["content.xml"])
    assert ["".join(block.itertext()) for block in out.iter(f"{{{TEXT}}}h", f"{{{TEXT}}}p")] == [
        "Our team", "Our team", "SLEEPS. CAT A"]
    assert judging.judged == [("Our team", "TEAM OUR")]


def test_a_caption_label_that_is_a_glossary_term_is_written_as_its_target_term(mirror):
    """The glossary's term is the user's word for the label: the demo model, made to write "Abbildung" for "Figure",
    wrote "Ein Arzt in einem Abbildung"; the term is written alone.  A label holding a term among other words is
    the model's translation, never judged; a label without one is judged as ever."""
    judging = Judging(mirror, {"Plate": 0.0, "Colour Plate": 0.0, "Figure": 0.0}, Glossary.of({"Plate": "Tafel"}))
    out = translate_office(word_paragraph(caption("Plate"), caption("Colour Plate"), caption("Figure")), ".docx",
                           judging, DocumentOptions())
    assert paragraph_texts(out)[:3] == ["Tafel 1: JUMPS. DOG BLACK A", "PLATE COLOUR 1: JUMPS. DOG BLACK A",
                                   "Figure 1: JUMPS. DOG BLACK A"]
    assert [source for source, _ in judging.judged] == ["Figure"]


def test_words_own_caption_labels_are_written_as_the_target_languages_word_writes_them(mirror):
    """The demo model wrote "Figure" alone "Auf einem Arzt", and the caption kept it in English; Insert Caption's three
    labels are Word's words, "Abbildung", "Tabelle", "Gleichung" in German Word.  A glossary's term for one is the
    user's word, and a label the author chose is judged as ever."""
    judging = Judging(mirror, {"Figure": 0.0, "Table": 0.0, "Equation": 0.0, "Plate": 0.0},
                      Glossary.of({"Equation": "Formel"}))
    document = word_paragraph(caption("Figure"), caption("Table", " SEQ Table \\* ARABIC "),
                              caption("Equation", " SEQ Equation \\* ARABIC "), caption("Plate"))
    out = translate_office(document, ".docx", judging, DocumentOptions(target_lang="de"))
    assert paragraph_texts(out)[:4] == ["Abbildung 1: JUMPS. DOG BLACK A", "Tabelle 1: JUMPS. DOG BLACK A",
                                   "Formel 1: JUMPS. DOG BLACK A", "Plate 1: JUMPS. DOG BLACK A"]
    assert [source for source, _ in judging.judged] == ["Plate"]


def test_a_caption_label_is_words_own_only_from_english_into_a_language_of_known_labels(mirror):
    """Into French and Spanish, Word's own; from French, or into Swedish (no labels known), the label is judged as
    ever, and this one, garbled, keeps its source."""
    written = {}
    for source_lang, target_lang in [("en", "fr"), ("en", "es-ES"), ("fr", "de"), ("en", "sv")]:
        judging = Judging(mirror, {"Figure": 0.0, "Table": 0.0})
        document = word_paragraph(caption("Table", " SEQ Table \\* ARABIC "), caption("Figure"))
        out = translate_office(document, ".docx", judging, DocumentOptions(source_lang=source_lang,
                                                                           target_lang=target_lang))
        written[target_lang] = [paragraph.split(" 1:")[0] for paragraph in paragraph_texts(out)[:2]]
    assert written == {"fr": ["Tableau", "Figure"], "es-ES": ["Tabla", "Ilustración"], "de": ["Table", "Figure"],
                       "sv": ["Table", "Figure"]}


def test_a_libreoffice_captions_english_label_is_written_as_the_target_languages_word_writes_it(mirror):
    judging = Judging(mirror, {"Table": 0.0})
    document = OpenDocumentText()
    document.text.addElement(P(text="@"))
    members = read_members(odf_bytes(document))
    caption_xml = ('Table <text:sequence text:ref-name="refTable0" text:name="Table" text:formula="ooow:Table+1">1'
                   "</text:sequence>: A black dog jumps.")
    members["content.xml"] = members["content.xml"].replace(b">@<", f">{caption_xml}<".encode())
    out = translate_office(write_members(members), ".odt", judging, DocumentOptions(target_lang="de"))
    paragraph = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TEXT}}}p")
    assert "".join(paragraph.itertext()) == "Tabelle 1: JUMPS. DOG BLACK A"


def test_an_epub_pages_heading_and_alt_text_are_labels_as_a_web_pages(mirror):
    """An EPUB's pages go through the office files' pipeline: their short labels had no guard there."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_language("en")
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml", lang="en")
    chapter.content = '<h1>Chapter one</h1><p>A dog runs.</p><img src="a.png" alt="Logo"/>'
    book.add_item(chapter)
    book.add_item(epub.EpubNcx())
    book.spine = [chapter]
    data = io.BytesIO()
    epub.write_epub(data, book)
    judging = Judging(mirror, {"Chapter one": 0.26, "Logo": 0.1})
    page = read_members(translate_office(data.getvalue(), ".epub", judging, DocumentOptions()))["EPUB/one.xhtml"]
    assert b"<h1>Chapter one</h1>" in page and b'alt="Logo"' in page and b"<p>RUNS. DOG A</p>" in page


def test_a_review_from_the_search_shows_the_quality_of_the_kept_label(trained_model):
    """``attnmt translate --review`` took each sentence's quality from the search, the garbled attempt's: a kept
    "Figure" was listed as "Figure" with the quality of "Auf einem Arzt".  It is listed with the quality of what the
    document holds, as a review that runs a pass of its own over the translations (model_review) lists it."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.documents.review import model_review, reviewing
    from attnmt.documents.translators import ModelTranslator

    class Doubting(ModelTranslator):
        """The model, finding every label implausible: each is kept."""

        def plausibility(self, sentences, translations):
            return [0.0] * len(sentences)

    model, tokenizer = load_model_dir(trained_model)
    data = word_paragraph(caption("Figure"))
    by_pass = model_review(model, tokenizer, min_quality=1.0)  # a threshold of 1 lists every sentence
    translate_office(data, ".docx", Doubting(model, tokenizer), DocumentOptions(), review=by_pass)
    from_search = reviewing(translator := Doubting(model, tokenizer), min_quality=1.0)
    translate_office(data, ".docx", translator, DocumentOptions(), review=from_search)
    found, wanted = [[(s.source, s.translation, round(s.quality, 4), s.flags) for s in review.segments
                      if s.source == "Figure"] for review in (from_search, by_pass)]
    assert found == wanted and len(found) == 1 and found[0][1] == "Figure"


@pytest.mark.parametrize("page", ["<p>“A dog runs.”</p>", "<p>«Ein Hund rennt!»</p>", "<li>(The dog runs.)</li>",
                                  "<td>'Dogs run?'</td>"])
def test_a_short_sentence_in_quotes_or_brackets_alone_is_no_label(upper, page):
    """Its stop before the closing quote is a sentence's: the demo model's „Ein Hund rennt.“ for “A dog runs.” was
    judged as a label's and the page kept „A dog runs.“."""
    judging = Judging(upper, {})
    assert translate_markup([page], judging) == [page.upper().replace("<P>", "<p>").replace("</P>", "</p>")
                                                 .replace("LI>", "li>").replace("TD>", "td>")]
    assert judging.judged == []


def test_a_numbered_parts_heading_alone_on_a_text_line_is_written_in_the_target_languages_word(mirror):
    """Read as sentences, the demo model wrote "Volume 2" as "Zwei Frauen", "Lesson 5" as "5", "Act III" as "Ein
    Paar rennt über den Schnee" and "Part iv:" as "Ein Mann steht vor einer Menschenmenge:": a heading's word is a
    known one, its number (a Roman numeral in small letters too) and its colon kept as written."""
    judging = Judging(mirror, {})
    lines = ["Volume 2", "Act III", "Scene 4", "Lesson 5", "Part iv:", "CHAPTER 3", "Act now", "A dog runs.",
             "- Step 2"]
    assert translate_lines(lines, judging, DocumentOptions(target_lang="de")) == [
        "Band 2", "Akt III", "Szene 4", "Lektion 5", "Teil iv:", "KAPITEL 3", "NOW ACT", "RUNS. DOG A", "- Schritt 2"]
    assert translate_lines(lines[:2], judging, DocumentOptions(target_lang="fr")) == ["Volume 2", "Acte III"]
    swedish = Judging(mirror, {"Act III": 0.0})  # no word known: judged as any label, garbled, its source kept
    assert translate_lines(["Act III"], swedish, DocumentOptions(target_lang="sv")) == ["Act III"]


def test_a_sound_description_alone_the_model_garbled_keeps_its_source_in_a_cue_and_a_text_line(mirror):
    """The demo model wrote "[MUSIC]" as "[EINE BAND SPIELT GITARRE]" and "(sighs)" as "(Ein bereitet sich)": a
    caption it made up.  Judged by its words inside the brackets, as a label is, before a speaker's words too (a
    sentence of its own there); one the model finds plausible is translated."""
    judging = Judging(mirror, {"MUSIC": FLOOR - 0.01, "sighs": 0.0, "dog barks": FLOOR + 0.01})
    cues = ["[MUSIC]", "(sighs)", "[dog barks]", "(sighs) I am tired."]
    source = "".join(f"{k}\n00:00:0{k},000 --> 00:00:0{k},900\n{cue}\n\n" for k, cue in enumerate(cues, 1))
    out = translate_subtitle_text(source, judging)
    assert [cue.content for cue in srt.parse(out)] == ["[MUSIC]", "(sighs)", "BARKS] [DOG", "(sighs) TIRED. AM I"]
    assert ("sighs", "SIGHS") in judging.judged  # its words, not its brackets
    assert translate_lines(["[MUSIC]", "(sighs)", "[dog barks]"], judging) == ["[MUSIC]", "(sighs)", "BARKS] [DOG"]
