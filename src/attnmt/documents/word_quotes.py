"""A Word paragraph's quotes inside a sentence, read as a page's are (attnmt.documents.markup_text.PageBuilder).

A Word paragraph's text went to the model with its quote marks as words: ``The girl said "hello" to the old man.``
came back from the demo model ``Das Mädchen mit einem alten Mann, der auf dem alten Mann steht.``, both marks lost,
where the same sentence of an HTML page or an .odt came back ``… „hallo“ …``.  So a Word paragraph reads each pair
of quotes around words inside a run's text as an element around those words (text_emphasis.Quote: straight or curly,
a single pair inside a double one, not an apostrophe, ``don't``, ``the dogs' bowl``), and a pair whose words hold runs
of other looks as one quote (``"`` ``hello`` in bold ``"``: attnmt.documents.split_quotes); the model reads the words
alone, and the marks are written around their translation in the target language's form (quote_forms, by
office.job_results as a page's are), in the run they stood in: a quote of a bold run's words inside it, one around
a bold word outside it.  A pair around the paragraph's whole text is its sentence's edges', as a page's is."""

from __future__ import annotations

from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.split_quotes import with_split_quotes
from attnmt.documents.text_emphasis import QUOTE, add_emphasized


class QuoteBuilder(FlatBuilder):
    """A FlatBuilder of a Word paragraph's text, each pair of quotes around words inside a piece of it a ``Quote``
    element (text_emphasis.add_emphasized with ``QUOTE`` alone: Word's emphasis is its runs' looks, never ``*``
    typed), and a pair whose words a run of another look parts read as one when built (split_quotes)."""

    def add_text(self, text: str) -> None:
        # a quote around all of a piece after words or inside a run of its own look is no sentence's edges
        add_emphasized(self, text, FlatBuilder.add_text, QUOTE, edges=not (self.text.strip() or self.open_marks))

    def build(self) -> FlatText:
        return with_split_quotes(super().build(), self.protected)
