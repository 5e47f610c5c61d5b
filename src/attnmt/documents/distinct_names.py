"""Names an application takes for one where they read alike, case apart: a pivot table's fields and a
field's items (attnmt.documents.pivot_captions; Excel refuses a file where two are one), a
presentation's custom shows (attnmt.documents.slide_sections; PowerPoint names a show by its name in
its menus and its macros; an .odp's: attnmt.documents.opendocument_shows).  Two names that translate
alike ("Sum of Sales" and "Total Sales", both "Umsatz") would be one, so where a translated name would
be another's, each translated name among them keeps its source, with a warning."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.flat import FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob
from attnmt.errors import LeftUntranslated, warn


class NamesJob:
    """Names that must stay distinct, ``held`` as (element, attribute): those with words translated
    (``jobs``; ``escaped``: the attributes escape what XML cannot hold, as SpreadsheetML's do), each of
    them whose translation would be another's name, in any case, kept as it was (``clashed``, warned
    of by ``warn_kept``: ``what`` names one of them, ``taken`` what the application does with two)."""

    def __init__(self, held: Sequence[tuple[etree._Element, str]], glossary: Glossary | None, what: str,
                 taken: str = "which Excel refuses", escaped: bool = True) -> None:
        self.what, self.taken = what, taken
        self.jobs = [AttributeJob(element, name, escaped=escaped) for element, name in held
                     if needs_translation(element.get(name, ""), glossary)]
        translated = {job.element for job in self.jobs}
        self.others = [element.get(name, "") for element, name in held
                       if element not in translated and element.get(name) is not None]
        self.sources = [job.written() for job in self.jobs]
        self.clashed: list[tuple[str, str]] = []  # (source, translation) of each name kept as it was

    def flats(self) -> list[FlatText]:
        return [flat for job in self.jobs for flat in job.flats()]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        position = 0
        for job in self.jobs:
            job.finish(results[position:position + len(job.lines)])
            position += len(job.lines)
        names = [job.written() for job in self.jobs]
        # names the source already gave twice are the author's to settle: none of them is put back
        twice = {name for name, count in Counter(name.casefold() for name in [*self.others, *self.sources]).items()
                 if count > 1}
        while True:  # a name given its source back may be a translation's: until none is another's
            counts = Counter(name.casefold() for name in [*self.others, *names])
            clashing = [number for number, name in enumerate(names) if counts[name.casefold()] > 1
                        and name != self.sources[number] and self.sources[number].casefold() not in twice]
            if not clashing:
                return
            for number in clashing:
                self.clashed.append((self.jobs[number].text, names[number]))
                names[number] = self.sources[number]
                self.jobs[number].write(self.sources[number])

    def warn_kept(self, name: str) -> None:
        """A warning for each name kept as it was, naming the file ``name`` and its part."""
        place = self.jobs[0].lines[0].place if self.jobs else None
        for source, translation in self.clashed:
            warn(f"{name}: {place.part if place is not None else 'its part'}: the translation of the "
                 f"{self.what} {source!r} would be {translation!r}, another of its names, {self.taken}, "
                 "so its source is kept", category=LeftUntranslated)
