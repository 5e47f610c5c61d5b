"""The direction of a translated Word paragraph (attnmt.documents.ooxml_language.set_direction):
the target language's, as an HTML block's ``dir`` becomes it.  A right-to-left paragraph
(``w:bidi``) and its right-to-left runs (``w:rtl``) translated into German are laid out left to
right; a left-to-right one translated into Arabic right to left, and the tables holding them alike.
A paragraph not translated keeps its own.  Mirror: words upper-cased in reverse order."""

import io

import docx
from docx.enum.style import WD_STYLE_TYPE
from lxml import etree
from office_files import docx_bytes, w, word_paragraph

from attnmt.decoding.quality import Assessment
from attnmt.documents import ooxml_language
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review


def body(data: bytes, translator, **options) -> list[etree._Element]:
    """The paragraphs of the translated file's body (python-docx's elements, read again)."""
    out = translate_office(data, ".docx", translator, DocumentOptions(**options))
    return docx.Document(io.BytesIO(out)).element.body.findall(w("p"))


def tags(properties: etree._Element | None) -> list[str]:
    return [] if properties is None else [etree.QName(child).localname for child in properties]


def right_to_left(document, text: str, style: str | None = None) -> None:
    """An Arabic-looking paragraph as Word writes one: ``w:bidi`` on it, ``w:rtl`` on its run."""
    paragraph = document.add_paragraph(style=style)
    paragraph._p.get_or_add_pPr().append(etree.Element(w("bidi")))
    run = paragraph.add_run(text)
    run._r.get_or_add_rPr().append(etree.Element(w("rtl")))


def test_a_right_to_left_paragraph_translated_into_german_is_laid_out_left_to_right(mirror):
    """It came out <w:pPr><w:bidi/></w:pPr>…<w:rPr><w:rtl/></w:rPr><w:t>Ein schnüffelt.: German set from the right."""
    document = docx.Document()
    right_to_left(document, "The dog runs.")
    right_to_left(document, "42")  # no words: not translated, it keeps its direction
    translated, kept = body(docx_bytes(document), mirror, target_lang="de")
    assert [t.text for t in translated.iter(w("t"))] == ["RUNS. DOG THE"]
    assert translated.find(f"{w('pPr')}/{w('bidi')}") is None and not list(translated.iter(w("rtl")))
    assert kept.find(f"{w('pPr')}/{w('bidi')}") is not None and len(list(kept.iter(w("rtl")))) == 1


def test_without_a_target_language_the_direction_is_kept(mirror):
    document = docx.Document()
    right_to_left(document, "The dog runs.")
    paragraph = body(docx_bytes(document), mirror)[0]
    assert paragraph.find(f"{w('pPr')}/{w('bidi')}") is not None and len(list(paragraph.iter(w("rtl")))) == 1


def test_a_style_that_sets_right_to_left_is_turned_off_on_the_paragraph(mirror):
    document = docx.Document()
    style = document.styles.add_style("Arabic", WD_STYLE_TYPE.PARAGRAPH)
    style.element.get_or_add_pPr().append(etree.Element(w("bidi")))
    document.add_paragraph("The dog runs.", style="Arabic")
    right_to_left(document, "The cat sleeps.", style="Arabic")
    for paragraph in body(docx_bytes(document), mirror, target_lang="de-DE"):
        bidi = paragraph.findall(f"{w('pPr')}/{w('bidi')}")
        assert [each.get(w("val")) for each in bidi] == ["0"]
        assert tags(paragraph.find(w("pPr")))[:2] == ["pStyle", "bidi"]


def test_a_paragraph_translated_into_arabic_is_laid_out_right_to_left(mirror):
    """Its w:bidi and its runs' w:rtl each in the schema's place: before w:jc, before w:lang."""
    document = docx.Document()
    paragraph = document.add_paragraph("The dog ", style="Heading 1")
    paragraph.alignment = 1
    bold = paragraph.add_run("runs")
    bold.bold = True
    bold._r.get_or_add_rPr().append(etree.Element(w("lang"), {w("val"): "en-US"}))
    paragraph.add_run(".")
    out = body(docx_bytes(document), mirror, target_lang="ar")[0]
    assert tags(out.find(w("pPr"))) == ["pStyle", "bidi", "jc"]
    assert out.find(f"{w('pPr')}/{w('bidi')}").get(w("val")) is None  # on, as Word writes it
    runs = out.findall(w("r"))
    assert len(runs) > 1 and all("rtl" in tags(run.find(w("rPr"))) for run in runs)
    assert ["b", "bCs", "rtl", "lang"] in [tags(run.find(w("rPr"))) for run in runs]  # bold as Arabic too
    assert "".join(t.text for t in out.iter(w("t"))) == "RUNS. DOG THE"


def test_a_paragraph_that_kept_its_source_keeps_its_direction(mirror):
    """--below-quality source: its text is still the source's, right to left."""
    review = Review(lambda sources, texts: [Assessment(0.2 if "bad" in s else 0.9, [], False) for s in sources], 0.5,
                    source_below=True)
    document = docx.Document()
    right_to_left(document, "A bad dog runs.")
    right_to_left(document, "The cat sleeps.")
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions(target_lang="de"), review=review)
    kept, translated = docx.Document(io.BytesIO(out)).element.body.findall(w("p"))
    assert kept.find(f"{w('pPr')}/{w('bidi')}") is not None and len(list(kept.iter(w("rtl")))) == 1
    assert translated.find(f"{w('pPr')}/{w('bidi')}") is None and not list(translated.iter(w("rtl")))


def test_a_style_that_sets_right_to_left_runs_is_turned_off_on_the_runs(mirror):
    """The paragraph style's, a character style's and the defaults' w:rtl: each German run came
    out right to left, saying nothing of its own; it now says <w:rtl w:val="0"/>, before w:lang."""
    document = docx.Document()
    arabic = document.styles.add_style("Arabic", WD_STYLE_TYPE.PARAGRAPH)
    arabic.element.get_or_add_rPr().append(etree.Element(w("rtl")))
    quoted = document.styles.add_style("Quoted", WD_STYLE_TYPE.CHARACTER)
    quoted.element.get_or_add_rPr().append(etree.Element(w("rtl")))
    right_to_left(document, "The dog runs.", style="Arabic")  # its own w:rtl, and its style's
    document.add_paragraph(style="Arabic").add_run("The cat sleeps.")  # its style's alone
    document.add_paragraph().add_run("A bird sings.", style="Quoted")
    document.add_paragraph().add_run("A fish swims.")._r.get_or_add_rPr().append(
        etree.Element(w("lang"), {w("val"): "ar-SA"}))
    defaults = document.styles.element.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}")
    defaults.append(etree.Element(w("rtl")))
    out = body(docx_bytes(document), mirror, target_lang="de")
    for paragraph in out:
        rtl = [each.get(w("val")) for each in paragraph.iter(w("rtl"))]
        assert rtl == ["0"], etree.tostring(paragraph)
    assert [tags(paragraph.find(f"{w('r')}/{w('rPr')}")) for paragraph in out] == [
        ["rtl"], ["rtl"], ["rStyle", "rtl"], ["rtl", "lang"]]


def test_a_run_turning_left_to_right_keeps_its_complex_script_formatting(mirror):
    """<w:bCs/><w:iCs/><w:szCs w:val="28"/><w:rtl/> came out <w:bCs/><w:iCs/><w:szCs w:val="28"/>:
    German, not right to left, in neither bold nor italic nor 14 points; a left-to-right run that
    said w:bCs alone was never bold and stays so."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    paragraph._p.get_or_add_pPr().append(etree.Element(w("bidi")))
    properties = paragraph.add_run("The dog runs.")._r.get_or_add_rPr()
    for name, value in (("bCs", None), ("iCs", "0"), ("szCs", "28"), ("rtl", None)):
        properties.append(etree.Element(w(name), {} if value is None else {w("val"): value}))
    document.add_paragraph().add_run("The cat sleeps.")._r.get_or_add_rPr().append(etree.Element(w("bCs")))
    turned, kept = body(docx_bytes(document), mirror, target_lang="de")
    run = turned.find(f"{w('r')}/{w('rPr')}")
    assert tags(run) == ["b", "bCs", "i", "iCs", "sz", "szCs"]
    assert [each.get(w("val")) for each in run] == [None, None, "0", "0", "28", "28"]
    assert tags(kept.find(f"{w('r')}/{w('rPr')}")) == ["bCs"]


def test_a_right_to_left_table_translated_into_german_has_its_first_column_on_the_left(mirror):
    """Its w:bidiVisual taken out (turned off where its style sets it); one translated into Arabic
    gets it, before w:tblW; a table with nothing translated keeps its own."""
    document = docx.Document()
    rtl_style = document.styles.add_style("Arabic Table", WD_STYLE_TYPE.TABLE)
    etree.SubElement(rtl_style.element, w("tblPr")).append(etree.Element(w("bidiVisual")))
    own, styled, kept = (document.add_table(rows=1, cols=2) for _ in range(3))
    for table in (own, kept):
        table._tbl.tblPr.insert(0, etree.Element(w("bidiVisual")))
    styled.style = "Arabic Table"
    own.cell(0, 0).text, styled.cell(0, 0).text, kept.cell(0, 0).text = "The dog runs.", "A cat.", "42"
    tables = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions(
        target_lang="de")))).element.body.findall(w("tbl"))
    assert [[each.get(w("val")) for each in table.iter(w("bidiVisual"))] for table in tables] == [[], ["0"], [None]]
    plain = docx.Document()
    plain.add_table(rows=1, cols=2).cell(0, 0).text = "The dog runs."
    table = docx.Document(io.BytesIO(translate_office(docx_bytes(plain), ".docx", mirror, DocumentOptions(
        target_lang="ar")))).element.body.find(w("tbl"))
    assert tags(table.find(w("tblPr"))) == ["bidiVisual", "tblW", "tblLook"]


def test_a_run_turning_left_to_right_keeps_its_character_styles_complex_script_bold(mirror):
    """A run in a character style of <w:bCs/><w:rtl/> came out <w:rStyle/><w:rtl w:val="0"/>:
    German, in no bold; it now gets its own <w:b/>.  One whose style says w:b too needs none."""
    document = docx.Document()
    for name, said in (("RtlBold", ("bCs", "rtl")), ("BothBold", ("b", "bCs", "rtl"))):
        properties = document.styles.add_style(name, WD_STYLE_TYPE.CHARACTER).element.get_or_add_rPr()
        for each in said:
            properties.append(etree.Element(w(each)))
        paragraph = document.add_paragraph()
        paragraph._p.get_or_add_pPr().append(etree.Element(w("bidi")))
        paragraph.add_run("A dog runs in the park.", style=name)
    out = body(docx_bytes(document), mirror, target_lang="de")
    assert [tags(paragraph.find(f"{w('r')}/{w('rPr')}")) for paragraph in out] == [
        ["rStyle", "b", "rtl"], ["rStyle", "rtl"]]


def test_each_table_holding_translated_paragraphs_is_settled_once(mirror, monkeypatch):
    """A table of three translated rows, nested in another's cell, was settled three times, and the
    outer table four (its own second row too): each is settled once now, and both are still laid
    out right to left for Arabic."""
    settled, settle = [], ooxml_language.set_table_direction
    monkeypatch.setattr(ooxml_language, "set_table_direction",
                        lambda table, styles, rtl: settled.append(table) or settle(table, styles, rtl))
    document = docx.Document()
    outer = document.add_table(rows=2, cols=1)
    outer.cell(1, 0).text = "A man reads."
    inner = outer.cell(0, 0).add_table(rows=3, cols=1)
    for row, text in enumerate(("The dog runs.", "The cat sleeps.", "A bird sings.")):
        inner.cell(row, 0).text = text
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions(target_lang="ar"))
    assert len(settled) == 2 and settled[0] is not settled[1]
    tables = docx.Document(io.BytesIO(out)).element.body.iter(w("tbl"))
    assert [[each.get(w("val")) for each in table.findall(f"{w('tblPr')}/{w('bidiVisual')}")] for table in tables] == [
        [None], [None]]


def test_a_right_to_left_run_of_hebrew_in_english_is_kept_whole_and_stays_right_to_left(mirror):
    """Word writes a Hebrew quote in English text as a run of its own with ``w:rtl``: the model was given
    "The word שלום עולם means hello world." (its Hebrew reversed by Mirror, lost by a real model), and the
    run translated into German lost its ``w:rtl``.  Its letters all written against English, it is kept whole,
    as a direction override around them is, and stays right to left."""
    hebrew = '<w:r><w:rPr><w:rtl/><w:lang w:bidi="he-IL"/></w:rPr><w:t>שלום עולם</w:t></w:r>'
    data = word_paragraph(f'<w:r><w:t xml:space="preserve">The word </w:t></w:r>{hebrew}'
                          '<w:r><w:t xml:space="preserve"> means hello world.</w:t></w:r>')
    paragraph = body(data, mirror, source_lang="en", target_lang="de")[0]
    assert mirror.given == ["The word means hello world."]
    assert [("".join(t.text for t in run.iter(w("t"))), run.find(f"{w('rPr')}/{w('rtl')}") is not None)
            for run in paragraph.iter(w("r"))] == [("WORLD. HELLO ", False), ("שלום עולם", True),
                                                    (" MEANS WORD THE", False)]
