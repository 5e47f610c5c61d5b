"""A presentation's own names, in presentation.xml: its sections (PowerPoint 2010's ``p14:section`` in
its extension list) and its custom shows (``p:custShow`` in ``p:custShowLst``).

A section is a name and the slides it holds.  PowerPoint shows the name above its slides in the slide
sorter and the thumbnails, and prints it in handouts, so it is words for the reader, translated as
a line of plain text (validations.AttributeJob); the slides it lists (``p14:sldIdLst``) are kept.

A custom show is a name and the slides it shows (``p:sldLst``): PowerPoint offers it by its name in
Slide Show > Custom Slide Show and in the show's right-click menu, so its name is translated too.
A link or the show's settings name a show by its ``id`` (``ppaction://customshow?id=0``), never by
its name, and both are kept; but PowerPoint names a show in its menus and its macros
(``NamedSlideShows("...")``) by its name, so two shows' names stay distinct
(attnmt.documents.distinct_names.NamesJob)."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.distinct_names import NamesJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.validations import AttributeJob

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"


class SlideSections:
    """The presentation part's sections' names and custom shows' names (the module docstring)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        jobs: list[Job] = [AttributeJob(section, "name", escaped=False) for section in root.iter(f"{{{P14}}}section")
                           if needs_translation(section.get("name", ""), glossary)]
        shows = NamesJob([(show, "name") for show in root.iter(f"{{{P}}}custShow")], glossary,
                         "custom show's name", "which PowerPoint takes for one show", escaped=False)
        return [*jobs, shows] if shows.jobs else jobs


SLIDE_SECTIONS = SlideSections()
