"""Word's content controls (``w:sdt``) that are kept whole, not read as a mark over their words:
a control whose content is a value Word writes from the control's own data (a date picker's date,
a drop-down list's or a combo box's chosen item), and a data-bound control whose store value
attnmt.documents.bound_controls cannot set (``KEPT``).

Read as a mark, such a control's value was translated as words ("May 1, 2024" came back "einem
Bein, als 2 2 2 2", a drop-down's "Red" came back no item of its list).  Kept whole, it is one atom
of its sentence, as a field's result (a ``DATE`` field) is: it stays where alignment puts it, as
it was.  A control around paragraphs (a cover page's date) keeps its paragraphs as they are.  One showing its
placeholder (``w:showingPlcHdr``: "Click or tap to enter a date.", "Choose an item.") shows no value but a prompt,
and is read as words, as any other control is.  A list's
items are then translated, and its chosen item follows (attnmt.documents.word_lists)."""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from attnmt.documents.wordml import w

# The kinds of control (a child of its w:sdtPr) whose content is the value chosen in it: a date
# (w:fullDate, shown in w:dateFormat) or one of a list's w:listItem.
VALUE_KINDS = frozenset({w("date"), w("dropDownList"), w("comboBox")})
# Set on a data-bound control whose content must stay as it is (bound_controls.Bindings.keep_unresolved),
# and taken out again before the part is written (bound_controls.write_stores): no reader knows the attribute.
KEPT = "attnmt-kept-control"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"  # Word 2013's names (its attributes are w: ones)
# What makes a control data-bound, in its w:sdtPr: Word's binding, or Word 2013's beside it or alone.
BINDINGS = (w("dataBinding"), f"{{{W15}}}dataBinding")
# (control, the text it showed, the text it shows now): told of each control kept whole in its sentence whose text
# changes once its paragraph is translated (a list's choice, a bound control's copy), so that the review's row
# shows what the document does (office: Review.reshown at the control's paragraph)
Reshown = Callable[[etree._Element, str, str], None]


def is_kept_control(node: etree._Element) -> bool:
    """Whether ``node`` is a content control kept whole: one of VALUE_KINDS, or marked KEPT.  Not one showing its
    placeholder (``w:showingPlcHdr``): that is a prompt, "Click or tap to enter a date.", words to translate."""
    if node.tag != w("sdt"):
        return False
    if node.get(KEPT) is not None:
        return True
    properties = node.find(w("sdtPr"))
    return (properties is not None and any(child.tag in VALUE_KINDS for child in properties)
            and properties.find(w("showingPlcHdr")) is None)


def in_kept_control(paragraph: etree._Element) -> bool:
    """Whether ``paragraph`` is inside a content control kept whole (is_kept_control): a block-level
    date picker's, or one in a control kept whole inside another paragraph."""
    return any(is_kept_control(control) for control in paragraph.iterancestors(w("sdt")))


def is_bound(control: etree._Element) -> bool:
    """Whether the content control ``control`` (a ``w:sdt``) is data-bound: its properties hold one of BINDINGS."""
    properties = control.find(w("sdtPr"))
    return properties is not None and any(child.tag in BINDINGS for child in properties)
