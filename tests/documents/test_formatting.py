"""attnmt.documents.formatting: which run properties show on a space (shows_on_spaces), and so keep
a run's edge spaces in it where they make the base's look (test_office_word.py's edge-space tests)."""

import pytest
from lxml import etree
from office_files import W, read_members, word_paragraph

from attnmt.documents.formatting import is_superscript, shows_on_spaces
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


@pytest.mark.parametrize("layers, raised", [
    (['<w:vertAlign w:val="superscript"/>'], True),
    (['<w:vertAlign w:val="subscript"/>'], False),
    (['<w:vertAlign w:val="superscript"/>', '<w:vertAlign w:val="baseline"/>'], False),  # a style's, turned off
    (['<w:vertAlign w:val="superscript"/>', "<w:b/>"], True),  # a style's, the run's own saying nothing of it
])
def test_a_word_run_is_superscript_where_the_last_layer_that_says_so_says_superscript(layers, raised):
    assert is_superscript([word_look(layer) for layer in layers]) is raised


@pytest.mark.parametrize("baseline, raised", [("30000", True), ("-25000", False), ("0", False)])
def test_a_slide_run_is_superscript_with_a_baseline_above_zero(baseline, raised):
    assert is_superscript([etree.fromstring(f'<a:rPr xmlns:a="{A}" baseline="{baseline}"/>')]) is raised


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
