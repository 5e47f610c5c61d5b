"""LibreOffice's content controls (``loext:content-control``, what a .docx's ``w:sdt`` becomes) whose content is
a value the control writes from its own data, not words of the sentence: a date picker's date
(``loext:date="true"``, shown in its ``loext:date-format``) and a drop-down list's or a combo box's chosen item
(``loext:dropdown``, ``loext:combobox``; LibreOffice 7.4 writes neither, only the list's ``loext:list-item``\\ s).

Read as a mark, as any other content control is, such a control's value was translated as words ("May 1, 2024"
came back "Spieler in der Mitte des", a drop-down's "Very tired" came back "Reifen", no item of its list), and
its items stayed English.  So it is kept whole in its sentence, as Word's are (attnmt.documents.word_controls),
and a list's items are translated: each item's shown text (its ``loext:display-text``, or its ``loext:value``
where it has none, as LibreOffice shows it) becomes its translation, the value kept (the data a form gives), and
the item shown follows it (attnmt.documents.opendocument_conditions.ControlListJob), as Word's do
(attnmt.documents.word_lists).  One showing its placeholder (``loext:showing-place-holder``: "Click or tap to
enter a date.", "Choose an item.") shows no value but a prompt, and is read as words, as any other control is."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.opendocument_code import LOEXT
from attnmt.documents.validations import AttributeJob

CONTROL = f"{{{LOEXT}}}content-control"
LIST_ITEM = f"{{{LOEXT}}}list-item"
DISPLAY_TEXT, VALUE = f"{{{LOEXT}}}display-text", f"{{{LOEXT}}}value"
# The attributes that make a control's content a value it writes (the module docstring), each "true" where it does.
VALUE_KINDS = tuple(f"{{{LOEXT}}}{kind}" for kind in ("date", "dropdown", "combobox"))
# Said by a control showing its placeholder ("Click or tap to enter a date.", "Choose an item."), no value.
PLACEHOLDER = f"{{{LOEXT}}}showing-place-holder"


def is_value_control(node: etree._Element) -> bool:
    """Whether ``node`` is a content control whose content is a value it writes: a date, or a list's item; not
    one showing its placeholder (PLACEHOLDER), a prompt to translate."""
    return node.tag == CONTROL and node.get(PLACEHOLDER) != "true" and (
        any(node.get(kind) == "true" for kind in VALUE_KINDS) or node.find(LIST_ITEM) is not None)


class ItemJob(AttributeJob):
    """A list item's shown text, line by line: its display text, or its value where it has none (kept as it is,
    the translation written as its display text)."""

    def __init__(self, item: etree._Element) -> None:
        super().__init__(item, DISPLAY_TEXT, escaped=False)

    def written(self) -> str:
        return self.element.get(DISPLAY_TEXT) or self.element.get(VALUE, "")
