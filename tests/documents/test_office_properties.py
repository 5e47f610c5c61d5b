"""A document's title and subject (its properties) are translated, its comments, keywords, author and
dates kept (attnmt.documents.package_properties): files built with python-docx, python-pptx, openpyxl and odfpy,
read back with them and lxml."""

import io

import docx
import openpyxl
import pptx
from lxml import etree
from office_files import docx_bytes, read_members, text_file, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

DC = "http://purl.org/dc/elements/1.1/"


def test_a_word_documents_title_and_subject_are_translated_and_its_comments_kept(mirror):
    """core.xml's ``dc:title`` stayed in English: File > Properties, the window bar and an exported PDF's title."""
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    properties = document.core_properties
    properties.title, properties.subject, properties.comments = "The brown dog", "Dogs in the park", "A first draft."
    properties.keywords, properties.author = "dog, park", "Anna Smith"
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    properties = docx.Document(io.BytesIO(out)).core_properties
    assert (properties.title, properties.subject, properties.comments) == (
        "DOG BROWN THE", "PARK THE IN DOGS", "A first draft.")
    assert (properties.keywords, properties.author) == ("dog, park", "Anna Smith")


def test_a_presentations_and_a_workbooks_titles_are_translated(mirror):
    deck = pptx.Presentation()
    deck.slides.add_slide(deck.slide_layouts[6])
    deck.core_properties.title = "The brown dog"
    data = io.BytesIO()
    deck.save(data)
    out = translate_office(data.getvalue(), ".pptx", mirror, DocumentOptions())
    assert pptx.Presentation(io.BytesIO(out)).core_properties.title == "DOG BROWN THE"
    book = openpyxl.Workbook()
    book.active["A1"] = "The cat sleeps."
    book.properties.title, book.properties.creator = "The brown dog", "Anna Smith"
    data = io.BytesIO()
    book.save(data)
    out = openpyxl.load_workbook(io.BytesIO(translate_office(data.getvalue(), ".xlsx", mirror, DocumentOptions())))
    assert (out.properties.title, out.properties.creator, out.active["A1"].value) == (
        "DOG BROWN THE", "Anna Smith", "SLEEPS. CAT THE")


def test_an_opendocuments_title_and_subject_are_translated_and_its_keywords_kept(mirror):
    """meta.xml's ``dc:title`` and ``dc:subject``; ``dc:description`` and ``meta:keyword`` kept."""
    members = read_members(text_file())
    meta = etree.fromstring(members["meta.xml"])
    holder = meta.find("{urn:oasis:names:tc:opendocument:xmlns:office:1.0}meta")
    for name, text in (("title", "The brown dog"), ("subject", "Dogs in the park"), ("description", "A draft.")):
        etree.SubElement(holder, f"{{{DC}}}{name}").text = text
    etree.SubElement(holder, "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}keyword").text = "dog"
    members["meta.xml"] = etree.tostring(meta, xml_declaration=True, encoding="UTF-8")
    out = etree.fromstring(read_members(translate_office(write_members(members), ".odt", mirror,
                                                         DocumentOptions()))["meta.xml"])
    assert [out.findtext(f".//{{{DC}}}{name}") for name in ("title", "subject", "description")] == [
        "DOG BROWN THE", "PARK THE IN DOGS", "A draft."]
    assert out.findtext(".//{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}keyword") == "dog"


def test_an_office_files_stated_language_says_the_target_language(mirror):
    """LibreOffice writes ``dc:language`` (``en-US``) into every .docx, .pptx and .xlsx it saves, and it stayed
    ``en-US`` over German text; a file without a title to translate had its properties left as they were."""
    book = openpyxl.Workbook()
    book.active["A1"] = "The cat sleeps."
    book.properties.language = "en-US"
    deck = pptx.Presentation()
    deck.core_properties.language = "en-US"
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    document.core_properties.language = "und"  # names no language: kept
    stated = {}
    for suffix, data in ((".xlsx", docx_bytes(book)), (".pptx", docx_bytes(deck)), (".docx", docx_bytes(document))):
        for options in (DocumentOptions(), DocumentOptions(target_lang="de")):
            out = read_members(translate_office(data, suffix, mirror, options))["docProps/core.xml"]
            stated[suffix, options.target_lang] = etree.fromstring(out).findtext(f"{{{DC}}}language")
    assert stated == {(".xlsx", None): "en-US", (".xlsx", "de"): "de", (".pptx", None): "en-US",
                      (".pptx", "de"): "de", (".docx", None): "und", (".docx", "de"): "und"}


def test_an_opendocuments_stated_language_says_the_target_language(mirror):
    members = read_members(text_file())
    meta = etree.fromstring(members["meta.xml"])
    holder = meta.find("{urn:oasis:names:tc:opendocument:xmlns:office:1.0}meta")
    etree.SubElement(holder, f"{{{DC}}}language").text = "en-US"
    members["meta.xml"] = etree.tostring(meta, xml_declaration=True, encoding="UTF-8")
    out = read_members(translate_office(write_members(members), ".odt", mirror, DocumentOptions(target_lang="fr")))
    assert etree.fromstring(out["meta.xml"]).findtext(f".//{{{DC}}}language") == "fr"
