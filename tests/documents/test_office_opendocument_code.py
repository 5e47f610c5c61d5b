"""Code in an OpenDocument file (attnmt.documents.opendocument_code), by the rule of an Office one
(test_office_code): a span in a character style meant for code ("Source Text"), or in a monospaced
font beside words in another, is kept as it is; a paragraph in "Preformatted Text" is kept whole; a
paragraph all in a monospaced font is words.  Files built with odfpy, their styles as LibreOffice
writes them.  The Upper stand-in upper-cases every word it is given, so a command it read would
come back in capitals."""

import io

import pytest
from lxml import etree
from odf import text
from odf.opendocument import OpenDocumentText, load
from odf.style import DefaultStyle, FontFace, Style, TextProperties
from office_files import odf_bytes, read_members

from attnmt.documents import opendocument_code
from attnmt.documents.office import translate_office
from attnmt.documents.opendocument_code import STYLE, CodeLooks, first_family, style_names
from attnmt.documents.pipeline import DocumentOptions

COMMAND = ("Type ", "ls -l /tmp", " to list the files.")  # the command in a span, the rest prose


def document() -> OpenDocumentText:
    """A text document whose paragraphs are in Liberation Serif (its default style's font), with
    the font faces of Liberation Mono and Liberation Serif declared."""
    made = OpenDocumentText()
    for family in ("Liberation Mono", "Liberation Serif"):
        made.fontfacedecls.addElement(FontFace(name=family, fontfamily=f"'{family}'"))
    default = DefaultStyle(family="paragraph")
    default.addElement(TextProperties(fontname="Liberation Serif"))
    made.styles.addElement(default)
    return made


def style(made: OpenDocumentText, name: str, family: str, automatic: bool = False, **font) -> Style:
    """A style ``name`` of ``family``, named (in styles.xml) or automatic (in content.xml), with the
    text properties ``font`` (none where it is empty); ``parentstylename`` is a Style's own argument."""
    parent = font.pop("parentstylename", None)
    made_style = Style(name=name, family=family, **({} if parent is None else {"parentstylename": parent}))
    if font:
        made_style.addElement(TextProperties(**font))
    (made.automaticstyles if automatic else made.styles).addElement(made_style)
    return made_style


def source_text(made: OpenDocumentText) -> Style:
    return style(made, "Source Text", "text")  # LibreOffice's: Source_20_Text, shown as "Source Text"


def based_on_source_text(made: OpenDocumentText) -> Style:
    return style(made, "Command", "text", parentstylename=source_text(made))


def liberation_mono(made: OpenDocumentText) -> Style:
    return style(made, "T1", "text", automatic=True, fontname="Liberation Mono")  # a font face, by name


def courier_family(made: OpenDocumentText) -> Style:
    return style(made, "T1", "text", automatic=True, fontfamily="'Courier New', monospace")


def command_file(look) -> bytes:
    """COMMAND in a paragraph, its command in a span whose style ``look(document)`` makes."""
    made = document()
    paragraph = text.P(text=COMMAND[0])
    paragraph.addElement(text.Span(stylename=look(made), text=COMMAND[1]))
    paragraph.addText(COMMAND[2])
    made.text.addElement(paragraph)
    return odf_bytes(made)


def paragraphs(data: bytes) -> list:
    return load(io.BytesIO(data)).text.getElementsByType(text.P)


def pieces(paragraph) -> list[tuple[str, str]]:
    """(its name, its text) of each child of ``paragraph``: "text" for its text outside every element."""
    return [(node.tagName if node.nodeType == node.ELEMENT_NODE else "text", str(node))
            for node in paragraph.childNodes]


def translate(data: bytes, translator) -> bytes:
    return translate_office(data, ".odt", translator, DocumentOptions())


@pytest.mark.parametrize("look", [source_text, based_on_source_text, liberation_mono, courier_family],
                         ids=["Source Text", "based on Source Text", "Liberation Mono", "fo:font-family Courier New"])
def test_a_span_of_code_in_an_odt_paragraph_is_kept_as_it_is(upper, look):
    """Read as words, the command was translated ("in einem stellen") and lost."""
    paragraph = paragraphs(translate(command_file(look), upper))[0]
    assert pieces(paragraph) == [("text", "TYPE "), ("text:span", "ls -l /tmp"), ("text", " TO LIST THE FILES.")]
    assert not any("ls" in sentence for sentence in upper.given)


def test_a_paragraph_in_preformatted_text_is_kept_whole(upper):
    """LibreOffice's HTML <pre>: an automatic paragraph style based on "Preformatted Text"."""
    made = document()
    preformatted = style(made, "Preformatted Text", "paragraph", fontname="Liberation Mono")
    made.text.addElement(text.P(stylename=style(made, "P1", "paragraph", automatic=True,
                                                parentstylename=preformatted),
                                text="for line in open(path): print(line)"))
    made.text.addElement(text.P(text="The loop prints each line."))
    assert [str(p) for p in paragraphs(translate(odf_bytes(made), upper))] == [
        "for line in open(path): print(line)", "THE LOOP PRINTS EACH LINE."]
    assert upper.given == ["The loop prints each line."]


def test_a_paragraph_whose_style_is_in_a_monospaced_font_is_translated(upper):
    """Its span in the same font is in the paragraph's own font, not code's."""
    made = document()
    paragraph = text.P(stylename=style(made, "P1", "paragraph", automatic=True, fontname="Liberation Mono"),
                       text=COMMAND[0])
    paragraph.addElement(text.Span(stylename=liberation_mono(made), text=COMMAND[1]))
    paragraph.addText(COMMAND[2])
    made.text.addElement(paragraph)
    assert str(paragraphs(translate(odf_bytes(made), upper))[0]) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_a_paragraph_of_spans_all_in_a_monospaced_font_is_translated(upper):
    """No letters in another font beside them, so words (a screenplay typed in Courier)."""
    made = document()
    bold = style(made, "T2", "text", automatic=True, fontname="Liberation Mono", fontweight="bold")
    paragraph = text.P()
    paragraph.addElement(text.Span(stylename=liberation_mono(made), text="The dog "))
    paragraph.addElement(text.Span(stylename=bold, text="runs home."))
    made.text.addElement(paragraph)
    assert str(paragraphs(translate(odf_bytes(made), upper))[0]) == "THE DOG RUNS HOME."


def test_lines_of_code_in_monospaced_spans_between_paragraphs_of_words_are_kept_whole(upper):
    """A Word file's Consolas lines as LibreOffice writes them, each a paragraph of one Liberation Mono span:
    read as words, each came back German.  A sentence so typed is words, as in Word (test_office_code)."""
    made = document()
    made.text.addElement(text.P(text="Open a terminal and type the following lines."))
    mono = liberation_mono(made)
    for line in ("pip install requests", "print('Hi.')", "A dog runs."):
        paragraph = text.P()
        paragraph.addElement(text.Span(stylename=mono, text=line))
        made.text.addElement(paragraph)
    made.text.addElement(text.P(text="The program prints a greeting."))
    assert [str(p) for p in paragraphs(translate(odf_bytes(made), upper))] == [
        "OPEN A TERMINAL AND TYPE THE FOLLOWING LINES.", "pip install requests", "print('Hi.')", "A DOG RUNS.",
        "THE PROGRAM PRINTS A GREETING."]


def test_a_span_in_a_span_of_code_takes_its_look_and_may_undo_its_font(upper):
    """A mark's look is the one around it under its own style's: bold inside "Source Text" is still
    code; a serif word inside Liberation Mono is not, so the span around it is words."""
    made = document()
    bold = style(made, "T2", "text", automatic=True, fontweight="bold")
    serif = style(made, "T3", "text", automatic=True, fontname="Liberation Serif")
    for outer, inner in ((source_text(made), bold), (liberation_mono(made), serif)):
        paragraph, span = text.P(text=COMMAND[0]), text.Span(stylename=outer, text="ls ")
        span.addElement(text.Span(stylename=inner, text="-l"))
        span.addText(" /tmp")
        paragraph.addElement(span)
        paragraph.addText(COMMAND[2])
        made.text.addElement(paragraph)
    kept, read = (str(p) for p in paragraphs(translate(odf_bytes(made), upper)))
    assert (kept, read) == ("TYPE ls -l /tmp TO LIST THE FILES.", "TYPE LS -L /TMP TO LIST THE FILES.")


def looks_asked(monkeypatch, translator, depth: int) -> dict[str, int]:
    """How often each of CodeLooks.chain and CodeLooks.look ran while a paragraph of bold spans
    nested ``depth`` deep (``A man rides <span>w0 <span>w1 ...``) was translated by ``translator``."""
    calls = {"chain": 0, "look": 0}

    def counting(name: str):
        method = getattr(CodeLooks, name)

        def counted(*args):
            calls[name] += 1
            return method(*args)
        return counted

    for name in calls:
        monkeypatch.setattr(CodeLooks, name, counting(name))
    made = document()
    bold = style(made, "T2", "text", automatic=True, fontweight="bold")
    paragraph = inside = text.P(text="A man rides ")
    for number in range(depth):
        inside.addElement(text.Span(stylename=bold, text=f"w{number} "))
        inside = inside.childNodes[-1]
    paragraph.addText(" a bike.")
    made.text.addElement(paragraph)
    translate(odf_bytes(made), translator)
    monkeypatch.undo()
    return calls


def test_the_looks_of_nested_spans_are_asked_no_more_than_once_a_span(monkeypatch, same):
    """Each span asked its styles again for every text inside it and every mark around that: 60
    nested spans took seconds, 200 most of a minute.  Twice the depth may ask at most twice as often."""
    shallow, deep = looks_asked(monkeypatch, same, 30), looks_asked(monkeypatch, same, 60)
    assert deep["look"] > 0 and all(deep[name] <= 2 * shallow[name] for name in deep), (shallow, deep)


def test_each_font_face_of_a_part_is_read_once_a_translation(monkeypatch, same):
    """styles.xml's styles and font faces were indexed again for each part (content.xml,
    styles.xml) and twice for styles.xml itself; now once for every part that names them.  Each
    declaration of the face (odfpy writes the font faces into both parts) is read once."""
    read = []

    def counted(families: str) -> str:
        read.append(families)
        return first_family(families)

    monkeypatch.setattr(opendocument_code, "first_family", counted)
    made = document()
    made.fontfacedecls.addElement(FontFace(name="Indexed", fontfamily="'Indexed Face'"))
    made.text.addElement(text.P(text="A man rides a bike."))
    data = odf_bytes(made)
    declared = sum(part.count(b"Indexed Face") for part in read_members(data).values())
    translate(data, same)
    assert declared == 2 and read.count("'Indexed Face'") == declared, read


def test_a_style_is_named_by_its_display_name_and_its_decoded_name():
    """ODF writes a space in a style's name as _20_; a display name says the name a person gave it."""
    def named(attributes: str) -> etree._Element:
        return etree.fromstring(f'<style:style xmlns:style="{STYLE}" {attributes}/>')

    assert style_names(named('style:name="Preformatted_20_Text"')) == ["Preformatted Text"]
    assert style_names(named('style:name="T1" style:display-name="Source Text"')) == ["Source Text", "T1"]


@pytest.mark.parametrize("tag, kept", [("zxx", True), ("und", False)])
def test_a_span_in_no_language_is_kept_as_it_is(upper, tag, kept):
    """LibreOffice's "[None]" (``fo:language="zxx" fo:country="none"``, what people set on code) is
    a style meant for code: translated, the command came back "LS -L /TMP" still marked zxx.  und
    says the language is not known: words all the same."""
    data = command_file(lambda made: style(made, "T1", "text", automatic=True, language=tag, country="none"))
    paragraph = paragraphs(translate_office(data, ".odt", upper, DocumentOptions(target_lang="de")))[0]
    assert pieces(paragraph)[1] == ("text:span", "ls -l /tmp" if kept else "LS -L /TMP")
    assert any("ls" in sentence for sentence in upper.given) is not kept


def test_a_paragraph_of_spans_in_no_language_is_kept_whole(upper):
    """As a paragraph in "Preformatted Text" is: its spans' styles say zxx."""
    made = document()
    paragraph = text.P()
    paragraph.addElement(text.Span(stylename=style(made, "T1", "text", automatic=True, language="zxx"),
                                   text="AB-1234 rev C"))
    made.text.addElement(paragraph)
    made.text.addElement(text.P(text="Stop here."))
    assert [str(p) for p in paragraphs(translate(odf_bytes(made), upper))] == ["AB-1234 rev C", "STOP HERE."]
    assert upper.given == ["Stop here."]


def test_a_document_whose_default_language_is_none_is_translated(upper):
    """LibreOffice's "[None]" default language (its default style's ``fo:language="zxx"
    fo:country="none"``) is a language for the whole document, no statement about its text: read as
    the text's own, every paragraph was kept in English."""
    made = document()
    properties = made.styles.getElementsByType(DefaultStyle)[0].getElementsByType(TextProperties)[0]
    properties.setAttribute("language", "zxx")
    properties.setAttribute("country", "none")
    for sentence in ("A man runs on the beach.", "Two dogs play."):
        made.text.addElement(text.P(text=sentence))
    assert [str(p) for p in paragraphs(translate(odf_bytes(made), upper))] == [
        "A MAN RUNS ON THE BEACH.", "TWO DOGS PLAY."]


def test_a_span_stating_a_language_in_a_paragraph_in_no_language_is_read_with_its_sentence(upper):
    """A paragraph style's zxx is the paragraph's language, not its words': a span in ``en-US`` in it was
    kept whole, the rest read as half a sentence; the paragraph is one sentence of words."""
    made = document()
    paragraph = text.P(stylename=style(made, "P1", "paragraph", automatic=True, language="zxx", country="none"),
                       text="A man runs ")
    paragraph.addElement(text.Span(stylename=style(made, "T1", "text", automatic=True, language="en", country="US"),
                                   text="on the beach"))
    paragraph.addText(".")
    made.text.addElement(paragraph)
    assert str(paragraphs(translate(odf_bytes(made), upper))[0]) == "A MAN RUNS ON THE BEACH."
    assert upper.given == ["A man runs on the beach."]
