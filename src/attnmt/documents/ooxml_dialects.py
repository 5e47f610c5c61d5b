"""The OOXML vocabularies whose paragraphs attnmt.documents.ooxml translates: Word's (``w:p``),
DrawingML's (``a:p``, in slides, charts and SmartArt) and SpreadsheetML's strings, each a Dialect
that names its paragraph's elements and says which of them are marks, atoms or kept."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents import fields, formatting  # by their modules: both import this module
from attnmt.documents.word_controls import is_kept_control
from attnmt.documents.wordml import HIDDEN, w
from attnmt.documents.xstring import text_in, unescape

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


LINES_AS_SPACES = str.maketrans("\r\n", "  ")  # Dialect.spaced_lines


def a(name: str) -> str:
    return f"{{{A}}}{name}"


def s(name: str) -> str:
    return f"{{{S}}}{name}"


@dataclass(frozen=True)
class Dialect:
    """The element names of one OOXML vocabulary's paragraphs."""

    paragraph: str
    run: str
    properties: str  # a run's formatting
    text: str
    containers: frozenset[str] = frozenset()  # marks around runs: a hyperlink, a tracked insertion
    kept: frozenset[str] = frozenset()  # paragraph children left where they are: its properties
    breaks: frozenset[str] = frozenset()  # atoms that part the words around them
    dropped: frozenset[str] = frozenset()  # stale once the text changes: spelling marks
    preserve: bool = False  # text elements need xml:space="preserve" to keep their spaces
    links: frozenset[str] = frozenset()  # a run's properties that make it a link (DrawingML's hlinkClick)
    escaped: bool = False  # text escapes what XML cannot hold (SpreadsheetML's _x000D_: attnmt.documents.xstring)
    hyphen: str | None = None  # the element that is a non-breaking hyphen in a run's text (Word's)
    hidden: frozenset[str] = frozenset()  # a run's properties that hide its text (Word's w:vanish): no base look
    # A string's phonetic runs (SpreadsheetML's rPh, a reading over the characters from sb to eb):
    # kept, not read; dropped where the translation changed the text, whose characters they no longer fit.
    phonetic: str | None = None
    # A line feed or carriage return in a text element is shown as a space (Word's w:t: Word writes a line break
    # as w:br, and shows a generator's "\n" in w:t, as LibreOffice does, as a space); read as a line break, it
    # split one sentence in two, each half translated alone.
    spaced_lines: bool = False
    # A line feed in a text element is a line a person typed (Alt+Enter in a cell, Enter in a note), read as a <br>
    # is (white_space.TYPED_LINES): one before a line that goes on in lower case goes on with its sentence
    # (wrapped_lines.ended_lines).  Read as a field's end, "A man in a red shirt\nis playing the guitar." was two
    # sentences, and the demo model wrote the second half "Eine Band spielt Gitarre."
    typed_lines: bool = False

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[ooxml.ParagraphJob]:
        """A job for each of ``root``'s paragraphs with words, or a term of ``glossary``
        (ooxml_paragraphs.paragraph_jobs)."""
        from attnmt.documents.ooxml_paragraphs import paragraph_jobs  # it reads these dialects' paragraphs: it is above

        return paragraph_jobs(root, self, glossary)

    def holds_runs(self, node: etree._Element) -> bool:
        """Whether ``node`` is a mark around runs: a container (not a content control kept whole:
        attnmt.documents.word_controls), or a link field around its result (attnmt.documents.fields)."""
        return (node.tag in self.containers and not is_kept_control(node)) or fields.is_read_field(node)

    def is_link(self, node: etree._Element) -> bool:
        """Whether ``node`` is a link a reader follows: Word's ``w:hyperlink`` around runs, or a run
        whose own properties make it one (formatting.is_link: a slide's ``a:hlinkClick``)."""
        return node.tag == w("hyperlink") or (node.tag == self.run and formatting.is_link(node, self))

    def text_of(self, element: etree._Element) -> str:
        """A text element's text as the application shows it (xstring.text_in: a comment in it
        skipped, the words after it read; its escapes read, where it has them; its line feeds
        spaces, where they are: spaced_lines)."""
        text = unescape(text_in(element)) if self.escaped else text_in(element)
        return text.translate(LINES_AS_SPACES) if self.spaced_lines else text


# A content control inside a paragraph (w:sdt) is a mark like a hyperlink: its properties stay
# as they are, its content's runs are translated with the paragraph (a date picker, a list's choice
# and a data-bound control whose store cannot be set are atoms: attnmt.documents.word_controls).
# So are a tracked move's new place (w:moveTo; its old place, w:moveFrom, is kept as a deletion is),
# a custom XML element, and a bidirectional embedding or override (w:dir, w:bdo: its direction an
# attribute around its runs).
# A link field (w:fldSimple, attnmt.documents.fields) is one too; its data (w:fldData) stays first in it.
WORD = Dialect(w("p"), w("r"), w("rPr"), w("t"),
               frozenset({w("hyperlink"), w("ins"), w("moveTo"), w("smartTag"), w("customXml"), w("sdt"),
                          w("sdtContent"), w("dir"), w("bdo")}),
               frozenset({w("pPr"), w("sdtPr"), w("sdtEndPr"), w("fldData")}), frozenset({w("tab"), w("br"), w("cr")}),
               frozenset({w("proofErr"), w("softHyphen"), w("lastRenderedPageBreak")}), True, hyphen=w("noBreakHyphen"),
               hidden=HIDDEN, spaced_lines=True)
DRAWING = Dialect(a("p"), a("r"), a("rPr"), a("t"), kept=frozenset({a("pPr"), a("endParaRPr")}),
                  breaks=frozenset({a("br")}), links=frozenset({a("hlinkClick"), a("hlinkMouseOver")}))
SHARED_STRING = Dialect(s("si"), s("r"), s("rPr"), s("t"), kept=frozenset({s("rPh"), s("phoneticPr")}),
                        preserve=True, escaped=True, phonetic=s("rPh"), typed_lines=True)
INLINE_STRING = Dialect(s("is"), s("r"), s("rPr"), s("t"), kept=SHARED_STRING.kept, preserve=True, escaped=True,
                        phonetic=s("rPh"), typed_lines=True)
CELL_COMMENT = Dialect(s("text"), s("r"), s("rPr"), s("t"), kept=SHARED_STRING.kept, preserve=True, escaped=True,
                       phonetic=s("rPh"), typed_lines=True)


# The module of the annotations' ParagraphJob, imported last (typing.get_type_hints reads the annotations):
# it reads paragraphs in these dialects, and imports this module, whose names must exist by then.
from attnmt.documents import ooxml  # noqa: E402
