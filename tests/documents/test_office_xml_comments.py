"""An XML comment or processing instruction inside a text element (``<a:t>A man<!-- ok --> cooks.</a:t>``,
as a hand-edited or tool-made file has it): its text read as Office shows it, "A man cooks.", every word
translated and none lost; the comment dropped with the text it stood in (attnmt.documents.xstring.text_in)."""

import io

import pptx
from comment_files import commented_slides_file
from lxml import etree
from office_files import read_members, shared_string_sheet, sheet_file, word_paragraph, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
SLIDE_XML = "ppt/slides/slide1.xml"


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def slide_with(*texts: str) -> bytes:
    """A slide with a text box of one paragraph per XML text in ``texts``, each one run's ``<a:t>``."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, 5000000, 1000000).text_frame
    box.text = "\n".join(f"@{number}" for number in range(len(texts)))
    out = io.BytesIO()
    deck.save(out)
    members = read_members(out.getvalue())
    for number, text in enumerate(texts):
        members[SLIDE_XML] = members[SLIDE_XML].replace(f">@{number}<".encode(), f">{text}<".encode())
    return write_members(members)


def shown(element: etree._Element, tag: str) -> list[str]:
    """The text of each ``tag`` element under ``element`` as a reader sees it, and what is left of XML comments."""
    return ["".join(node.itertext()) + "".join(map(str, node)) for node in element.iter(tag)]


def test_a_slides_words_after_a_comment_or_instruction_in_a_text_element_are_translated(upper):
    data = slide_with("A man<!-- ok --> cooks.", "<!-- ok -->A cat sleeps.", "A dog<?pi x?> runs.")
    out = translate(data, ".pptx", upper)
    [box] = [shape for shape in pptx.Presentation(io.BytesIO(out)).slides[0].shapes if shape.has_text_frame]
    assert [paragraph.text for paragraph in box.text_frame.paragraphs] == ["A MAN COOKS.", "A CAT SLEEPS.",
                                                                             "A DOG RUNS."]
    assert upper.given == ["A man cooks.", "A cat sleeps.", "A dog runs."]
    assert b"<!--" not in read_members(out)[SLIDE_XML]  # dropped with the text it stood in


def test_a_word_paragraphs_words_after_a_comment_in_a_text_element_are_translated(upper):
    data = word_paragraph("<w:r><w:t>A man<!-- c --> cooks.</w:t></w:r>",
                          "<w:r><w:t><?pi x?>A cat sleeps.</w:t></w:r>")
    body = etree.fromstring(read_members(translate(data, ".docx", upper))["word/document.xml"])
    assert ["".join(shown(paragraph, f"{W}t")) for paragraph in body.iter(f"{W}p")] == ["A MAN COOKS.",
                                                                                       "A CAT SLEEPS."]


def test_a_shared_string_of_one_text_element_with_a_comment_is_translated_once(upper):
    strings = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
               '<si><t>A red car<!-- c --> stops.</t></si></sst>')
    out = translate(shared_string_sheet(sheet_file(), strings), ".xlsx", upper)
    strings_part = etree.fromstring(read_members(out)["xl/sharedStrings.xml"])
    assert shown(strings_part, f"{S}t") == ["A RED CAR STOPS."]  # not "A RED CAR STOPS. stops."


def test_a_slides_plain_comment_with_an_xml_comment_in_it_is_translated_whole(upper):
    members = read_members(commented_slides_file())
    members["ppt/comments/comment1.xml"] = members["ppt/comments/comment1.xml"].replace(
        b"Check the red car.", b"Check the<!-- c --> red car.")
    out = translate(write_members(members), ".pptx", upper)
    comments = etree.fromstring(read_members(out)["ppt/comments/comment1.xml"])
    assert shown(comments, f"{P}text") == ["CHECK THE RED CAR.\nIT IS PARKED."]


def test_a_strings_text_as_tables_charts_and_pivots_read_it_leaves_an_xml_comment_out():
    """tables.string_text, which table headers, chart caches and pivot caches match cells by, read
    ``<t>Unit <!-- c -->price</t>`` as "Unit ": the header was no longer the table's column's name."""
    from attnmt.documents.tables import string_text

    string = etree.fromstring(f'<si xmlns="{S[1:-1]}"><r><t>Unit <!-- c -->price</t></r><r><t>s<?pi x?>!</t></r>'
                              f'<rPh><t>ユニット</t></rPh></si>')
    assert string_text(string) == "Unit prices!"
