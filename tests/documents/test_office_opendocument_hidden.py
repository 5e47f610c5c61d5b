"""Hidden text in an OpenDocument paragraph (``text:display="none"`` in a span's style: LibreOffice's
Font Effects > Hidden, what a .docx's ``w:vanish`` becomes), kept whole and unread beside visible
words as a hidden Word run is (test_office_runs): read as a mark, it took the visible translation
out of sight.  Each file is flat (.fodt) and zipped (.odt), from the same pieces (flat_files)."""

import pytest
from flat_files import NAMESPACES, STYLES, flat_file, zipped_file
from lxml import etree
from office_files import read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = NAMESPACES["text"]
SPAN = f"{{{TEXT}}}span"


def text_style(name: str, display: str, parent: str = "") -> str:
    """A style of family text named ``name`` whose text properties say ``text:display="{display}"``
    (none where ``display`` is empty), based on ``parent`` where one is named."""
    based = f' style:parent-style-name="{parent}"' if parent else ""
    properties = f'<style:text-properties text:display="{display}"/>' if display else ""
    return f'<style:style style:name="{name}" style:family="text"{based}>{properties}</style:style>'


# The span's style "TH": an automatic style of the part, or a named one in styles.xml (office:styles)
# that hides nothing itself but is based on one that hides.
AUTOMATIC_HIDDEN = ("", text_style("TH", "none"))
NAMED_HIDDEN = (text_style("Hidden", "none") + text_style("TH", "", parent="Hidden"), "")


def translated_paragraph(suffix: str, inline: str, styles: tuple[str, str], translator) -> etree._Element:
    """The first paragraph of a one-paragraph text whose content is ``inline``, translated as a
    ``suffix`` file (.fodt or .odt), ``styles`` its (named, automatic) styles."""
    named, automatic = styles
    pieces = {"body": f"<office:text><text:p>{inline}</text:p></office:text>", "masters": "",
              "styles": STYLES.replace("</office:styles>", f"{named}</office:styles>"),
              "automatic": f"<office:automatic-styles>{automatic}</office:automatic-styles>"}
    made = flat_file(**pieces) if suffix == ".fodt" else zipped_file(**pieces)
    out = translate_office(made, suffix, translator, DocumentOptions())
    root = etree.fromstring(out if suffix == ".fodt" else read_members(out)["content.xml"])
    return next(root.iter(f"{{{TEXT}}}p"))


def pieces(paragraph: etree._Element) -> list[tuple[str, str]]:
    """("text", its text) for the paragraph's text outside every span, ("span", its text) for each span."""
    found = [("text", paragraph.text)] if paragraph.text else []
    for child in paragraph:
        found += [("span" if child.tag == SPAN else child.tag, "".join(child.itertext()))]
        found += [("text", child.tail)] if child.tail else []
    return found


def hidden(text: str) -> str:
    return f'<text:span text:style-name="TH">{text}</text:span>'


@pytest.mark.parametrize("suffix", [".fodt", ".odt"])
@pytest.mark.parametrize("styles", [AUTOMATIC_HIDDEN, NAMED_HIDDEN], ids=["automatic style", "named, inherited"])
def test_a_hidden_note_inside_a_sentence_never_takes_visible_words_with_it(fixed, suffix, styles):
    """As a mark over the words aligned to "[check this]", the note took "fährt Rad auf der" into
    hidden text, and a reader saw "Ein Mann  Straße."; kept whole, it stands where alignment puts
    it, and the model reads only the visible sentence."""
    alignment = [(0, 0), (1, 1), (2, 2), (3, 5), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]
    translator = fixed("Ein Mann fährt Rad auf der Straße.", alignment)
    paragraph = translated_paragraph(suffix, f"A man {hidden('[check this] ')}rides a bike on the street.", styles,
                                     translator)
    assert translator.given == ["A man rides a bike on the street."]
    assert pieces(paragraph) == [("text", "Ein Mann "), ("span", "[check this] "),
                                 ("text", "fährt Rad auf der Straße.")]


@pytest.mark.parametrize("inline, read, written", [
    # A hidden note holding the space between two words parts them, and shows no text that would
    # want a space of its own beside the words (it was written "A <span> (Anna)</span>").
    (f"A man{hidden(' (Anna) ')}walks.", "A man walks.", [("span", " (Anna) "), ("text", "WALKS. MAN A")]),
    (f"A man walks.{hidden(' [x]')}", "A man walks.", [("text", "WALKS. MAN A"), ("span", " [x]")]),
    # A visible space shows no words: a paragraph all hidden is words, translated as any is.
    (f"{hidden('This is hidden.')} ", "This is hidden.", [("span", "HIDDEN. IS THIS"), ("text", " ")]),
    # A hidden text field's words are a field's, kept, as every field's are.
    ('A dog <text:hidden-text text:condition="ooow:1" text:string-value="[x]">[x]</text:hidden-text>runs.',
     "A dog runs.", [(f"{{{TEXT}}}hidden-text", "[x]"), ("text", "RUNS. DOG A")]),
], ids=["a hidden space between words", "a hidden note at the end", "all hidden", "a hidden text field"])
def test_the_model_reads_what_a_reader_sees_of_hidden_text(mirror, inline, read, written):
    assert pieces(translated_paragraph(".odt", inline, AUTOMATIC_HIDDEN, mirror)) == written
    assert mirror.given == [read]


@pytest.mark.parametrize("display", ["true", "condition"])
def test_only_display_none_hides(mirror, display):
    """ODF's text:display: "true" shows the text; "condition" hides it under a text:condition, not
    worked out, so the text is read as shown.  The span keeps the space written inside its end."""
    paragraph = translated_paragraph(".fodt", f"A man {hidden('with a hat ')}walks.", ("", text_style("TH", display)),
                                     mirror)
    assert mirror.given == ["A man with a hat walks."]
    assert pieces(paragraph) == [("text", "WALKS. "), ("span", "HAT A WITH "), ("text", "MAN A")]


def test_a_span_that_shows_again_inside_a_hidden_one_is_read(mirror):
    """The last style that names a display wins: the visible words inside the hidden span are words."""
    styles = ("", text_style("TH", "none") + text_style("TS", "true"))
    inline = "A man " + hidden('[note] <text:span text:style-name="TS">with a hat</text:span>') + " walks."
    translated_paragraph(".fodt", inline, styles, mirror)
    assert mirror.given == ["A man [note] with a hat walks."]
