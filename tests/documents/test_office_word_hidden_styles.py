"""A Word run hidden by its character style (``w:rStyle`` naming a style with ``w:vanish``, or one based
on such a style) is hidden as one with ``w:vanish`` of its own is (wordml.is_hidden_run,
word_styles.WordStyles.hiding): the model never reads it, and a bound control's store never
takes its words.  Only a run's own properties were read: the editor's note was translated with the
sentence, and written into the store Word shows in the control."""

import io

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from lxml import etree
from office_files import W, docx_bytes

from attnmt.decoding.quality import Assessment
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.flat import Mark, atom_text
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.documents.shown import shown_text
from attnmt.documents.word_styles import WordStyles

CORE = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"  # the core properties' store
TITLE = ("xmlns:ns0='http://purl.org/dc/elements/1.1/' "
         "xmlns:ns1='http://schemas.openxmlformats.org/package/2006/metadata/core-properties'",
         "/ns1:coreProperties[1]/ns0:title[1]")
# The style a note's run names: "Note" hides text itself, "Draft Note" through the style it is based on.
NOTE_STYLES = ["Note", "DraftNote"]


def with_note_styles() -> docx.document.Document:
    """A document whose styles hide text: "Note" (w:vanish), and "Draft Note", based on it, saying nothing of it."""
    document = docx.Document()
    note = document.styles.add_style("Note", WD_STYLE_TYPE.CHARACTER)
    note.font.hidden = True
    draft = document.styles.add_style("Draft Note", WD_STYLE_TYPE.CHARACTER)
    draft.base_style = note
    draft.font.italic = True
    return document


def add_runs(document: docx.document.Document, runs: str) -> None:
    """A paragraph of ``runs`` (Word's XML, w: names)."""
    paragraph = document.add_paragraph()._p
    paragraph.extend(list(etree.fromstring(f'<w:p xmlns:w="{W}">{runs}</w:p>')))


def styled(style: str, text: str, own: str = "") -> str:
    return f'<w:r><w:rPr><w:rStyle w:val="{style}"/>{own}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


def plain(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


@pytest.mark.parametrize("style", NOTE_STYLES)
def test_a_run_hidden_by_its_character_style_is_not_read_and_stays_as_written(mirror, style):
    document = with_note_styles()
    add_runs(document, plain("Two girls ") + styled(style, "young ") + plain("play with a ball."))
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["Two girls play with a ball."]
    runs = docx.Document(io.BytesIO(out)).paragraphs[0].runs
    assert [(run.text, run.style.name) for run in runs] == [
        ("BALL. A WITH ", "Default Paragraph Font"), ("young ", style.replace("Draft", "Draft ")),
        ("PLAY GIRLS TWO", "Default Paragraph Font")]


def test_a_runs_own_vanish_turned_off_shows_it_whatever_its_style_says(mirror):
    document = with_note_styles()
    add_runs(document, plain("Two girls ") + styled("DraftNote", "young ", '<w:vanish w:val="0"/>')
             + plain("play with a ball."))
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["Two girls young play with a ball."]


def bound_control(content: str) -> str:
    mappings, xpath = TITLE
    return (f'<w:sdt><w:sdtPr><w:id w:val="2"/><w:dataBinding w:prefixMappings="{mappings}" w:xpath="{xpath}" '
            f'w:storeItemID="{CORE}"/><w:text/></w:sdtPr><w:sdtContent>{content}</w:sdtContent></w:sdt>')


@pytest.mark.parametrize("style", NOTE_STYLES)
def test_a_bound_controls_words_hidden_by_their_style_are_not_written_to_its_store(upper, style):
    """Word shows the store's value in the control: the store took " [CHECK THE NAME]", which Word then showed."""
    document = with_note_styles()
    document.core_properties.title = "The black dog"
    add_runs(document, bound_control(plain("The black dog") + styled(style, " [check the name]")))
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", upper, DocumentOptions())))
    assert out.core_properties.title == "THE BLACK DOG"


@pytest.mark.parametrize("style", NOTE_STYLES)
def test_a_bound_control_showing_only_words_hidden_by_their_style_sets_no_store(upper, style):
    document = with_note_styles()
    document.core_properties.title = "The black dog"
    add_runs(document, bound_control(styled(style, "[check the name]")))
    add_runs(document, plain("The dog was born on ") + bound_control(plain("The black dog")) + plain("."))
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", upper, DocumentOptions())))
    assert out.core_properties.title == "THE BLACK DOG"
    assert "".join(t.text for t in out.element.body.iter(f"{{{W}}}t")).startswith("[check the name]")



def with_hidden_paragraph_styles() -> docx.document.Document:
    """A document whose paragraph style "Notes" hides text (w:vanish), and "Draft Notes", based on it, says
    nothing of it; whose character style "Turned" hides text too (in a hidden paragraph it turns hiding over:
    ECMA-376 17.7.3's toggle properties), and "Off" says w:vanish w:val="0" (in a style: no change)."""
    document = docx.Document()
    notes = document.styles.add_style("Notes", WD_STYLE_TYPE.PARAGRAPH)
    notes.font.hidden = True
    document.styles.add_style("Draft Notes", WD_STYLE_TYPE.PARAGRAPH).base_style = notes
    document.styles.add_style("Turned", WD_STYLE_TYPE.CHARACTER).font.hidden = True
    document.styles.add_style("Off", WD_STYLE_TYPE.CHARACTER).font.hidden = False
    return document


def shown(text: str) -> str:
    """A run whose own properties show it whatever its styles say."""
    return f'<w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


@pytest.mark.parametrize("style", ["Notes", "Draft Notes"])
def test_runs_hidden_by_their_paragraphs_style_are_not_read(mirror, style):
    """A run's own <w:vanish w:val="0"/> shows it in a paragraph whose style hides its other runs."""
    document = with_hidden_paragraph_styles()
    add_runs(document, plain("[check the name] ") + shown("Two girls play with a ball."))
    document.paragraphs[-1].style = document.styles[style]
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["Two girls play with a ball."]
    runs = docx.Document(io.BytesIO(out)).paragraphs[-1].runs  # the note kept as written, hidden by its style
    assert [(run.text, run.font.hidden) for run in runs] == [("[check the name] ", None),
                                                             ("BALL. A WITH PLAY GIRLS TWO", False)]


def test_a_character_style_hiding_text_in_a_paragraph_whose_style_hides_it_shows_its_run(mirror):
    """w:vanish is a toggle property: in styles, each on turns the state over; the style "Off" (val="0")
    changes nothing, so its run stays hidden with the paragraph's others (ECMA-376 17.7.3)."""
    document = with_hidden_paragraph_styles()
    add_runs(document, plain("[check the name] ") + styled("Turned", "Two girls play with a ball.")
             + styled("Off", " [and the town]"))
    document.paragraphs[-1].style = document.styles["Notes"]
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["Two girls play with a ball."]


def test_the_document_defaults_hiding_text_hide_runs_no_style_turns_over(mirror):
    """The defaults hide "[check the name] " in Normal, and the style "Off" does not show it; "Turned" and
    the paragraph style "Body", each hiding text, turn the defaults' hiding over."""
    document = with_hidden_paragraph_styles()
    defaults = document.styles.element.find(f"{{{W}}}docDefaults/{{{W}}}rPrDefault/{{{W}}}rPr")
    defaults.append(etree.fromstring(f'<w:vanish xmlns:w="{W}"/>'))
    document.styles.add_style("Body", WD_STYLE_TYPE.PARAGRAPH).font.hidden = True
    add_runs(document, plain("[check the name] ") + styled("Off", "[the town] ")
             + styled("Turned", "A man rides a bike."))
    document.add_paragraph("Two girls play.", style="Body")
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["A man rides a bike.", "Two girls play."]


def test_a_bound_controls_words_hidden_by_their_paragraphs_style_are_not_written_to_its_store(upper):
    document = with_hidden_paragraph_styles()
    document.core_properties.title = "The black dog"
    add_runs(document, bound_control(plain("[check the name] ") + shown("The black dog")))
    document.paragraphs[-1].style = document.styles["Notes"]
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", upper, DocumentOptions())))
    assert out.core_properties.title == "THE BLACK DOG"


@pytest.mark.parametrize("note", [
    '<w:r><w:rPr><w:vanish/></w:rPr><w:t>.</w:t></w:r>',  # hidden by its own properties, as ever
    styled("Note", "."), styled("DraftNote", "."),  # by its character style
    '<w:r><w:t>.</w:t></w:r>',  # by its paragraph's style
])
def test_a_stop_hidden_by_its_style_ends_no_sentence(mirror, note):
    """Side checks read an atom's text by its own properties (shown.shown_text): the hidden "." showed as a
    stop, which ended the sentence there (stops.kept_stops), and the model read two."""
    document = with_note_styles()
    notes = document.styles.add_style("Notes", WD_STYLE_TYPE.PARAGRAPH)
    notes.font.hidden = True
    add_runs(document, shown("A man rides a bike") + note + shown(" and two girls play."))
    if "rPr" not in note:  # hidden by its paragraph's style alone (a character style hiding it too turns it over)
        document.paragraphs[-1].style = notes
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["A man rides a bike and two girls play."]


@pytest.mark.parametrize("note", [
    '<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">[check the name] </w:t></w:r>',  # its own, as ever
    styled("Note", "[check the name] "),  # its character style
])
def test_a_review_row_shows_no_words_hidden_by_their_style(mirror, note):
    """The review table writes a sentence as a reader sees it (flat.shown_atom): a note hidden by its style
    showed there, "A dog [check the name] runs."."""
    document = with_note_styles()
    add_runs(document, plain("A dog ") + note + plain("runs."))
    review = Review(lambda sources, texts: [Assessment(0.2, ["low_quality"], False) for _ in sources], 0.5)
    translate_file_bytes(docx_bytes(document), "report.docx", mirror, DocumentOptions(), review=review)
    assert [segment.source for segment in review.segments] == ["A dog runs."]


def with_hidden_table_style() -> docx.document.Document:
    """A document whose table style "Hidden Grid" hides text (w:vanish in its own w:rPr), and "Draft Grid",
    based on it, says nothing of it, and "Whole Grid" hides it in its conditional part for the whole table
    (w:tblStylePr w:type="wholeTable"); with with_hidden_paragraph_styles' "Notes" and "Turned"."""
    document = with_hidden_paragraph_styles()
    grid = document.styles.add_style("Hidden Grid", WD_STYLE_TYPE.TABLE)
    grid.font.hidden = True
    document.styles.add_style("Draft Grid", WD_STYLE_TYPE.TABLE).base_style = grid
    document.styles.add_style("Whole Grid", WD_STYLE_TYPE.TABLE).element.append(etree.fromstring(
        f'<w:tblStylePr xmlns:w="{W}" w:type="wholeTable"><w:rPr><w:vanish/></w:rPr></w:tblStylePr>'))
    return document


def cell_runs(document: docx.document.Document, style: str, runs: str) -> docx.table._Cell:
    """A table of one cell in table style ``style``, its paragraph of ``runs`` (Word's XML, w: names)."""
    cell = document.add_table(rows=1, cols=1, style=document.styles[style]).cell(0, 0)
    cell.paragraphs[0]._p.extend(list(etree.fromstring(f'<w:p xmlns:w="{W}">{runs}</w:p>')))
    return cell


@pytest.mark.parametrize("style", ["Hidden Grid", "Draft Grid", "Whole Grid"])
def test_runs_hidden_by_their_tables_style_are_not_read_and_stay_as_written(mirror, style):
    """Word applies a table style's run properties to the text of its cells (ECMA-376 17.7.2): the note the
    style hid was read with the sentence, and translated."""
    document = with_hidden_table_style()
    cell_runs(document, style, plain("[check the name] ") + shown("Two girls play with a ball."))
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["Two girls play with a ball."]
    runs = docx.Document(io.BytesIO(out)).tables[0].cell(0, 0).paragraphs[0].runs
    assert [(run.text, run.font.hidden) for run in runs] == [("[check the name] ", None),
                                                             ("BALL. A WITH PLAY GIRLS TWO", False)]


def test_a_paragraph_or_character_style_hiding_text_in_a_hidden_table_turns_it_over(mirror):
    """w:vanish toggles across the styles (ECMA-376 17.7.3): the table's style hides its cell's text, and the
    paragraph style "Notes" (the second paragraph) or the character style "Turned" hiding it too shows it."""
    document = with_hidden_table_style()
    cell = cell_runs(document, "Hidden Grid", plain("[check the name] ") + styled("Turned", "A man rides a bike."))
    cell.add_paragraph("Two girls play.", style=document.styles["Notes"]).add_run(" [the town]", "Turned")
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["A man rides a bike.", "Two girls play."]


@pytest.mark.parametrize("run", [
    '<w:r><w:rPr><w:vanish/></w:rPr><w:t>A</w:t>{}</w:r>',  # hidden by its own properties
    '<w:r><w:rPr><w:rStyle w:val="Note"/></w:rPr><w:t>A</w:t>{}</w:r>',  # by its character style
    '<w:r><w:rPr><w:rStyle w:val="DraftNote"/></w:rPr><w:t>A</w:t>{}</w:r>',  # by a style its style is based on
])
@pytest.mark.parametrize("atom", ["<w:tab/>", "<w:br/>", '<w:sym w:font="Symbol" w:char="F0B7"/>',
                                  "<w:noBreakHyphen/>", "<w:t>.</w:t>"])
def test_an_atom_in_a_run_hidden_by_its_style_shows_nothing(run, atom):
    """A tab or a break of a hidden run was read by its own tag, as a space ("A" hidden, " " shown)."""
    document = with_note_styles()
    add_runs(document, run.format(atom))
    part = document.paragraphs[-1]._p.findall(f"{{{W}}}r")[-1][-1]
    hiding = WordStyles.of(document.styles.element).hiding
    assert shown_text(part, hiding) == ""
    assert atom_text(Mark(0, 0, node=part, atom=True, shown=shown_text(part, hiding))) == ""
    if "rStyle" not in run:  # with no styles known, the run's own properties still hide it
        assert atom_text(Mark(0, 0, node=part, atom=True)) == ""


def test_an_atom_in_a_visible_run_shows_as_ever():
    document = with_note_styles()
    add_runs(document, '<w:r><w:rPr><w:rStyle w:val="Note"/><w:vanish w:val="0"/></w:rPr><w:tab/></w:r>')
    part = document.paragraphs[-1]._p.find(f"{{{W}}}r/{{{W}}}tab")
    assert shown_text(part, WordStyles.of(document.styles.element).hiding) == " "
