"""LibreOffice's flat XML files (.fodt, .fodp, .fods): translated as the same content zipped is.
Read as plain text, every line of their XML went to the model and the file came back broken."""

import io

import pytest
from flat_files import CHART, MEDIA, NAMESPACES, STYLES, chart_frame, charted_body, flat_file, zipped_file
from lxml import etree
from office_files import SOFFICE, libreoffice_csv, libreoffice_saved, odf_bytes, read_members
from support import everything_listed

from attnmt.documents.files import supported_suffixes, translate_file_bytes
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError

TEXT = NAMESPACES["text"]
FO_LANGUAGE = f"{{{NAMESPACES['fo']}}}language"
FO_COUNTRY = f"{{{NAMESPACES['fo']}}}country"
PRESENTATION_BODY = ('<office:presentation><draw:page draw:name="p1"><draw:frame svg:width="20cm" svg:height="3cm">'
                     '<draw:text-box><text:p>The boy laughs.</text:p></draw:text-box></draw:frame>'
                     '<presentation:notes><draw:frame><draw:text-box><text:p>Say hello to the people.</text:p>'
                     '</draw:text-box></draw:frame></presentation:notes></draw:page></office:presentation>')
SHEET_BODY = ('<office:spreadsheet><table:table table:name="Sheet1"><table:table-row>'
              '<table:table-cell office:value-type="string"><text:p>A dog runs.</text:p>'
              '<office:annotation><dc:creator>Ann</dc:creator><text:p>Check the red car.</text:p></office:annotation>'
              '</table:table-cell><table:table-cell office:value-type="float" office:value="12"><text:p>12</text:p>'
              '</table:table-cell></table:table-row></table:table></office:spreadsheet>')
BODIES = {".fodt": ("text", None), ".fodp": ("presentation", PRESENTATION_BODY), ".fods": ("spreadsheet", SHEET_BODY)}


def paragraphs(root: etree._Element) -> list[str]:
    """The text of every paragraph and heading, in document order, its notes' and annotations' apart."""
    return ["".join(node.text or "" for node in p.xpath("self::*|.//text:span", namespaces={"text": TEXT}))
            + "".join(child.tail or "" for child in p.iter() if child is not p)
            for p in root.iter(f"{{{TEXT}}}p", f"{{{TEXT}}}h")]


def zipped_paragraphs(data: bytes) -> list[str]:
    members = read_members(data)
    return [text for name in ("styles.xml", "content.xml") for text in paragraphs(etree.fromstring(members[name]))]


@pytest.mark.parametrize("suffix", list(BODIES))
def test_a_flat_file_is_translated_as_the_same_zipped_file_is(mirror, suffix):
    kind, body = BODIES[suffix]
    pieces = {} if body is None else {"body": body}
    options = DocumentOptions(target_lang="de")
    flat = etree.fromstring(translate_office(flat_file(kind, **pieces), suffix, mirror, options))
    zipped = translate_office(zipped_file(kind, **pieces), "." + suffix[2:], mirror, options)
    assert sorted(paragraphs(flat)) == sorted(zipped_paragraphs(zipped))
    assert {node.get(FO_LANGUAGE) for node in flat.iter() if node.get(FO_LANGUAGE)} == {"de"}


@pytest.mark.parametrize("none", ["zxx", "und", "mul"])
def test_a_style_that_names_no_language_keeps_it_and_its_country(mirror, none):
    """LibreOffice's "[None]", what code is set in so that it is not checked for spelling: it came
    out ``fo:language="de"``, its ``fo:country="none"`` gone, the command checked as German."""
    styles = STYLES.replace('<style:text-properties style:font-name="Liberation Mono"/>',
                            f'<style:text-properties fo:language="{none}" fo:country="none" '
                            'style:font-name="Liberation Mono"/>')
    options = DocumentOptions(target_lang="de")
    out = etree.fromstring(translate_office(flat_file(styles=styles), ".fodt", mirror, options))
    style = NAMESPACES["style"]
    said = {properties.getparent().get(f"{{{style}}}name"): (properties.get(FO_LANGUAGE), properties.get(FO_COUNTRY))
            for properties in out.iter(f"{{{style}}}text-properties")}
    assert said["Source_20_Text"] == (none, "none") and said["Standard"] == ("de", None)


def test_a_flat_text_translates_headers_notes_and_annotations_and_keeps_code(mirror):
    out = translate_office(flat_file(), ".fodt", mirror, DocumentOptions(target_lang="de")).decode()
    for translated in ("TEXT. HEADER THE", "TEXT. FOOTER THE", "HERE. TITLE THE", "MORE. SAYS NOTE THE",
                       "SENTENCE. THIS CHECK", "SLEEPS. CAT A", '<text:span text:style-name="T1">GREEN</text:span>'):
        assert translated in out
    assert '<text:span text:style-name="Source_20_Text">ls -l /tmp</text:span>' in out
    assert "<dc:creator>Ann</dc:creator>" in out and "<text:p>7</text:p>" in out
    assert out.startswith("<?xml version='1.0' encoding='UTF-8'?>\n<office:document ")


def test_a_flat_texts_chart_has_its_title_and_labels_translated_and_its_numbers_kept(mirror):
    """The chart's label (its table's string cell) stayed in the source in its legend."""
    out = translate_office(flat_file(body=charted_body()), ".fodt", mirror, DocumentOptions()).decode()
    assert "DOGS. OF NUMBER THE" in out and "FOLLOWS. CHART A" in out
    assert "<text:p>SEEN DOGS</text:p>" in out and "<text:p>3</text:p>" in out


@pytest.mark.parametrize("suffix, body", [
    (".fods", '<office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell>'
              f'{chart_frame()}</table:table-cell></table:table-row></table:table></office:spreadsheet>'),
    (".fodt", '<office:text><table:table table:name="T"><table:table-row><table:table-cell office:value-type="string">'
              f'<text:p>A chart follows.{chart_frame()}</text:p></table:table-cell></table:table-row></table:table>'
              '</office:text>')])
def test_a_flat_files_chart_in_a_table_cell_has_its_title_translated_and_its_numbers_kept(mirror, suffix, body):
    """A chart whose frame sits in a table's cell (a sheet's, or a table of a text) is inside that
    table: every paragraph of the chart was taken for its data, and its title kept its source."""
    kind = "spreadsheet" if suffix == ".fods" else "text"
    out = translate_office(flat_file(kind, body=body), suffix, mirror, DocumentOptions()).decode()
    assert "DOGS. OF NUMBER THE" in out and "<text:p>SEEN DOGS</text:p>" in out and "<text:p>3</text:p>" in out


def test_a_chart_cell_with_only_a_string_value_gets_no_paragraph_in_a_flat_file(mirror):
    valued = CHART.replace('<table:table-cell office:value-type="string"><text:p>Dogs seen</text:p>',
                           '<table:table-cell office:value-type="string" office:string-value="Dogs seen">')
    out = translate_office(flat_file(body=charted_body(valued)), ".fodt", mirror, DocumentOptions()).decode()
    assert 'office:string-value="Dogs seen"/>' in out and "SEEN DOGS" not in out


def test_a_review_names_a_flat_files_body_and_its_master_pages(mirror):
    review = everything_listed()
    translate_office(flat_file(), ".fodt", mirror, DocumentOptions(), review=review)
    places = [(segment.place.part, segment.place.number) for segment in review.segments]
    assert places[0] == ("office:body", 1) and ("office:master-styles", 1) in places


def test_a_flat_file_of_another_kind_is_refused_naming_its_extension(mirror):
    with pytest.raises(DataError, match=r"^a\.fodt: the file is an OpenDocument spreadsheet, not a \.fodt file: "
                                        r"give it its own extension \(\.fods\)"):
        translate_office(flat_file(media=MEDIA["spreadsheet"]), ".fodt", mirror, DocumentOptions(), name="a.fodt")


def test_xml_that_is_no_flat_file_is_refused_in_one_line(mirror):
    with pytest.raises(DataError, match=r"^a\.fodt: the root element is html, not office:document"):
        translate_office(b"<html><p>A dog runs.</p></html>", ".fodt", mirror, DocumentOptions(), name="a.fodt")
    with pytest.raises(DataError, match=r"^a\.fodt is not well-formed XML at line 1"):
        translate_office(b"<office:document", ".fodt", mirror, DocumentOptions(), name="a.fodt")


def test_a_flat_file_declaring_an_entity_is_refused_and_nothing_is_read(mirror, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("The secret words.", encoding="utf-8")
    data = flat_file(body='<office:text><text:p>&x;</text:p></office:text>').replace(
        b"<office:document ", f'<!DOCTYPE office:document [<!ENTITY x SYSTEM "{secret.as_uri()}">]>\n'
        '<office:document '.encode(), 1)
    with pytest.raises(DataError, match=r"^a\.fodt declares a DTD, which is never read"):
        translate_office(data, ".fodt", mirror, DocumentOptions(), name="a.fodt")


def test_a_flat_file_with_basic_macros_is_refused_unless_allowed(mirror):
    scripts = ('<office:scripts><office:script script:language="ooo:Basic"><ooo:libraries>'
               '<ooo:library-embedded ooo:name="Standard"><ooo:module ooo:name="Module1"><ooo:source-code>'
               'Sub Main\nEnd Sub</ooo:source-code></ooo:module></ooo:library-embedded></ooo:libraries>'
               '</office:script></office:scripts>')
    with pytest.raises(DataError, match=r"^a\.fodt: the file holds macros \(Basic modules in office:scripts\); "):
        translate_office(flat_file(before=scripts), ".fodt", mirror, DocumentOptions(), name="a.fodt")
    out = translate_office(flat_file(before=scripts), ".fodt", mirror, DocumentOptions(macros=True))
    assert b"Sub Main\nEnd Sub" in out and b"SLEEPS. CAT A" in out
    empty = ('<office:scripts><office:script script:language="ooo:Basic"><ooo:libraries/></office:script>'
             '</office:scripts>')
    assert b"SLEEPS. CAT A" in translate_office(flat_file(before=empty), ".fodt", mirror, DocumentOptions())


def test_a_flat_file_with_a_picture_over_ten_megabytes_is_read(mirror):
    picture = "A" * 11_000_000  # its base64 text: one text node past libxml2's 10 MB
    body = ('<office:text><text:p>A dog runs.<draw:frame><draw:image><office:binary-data>'
            f'{picture}</office:binary-data></draw:image></draw:frame></text:p></office:text>')
    out = translate_office(flat_file(body=body), ".fodt", mirror, DocumentOptions())
    assert b"RUNS. DOG A" in out and picture.encode() in out


def test_a_flat_file_is_a_format_files_are_translated_in(mirror):
    assert {".fodt", ".fodp", ".fods"} <= set(supported_suffixes())
    out = translate_file_bytes(flat_file(), "report.fodt", mirror, DocumentOptions())
    assert b"SLEEPS. CAT A" in out and b"The cat sleeps." not in out


def test_a_flat_files_title_and_subject_are_translated_as_an_odts_are(mirror):
    """office:meta's ``dc:title`` stayed in English in a .fodt, where an .odt's meta.xml had it translated;
    its ``dc:description`` and keywords are kept, as meta.xml's are."""
    meta = ('<office:meta><dc:title>The brown dog</dc:title><dc:subject>Dogs in the park</dc:subject>'
            '<dc:description>A draft.</dc:description></office:meta>')
    out = etree.fromstring(translate_office(flat_file(meta=meta), ".fodt", mirror, DocumentOptions()))
    dc = NAMESPACES["dc"]
    assert [out.findtext(f"{{{NAMESPACES['office']}}}meta/{{{dc}}}{name}")
            for name in ("title", "subject", "description")] == ["DOG BROWN THE", "PARK THE IN DOGS", "A draft."]


def test_a_flat_files_stated_language_says_the_target_language_as_an_odts_does(mirror):
    meta = '<office:meta><dc:language>en-US</dc:language></office:meta>'
    out = etree.fromstring(translate_office(flat_file(meta=meta), ".fodt", mirror, DocumentOptions(target_lang="de")))
    assert out.findtext(f"{{{NAMESPACES['office']}}}meta/{{{NAMESPACES['dc']}}}language") == "de"


def test_a_flat_texts_embedded_spreadsheet_is_translated_as_a_sheet_is(mirror):
    """A sheet put into a text as an object (an ``office:document`` of a spreadsheet in its ``draw:object``)
    stayed in the source's language: only charts were read.  Its words are translated, its number kept."""
    sheet = ('<office:document office:mimetype="application/vnd.oasis.opendocument.spreadsheet"><office:body>'
             '<office:spreadsheet><table:table table:name="Prices"><table:table-row>'
             '<table:table-cell office:value-type="string"><text:p>Green apples</text:p></table:table-cell>'
             '<table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell>'
             '</table:table-row></table:table></office:spreadsheet></office:body></office:document>')
    body = (f'<office:text><text:p>A table follows.<draw:frame><draw:object>{sheet}</draw:object></draw:frame>'
            '</text:p></office:text>')
    out = translate_office(flat_file(body=body), ".fodt", mirror, DocumentOptions()).decode()
    assert "<text:p>APPLES GREEN</text:p>" in out and "<text:p>3</text:p>" in out and "FOLLOWS. TABLE A" in out


WRAPPED_SHEET_BODY = (
    '<office:spreadsheet><table:table table:name="Sheet1"><table:table-row>'
    '<table:table-cell office:value-type="string"'
    ' office:string-value="A man in a red shirt&#10;is playing the guitar.">'
    '<text:p>A man in a red shirt</text:p><text:p>is playing the guitar.</text:p>'
    '<office:annotation><dc:creator>Ann</dc:creator><text:p>The customer called yesterday</text:p>'
    '<text:p>and asked for a new invoice.</text:p></office:annotation></table:table-cell>'
    '<table:table-cell office:value-type="string"><text:p>Eggs</text:p><text:p>Milk</text:p></table:table-cell>'
    '</table:table-row></table:table></office:spreadsheet>')


def cells(root: etree._Element) -> list[list[str]]:
    """Each spreadsheet cell's paragraphs' text and its ``office:string-value`` (where it has one) last."""
    value = f"{{{NAMESPACES['office']}}}string-value"
    return [["".join(p.itertext()) for p in cell.iter(f"{{{TEXT}}}p")] + ([cell.get(value)] if cell.get(value) else [])
            for cell in root.iter(f"{{{NAMESPACES['table']}}}table-cell")]


def test_a_flat_spreadsheets_sentence_wrapped_over_a_cells_lines_is_read_whole_as_an_ods_is(mirror):
    """A .fods was read a paragraph at a time, its cell's "A man in a red shirt" / "is playing the guitar." translated
    line by line (the demo model wrote the second "Eine Band spielt Gitarre."), where the same .ods's is read whole; the
    cell's ``office:string-value``, which LibreOffice shows, is taken out, as the .ods's is."""
    flat = etree.fromstring(translate_office(flat_file("spreadsheet", WRAPPED_SHEET_BODY), ".fods", mirror,
                                             DocumentOptions()))
    assert {"A man in a red shirt is playing the guitar.",
            "The customer called yesterday and asked for a new invoice."} <= set(mirror.given)
    zipped = translate_office(zipped_file("spreadsheet", WRAPPED_SHEET_BODY), ".ods", mirror, DocumentOptions())
    assert cells(flat) == cells(etree.fromstring(read_members(zipped)["content.xml"])) == [
        ["GUITAR. THE PLAYING", "IS SHIRT RED A IN MAN A",  # the cell's two lines, then its note's
         "INVOICE. NEW A FOR ASKED", "AND YESTERDAY CALLED CUSTOMER THE"], ["EGGS", "MILK"]]
    assert not list(flat.iter(f"{{{TEXT}}}line-break"))


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_flat_spreadsheets_wrapped_sentence_shows_its_translation_over_two_lines_in_libreoffice(mirror, tmp_path):
    out = translate_office(flat_file("spreadsheet", WRAPPED_SHEET_BODY), ".fods", mirror, DocumentOptions())
    shown = libreoffice_csv(out, ".fods", tmp_path)  # a cell's lines are the lines of one field, in quotes
    assert shown == ['"GUITAR. THE PLAYING', 'IS SHIRT RED A IN MAN A","EGGS', 'MILK"']


WRAPPED_CELL = ('<table:table-cell office:value-type="string"><text:p>A man in a red shirt</text:p>'
                '<text:p>is playing the guitar.</text:p></table:table-cell>')


def test_a_flat_texts_sheet_beside_words_has_its_wrapped_cell_parted_again(mirror):
    """A sheet put into a .fodt's paragraph beside its words (a frame anchored as a character) is copied into the
    paragraph's translation with its cells translated: the copy kept the line break the cell's two lines were joined
    with for reading, which Calc does not show ("GUITAR. THE PLAYINGIS SHIRT RED A IN MAN A").  The copy's lines are
    parted again, as a sheet's own are, and nothing of the joining is left in the file."""
    sheet = (f'<office:document office:mimetype="{MEDIA["spreadsheet"]}"><office:body><office:spreadsheet>'
             f'<table:table table:name="S"><table:table-row>{WRAPPED_CELL}</table:table-row></table:table>'
             '</office:spreadsheet></office:body></office:document>')
    body = (f'<office:text><text:p>A table follows.<draw:frame><draw:object>{sheet}</draw:object></draw:frame>'
            '</text:p></office:text>')
    root = etree.fromstring(translate_office(flat_file(body=body), ".fodt", mirror, DocumentOptions()))
    assert cells(root) == [["GUITAR. THE PLAYING", "IS SHIRT RED A IN MAN A"]]
    assert not list(root.iter(f"{{{TEXT}}}line-break"))
    assert {etree.QName(name).namespace for node in root.iter() for name in node.attrib} <= set(NAMESPACES.values())


def sheet_beside_words_file() -> bytes:
    """An .odt whose paragraph "A table follows." holds a sheet as a character (odfpy's addObject), its one cell's
    sentence wrapped over two lines."""
    from odf.draw import Frame, Object
    from odf.opendocument import OpenDocumentSpreadsheet, OpenDocumentText
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document, sheet = OpenDocumentText(), OpenDocumentSpreadsheet()
    table, row, cell = Table(name="S"), TableRow(), TableCell(valuetype="string")
    for line in ("A man in a red shirt", "is playing the guitar."):
        cell.addElement(P(text=line))
    row.addElement(cell)
    table.addElement(row)
    sheet.spreadsheet.addElement(table)
    frame = Frame(width="6cm", height="2cm", anchortype="as-char")
    frame.addElement(Object(href=document.addObject(sheet)))
    holder = P(text="A table follows. ")
    holder.addElement(frame)
    document.text.addElement(holder)
    return odf_bytes(document)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_a_flat_texts_sheet_beside_words_with_its_wrapped_cell_over_two_lines(mirror, tmp_path):
    """The .fodt LibreOffice saves of such an .odt, translated, and saved again by LibreOffice as an .odt, whose
    sheet odfpy reads: the cell's translation over its two lines, where it came back as one, glued."""
    from odf.opendocument import load
    from odf.table import TableCell
    from odf.text import P

    flat = libreoffice_saved(sheet_beside_words_file(), ".odt", "fodt", tmp_path / "source")
    saved = libreoffice_saved(translate_office(flat, ".fodt", mirror, DocumentOptions()), ".fodt", "odt",
                              tmp_path / "translated")
    sheet, = load(io.BytesIO(saved)).childobjects
    assert [[str(p) for p in cell.getElementsByType(P)] for cell in sheet.getElementsByType(TableCell)] == [
        ["GUITAR. THE PLAYING", "IS SHIRT RED A IN MAN A"]]
