"""Code in an e-book's pages, told by the book's stylesheets: LibreOffice and Word write a document's
code into an EPUB as ``<span class="span4">pip install attnmt</span>``, with ``.span4 { font-family:
'DejaVu Sans Mono'; }`` in the book's CSS, not as ``<code>``.  Read as words, the command was
translated, and lost.

A class that a rule of a stylesheet in the book sets in a monospaced font (code_look.MONOSPACED, or
CSS's generic ``monospace``: the first family its ``font-family`` names) makes an inline element of
that class code, kept whole as ``<code>`` is (an atom), where its block has letters outside such
elements: a font alone makes code only inline, beside words in another (code_look: a paragraph all
in Courier, a screenplay, is words).  Rules are read from each CSS member of the book (``.css``) by
their simple selectors alone (``.span4``, ``span.code``): a selector of a descendant or a state
(``pre .x``, ``a:hover``) says nothing of a class by itself.

A whole block in such classes is code too (LibreOffice's "Preformatted Text" paragraph, ``<p><span
class="span1">make install clean</span></p>``, which a ``.docx`` or ``.odt`` keeps by its style's name, or on
this evidence: attnmt.documents.code_paragraphs, attnmt.documents.opendocument_code_blocks), but only on the
evidence that tells it from words merely set in Courier (is_code_block): most of its page's letters are in
another font, so the monospaced font sets it apart, and it reads as no sentence (it does not end in a stop after
its words: ``A dog runs.`` in Courier is words, ``docker build .`` is code), or, where it ends like one, its
stop is code's (code_look.reads_as_code: a name called with a string, ``print('Hi.')``; a string assigned,
``greeting = "Good morning."``; a shell's or Python's prompt, ``$ echo Done.``), which no sentence shows: read
as one, the line was translated and the program broken.  A screenplay, all in Courier, is words throughout.

A class whose rule sets ``vertical-align: sub`` or ``super`` (a converter's subscript:
``H<span class="calibre5">2</span>O``), or moves its text down or up by a relative position (LibreOffice's:
``position: relative; top: 0.33em``, script_kind) is a script as ``<sub>`` and ``<sup>`` are, a formula's or a unit's
kept whole with its letters (attnmt.documents.script_tokens).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lxml import etree

from attnmt.documents.code_look import is_monospaced, reads_as_code
from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import has_words
from attnmt.documents.html_layout import BLOCKS
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.script_tokens import Script

COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")  # a rule's selectors and declarations; an @media's rules inside it too
FAMILY = re.compile(r"(?:^|;)\s*font-family\s*:\s*([^;]+)", re.IGNORECASE)
SIMPLE = re.compile(r"([A-Za-z][\w-]*)?\.(-?[_A-Za-z][\w-]*)")  # ``span.code``, ``.span4``
ALIGN = re.compile(r"(?:^|;)\s*vertical-align\s*:\s*(sub|super)\s*(?:;|$)", re.IGNORECASE)  # a script's look
RELATIVE = re.compile(r"(?:^|;)\s*position\s*:\s*relative\s*(?:;|$)", re.IGNORECASE)
SHIFT = re.compile(r"(?:^|;)\s*(top|bottom)\s*:\s*(-?)(\d*\.?\d+)[a-z%]*\s*(?:;|$)", re.IGNORECASE)  # "top: -0.33em"


def class_rules(stylesheets: Iterable[str]) -> Iterator[tuple[list[str], str]]:
    """(the classes its simple selectors name, its declarations) of each rule of ``stylesheets`` (CSS texts)."""
    for css in stylesheets:
        for selectors, declarations in RULE.findall(COMMENT.sub("", css)):
            yield [match.group(2) for selector in selectors.split(",")
                   if (match := SIMPLE.fullmatch(selector.strip())) is not None], declarations


def monospaced_classes(stylesheets: Iterable[str]) -> frozenset[str]:
    """The classes that a rule of ``stylesheets`` (CSS texts) sets in a monospaced font (module docstring)."""
    found: set[str] = set()
    for classes, declarations in class_rules(stylesheets):
        family = FAMILY.search(declarations)
        first = family.group(1).split(",")[0].strip().strip("'\"") if family else ""
        if first.casefold() == "monospace" or is_monospaced(first):
            found.update(classes)
    return frozenset(found)


def script_classes(stylesheets: Iterable[str]) -> dict[str, str]:
    """Each class that a rule of ``stylesheets`` sets below or above the line (``vertical-align: sub``, ``super``:
    a converter's subscript, ``H<span class="calibre5">2</span>O``), with where: "sub" or "sup"."""
    found: dict[str, str] = {}
    for classes, declarations in class_rules(stylesheets):
        if kind := script_kind(declarations):
            found.update(dict.fromkeys(classes, kind))
    return found


def script_kind(declarations: str) -> str:
    """Where a rule's ``declarations`` set its text: "sub" below the line, "sup" above it, "" on it.  Calibre writes
    ``vertical-align: sub``; LibreOffice's EPUB export moves the text by a relative position and leaves
    ``vertical-align: baseline`` (``position: relative; top: 0.33em``: down, a subscript; ``top: -0.33em``: up).
    Read by vertical-align alone, H₂O's script was a word's mark and the model lost the "2"."""
    if (align := ALIGN.search(declarations)) is not None:
        return align.group(1).lower()[:3]
    shift = SHIFT.search(declarations)
    if RELATIVE.search(declarations) is None or shift is None or float(shift.group(3)) == 0:
        return ""
    down = (shift.group(1).lower() == "top") != (shift.group(2) == "-")  # a positive top, or a negative bottom
    return "sub" if down else "sup"


class StyledVocabulary(Vocabulary):
    """HTML's vocabulary (elements.Vocabulary), where an inline element of one of ``code_classes``
    beside words outside them is code, kept whole (module docstring)."""

    def __init__(self, code_classes: frozenset[str], source_lang: str = "",
                 scripts: dict[str, str] | None = None) -> None:
        super().__init__(source_lang=source_lang)
        self.code_classes = code_classes
        self.scripts = scripts or {}  # the classes set below or above the line (script_classes)
        self.prose: dict[etree._Element, bool] = {}  # each block: whether it has words outside code classes
        self.prose_pages: dict[etree._Element, bool] = {}  # each page: whether most of its letters are outside them

    def forget(self) -> None:
        super().forget()
        self.prose.clear()
        self.prose_pages.clear()

    def is_untranslated(self, node: etree._Element) -> bool:
        return super().is_untranslated(node) or self.is_code_block(node)

    def is_code_block(self, node: etree._Element) -> bool:
        """Whether ``node`` is a block whose words are all of code classes (its own class one, or its
        elements'), that reads as no sentence, on a page mostly in other fonts (module docstring)."""
        if is_comment(node) or local_name(node) not in BLOCKS:
            return False
        text = "".join(node.itertext())
        own = not self.code_classes.isdisjoint(node.get("class", "").split())
        if not reads_as_code(text) or not (own or not self.has_prose(node)):
            return False
        return self.is_prose_page(node.getroottree().getroot())

    def is_prose_page(self, root: etree._Element) -> bool:
        """Whether most of the letters of ``root``'s body are outside elements of code classes."""
        if root not in self.prose_pages:
            body = next(root.iter("{*}body"), root)
            prose = sum(map(str.isalpha, "".join(self.prose_texts(body))))
            self.prose_pages[root] = prose > sum(map(str.isalpha, "".join(body.itertext()))) - prose
        return self.prose_pages[root]

    def script(self, node: etree._Element) -> Script | None:
        """HTML's ``<sub>`` and ``<sup>``, and an inline element of a class set below or above the line (scripts):
        read as one, a formula's ``H<span class="calibre5">2</span>O`` is kept whole (script_tokens)."""
        found = super().script(node)
        if found is not None or is_comment(node) or local_name(node) in BLOCKS:
            return found
        kinds = {self.scripts[name] for name in node.get("class", "").split() if name in self.scripts}
        return Script(kinds.pop(), None if len(node) else node.text or "") if len(kinds) == 1 else None

    def is_atom(self, node: etree._Element) -> bool:
        return super().is_atom(node) or (self.is_styled_code(node) and self.has_prose(block_of(node)))

    def is_styled_code(self, node: etree._Element) -> bool:
        """Whether ``node`` is an inline element of a class in ``code_classes``."""
        return (not is_comment(node) and local_name(node) not in BLOCKS
                and not self.code_classes.isdisjoint(node.get("class", "").split()))

    def has_prose(self, block: etree._Element) -> bool:
        """Whether ``block`` has words outside its elements of code classes (worked out once a block)."""
        if block not in self.prose:
            self.prose[block] = has_words(" ".join(self.prose_texts(block)))
        return self.prose[block]

    def prose_texts(self, node: etree._Element) -> list[str]:
        """The texts inside ``node`` that no element of a code class holds, its children's tails too."""
        texts = [node.text or ""]
        for child in node:
            if not is_comment(child) and not self.is_styled_code(child):
                texts += self.prose_texts(child)
            texts.append(child.tail or "")
        return texts


def block_of(node: etree._Element) -> etree._Element:
    """The nearest block (html_layout.BLOCKS) around ``node``, or its tree's root."""
    for ancestor in node.iterancestors():
        if local_name(ancestor) in BLOCKS:
            return ancestor
    return node.getroottree().getroot()
