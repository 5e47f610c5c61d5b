"""Word's runs wrapped in an ``mc:AlternateContent`` among a paragraph's runs, as Word writes runs with a
Word 2010 (w14) feature: a glow, a shadow or an outline on text (``w14:glow``, ``w14:textOutline``), a
symbol of a newer font.  Its ``mc:Choice`` holds the runs Word shows, its ``mc:Fallback`` the same words for
a reader that does not know w14.  The paragraph reader reads an AlternateContent as one atom with no text
(attnmt.documents.shown.NOT_IN_THE_LINE, as it must be around a text box), so those words were missing from
the sentence the model read ("The dog fast today." for "The dog runs fast today.") and stayed untranslated.

Where every namespace the Choice requires is one the part declares ignorable (``mc:Ignorable``, as Word
writes w14), the Choice's runs take the AlternateContent's place (``unwrap_run_choices``): Word shows
them as it did, and a reader that does not know w14 ignores its properties and shows the runs plainly, as
it showed the Fallback; so too in a content control that is not data-bound (read as one atom, its words
were left out of the sentence as well).  Other AlternateContents are left as they are, and so are those in a
data-bound content control, whose text attnmt.documents.bound_controls writes into both branches."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.word_controls import is_bound
from attnmt.documents.wordml import w

MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
ALTERNATE_CONTENT, CHOICE = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice"


def unwrap_run_choices(paragraph: etree._Element) -> None:
    """Put the runs of each run-only ``mc:Choice`` among ``paragraph``'s runs in its AlternateContent's
    place, where the part declares ignorable every namespace it requires (module docstring)."""
    ignorable = set((paragraph.getroottree().getroot().get(f"{{{MC}}}Ignorable") or "").split())
    for alternate in list(paragraph.iter(ALTERNATE_CONTENT)):
        choice = alternate.find(CHOICE)
        parent = alternate.getparent()
        if choice is None or parent is None or parent.tag == w("r") or not len(choice):
            continue  # a text box's (inside a run), or nothing to show
        if any(is_bound(control) for control in alternate.iterancestors(w("sdt"))):
            continue  # a data-bound control's: attnmt.documents.bound_controls gives both branches its text
        if any(child.tag != w("r") for child in choice) or not set((choice.get("Requires") or "").split()) <= ignorable:
            continue
        if any(node.tag == ALTERNATE_CONTENT or node.tag in (w("drawing"), w("pict")) for node in choice.iter()):
            continue
        at = parent.index(alternate)
        parent[at:at + 1] = list(choice)
