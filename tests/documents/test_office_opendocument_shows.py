"""A presentation's custom shows (``presentation:show`` in content.xml's ``presentation:settings``): Impress lists
their names in Slide Show > Custom Slide Show, so they are translated, kept distinct, the slides each shows kept,
and the show the presentation starts with named as it is now (attnmt.documents.opendocument_shows).  Mirror: words
upper-cased in reverse order ("Short version" -> "VERSION SHORT")."""

import io

import pytest
from flat_files import NAMESPACES, flat_file
from lxml import etree
from odf.draw import Frame, Page, TextBox
from odf.opendocument import OpenDocumentPresentation, load
from odf.presentation import Settings, Show
from odf.style import MasterPage, PageLayout
from odf.text import P
from office_files import SOFFICE, libreoffice_saved, odf_bytes

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

SLIDES = ("The boy laughs.", "A red car stops.")


def shows_file(start: str, *shows: tuple[str, str]) -> bytes:
    """An .odp of one slide a text of SLIDES (page1, page2), its custom shows ``shows`` (name, pages) and the
    show it starts with, ``start``, as odfpy writes them."""
    document = OpenDocumentPresentation()
    layout = PageLayout(name="L")
    document.automaticstyles.addElement(layout)
    master = MasterPage(name="M", pagelayoutname=layout)
    document.masterstyles.addElement(master)
    for number, text in enumerate(SLIDES, start=1):
        page = Page(name=f"page{number}", masterpagename=master)
        frame, box = Frame(width="20cm", height="3cm"), TextBox()
        box.addElement(P(text=text))
        frame.addElement(box)
        page.addElement(frame)
        document.presentation.addElement(page)
    settings = Settings(show=start)
    for name, pages in shows:
        settings.addElement(Show(name=name, pages=pages))
    document.presentation.addElement(settings)
    return odf_bytes(document)


def read_shows(data: bytes) -> tuple[str, list[tuple[str, str]]]:
    """The show an .odp starts with, and its custom shows (name, pages), as odfpy reads them."""
    document = load(io.BytesIO(data))
    start = document.getElementsByType(Settings)[0].getAttribute("show")
    return start, [(show.getAttribute("name"), show.getAttribute("pages")) for show in document.getElementsByType(Show)]


def test_custom_show_names_are_translated_and_their_pages_kept(mirror):
    """Impress lists a custom show by its name; it was left in the source language beside translated slides."""
    out = translate_office(shows_file("2024", ("Short version", "page1"), ("Sales & marketing", "page1,page2"),
                                      ("2024", "page2")), ".odp", mirror, DocumentOptions())
    assert read_shows(out) == ("2024", [("VERSION SHORT", "page1"), ("MARKETING & SALES", "page1,page2"),
                                        ("2024", "page2")])
    assert "2024" not in mirror.given


def test_the_show_a_presentation_starts_with_is_named_by_its_translated_name(mirror):
    """The settings name their show by its name: left as it was, it named no show, and LibreOffice could not
    save the file again."""
    out = translate_office(shows_file("Long version", ("Short version", "page1"), ("Long version", "page1,page2")),
                           ".odp", mirror, DocumentOptions())
    assert read_shows(out)[0] == "VERSION LONG"


def test_custom_shows_whose_translations_would_be_one_keep_their_sources_with_a_warning(known):
    """"Short version" and "Brief version" both translated "Kurzfassung" (in any case) would be one show, so each
    keeps its source, and the show the presentation starts with still names its own."""
    slides = {text: (text, [(k, k) for k in range(len(text.split()))]) for text in SLIDES}  # as they are
    translator = known({"Short version": ("Kurzfassung", [(0, 0)]), "Brief version": ("kurzfassung", [(0, 0)]),
                        "Long version": ("Langfassung", [(0, 0)]), **slides})
    data = shows_file("Brief version", ("Short version", "page1"), ("Brief version", "page2"),
                      ("Long version", "page1,page2"))
    with pytest.warns(LeftUntranslated) as warned:
        out = translate_office(data, ".odp", translator, DocumentOptions())
    assert read_shows(out) == ("Brief version", [("Short version", "page1"), ("Brief version", "page2"),
                                                 ("Langfassung", "page1,page2")])
    assert sorted(str(warning.message) for warning in warned) == [
        f"the .odp file: content.xml: the translation of the custom show's name {source!r} would be {target!r}, "
        "another of its names, which LibreOffice or PowerPoint takes for one show, so its source is kept"
        for source, target in (("Brief version", "kurzfassung"), ("Short version", "Kurzfassung"))]


def test_a_flat_presentations_custom_shows_and_its_start_are_translated(mirror):
    body = ('<office:presentation><draw:page draw:name="page1"><draw:frame><draw:text-box><text:p>The boy laughs.'
            '</text:p></draw:text-box></draw:frame></draw:page><presentation:settings presentation:show="Short '
            'version"><presentation:show presentation:name="Short version" presentation:pages="page1"/>'
            '</presentation:settings></office:presentation>')
    out = etree.fromstring(translate_office(flat_file("presentation", body), ".fodp", mirror, DocumentOptions()))
    settings = out.find(".//presentation:settings", NAMESPACES)
    show = settings.find("presentation:show", NAMESPACES)
    names = [element.get(f"{{{NAMESPACES['presentation']}}}{name}") for element, name in
             ((settings, "show"), (show, "name"), (show, "pages"))]
    assert names == ["VERSION SHORT", "VERSION SHORT", "page1"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_saves_the_translated_custom_shows_and_the_show_it_starts_with(mirror, tmp_path):
    out = translate_office(shows_file("Short version", ("Short version", "page1"), ("Long version", "page1,page2")),
                           ".odp", mirror, DocumentOptions())
    start, shows = read_shows(libreoffice_saved(out, ".odp", "odp", tmp_path / "saved"))
    assert (start, sorted(shows)) == ("VERSION SHORT", [("VERSION LONG", "page1,page2"), ("VERSION SHORT", "page1")])
