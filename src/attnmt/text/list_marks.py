"""A list's mark at the start of a line of plain text or of a sentence: a bullet or dash ("- ", "* ", "• ",
"-- "), a number or a letter that counts ("1. ", "12) ", "a) "), a heading's hashes ("## ").  Read as a word,
the model dropped it: "- A dog runs in the park." came back "Ein Hund rennt im Park.", and "1) A girl sings a
song." without its "1)".  The one pattern that finds it, which attnmt.documents.list_marks keeps whole in a
text line and attnmt.decoding.sentence_edges around a sentence ``translate`` is given."""

from __future__ import annotations

import re

# The mark, then a space and more: not a number glued to its word ("-5 °C"), nor an initial ("A. Smith").
LIST_MARK = re.compile(r"(?P<indent>[ \t]*)(?P<mark>[-*•‣◦▪–—]{1,2}|\d{1,3}[.)]|[a-zA-Z]\)|#{1,6})(?=[ \t]+\S)")
