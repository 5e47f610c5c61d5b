"""What a document says of the text a review kept in its source (``Review(source_below=True)``,
``--below-quality source``): a block, a Word or PowerPoint paragraph, an XLIFF target whose every
sentence kept its source is not said to be in the target language; one with some translated is.
Mirror: words upper-cased in reverse order; a sentence with "bad" in it is under the threshold."""

import io

import docx
import pptx
import pytest
from lxml import etree
from office_files import W, book_file, docx_bytes, read_members
from pptx.util import Inches

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.documents.xliff import translate_xliff
from attnmt.errors import AttnmtWarning

GERMAN = DocumentOptions(target_lang="de")
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def turning_down(bad=lambda sentence: "bad" in sentence) -> Review:
    """A review that turns down each ``bad`` sentence (quality 0.2, else 0.9) and keeps its source."""
    from attnmt.decoding.quality import Assessment

    return Review(lambda sources, texts: [Assessment(0.2 if bad(s) else 0.9, [], False) for s in sources], 0.5,
                  source_below=True)


def test_a_page_whose_sentences_all_kept_their_source_keeps_its_language(mirror):
    """It came out <html lang="de"><body lang="de"><p lang="de">A bad dog runs.: English said to be German."""
    page = ('<!DOCTYPE html>\n<html lang="en"><head><title>A bad page</title></head>\n<body lang="en">\n'
            '<p lang="en">A bad dog runs.</p>\n</body></html>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert 'lang="de"' not in out and '<p lang="en">A bad dog runs.</p>' in out and '<html lang="en">' in out


def test_a_kept_block_beside_a_translated_one_keeps_its_language_a_mixed_one_says_the_target(mirror):
    page = ('<div lang="en"><p lang="en">A bad dog runs.</p><p lang="en">A cat sleeps.</p>'
            '<p lang="en">A bad dog runs. A cat sleeps.</p></div>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert out == ('<div lang="de"><p lang="en">A bad dog runs.</p><p lang="de">SLEEPS. CAT A</p>'
                   '<p lang="de">A bad dog runs. SLEEPS. CAT A</p></div>')


@pytest.mark.parametrize("block, kept", [
    ('<div><p>A cat sleeps.</p><a href="/more">Read bad news</a></div>', '<a href="/more" lang="en">Read bad news</a>'),
    ('<ul><li><a href="/p">Our bad products</a><ul><li>A cat sleeps.</li></ul></li></ul>',
     '<a href="/p" lang="en">Our bad products</a>'),
    ('<div><p>A cat sleeps.</p> <!-- more --> <button>Send bad news</button> </div>',
     '<button lang="en">Send bad news</button>'),
])
def test_a_kept_link_or_button_beside_a_translated_block_says_the_sources_language(mirror, block, kept):
    """Its block holds translated text, and says the target: the kept link, all its run shows, read as German."""
    page = f'<html lang="en"><body>{block}</body></html>'
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert kept in out and ">SLEEPS. CAT A<" in out


def test_a_kept_link_inside_a_kept_block_states_nothing_its_block_says(mirror):
    """Each link of a breadcrumb is a block of its own: the kept ones were said English one by one, then the <nav>
    around them too, ``<nav lang="en"><a lang="en">A bad docs</a> › <a lang="en">A bad guide</a>``."""
    page = ('<html lang="en"><body><nav><a href="/">A bad docs</a> › <a href="/g">A bad guide</a> › A bad start</nav>'
            '<p>A cat sleeps.</p></body></html>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert '<nav lang="en"><a href="/">A bad docs</a> › <a href="/g">A bad guide</a> › A bad start</nav>' in out


def test_a_kept_element_beside_words_of_its_run_states_nothing(mirror):
    """Only where one element shows all its run does it speak for it; "Read" beside the link is no element's."""
    page = '<html lang="en"><body><div><p>A cat sleeps.</p>Read <a href="/x">bad news</a></div></body></html>'
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert 'Read <a href="/x">bad news</a>' in out


def test_an_inline_element_in_a_kept_block_keeps_its_language_one_in_a_translated_block_says_the_target(mirror):
    page = ('<html lang="en"><body><p>A bad <span lang="en-US">dog</span> runs.</p>'
            '<p>A <span lang="en-US">cat</span> sleeps.</p></body></html>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert '<p lang="en">A bad <span lang="en-US">dog</span> runs.</p>' in out
    assert '<p>SLEEPS. <span lang="de">CAT</span> A</p>' in out


def test_an_inline_element_around_a_kept_sentence_of_a_mixed_block_keeps_its_language(mirror):
    """The second span, its sentence kept in English, came out <span lang="de">A bad dog runs.</span>;
    one around two kept sentences keeps its language too, and one around a kept and a translated
    sentence holds translated words, and says the target."""
    page = ('<p><span lang="en">A cat sleeps.</span> <span lang="en">A bad dog runs.</span></p>'
            '<p><i lang="en">A bad dog runs. A bad cat runs.</i> A cat sleeps.</p>'
            '<p><b lang="en">A cat sleeps. A bad dog runs.</b> A bad cat runs.</p>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert out == ('<p><span lang="de">SLEEPS. CAT A</span> <span lang="en">A bad dog runs.</span></p>'
                   '<p><i lang="en">A bad dog runs. A bad cat runs.</i> SLEEPS. CAT A</p>'
                   '<p><b lang="de">SLEEPS. CAT A A bad dog runs.</b> A bad cat runs.</p>')


def test_an_epub_page_whose_sentences_all_kept_their_source_keeps_its_language(mirror):
    review = turning_down(lambda sentence: True)
    out = read_members(translate_file_bytes(book_file(), "book.epub", mirror, GERMAN, review=review))
    page = etree.fromstring(out["EPUB/one.xhtml"])
    assert page.get("lang") == page.get(XML_LANG) == "en"
    assert "de" not in {element.get("lang") for element in page.iter()}
    assert b'xml:lang="de"' not in out["EPUB/toc.ncx"]


def test_the_package_of_a_book_whose_every_sentence_kept_its_source_keeps_its_language(mirror):
    """content.opf said <dc:language>de</dc:language> over the English book."""
    out = read_members(translate_file_bytes(book_file(), "book.epub", mirror, GERMAN,
                                            review=turning_down(lambda sentence: True)))
    assert b"<dc:language>en</dc:language>" in out["EPUB/content.opf"]


def test_the_package_of_a_book_with_something_translated_says_the_target_language(mirror):
    out = read_members(translate_file_bytes(book_file(), "book.epub", mirror, GERMAN, review=turning_down()))
    assert b"<dc:language>de</dc:language>" in out["EPUB/content.opf"]


def test_a_kept_block_that_would_inherit_the_target_language_from_the_root_states_the_source(mirror):
    """Only <html lang="en"> stated the language: it said "de" once the paragraph was translated,
    and the kept English heading with it."""
    page = '<!DOCTYPE html>\n<html lang="en-GB"><body><h1>A bad title</h1><p>A dog runs.</p></body></html>'
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert '<html lang="de"><head><meta charset="utf-8"></head><body><h1 lang="en-GB">A bad title</h1>' in out


def test_an_element_whose_attributes_kept_their_source_states_it_where_it_holds_no_text(mirror):
    """A kept <img alt> on a page whose <html lang> became "de" was declared German; an element with
    text in it (<abbr>) would re-label that text, and a translated attribute is the target's."""
    page = ('<!DOCTYPE html>\n<html lang="en"><body><p>A cat sleeps.</p><img alt="A bad picture">'
            '<img alt="A good picture"><p><abbr title="A bad name">WHO</abbr> sleeps.</p></body></html>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert out == ('<!DOCTYPE html>\n<html lang="de"><head><meta charset="utf-8"></head><body><p>SLEEPS. CAT A</p>'
                   '<img alt="A bad picture" lang="en"><img alt="PICTURE GOOD A">'
                   '<p>SLEEPS. <abbr title="A bad name">WHO</abbr></p></body></html>')  # kept whole, over its copy


def test_a_kept_block_states_its_language_only_where_it_would_inherit_the_target(mirror):
    page = ('<div lang="en"><p>A bad dog runs.</p><p>A cat sleeps.</p></div>'
            '<section lang="en"><p>A bad dog runs.</p></section><p>A bad dog runs.</p>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert out == ('<div lang="de"><p lang="en">A bad dog runs.</p><p>SLEEPS. CAT A</p></div>'
                   '<section lang="en"><p>A bad dog runs.</p></section><p>A bad dog runs.</p>')


@pytest.mark.parametrize("target, stated", [("de", ' dir="ltr"'), ("ar", ' dir="rtl"')])
def test_a_kept_block_holding_a_translated_one_leaves_the_translation_in_the_target_language(mirror, target,
                                                                                               stated):
    """<li lang="en">A bad first point.<ul><li>SLEEPS. CAT A: the translation was read as English
    (and, for Arabic, written left to right).  The kept text alone says English, in a <span> of its own."""
    page = ('<!DOCTYPE html><html lang="en" dir="ltr"><body><ul><li>A bad first point.<ul><li>A cat sleeps.</li>'
            '</ul></li></ul><blockquote>A bad quote.<p>A cat sleeps.</p></blockquote></body></html>')
    out = translate_markup([page], mirror, DocumentOptions(target_lang=target), review=turning_down())[0]
    assert f'<html lang="{target}"{stated}>' in out
    english = '<span lang="en">' if target == "de" else '<span lang="en" dir="ltr">'
    assert f"<li>{english}A bad first point.</span><ul><li>SLEEPS. CAT A</li></ul></li>" in out
    assert f"<blockquote>{english}A bad quote.</span><p>SLEEPS. CAT A</p></blockquote>" in out


def test_a_kept_block_on_a_page_turned_right_to_left_states_its_own_direction(mirror):
    """The root now says dir="rtl" for an Arabic page: the English title kept under it is stated left to right."""
    page = '<!DOCTYPE html>\n<html lang="en-GB"><body><h1>A bad title</h1><p>A dog runs.</p></body></html>'
    out = translate_markup([page], mirror, DocumentOptions(target_lang="ar"), review=turning_down())[0]
    assert '<html lang="ar" dir="rtl">' in out and '<h1 lang="en-GB" dir="ltr">A bad title</h1>' in out


def test_a_kept_xhtml_block_states_the_source_language_in_lang_and_xml_lang(mirror):
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" '
            'lang="en"><head><title>A cat</title></head><body><p>A bad dog runs.</p><p>A cat sleeps.</p></body></html>')
    out = translate_markup([page], mirror, GERMAN, review=turning_down())[0]
    assert '<p lang="en" xml:lang="en">A bad dog runs.</p><p>SLEEPS. CAT A</p>' in out
    assert 'xml:lang="de" lang="de"' in out


def test_a_kept_epub_heading_on_a_translated_page_states_the_source_language(mirror):
    review = turning_down(lambda sentence: "first" in sentence)
    out = read_members(translate_file_bytes(book_file(), "book.epub", mirror, GERMAN, review=review))
    page = etree.fromstring(out["EPUB/one.xhtml"])
    heading = page.find(".//{*}h1")
    assert page.get("lang") == page.get(XML_LANG) == "de"
    assert heading.get("lang") == heading.get(XML_LANG) == "en" and heading.text == "The first chapter"


def word_languages(data: bytes) -> list[tuple[str, list[str | None]]]:
    """(text, the w:lang of each run) of each paragraph of a Word file's body."""
    body = etree.fromstring(read_members(data)["word/document.xml"])
    lang = f"{{{W}}}rPr/{{{W}}}lang"
    return [("".join(t.text or "" for t in p.iter(f"{{{W}}}t")),
             [None if run.find(lang) is None else run.find(lang).get(f"{{{W}}}val") for run in p.iter(f"{{{W}}}r")])
            for p in body.iter(f"{{{W}}}p")]


def test_a_word_paragraph_that_kept_its_source_says_the_source_language_on_its_runs(mirror):
    """The styles' default w:lang became de-DE over the kept English paragraph, whose runs said none."""
    document = docx.Document()
    document.add_paragraph("A cat sleeps.")
    paragraph = document.add_paragraph("A ")
    paragraph.add_run("bad").bold = True
    paragraph.add_run(" dog runs.")
    out = translate_file_bytes(docx_bytes(document), "report.docx", mirror, DocumentOptions(target_lang="de-DE"),
                               review=turning_down())
    assert word_languages(out) == [("SLEEPS. CAT A", [None]), ("A bad dog runs.", ["en", "en", "en"])]
    styles = etree.fromstring(read_members(out)["word/styles.xml"])
    assert {lang.get(f"{{{W}}}val") for lang in styles.iter(f"{{{W}}}lang")} == {"de-DE"}  # translated text's


def test_a_kept_word_run_says_the_language_it_stated_and_its_paragraph_mark_too(mirror):
    """They came out "en" (options.source_lang), the French run's fr-FR, the en-GB run's and the
    mark's en-US lost: set_language had said de-DE over them all before the paragraphs were read."""
    document = docx.Document()
    document.add_paragraph("A cat sleeps.")
    for text, stated in (("Le bad chien court.", "fr-FR"), ("A bad colour.", "en-GB")):
        properties = document.add_paragraph().add_run(text)._r.get_or_add_rPr()
        properties.append(properties.makeelement(f"{{{W}}}lang", {f"{{{W}}}val": stated, f"{{{W}}}bidi": "ar-SA"}))
    marked = document.add_paragraph("A bad dog runs.")._p.get_or_add_pPr()
    marked.append(marked.makeelement(f"{{{W}}}rPr", {}))
    marked[-1].append(marked.makeelement(f"{{{W}}}lang", {f"{{{W}}}val": "en-US"}))
    out = translate_file_bytes(docx_bytes(document), "report.docx", mirror, DocumentOptions(target_lang="de-DE"),
                               review=turning_down())
    assert word_languages(out) == [("SLEEPS. CAT A", [None]), ("Le bad chien court.", ["fr-FR"]),
                                   ("A bad colour.", ["en-GB"]), ("A bad dog runs.", ["en"])]
    body = read_members(out)["word/document.xml"]
    mark = etree.fromstring(body).find(f".//{{{W}}}pPr/{{{W}}}rPr/{{{W}}}lang")
    assert mark.get(f"{{{W}}}val") == "en-US" and b"attnmt" not in body
    assert b'w:bidi="ar-SA"' in body


def slide_runs(mirror, first: str, languages: tuple[str | None, str | None]) -> tuple[list[tuple], bytes]:
    """A slide of a text box with ``first`` and "A cat sleeps.", their runs stating ``languages``
    (None: no lang, as python-pptx writes them), translated into de-DE with a review turning down
    "bad" sentences: (each run's text and lang, the slide's part)."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(2)).text_frame
    frame.text = first
    frame.add_paragraph().text = "A cat sleeps."
    for paragraph, lang in zip(frame.paragraphs, languages, strict=True):
        if lang:
            paragraph.runs[0]._r.get_or_add_rPr().set("lang", lang)
    out = io.BytesIO()
    deck.save(out)
    translated = read_members(translate_file_bytes(out.getvalue(), "talk.pptx", mirror,
                                                   DocumentOptions(target_lang="de-DE"), review=turning_down()))
    part = translated["ppt/slides/slide1.xml"]
    runs = etree.fromstring(part).iter(f"{{{A}}}r")
    return [(run.findtext(f"{{{A}}}t"), run.find(f"{{{A}}}rPr").get("lang")) for run in runs], part


def test_a_slide_paragraph_that_kept_its_source_says_the_source_language(mirror):
    runs, _ = slide_runs(mirror, "A bad dog runs.", (None, None))
    assert runs == [("A bad dog runs.", "en"), ("SLEEPS. CAT A", "de-DE")]


def test_a_kept_slide_run_says_the_language_it_stated(mirror):
    """It came out "en" (options.source_lang), its fr-FR lost to set_language's de-DE."""
    runs, part = slide_runs(mirror, "Le bad chien court.", ("fr-FR", "en-GB"))
    assert runs == [("Le bad chien court.", "fr-FR"), ("SLEEPS. CAT A", "de-DE")]
    assert b"attnmt" not in part


XLIFF_2 = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">'
           '<file id="f"><unit id="1"><segment><source>A bad dog runs.</source></segment></unit>'
           '<unit id="2"><segment state="initial"><source>A cat sleeps.</source><target/></segment></unit>'
           '<unit id="3"><segment><source>A bad dog runs. A cat sleeps.</source></segment></unit></file></xliff>')
XLIFF_1 = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file source-language="en" '
           'target-language="de" datatype="plaintext" original="a"><body>'
           '<trans-unit id="1"><source>A bad dog runs.</source><target state="new"/></trans-unit>'
           '<trans-unit id="2"><source>A cat sleeps.</source></trans-unit>'
           '<trans-unit id="3"><source>A bad dog runs. A cat sleeps.</source></trans-unit></body></file></xliff>')


def test_an_xliff_2_segment_that_kept_its_source_gets_no_target_one_partly_kept_is_initial(mirror):
    """The source was written as its target, state="translated": finished, and never translated again."""
    out = translate_xliff(XLIFF_2, mirror, GERMAN, review=turning_down())
    assert out.startswith(XLIFF_2[:XLIFF_2.index("<unit")] + '<unit id="1"><segment><source>A bad dog runs.</source>'
                          '</segment></unit>')
    assert '<segment state="translated"><source>A cat sleeps.</source><target>SLEEPS. CAT A</target>' in out
    assert ('<segment state="initial"><source>A bad dog runs. A cat sleeps.</source>'
            '<target>A bad dog runs. SLEEPS. CAT A</target>') in out


def test_an_xliff_1_unit_that_kept_its_source_keeps_its_empty_target_one_partly_kept_needs_translation(mirror):
    out = translate_xliff(XLIFF_1, mirror, GERMAN, review=turning_down())
    assert '<trans-unit id="1"><source>A bad dog runs.</source><target state="new"/></trans-unit>' in out
    assert ('<target state="needs-review-translation" state-qualifier="mt-suggestion">SLEEPS. CAT A</target>'
            in out)
    assert ('<target state="needs-translation" state-qualifier="mt-suggestion">A bad dog runs. SLEEPS. CAT A'
            '</target>') in out


def test_a_memoq_unit_is_said_pretranslated_only_where_its_target_was_translated(mirror):
    """A unit that kept its source (all of it, or some) is still to translate: it stays NotStarted."""
    memoq = XLIFF_1.replace('version="1.2"', 'xmlns:mq="MQXliff" version="1.2"').replace(
        '<trans-unit id="', '<trans-unit mq:status="NotStarted" id="')
    out = translate_xliff(memoq, mirror, GERMAN, review=turning_down())
    assert ('<trans-unit mq:status="NotStarted" id="1"><source>A bad dog runs.</source><target state="new"/>'
            '</trans-unit>') in out
    assert '<trans-unit mq:status="Pretranslated" id="2"><source>A cat sleeps.</source>' in out
    assert '<trans-unit mq:status="NotStarted" id="3"><source>A bad dog runs. A cat sleeps.</source>' in out


def test_a_target_that_kept_some_source_is_translated_again_by_a_later_run(mirror):
    """"For a translator or a later run to fill": a later run kept it, English and all."""
    once = translate_xliff(XLIFF_1, mirror, GERMAN, review=turning_down())
    with pytest.warns(AttnmtWarning, match=r"^input: 1 unit\(s\) kept"):  # the one translated in full
        again = translate_xliff(once, mirror, GERMAN)
    assert ('<target state="needs-review-translation" state-qualifier="mt-suggestion">RUNS. DOG BAD A SLEEPS. CAT A'
            '</target>') in again


SEGMENTED = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file source-language="en" '
             'target-language="de" datatype="plaintext" original="a"><body><trans-unit id="1">'
             '<source>A child plays. A cat sleeps. A bad dog runs.</source><seg-source>'
             '<mrk mtype="seg" mid="1">A child plays.</mrk> <mrk mtype="seg" mid="2">A cat sleeps.</mrk> '
             '<mrk mtype="seg" mid="3">A bad dog runs.</mrk></seg-source><target>'
             '<mrk mtype="seg" mid="1">Ein Kind spielt (geprüft).</mrk> <mrk mtype="seg" mid="2"/> '
             '<mrk mtype="seg" mid="3"/></target></trans-unit></body></file></xliff>')


def test_a_segment_that_kept_its_source_stays_empty_and_a_later_run_keeps_the_persons_segment(mirror):
    """The whole target said state="needs-translation", and the next run translated every segment
    again, the person's "Ein Kind spielt (geprüft)." replaced by the model's."""
    once = translate_xliff(SEGMENTED, mirror, GERMAN, review=turning_down())
    assert ('<target state="needs-review-translation" state-qualifier="mt-suggestion">'
            '<mrk mtype="seg" mid="1">Ein Kind spielt (geprüft).</mrk> <mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk> '
            '<mrk mtype="seg" mid="3"/></target>') in once
    mirror.given.clear()
    again = translate_xliff(once, mirror, GERMAN)
    assert ('<mrk mtype="seg" mid="1">Ein Kind spielt (geprüft).</mrk> <mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk> '
            '<mrk mtype="seg" mid="3">RUNS. DOG BAD A</mrk></target>') in again
    assert mirror.given == ["A bad dog runs."]


def test_a_segmented_target_written_whole_leaves_its_kept_segment_empty_not_the_target_to_translate(mirror):
    fresh = SEGMENTED.replace('<mrk mtype="seg" mid="1">Ein Kind spielt (geprüft).</mrk>', '<mrk mtype="seg" mid="1"/>')
    out = translate_xliff(fresh, mirror, GERMAN, review=turning_down())
    assert ('<target state="needs-review-translation" state-qualifier="mt-suggestion">'
            '<mrk mtype="seg" mid="1">PLAYS. CHILD A</mrk> <mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk> '
            '<mrk mtype="seg" mid="3"/></target>') in out


def test_a_segment_partly_kept_stays_as_it_came_too(mirror):
    """A segment is what a CAT tool confirms whole: one holding some English is no translation."""
    partly = SEGMENTED.replace('mid="3">A bad dog runs.</mrk>', 'mid="3">A bad dog runs. A cat sleeps.</mrk>')
    out = translate_xliff(partly, mirror, GERMAN, review=turning_down())
    assert '<mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk> <mrk mtype="seg" mid="3"/></target>' in out
    assert 'state="needs-translation"' not in out
