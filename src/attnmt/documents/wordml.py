"""Word's XML namespace (WordprocessingML) and its element names, in one place.

attnmt.documents.ooxml, attnmt.documents.dropcaps and attnmt.documents.flat all name Word's
elements; ooxml imports the other two, so the namespace lives here, below all three.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
# A part's relationship id attribute (r:id), by which Word, DrawingML and SpreadsheetML parts name
# another part of the package (a link's target, a chart, a pivot cache).
RELATIONSHIP_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
OFF = ("0", "false", "off")  # the values of an on/off property (w:vanish w:val="0") that turn it off


def w(name: str) -> str:
    """Word's element or attribute ``name`` in lxml's ``{namespace}name`` form: ``w("p")`` is ``w:p``."""
    return f"{{{W}}}{name}"


# A ruby (phonetic guide) in a run, and its base: the words the annotation (w:rt) is set above.
RUBY, RUBY_BASE = w("ruby"), w("rubyBase")

# A run's properties that hide its text (an editor's note): attnmt.documents.ooxml reads such a run
# apart from the words a reader sees, and attnmt.documents.flat.shown_text shows nothing of it.
# w:webHidden is not one: it hides text in Word's web layout alone, and print shows it (a TOC's
# page numbers); read as hidden, its words were left untranslated in a printed page.
HIDDEN = frozenset({w("vanish"), w("specVanish")})
# A bidirectional embedding and override around runs (w:dir, w:bdo), whose w:val says the direction
# (ltr, rtl) their text is laid out or drawn in.
DIRECTIONS = frozenset({w("dir"), w("bdo")})


def hides(properties: Any) -> bool | None:
    """What run properties (a ``w:rPr``) say of hiding their text: True where one of HIDDEN is on, False where
    those they hold are all turned off (``w:val="0"``), None where they hold none (a style's say stands)."""
    said = [child for child in properties if child.tag in HIDDEN]
    return any(child.get(w("val")) not in OFF for child in said) if said else None


def is_hidden_run(node: Any, hidden_styles: Container[str] = frozenset()) -> bool:
    """Whether ``node`` is a Word run Word hides: its own properties say so (hides), or, where they say nothing
    of it, its character style (``w:rStyle``) is one of ``hidden_styles``, those that hide a run's text
    (word_styles.WordStyles.hidden_styles: ``w:vanish`` in the style or one it is based on).  A run's own
    ``<w:vanish w:val="0"/>`` shows it whatever its style says."""
    properties = node.find(w("rPr")) if getattr(node, "tag", None) == w("r") else None
    if properties is None:
        return False
    own = hides(properties)
    if own is not None:
        return own
    style = properties.find(w("rStyle"))
    return style is not None and style.get(w("val")) in hidden_styles
