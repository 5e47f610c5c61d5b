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
would be another's, each translated name among them keeps its source, with a warning
(attnmt.documents.distinct_names.NamesJob)."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.distinct_names import NamesJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.validations import AttributeJob

CAPTIONS = ("dataCaption", "grandTotalCaption", "rowHeaderCaption", "colHeaderCaption", "errorCaption",
            "missingCaption")


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
