"""The direction of a translated DrawingML paragraph (attnmt.documents.drawing_direction): the
target language's, as a Word paragraph's is.  A right-to-left slide paragraph (``<a:pPr rtl="1">``)
translated into German is laid out left to right, one whose list styles (its shape's, the
master's) lay it out right to left says ``rtl="0"``, one translated into Arabic says ``rtl="1"``,
and the tables holding them alike.  A paragraph not translated keeps its own.  Mirror: words
upper-cased in reverse order."""

import io

import pptx
from lxml import etree
from office_files import docx_bytes
from pptx.util import Inches

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def a(name: str) -> str:
    return f"{{{A}}}{name}"


def boxed(*texts: str, rtl: str | None = "1") -> tuple:
    """A deck whose one slide has a text box of a paragraph each of ``texts``, each with ``rtl``
    (None: none) and aligned right, as PowerPoint writes an Arabic paragraph; the deck and the box."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(2)).text_frame
    for number, text in enumerate(texts):
        paragraph = frame.paragraphs[0] if number == 0 else frame.add_paragraph()
        paragraph.text = text
        settings = paragraph._p.get_or_add_pPr()
        settings.set("algn", "r")
        if rtl is not None:
            settings.set("rtl", rtl)
    return deck, frame


def paragraphs(data: bytes, translator, **options) -> list[etree._Element]:
    """The paragraphs of the translated deck's first slide's first shape."""
    out = translate_office(data, ".pptx", translator, DocumentOptions(**options))
    return pptx.Presentation(io.BytesIO(out)).slides[0].shapes[0].text_frame._txBody.findall(a("p"))


def settings(paragraph: etree._Element) -> dict[str, str]:
    found = paragraph.find(a("pPr"))
    return {} if found is None else dict(found.attrib)


def test_a_right_to_left_slide_paragraph_translated_into_german_is_laid_out_left_to_right(mirror):
    """It came out <a:pPr algn="r" rtl="1">: German set from the right; its alignment stays."""
    deck, _ = boxed("The dog runs.", "42")  # no words: not translated, it keeps its direction
    translated, kept = paragraphs(docx_bytes(deck), mirror, target_lang="de")
    assert [text.text for text in translated.iter(a("t"))] == ["RUNS. DOG THE"]
    assert settings(translated) == {"algn": "r"} and settings(kept) == {"algn": "r", "rtl": "1"}


def test_without_a_target_language_the_slide_direction_is_kept(mirror):
    deck, _ = boxed("The dog runs.")
    assert settings(paragraphs(docx_bytes(deck), mirror)[0]) == {"algn": "r", "rtl": "1"}


def test_a_left_to_right_slide_paragraph_translated_into_german_is_unchanged(mirror):
    deck, _ = boxed("The dog runs.", rtl=None)
    assert settings(paragraphs(docx_bytes(deck), mirror, target_lang="de")[0]) == {"algn": "r"}


def test_a_shape_list_style_that_sets_right_to_left_is_turned_off_on_the_paragraph(mirror):
    deck, frame = boxed("The dog runs.", "The cat sleeps.", rtl=None)
    frame.paragraphs[1]._p.get_or_add_pPr().set("lvl", "1")  # its level's style says nothing
    styles = frame._txBody.find(a("lstStyle"))
    styles.append(styles.makeelement(a("lvl1pPr"), {"rtl": "1"}))
    first, second = paragraphs(docx_bytes(deck), mirror, target_lang="de")
    assert settings(first) == {"algn": "r", "rtl": "0"} and settings(second) == {"algn": "r", "lvl": "1"}


def test_a_master_text_style_that_sets_right_to_left_is_turned_off_on_the_paragraph(mirror):
    """The master's p:txStyles: an Arabic template's body text is right to left.  Which of the
    master's styles a paragraph takes is not followed through its placeholder: any that lays its
    level out right to left may, so the title says ``rtl="0"`` too, as it is shown anyway."""
    deck = pptx.Presentation()
    body = deck.slide_master.element.find(f".//{{{deck.slide_master.element.nsmap['p']}}}bodyStyle")
    body.find(a("lvl1pPr")).set("rtl", "1")
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.placeholders[1].text_frame.text = "The dog runs."
    slide.shapes.title.text = "Dogs"
    out = translate_office(docx_bytes(deck), ".pptx", mirror, DocumentOptions(target_lang="de"))
    title, text = pptx.Presentation(io.BytesIO(out)).slides[0].shapes
    assert settings(text.text_frame.paragraphs[0]._p) == {"rtl": "0"}
    assert settings(title.text_frame.paragraphs[0]._p) == {"rtl": "0"}


def test_a_slide_paragraph_translated_into_arabic_is_laid_out_right_to_left(mirror):
    deck, _ = boxed("The dog runs.", rtl=None)
    assert settings(paragraphs(docx_bytes(deck), mirror, target_lang="ar")[0]) == {"algn": "r", "rtl": "1"}


def test_a_right_to_left_run_translated_into_german_no_longer_says_so(mirror):
    deck, frame = boxed("The dog runs.")
    run = frame.paragraphs[0].runs[0]._r.get_or_add_rPr()
    run.append(run.makeelement(a("rtl"), {}))
    translated = paragraphs(docx_bytes(deck), mirror, target_lang="de")[0]
    assert not list(translated.iter(a("rtl"))) and settings(translated) == {"algn": "r"}


def table_deck(rtl: str | None) -> bytes:
    """A slide with a table of two cells, its tblPr saying ``rtl`` (None: nothing)."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    table = slide.shapes.add_table(1, 2, Inches(1), Inches(1), Inches(6), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text = "The dog runs.", "The cat sleeps."
    if rtl is not None:
        table._tbl.tblPr.set("rtl", rtl)
    return docx_bytes(deck)


def table_direction(data: bytes, translator, language: str) -> str | None:
    out = translate_office(data, ".pptx", translator, DocumentOptions(target_lang=language))
    table = pptx.Presentation(io.BytesIO(out)).slides[0].shapes[0].table
    return table._tbl.tblPr.get("rtl")


def test_a_right_to_left_table_translated_into_german_has_its_first_column_on_the_left(mirror):
    assert table_direction(table_deck("1"), mirror, "de") is None


def test_a_table_translated_into_hebrew_has_its_first_column_on_the_right(mirror):
    assert table_direction(table_deck(None), mirror, "he-IL") == "1"


def noted_deck(master: str) -> bytes:
    """A deck whose one slide says "The dog runs." in a text box and "The cat sleeps." in its
    notes, with ``master`` ("notes" or "slide") laying its first level out right to left: the
    notes master's ``p:notesStyle``, or the slide master's body style."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(2)).text_frame.text = "The dog runs."
    slide.notes_slide.notes_text_frame.text = "The cat sleeps."
    styled = deck.notes_master.element if master == "notes" else deck.slide_master.element
    style = "notesStyle" if master == "notes" else "bodyStyle"
    styled.find(f".//{{{styled.nsmap['p']}}}{style}").find(a("lvl1pPr")).set("rtl", "1")
    return docx_bytes(deck)


def slide_and_note(data: bytes, translator) -> tuple[dict[str, str], dict[str, str]]:
    """The translated (into German) slide's paragraph's settings and its note's."""
    out = translate_office(data, ".pptx", translator, DocumentOptions(target_lang="de"))
    slide = pptx.Presentation(io.BytesIO(out)).slides[0]
    return (settings(slide.shapes[0].text_frame.paragraphs[0]._p),
            settings(slide.notes_slide.notes_text_frame.paragraphs[0]._p))


def test_a_notes_master_that_sets_right_to_left_is_turned_off_on_a_note_only(mirror):
    """A note takes the notes master's styles, not the slide masters': it came out with no pPr,
    still shown right to left in German.  The slide's paragraph takes nothing from them."""
    assert slide_and_note(noted_deck("notes"), mirror) == ({}, {"rtl": "0"})


def test_a_slide_master_that_sets_right_to_left_is_turned_off_on_a_slide_only(mirror):
    assert slide_and_note(noted_deck("slide"), mirror) == ({"rtl": "0"}, {})
