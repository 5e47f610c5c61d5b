"""attnmt.documents.formatting: which run properties show on a space (shows_on_spaces), and so keep
a run's edge spaces in it where they make the base's look (test_office_word.py's edge-space tests);
a slide's linked run keeping its edge spaces whatever the look; a slide's spelling flags dropped."""

import io

import pptx
import pytest
from lxml import etree
from office_files import W, read_members, word_paragraph

from attnmt.documents.formatting import script_kind, shows_on_spaces
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def word_look(properties: str) -> etree._Element:
    return etree.fromstring(f'<w:rPr xmlns:w="{W}">{properties}</w:rPr>')


@pytest.mark.parametrize("shading, shows", [
    ('<w:shd w:val="clear" w:color="auto" w:fill="FFFF00"/>', True),  # the usual background: a fill
    ('<w:shd w:val="pct20" w:color="000000"/>', True),  # a pattern, with no fill under it
    ('<w:shd w:val="clear" w:color="auto" w:themeFill="accent1"/>', True),  # a theme's colour
    ('<w:shd w:val="nil"/>', False),  # no shading at all
    ('<w:shd w:val="clear" w:color="auto"/>', False),  # no pattern over no fill: what Word writes on plain runs
    ('<w:shd w:val="clear" w:color="auto" w:fill="auto"/>', False),
])
def test_a_word_shading_shows_on_a_space_only_with_a_fill_or_a_pattern(shading, shows):
    assert shows_on_spaces([word_look(shading)]) is shows


@pytest.mark.parametrize("layers, kind", [
    (['<w:vertAlign w:val="superscript"/>'], "sup"),
    (['<w:vertAlign w:val="subscript"/>'], "sub"),
    (['<w:vertAlign w:val="superscript"/>', '<w:vertAlign w:val="baseline"/>'], ""),  # a style's, turned off
    (['<w:vertAlign w:val="superscript"/>', "<w:b/>"], "sup"),  # a style's, the run's own saying nothing of it
])
def test_a_word_runs_script_is_what_the_last_layer_that_says_so_says(layers, kind):
    assert script_kind([word_look(layer) for layer in layers]) == kind


@pytest.mark.parametrize("layers, kind", [
    (['<w:position w:val="8"/><w:sz w:val="19"/>'], "sup"),  # raised 4 points: LibreOffice's <sup>
    (['<w:position w:val="-8"/>'], "sub"),  # lowered
    (['<w:position w:val="8"/>', '<w:position w:val="0"/>'], ""),  # a style's, put back on the line
    (['<w:position w:val="8"/>', "<w:b/>"], "sup"),  # a style's, the run's own saying nothing of it
    (['<w:position w:val="8"/><w:vertAlign w:val="subscript"/>'], "sub"),
])
def test_a_word_run_raised_or_lowered_by_its_position_is_a_script(layers, kind):
    """Word's Font > Advanced > Position: Raised (``w:position``, not ``w:vertAlign``) read as on the line:
    a note's number so raised was read as a word of its sentence and lost."""
    assert script_kind([word_look(layer) for layer in layers]) == kind


@pytest.mark.parametrize("baseline, kind", [("30000", "sup"), ("-25000", "sub"), ("0", "")])
def test_a_slide_runs_script_is_its_baselines_side_of_zero(baseline, kind):
    assert script_kind([etree.fromstring(f'<a:rPr xmlns:a="{A}" baseline="{baseline}"/>')]) == kind


@pytest.mark.parametrize("properties, shows", [
    (f'<a:rPr xmlns:a="{A}" u="sng"/>', True),
    (f'<a:rPr xmlns:a="{A}" strike="noStrike"/>', False),
    (f'<a:rPr xmlns:a="{A}"><a:highlight><a:srgbClr val="FFFF00"/></a:highlight></a:rPr>', True),
    (f'<rPr xmlns="{S}"><u/></rPr>', True),
    (f'<rPr xmlns="{S}"><strike val="0"/></rPr>', False),
])
def test_a_slides_and_a_sheets_underline_strike_and_highlight_read_as_before(properties, shows):
    assert shows_on_spaces([etree.fromstring(properties)]) is shows


def test_an_underlined_runs_edge_spaces_go_out_of_it_under_a_base_shaded_with_nothing(fixed):
    """A base of ``<w:shd w:val="nil"/>`` read as shaded kept the underlined run's spaces in it: the
    line was drawn across the word gaps either side of ``roten Hemd``."""
    nil = '<w:rPr><w:shd w:val="nil"/></w:rPr>'
    data = word_paragraph(f'<w:r>{nil}<w:t>A man in a</w:t></w:r>'
                          '<w:r><w:rPr><w:shd w:val="nil"/><w:u w:val="single"/></w:rPr>'
                          '<w:t xml:space="preserve"> red shirt </w:t></w:r>'
                          f'<w:r>{nil}<w:t>is sitting on a bench.</w:t></w:r>')
    # A man in a | red shirt | is sitting | on a bench.
    german = fixed("Ein Mann in einem roten Hemd sitzt auf einer Bank.",
                   [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 6), (8, 7), (9, 8), (10, 9)])
    paragraph = etree.fromstring(read_members(translate_office(data, ".docx", german, DocumentOptions()))
                                 ["word/document.xml"]).find(f".//{{{W}}}p")
    runs = paragraph.iter(f"{{{W}}}r")
    assert [run.findtext(f"{{{W}}}t") for run in runs if run.find(f".//{{{W}}}u") is not None] == ["roten Hemd"]


def slide_paragraph(*runs: tuple[str, dict[str, str], str | None]) -> bytes:
    """A deck of one text box whose paragraph has ``runs``: (text, its a:rPr's attributes, its link or None)."""
    deck = pptx.Presentation()
    paragraph = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, 100, 100).text_frame.paragraphs[0]
    for text, attributes, link in runs:
        run = paragraph.add_run()
        run.text = text
        for name, value in attributes.items():
            run._r.get_or_add_rPr().set(name, value)
        if link is not None:
            run.hyperlink.address = link
    data = io.BytesIO()
    deck.save(data)
    return data.getvalue()


def slide_runs(data: bytes) -> list[pptx.text.text._Run]:
    return list(pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0].text_frame.paragraphs[0].runs)


def test_a_slides_linked_run_keeps_the_space_at_its_edge_inside_its_link(same):
    """The space at the front of the second link went out of it into an unlinked run of its own:
    "A dog" + " " + "runs in the park.", so even a paragraph that kept its source did not come back as it was."""
    data = slide_paragraph(("A dog", {}, "https://example.com/1"), (" runs in the park.", {}, "https://example.com/2"))
    out = translate_office(data, ".pptx", same, DocumentOptions())
    assert [(run.text, run.hyperlink.address) for run in slide_runs(out)] == [
        ("A dog", "https://example.com/1"), (" runs in the park.", "https://example.com/2")]


@pytest.mark.parametrize("dirty", [{}, {"dirty": "0"}])
def test_a_slides_spelling_flags_are_dropped_and_its_runs_alike_but_for_them_merged(same, dirty):
    """err="1" (PowerPoint's red underline) was written onto the translated words as a run of their
    own; with dirty="0" on both runs they merged and the whole paragraph was flagged misspelt."""
    english = {"lang": "en-US", **dirty}
    data = slide_paragraph(("Teh", {**english, "err": "1"}, None), (" dog is runing in the park.", english, None))
    runs = slide_runs(translate_office(data, ".pptx", same, DocumentOptions()))
    assert [(run.text, run._r.rPr.get("err"), run._r.rPr.get("dirty")) for run in runs] == [
        ("Teh dog is runing in the park.", None, None)]
