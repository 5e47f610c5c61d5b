"""What an OpenDocument paragraph's elements are to its flat text (attnmt.documents.opendocument):
``text:span``, ``text:a``, ``text:meta`` and LibreOffice's content control are marks, but for one the
model would read nothing of, a marker, a link to a reference, a note's number typed in superscript,
code or hidden text beside visible words, each an atom kept whole; everything else in a paragraph is
an atom, and what a reader sees of a node and beside it (``shown_text``, ``shown_before``,
``shown_after``) tells which."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import Vocabulary
from attnmt.documents.fields import NUMBER, amid_words
from attnmt.documents.flat import has_words
from attnmt.documents.markers import is_marker_text, is_note_number, is_reference
from attnmt.documents.opendocument_code import MARKS, OFFICE, PARAGRAPHS, REFERENCES, TEXT, CodeLooks
from attnmt.documents.opendocument_controls import is_value_control
from attnmt.documents.pages import is_comment
from attnmt.documents.script_tokens import Script

DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
LINK = f"{{{TEXT}}}a"
SEQUENCE = f"{{{TEXT}}}sequence"  # a numbered sequence's number: a caption's (numbers_caption)
# The fields that show a number alone, read amid words (is_number_amid_words): a cross-reference's, a page's, a count's
NUMBER_FIELDS = REFERENCES | {f"{{{TEXT}}}page-number", f"{{{TEXT}}}page-count"}
SPACE = f"{{{TEXT}}}s"  # text:s, one space, or text:c of them
BREAKS = frozenset({f"{{{TEXT}}}line-break", f"{{{TEXT}}}tab", SPACE})
# The atoms that start and end a range of words (by the attribute that names it): its end stays after its start.
# An annotation's start is named by office:name (ODF 1.2; some writers use draw:name), its end by office:name;
# a bookmark's and a reference mark's edges by text:name, a tracked change's by text:change-id, and an index
# mark's (a table of contents', a user index's, an alphabetical index's entry over words) by text:id.
RANGES = {f"{{{OFFICE}}}annotation": ("annotation", True, (f"{{{OFFICE}}}name", f"{{{DRAW}}}name")),
          f"{{{OFFICE}}}annotation-end": ("annotation", False, (f"{{{OFFICE}}}name",)),
          **{f"{{{TEXT}}}{kind}-{edge}": (kind, edge == "start", (f"{{{TEXT}}}{name}",))
             for kind, name in (("bookmark", "name"), ("reference-mark", "name"), ("change", "change-id"),
                                ("toc-mark", "id"), ("user-index-mark", "id"), ("alphabetical-index-mark", "id"))
             for edge in ("start", "end")}}


class OpenDocumentVocabulary(Vocabulary):
    """A paragraph's spans and links are marks, all else in it atoms; spaces collapse, as ODF
    renders them (``text:s`` holds the rest).  ``looks``: the part's styles, which tell code."""

    def __init__(self, looks: CodeLooks) -> None:
        super().__init__(xml=False)
        self.looks = looks

    def is_atom(self, node: etree._Element) -> bool:
        """Anything but a mark, and a mark the model would read nothing of (one around a note or a
        field alone), that is a marker (markers.is_marker_text: ``<text:span>★</text:span>``), a
        link to a reference (markers.is_reference: ``<text:a xlink:href="#ref3">[3]</text:a>``), that
        is code (opendocument_code: ``ls -l /tmp`` in "Source Text", which the model translated),
        that is hidden beside visible words (an editor's note: as a mark, it took the words aligned
        to it out of sight), or a cross-reference to a number alone (REFERENCES: a chapter's "3.2",
        kept as Word's is, attnmt.documents.fields.is_read_result), or a content control whose content is a value
        it writes (opendocument_controls: a date, a list's chosen item)."""
        if is_number_amid_words(node):
            return False
        if is_comment(node) or node.tag not in MARKS or is_value_control(node):
            return True
        shown = shown_text(node)
        return (not shown or is_marker_text(shown, shown_before(node), shown_after(node))
                or self.is_reference(node) or self.looks.is_code(node) or self.is_hidden(node)
                or (node.tag in REFERENCES and not has_words(shown)))

    def is_kept_word(self, node: etree._Element) -> bool:
        """A number field amid words (is_number_amid_words), and what HTML reads whole too."""
        return is_number_amid_words(node) or super().is_kept_word(node)

    def is_hidden(self, node: etree._Element) -> bool:
        """Whether ``node`` is a mark of hidden text beside visible words (opendocument_code.CodeLooks.is_hidden)."""
        return node.tag in MARKS and self.looks.is_hidden(node)

    def is_reference(self, node: etree._Element) -> bool:
        """Whether ``node`` is a link to a reference, ``<text:a>[3]</text:a>`` (markers.is_reference), or
        a mark of a note's number typed in superscript, glued to a word or stop (markers.is_note_number:
        ``park.<text:span text:style-name="T1">12</text:span>``, T1's ``style:text-position="super 58%"``)."""
        shown = shown_text(node)
        return node.tag in MARKS and ((node.tag == LINK and is_reference(shown)) or (
            is_note_number(shown, shown_before(node)) and self.looks.is_raised(node)))

    def script(self, node: etree._Element) -> Script | None:
        """What ``node`` is as a script of a formula or a unit (script_tokens): a span of text alone set below
        or above the line by its style (opendocument_code.CodeLooks.script: ``H<text:span>2</text:span>O``)."""
        kind = self.looks.script(node) if node.tag in MARKS and not len(node) else ""
        return Script(kind, node.text or "") if kind else None

    def is_code(self, node: etree._Element) -> bool:
        """Whether ``node`` is a mark of code with something to show (opendocument_code.CodeLooks.is_code,
        which tells both from the looks of the mark's texts, worked out once a mark)."""
        return node.tag in MARKS and self.looks.is_code(node)

    def entity_character(self, node: etree._Element) -> str:
        """A space for a ``text:s`` of one space between two things a reader sees (is_lone_space): read as an
        atom, it went where alignment put it, apart from the field beside it (``Slide<text:s/>[3]<text:s/>of``
        -> ``<text:s/>[3]<text:s/>OF SLIDE``, a space starting the line); read as the space it shows, it is
        spacing as a typed space is, which the translation writes where it needs one."""
        return " " if is_lone_space(node) else ""

    def is_inline(self, node: etree._Element) -> bool:
        return True  # the job's root is one paragraph: whatever is in it belongs to its text

    def is_untranslated(self, node: etree._Element) -> bool:
        return is_comment(node)

    def parts_words(self, node: etree._Element) -> bool:
        """A space, tab, line break, code, a link to a reference (``park<text:a>[3]</text:a>.``: "park .",
        as in HTML and Word) and a hidden note with a space at an edge (``A man<note> (Anna) </note>walks.``)."""
        return not is_comment(node) and (node.tag in BREAKS or self.is_code(node) or self.is_reference(node) or (
            self.is_hidden(node) and shown_text(node) != shown_text(node).strip()))

    def ends_sentence(self, node: etree._Element) -> bool:
        """A tab, which parts fields ("Name:<text:tab/>John Smith"), and a caption's number (numbers_caption)."""
        return node.tag == f"{{{TEXT}}}tab" or numbers_caption(node)

    def range_edge(self, node: etree._Element) -> tuple[object, bool] | None:
        """An annotation over words (named, with its annotation-end), and a bookmark, reference mark,
        tracked change or index mark over words (RANGES)."""
        kind, starts, names = RANGES.get(node.tag, (None, False, ()))
        key = next((node.get(name) for name in names if node.get(name) is not None), None)
        return None if key is None else ((kind, key), starts)


def numbers_caption(node: etree._Element) -> bool:
    """Whether ``node`` is a number field LibreOffice's Insert Caption writes (``text:sequence``, "Figure
    <text:sequence text:name="Figure">1</text:sequence>: A black dog jumps.") showing its number: the label before
    it and the caption's text after it are sentences apart (attnmt.documents.caption_numbers).  Read as one,
    "Figure : A black dog jumps." came back "Ein bärtiger schwarzer Hund springt", the label and the colon lost."""
    return node.tag == SEQUENCE and bool((node.text or "").strip())


def is_number_amid_words(node: etree._Element) -> bool:
    """Whether ``node`` is a field showing a number alone (NUMBER_FIELDS: a cross-reference to a caption's number or a
    page's, ``See page <text:sequence-ref text:reference-format="page">4</text:sequence-ref> for a man.``; a page's
    number; the count of pages) amid its sentence's words (attnmt.documents.fields.amid_words): read with them and
    written back as it came in the place of the translation's copy of the number (Mark.kept_whole), as Word's number
    fields are (fields.is_number_result).  An atom, the model read "See page for a man.", and the field went where its
    neighbours' words did."""
    return node.tag in NUMBER_FIELDS and NUMBER.fullmatch("".join(node.itertext())) is not None and amid_words(
        "", shown_before(node), shown_rest(node))


def shown_text(node: etree._Element) -> str:
    """What the model reads of a node of a paragraph: a mark's text, a space for a space, tab or
    line break, nothing of any other atom (a note, a field); the text after it (its tail) left out."""
    if is_comment(node) or node.tag not in MARKS:
        return " " if not is_comment(node) and node.tag in BREAKS else ""
    return (node.text or "") + "".join(shown_text(child) + (child.tail or "") for child in node)


def shown_before(node: etree._Element) -> str:
    """The last character a reader sees before ``node`` in its paragraph ("" at its start)."""
    while node.getparent() is not None and node.tag not in PARAGRAPHS:
        for previous in node.itersiblings(preceding=True):
            shown = shown_text(previous) + (previous.tail or "")
            if shown:
                return shown[-1]
        node = node.getparent()
        if node.text:
            return node.text[-1]
    return ""


def shown_after(node: etree._Element) -> str:
    """The first character a reader sees after ``node`` in its paragraph ("" at its end)."""
    while node.getparent() is not None and node.tag not in PARAGRAPHS:
        if node.tail:
            return node.tail[0]
        for following in node.itersiblings():
            shown = shown_text(following) + (following.tail or "")
            if shown:
                return shown[0]
        node = node.getparent()
    return ""


def shown_rest(node: etree._Element) -> str:
    """What a reader sees after ``node`` in its paragraph."""
    rest = ""
    while node.getparent() is not None and node.tag not in PARAGRAPHS:
        rest += (node.tail or "") + "".join(shown_text(following) + (following.tail or "")
                                            for following in node.itersiblings())
        node = node.getparent()
    return rest


def is_lone_space(node: etree._Element) -> bool:
    """Whether ``node`` is a ``text:s`` of one space with something a reader sees right before and after it in
    its parent: a character that is no space, or an element that is no space, tab or line break (a field).
    A space it is, as a typed one would be; not one beside another space (two spaces in a row), nor one at
    an edge (an indent), whose spacing only text:s keeps."""
    if node.tag != SPACE or node.get(f"{{{TEXT}}}c", "1") != "1" or node.getparent() is None:
        return False
    previous = node.getprevious()
    before = (node.getparent().text if previous is None else previous.tail) or ""
    after = node.tail or ""
    following = node.getnext()
    return (before[-1:].strip() != "" or (not before and previous is not None and previous.tag not in BREAKS)) and (
        after[:1].strip() != "" or (not after and following is not None and following.tag not in BREAKS))
