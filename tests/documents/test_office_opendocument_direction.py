"""The direction of a translated OpenDocument paragraph (attnmt.documents.opendocument_direction):
the target language's, as a Word paragraph's is.  A paragraph whose style (automatic or common,
with the styles it is based on) writes it right to left (``style:writing-mode="rl-tb"``)
translated into German gets a style of its own that writes it left to right; one translated into
Arabic the reverse.  A paragraph not translated keeps its style.  Mirror: words upper-cased in
reverse order."""

import io
import zipfile

from lxml import etree
from odf.opendocument import OpenDocumentText
from odf.style import ParagraphProperties, Style
from odf.text import P
from office_files import odf_bytes

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def style_of(name: str, family: str = "paragraph", parent: str | None = None, mode: str | None = "rl-tb") -> Style:
    """A paragraph style writing right to left (``mode``: its writing mode, None: none), aligned to its end."""
    style = Style(name=name, family=family, **({} if parent is None else {"parentstylename": parent}))
    style.addElement(ParagraphProperties(textalign="end", **({} if mode is None else {"writingmode": mode})))
    return style


def translated(document, translator, **options) -> tuple[etree._Element, etree._Element]:
    """The translated file's content.xml and styles.xml (their roots)."""
    out = translate_office(odf_bytes(document), ".odt", translator, DocumentOptions(**options))
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        return (etree.fromstring(archive.read("content.xml")), etree.fromstring(archive.read("styles.xml")))


def paragraphs(content: etree._Element) -> list[tuple[str, str | None]]:
    """Each paragraph's text and style."""
    return [("".join(p.itertext()), p.get(f"{{{TEXT}}}style-name")) for p in content.iter(f"{{{TEXT}}}p")]


def automatic(content: etree._Element, name: str) -> etree._Element:
    return content.find(f"{{{OFFICE}}}automatic-styles/{{{STYLE}}}style[@{{{STYLE}}}name='{name}']")


def mode_of(style: etree._Element) -> str | None:
    return style.find(f"{{{STYLE}}}paragraph-properties").get(f"{{{STYLE}}}writing-mode")


def test_a_right_to_left_paragraph_translated_into_german_is_laid_out_left_to_right(mirror):
    """It came out in P1, rl-tb: German set from the right.  Its style's copy keeps its alignment."""
    document = OpenDocumentText()
    document.automaticstyles.addElement(style_of("P1"))
    for text in ("The dog runs.", "The cat sleeps.", "42"):  # no words: not translated, it keeps its style
        document.text.addElement(P(stylename="P1", text=text))
    content, _ = translated(document, mirror, target_lang="de")
    assert paragraphs(content) == [("RUNS. DOG THE", "P1_lr-tb"), ("SLEEPS. CAT THE", "P1_lr-tb"), ("42", "P1")]
    made, kept = automatic(content, "P1_lr-tb"), automatic(content, "P1")
    assert mode_of(made) == "lr-tb" and mode_of(kept) == "rl-tb"
    properties = made.find(f"{{{STYLE}}}paragraph-properties")
    assert properties.get("{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}text-align") == "end"


def test_without_a_target_language_the_paragraph_style_is_kept(mirror):
    document = OpenDocumentText()
    document.automaticstyles.addElement(style_of("P1"))
    document.text.addElement(P(stylename="P1", text="The dog runs."))
    content, _ = translated(document, mirror)
    assert paragraphs(content) == [("RUNS. DOG THE", "P1")] and automatic(content, "P1_lr-tb") is None


def test_a_common_style_based_on_a_right_to_left_one_gets_an_automatic_style_based_on_it(mirror):
    """Arabic Body, based on Arabic, says nothing of its direction: Arabic's rl-tb is in effect."""
    document = OpenDocumentText()
    document.styles.addElement(style_of("Arabic"))
    document.styles.addElement(style_of("Arabic_20_Body", parent="Arabic", mode=None))
    document.text.addElement(P(stylename="Arabic_20_Body", text="The dog runs."))
    content, styles = translated(document, mirror, target_lang="de-DE")
    assert paragraphs(content) == [("RUNS. DOG THE", "Arabic_20_Body_lr-tb")]
    made = automatic(content, "Arabic_20_Body_lr-tb")
    assert made.get(f"{{{STYLE}}}parent-style-name") == "Arabic_20_Body" and mode_of(made) == "lr-tb"
    assert styles.find(f".//{{{STYLE}}}style[@{{{STYLE}}}name='Arabic_20_Body_lr-tb']") is None


def test_a_left_to_right_paragraph_translated_into_german_keeps_its_style(mirror):
    document = OpenDocumentText()
    document.automaticstyles.addElement(style_of("P1", mode="lr-tb"))
    document.text.addElement(P(stylename="P1", text="The dog runs."))
    document.text.addElement(P(text="The cat sleeps."))
    content, _ = translated(document, mirror, target_lang="de")
    assert paragraphs(content) == [("RUNS. DOG THE", "P1"), ("SLEEPS. CAT THE", None)]


def test_a_paragraph_translated_into_arabic_is_laid_out_right_to_left(mirror):
    document = OpenDocumentText()
    document.text.addElement(P(text="The dog runs."))
    content, _ = translated(document, mirror, target_lang="ar")
    assert paragraphs(content) == [("RUNS. DOG THE", "P_rl-tb")]
    made = automatic(content, "P_rl-tb")
    assert mode_of(made) == "rl-tb" and made.get(f"{{{STYLE}}}parent-style-name") is None
