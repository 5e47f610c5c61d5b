"""Word's data-bound content controls: a control whose properties hold a ``w:dataBinding`` (a cover
page's Title bound to the core properties' ``dc:title``, a template's field bound to an element of a
custom XML part), or Word 2013's ``w15:dataBinding`` beside it or alone, shows the value at its
binding, not its own content: Word and LibreOffice write the control's text again from that store
value when they open the file.  Translated as a mark, its words came back in the body, and the reader
saw the store's English value again.

So the store value is set to the control's translated plain text (``write_stores``; a rich-text control's
value, an escaped package, keeps its look: store_value), in each store
a binding of the control names by its ``w:storeItemID``: the package's core or extended properties
(docProps/core.xml, docProps/app.xml), or the custom XML part (customXml/itemN.xml) whose properties
part (itemPropsN.xml) has that ``ds:itemID``.  A binding's ``w:xpath`` is read when it is a path of
elements alone, ``/ns1:coreProperties[1]/ns0:title[1]``, its prefixes those of ``w:prefixMappings``,
to an element that holds text alone; no general XPath is evaluated.  A control with a binding that
cannot be read so (no such store, another kind of path, no such element) is kept whole, untranslated,
as the store has it (``Bindings.keep_unresolved``: attnmt.documents.word_controls), so that its text
and its store agree; but a ``w15:dataBinding`` that cannot be read beside a ``w:dataBinding`` that can
is passed over (Stores.elements).

Of the controls bound to one element, the first (in reading order) that shows text and whose words the
paragraph reader reads is translated and sets it; the others are kept whole in their sentences and then given
its text, which each other store they are bound to takes too (whatever the order of the controls).  A
paragraph reads an ``mc:AlternateContent`` among its runs as one atom (is_read): a control inside one, or
holding one, went unread and set its store to its own words, untranslated, which the next control bound as it
was then took; it is given the text of the next, both branches of the AlternateContent alike (in_step), or,
alone, left as it is.  The text a control shows (``plain_text``) is what Word displays: none of a tracked
deletion (``w:del``), a move's old place (``w:moveFrom``) or a hidden run (wordml.is_hidden_run: by its own
``w:vanish`` or its styles'), nor a drawing's or a text box's words (a story of their own, translated as such:
a plain-text control's value is its runs' text), and of an ``mc:AlternateContent`` the one branch Word shows,
not both (the first ``mc:Choice``: shown_branch).  One that shows none (a tracked deletion alone, hidden words
alone) is kept whole and sets nothing: leading, it set the store to "" and blanked the control after it that
showed the title, or set it to the hidden words, untranslated.  Where none shows text, the store is left as it
is.

A control kept whole for its kind (a date picker, a list: word_controls.VALUE_KINDS) or showing its
placeholder (``w:showingPlcHdr``: its store value is empty) leaves its store as it is, as does a
repeating section (``w15:repeatingSection``) and its items: its binding names the elements Word
repeats its content for, not a text, and its words are translated as any control's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.part_parsing import parse_xml
from attnmt.documents.tables import XML_SPACE, relationships
from attnmt.documents.word_controls import BINDINGS, KEPT, VALUE_KINDS, W15, Reshown
from attnmt.documents.word_looks import word_styles
from attnmt.documents.wordml import NO_HIDING, Hiding, is_hidden_run, w
from attnmt.errors import DataError

# The stores of the package's own properties, by their fixed item ids -> their relationship's type's end.
PACKAGE_STORES = {"{6C3C8BC8-F283-45AE-878A-BAB7291924A1}": "/metadata/core-properties",
                  "{6668398D-A668-4E3E-A5EB-62B293D839F1}": "/extended-properties"}
ITEM_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/customXml}itemID"  # an itemProps part's
STEP = r"/(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)(?:\[([1-9]\d*)\])?"  # /prefix:name[n]
PREFIX = re.compile(r"""xmlns:([\w.-]+)\s*=\s*(["'])(.*?)\2""")  # one of w:prefixMappings' declarations
# A control's properties that make its store value no text of its: a date's or a list's (VALUE_KINDS), a control
# showing its placeholder, a repeating section and its items (module docstring).
NOT_TEXT_BOUND = VALUE_KINDS | {w("showingPlcHdr"), f"{{{W15}}}repeatingSection", f"{{{W15}}}repeatingSectionItem"}
# What holds no words of the control's text as Word shows and binds it (plain_text): a tracked deletion, a tracked
# move's old place, and a drawing, a VML picture, an embedded object or a text box, whose paragraphs are a story of
# their own (a plain-text control's value is its runs' text alone; the text box's words are translated as its own).
NOT_SHOWN = frozenset({w("del"), w("moveFrom"), w("drawing"), w("pict"), w("object"), w("txbxContent")})
# Markup compatibility's choice of content: Word shows one of its branches (shown_branch), never both.
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
ALTERNATE_CONTENT, CHOICE, FALLBACK = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice", f"{{{MC}}}Fallback"
# A Flat OPC package, which a rich-text control's store value is (escaped: store_value).
PKG = "http://schemas.microsoft.com/office/2006/xmlPackage"
# What plain_text reads of a control's content: its text, tabs, breaks and paragraphs.
PIECES = frozenset({w("t"), w("tab"), w("br"), w("cr"), w("p")})


class Stores:
    """A Word file's data stores, by item id (upper-cased), each parsed once, when first asked for."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.trees: dict[str, etree._ElementTree | None] = {}

    @cached_property
    def hiding(self) -> Hiding:
        """What the file's main part's styles say of hiding a run (WordStyles.hiding), which
        decide what a control shows (plain_text); read when a bound control is first met."""
        main = next((related.member for related in relationships(self.archive, "").values()
                     if related.kind.endswith("/officeDocument")), None)
        return NO_HIDING if main is None else word_styles(self.archive, main).hiding

    @cached_property
    def members(self) -> dict[str, str]:
        """Each store's item id -> its member (store_members), found when a binding is first read."""
        return store_members(self.archive)

    def elements(self, bindings: Sequence[etree._Element]) -> list[tuple[str, etree._Element]] | None:
        """(its store's member, the element) that each of ``bindings`` names that can be read; None where the
        control's ``w:dataBinding`` cannot be, or its ``w15:dataBinding`` without one.  A ``w15:dataBinding`` beside
        a readable ``w:dataBinding`` that cannot be read (an XPath with a predicate) is passed over: the control is
        translated and its other stores set, where it was kept whole."""
        found = [self.element(binding) for binding in bindings]
        needed = [pair for binding, pair in zip(bindings, found, strict=True) if binding.tag == w("dataBinding")]
        needed = needed or found
        return None if None in needed else [pair for pair in found if pair is not None]

    def element(self, binding: etree._Element) -> tuple[str, etree._Element] | None:
        """(its store's member, the element) a ``w:dataBinding`` (or ``w15:dataBinding``) names; None where it
        cannot be read (module docstring)."""
        member = self.members.get(binding.get(w("storeItemID"), "").upper())
        if member is None:
            return None
        if member not in self.trees:
            try:
                self.trees[member] = parse_part(self.archive, member)
            except DataError:  # a store that does not parse is one no reader shows a value of
                self.trees[member] = None
        tree = self.trees[member]
        found = None if tree is None else bound_element(tree.getroot(), binding.get(w("xpath"), ""),
                                                        binding.get(w("prefixMappings"), ""))
        return None if found is None else (member, found)


def store_members(archive: Archive) -> dict[str, str]:
    """Each data store's item id (upper-cased) -> its member: the package's properties (PACKAGE_STORES), and
    each custom XML part of the main part, by its properties part's ``ds:itemID``."""
    package = relationships(archive, "").values()
    members = {item: related.member for item, end in PACKAGE_STORES.items() for related in package
               if related.kind.endswith(end) and related.member in archive}
    for main in (related.member for related in package if related.kind.endswith("/officeDocument")):
        for item in (related.member for related in relationships(archive, main).values()
                     if related.kind.endswith("/customXml") and related.member in archive):
            for props in (related.member for related in relationships(archive, item).values()
                          if related.kind.endswith("/customXmlProps") and related.member in archive):
                try:
                    members.setdefault(parse_part(archive, props).getroot().get(ITEM_ID, "").upper(), item)
                except DataError:
                    continue
    return members


def bound_element(root: etree._Element, xpath: str, mappings: str) -> etree._Element | None:
    """The element of ``root``'s tree that ``xpath`` names, a path of elements alone (``/p:a[1]/q:b[1]``,
    its prefixes declared in ``mappings``), where that element holds no element; None otherwise."""
    xpath = xpath.strip()
    if not re.fullmatch(f"(?:{STEP})+", xpath):
        return None
    namespaces = {prefix: uri for prefix, _, uri in PREFIX.findall(mappings)}
    found: list[etree._Element] = [root]  # the elements the next step may name
    for prefix, name, number in re.findall(STEP, xpath):
        if prefix and prefix not in namespaces:
            return None
        tag = f"{{{namespaces[prefix]}}}{name}" if prefix else name
        matching = [child for child in found if child.tag == tag]
        if len(matching) < int(number or 1):
            return None
        element = matching[int(number or 1) - 1]
        found = list(element)
    return element if not len(element) else None


def bindings_of(control: etree._Element) -> list[etree._Element]:
    """A content control's ``w:dataBinding`` and ``w15:dataBinding`` where its store value is its text (not that
    of a date, a list, a control showing its placeholder or a repeating section: NOT_TEXT_BOUND); none for any
    other control."""
    properties = control.find(w("sdtPr"))
    if properties is None or any(child.tag in NOT_TEXT_BOUND for child in properties):
        return []
    return [child for child in properties if child.tag in BINDINGS]


class Bindings:
    """Before the paragraphs are read: the data-bound controls kept whole (module docstring), in the parts given
    to ``keep_unresolved`` in reading order."""

    def __init__(self, archive: Archive) -> None:
        self.stores = Stores(archive)
        self.bound: set[etree._Element] = set()  # the store elements a control read earlier sets

    def keep_unresolved(self, root: etree._Element) -> None:
        """Each bound control under ``root`` whose binding cannot be read, whose element an earlier one sets, or
        that shows no text (its plain text would empty the store), marked KEPT (word_controls.is_kept_control); the
        elements of one kept for an earlier one's are set, too, by it (write_stores)."""
        for control in root.iter(w("sdt")):
            bindings = bindings_of(control)
            if not bindings:
                continue
            found = self.stores.elements(bindings)
            hiding = self.stores.hiding
            if found is None or not plain_text(control, hiding).strip() or not is_read(control, hiding):
                control.set(KEPT, "")  # one not read sets nothing: a later one bound as it is sets its text
                continue
            if any(element in self.bound for _, element in found):
                control.set(KEPT, "")  # given the earlier one's text (write_stores), as its other stores are
            self.bound.update(element for _, element in found)


def write_stores(archive: Archive, parts: Sequence[Part], reshown: Reshown | None = None) -> list[Part]:
    """After the paragraphs are translated (``parts``, in reading order, their trees changed in place): each store
    element a control is bound to set to the plain text of the first such control not KEPT (the first that shows
    text: Bindings.keep_unresolved), the others bound to it given that text; KEPT taken out.  Returns the store
    parts it changed.  A KEPT control before the one that sets its element (one whose words are not read:
    is_read) is given its text once all are read; ``reshown`` is told of each control given a text."""
    stores = Stores(archive)
    values: dict[etree._Element, str] = {}  # each store element set -> its text
    changed: dict[str, etree._ElementTree] = {}
    waiting: list[tuple[Part, etree._Element]] = []  # KEPT controls met before any text for their elements
    for part in parts:
        for control in part.tree.getroot().iter(w("sdt")):
            kept = control.attrib.pop(KEPT, None) is not None
            if not write_control(part, control, kept, stores, values, changed, reshown):
                waiting.append((part, control))
    for part, control in waiting:
        write_control(part, control, True, stores, values, changed, reshown)
    return [Part(member, tree, changed=True) for member, tree in changed.items()]


def write_control(part: Part, control: etree._Element, kept: bool, stores: Stores,
                  values: dict[etree._Element, str], changed: dict[str, etree._ElementTree],
                  reshown: Reshown | None = None) -> bool:
    """One control of write_stores: given the text ``values`` hold for an element it is bound to (``reshown`` told
    of it), else, not ``kept``, its text set into its store elements (``changed``: the store trees written to); False
    where it is ``kept`` and no element of its has a text yet."""
    found = stores.elements(bindings_of(control)) or []
    given = next((values[element] for _, element in found if element in values), None)
    if given is not None:
        before = plain_text(control, stores.hiding)
        part.changed = set_text(control, given, stores.hiding) or part.changed
        if reshown is not None:
            reshown(control, before, given)
        if not plain_text(control, stores.hiding).strip():
            return True  # it shows no text: it sets nothing
        text = given  # its other stores, too, take the text it now shows
    elif kept:
        return not found
    else:
        text = plain_text(control, stores.hiding)
    for member, element in found:
        if element not in values:  # a store an earlier control set keeps that control's text
            values[element] = text
            value = store_value(element.text or "", text, member)
            if element.text != value:
                element.text = value
                changed[member] = element.getroottree()
    return True


def store_value(value: str, text: str, member: str) -> str:
    """What a store element holding ``value`` is set to for a control showing ``text``: ``text``; or, where
    ``value`` is a rich-text control's (Word 2013's ``w15:dataBinding``), an escaped package (Flat OPC,
    ``pkg:package``), that package with ``text`` in the first text element its document shows, its others taken
    out (as set_text gives a control a text), so that it keeps its look.  Given plain text in its place, Word
    showed the control without its bold or its paragraphs' look.  A package with no text element, or one that
    does not parse (read safely, part_parsing.parse_xml), takes ``text``."""
    if PKG not in value:
        return text
    try:
        tree = parse_xml(value.encode("utf-8"), f"{member} (a rich-text control's value)", ".xml")
    except DataError:
        return text
    body = tree.getroot().find(f"{{{PKG}}}part[@{{{PKG}}}name='/word/document.xml']/{{{PKG}}}xmlData/"
                               f"{w('document')}/{w('body')}")
    texts = [] if body is None else shown_texts(body, NO_HIDING)
    if not texts:
        return text
    put_text(texts, text)
    declaration = value[:value.index("?>") + 2] if value.startswith("<?xml") else ""
    return declaration + etree.tostring(tree, encoding="unicode")


def is_read(control: etree._Element, hiding: Hiding = NO_HIDING) -> bool:
    """Whether the paragraph reader reads any of ``control``'s words: one of the text elements Word shows of it
    lies in no ``mc:AlternateContent`` within its paragraph (a paragraph reads one as an atom, shown.NOT_IN_THE_LINE:
    around the control, or in its content); a text box's paragraph is one of its own."""
    return any(not any(ancestor.tag == ALTERNATE_CONTENT for ancestor in within(text, paragraph_of(text)))
               for text in shown_texts(control, hiding))


def paragraph_of(node: etree._Element) -> etree._Element | None:
    """The nearest paragraph (``w:p``) around ``node``; None outside one."""
    return next(node.iterancestors(w("p")), None)


def shown_pieces(node: Iterable[etree._Element],
                 hiding: Hiding = NO_HIDING) -> Iterator[etree._Element]:
    """The PIECES under ``node`` (an element, or the elements of a list) that Word shows, in document order: none
    inside NOT_SHOWN or a hidden run (its own properties hide it, or its styles, as
    ``hiding`` says: wordml.is_hidden_run), and of an ``mc:AlternateContent`` the branch Word shows alone
    (shown_branch)."""
    for child in node:
        if child.tag in NOT_SHOWN or is_hidden_run(child, hiding):
            continue
        if child.tag == ALTERNATE_CONTENT:
            yield from shown_pieces(shown_branch(child), hiding)
            continue
        if child.tag in PIECES:
            yield child
        yield from shown_pieces(child, hiding)


def shown_branch(alternate: etree._Element) -> list[etree._Element]:
    """The branch of an ``mc:AlternateContent`` that Word shows: its first ``mc:Choice`` (Word understands each
    it writes; the paragraph reader, too, takes a Choice for what is seen, the Fallback for a copy no reader
    sees: attnmt.documents.ooxml_paragraphs.FALLBACK), else its ``mc:Fallback``; [] where it has neither.  Both read, a
    control's text was doubled ("AAB")."""
    branch = alternate.find(CHOICE)
    return [branch] if branch is not None else list(alternate.iterchildren(FALLBACK))[:1]


def plain_text(control: etree._Element, hiding: Hiding = NO_HIDING) -> str:
    """A control's content as plain text, as Word shows it (shown_pieces; ``hiding``: what the styles
    say of hiding a run): its text, a tab a tab, a break or a paragraph's end a new line."""
    content, pieces = control.find(w("sdtContent")), []
    for part in [] if content is None else shown_pieces(content, hiding):
        if part.tag == w("t"):
            pieces.append(part.text or "")
        elif part.tag == w("tab"):
            pieces.append("\t")
        elif part.tag != w("p") or pieces:  # a paragraph after the first begins a new line
            pieces.append("\n")
    return "".join(pieces)


def set_text(control: etree._Element, text: str, hiding: Hiding = NO_HIDING) -> bool:
    """A control's text made ``text``, in its first text element Word shows (its other shown text elements taken
    out; a hidden or deleted one left as it is: ``hiding``, plain_text), and so in the ``mc:Fallback`` copy of an
    ``mc:AlternateContent`` whose Choice holds them (in_step); whether that changed it.  One without such an
    element is left as it is."""
    content = control.find(w("sdtContent"))
    texts = [] if content is None else shown_texts(content, hiding)
    if content is None or not texts or plain_text(control, hiding) == text:
        return False
    for alternate in dict.fromkeys(alternate for t in texts for alternate in within(t, content)
                                   if alternate.tag == ALTERNATE_CONTENT):
        in_step(alternate, texts[0], text, hiding)
    put_text(texts, text)
    return True


def in_step(alternate: etree._Element, first: etree._Element, text: str, hiding: Hiding) -> None:
    """``alternate``'s ``mc:Fallback`` copies given what its shown ``mc:Choice`` is given by set_text: ``text``
    where the Choice holds the control's ``first`` text element, else none (its texts are taken out).  The
    paragraph reader translates both branches (attnmt.documents.ooxml_paragraphs.FALLBACK); only the Choice written, the
    Fallback kept the old text, which a reader of the copy showed."""
    if alternate.find(CHOICE) is None:  # the Fallback is the branch shown: set_text writes it
        return
    holds_first = any(ancestor is alternate for ancestor in first.iterancestors(ALTERNATE_CONTENT))
    for fallback in alternate.iterchildren(FALLBACK):
        put_text(shown_texts(fallback, hiding), text if holds_first else "")


def within(node: etree._Element, top: etree._Element) -> Iterator[etree._Element]:
    """The elements around ``node`` below ``top``, the nearest first: a control in a text box (in an
    ``mc:Choice``) has the text box's AlternateContent around it, which is no part of the control."""
    for ancestor in node.iterancestors():
        if ancestor is top:
            return
        yield ancestor


def shown_texts(node: etree._Element, hiding: Hiding) -> list[etree._Element]:
    """The text elements (``w:t``) under ``node`` that Word shows (shown_pieces)."""
    return [piece for piece in shown_pieces(node, hiding) if piece.tag == w("t")]


def put_text(texts: Sequence[etree._Element], text: str) -> None:
    """``text`` into the first of ``texts`` (none where it is ""), the others taken out."""
    if texts and text:
        texts[0].text = text
        texts[0].set(XML_SPACE, "preserve")
    for other in texts[1 if text else 0:]:
        other.getparent().remove(other)
