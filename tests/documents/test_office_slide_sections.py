"""A presentation's sections (attnmt.documents.slide_sections): their names, which PowerPoint shows in
the slide sorter and the thumbnails, are translated, the slides they hold kept.  Mirror: words
upper-cased in reverse order."""

import io

import pptx
from lxml import etree
from office_files import read_members, slides_file, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"
MAIN = "ppt/presentation.xml"


def sectioned(*names: str) -> bytes:
    """slides_file with its slide in the first of ``names``'s sections (the rest empty), as PowerPoint writes them."""
    members = read_members(slides_file())
    slide = etree.fromstring(members[MAIN]).find(".//{*}sldId").get("id")
    sections = "".join(f'<p14:section name="{name}" id="{{6A1A9D21-0000-4000-8000-00000000000{number}}}">'
                       f'<p14:sldIdLst>{f"<p14:sldId id={chr(34)}{slide}{chr(34)}/>" if number == 0 else ""}'
                       "</p14:sldIdLst></p14:section>" for number, name in enumerate(names))
    ext = (f'<p:extLst><p:ext uri="{{521415D9-36F7-43E2-AB2F-B90AF26B5E84}}"><p14:sectionLst xmlns:p14="{P14}">'
           f"{sections}</p14:sectionLst></p:ext></p:extLst></p:presentation>")
    members[MAIN] = members[MAIN].replace(b"</p:presentation>", ext.encode())
    return write_members(members)


def test_section_names_are_translated_and_their_slides_kept(mirror):
    """PowerPoint shows a section's name above its slides in the sorter and the thumbnails; it was
    left in the source language (presentation.xml was never read)."""
    out = translate_office(sectioned("The introduction", "Our results &amp; plans", "2024"), ".pptx", mirror,
                           DocumentOptions())
    main = etree.fromstring(read_members(out)[MAIN])
    sections = list(main.iter(f"{{{P14}}}section"))
    assert [section.get("name") for section in sections] == ["INTRODUCTION THE", "PLANS & RESULTS OUR", "2024"]
    assert [len(section.find(f"{{{P14}}}sldIdLst")) for section in sections] == [1, 0, 0]
    assert "2024" not in mirror.given
    assert pptx.Presentation(io.BytesIO(out)).slides[0].shapes.title.text == "LAUGHS. BOY THE"
