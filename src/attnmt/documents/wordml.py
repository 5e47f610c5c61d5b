"""Word's XML namespace (WordprocessingML) and its element names, in one place.

attnmt.documents.ooxml, attnmt.documents.dropcaps and attnmt.documents.flat all name Word's
elements; ooxml imports the other two, so the namespace lives here, below all three.
"""

from __future__ import annotations

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def w(name: str) -> str:
    """Word's element or attribute ``name`` in lxml's ``{namespace}name`` form: ``w("p")`` is ``w:p``."""
    return f"{{{W}}}{name}"
