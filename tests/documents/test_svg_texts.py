"""An inline SVG picture's texts (attnmt.documents.svg_texts): its labels, title and description
translated, every other byte of it kept, through pages translated by conftest.py's stand-ins."""

import pytest
from conftest import Judging
from lxml import etree
from office_files import read_members, svg_page_book

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions

KEEPING = {"Buy now": 0.1}  # a label the model garbled, kept as written (--below-quality source)
ENGLISH_TO_GERMAN = DocumentOptions(source_lang="en", target_lang="de")
SVG = "http://www.w3.org/2000/svg"

CHART = """<svg viewBox="0 0 200 100" role="img" aria-labelledby="t1">
  <title id="t1">{title}</title>
  <desc>{desc}</desc>
  <style>text {{ font: 10px sans-serif; }}</style>
  <rect class="bar" x="10" y="20" width="40" height="60"></rect>
  <path d="M 10 90 L 190 90" stroke="black"></path>
  <text x="10" y="95">{north}</text>
  <g><text x="60" y="95"><tspan x="60" dy="0">{south}</tspan><tspan x="60" dy="12">{region}</tspan></text></g>
  <foreignObject width="100" height="20"><p>Hello world.</p></foreignObject>
</svg>"""
TEXTS = {"title": "Sales by region", "desc": "A bar chart of sales in two regions.", "north": "North region",
         "south": "South", "region": "region"}


def test_an_svg_pictures_labels_title_and_description_are_translated_and_the_rest_kept(upper):
    """They were kept in the source language: a translated page's chart kept its legend, its name
    and its description (what a screen reader reads) in English."""
    page = f"<div><p>The chart below.</p>\n{CHART.format(**TEXTS)}\n</div>"
    translated = CHART.format(**{key: text.upper() for key, text in TEXTS.items()})
    assert translate_markup([page], upper)[0] == f"<div><p>THE CHART BELOW.</p>\n{translated}\n</div>"
    assert "Hello world." not in upper.given and "text { font: 10px sans-serif; }" not in upper.given


def test_an_icons_title_in_a_sentence_is_translated_apart_from_it(mirror):
    page = '<p>Open the <a href="/cart"><svg class="icon"><title>Shopping cart</title></svg></a> to pay.</p>'
    assert translate_markup([page], mirror)[0] == (
        '<p>PAY. <a href="/cart"><svg class="icon"><title>CART SHOPPING</title></svg></a> TO THE OPEN</p>')
    assert mirror.given == ["Open the to pay.", "Shopping cart"]


def test_an_svg_that_says_translate_no_keeps_its_texts(upper):
    page = '<div><p>Our logo:</p><svg translate="no"><text>Acme Tools</text></svg></div>'
    assert translate_markup([page], upper)[0] == (
        '<div><p>OUR LOGO:</p><svg translate="no"><text>Acme Tools</text></svg></div>')


@pytest.mark.parametrize("text, said", [
    ('<text x="0" y="20"><tspan x="0">a dog</tspan><tspan x="90">a cow</tspan>Buy now</text>',
     '<text x="0" y="20"><tspan x="0">DOG A</tspan><tspan x="90">COW A</tspan><tspan lang="en">Buy now</tspan></text>'),
    ('<text x="0" y="20">Buy now <title>a dog</title></text>',
     '<text x="0" y="20"><tspan lang="en">Buy now</tspan> <title>DOG A</title></text>'),
    ('<text><textPath href="#curve">a dog</textPath>Buy now</text>',
     '<text><textPath href="#curve">DOG A</textPath><tspan lang="en">Buy now</tspan></text>'),
])
def test_a_kept_label_of_bare_text_in_an_svg_text_says_its_language_in_a_tspan(mirror, text, said):
    """It was wrapped in HTML's <span lang="en">, no SVG element: a browser's parser closes the <svg> at a <span>,
    so the kept words and all the picture after them were drawn out of it, in the page's text."""
    page = f"<html><body><p>a cat</p><svg>{text}</svg></body></html>"
    out = translate_markup([page], Judging(mirror, KEEPING), ENGLISH_TO_GERMAN)[0]
    assert f"<p>CAT A</p><svg>{said}</svg>" in out and "<span" not in out


def test_a_kept_label_in_an_xhtml_pages_svg_is_an_svg_tspan_and_a_kept_description_is_left_as_it_is(mirror):
    """In XHTML the <span> was in SVG's namespace, an element SVG does not know: its words were not drawn.  A
    <desc>, text a screen reader reads (here with an XHTML paragraph in it), holds no <tspan>: nothing states it."""
    picture = ('<svg xmlns="http://www.w3.org/2000/svg"><desc>Buy now<p xmlns="http://www.w3.org/1999/xhtml">a cow</p>'
               '</desc><text x="0" y="20"><tspan x="0">a dog</tspan><tspan x="90">a cow</tspan>Buy now</text></svg>')
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><body>'
            f"<p>a cat</p>{picture}</body></html>")
    out = translate_file_bytes(page.encode(), "page.xhtml", Judging(mirror, KEEPING), ENGLISH_TO_GERMAN)
    drawn = etree.fromstring(out).find(f".//{{{SVG}}}text")
    assert [(etree.QName(tspan).text, tspan.text) for tspan in drawn] == [
        (f"{{{SVG}}}tspan", "DOG A"), (f"{{{SVG}}}tspan", "COW A"), (f"{{{SVG}}}tspan", "Buy now")]
    assert drawn[2].get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
    assert b'<desc>Buy now<p xmlns="http://www.w3.org/1999/xhtml">COW A</p></desc>' in out


def test_kept_labels_of_a_books_svg_page_say_the_source_language_under_its_root_saying_the_target(mirror):
    """An SVG page of an EPUB (its spine lists it) stated the target language at its root and nothing at its kept
    labels, declaring their English German; they now say it as an XHTML page's picture's do (xml:lang: SVG 1.1 has
    no lang): a kept <text> and <title> themselves, kept bare text beside translated labels in an SVG <tspan>."""
    picture = ('<svg xmlns="http://www.w3.org/2000/svg"><title>Buy now</title><text x="0" y="20"><tspan x="0">a dog'
               '</tspan><tspan x="90">a cow</tspan>Buy now</text><text x="0" y="40">Buy now</text></svg>')
    book = svg_page_book(picture.encode())
    out = read_members(translate_file_bytes(book, "book.epub", Judging(mirror, KEEPING), ENGLISH_TO_GERMAN))
    assert out["OEBPS/Text/pic.svg"].decode().endswith(
        '<svg xmlns="http://www.w3.org/2000/svg" xml:lang="de"><title xml:lang="en">Buy now</title><text x="0" y="20">'
        '<tspan x="0">DOG A</tspan><tspan x="90">COW A</tspan><tspan xml:lang="en">Buy now</tspan></text>'
        '<text x="0" y="40" xml:lang="en">Buy now</text></svg>')


def test_an_svg_pictures_texts_say_their_direction_in_svgs_direction_not_htmls_dir(mirror):
    """Into a language written right to left, a kept label said dir="ltr" and a translated one kept its
    direction="ltr": SVG has no dir (a browser drew the English as the Arabic page around it, right to left) and
    reads direction, a presentation attribute; the HTML page's root says dir as it did."""
    picture = ('<svg><text x="0" y="20">Buy now</text><text x="0" y="40" direction="ltr">a cat</text>'
               '<text x="0" y="60"><tspan x="0">a dog</tspan>Buy now</text></svg>')
    page = f'<html lang="en"><body><p>a cow</p>{picture}</body></html>'
    out = translate_markup([page], Judging(mirror, KEEPING), DocumentOptions(source_lang="en", target_lang="ar"))[0]
    assert '<html lang="ar" dir="rtl">' in out
    assert ('<svg><text x="0" y="20" lang="en" direction="ltr">Buy now</text><text x="0" y="40" direction="rtl">CAT A'
            '</text><text x="0" y="60"><tspan x="0">DOG A</tspan><tspan lang="en" direction="ltr">Buy now</tspan>'
            '</text></svg>') in out


def test_a_books_svg_page_into_a_right_to_left_language_keeps_its_layouts_direction(mirror):
    """Its root said dir="rtl", which SVG does not read; said as SVG's direction it would draw each start-anchored
    label leftwards from its x: the root says none and its kept labels need none."""
    picture = ('<svg xmlns="http://www.w3.org/2000/svg"><title>Buy now</title><text x="0" y="20"><tspan x="0">a dog'
               '</tspan>Buy now</text></svg>')
    out = read_members(translate_file_bytes(svg_page_book(picture.encode()), "book.epub", Judging(mirror, KEEPING),
                                            DocumentOptions(source_lang="en", target_lang="he")))
    assert out["OEBPS/Text/pic.svg"].decode().endswith(
        '<svg xmlns="http://www.w3.org/2000/svg" xml:lang="he"><title xml:lang="en">Buy now</title><text x="0" y="20">'
        '<tspan x="0">DOG A</tspan><tspan xml:lang="en">Buy now</tspan></text></svg>')


@pytest.mark.parametrize(("picture", "kept"), [
    ('<svg><text x="0" y="20">Say <tspan direction="rtl">שלום</tspan> to her.</text></svg>',
     '<tspan direction="rtl">שלום</tspan>'),
    ('<svg><text x="0" y="20" direction="rtl">שלום עולם</text></svg>', '<text x="0" y="20" direction="rtl">שלום עולם'),
], ids=["a passage in a label", "a whole label"])
def test_hebrew_an_english_picture_says_is_written_right_to_left_is_kept_as_a_foreign_passage(mirror, picture, kept):
    """SVG says a direction in direction, not HTML's dir (language.said_direction): read for dir alone, the Hebrew
    was given to the model as English words, as a <bdo dir="rtl"> around it in an HTML page's sentence is not."""
    out = translate_markup([picture], mirror, ENGLISH_TO_GERMAN)[0]
    assert kept in out
    assert not any("שלום" in text for text in mirror.given)
