"""A Word paragraph's quotes inside a sentence, read as a page's are (attnmt.documents.markup_text.PageBuilder).

A Word paragraph's text went to the model with its quote marks as words: ``The girl said "hello" to the old man.``
came back from the demo model ``Das Mädchen mit einem alten Mann, der auf dem alten Mann steht.``, both marks lost,
where the same sentence of an HTML page came back with its quote, ``Das Mädchen „hat“ den alten alten Mann zu.``.
So a Word paragraph reads each pair of quotes around words inside a run's text as an element around those words
(text_emphasis.Quote: straight or curly, a single pair inside a double one, not an apostrophe, ``don't``, ``the
dogs' bowl``), and a pair whose words hold runs of other looks as one quote (``"`` ``hello`` in bold ``"``:
attnmt.documents.split_quotes); the model reads the words alone, and the marks are written around their translation
in the target language's form (quote_forms, by office.job_results as a page's are), in the run they stood in: a quote
of a bold run's words inside it, one around a bold word outside it.  A pair around the paragraph's whole text is
its sentence's edges', as a page's is.  A slide's paragraph and a spreadsheet's string (DrawingML's ``a:p``,
SpreadsheetML's ``si`` and ``is``: attnmt.documents.ooxml_paragraphs) are read so too, as an .odp's and an .ods's are:
``He said "hello" to me.`` on a slide went to the model with its marks as words.

Word writes a quote mark typed among words in a run of its own where all that sets it apart is what no reader sees:
the font slot a mark of ambiguous width is drawn from (``w:rFonts w:hint="eastAsia"``, as Word writes curly quotes
with East Asian languages turned on) or the language of the keyboard it was typed on (``w:lang``).  As a run of its
own look, the mark was an element around itself, which the quote's other mark crossed, and the quote went to the model
as words; such a run takes its neighbour's look (``unseen_quote_looks``), and the two are merged, read as one text.
A mark in a look a reader sees (a bold ``”`` after a plain ``“hello``) stays as written, as a page's does."""

from __future__ import annotations

import copy

from lxml import etree

from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.formatting import is_plain
from attnmt.documents.ooxml_dialects import WORD
from attnmt.documents.split_quotes import marks_cuts, quoted, split_pairs
from attnmt.documents.text_emphasis import QUOTES, add_emphasized, quote
from attnmt.documents.wordml import w

QUOTE_MARKS = frozenset("".join(opening + closing for opening, closing in QUOTES))


class QuoteBuilder(FlatBuilder):
    """A FlatBuilder of an OOXML paragraph's text (Word's, a slide's, a string's), each pair of quotes around words
    inside a piece of it a ``Quote`` element (text_emphasis.add_emphasized with ``quote()`` alone: Office's emphasis is
    its runs' looks, never ``*`` typed), and a pair whose words a run of another look parts read as one when built
    (split_quotes)."""

    def add_text(self, text: str) -> None:
        # a quote around all of a piece after words or inside a run of its own look is no sentence's edges
        add_emphasized(self, text, FlatBuilder.add_text, quote(), edges=not (self.text.strip() or self.open_marks))

    cuts: tuple[tuple[int, int], ...] = ()  # the [start, end) of the text read that building took out (``place``)

    def build(self) -> FlatText:
        flat = super().build()
        pairs = split_pairs(flat, self.protected)
        self.cuts = tuple(sorted(cut for pair in pairs for cut in marks_cuts(flat, pair)))
        return quoted(flat, pairs) if pairs else flat

    def place(self, at: int) -> int:
        """Where place ``at`` of the text read (``self.text``) is in the text built, the names and the marks of the
        quotes read as one taken out before it (a non-breaking hyphen's after ``"`` ``hello`` in bold ``"``:
        ooxml.ParagraphJob)."""
        at = super().place(at)
        return at - sum(min(at, end) - start for start, end in self.cuts if start < at)


def unseen_quote_looks(paragraph: etree._Element) -> None:
    """Each run of Word's ``paragraph`` that holds quote marks alone, set apart from a neighbour (the run after it,
    else the one before) by what no reader sees alone (``seen_look``), given that neighbour's properties, in place:
    merged with it, the quote is read in one text (the module docstring)."""
    for run in list(paragraph.iter(WORD.run)):
        marks = "".join(map(WORD.text_of, run.iter(WORD.text))).strip()
        if not marks or not set(marks) <= QUOTE_MARKS or not is_plain(run, WORD):
            continue
        for neighbour in (run.getnext(), run.getprevious()):
            if neighbour is not None and neighbour.tag == WORD.run and seen_look(neighbour) == seen_look(run):
                given = neighbour.find(WORD.properties)
                for properties in run.findall(WORD.properties):
                    run.remove(properties)
                if given is not None:
                    run.insert(0, copy.deepcopy(given))
                break


def seen_look(run: etree._Element) -> bytes:
    """``run``'s properties without what no reader sees alone: its language (``w:lang``) and the font slot a
    character of ambiguous width is drawn from (``w:rFonts``' ``w:hint``; the font element gone where it said no
    more), as exclusive C14N writes them (formatting.formatting); none where none is left."""
    properties = run.find(WORD.properties)
    if properties is None:
        return b""
    properties = copy.deepcopy(properties)
    for language in properties.findall(w("lang")):
        properties.remove(language)
    for fonts in properties.findall(w("rFonts")):
        fonts.attrib.pop(w("hint"), None)
        if not fonts.attrib:
            properties.remove(fonts)
    return etree.tostring(properties, method="c14n", exclusive=True) if len(properties) or properties.attrib else b""
