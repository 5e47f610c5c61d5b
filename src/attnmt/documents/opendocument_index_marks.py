"""The texts an OpenDocument index mark holds in its attributes, which an index shows once it is updated.

An index mark is an atom of its paragraph (attnmt.documents.opendocument_vocabulary).  One over words
(``text:alphabetical-index-mark-start`` … ``-end``) makes an entry of the words it spans, which are
translated with their sentence; one at a point (``<text:alphabetical-index-mark text:string-value="red
fountain"/>``, what LibreOffice writes where the entry's text is not the words selected) holds the entry's
text in ``text:string-value``, and an alphabetical index's mark, of either kind, its keys in
``text:key1`` and ``text:key2`` (the headings an entry is filed under, "Water features").  Those stayed
in the source's language, and the index LibreOffice built again on Tools > Update mixed translated
entries with untranslated ones under untranslated headings.  Each is plain text, translated line by line
as a link's tooltip is (validations.AttributeJob); the same key on many marks is the same text, and so
one translation, which keeps their entries under one heading."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import PARAGRAPHS, TEXT
from attnmt.documents.validations import AttributeJob

ENTRY, KEYS = f"{{{TEXT}}}string-value", (f"{{{TEXT}}}key1", f"{{{TEXT}}}key2")
# The marks at a point, each with its entry's text, and the alphabetical index's marks, each with its keys.
POINT_MARKS = tuple(f"{{{TEXT}}}{kind}-mark" for kind in ("toc", "user-index", "alphabetical-index"))
KEYED_MARKS = (f"{{{TEXT}}}alphabetical-index-mark", f"{{{TEXT}}}alphabetical-index-mark-start")


def index_mark_jobs(paragraph: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each text of an index mark of ``paragraph`` (not of a note's or a frame's paragraph inside
    it: that one's own) that has words to translate: a point mark's entry, an alphabetical mark's keys."""
    jobs = []
    for mark in paragraph.iter(*POINT_MARKS, *KEYED_MARKS):
        if next(mark.iterancestors(*PARAGRAPHS), None) is not paragraph:
            continue
        names = ((ENTRY,) if mark.tag in POINT_MARKS else ()) + (KEYS if mark.tag in KEYED_MARKS else ())
        jobs += [AttributeJob(mark, name, escaped=False) for name in names
                 if needs_translation(mark.get(name, ""), glossary)]
    return jobs
