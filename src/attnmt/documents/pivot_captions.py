"""A pivot table's own labels, held in its definition (``xl/pivotTables/pivotTableN.xml``), which
Excel writes into the sheet's cells each time it lays the table out, and LibreOffice on opening:
a data field's name (``<dataField name="Sum of Amount">``), the table's captions
(``dataCaption="Values"``, ``grandTotalCaption``, ``rowHeaderCaption``, ``colHeaderCaption``,
``errorCaption``, ``missingCaption``, and a field's label of its subtotals, ``subtotalCaption``), a
field renamed in the table (``<pivotField name="Product">``) and an item renamed in its field
(``<item n="Red apples" x="0"/>``).  The cells Excel wrote are the
workbook's strings, translated; the definition kept the source, so a refresh, or LibreOffice, showed
the labels in the source language.  Each is translated as a data validation's message is, line by
line.  The cache's field names (``cacheField``) are left: they are the source headers' names, kept
(attnmt.documents.pivot_caches).

Excel takes no two fields of a table, data fields among them, of one name (in any case), nor two
items of a field: a file whose translations made two so ("Sum of Sales" and "Total Sales", both
"Umsatz") it refused to open, or repaired by taking the table out.  So where a translated name
would be another's, each translated name among them keeps its source, with a warning (NamesJob)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.flat import FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob
from attnmt.errors import LeftUntranslated, warn

CAPTIONS = ("dataCaption", "grandTotalCaption", "rowHeaderCaption", "colHeaderCaption", "errorCaption",
            "missingCaption")


class NamesJob:
    """Names of a pivot table that must stay distinct (its fields', or a field's items'), ``held`` as
    (element, attribute): those with words translated (``jobs``), each of them whose translation would
    be another's name, in any case, kept as it was (``clashed``, warned of by ``warn_kept``)."""

    def __init__(self, held: Sequence[tuple[etree._Element, str]], glossary: Glossary | None, what: str) -> None:
        self.what = what
        self.jobs = [AttributeJob(element, name) for element, name in held
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
            warn(f"{name}: {place.part if place is not None else 'a pivot table'}: the translation of the "
                 f"{self.what} {source!r} would be {translation!r}, another of its names, which Excel refuses, "
                 "so its source is kept", category=LeftUntranslated)


class PivotCaptions:
    """A pivot table definition's texts: its captions and its fields' subtotals' captions, then its fields'
    names and each field's items' names."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> Sequence[Job]:
        if root.tag != s("pivotTableDefinition"):
            return []
        fields = [*root.iter(s("pivotField"))]
        held = [(root, name) for name in CAPTIONS] + [(field, "subtotalCaption") for field in fields]
        jobs: list[Job] = [AttributeJob(element, name) for element, name in held
                           if needs_translation(element.get(name, ""), glossary)]
        groups = [NamesJob([(field, "name") for field in [*fields, *root.iter(s("dataField"))]], glossary,
                           "pivot table's field name")]
        groups += [NamesJob([(item, "n") for item in field.iter(s("item"))], glossary, "field's item name")
                   for field in fields]
        return jobs + [group for group in groups if group.jobs]


PIVOT_CAPTIONS = PivotCaptions()
