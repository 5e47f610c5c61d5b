"""A text without letters in a document (a table cell, a cue, an attribute, an XLIFF unit) never
goes to the model: where a term of the translator's glossary stands in it, apart from other digits,
the term is replaced by its target term and all else kept (attnmt.documents.letterless.with_terms), as
in a line of plain text; one without such a term passes through byte for byte.
Termed: upper-cased, with the term 2012 -> zweitausendzwölf, which it writes upper-cased (so the
case shows that the model was not asked)."""

import io

import docx
import pytest
from office_files import docx_bytes

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import with_terms
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.paragraphs import line_pairs
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.documents.translators import FoundTranslations
from attnmt.documents.xliff import translate_xliff
from attnmt.errors import ConfigError

OPTIONS = DocumentOptions()
TERMS = Glossary.of({"2012": "zweitausendzwölf", "12 34": "Zwölf Vierunddreißig"})


@pytest.mark.parametrize(("text", "expected"), [
    ("2012", "zweitausendzwölf"),
    ("4521 - 2012", "4521 - zweitausendzwölf"),
    ("  (2012).", "  (zweitausendzwölf)."),
    ("２０１２", "zweitausendzwölf"),  # full-width digits: matched as the glossary matches them
    ("12  34 / 2012", "Zwölf Vierunddreißig / zweitausendzwölf"),  # longest first, left to right
    ("12/05/2012", "12/05/2012"),  # a date, not the year's term
    ("2012-05-01", "2012-05-01"),
    ("1.2012", "1.2012"),
    ("2012:30", "2012:30"),
    ("20120", "20120"),
    ("4521", "4521"),
])
def test_a_letterless_text_takes_each_term_standing_apart_from_other_digits(text, expected):
    assert with_terms(text, TERMS) == expected


NUMBERS = Glossary.of({"2012": "zweitausendzwölf", "12": "zwölf", "€": "Euro"})


@pytest.mark.parametrize(("text", "expected"), [
    ("１２／０５／２０１２", "１２／０５／２０１２"),  # full-width: the "／" matching reads as "/"
    ("１２：３０", "１２：３０"),
    ("2012\u201005\u201001", "2012\u201005\u201001"),  # Unicode hyphen
    ("2012\u201105", "2012\u201105"),  # non-breaking hyphen
    ("2012\u201205", "2012\u201205"),  # figure dash
    ("2012\u221205", "2012\u221205"),  # minus sign
    ("12,5", "12,5"),  # decimal comma
    ("1.234,12", "1.234,12"),
    ("12,50 €", "12,50 Euro"),
    ("0,12", "0,12"),
    ("1,2012", "1,2012"),
    ("12٫5", "12٫5"),  # Arabic decimal separator
    ("12\u00a0000", "12\u00a0000"),  # thousands: no-break, narrow no-break and thin spaces
    ("12\u202f000", "12\u202f000"),
    ("12\u2009000", "12\u2009000"),
    ("12'000", "12'000"),
    ("12’000", "12’000"),
    ("12\u00ad2012", "12\u00ad2012"),  # invisible: soft hyphen, word joiner, zero-width space
    ("12\u20602012", "12\u20602012"),
    ("12\u200b2012", "12\u200b2012"),
    ("12\u200b/05", "12\u200b/05"),
    (".12", ".12"),  # a leading decimal point
    (",12", ",12"),
    ("12 000", "zwölf 000"),  # an ordinary space joins nothing
    ("4521 - 2012", "4521 - zweitausendzwölf"),
    ("(2012).", "(zweitausendzwölf)."),
    ("2012. 12", "zweitausendzwölf. zwölf"),
    ("12\u00a0€", "zwölf\u00a0Euro"),  # a no-break space glues digits only
    ("2012\u00a0–\u00a02013", "zweitausendzwölf\u00a0–\u00a02013"),  # a range of years: two numbers
    ("2012–2013", "2012–2013"),  # an en dash's range, a power and a product: one number expression
    ("2012-2013", "2012-2013"),
    ("10^12", "10^12"),
    ("10＾12", "10＾12"),  # full-width: matching reads "^"
    ("12×20", "12×20"),
    ("2012 – 2013", "zweitausendzwölf – 2013"),  # a dash between spaces joins nothing, "-" as "–"
    ("2012 - 2013", "zweitausendzwölf - 2013"),
    ("12 × 20", "zwölf × 20"),
])
def test_a_term_joined_to_other_digits_as_matching_reads_them_stays(text, expected):
    assert with_terms(text, NUMBERS) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("🇦🇩🇪🇸", "🇦🇩🇪🇸"),  # Andorra and Spain: was "🇦Deutschland🇸"
    ("👍🏽", "👍🏽"),  # was "gut🏽"
    ("🐕\u200d🦺", "🐕\u200d🦺"),  # a service dog: was "Hund\u200d🦺", its joiner left dangling
    ("🇩🇪 👍 🐕", "Deutschland gut Hund"),
])
def test_a_term_of_emoji_is_taken_only_as_a_whole_emoji(text, expected):
    assert with_terms(text, Glossary.of({"🇩🇪": "Deutschland", "👍": "gut", "🐕": "Hund"})) == expected


@pytest.mark.parametrize(("page", "expected"), [
    ("<p>20<sup>12</sup></p>", "<p>20<sup>12</sup></p>"),  # 20 to the 12th
    ("<p><b>20</b><b>12</b></p>", "<p><b>20</b><b>12</b></p>"),
    ("<p>12<x>.</x>5</p>", "<p>12<x>.</x>5</p>"),  # what the element shows glues 12 to 5
    ("<p>2012<br>12</p>", "<p>zweitausendzwölf<br>zwölf</p>"),
    ("<p>(<b>2012</b>)<x>.</x></p>", "<p>(<b>zweitausendzwölf</b>)<x>.</x></p>"),
])
def test_a_letterless_term_does_not_cross_an_inline_elements_edge(page, expected):
    assert translate_markup([page], FoundTranslations({}, glossary=NUMBERS), OPTIONS) == [expected]


def test_a_letterless_term_does_not_cross_a_word_runs_edge():
    """Word runs of different formatting are inline elements too: 20 and a superscript 12."""
    document = docx.Document()
    paragraph = document.add_paragraph("20")
    paragraph.add_run("12").font.superscript = True
    document.add_paragraph("2012")
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx",
                                                    FoundTranslations({}, glossary=NUMBERS), OPTIONS)))
    assert [[run.text for run in p.runs] for p in out.paragraphs] == [["20", "12"], ["zweitausendzwölf"]]
    assert out.paragraphs[0].runs[1].font.superscript


def test_a_letterless_html_cell_with_a_term_takes_it_without_the_model(termed):
    page = "<table><tr><td>2012</td><td>4521</td><td>a dog</td></tr></table>"
    assert translate_markup([page], termed, OPTIONS) == [
        "<table><tr><td>zweitausendzwölf</td><td>4521</td><td>A DOG</td></tr></table>"]
    assert termed.given == ["a dog"]


def test_a_letterless_html_attribute_and_bold_run_with_a_term_take_it(termed):
    page = '<p><b>2012</b></p><img alt="2012"><img alt="4521"><p>4521 <b>2012</b> - 17</p>'
    assert translate_markup([page], termed, OPTIONS) == [
        '<p><b>zweitausendzwölf</b></p><img alt="zweitausendzwölf"><img alt="4521">'
        '<p>4521 <b>zweitausendzwölf</b> - 17</p>']
    assert termed.given == []


def test_a_date_holding_a_term_passes_through_as_it_was(termed):
    """The model wrote around a letterless term what its training held: ``12/05/2012`` came out
    ``Auf dieser Bahn zweitausendzwölf.``, ``2012-05-01`` ``Auf zweitausendzwölf New York.``."""
    page = '<table><tr><td>12/05/2012</td></tr></table><p><time datetime="2012-05-01">2012-05-01</time></p>'
    assert translate_markup([page], termed, OPTIONS) == [page]
    assert termed.given == []


def test_letterless_html_without_a_term_comes_out_as_it_was(upper, termed):
    page = "<table><tr><td>4521</td><td> 17 </td><td>--</td></tr></table><p>2012</p>"
    assert translate_markup([page], upper, OPTIONS) == [page]
    assert translate_markup([page.replace("2012", "2013")], termed, OPTIONS) == [page.replace("2012", "2013")]


def test_a_letterless_word_paragraph_and_table_cell_with_a_term_take_it(termed):
    document = docx.Document()
    for text in ("2012", "4521", "A dog."):
        document.add_paragraph(text)
    document.add_table(rows=1, cols=2).rows[0].cells[0].text = "2012"
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", termed, OPTIONS)))
    assert [p.text for p in out.paragraphs] == ["zweitausendzwölf", "4521", "A DOG."]
    assert [cell.text for cell in out.tables[0].rows[0].cells] == ["zweitausendzwölf", ""]
    assert termed.given == ["A dog."]


def test_a_letterless_cue_with_a_term_takes_it_and_one_without_is_kept(termed):
    srt = ("1\n00:00:01,000 --> 00:00:02,000\n2012\n\n2\n00:00:03,000 --> 00:00:04,000\n4521\n\n"
           "3\n00:00:05,000 --> 00:00:06,000\nA dog.\n")
    assert translate_subtitle_text(srt, termed) == srt.replace("2012", "zweitausendzwölf").replace("A dog", "A DOG")
    assert termed.given == ["A dog."]


XLIFF = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file source-language="en" '
         'target-language="de" datatype="plaintext" original="a"><body>{}</body></file></xliff>')
UNIT = '<trans-unit id="{}"><source>{}</source>{}</trans-unit>'
SUGGESTED = '<target state="needs-review-translation" state-qualifier="mt-suggestion">{}</target>'


def test_a_letterless_xliff_unit_with_a_term_gets_it_as_target(termed, upper):
    units = [UNIT.format(1, "2012", ""), UNIT.format(2, "4521", "")]
    out = translate_xliff(XLIFF.format("".join(units)), termed, OPTIONS)
    assert out == XLIFF.format(UNIT.format(1, "2012", SUGGESTED.format("zweitausendzwölf"))
                               + UNIT.format(2, "4521", SUGGESTED.format("4521")))
    assert translate_xliff(XLIFF.format("".join(units)), upper, OPTIONS) == XLIFF.format(
        UNIT.format(1, "2012", SUGGESTED.format("2012")) + UNIT.format(2, "4521", SUGGESTED.format("4521")))
    assert termed.given == []


def test_plain_text_lines_read_the_translators_glossary(termed, upper):
    assert translate_lines(["2012", "4521 - 2012", "4521", "  ", "12/05/2012"], termed) == [
        "zweitausendzwölf", "4521 - zweitausendzwölf", "4521", "  ", "12/05/2012"]
    assert termed.given == []
    assert translate_lines(["2012"], upper) == ["2012"]


def test_a_letterless_line_takes_its_terms_field_by_field_and_keeps_its_tabs():
    """A line's fields are translated apart, as its sentences are: ``12<TAB>2012`` with the term
    ``12 2012`` came out ``zwölf zweitausendzwölf``, a row without its columns."""
    spanning = FoundTranslations({}, glossary=Glossary.of({"12 2012": "zwölf zweitausendzwölf",
                                                           "2012": "zweitausendzwölf"}))
    lines = ["12\t2012", "12 2012", "12\u20282012\t\t12"]
    assert translate_lines(lines, spanning) == ["12\tzweitausendzwölf", "zwölf zweitausendzwölf",
                                                "12\u2028zweitausendzwölf\t\t12"]


def test_a_term_broken_by_a_soft_hyphen_is_taken_in_a_line_and_a_jsonl_text_alike(termed):
    """Matching reads past a soft hyphen (Glossary.found_in), which stays where it was around the
    term: a text line's ``20\u00ad12`` took the term from its flat text, without the soft hyphen,
    and then from the line as it was, with it, no more; a JSONL text's (``with_terms``) never did."""
    assert with_terms("20\u00ad12", TERMS) == "zweitausendzwölf"
    lines = ["20\u00ad12", "\u00ad2012 - 12\u00ad2012"]
    assert translate_lines(lines, termed) == ["zweitausendzwölf", "\u00adzweitausendzwölf - 12\u00ad2012"]
    assert termed.given == []


@pytest.mark.parametrize(("source", "translation", "terms"), [
    ("A dog runs in the park. 2012.", "Ein Hund rennt im Park. zweitausendzwölf.", {"2012": "zweitausendzwölf"}),
    ("A man rides a bicycle. 20 %", "Ein Mann fährt Fahrrad. zwanzig Prozent", {"20 %": "zwanzig Prozent"}),
    ("A man rides a bicycle. 1.5", "Ein Mann fährt Fahrrad. 1,5", {"1.5": "1,5"}),  # a term with no letter either
])
def test_score_reads_a_sentence_beside_a_letterless_part_with_terms_as_translate_read_it(source, translation, terms):
    """``attnmt score --glossary``: the letterless part took its terms, as translate wrote it, so
    it is looked for so in the translation, and a sentence of the translation that is it is none
    the model wrote.  The line was read whole (quality 0.1365 and low_quality for translate's
    0.9857); the model read ``A man rides a bicycle.`` alone, and so does score now."""
    sentence, translated = source.split(". ")[0] + ".", translation.split(". ")[0] + "."
    assert line_pairs(source, translation, OPTIONS, "en") == [(source, translation)]  # no glossary: as before
    assert line_pairs(source, translation, OPTIONS, "en", Glossary.of(terms)) == [(sentence, translated)]
    number = (source.replace(source.split(". ")[1], "7."), translation.replace(translation.split(". ")[1], "7."))
    assert line_pairs(*number, OPTIONS, "en", Glossary.of(terms)) == [(sentence, translated)]  # no term: as before


@pytest.mark.parametrize(("translation", "lang", "read"), [
    ("Ein Hund rennt. zweitausendzwölf.", "de", "Ein Hund rennt."),  # German's splitter goes on at a small letter
    ("ein hund rennt zweitausendzwölf.", "en", "ein hund rennt"),  # the model wrote no full stop
    ("zweitausendzwölf. ein hund rennt", "en", "ein hund rennt"),
])
def test_score_reads_a_sentence_without_the_part_with_terms_the_splitter_left_in_it(translation, lang, read):
    """A term's word the model never wrote, read after its sentence, made the line poor."""
    source = "A dog runs. 2012." if translation.endswith(".") else "2012. A dog runs."
    assert line_pairs(source, translation, OPTIONS, lang, TERMS) == [("A dog runs.", read)]
    assert line_pairs(source, "ein hund rennt zweitausendzwölfte", OPTIONS, "en", TERMS) == [
        (source, "ein hund rennt zweitausendzwölfte")]  # not the part: the line whole, as before



@pytest.mark.parametrize(("source", "translation", "pairs"), [
    ("A dog runs. 1.", "ein hund rennt 1.", [("A dog runs.", "ein hund rennt")]),  # the model wrote no full stop
    ("A dog runs. 1. A cat sleeps.", "Ein Hund rennt. 1. Eine Katze schläft.",
     [("A dog runs.", "Ein Hund rennt."), ("A cat sleeps.", "Eine Katze schläft.")]),
    ("A dog runs. 1. A cat sleeps 1.", "Ein Hund rennt. 1. Eine Katze schläft 1.",  # the part stands alone:
     [("A dog runs.", "Ein Hund rennt."), ("A cat sleeps 1.", "Eine Katze schläft 1.")]),  # the model wrote this 1.
])
def test_score_reads_a_sentence_without_the_number_translate_passed_through_beside_it(source, translation, pairs):
    """translate gives "A dog runs. 1." as "ein hund rennt 1.": the model read "A dog runs." alone and
    wrote no full stop, and "1." passed through (quality 0.9309 on the test model); score read "ein
    hund rennt 1." as the sentence's translation, a number the model never wrote: 0.003, low_quality."""
    assert line_pairs(source, translation, OPTIONS, "en") == pairs


class Bare:
    """A user's own Translator with ``translate`` alone, as the protocol was before it had a glossary:
    every sentence upper-cased, no word weights."""

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        return [s.upper() for s in sentences], [None] * len(sentences)


class DictTermed(Bare):
    """Bare with its glossary a dict, as translate() and ModelTranslator take one."""

    glossary = {"2012": "zweitausendzwölf"}


def translated_everywhere(translator) -> list[str]:
    """"2012" and "A dog." in a Word file, an HTML page, an XLIFF unit, a cue and a line of text."""
    document = docx.Document()
    for text in ("2012", "A dog."):
        document.add_paragraph(text)
    word = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", translator, OPTIONS)))
    srt = "1\n00:00:01,000 --> 00:00:02,000\n2012\n"
    return [*(p.text for p in word.paragraphs),
            *translate_markup(["<p>2012</p><p>A dog.</p>"], translator, OPTIONS),
            translate_xliff(XLIFF.format(UNIT.format(1, "2012", "")), translator, OPTIONS),
            translate_subtitle_text(srt, translator).split("\n")[2], *translate_lines(["2012"], translator)]


def test_a_translator_without_a_glossary_has_no_terms_in_every_format():
    """Its ``translate`` alone: ``translator.glossary`` was an AttributeError in each format."""
    assert translated_everywhere(Bare()) == [
        "2012", "A DOG.", "<p>2012</p><p>A DOG.</p>",
        XLIFF.format(UNIT.format(1, "2012", SUGGESTED.format("2012"))), "2012", "2012"]


def test_a_translators_glossary_given_as_a_dict_is_read_as_a_glossary_in_every_format():
    """The dict failed nine frames deep in the letterless texts' terms."""
    assert translated_everywhere(DictTermed()) == [
        "zweitausendzwölf", "A DOG.", "<p>zweitausendzwölf</p><p>A DOG.</p>",
        XLIFF.format(UNIT.format(1, "2012", SUGGESTED.format("zweitausendzwölf"))), "zweitausendzwölf",
        "zweitausendzwölf"]


def test_a_translators_glossary_of_another_type_is_one_config_error_naming_it():
    translator = Bare()
    translator.glossary = ["2012"]
    with pytest.raises(ConfigError, match=r"^Bare.glossary: expected a Glossary .* got list \['2012'\]$"):
        translate_lines(["2012"], translator)
