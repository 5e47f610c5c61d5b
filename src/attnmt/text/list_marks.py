"""A list's mark at the start of a line of plain text or of a sentence: a bullet or dash ("- ", "* ", "• ",
"-- "), a number, a letter or a lower-case Roman numeral that counts ("1. ", "12) ", "(2) ", "a) ", "(a) ", "i. ",
"(iv) "), a section's sign and number ("§ 3 ", "§§ 12a "), a heading's hashes ("## "), a time that marks a
podcast's chapter or a transcript's turn ("05:12 ", "[00:00:05] ", "(1:02:03) ").  Read as a word, the model
dropped it: "- A dog runs in the park." came back "Ein Hund rennt im Park.", "1) A girl sings a song." without its
"1)", and "(2) Two dogs play in the snow." as "Zwei Mannschaften spielen im Schnee.".  The one pattern that finds
it, which attnmt.documents.list_marks keeps whole in a text line and attnmt.decoding.sentence_edges around a
sentence ``translate`` is given."""

from __future__ import annotations

import re

# A time, read as words by the demo model: "05:12 Interview with Anna" came back "E0 2 2111-Maaaam", "00:00 Intro" as
# "Ein Culaill-Schcha", and "[00:00:05] INTERVIEWER: How did you start?" as "8 8 8 8 8 8 8 Dasaskerkerkerker.".
TIME = r"\d{1,2}(?::\d{2}){1,2}(?:[.,]\d{1,3})?"  # "00:05", "1:02:03", "00:00:05.250"
# The mark, then a space and more: not a number glued to its word ("-5 °C"), nor an initial ("A. Smith", "I. Smith":
# a Roman numeral in capitals counts from "II.").
LIST_MARK = re.compile(rf"(?P<indent>[ \t]*)(?P<mark>{TIME}|\[{TIME}\]|\({TIME}\)"
                       r"|[-*•‣◦▪–—]{1,2}|\d{1,3}[.)]|\(\d{1,3}\)|[a-zA-Z]\)|\([a-zA-Z]\)"
                       r"|(?:[ivx]{1,4}|[IVX]{2,4})[.)]|\([ivxIVX]{1,4}\)|§{1,2}[ \u00a0]?\d{1,4}[a-z]?|#{1,6})"
                       r"(?=[ \t]+\S)")
