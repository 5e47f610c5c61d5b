"""A numbered part's heading: "Chapter 3", "Part One", "Book II", "Section 4.2", "Appendix A", "Step 2", and a
caption's label with its number ("Figure 3").

Before a colon it is a field's name (attnmt.text.speaker_labels.is_field), translated alone; its word is a known
one, written by each language's own (attnmt.documents.caption_labels), and its number kept as written: read as a
sentence, the demo model wrote "Book II: A man walks." as "Ein Mann geht ..." (the heading lost), and "Chapter 3"
alone as a caption it garbled, kept in English beside a German title."""

from __future__ import annotations

import re

from attnmt.text.count_values import ENGLISH_COUNTS

# The English words of a numbered part, and of Word's Insert Caption's labels (caption_labels.LABELS).
PART_WORDS = frozenset({"Chapter", "Part", "Book", "Section", "Appendix", "Step", "Figure", "Table", "Equation"})
NUMBERED = re.compile(r"(?P<word>[^\W\d_]+)\s+(?P<number>\d+(?:[.-]\d+)*[a-z]?|[^\W\d_]+)")  # "4.2", "3a", "II"
ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")


def numbered_part(name: str) -> tuple[str, str] | None:
    """The word and the number of ``name`` where it is a numbered part's (one of ``PART_WORDS`` in any case, then
    digits, a Roman numeral, a capital letter or a count in English words from zero to twenty): ("Chapter", "3")
    of "Chapter 3", ("BOOK", "II") of "BOOK II"; None for any other name ("Chapter Notes", "Part Time")."""
    found = NUMBERED.fullmatch(name.strip())
    if found is None or found["word"].title() not in PART_WORDS:
        return None
    number = found["number"]
    letters = number.isalpha() and (len(number) == 1 and number.isupper() or number.lower() in ENGLISH_COUNTS
                                    or number in (number.upper(), number.lower())
                                    and ROMAN.fullmatch(number.upper()) is not None)
    return (found["word"], number) if number[0].isdigit() or letters else None
