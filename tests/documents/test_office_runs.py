"""Runs and spans of a formatting of their own that are kept whole (a symbol, a check box, a note's
number or reference, a field's result), and the containers around words that are marks (Word's
w:dir and w:bdo, OpenDocument's content control and text:meta); read back with python-docx,
python-pptx, openpyxl and lxml."""

import io

import docx
import openpyxl
import pptx
import pytest
from docx.shared import RGBColor
from lxml import etree
from office_files import (
    PNG,
    docx_bytes,
    odf_bytes,
    odt_span,
    read_members,
    word_children,
    word_paragraph,
    write_members,
)
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from pptx.dml.color import RGBColor as SlideColour
from pptx.util import Inches

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
LOEXT = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
STAR = ("A man is ", "★", " very happy.")  # the star red, the rest plain


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def odt_paragraph(inline: str) -> bytes:
    """An OpenDocument text of one paragraph whose content is ``inline`` (text:, loext: names)."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    document.text.addElement(P(text="@"))
    members = read_members(odf_bytes(document))
    members["content.xml"] = members["content.xml"].replace(b">@<", f' xmlns:loext="{LOEXT}">{inline}<'.encode())
    return write_members(members)


def odt_first_paragraph(data: bytes) -> etree._Element:
    return etree.fromstring(read_members(data)["content.xml"]).find(f".//{{{TEXT}}}p")


def red_star(suffix: str) -> bytes:
    """STAR in a file of the format of ``suffix``, built with the format's own library."""
    before, star, after = STAR
    if suffix == ".docx":
        document = docx.Document()
        paragraph = document.add_paragraph(before)
        paragraph.add_run(star).font.color.rgb = RGBColor(0xFF, 0, 0)
        paragraph.add_run(after)
        return docx_bytes(document)
    if suffix == ".pptx":
        deck = pptx.Presentation()
        box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
        for text in STAR:
            run = box.text_frame.paragraphs[0].add_run()
            run.text = text
            if text == star:
                run.font.color.rgb = SlideColour(0xFF, 0, 0)
        return docx_bytes(deck)
    if suffix == ".xlsx":
        book = openpyxl.Workbook()
        book.active["A1"] = CellRichText([before, TextBlock(InlineFont(color="FFFF0000"), star), after])
        return docx_bytes(book)
    return odt_span(before, star, after, color="#ff0000")


def red_runs(data: bytes, suffix: str) -> list[tuple[str, bool]]:
    """(text, whether red) of each run of the file's first paragraph, as its library reads it."""
    if suffix == ".docx":
        runs = docx.Document(io.BytesIO(data)).paragraphs[0].runs
        return [(run.text, run.font.color.rgb is not None) for run in runs]
    if suffix == ".pptx":
        box = pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0]
        return [(run.text, run.font.color.type is not None) for run in box.text_frame.paragraphs[0].runs]
    if suffix == ".xlsx":
        cell = openpyxl.load_workbook(io.BytesIO(data), rich_text=True).active["A1"].value
        return [(block, False) if isinstance(block, str) else (block.text, block.font.color.rgb == "FFFF0000")
                for block in cell]
    paragraph = odt_first_paragraph(data)
    spans = [piece for span in paragraph for piece in ((span.text, True), (span.tail, False))]
    return [(paragraph.text, False), *spans]


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt"])
def test_a_run_of_symbols_alone_is_kept_whole_where_it_stood(fixed, suffix):
    """Read with its sentence, the star was dropped by the model, and its red went onto "sehr"."""
    translator = fixed("Ein Mann ist sehr glücklich.", [(k, k) for k in range(5)])
    out = translate(red_star(suffix), suffix, translator)
    assert translator.given == ["A man is very happy."]
    assert red_runs(out, suffix) == [("Ein Mann ist ", False), ("★", True), (" sehr glücklich.", False)]


def test_a_check_box_content_control_is_kept_whole_before_its_sentence(fixed):
    """Word's check box (Developer > Check Box): a content control around a ☐ in MS Gothic."""
    check_box = ('<w:sdt><w:sdtPr><w14:checkbox><w14:checked w14:val="0"/></w14:checkbox></w:sdtPr><w:sdtContent>'
                 '<w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:hAnsi="MS Gothic"/></w:rPr><w:t>\u2610</w:t></w:r>'
                 '</w:sdtContent></w:sdt><w:r><w:t xml:space="preserve"> I have read the terms.</w:t></w:r>')
    translator = fixed("Ich habe die Bedingungen gelesen.", [(0, 0), (1, 1), (2, 4), (3, 2), (4, 3)])
    out = translate(word_paragraph(check_box), ".docx", translator)
    assert translator.given == ["I have read the terms."]
    assert word_children(out) == [("sdt", "\u2610"), ("r", " Ich habe die Bedingungen gelesen.")]
    assert b"w14:checkbox" in read_members(out)["word/document.xml"]


@pytest.mark.parametrize("runs, given", [
    (("It costs 19", ".", "99 euros."), "It costs 19.99 euros."),  # "Price: 19.99 euros." is a field, read apart
    (("The meeting is on 12", "/", "05 at noon."), "The meeting is on 12/05 at noon."),
    (("Today Acme", "\u2122", " launches a phone."), "Today Acme\u2122 launches a phone."),
    (("Hello", ",", " my friend."), "Hello, my friend."),
    (("", "2024", " was a good year."), "2024 was a good year."),
    (("Read section 2.", "3", " first."), "Read section 2.3 first."),
    (("It costs \u20ac", "5", " a person."), "It costs \u20ac5 a person."),
    (("A man walks in the park", "1", "."), "A man walks in the park1."),
], ids=["stop-in-a-number", "slash", "trademark", "comma", "number-first", "section", "amount", "note-number"])
def test_a_run_glued_to_a_word_is_read_with_it_whatever_its_look(same, runs, given):
    """Kept whole, a bold stop in 19.99 came back as "1999 <b>.</b>", a number at a paragraph's
    start was taken out of its sentence, and a bold digit after "2." split the sentence in two."""
    document = docx.Document()
    before, styled, after = runs
    paragraph = document.add_paragraph(before)
    paragraph.add_run(styled).bold = True
    paragraph.add_run(after)
    translate(docx_bytes(document), ".docx", same)
    assert same.given == [given]


def test_digits_between_spaces_or_inside_a_word_are_read_with_their_sentence(same):
    document = docx.Document()
    for parts in (("It costs ", "100", " euros."), ("H", "2", "O is water.")):
        paragraph = document.add_paragraph(parts[0])
        paragraph.add_run(parts[1]).bold = True
        paragraph.add_run(parts[2])
    translate(docx_bytes(document), ".docx", same)
    assert same.given == ["It costs 100 euros.", "H2O is water."]


def test_a_styled_run_of_a_note_reference_keeps_the_spaces_it_had(same):
    """LibreOffice's footnote anchor: as a mark around the reference alone, it went past the space."""
    runs = ('<w:r><w:t>A young man</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteAnchor"/></w:rPr>'
            '<w:footnoteReference w:id="2"/></w:r><w:r><w:t xml:space="preserve"> is riding a bicycle.</w:t></w:r>')
    out = translate(word_paragraph(runs), ".docx", same)
    assert word_children(out) == [("r", "A young man"), ("r", ""), ("r", " is riding a bicycle.")]


def test_an_opendocument_span_around_a_note_alone_keeps_the_spaces_it_had(same):
    """As a mark around the note alone, a space came before it: "A young man <span>1</span> is"."""
    inline = ('A young man<text:span text:style-name="R"><text:note text:id="n1" text:note-class="footnote">'
              "<text:note-citation>1</text:note-citation><text:note-body><text:p>He is old.</text:p></text:note-body>"
              "</text:note></text:span> is riding a bicycle.")
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", same))
    assert same.given == ["A young man is riding a bicycle.", "He is old."]
    assert (paragraph.text, paragraph[0].tail) == ("A young man", " is riding a bicycle.")


def test_a_styled_run_of_a_fields_result_keeps_the_spaces_it_had(same):
    """As a mark around the result alone, the spaces either side went inside the field: a mail
    merge glued its data to the next word.  (A link field's result is read: test_office_fields.)"""
    runs = ('<w:r><w:t xml:space="preserve">We meet at </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            '<w:r><w:instrText xml:space="preserve"> MERGEFIELD Place </w:instrText></w:r><w:r><w:fldChar '
            'w:fldCharType="separate"/></w:r><w:r><w:rPr><w:noProof/></w:rPr><w:t>«Place»</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> in the morning.</w:t></w:r>')
    out = translate(word_paragraph(runs), ".docx", same)
    assert same.given == ["We meet at in the morning."]
    # the field's begin, code and separator go into the run before it, its end into the one after
    assert word_children(out) == [("r", "We meet at "), ("r", "«Place»"), ("r", " in the morning.")]


def test_a_placeholder_that_ends_a_run_keeps_its_space_before_and_none_before_the_comma(same):
    """A picture at the end of a bold Word run (python-docx's ``add_run("May ").add_picture``) and a page
    number at the end of an OpenDocument span, each before a comma: the translation has the space after
    the run, outside it, so it came back on the wrong side, before the comma (``May<img> , and``,
    ``page 3 , and``)."""
    document = docx.Document()
    paragraph = document.add_paragraph("Sales grew in ")
    run = paragraph.add_run("May ")
    run.bold = True
    run.add_picture(io.BytesIO(PNG))
    paragraph.add_run(", and costs fell.")
    runs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", same))).paragraphs[0].runs
    inline = ('Sales are on <text:span text:style-name="B">page <text:page-number text:select-page="current">3'
              "</text:page-number></text:span>, and costs on page 4.")
    span = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", same))[0]
    assert [(run.text, run.bold) for run in runs] == [("Sales grew in ", None), ("May ", True),
                                                      (", and costs fell.", None)]
    assert (span.text, span[0].text, span.tail) == ("page ", "3", ", and costs on page 4.")


def test_a_bold_run_after_a_url_leaves_one_space_between_them(same):
    """Its space was read as text after the URL's own: the model read ``Book at  before Friday`` and
    the paragraph came back ``Book at  https://example.org/tickets before Friday``."""
    document = docx.Document()
    paragraph = document.add_paragraph("Book at https://example.org/tickets")
    paragraph.add_run(" before Friday").bold = True
    paragraph.add_run(" to save money.")
    out = translate(docx_bytes(document), ".docx", same)
    assert same.given == ["Book at before Friday to save money."]
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == (
        "Book at https://example.org/tickets before Friday to save money.")


def test_a_page_number_moved_over_a_space_before_a_word_is_not_glued_to_it(known):
    """The model dropped the comma after the field (``see <PAGE/>, then``), and the field, put at the
    end of the bold run, took the space after it before it, as a picture before a line's end does:
    the page number touched the next word (``der 3Hund``).  The model reads ``see, then`` (closing_marks): the
    field follows the letters of "see", whose translation is the bold run "Hund" (not "Hund, der": the article
    after it is the next phrase's, attnmt.documents.function_marks), so it goes after that run and before the
    comma, as in the source, a space apart from its word."""
    source = "The dog is on page see, then the dog runs."
    alignment = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (6, 6), (7, 7), (8, 7), (9, 8)]
    translator = known({source: ("Der Hund läuft auf dem Hund, der Hund rennt.", alignment)})
    runs = ('<w:r><w:t xml:space="preserve">The dog is on page </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t '
            'xml:space="preserve">see </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple>'
            '<w:r><w:t xml:space="preserve">, then the dog runs.</w:t></w:r>')
    out = translate(word_paragraph(runs), ".docx", translator)
    assert "".join(text for _, text in word_children(out)) == "Der Hund läuft auf dem Hund 3, der Hund rennt."


@pytest.mark.parametrize("address", ["https://example.org/tickets", "anna@example.org"])
def test_a_tracked_insertion_after_a_url_keeps_its_first_space(same, address):
    """The text after a URL gives its space to the URL, which writes it back after itself: outside
    the insertion that held it, so rejecting the change left ``tickets `` and the insertion began
    without its space."""
    insertion = ('<w:ins w:id="1" w:author="Ann" w:date="2024-05-01T10:00:00Z"><w:r><w:t xml:space="preserve">'
                 " before Friday</w:t></w:r></w:ins>")
    runs = f'<w:r><w:t xml:space="preserve">Book at {address}</w:t></w:r>{insertion}<w:r><w:t>.</w:t></w:r>'
    out = translate(word_paragraph(runs), ".docx", same)
    assert same.given == ["Book at before Friday."]
    assert word_children(out) == [("r", f"Book at {address}"), ("ins", " before Friday"), ("r", ".")]


@pytest.mark.parametrize("address", ["https://example.org/tickets", "anna@example.org"])
def test_a_tracked_insertion_after_a_url_that_begins_the_paragraph_keeps_its_first_space(mirror, address):
    """With no space before the URL to give up, its space after was still written after it, outside the
    insertion: rejecting the change left ``tickets `` and accepting it ``tickets IS OPEN``, the
    insertion without its space."""
    insertion = ('<w:ins w:id="1" w:author="Ann" w:date="2024-05-01T10:00:00Z"><w:r><w:t xml:space="preserve">'
                 " is open before Friday</w:t></w:r></w:ins>")
    runs = f'<w:r><w:t xml:space="preserve">{address}</w:t></w:r>{insertion}<w:r><w:t>.</w:t></w:r>'
    out = translate(word_paragraph(runs), ".docx", mirror)
    assert mirror.given == ["is open before Friday."]
    assert word_children(out) == [("r", address), ("ins", " FRIDAY. BEFORE OPEN IS")]


def test_a_subscript_run_inside_a_word_the_translation_keeps_stays_on_its_letters(upper):
    """A Word run with vertAlign=subscript inside ``H2O`` took the whole word: ``H2O`` in subscript."""
    runs = ('<w:r><w:t xml:space="preserve">He drinks H</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="subscript"/>'
            '</w:rPr><w:t>2</w:t></w:r><w:r><w:t xml:space="preserve">O today.</w:t></w:r>')
    runs_out = docx.Document(io.BytesIO(translate(word_paragraph(runs), ".docx", upper))).paragraphs[0].runs
    assert [(run.text, run.font.subscript) for run in runs_out] == [
        ("HE DRINKS H", None), ("2", True), ("O TODAY.", None)]


SCRIPTED = {  # runs (text, where its look sets it): a formula and a unit with their scripts
    "formula": (("A man drinks H", ""), ("2", "sub"), ("O on the street.", "")),
    "unit": (("A room of 12 m", ""), ("2", "sup"), (".", "")),
}
SLIDE_BASELINES = {"sub": "-25000", "sup": "30000"}
TEXT_POSITIONS = {"sub": "sub 58%", "sup": "super 58%"}  # an OpenDocument span's, as LibreOffice writes them


def scripted_file(suffix: str, runs: tuple[tuple[str, str], ...]) -> bytes:
    """A paragraph (a cell's rich text) of ``runs`` in a file of ``suffix``, built with the format's library
    (an .odt's: one script, in a span)."""
    if suffix == ".docx":
        document = docx.Document()
        paragraph = document.add_paragraph()
        for text, kind in runs:
            run = paragraph.add_run(text)
            if kind:  # one w:vertAlign: setting the other to None takes it away
                setattr(run.font, {"sub": "subscript", "sup": "superscript"}[kind], True)
        return docx_bytes(document)
    if suffix == ".pptx":
        deck = pptx.Presentation()
        box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
        for text, kind in runs:
            run = box.text_frame.paragraphs[0].add_run()
            run.text = text
            if kind:
                run.font._rPr.set("baseline", SLIDE_BASELINES[kind])
        return docx_bytes(deck)
    if suffix == ".odt":
        (before, _), (script, kind), (after, _) = runs
        return odt_span(before, script, after, textposition=TEXT_POSITIONS[kind])
    book = openpyxl.Workbook()
    book.active["A1"] = CellRichText([TextBlock(InlineFont(vertAlign={"sub": "subscript", "sup": "superscript"}[
        kind]), text) if kind else text for text, kind in runs])
    return docx_bytes(book)


def scripted_runs(data: bytes, suffix: str) -> list[tuple[str, str]]:
    """(text, where its look sets it) of each run of the file's first paragraph, as its library reads it."""
    if suffix == ".docx":
        runs = docx.Document(io.BytesIO(data)).paragraphs[0].runs
        return [(run.text, "sub" if run.font.subscript else "sup" if run.font.superscript else "") for run in runs]
    if suffix == ".pptx":
        box = pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0]
        kinds = {baseline: kind for kind, baseline in SLIDE_BASELINES.items()}
        return [(run.text, kinds.get(run.font._rPr.get("baseline"), "")) for run in box.text_frame.paragraphs[0].runs]
    if suffix == ".odt":
        content = etree.fromstring(read_members(data)["content.xml"])
        positions = {style.get(f"{{{STYLE}}}name"): style.find(f"{{{STYLE}}}text-properties").get(
            f"{{{STYLE}}}text-position") for style in content.iter(f"{{{STYLE}}}style")}
        kinds = {position: kind for kind, position in TEXT_POSITIONS.items()}
        paragraph = content.find(f".//{{{TEXT}}}p")
        return [(paragraph.text, ""), *((span.text, kinds[positions[span.get(f"{{{TEXT}}}style-name")]])
                                        for span in paragraph), *[(span.tail, "") for span in paragraph[-1:]]]
    cell = openpyxl.load_workbook(io.BytesIO(data), rich_text=True).active["A1"].value
    if isinstance(cell, str):  # one run of the cell's look: its text alone
        return [(cell, "")]
    return [(block, "") if isinstance(block, str) else (block.text, (block.font.vertAlign or "")[:3]) for block in cell]


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt"])
@pytest.mark.parametrize("token, read, expected", [
    ("formula", "A man drinks on the street.", [("STREET. THE H", ""), ("2", "sub"), ("O ON DRINKS MAN A", "")]),
    ("unit", "A room of .", [("12 m", ""), ("2", "sup"), (". OF ROOM A", "")]),
])
def test_a_formula_or_a_unit_with_its_script_run_is_kept_whole(mirror, suffix, token, read, expected):
    """As a page's ``H<sub>2</sub>O`` is (script_tokens): read as a mark, "H2O" went to the model, which did not
    keep it, and the subscript's look went over the translated words aligned to it, "H" and "O" lost."""
    out = translate(scripted_file(suffix, SCRIPTED[token]), suffix, mirror)
    assert mirror.given == [read] and scripted_runs(out, suffix) == expected


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt"])
def test_an_ordinals_raised_ending_stays_on_the_ending_of_its_translation(mirror, suffix):
    """Word sets "st" of "21st" in superscript as one types it: the superscript went over the whole translated
    word ("21ST" raised); read as the word's letters instead, its look was lost (ordinal_marks)."""
    runs = (("Music of the 21", ""), ("st", "sup"), (" century is loud.", ""))
    out = translate(scripted_file(suffix, runs), suffix, mirror)
    assert mirror.given == ["Music of the 21st century is loud."]
    assert scripted_runs(out, suffix) == [("LOUD. IS CENTURY 21", ""), ("ST", "sup"), (" THE OF MUSIC", "")]


# French's ordinals, raised by its typography (a century in Roman numerals), and translations of the sentence
CENTURY = (("Au XIX", ""), ("e", "sup"), (" siècle, Paris grandit vite.", ""))
ENGLISH = "In the 19th century, Paris grew fast."
ALIGNED = [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]  # (source word, target word)
ONE_WORD_OFF = [(0, 0), (0, 1), (1, 3), (2, 3), (3, 4), (4, 5), (5, 6)]  # "XIXe" to "century,"
GERMAN = ("Im 19. Jahrhundert wuchs Paris schnell.", [(0, 0), (1, 1), (2, 2), (3, 4), (4, 3), (5, 5)])


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt"])
@pytest.mark.parametrize("pairs", [ALIGNED, ONE_WORD_OFF], ids=["aligned", "one-word-off"])
def test_a_french_ordinals_raised_ending_goes_on_its_translations_ending(known, suffix, pairs):
    """"XIX<sup>e</sup> siècle" as "19th century": the superscript went over "19th" whole; it goes on the
    ending of the ordinal of the same number (XIX is 19), whatever word the alignment gave its ending."""
    translator = known({"".join(text for text, _ in CENTURY): (ENGLISH, pairs)})
    runs = scripted_runs(translate(scripted_file(suffix, CENTURY), suffix, translator), suffix)
    assert [run for run in runs if run[0]] == [("In the 19", ""), ("th", "sup"), (" century, Paris grew fast.", "")]


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_an_ordinals_ending_raises_no_word_where_the_translation_writes_none(known, suffix):
    """German writes "19." without an ending: the superscript went over "19." whole."""
    translator = known({"".join(text for text, _ in CENTURY): GERMAN})
    runs = scripted_runs(translate(scripted_file(suffix, CENTURY), suffix, translator), suffix)
    assert "".join(text or "" for text, _ in runs) == GERMAN[0]  # an empty span's text: None
    assert not any(text and kind for text, kind in runs)


def test_words_in_a_bidirectional_embedding_or_override_are_translated_inside_it(mirror):
    embedded = ('<w:r><w:t xml:space="preserve">A woman </w:t></w:r><w:dir w:val="rtl"><w:r><w:t>is reading</w:t>'
                '</w:r></w:dir><w:r><w:t xml:space="preserve"> a book.</w:t></w:r>')
    overridden = '<w:bdo w:val="ltr"><w:r><w:t>A child sleeps.</w:t></w:r></w:bdo>'
    out = translate(word_paragraph(embedded, overridden), ".docx", mirror)
    paragraphs = etree.fromstring(read_members(out)["word/document.xml"]).findall(f".//{{{W}}}p")
    assert ["".join(p.itertext()) for p in paragraphs] == ["BOOK. A READING IS WOMAN A", "SLEEPS. CHILD A"]
    embedding, override = paragraphs[0].find(f"{{{W}}}dir"), paragraphs[1].find(f"{{{W}}}bdo")
    assert ("".join(embedding.itertext()), embedding.get(f"{{{W}}}val")) == ("READING IS", "rtl")
    assert ("".join(override.itertext()), override.get(f"{{{W}}}val")) == ("SLEEPS. CHILD A", "ltr")


def test_words_in_an_opendocument_content_control_or_meta_are_translated_inside_it(mirror):
    inline = ('The customer is <loext:content-control loext:alias="Name">a young woman</loext:content-control> with '
              'a <text:meta xml:id="m1">red hat</text:meta>.')
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", mirror))
    control, meta = paragraph.find(f"{{{LOEXT}}}content-control"), paragraph.find(f"{{{TEXT}}}meta")
    assert "".join(paragraph.itertext()) == "HAT. RED A WITH WOMAN YOUNG A IS CUSTOMER THE"
    assert (control.text, control.get(f"{{{LOEXT}}}alias")) == ("WOMAN YOUNG A", "Name")
    assert (meta.text, meta.get("{http://www.w3.org/XML/1998/namespace}id")) == ("HAT. RED", "m1")


def test_the_text_of_an_opendocument_input_field_is_translated_inside_it(mirror):
    """LibreOffice's input field (what Word's FILLIN becomes) holding a paragraph's text: kept as
    any other field, it stayed English and was in no review."""
    inline = 'Task: <text:text-input text:description="Task">A man is cooking dinner.</text:text-input>'
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", mirror))
    field = paragraph.find(f"{{{TEXT}}}text-input")
    assert mirror.given == ["Task: A man is cooking dinner."]
    assert (paragraph.text, field.text, field.tail, field.get(f"{{{TEXT}}}description")) == (
        None, "DINNER. COOKING IS MAN A", " TASK:", "Task")


def test_the_prompt_of_an_opendocument_placeholder_is_translated_inside_it(mirror):
    """A template's placeholder (what Word's MACROBUTTON becomes), whose prompt LibreOffice shows in angle
    brackets until someone clicks it: kept as any other field, it stayed English inside the translated sentence."""
    inline = ('Please enter <text:placeholder text:placeholder-type="text" text:description="City">&lt;the city '
              'name&gt;</text:placeholder> here.')
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", mirror))
    field = paragraph.find(f"{{{TEXT}}}placeholder")
    assert mirror.given == ["Please enter <the city name> here."]
    assert (paragraph.text, field.text, field.tail, field.get(f"{{{TEXT}}}description")) == (
        "HERE. ", "NAME> CITY <THE", " ENTER PLEASE", "City")


def test_the_words_of_an_opendocument_cross_reference_are_translated_inside_it(mirror):
    """LibreOffice shows a cross-reference's copy of its bookmark's words as written until someone
    updates the fields: kept as any other field, it stayed English inside the translated sentence."""
    inline = ('See <text:bookmark-ref text:reference-format="text" text:ref-name="_Ref77">the planting guide'
              '</text:bookmark-ref> today.')
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", mirror))
    field = paragraph.find(f"{{{TEXT}}}bookmark-ref")
    assert mirror.given == ["See the planting guide today."]
    assert (paragraph.text, field.text, field.tail, field.get(f"{{{TEXT}}}ref-name")) == (
        "TODAY. ", "GUIDE PLANTING THE", " SEE", "_Ref77")


def test_an_opendocument_cross_reference_to_a_number_is_kept_whole(mirror):
    """A chapter's number ("3.2", reference-format="chapter") is digits and symbols, kept as Word's is."""
    inline = ('See section <text:bookmark-ref text:reference-format="chapter" text:ref-name="_Ref77">3.2'
              '</text:bookmark-ref> for the dog.')
    paragraph = odt_first_paragraph(translate(odt_paragraph(inline), ".odt", mirror))
    assert mirror.given == ["See section for the dog."]
    assert paragraph.find(f"{{{TEXT}}}bookmark-ref").text == "3.2"


def test_an_opendocument_span_glued_to_its_words_is_read_with_them(same):
    """Kept whole, a span's slash glued its neighbours: the model read "1205"."""
    inline = 'The meeting is on 12<text:span text:style-name="R">/</text:span>05 at noon.'
    translate(odt_paragraph(inline), ".odt", same)
    assert same.given == ["The meeting is on 12/05 at noon."]


@pytest.mark.parametrize("hide", ["<w:vanish/>", "<w:specVanish/>"])
def test_a_hidden_run_is_no_paragraphs_base_look_however_long(mirror, hide):
    """The editor's note, hidden and longer than the rest, was the base: the spaces the translation
    put between the visible runs were written hidden, and a reader saw "MANA WITH" run together."""
    runs = ('<w:r><w:t xml:space="preserve">A man with a </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>red</w:t></w:r>'
            '<w:r><w:t xml:space="preserve"> hat walks.</w:t></w:r>'
            f'<w:r><w:rPr>{hide}</w:rPr><w:t xml:space="preserve"> Note: check the name of the dog before printing.'
            '</w:t></w:r>')
    out = translate(word_paragraph(runs), ".docx", mirror)
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    shown = ["".join(run.itertext()) for run in paragraph if run.find(f"{{{W}}}rPr/{{{W}}}{hide[3:-2]}") is None]
    assert "".join(shown) == "WALKS. HAT RED A WITH MAN A"
    assert [(run.text, run.bold) for run in docx.Document(io.BytesIO(out)).paragraphs[0].runs] == [
        ("WALKS. HAT ", None), ("RED", True), (" A WITH MAN A", None),
        (" Note: check the name of the dog before printing.", None)]  # the note kept as written


HIDDEN_NOTE = '<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">{}</w:t></w:r>'


@pytest.mark.parametrize("runs, read", [
    # w:webHidden hides text in Word's web layout alone: read as an editor's note, "a tall" was
    # left out of what the model read, and stayed English in the printed page.
    ('<w:r><w:t xml:space="preserve">A boy is climbing </w:t></w:r>'
     '<w:r><w:rPr><w:webHidden/></w:rPr><w:t xml:space="preserve">a tall </w:t></w:r><w:r><w:t>tree.</w:t></w:r>',
     "A boy is climbing a tall tree."),
    # A visible space shows no words: the hidden sentence was kept as a note, and untranslated.
    (HIDDEN_NOTE.format("This paragraph is a hidden note.") + '<w:r><w:t xml:space="preserve"> </w:t></w:r>',
     "This paragraph is a hidden note."),
    # A hidden note holding the space between two words parts them: it was read "A manwalks.".
    ('<w:r><w:t>A man</w:t></w:r>' + HIDDEN_NOTE.format(" ") + '<w:r><w:t>walks.</w:t></w:r>', "A man walks."),
    ('<w:r><w:t>A man</w:t></w:r>' + HIDDEN_NOTE.format(" (Anna) ") + '<w:r><w:t>walks.</w:t></w:r>', "A man walks."),
], ids=["web hidden", "hidden but a space", "a hidden space", "a hidden note between words"])
def test_the_model_reads_what_print_shows_of_hidden_text(same, runs, read):
    translate(word_paragraph(runs), ".docx", same)
    assert same.given == [read]


def test_a_run_turned_visible_again_may_be_the_base(mirror):
    """``w:vanish w:val="0"`` (a style's hiding turned off) is visible text like any other."""
    runs = ('<w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t xml:space="preserve">A man with a red hat </w:t></w:r>'
            '<w:r><w:rPr><w:b/></w:rPr><w:t>walks.</w:t></w:r>')
    out = translate(word_paragraph(runs), ".docx", mirror)
    assert [(run.text, run.bold) for run in docx.Document(io.BytesIO(out)).paragraphs[0].runs] == [
        ("WALKS.", True), (" HAT RED A WITH MAN A", None)]


def hidden_note(before: str, note: str, after: str) -> str:
    """A Word paragraph's runs: ``note`` hidden (w:vanish) between visible ``before`` and ``after``."""
    return (f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr>'
            f'<w:t xml:space="preserve">{note}</w:t></w:r><w:r><w:t xml:space="preserve">{after}</w:t></w:r>')


def seen_and_hidden(out: bytes) -> list[tuple[str, bool]]:
    return [(run.text, bool(run.font.hidden)) for run in docx.Document(io.BytesIO(out)).paragraphs[0].runs]


def test_a_hidden_note_inside_a_sentence_never_takes_visible_words_with_it(fixed):
    """As a mark over the words aligned to "[check this]", the note took "fährt Rad auf der" into
    hidden text, and a reader saw "Ein Mann  Straße."; kept whole, it stands where alignment puts
    it, and the model reads only the visible sentence."""
    alignment = [(0, 0), (1, 1), (2, 2), (3, 5), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]
    translator = fixed("Ein Mann fährt Rad auf der Straße.", alignment)
    out = translate(word_paragraph(hidden_note("A man ", "[check this] ", "rides a bike on the street.")), ".docx",
                    translator)
    assert translator.given == ["A man rides a bike on the street."]
    assert seen_and_hidden(out) == [("Ein Mann ", False), ("[check this] ", True), ("fährt Rad auf der Straße.", False)]


def test_a_hidden_word_leaves_one_space_between_the_visible_words(mirror):
    """Translated with the sentence, the hidden "young" left "PLAY  GIRLS" with two spaces."""
    out = translate(word_paragraph(hidden_note("Two girls ", "young ", "play with a ball.")), ".docx", mirror)
    assert mirror.given == ["Two girls play with a ball."]
    assert seen_and_hidden(out) == [("BALL. A WITH ", False), ("young ", True), ("PLAY GIRLS TWO", False)]


def test_a_hidden_hyperlink_in_a_visible_paragraph_is_kept_whole(mirror):
    link = '<w:hyperlink w:anchor="x"><w:r><w:rPr><w:vanish/></w:rPr><w:t>see the notes</w:t></w:r></w:hyperlink>'
    runs = f'<w:r><w:t xml:space="preserve">A dog runs. </w:t></w:r>{link}'
    out = translate(word_paragraph(runs), ".docx", mirror)
    assert mirror.given == ["A dog runs."]
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    assert "".join(paragraph.find(f"{{{W}}}hyperlink").itertext()) == "see the notes"


# "A dog runs [3] in the park.", its "[3]" a link to the third reference.  Read with the sentence, the model
# dropped "[3]" and its alignment went to "im": the link to the reference was written around "im" instead.
CITED = ("A dog runs ", "[3]", " in the park.")
# Word k of the source aligned to word t of "Ein Hund rennt im Park." (k, t); "[3]", word 3 of the second, to "im".
CITATION = {"A dog runs in the park.": ("Ein Hund rennt im Park.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 4)]),
            "A dog runs [3] in the park.": ("Ein Hund rennt im Park.",
                                            [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 3), (6, 4)])}


def cited(suffix: str) -> bytes:
    """CITED in a file of the format of ``suffix``, its "[3]" a link: ODF's text:a, Word's w:hyperlink, a slide's
    linked run."""
    before, reference, after = CITED
    if suffix == ".odt":
        link = f'<text:a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#ref3">{reference}</text:a>'
        return odt_paragraph(f"{before}{link}{after}")
    if suffix == ".docx":
        link = f'<w:hyperlink w:anchor="ref3"><w:r><w:t>{reference}</w:t></w:r></w:hyperlink>'
        return word_paragraph(f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r>{link}'
                              f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>')
    deck = pptx.Presentation()
    paragraph = deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text_frame.paragraphs[0]
    for text in CITED:
        paragraph.add_run().text = text
    paragraph.runs[1].hyperlink.address = "https://example.com/references#3"
    data = io.BytesIO()
    deck.save(data)
    return data.getvalue()


def cited_out(data: bytes, suffix: str) -> tuple[str, str]:
    """(the first paragraph's text, its link's text) of a file cited() made, translated."""
    if suffix == ".odt":
        paragraph = odt_first_paragraph(data)
        return "".join(paragraph.itertext()), "".join(paragraph.find(f"{{{TEXT}}}a").itertext())
    if suffix == ".docx":
        children = word_children(data)
        return "".join(text for _, text in children), next(text for name, text in children if name == "hyperlink")
    runs = pptx.Presentation(io.BytesIO(data)).slides[0].shapes.title.text_frame.paragraphs[0].runs
    return "".join(run.text for run in runs), next(run.text for run in runs if run.hyperlink.address)


@pytest.mark.parametrize("suffix", [".odt", ".docx", ".pptx"])
def test_a_link_to_a_reference_stays_whole_after_the_word_it_followed(known, suffix):
    """An HTML ``<a href="#ref3">[3]</a>`` was kept whole (markers.is_reference), an office file's link
    was a mark: "Ein Hund rennt <link>im</link> Park.", the "[3]" gone and its link over a word."""
    translator = known(CITATION)
    out = translate(cited(suffix), suffix, translator)
    assert translator.given == ["A dog runs in the park."]
    assert cited_out(out, suffix) == ("Ein Hund rennt [3] im Park.", "[3]")


def test_an_odt_link_to_a_reference_glued_to_a_word_stays_before_the_stop(same):
    """Kept whole but read as no word's edge, "park<text:a>[3]</text:a>." came back "park.[3]": the model read
    "park." as one word and the link went after all of it.  It parts the words now, as in HTML and Word."""
    link = '<text:a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#ref3">[3]</text:a>'
    out = translate(odt_paragraph(f"A dog runs in the park{link}. A cat sleeps."), ".odt", same)
    assert same.given == ["A dog runs in the park .", "A cat sleeps."]
    assert "".join(odt_first_paragraph(out).itertext()) == "A dog runs in the park[3]. A cat sleeps."


@pytest.mark.parametrize("tag", ["bdo", "dir"])
def test_a_bidirectional_override_or_embedding_around_hebrew_in_english_is_kept_whole(mirror, tag):
    """Hebrew in a w:bdo or w:dir inside an English sentence is a passage in another language:
    translated, it was lost, and German words were drawn right to left in its place."""
    runs = (f'<w:r><w:t xml:space="preserve">The cat </w:t></w:r><w:{tag} w:val="rtl"><w:r><w:t>שלום</w:t></w:r>'
            f'</w:{tag}><w:r><w:t xml:space="preserve"> is sleeping.</w:t></w:r>')
    out = translate_office(word_paragraph(runs), ".docx", mirror, DocumentOptions(target_lang="de"))
    element = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}{tag}")
    assert not any("שלום" in text for text in mirror.given)
    assert ("".join(element.itertext()), element.get(f"{{{W}}}val")) == ("שלום", "rtl")


def test_a_bidirectional_override_around_translated_words_takes_their_direction(mirror):
    """English words in a w:bdo w:val="rtl", translated into German: Word drew the German right to left."""
    runs = ('<w:r><w:t xml:space="preserve">The cat </w:t></w:r><w:bdo w:val="rtl"><w:r><w:t>is sleeping</w:t></w:r>'
            '</w:bdo><w:r><w:t xml:space="preserve"> here.</w:t></w:r>')
    out = translate_office(word_paragraph(runs), ".docx", mirror, DocumentOptions(target_lang="de"))
    override = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}bdo")
    assert ("".join(override.itertext()), override.get(f"{{{W}}}val")) == ("SLEEPING IS", "ltr")


def run_xml(text: str, look: str = "") -> str:
    return f'<w:r><w:rPr>{look}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>' if look else (
        f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>')


CHECKED = '<w:proofErr w:type="spellStart"/>'  # where Word's spelling check marked a word
BRITISH = '<w:lang w:val="en-GB"/>'


@pytest.mark.parametrize("runs, placeholder", [
    (run_xml("Dear {{name}}, thank you for your order."), "{{name}}"),
    (run_xml("Dear {{") + CHECKED + run_xml("name", BRITISH) + CHECKED + run_xml("}}, thank you for your order."),
     "{{name}}"),
    (run_xml("Dear {na", BRITISH) + run_xml("me}, thank you for your order."), "{name}"),
    (run_xml("Dear $", BRITISH) + run_xml("{customer}, thank you for your order."), "${customer}"),
    (run_xml("Dear %", BRITISH) + run_xml("s, thank you for your order."), "%s"),
], ids=["whole", "three-runs", "brace", "dollar", "printf"])
def test_a_template_placeholder_word_split_over_runs_is_kept_as_written(upper, runs, placeholder):
    """Word splits "{{name}}" over runs after an edit or a spelling check: read run by run, the
    model got "{{", "name" and "}}" and wrote "{{NAME}}"; no mail merge filled that in."""
    out = translate(word_paragraph(runs), ".docx", upper)
    assert upper.given == ["Dear, thank you for your order."]
    assert placeholder in "".join(text for _, text in word_children(out))
    assert "DEAR" in word_children(out)[0][1]


def linked_words_slide(*paragraphs: tuple[tuple[str, bool, bool], ...]) -> bytes:
    """A slide whose text box holds ``paragraphs``, each of runs (text, linked to URL, bold)."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(2))
    for number, runs in enumerate(paragraphs):
        paragraph = box.text_frame.paragraphs[0] if number == 0 else box.text_frame.add_paragraph()
        for text, linked, bold in runs:
            run = paragraph.add_run()
            run.text, run.font.bold = text, bold or None
            if linked:
                run.hyperlink.address = "https://example.com/web"  # python-pptx relates one URL once: one r:id
    return docx_bytes(deck)


def test_a_space_the_translation_puts_inside_a_link_of_two_looks_is_linked(mirror):
    """A slide's link over ``our big`` and ``web site`` in bold, two runs of one link, came back ``SITE WEB``,
    `` `` in the paragraph's look, ``BIG OUR``: two links, the underline and the click broken at the space.
    A plain space between two links apart in the source (``bus``, ``stop``) stays plain."""
    out = translate(linked_words_slide(
        (("Visit ", False, False), ("our big ", True, False), ("web site", True, True), (" today.", False, False)),
        (("Wait at the ", False, False), ("bus", True, False), (" ", False, False), ("stop", True, True),
         (" now.", False, False))), ".pptx", mirror)
    box = pptx.Presentation(io.BytesIO(out)).slides[0].shapes[0].text_frame
    assert [[(run.text, run.hyperlink.address is not None) for run in paragraph.runs]
            for paragraph in box.paragraphs] == [
        [("TODAY. ", False), ("SITE WEB", True), (" ", True), ("BIG OUR ", True), ("VISIT", False)],
        [("NOW. ", False), ("STOP", True), (" ", False), ("BUS", True), (" THE AT WAIT", False)]]
    assert [run.font.bold for run in box.paragraphs[0].runs] == [None, True, None, None, None]
