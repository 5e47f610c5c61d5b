"""A presentation's slide masters and layouts (attnmt.documents.slide_masters): the shapes they draw
on every slide are translated, their placeholders' prompts kept.  Mirror: words upper-cased in
reverse order."""

import copy
import io

import pptx
import pytest
from lxml import etree
from office_files import read_members
from pptx.util import Inches

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
PROMPTS = ["Click to edit Master title style", "Click to edit Master text styles", "Second level", "Third level",
           "Fourth level", "Fifth level", "1/27/13", "‹#›"]


def drawn_on(where: str) -> bytes:
    """python-pptx's presentation of one slide ("The big dog runs.", its notes "Say hello."), its master
    (``where="master"``), the slide's layout (``"layout"``) or the notes master (``"notes"``) drawing a
    text box "Only for the team." below the slides' text."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "The big dog runs."
    box = slide.shapes.add_textbox(Inches(0.5), Inches(7), Inches(4), Inches(0.4))
    box.text_frame.text = "Only for the team."
    slide.notes_slide.notes_text_frame.text = "Say hello."  # python-pptx makes the notes master with it
    drawer = {"master": deck.slide_master, "layout": slide.slide_layout, "notes": deck.notes_master}[where]
    drawer.shapes._spTree.append(copy.deepcopy(box._element))  # python-pptx adds no text box to a master
    box._element.getparent().remove(box._element)
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def texts(member: bytes) -> list[str]:
    return [t.text for t in etree.fromstring(member).iter(f"{A}t")]


@pytest.mark.parametrize("where, member", [("master", "ppt/slideMasters/slideMaster1.xml"),
                                           ("layout", "ppt/slideLayouts/slideLayout2.xml"),
                                           ("notes", "ppt/notesMasters/notesMaster1.xml")])
def test_a_text_box_a_master_or_layout_draws_on_the_slides_is_translated(mirror, where, member):
    """It is shown on every slide (the notes master's, on every printed notes page): it stayed in
    the source on a translated deck."""
    out = read_members(translate_office(drawn_on(where), ".pptx", mirror, DocumentOptions(target_lang="de")))
    assert texts(out[member])[-1] == "TEAM. THE FOR ONLY"
    box = etree.fromstring(out[member]).iter(f"{A}r")
    assert [run.find(f"{A}rPr").get("lang") for run in box][-1] == "de"
    assert texts(out["ppt/slides/slide1.xml"]) == ["RUNS. DOG BIG THE"]


def test_a_masters_placeholders_prompts_are_kept_with_their_language(mirror):
    """Shown only while editing an empty placeholder: translated, they would be written into no slide."""
    data = drawn_on("master")
    out = read_members(translate_office(data, ".pptx", mirror, DocumentOptions(target_lang="de")))
    master = "ppt/slideMasters/slideMaster1.xml"
    assert texts(out[master])[:-1] == texts(read_members(data)[master])[:-1] == PROMPTS
    languages = [p.get("lang") for p in etree.fromstring(out[master]).iter(f"{A}rPr", f"{A}defRPr")]
    assert languages.count("de") == 1  # the text box's run alone; the list styles' stay en-US


def test_a_layout_of_placeholders_alone_is_not_written_again(mirror):
    data = drawn_on("master")
    out = read_members(translate_office(data, ".pptx", mirror, DocumentOptions(target_lang="de")))
    assert out["ppt/slideLayouts/slideLayout2.xml"] == read_members(data)["ppt/slideLayouts/slideLayout2.xml"]


def test_a_masters_drawn_shapes_alt_text_is_translated_and_a_placeholders_kept(mirror):
    """A logo's alt text, read on every slide by a screen reader, stayed in the source; a placeholder's
    is kept as its prompt is."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    logo = slide.shapes.add_shape(1, 0, 0, Inches(1), Inches(1))._element  # a rectangle standing for a logo
    logo.nvSpPr.cNvPr.set("descr", "The company logo.")
    deck.slide_master.shapes._spTree.append(logo)  # moved: python-pptx adds no shape to a master
    deck.slide_master.shapes[0]._element.nvSpPr.cNvPr.set("descr", "The title here.")  # its title placeholder
    data = io.BytesIO()
    deck.save(data)
    out = pptx.Presentation(io.BytesIO(translate_office(data.getvalue(), ".pptx", mirror, DocumentOptions())))
    master = out.slide_master.shapes
    assert master[0].is_placeholder and not master[-1].is_placeholder
    assert [shape._element.find(".//{*}cNvPr").get("descr") for shape in (master[0], master[-1])] == [
        "The title here.", "LOGO. COMPANY THE"]
