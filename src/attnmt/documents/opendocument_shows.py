"""A presentation's custom shows (Impress's Slide Show > Custom Slide Show): each a ``presentation:show`` in
content.xml's ``presentation:settings``, a name (``presentation:name``) and the slides it shows, named by their
``draw:name`` (``presentation:pages="page1,page2"``, kept).  Impress lists a show by its name, so the name is
translated, as a .pptx's custom show's is (attnmt.documents.slide_sections).

The settings name the show a presentation starts with by its name (``presentation:show`` on
``presentation:settings``), so that name follows the show's: a file whose settings named no show of it
LibreOffice could not save again ("Unspecified Application Error").  LibreOffice keeps one show of two of one
name, and PowerPoint, which opens an .odp too, takes two names alike in any case for one, so the shows' names
stay distinct (attnmt.documents.distinct_names.NamesJob)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.distinct_names import NamesJob
from attnmt.documents.spans import Nested

PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
SETTINGS = f"{{{PRESENTATION}}}settings"
SHOW = f"{{{PRESENTATION}}}show"  # a custom show; on the settings, the name of the one the presentation starts with
NAME = f"{{{PRESENTATION}}}name"


class ShowNamesJob(NamesJob):
    """The names of the custom shows of one ``presentation:settings`` (``element``, as a TextJob's holds its
    text), and the name of the show it starts with following the name of that show (the module docstring)."""

    def __init__(self, settings: etree._Element, glossary: Glossary | None) -> None:
        super().__init__([(show, NAME) for show in settings.iterchildren(SHOW)], glossary, "custom show's name",
                         "which LibreOffice or PowerPoint takes for one show", escaped=False)
        self.element = settings

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)
        renamed = {source: job.written() for source, job in zip(self.sources, self.jobs, strict=True)}
        start = renamed.get(self.element.get(SHOW, ""))
        if start is not None:
            self.element.set(SHOW, start)


def show_name_jobs(settings: Iterable[etree._Element], glossary: Glossary | None) -> list[ShowNamesJob]:
    """A job for the custom shows of each of ``settings`` (``presentation:settings``) with a name to translate."""
    return [job for job in (ShowNamesJob(each, glossary) for each in settings) if job.jobs]
