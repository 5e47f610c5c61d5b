"""OpenDocument text as LibreOffice writes it: a paragraph whose every character is in a span,
tracked deletions, ranges over words; each translated and read back with odfpy.  Mirror: words
upper-cased in reverse order, each aligned to its source word."""

import io

import pytest
from flat_files import NAMESPACES, flat_file, zipped_file
from lxml import etree
from office_files import embedded_sheet_file, master_page_file, odf_bytes, read_members, text_file, write_members
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
OFFICE, XLINK, DRAW = NAMESPACES["office"], NAMESPACES["xlink"], NAMESPACES["draw"]


def test_a_paragraph_all_in_spans_keeps_the_spaces_between_them_in_spans(mirror):
    """LibreOffice writes a converted run's look as a span over every character (10 pt spans in a
    28 pt paragraph): the spaces between the translated spans were written outside every span,
    in the paragraph's 28 pt, and the line grew taller.  They now go into the span before them."""
    from odf import text
    from odf.opendocument import load

    members = read_members(text_file())
    spans = ('<text:span text:style-name="Bold">A dog </text:span><text:span text:style-name="T9">runs</text:span>'
             '<text:span text:style-name="Bold"> on the green grass.</text:span>')
    content = members["content.xml"].decode()
    start = content.index(">A dog runs on the ") + 1
    end = content.index("</text:p>", start)
    members["content.xml"] = (content[:start] + spans + content[end:]).encode()
    out = translate_office(write_members(members), ".odt", mirror, DocumentOptions())
    paragraph = load(io.BytesIO(out)).text.getElementsByType(text.P)[0]
    assert [(getattr(node, "tagName", "text"), str(node)) for node in paragraph.childNodes] == [
        ("text:span", "GRASS. GREEN THE ON "), ("text:span", "RUNS "), ("text:span", "DOG A")]


def test_an_odt_tracked_deletion_is_kept_as_it_was(mirror):
    """LibreOffice keeps the words a tracked change deleted as paragraphs in text:tracked-changes:
    "very old " was translated as a sentence of its own, where Word's w:delText is kept."""
    from odf import text
    from odf.opendocument import load

    members = read_members(master_page_file(".odt"))
    deleted = ('<text:tracked-changes><text:changed-region text:id="ct1"><text:deletion><office:change-info>'
               '<dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">Anna</dc:creator></office:change-info>'
               '<text:p>very old </text:p></text:deletion>'
               '</text:changed-region></text:tracked-changes>')
    content = members["content.xml"].decode().replace("<office:text>", f"<office:text>{deleted}", 1)
    members["content.xml"] = content.replace(">A dog runs.<", '>A <text:change text:change-id="ct1"/>dog runs.<',
                                             1).encode()
    assert b"very old" in members["content.xml"] and b"text:change " in members["content.xml"]
    out = translate_office(write_members(members), ".odt", mirror, DocumentOptions())
    deletion, paragraph = load(io.BytesIO(out)).text.getElementsByType(text.P)
    assert (str(deletion), str(paragraph)) == ("very old ", "RUNS. DOG A")
    assert mirror.given == ["A dog runs.", "The header text."]


# A Calc change history as LibreOffice writes it (and reads back): cell A1 of the first sheet held "The old
# cat sleeps." before it was changed to "A dog runs."
CELL_CHANGE = ('<table:tracked-changes table:track-changes="true"><table:cell-content-change table:id="ct1">'
               '<table:cell-address table:column="0" table:row="0" table:table="0"/><office:change-info>'
               '<dc:creator>Anna</dc:creator><dc:date>2024-05-01T10:00:00</dc:date></office:change-info>'
               '<table:previous><table:change-track-table-cell office:value-type="string">'
               '<text:p>The old cat sleeps.</text:p></table:change-track-table-cell></table:previous>'
               '</table:cell-content-change></table:tracked-changes>')
CHANGED_SHEET = (f'<office:spreadsheet>{CELL_CHANGE}<table:table table:name="S"><table:table-row><table:table-cell '
                 'office:value-type="string"><text:p>A dog runs.</text:p></table:table-cell></table:table-row>'
                 '</table:table></office:spreadsheet>')


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_a_calc_cells_old_content_in_its_change_history_is_kept_as_it_was(upper, suffix):
    """Calc keeps a changed cell's old content in table:tracked-changes, as Writer keeps deleted words in
    text:tracked-changes: it was translated, and rejecting the change put a translated old value back."""
    data = (flat_file if suffix == ".fods" else zipped_file)("spreadsheet", body=CHANGED_SHEET)
    out = translate_office(data, suffix, upper, DocumentOptions())
    content = etree.fromstring(out if suffix == ".fods" else read_members(out)["content.xml"])
    table = NAMESPACES["table"]
    old, = content.iter(f"{{{table}}}change-track-table-cell")
    assert "".join(old.itertext()) == "The old cat sleeps."
    assert "The old cat sleeps." not in upper.given and "A dog runs." in upper.given


def test_a_flat_odt_deletion_held_in_its_paragraph_is_kept_as_it_was(mirror):
    """LibreOffice 7.4 writes a .fodt's tracked deletion in its paragraph, between the change's start and
    end, its text:deletion empty: the deleted words went to the model with the sentence and came back
    translated, and the change's end took a translated word with it.  They are kept in the region now."""
    region = ('<text:tracked-changes><text:changed-region text:id="ct1"><text:deletion><office:change-info>'
              '<dc:creator>Anna</dc:creator></office:change-info></text:deletion></text:changed-region>'
              '</text:tracked-changes>')
    body = (f'<office:text>{region}<text:p text:style-name="Standard">A dog <text:change-start '
            'text:change-id="ct1"/>very old <text:change-end text:change-id="ct1"/>runs.</text:p></office:text>')
    out = etree.fromstring(translate_office(flat_file(body=body), ".fodt", mirror, DocumentOptions()))
    deleted, paragraph = out.find(f"{{{OFFICE}}}body").iter(f"{{{TEXT}}}p")
    assert mirror.given[0] == "A dog runs."
    assert (deleted.text, deleted.get(f"{{{TEXT}}}style-name")) == ("very old ", "Standard")
    assert deleted.getparent().tag == f"{{{TEXT}}}deletion"
    assert "".join(paragraph.itertext()) == "RUNS. DOG A"
    assert [(child.tag, dict(child.attrib)) for child in paragraph] == [
        (f"{{{TEXT}}}change", {f"{{{TEXT}}}change-id": "ct1"})]


def test_a_string_cell_with_a_value_and_no_paragraph_is_translated_into_a_paragraph(mirror):
    """odfpy writes ``TableCell(valuetype="string", stringvalue=…)`` with no P as a cell whose text
    is its office:string-value alone, which LibreOffice shows: only paragraphs were read, and the
    cell stayed in English.  Its lines are now paragraphs, translated, the value dropped (as
    LibreOffice writes such a cell); its spacing kept; a number's cell untouched."""
    from odf import table, text
    from odf.opendocument import OpenDocumentSpreadsheet, load

    document = OpenDocumentSpreadsheet()
    sheet = table.Table(name="S")
    for cell in (table.TableCell(valuetype="string", stringvalue="A man  rides.\nThe dog."),
                 table.TableCell(valuetype="float", value="12"), table.TableCell(valuetype="string", stringvalue="12")):
        row = table.TableRow()
        row.addElement(cell)
        sheet.addElement(row)
    document.spreadsheet.addElement(sheet)
    out = translate_office(odf_bytes(document), ".ods", mirror, DocumentOptions())
    words, number, digits = load(io.BytesIO(out)).spreadsheet.getElementsByType(table.TableCell)
    assert [str(paragraph) for paragraph in words.getElementsByType(text.P)] == ["RIDES. MAN A", "DOG. THE"]
    assert words.getAttribute("stringvalue") is None and words.getAttribute("valuetype") == "string"
    assert number.getAttribute("value") == "12" and not number.childNodes
    assert digits.getAttribute("stringvalue") == "12" and not digits.childNodes
    assert mirror.given == ["A man rides.", "The dog."]


@pytest.mark.parametrize("kind, name", [("reference-mark", "name"), ("change", "change-id"), ("toc-mark", "id"),
                                        ("user-index-mark", "id"), ("alphabetical-index-mark", "id"),
                                        ("bookmark", "name")])
def test_an_odt_range_over_words_keeps_its_end_after_its_start(mirror, kind, name):
    """A reference mark, a tracked change or an index mark over "runs on the" ended before it started
    once the translation turned the words around ("THE ON RUNS"): only an annotation's and a
    bookmark's edges were known, by their names.  Each is now known by the attribute ODF names it
    with, and its end changes places with its start, as a bookmark's does."""
    members = read_members(text_file())
    start = f'<text:{kind}-start text:{name}="r1"/>'
    end = f'<text:{kind}-end text:{name}="r1"/>'
    content = members["content.xml"].decode()
    members["content.xml"] = content.replace(">A dog runs on the <", f">A dog {start}runs on the{end} <", 1).encode()
    assert start.encode() in members["content.xml"]
    out = translate_office(write_members(members), ".odt", mirror, DocumentOptions())
    paragraph = out_paragraph(read_members(out)["content.xml"], "GRASS.")
    edges = [etree.QName(e).localname for e in paragraph.iter() if etree.QName(e).localname.startswith(kind)]
    assert edges == [f"{kind}-start", f"{kind}-end"]
    assert "".join(paragraph.itertext()) == "GRASS. GREEN THE ON RUNS DOG A"


def out_paragraph(content: bytes, opening: str) -> etree._Element:
    """The paragraph of ``content`` whose text starts with ``opening``."""
    return next(p for p in etree.fromstring(content).iter(f"{{{TEXT}}}p") if "".join(p.itertext()).startswith(opening))


def test_an_odt_link_over_a_number_the_model_dropped_keeps_its_number(known):
    """The model dropped the "1", and an empty <text:a/> was written: the number was gone."""
    members = read_members(text_file())
    link = ('<text:a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="#note1">1'
            "</text:a>")
    content = members["content.xml"].decode()
    added = f"<text:p>See page {link} for details.</text:p>"
    members["content.xml"] = content.replace("</text:h>", "</text:h>" + added, 1).encode()
    translator = known({"See page 1 for details.": ("Siehe Seite für Details.", [(0, 0), (1, 1), (3, 2), (4, 3)]),
                        "The title here.": ("The title here.", []),
                        "A dog runs on the green grass.": ("A dog runs on the green grass.", []),
                        "A cat sleeps.": ("A cat sleeps.", [])})
    out = translate_office(write_members(members), ".odt", translator, DocumentOptions())
    paragraph = out_paragraph(read_members(out)["content.xml"], "Siehe")
    assert "".join(paragraph.itertext()) == "Siehe Seite 1 für Details."
    assert "".join(paragraph.find(f"{{{TEXT}}}a").itertext()) == "1"


LINKED = ('<text:p>Visit <text:a xlink:type="simple" xlink:href="http://example.com/dogs" '
          'office:title="A page about dogs.&#10;The cats.">the dog park</text:a> today.</text:p>')
LINKED_BODIES = {
    "text": f"<office:text>{LINKED}</office:text>",
    "presentation": ('<office:presentation><draw:page draw:name="p1"><draw:frame><draw:text-box>'
                     f'{LINKED}</draw:text-box></draw:frame></draw:page></office:presentation>'),
    "spreadsheet": ('<office:spreadsheet><table:table table:name="S"><table:table-row>'
                    f'<table:table-cell office:value-type="string">{LINKED}</table:table-cell>'
                    '</table:table-row></table:table></office:spreadsheet>')}


@pytest.mark.parametrize("suffix", [".odt", ".odp", ".ods", ".fodt", ".fodp", ".fods"])
def test_an_odf_links_tooltip_is_translated_line_by_line(mirror, suffix):
    """A link's tooltip (``office:title``) stayed in the source's language, where an .xlsx's screen
    tip and HTML's ``title`` are translated; it now is, each of its lines as a line of text."""
    kind = {"t": "text", "p": "presentation", "s": "spreadsheet"}[suffix[-1]]
    made = flat_file if suffix.startswith(".fod") else zipped_file
    out = translate_office(made(kind, body=LINKED_BODIES[kind]), suffix, mirror, DocumentOptions())
    content = etree.fromstring(out) if suffix.startswith(".fod") else etree.fromstring(read_members(out)["content.xml"])
    link = next(content.iter(f"{{{TEXT}}}a"))
    assert link.get(f"{{{OFFICE}}}title") == "DOGS. ABOUT PAGE A\nCATS. THE"
    assert link.get(f"{{{XLINK}}}href") == "http://example.com/dogs" and link.text == "PARK DOG THE"
    assert {"A page about dogs.", "The cats."} <= set(mirror.given)


PICTURE = ('<draw:a xlink:type="simple" xlink:href="http://example.com/map" office:title="Open the map">'
           '<draw:frame svg:width="2cm" svg:height="2cm"><draw:image xlink:href="Pictures/map.png"/>'
           '</draw:frame></draw:a>')
PICTURE_BODIES = {
    "text": ('<office:text><text:p>The dog runs in the park. '
             f'{PICTURE}</text:p></office:text>'),
    "presentation": ('<office:presentation><draw:page draw:name="p1"><draw:frame><draw:text-box>'
                     f'<text:p>The cat sleeps.</text:p></draw:text-box></draw:frame>{PICTURE}'
                     '</draw:page></office:presentation>'),
    "spreadsheet": ('<office:spreadsheet><table:table table:name="S"><table:shapes>'
                    f'{PICTURE}</table:shapes><table:table-row><table:table-cell '
                    'office:value-type="string"><text:p>The cat sleeps.</text:p></table:table-cell>'
                    '</table:table-row></table:table></office:spreadsheet>')}


@pytest.mark.parametrize("suffix", [".odt", ".odp", ".ods", ".fodt", ".fodp", ".fods"])
def test_an_odf_linked_pictures_tooltip_is_translated_as_a_text_links_is(mirror, suffix):
    """A link around a picture (``draw:a`` around a ``draw:frame``: in a paragraph of a text, on its
    own on a slide or a sheet) kept its tooltip (``office:title``) in the source's language, where a
    text link's was translated; it now is, and the link, its frame and its picture stay as they were."""
    kind = {"t": "text", "p": "presentation", "s": "spreadsheet"}[suffix[-1]]
    made = flat_file if suffix.startswith(".fod") else zipped_file
    out = translate_office(made(kind, body=PICTURE_BODIES[kind]), suffix, mirror, DocumentOptions())
    content = etree.fromstring(out) if suffix.startswith(".fod") else etree.fromstring(read_members(out)["content.xml"])
    link = next(content.iter(f"{{{DRAW}}}a"))
    assert link.get(f"{{{OFFICE}}}title") == "MAP THE OPEN"
    assert link.get(f"{{{XLINK}}}href") == "http://example.com/map"
    assert link.find(f"{{{DRAW}}}frame/{{{DRAW}}}image").get(f"{{{XLINK}}}href") == "Pictures/map.png"
    assert "Open the map" in mirror.given


def test_an_odp_master_pages_linked_picture_keeps_its_tooltip(mirror):
    """A master page's shapes are kept (the slide master's placeholders): so is a linked picture's
    tooltip there, as the slide's own linked picture's is translated."""
    masters = ('<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">'
               f'{PICTURE}</style:master-page></office:master-styles>')
    out = translate_office(zipped_file("presentation", body=PICTURE_BODIES["presentation"], masters=masters),
                           ".odp", mirror, DocumentOptions())
    master, slide = (next(etree.fromstring(read_members(out)[member]).iter(f"{{{DRAW}}}a"))
                     for member in ("styles.xml", "content.xml"))
    assert (master.get(f"{{{OFFICE}}}title"), slide.get(f"{{{OFFICE}}}title")) == ("Open the map", "MAP THE OPEN")


@pytest.mark.parametrize("suffix", [".odp", ".fodp"])
def test_an_odp_review_lists_every_slide_then_the_notes_in_their_slides_order(mirror, suffix):
    """As docs/documents.md says, and as a .pptx's are: the notes were listed right after each slide."""
    def slide(name: str, words: str, note: str) -> str:
        return (f'<draw:page draw:name="{name}"><draw:frame><draw:text-box><text:p>{words}</text:p></draw:text-box>'
                '</draw:frame><presentation:notes><draw:frame><draw:text-box>'
                f'<text:p>{note}</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>')
    body = (f'<office:presentation>{slide("p1", "The boy laughs.", "Say hello.")}'
            f'{slide("p2", "A dog runs.", "Point at the dog.")}</office:presentation>')
    made = flat_file if suffix.startswith(".fod") else zipped_file
    review = everything_listed()
    translate_office(made("presentation", body=body, masters=""), suffix, mirror, DocumentOptions(), review=review)
    assert [(segment.place.number, segment.source) for segment in review.segments] == [
        (1, "The boy laughs."), (2, "A dog runs."), (3, "Say hello."), (4, "Point at the dog.")]


def test_a_line_break_ends_its_sentence_where_a_capital_starts_the_next_line(mirror):
    """As a <br> in HTML does: read as a space, "Dog food Cat toys" was one sentence, its break
    put between two words of the scrambled translation."""
    from odf.opendocument import OpenDocumentText, load
    from odf.text import LineBreak, P

    document = OpenDocumentText()
    paragraph = P(text="Dog food")
    paragraph.addElement(LineBreak())
    paragraph.addText("Cat toys")
    document.text.addElement(paragraph)
    out = translate_office(odf_bytes(document), ".odt", mirror, DocumentOptions())
    assert mirror.given == ["Dog food", "Cat toys"]
    assert [str(node) if node.nodeType == node.TEXT_NODE else node.tagName
            for node in load(io.BytesIO(out)).text.getElementsByType(P)[0].childNodes] == [
        "FOOD DOG", "text:line-break", "TOYS CAT"]


def test_an_odt_indexs_title_template_is_translated_with_its_title(mirror):
    """A table of contents keeps the title it writes again on each update (``text:index-title-template``)
    beside the title it shows: the title shown was translated, the template not, and LibreOffice's
    "Update Index" (wanted once the headings are translated) put "Table of Contents" back."""
    from odf.opendocument import OpenDocumentText, load
    from odf.text import H, IndexBody, IndexTitle, IndexTitleTemplate, P, TableOfContent, TableOfContentSource

    document = OpenDocumentText()
    contents = TableOfContent(name="Contents")
    source = TableOfContentSource(outlinelevel=1)
    source.addElement(IndexTitleTemplate(text="Table of Contents"))
    contents.addElement(source)
    body, title = IndexBody(), IndexTitle(name="Contents_Head")
    title.addElement(P(text="Table of Contents"))
    body.addElement(title)
    contents.addElement(body)
    document.text.addElement(contents)
    document.text.addElement(H(outlinelevel=1, text="The big dog"))
    out = translate_office(odf_bytes(document), ".odt", mirror, DocumentOptions())
    [template] = load(io.BytesIO(out)).getElementsByType(IndexTitleTemplate)
    assert str(template) == "CONTENTS OF TABLE"
    assert [str(p) for p in load(io.BytesIO(out)).getElementsByType(P)] == ["CONTENTS OF TABLE"]


@pytest.mark.parametrize("spaces, expected", [
    ("Slide<text:s/>{field}<text:s/>of ten", "{field} OF TEN SLIDE"),  # no space to start the line
    ("Slide {field}<text:s/>of ten", "{field} OF TEN SLIDE"),  # as with a typed space either side
    # two spaces in a row stay elements, glued to the word before them, and the field with them
    ("Slide<text:s/><text:s/>{field} of ten", "OF TEN SLIDE<text:s/><text:s/>{field}"),
])
def test_an_odf_space_element_beside_a_field_is_spacing_that_stays_beside_it(known, spaces, expected):
    """A ``text:s`` of one space between a word and a field (as an Impress footer has it) was an atom placed
    on its own: "Slide of ten" translated "of ten slide" put the field before "of" and its spaces with it,
    the first one starting the line.  Read as the space it shows, it spaces the field as a typed space does."""
    # a chapter's number, an atom: a page's number amid words is read (opendocument_vocabulary.is_number_amid_words)
    field = '<text:chapter text:display="number" text:outline-level="1">3</text:chapter>'
    members = read_members(text_file())
    members["content.xml"] = members["content.xml"].replace(
        b"</text:h>", f"</text:h><text:p>{spaces.format(field=field)}</text:p>".encode(), 1)
    translator = known({"Slide of ten": ("OF TEN SLIDE", [(1, 0), (2, 1), (0, 2)]), "The title here.": ("T", []),
                        "A dog runs on the green grass.": ("D", []), "A cat sleeps.": ("C", [])})
    content = read_members(translate_office(write_members(members), ".odt", translator, DocumentOptions()))
    paragraph = out_paragraph(content["content.xml"], "OF" if "><text:s/>{" in spaces else "3")
    written = etree.tostring(paragraph, encoding="unicode").split(">", 1)[1].rsplit("<", 1)[0]
    assert written.replace(f' xmlns:text="{TEXT}"', "") == expected.format(field=field)


CONDITIONAL = ('<text:p><text:conditional-text text:condition="ooow:Gender == &quot;F&quot;" '
               'text:string-value-if-true="Dear Madam" text:string-value-if-false="Dear Sir" '
               'text:current-value="false">Dear Sir</text:conditional-text>, we thank you.</text:p>')


@pytest.mark.parametrize("suffix", [".odt", ".fodt"])
def test_an_odf_conditional_texts_choices_and_shown_text_are_translated_and_its_condition_kept(mirror, suffix):
    """What LibreOffice writes for Word's IF field: both texts and the one shown stayed English."""
    made = flat_file if suffix.startswith(".fod") else zipped_file
    out = translate_office(made("text", body=f"<office:text>{CONDITIONAL}</office:text>"), suffix, mirror,
                           DocumentOptions())
    content = etree.fromstring(out) if suffix.startswith(".fod") else etree.fromstring(read_members(out)["content.xml"])
    shown = next(content.iter(f"{{{TEXT}}}conditional-text"))
    assert [shown.get(f"{{{TEXT}}}{name}") for name in ("string-value-if-true", "string-value-if-false", "condition")
            ] == ["MADAM DEAR", "SIR DEAR", 'ooow:Gender == "F"']
    assert shown.text == "SIR DEAR"


def test_an_odf_input_lists_choices_and_shown_choice_are_translated(mirror):
    """Insert > Field > Functions > Input list: kept as any field, its choices and the one shown stayed English."""
    body = ('<office:text><text:p>Choose <text:drop-down text:name="Colour"><text:label text:value="a red flower"/>'
            '<text:label text:value="a blue flower"/>a red flower</text:drop-down> for the table.</text:p>'
            '</office:text>')
    out = read_members(translate_office(zipped_file(body=body), ".odt", mirror, DocumentOptions()))
    field = next(etree.fromstring(out["content.xml"]).iter(f"{{{TEXT}}}drop-down"))
    assert [label.get(f"{{{TEXT}}}value") for label in field] == ["FLOWER RED A", "FLOWER BLUE A"]
    assert (field.text, field[-1].tail, field.tail) == (None, "FLOWER RED A", " FOR CHOOSE")


def test_a_spreadsheet_embedded_in_a_text_is_translated_as_a_sheet_is(mirror):
    """A sheet put into a text as an object (``Object 1/``, a spreadsheet in the manifest) stayed in the
    source's language: only the charts among the objects were read.  Its words are translated, its number kept."""
    out = read_members(translate_office(embedded_sheet_file(), ".odt", mirror, DocumentOptions()))
    sheet = etree.fromstring(out["Object 1/content.xml"])
    assert ["".join(p.itertext()) for p in sheet.iter(f"{{{TEXT}}}p")] == ["APPLES GREEN", "3"]
    assert mirror.given == ["The table below shows the prices.", "Green apples"]
