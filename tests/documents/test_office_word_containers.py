"""A run inside a container (a tracked insertion ``w:ins``, a content control ``w:sdt``, a
``w:hyperlink``) keeps its edge spaces as a run right in the paragraph does (the edge-space tests
of test_office_word.py): where the paragraph's base look shows on a space, a space the container
had at its edge stays inside it, out of the underline and inside the tracked insertion."""

import pytest
from lxml import etree
from office_files import W, read_members, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

UNDERLINED = '<w:r><w:rPr><w:u w:val="single"/></w:rPr><w:t>Two dogs are running in the green park</w:t></w:r>'
NEAR = '<w:r><w:t xml:space="preserve"> near the water.</w:t></w:r>'
GERMAN = "Zwei Hunde laufen im grünen Park in der Nähe des Wassers."
# Two dogs are running | in the | green park | near | the | water.
ALIGNMENT = [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 5), (8, 6), (8, 8), (9, 7), (9, 9), (10, 10)]


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
