"""The words of an OpenDocument form's controls: what a questionnaire made in LibreOffice (Form > Form Controls)
shows on its page, and what a PDF exported from it shows too.

A form's controls are no paragraphs: ``office:forms`` holds them apart from the text (in ``office:text``, on a
slide's ``draw:page``, in a sheet's ``table:table``), each drawn where a ``draw:control`` of a paragraph or a
page names it.  What a reader sees of one is in attributes: the label of a check box, an option button, a
push button, a group box, a label field or a table control's column (``form:label``), the label of each entry
of a list box or combo box (``form:option``, ``form:item``), and the tip shown when the mouse rests on a control
(``form:title``).  Those stayed in the source's language beside a translated text ("I agree to the terms" under
a German page).  Each is plain text, translated line by line as a link's tooltip is (validations.AttributeJob);
a control's name and the value it sends (``form:name``, ``form:value``) are data, and kept."""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.validations import AttributeJob

FORM = "urn:oasis:names:tc:opendocument:xmlns:form:1.0"
CONTROLS = f"{{{FORM}}}*"  # every element of a form, for lxml's iter: a control, a list's entry, a grid's column
SHOWN = (f"{{{FORM}}}label", f"{{{FORM}}}title")  # a control's (or a list entry's) label, and its tip


def form_jobs(controls: Iterable[etree._Element], glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each label and tip (SHOWN) of ``controls`` that has words to translate, in their order."""
    return [AttributeJob(control, name, escaped=False) for control in controls for name in SHOWN
            if needs_translation(control.get(name, ""), glossary)]
