"""A text without letters in a document (a table cell, a cue, an attribute, an XLIFF unit) goes to
the model only where a term of the translator's glossary occurs in it, as a line of plain text does
(attnmt.documents.pipeline.reaches_model); one without a term passes through byte for byte.
Termed: upper-cased, with the term 2012 -> zweitausendzwölf."""

import io

import docx
from office_files import docx_bytes

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.documents.xliff import translate_xliff

OPTIONS = DocumentOptions()


def test_a_letterless_html_cell_with_a_term_is_translated_and_one_without_kept(termed):
    page = "<table><tr><td>2012</td><td>4521</td><td>a dog</td></tr></table>"
    assert translate_markup([page], termed, OPTIONS) == [
        "<table><tr><td>ZWEITAUSENDZWÖLF</td><td>4521</td><td>A DOG</td></tr></table>"]
    assert termed.given == ["2012", "a dog"]


def test_a_letterless_html_attribute_and_bold_run_with_a_term_are_translated(termed):
    page = '<p><b>2012</b></p><img alt="2012"><img alt="4521">'
    assert translate_markup([page], termed, OPTIONS) == [
        '<p><b>ZWEITAUSENDZWÖLF</b></p><img alt="ZWEITAUSENDZWÖLF"><img alt="4521">']


def test_letterless_html_without_a_term_comes_out_as_it_was(upper, termed):
    page = "<table><tr><td>4521</td><td> 17 </td><td>--</td></tr></table><p>2012</p>"
    assert translate_markup([page], upper, OPTIONS) == [page]
    assert translate_markup([page.replace("2012", "2013")], termed, OPTIONS) == [page.replace("2012", "2013")]


def test_a_letterless_word_paragraph_and_table_cell_with_a_term_are_translated(termed):
    document = docx.Document()
    for text in ("2012", "4521", "A dog."):
        document.add_paragraph(text)
    document.add_table(rows=1, cols=2).rows[0].cells[0].text = "2012"
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", termed, OPTIONS)))
    assert [p.text for p in out.paragraphs] == ["ZWEITAUSENDZWÖLF", "4521", "A DOG."]
    assert [cell.text for cell in out.tables[0].rows[0].cells] == ["ZWEITAUSENDZWÖLF", ""]


def test_a_letterless_cue_with_a_term_is_translated_and_one_without_kept(termed):
    srt = ("1\n00:00:01,000 --> 00:00:02,000\n2012\n\n2\n00:00:03,000 --> 00:00:04,000\n4521\n\n"
           "3\n00:00:05,000 --> 00:00:06,000\nA dog.\n")
    assert translate_subtitle_text(srt, termed) == srt.replace("2012", "ZWEITAUSENDZWÖLF").replace("A dog", "A DOG")


XLIFF = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file source-language="en" '
         'target-language="de" datatype="plaintext" original="a"><body>{}</body></file></xliff>')
UNIT = '<trans-unit id="{}"><source>{}</source>{}</trans-unit>'
SUGGESTED = '<target state="needs-review-translation" state-qualifier="mt-suggestion">{}</target>'


def test_a_letterless_xliff_unit_with_a_term_gets_its_translation_as_target(termed, upper):
    units = [UNIT.format(1, "2012", ""), UNIT.format(2, "4521", "")]
    out = translate_xliff(XLIFF.format("".join(units)), termed, OPTIONS)
    assert out == XLIFF.format(UNIT.format(1, "2012", SUGGESTED.format("ZWEITAUSENDZWÖLF"))
                               + UNIT.format(2, "4521", SUGGESTED.format("4521")))
    assert translate_xliff(XLIFF.format("".join(units)), upper, OPTIONS) == XLIFF.format(
        UNIT.format(1, "2012", SUGGESTED.format("2012")) + UNIT.format(2, "4521", SUGGESTED.format("4521")))


def test_plain_text_lines_read_the_translators_glossary(termed, upper):
    assert translate_lines(["2012", "4521", "  "], termed) == ["ZWEITAUSENDZWÖLF", "4521", "  "]
    assert translate_lines(["2012"], upper) == ["2012"]
