"""An inline SVG picture's texts (attnmt.documents.svg_texts): its labels, title and description
translated, every other byte of it kept, through pages translated by conftest.py's stand-ins."""

from attnmt.documents.markup import translate_markup

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
