"""Whether a monospaced font alone says code in an Office file, decided for the whole file by the
share of the letters of its main story that are in one: a Word document's body (its main part),
a presentation's slides, a workbook's strings (shared and inline).  Where monospaced fonts hold
half of those letters or more, one is the document's body font (a screenplay whose every run
states Courier New, a deck all in Consolas, a sheet all in Menlo), and a run in it is words, as
any other run is.  Where they hold less, a monospaced font is a minority's, code's (``ls -l /tmp``
and ``pip install attnmt`` in Courier New between paragraphs in Calibri), and a run in one is
code (attnmt.documents.ooxml): kept as it is, a paragraph all in one kept whole.  The share is
the file's, not a paragraph's: a code paragraph has no prose beside it to tell it from a
screenplay's line.  A style meant for code says code either way (attnmt.documents.code_look)."""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from attnmt.documents.code_look import font_of, is_monospaced
from attnmt.documents.formatting import worded_runs
from attnmt.documents.ooxml_dialects import Dialect
from attnmt.documents.word_styles import WordStyles

# The share of the main story's letters that monospaced fonts hold from which one is its body font.
BODY_SHARE = 0.5
# The parts that hold each format's main story, by how their content type ends (ooxml_package.OOXML_PARTS).
MAIN_STORY = {".docx": (".main+xml",), ".pptx": (".slide+xml",),
              ".xlsx": (".sharedStrings+xml", ".worksheet+xml")}


def fonts_say_code(stories: Iterable[tuple[etree._Element, Dialect]], styles: WordStyles | None) -> bool:
    """Whether monospaced fonts hold less than BODY_SHARE of the letters of ``stories`` (each the
    root of a part of the main story, with its dialect; ``styles``: a Word document's, which give
    a run its font as its own properties do).  The letters counted are those of visible runs, and
    of a string with no runs (a plain shared string, in its cell's font, which is not read here:
    no monospaced one).  True where they have no letters: no body font is measured."""
    letters = monospaced = 0
    for root, dialect in stories:
        for paragraph in root.iter(dialect.paragraph):
            letters += sum(letter_count(dialect.text_of(text)) for text in paragraph.iterchildren(dialect.text))
            for run in worded_runs(paragraph, dialect):
                count = sum(letter_count(dialect.text_of(text)) for text in run.iterchildren(dialect.text))
                letters += count
                own = run.find(dialect.properties)
                layers = styles.layers(run, paragraph) if styles is not None else [] if own is None else [own]
                monospaced += count if is_monospaced(font_of(layers)) else 0
    return not letters or monospaced < BODY_SHARE * letters


def letter_count(text: str) -> int:
    """The letters of ``text`` (str.isalpha): a code line's spaces and symbols are no font's body."""
    return sum(map(str.isalpha, text))
