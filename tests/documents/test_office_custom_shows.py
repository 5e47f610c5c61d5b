"""A presentation's custom shows (``p:custShowLst`` in presentation.xml): PowerPoint lists their names
in Slide Show > Custom Slide Show and in the show's right-click menu, so they are translated, kept
distinct, and the slides each shows kept.  Mirror: words upper-cased in reverse order."""

import io

import pptx
import pytest
from lxml import etree
from office_files import SOFFICE, libreoffice_saved, read_members, slides_file, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MAIN = "ppt/presentation.xml"


def with_custom_shows(*names: str) -> bytes:
    """slides_file with a custom show of its one slide for each of ``names``, as PowerPoint writes them."""
    members = read_members(slides_file())
    slide = etree.fromstring(members[MAIN]).find(f".//{{{P}}}sldId").get(f"{{{R}}}id")
    shows = "".join(f'<p:custShow name="{name}" id="{number}"><p:sldLst><p:sld r:id="{slide}"/></p:sldLst>'
                    "</p:custShow>" for number, name in enumerate(names))
    members[MAIN] = members[MAIN].replace(b"<p:defaultTextStyle", f"<p:custShowLst>{shows}</p:custShowLst>"
                                          "<p:defaultTextStyle".encode())
    return write_members(members)


def show_names(data: bytes) -> list[str]:
    return [show.get("name") for show in etree.fromstring(read_members(data)[MAIN]).iter(f"{{{P}}}custShow")]


def test_custom_show_names_are_translated_and_their_slides_kept(mirror):
    """PowerPoint offers a custom show by its name; it was left in the source language."""
    out = translate_office(with_custom_shows("Short version", "Sales &amp; marketing", "2024"), ".pptx", mirror,
                           DocumentOptions())
    assert show_names(out) == ["VERSION SHORT", "MARKETING & SALES", "2024"]
    main = etree.fromstring(read_members(out)[MAIN])
    assert [show.get("id") for show in main.iter(f"{{{P}}}custShow")] == ["0", "1", "2"]
    assert all(len(show.find(f"{{{P}}}sldLst")) == 1 for show in main.iter(f"{{{P}}}custShow"))
    assert "2024" not in mirror.given
    assert pptx.Presentation(io.BytesIO(out)).slides[0].shapes.title.text == "LAUGHS. BOY THE"


def test_custom_shows_whose_translations_would_be_one_keep_their_sources_with_a_warning(known):
    """PowerPoint names a show in its menus and its macros by its name (in any case): "Short version"
    and "Brief version" both translated "Kurzfassung" would be one, so each keeps its source."""
    slides = {text: (text, [(k, k) for k in range(len(text.split()))])  # the slide's texts, as they are
              for text in ("The boy laughs.", "A red car stops.", "Say hello to the people.")}
    translator = known({"Short version": ("Kurzfassung", [(0, 0)]), "Brief version": ("kurzfassung", [(0, 0)]),
                        "Long version": ("Langfassung", [(0, 0)]), **slides})
    with pytest.warns(LeftUntranslated) as warned:
        out = translate_office(with_custom_shows("Short version", "Brief version", "Long version"), ".pptx",
                               translator, DocumentOptions())
    assert show_names(out) == ["Short version", "Brief version", "Langfassung"]
    assert sorted(str(warning.message) for warning in warned) == [
        f"the .pptx file: ppt/presentation.xml: the translation of the custom show's name {source!r} would be "
        f"{target!r}, another of its names, which PowerPoint takes for one show, so its source is kept"
        for source, target in (("Brief version", "kurzfassung"), ("Short version", "Kurzfassung"))]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_reads_the_translated_custom_shows(mirror, tmp_path):
    out = translate_office(with_custom_shows("Short version", "Long version"), ".pptx", mirror, DocumentOptions())
    saved = libreoffice_saved(out, ".pptx", "pptx", tmp_path / "saved")
    assert sorted(show_names(saved)) == ["VERSION LONG", "VERSION SHORT"]
