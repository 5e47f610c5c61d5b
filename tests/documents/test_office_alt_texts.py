"""A picture's or a shape's alt text is translated, its name kept (attnmt.documents.alt_texts): files built with
python-docx, python-pptx and odfpy, the alt text set as Word, PowerPoint and LibreOffice write it, read back
with lxml and the independent readers."""

import io

import docx
import pptx
from lxml import etree
from office_files import DRAW, PNG, SVG, docx_bytes, framed_text_file, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"


def test_a_word_pictures_alt_text_is_translated_and_its_name_kept(mirror):
    """``wp:docPr``'s ``descr`` and ``title`` (and the copy Word writes in ``pic:cNvPr``) stayed in English: a
    screen reader read the translated document's picture in the source's language."""
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    document.add_picture(io.BytesIO(PNG))
    shape = document.inline_shapes[0]._inline
    shape.docPr.set("descr", "A brown dog runs in the park.")
    shape.docPr.set("title", "The dog")
    shape.find(f".//{{{PIC}}}cNvPr").set("descr", "A brown dog runs in the park.")
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"])
    properties, picture = body.find(f".//{{{WP}}}docPr"), body.find(f".//{{{PIC}}}cNvPr")
    assert (properties.get("descr"), properties.get("title")) == ("PARK. THE IN RUNS DOG BROWN A", "DOG THE")
    assert picture.get("descr") == "PARK. THE IN RUNS DOG BROWN A"
    assert properties.get("name") == "Picture 1" and picture.get("name") == shape.find(f".//{{{PIC}}}cNvPr").get("name")
    assert len(docx.Document(io.BytesIO(out)).inline_shapes) == 1


def test_a_slides_pictures_alt_text_is_translated_line_by_line(mirror):
    """``p:cNvPr``'s ``descr`` (two lines) and ``title``; a placeholder's name ("Title 1") is kept."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "The cat sleeps."
    picture = slide.shapes.add_picture(io.BytesIO(PNG), 0, 0)
    picture._element.nvPicPr.cNvPr.set("descr", "A brown dog.\nIt runs.")
    picture._element.nvPicPr.cNvPr.set("title", "The dog")
    data = io.BytesIO()
    deck.save(data)
    out = translate_office(data.getvalue(), ".pptx", mirror, DocumentOptions())
    shapes = pptx.Presentation(io.BytesIO(out)).slides[0].shapes
    translated = shapes[1]._element.nvPicPr.cNvPr
    assert (translated.get("descr"), translated.get("title")) == ("DOG. BROWN A\nRUNS. IT", "DOG THE")
    assert shapes.title.name == "Title 1" and shapes.title.text == "SLEEPS. CAT THE"


def test_a_libreoffice_frames_alt_text_is_translated(mirror):
    """``svg:title`` and ``svg:desc``, the elements LibreOffice writes for a frame's alt text, stayed in English;
    they are read after the paragraph the frame stands in, not after the document's last."""
    out = translate_office(framed_text_file("A brown dog runs in the park.", "The dog"), ".odt", mirror,
                           DocumentOptions())
    frame = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{DRAW}}}frame")
    assert [(child.tag.split("}")[1], child.text) for child in frame] == [
        ("title", "DOG THE"), ("desc", "PARK. THE IN RUNS DOG BROWN A")]
    assert frame.get(f"{{{DRAW}}}name") == "Image1"
    assert mirror.given[:3] == ["The title here.", "The dog", "A brown dog runs in the park."]


def test_an_alt_text_that_is_a_pictures_file_name_is_kept(mirror):
    """python-pptx, and older PowerPoint and Word, write the inserted picture's file name: no text to translate
    ("IMAGE.PNG" came back); an alt text with words around a name is translated."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for text in ("image.png", r"C:\My Photos\IMG 0042.JPG", "The dog in dog.png"):
        slide.shapes.add_picture(io.BytesIO(PNG), 0, 0)._element.nvPicPr.cNvPr.set("descr", text)
    data = io.BytesIO()
    deck.save(data)
    out = translate_office(data.getvalue(), ".pptx", mirror, DocumentOptions())
    shapes = pptx.Presentation(io.BytesIO(out)).slides[0].shapes
    assert [shape._element.nvPicPr.cNvPr.get("descr") for shape in shapes] == [
        "image.png", r"C:\My Photos\IMG 0042.JPG", "IN DOG THE dog.png"]
    assert mirror.given == ["The dog in"]  # its file name an atom, kept in its place


def test_a_pictures_alt_text_is_read_after_the_paragraph_holding_it(mirror):
    """It came after the document's last paragraph: the review listed it there, and the translator read it
    apart from the text around the picture."""
    document = docx.Document()
    document.add_paragraph("The boy laughs.")
    document.add_picture(io.BytesIO(PNG))
    document.inline_shapes[0]._inline.docPr.set("descr", "A brown dog runs.")
    document.add_paragraph("The end.")
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["The boy laughs.", "A brown dog runs.", "The end."]


def test_an_old_word_pictures_vml_alt_text_is_translated_and_its_id_kept(mirror):
    """A picture Word 2003 wrote (``w:pict``'s ``v:shape alt="..."``, kept so in a .docx that Word opens and saves)
    had its alt text left in English while a DrawingML picture's was translated."""
    document = docx.Document()
    paragraph = document.add_paragraph("The dog runs.")
    pict = etree.fromstring(
        '<w:pict xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">'
        '<v:shape id="Picture 1" o:spid="_x0000_i1025" type="#_x0000_t75" alt="A brown dog runs in the park." '
        'style="width:40pt;height:30pt"><v:imagedata o:title="dog"/></v:shape></w:pict>')
    paragraph.add_run()._r.append(pict)
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    shape = etree.fromstring(read_members(out)["word/document.xml"]).find(".//{urn:schemas-microsoft-com:vml}shape")
    assert (shape.get("alt"), shape.get("id")) == ("PARK. THE IN RUNS DOG BROWN A", "Picture 1")
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "RUNS. DOG THE"


def test_an_alt_texts_template_placeholders_pass_through_untranslated(mirror):
    """A template's alt text (``{{name}}``, ``${place}``, ``%s``, filled in by the program that fills the document)
    was sent to the model whole, which may translate or drop a placeholder the program then cannot find; they
    are kept as a URL is, in a Word picture's ``descr`` and a LibreOffice frame's ``svg:desc``."""
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    document.add_picture(io.BytesIO(PNG))
    document.inline_shapes[0]._inline.docPr.set("descr", "A photo of {{name}} at ${place} on %s.")
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    properties = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{WP}}}docPr")
    descr = properties.get("descr")
    assert [descr.count(kept) for kept in ("{{name}}", "${place}", "%s", "PHOTO")] == [1, 1, 1, 1]
    assert not any("{{" in given or "%s" in given for given in mirror.given)
    out = translate_office(framed_text_file("A photo of {{name}}."), ".odt", mirror, DocumentOptions())
    assert etree.fromstring(read_members(out)["content.xml"]).findtext(f".//{{{SVG}}}desc") .count("{{name}}") == 1


def test_a_sheets_vml_shape_alt_text_is_translated_and_the_drawing_kept(mirror):
    """A form button's and a note's box's alt text in ``xl/drawings/vmlDrawing1.vml`` (VML, not parsed as
    XML) stayed in English; the drawing's other bytes, the alt text's quotes among them, are kept."""
    import xlsxwriter

    data = io.BytesIO()
    book = xlsxwriter.Workbook(data)
    sheet = book.add_worksheet()
    sheet.write_comment("A1", "See the dog.")
    sheet.insert_button("B3", {"caption": "Send", "macro": "send", "description": "Sends the report & the plan."})
    book.close()
    members = read_members(data.getvalue())
    drawing = "xl/drawings/vmlDrawing1.vml"
    members[drawing] = members[drawing].replace(b'type="#_x0000_t202"', b"type=\"#_x0000_t202\" alt='A note&#160;box.'")
    out = read_members(translate_office(write_members(members), ".xlsx", mirror, DocumentOptions()))[drawing]
    button = members[drawing].replace(b'"Sends the report &amp; the plan."', b'"PLAN. THE &amp; REPORT THE SENDS"')
    assert out == button.replace(b"alt='A note&#160;box.'", b"alt='BOX. NOTE A'").replace(b">Send<", b">SEND<")
