"""A pivot table's own labels, held in its definition (``xl/pivotTables/pivotTableN.xml``), which
Excel writes into the sheet's cells each time it lays the table out, and LibreOffice on opening:
a data field's name (``<dataField name="Sum of Amount">``) and the table's captions
(``dataCaption="Values"``, ``grandTotalCaption``, ``rowHeaderCaption``, ``colHeaderCaption``,
``errorCaption``, ``missingCaption``).  The cells Excel wrote are the workbook's strings, translated;
the definition kept the source, so a refresh, or LibreOffice, showed the labels in the source
language.  Each is translated as a data validation's message is, line by line.  The fields' names
(``pivotField``, the cache's ``cacheField``) are left: they are the source headers' names, kept
(attnmt.documents.pivot_caches)."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.validations import AttributeJob

CAPTIONS = ("dataCaption", "grandTotalCaption", "rowHeaderCaption", "colHeaderCaption", "errorCaption",
            "missingCaption")


class PivotCaptions:
    """A pivot table definition's texts: its captions, then its data fields' names."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> Sequence[AttributeJob]:
        if root.tag != s("pivotTableDefinition"):
            return []
        held = [(root, name) for name in CAPTIONS] + [(field, "name") for field in root.iter(s("dataField"))]
        return [AttributeJob(element, name) for element, name in held
                if needs_translation(element.get(name, ""), glossary)]


PIVOT_CAPTIONS = PivotCaptions()
