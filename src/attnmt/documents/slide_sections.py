"""A presentation's sections (PowerPoint 2010's ``p14:section`` in presentation.xml's extension list):
each a name and the slides it holds.  PowerPoint shows the name above its slides in the slide
sorter and the thumbnails, and prints it in handouts, so it is words for the reader, translated as
a line of plain text (validations.AttributeJob); the slides it lists (``p14:sldIdLst``) are kept."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.letterless import needs_translation
from attnmt.documents.validations import AttributeJob

P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"


class SlideSections:
    """The presentation part's sections' names (the module docstring)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        return [AttributeJob(section, "name", escaped=False) for section in root.iter(f"{{{P14}}}section")
                if needs_translation(section.get("name", ""), glossary)]


SLIDE_SECTIONS = SlideSections()
