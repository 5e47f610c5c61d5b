"""A container (a tracked insertion ``w:ins``, a content control ``w:sdt``, a ``w:hyperlink``)
keeps the spaces it had at its edges inside it, whatever the paragraph's base look: they are its
content (text the insertion inserts, part of the link).  Where the base shows on a space, that also
keeps the space out of the underline, as a run right in the paragraph does (the edge-space tests of
test_office_word.py)."""

import pytest
from lxml import etree
from office_files import W14, W, read_members, word_paragraph

from attnmt.decoding.quality import Assessment
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

UNDERLINED = '<w:r><w:rPr><w:u w:val="single"/></w:rPr><w:t>Two dogs are running in the green park</w:t></w:r>'
NEAR = '<w:r><w:t xml:space="preserve"> near the water.</w:t></w:r>'
GERMAN = "Zwei Hunde laufen im grünen Park in der Nähe des Wassers."
# Two dogs are running | in the | green park | near | the | water.
ALIGNMENT = [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 5), (8, 6), (8, 8), (9, 7), (9, 9), (10, 10)]


MAN = '<w:r><w:t>A man</w:t></w:r>'
HAT = '<w:r><w:t xml:space="preserve"> in a hat</w:t></w:r>'
WALKS = '<w:r><w:t xml:space="preserve"> walks.</w:t></w:r>'
# A man | in | a hat | walks. -> Ein Mann | mit | Hut | geht spazieren.
MAN_ALIGNMENT = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 4), (5, 5)]


# Each container around the run, by the name of the element that holds its runs: its opening and closing tags.
CONTAINERS = {
    "ins": ('<w:ins w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z">', "</w:ins>"),
    "sdtContent": ('<w:sdt><w:sdtPr><w:id w:val="5"/></w:sdtPr><w:sdtContent>', "</w:sdtContent></w:sdt>"),
    "hyperlink": ('<w:hyperlink w:anchor="water">', "</w:hyperlink>"),
}


def held_runs(data: bytes) -> list[tuple[str, str]]:
    """(the name of the element holding it, its text) of each run of a Word file's first paragraph."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{{{W}}}p")
    return [(etree.QName(run.getparent()).localname, "".join(t.text or "" for t in run.iter(f"{{{W}}}t")))
            for run in paragraph.iter(f"{{{W}}}r")]


@pytest.mark.parametrize("container", CONTAINERS)
def test_a_containers_edge_space_stays_in_it_where_the_base_shows_on_spaces(fixed, container):
    """Put outside the container, the space went into the underlined base run (and out of the
    tracked insertion; a content control's went into a run of its own right in the ``w:sdt``, outside its
    ``w:sdtContent``, where Word allows none): the line was drawn across the word gap."""
    opening, closing = CONTAINERS[container]
    data = word_paragraph(UNDERLINED + opening + NEAR + closing)
    out = translate_office(data, ".docx", fixed(GERMAN, ALIGNMENT), DocumentOptions())
    assert held_runs(out) == [("p", "Zwei Hunde laufen im grünen Park"), (container, " in der Nähe des Wassers.")]


@pytest.mark.parametrize("container", CONTAINERS)
def test_a_containers_edge_space_stays_in_it_under_a_plain_base(fixed, container):
    """Under a base whose look does not show on a space, the space left the container: the tracked
    insertion came out ``Ein Mann <ins>mit Hut</ins>``, and rejecting it gave "Ein Mann  geht"."""
    opening, closing = CONTAINERS[container]
    data = word_paragraph(MAN + opening + HAT + closing + WALKS)
    out = translate_office(data, ".docx", fixed("Ein Mann mit Hut geht spazieren.", MAN_ALIGNMENT), DocumentOptions())
    assert held_runs(out) == [("p", "Ein Mann"), (container, " mit Hut"), ("p", " geht spazieren.")]


@pytest.mark.parametrize("container", CONTAINERS)
def test_a_paragraph_that_kept_its_source_keeps_its_containers_edge_spaces(same, container):
    """With ``--below-quality source`` the paragraph came back changed: ``A man <ins>in a hat</ins>``."""
    opening, closing = CONTAINERS[container]
    data = word_paragraph(MAN + opening + HAT + closing + WALKS)
    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_office(data, ".docx", same, DocumentOptions(), review=review)
    assert held_runs(out) == held_runs(data) == [("p", "A man"), (container, " in a hat"), ("p", " walks.")]


INSERTED_COMMA = ('<w:r><w:t>A man is walking</w:t></w:r>' + CONTAINERS["ins"][0] + '<w:r><w:t>,</w:t></w:r></w:ins>'
                  '<w:r><w:t xml:space="preserve"> and a woman is running.</w:t></w:r>')
# A man is walking, | and a woman is running. -> Ein Mann geht(,) | und eine Frau rennt.
WALKING_ALIGNMENT = [(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5), (8, 6)]


def paragraph_shape(data: bytes) -> list[tuple[str, str]]:
    """(name, text) of each element of a Word file's first paragraph, in order, but the language a
    kept paragraph states again on its runs (``w:lang`` in a ``w:rPr``)."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{{{W}}}p")
    return [(etree.QName(node).localname, node.text or "") for node in paragraph.iter()
            if etree.QName(node).localname not in ("rPr", "lang")]


def test_an_insertion_of_a_comma_glued_to_a_word_stays_on_the_comma(fixed):
    """It grew over the word it was glued to (``<ins>geht,</ins>``): rejecting it deleted "geht"."""
    out = translate_office(word_paragraph(INSERTED_COMMA), ".docx",
                           fixed("Ein Mann geht, und eine Frau rennt.", WALKING_ALIGNMENT), DocumentOptions())
    assert held_runs(out) == [("p", "Ein Mann geht"), ("ins", ","), ("p", " und eine Frau rennt.")]


def test_an_insertion_of_a_comma_the_translation_left_out_is_a_point(fixed):
    """It took the word aligned to the comma's (``<ins>geht</ins>``), which Reject All then deleted."""
    out = translate_office(word_paragraph(INSERTED_COMMA), ".docx",
                           fixed("Ein Mann geht und eine Frau rennt.", WALKING_ALIGNMENT), DocumentOptions())
    assert "ins" not in dict(held_runs(out)) and "".join(text for _, text in held_runs(out)) == \
        "Ein Mann geht und eine Frau rennt."
    assert b"<w:ins " in read_members(out)["word/document.xml"]


@pytest.mark.parametrize("inline", [
    INSERTED_COMMA,
    '<w:r><w:t>A man is walking</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>,</w:t></w:r>'
    '<w:r><w:t xml:space="preserve"> and a woman is running.</w:t></w:r>',
    '<w:r><w:t>A dog</w:t></w:r>' + CONTAINERS["ins"][0] + '<w:r><w:t>.</w:t></w:r></w:ins>' + CONTAINERS["ins"][0]
    + '<w:r><w:t xml:space="preserve"> A cat sleeps.</w:t></w:r></w:ins>',
    '<w:r><w:t>A man is ri</w:t></w:r><w:bookmarkStart w:id="0" w:name="bm"/>'
    '<w:r><w:t xml:space="preserve">ding a horse</w:t></w:r><w:bookmarkEnd w:id="0"/><w:r><w:t>.</w:t></w:r>',
], ids=["inserted-comma", "bold-comma", "inserted-stop", "bookmark-in-a-word"])
def test_a_paragraph_that_kept_its_source_keeps_marks_on_glued_punctuation_and_in_words(same, inline):
    """With ``--below-quality source`` it came back changed: ``A man is <ins>walking,</ins>``, ``A
    <ins>dog.</ins>``, a bold ``walking,``, a bookmark moved from inside ``ri|ding`` before it."""
    data = word_paragraph(inline)
    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_office(data, ".docx", same, DocumentOptions(), review=review)
    assert paragraph_shape(out) == paragraph_shape(data)


@pytest.mark.parametrize("start, end, attributes", [("moveToRangeStart", "moveToRangeEnd", 'w:author="A" w:name="m"'),
                                                  ("moveFromRangeStart", "moveFromRangeEnd", 'w:author="A" w:name="m"'),
                                                  ("permStart", "permEnd", 'w:edGrp="everyone"')])
def test_a_moves_or_an_editing_permissions_range_keeps_its_end_after_its_start(mirror, start, end, attributes):
    """A tracked move's range (around its ``w:moveTo``) and a range everyone may edit in a protected
    file were two loose atoms: the words turned around, the end came first (``MAT. THE ON <end/>SLEEPS
    <start/>BIG VERY``).  Each is a range, as a bookmark is: it goes around its words' translation."""
    data = word_paragraph(f'<w:r><w:t xml:space="preserve">The cat </w:t></w:r><w:{start} w:id="1" {attributes}/>'
                          f'<w:r><w:t xml:space="preserve">very big </w:t></w:r><w:{end} w:id="1"/>'
                          '<w:r><w:t xml:space="preserve">sleeps on the mat.</w:t></w:r>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    read = [node.text if node.tag == f"{{{W}}}t" else etree.QName(node).localname for node in paragraph.iter()
            if node.tag not in (f"{{{W}}}p", f"{{{W}}}r")]
    assert read == ["MAT. THE ON SLEEPS ", start, "BIG VERY ", end, "CAT THE"]


MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
# " runs" with a w14 glow, written by Word in an mc:AlternateContent: the Choice shown, the Fallback for older readers
GLOWING = (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="w14"><w:r><w:rPr><w14:glow w14:rad="63500"/>'
           '</w:rPr><w:t xml:space="preserve"> runs</w:t></w:r></mc:Choice><mc:Fallback><w:r>'
           '<w:t xml:space="preserve"> runs</w:t></w:r></mc:Fallback></mc:AlternateContent>')


def test_runs_word_wraps_in_an_alternate_content_are_read_and_translated_with_their_sentence(mirror):
    """Read as one atom with no text, " runs" was missing from the sentence ("The dog fast today.") and
    stayed untranslated; the Choice's runs now take its place, their w14 glow kept."""
    data = word_paragraph('<w:r><w:t>The dog</w:t></w:r>' + GLOWING
                          + '<w:r><w:t xml:space="preserve"> fast today.</w:t></w:r>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    assert mirror.given == ["The dog runs fast today."]
    assert "".join(text for _, text in held_runs(out)) == "TODAY. FAST RUNS DOG THE"
    assert b"w14:glow" in read_members(out)["word/document.xml"]


def test_runs_in_an_alternate_content_inside_a_content_control_are_read_with_their_sentence(mirror):
    """A content control that is not data-bound (a template's "Body" control) around the same runs: its
    AlternateContent was still one atom, " runs" left out of the sentence and untranslated."""
    runs = ('<w:r><w:t>The dog</w:t></w:r>' + GLOWING + '<w:r><w:t xml:space="preserve"> fast today.</w:t></w:r>')
    data = word_paragraph(f'<w:sdt><w:sdtPr><w:alias w:val="Body"/></w:sdtPr><w:sdtContent>{runs}</w:sdtContent>'
                          '</w:sdt>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    assert mirror.given == ["The dog runs fast today."]
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert "".join(body.find(f".//{{{W}}}sdtContent").itertext()) == "TODAY. FAST RUNS DOG THE"
    assert body.find(f".//{{{W14}}}glow") is not None


def test_a_bookmark_end_that_lands_at_the_paragraphs_end_takes_no_space_after_it(mirror):
    """``<start/>The marked words<end/> stand here.`` turned around ("HERE. STAND <start/>WORDS MARKED THE<end/>")
    ended with a run of one space after the bookmark's end, the space it had before "stand": nothing follows it
    now, and a trailing space ends the line unseen (a centred title sits off centre by it)."""
    data = word_paragraph('<w:bookmarkStart w:id="0" w:name="b1"/><w:r><w:t>The marked words</w:t></w:r>'
                          '<w:bookmarkEnd w:id="0"/><w:r><w:t xml:space="preserve"> stand here.</w:t></w:r>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    assert [(etree.QName(child).localname, "".join(child.itertext())) for child in paragraph] == [
        ("r", "HERE. STAND "), ("bookmarkStart", ""), ("r", "WORDS MARKED THE"), ("bookmarkEnd", "")]
