"""The words a Word numbering writes around its numbers: a level's ``w:lvlText`` in the numbering part.

A numbered list or the heading numbering (Define New Multilevel List, "Enter formatting for number") holds
the text it writes before each paragraph in its level, not in the paragraph: ``<w:lvlText w:val="Chapter
%1:"/>`` shows "Chapter 1:" above the first heading, ``"Step %1."`` "Step 2." before a list's second item,
``"Article %1.%2"`` "Article 3.1".  Those stayed in the source's language before translated headings and
items ("Chapter 1: Der Garten"), where an OpenDocument numbering's prefix and suffix were translated
(attnmt.documents.opendocument_numbering).  Each is plain text, translated as a link's screen tip is
(validations.AttributeJob), its levels' numbers (``%1`` to ``%9``, where Word writes each level's number;
``%1.%2`` whole) passing through as a URL does (``LEVEL_NUMBERS``); one of symbols and numbers alone (``%1.``,
``(%2)``, a bullet) is kept, as it reads the same in any language.  A level may stand in a numbering definition
(``w:abstractNum``) or in a list's override of it (``w:num``'s ``w:lvlOverride``); both are read."""

from __future__ import annotations

import re

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.letterless import needs_translation
from attnmt.documents.split_placeholders import TEMPLATE_PROTECTED
from attnmt.documents.validations import AttributeJob
from attnmt.documents.wordml import w

# A level's number as its text writes it, "%1" for the first level's, up to "%9", with the numbers of the levels
# it follows and the sign between each two ("%1.%2", "%1-%2"): one place, which no sentence ends inside.
LEVEL_NUMBERS = re.compile(rf"%[1-9](?:[^\w\s%]?%[1-9])*|{TEMPLATE_PROTECTED.pattern}")


class LevelTextJob(AttributeJob):
    """A numbering level's text (``w:lvlText``'s ``w:val``), its levels' numbers kept (LEVEL_NUMBERS)."""

    protected = LEVEL_NUMBERS


class WordNumbering:
    """The numbering part's level texts with words (the module docstring)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        return [LevelTextJob(text, w("val"), escaped=False) for text in root.iter(w("lvlText"))
                if needs_translation(text.get(w("val"), ""), glossary)]


WORD_NUMBERING = WordNumbering()
