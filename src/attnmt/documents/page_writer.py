"""A parsed HTML tree written back as it came: libxml2's HTML writer gives a void element it does
not know an end tag, and URI-escapes the values of some attributes; what is written here undoes both.
attnmt.documents.pages parses and writes pages with it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass
from html import escape
from uuid import uuid4

from lxml import etree, html

from attnmt.documents.kept_code import TEXT_CODE
from attnmt.documents.xstring import CONTROLS

# HTML's void elements that libxml2's parser does not know as void (it knows area, base, br, col, hr,
# img, input, link, meta and param): it nests what follows one inside it, up to its block's end, and
# its writer gives each an end tag.
UNKNOWN_VOIDS = ("embed", "keygen", "source", "track", "wbr")
VOID_END = re.compile(rf"(<({'|'.join(UNKNOWN_VOIDS)})\b[^<>]*>)</\2>")  # an emptied one as written: "<wbr></wbr>"
URI_ATTRIBUTES = ("href", "src", "action")  # what libxml2's HTML writer URI-escapes (Marks)
XHTML = "http://www.w3.org/1999/xhtml"
# HTML's void elements, and the obsolete ones libxml2's HTML writer writes without an end tag: the
# only elements of XHTML that may be written ``<br/>`` (open_empties).
HTML_VOIDS = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                        "track", "wbr", "param", "keygen", "basefont", "frame", "isindex", "command"))
FOREIGN = ("svg", "math")  # where the HTML parser's elements are SVG's and MathML's
RAW_TEXT = ("script", "style")  # whose text the HTML parser reads as written, no entity decoded (Marks)
# Obsolete elements the HTML parser also reads as written, but libxml2's HTML writer escapes (Marks).
OBSOLETE_RAW_TEXT = ("xmp", "plaintext", "noembed", "noframes")
# A character XML 1.0 cannot hold (xstring.CONTROLS: U+0001, a vertical tab) that libxml2's HTML parser keeps, as
# HTML does, and that lxml sets in no value: a translated attribute that holds one ("Hello.\x01 World.", between
# its sentences) holds a stand-in for it in the tree, letters and digits (which both writers keep as they are)
# with a nonce no page has, written back as the character's numeric reference (written_references).  A text's
# is a reference in the tree itself (append_text), as lxml has one for a text only.
CONTROL = re.compile(f"[{CONTROLS}]")
# The spacing kept at a text's edges as the page had it: Python's whitespace (str.strip's) but the control
# characters in it (a vertical tab, a form feed, U+001C to U+001F), which are written as text is (append_text).
EDGE_SPACES = "".join(character for character in map(chr, range(0x3001))
                      if character.isspace() and not CONTROL.match(character))
# A processing instruction in HTML (a template's "<?php echo $x; ?>", "<?= $name ?>"), a CDATA section (an
# inline SVG's or MathML's text, "<![CDATA[a < b]]>") and a condition's bracket (Word's "<![if !supportLists]>",
# "<![endif]>"), as written: libxml2 from 2.14 reads each as a browser's parser does outside XML, a bogus
# comment up to the first ">", its text "?php echo $x; ?", "[CDATA[a < b]]" or "[if !supportLists]".
BOGUS_COMMENT = re.compile(r"<\?[^>]*>|<!\[[^>]*>")
# A template's code in an attribute's value (``href="<?php echo $url ?>"``, ``alt="<?= $alt ?>"``, ERB's and
# JSP's ``value="<%= name %>"``): the server runs it before a browser reads the page, so it stays as written.  It
# holds no "<" but a comparison's (``$n < 3``, ``a <= b``), as TEXT_CODE: each try ends at the next code, so a
# value of "<?" a thousand times over is read once.
VALUE_CODE = re.compile(r"<\?(?:[^<]|<[\s=])*?\?>|<%(?:[^<]|<[\s=])*?%>")
# A start tag as written, and an attribute in it (its name group 1): where a page spells its names (spelled_names).
# Neither crosses a "<": each try ends at the next tag, so a page of "<a" without ">" is read once, not once a "<".
START_TAG = re.compile(r"<([A-Za-z][^\s/<>]*)((?:[^<>\"']|\"[^\"<]*\"|'[^'<]*')*)>")
ATTRIBUTE = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?")
NO_MARK = re.compile(r"(?!)")  # Marks.swap's where it marks nothing: it matches no text
CONTROL_NONCE = uuid4().hex
STAND_IN = re.compile(rf"attnmt{CONTROL_NONCE}c(\d+)x")


def held_value(value: str) -> str:
    """``value`` as an attribute of the tree can hold it: each control character a stand-in (STAND_IN)."""
    return CONTROL.sub(lambda found: f"attnmt{CONTROL_NONCE}c{ord(found.group())}x", value)


def bogus_comments(text: str) -> frozenset[str]:
    """Each processing instruction and CDATA section of ``text`` as written (BOGUS_COMMENT), and each code of a
    template in its text (TEXT_CODE: ``<%= user.name %>``), but for one ``text`` also writes as what it is read
    as (the comment ``<!--?x-->``, the escaped text ``&lt;%= x %&gt;``), which is then read so."""
    found = [*BOGUS_COMMENT.findall(text), *TEXT_CODE.findall(text)]
    return frozenset(form for form in found if as_read(form) not in text)


def spelled_names(text: str) -> dict[str, str]:
    """The element and attribute names of ``text`` written in mixed case, each by its lower-case name,
    where ``text`` writes it so alone (not also ``onclick`` beside ``onClick``): an inline SVG's
    ``viewBox`` and ``<linearGradient>``, Angular's ``*ngIf`` and ``[(ngModel)]``, a Vue component's
    ``<MyButton :itemCount>``.  libxml2's HTML parser lower-cases every name, and SVG and the
    templates read them case by case: ``viewbox`` broke the picture, ``*ngif`` the template.  A name
    written in capitals alone (``<TD ALIGN>``), as HTML once was, is written in lower case, as HTML is."""
    spellings: dict[str, set[str]] = {}
    for tag in START_TAG.finditer(text):
        for name in (tag.group(1), *ATTRIBUTE.findall(tag.group(2))):
            spellings.setdefault(name.lower(), set()).add(name)
    return {lower: name for lower, (name, *others) in spellings.items()
            if not others and name not in (lower, name.upper())}


def as_spelled(node: etree._Element, names: dict[str, str]) -> etree._Element:
    """``node``, or a copy of it (with its tail) whose element and attribute names are written as
    ``names`` (spelled_names) spells them, its attributes in their order."""
    elements = [element for element in node.iter(etree.Element)
                if element.tag in names or any(name in names for name in element.attrib)]
    if not elements:
        return node
    copy = deepcopy(node)
    for element in copy.iter(etree.Element):
        element.tag = names.get(element.tag, element.tag)
        if any(name in names for name in element.attrib):
            attributes = list(element.attrib.items())
            element.attrib.clear()
            for name, value in attributes:
                element.set(names.get(name, name), value)
    return copy


def as_comment(written: str) -> str:
    """The bogus comment that ``written`` (bogus_comments) is read as, as libxml2's writer writes it:
    ``<!--?x-->`` for ``<?x>``, ``<!--[CDATA[x]]-->`` for ``<![CDATA[x]]>``, ``<!--[endif]-->`` for ``<![endif]>``."""
    return f"<!--{written[2 if written.startswith('<!') else 1:-1]}-->"


def as_read(written: str) -> str:
    """What libxml2's writer writes for ``written`` (bogus_comments): a template's code in text escaped
    (``&lt;%= x %&gt;``, which the server no longer runs), else the bogus comment it is read as (as_comment)."""
    return escape(written, quote=False) if TEXT_CODE.fullmatch(written) else as_comment(written)


def written_as_they_came(written: str, forms: frozenset[str]) -> str:
    """A written page with the comment each of ``forms`` (bogus_comments) was read as written as it came:
    libxml2's writer wrote "<!--?php echo $x; ?-->", a template's code commented out (libxml2 before 2.14
    kept the instruction as written), "<!--[CDATA[a < b]]-->", an SVG text that a browser no longer shows, and
    "<!--[if !mso]-->", a comment to Outlook and Word too, which then showed what the condition hid from them;
    and "&lt;%= user.name %&gt;", ERB's code shown to the reader as text."""
    for form in forms:
        written = written.replace(as_read(form), form)
    return written


def written_references(written: str) -> str:
    """A written page (``html_string``'s, or XML's writer's) with each stand-in of ``held_value`` the
    numeric reference of its character (``&#1;``): HTML reads it as the character, as it reads one
    written raw (both are a parse error there, and neither loses the character)."""
    return STAND_IN.sub(r"&#\1;", written)


def append_text(element: etree._Element, text: str | None) -> None:
    """``text`` after what ``element`` holds (its last child's tail, or its text), each control character
    (CONTROL) an ``etree.Entity`` of its numeric reference (``&#1;``): lxml sets no text that holds one."""
    if not text:
        return
    # Found from its end: lxml counts the children for len(element), which, once for each text of a
    # paragraph of thousands of images, was quadratic.
    last = next(element.iterchildren(reversed=True), None)
    if last is not None:
        text_after(last, (last.tail or "") + text)
    else:
        set_text(element, (element.text or "") + text)


def set_text(element: etree._Element, text: str) -> None:
    """``element``'s text, before its children, made ``text``, each control character an ``etree.Entity``
    (as append_text writes it)."""
    pieces = split_controls(text)
    element.text = pieces[0] or None
    if len(pieces) > 1:
        element.insert(0, first := reference(pieces[1], ""))
        text_after(first, "".join(pieces[2:]))  # each next after the one before: insert(k) walks k children


def text_after(node: etree._Element, text: str | None) -> etree._Element:
    """``node``'s tail made ``text``, each control character an ``etree.Entity`` after ``node`` (as
    append_text writes it); the last node the text ends in (``node``, or the last reference)."""
    pieces = split_controls(text or "")
    node.tail = pieces[0] or None
    for character, piece in zip(pieces[1::2], pieces[2::2], strict=True):
        node.addnext(new := reference(character, piece))
        node = new
    return node


def split_controls(text: str) -> list[str]:
    """``text`` parted at each control character: text, character, text, ..., text."""
    return re.split(f"([{CONTROLS}])", text)


def reference(character: str, tail: str) -> etree._Entity:
    """The numeric reference of ``character`` (``&#1;``), ``tail`` after it."""
    entity = etree.Entity(f"#{ord(character)}")
    entity.tail = tail or None
    return entity


def character_references(text: str) -> str:
    """``text`` with each control character written as its numeric reference (``&#1;``)."""
    return CONTROL.sub(lambda found: f"&#{ord(found.group())};", text)


def html_string(node: etree._Element, with_tail: bool, method: str = "html", names: dict[str, str] | None = None
                ) -> str:
    """``node`` written as HTML (or, with ``method="xml"``, XHTML), its void elements without the
    end tag libxml2 gives those it does not know as void (``<wbr>``, not ``<wbr></wbr>``), and its
    URI attributes as parsed; as XHTML, its scripts and styles as they came (Marks); its names
    spelled as ``names`` has them (spelled_names: the page's own, where it wrote them in mixed case)."""
    if method != "html":
        texts = Marks.raw_texts(node)
        spelled = as_spelled(texts.copy, names or {})
        with open_empties(spelled, html_parsed=True):
            written = html.tostring(spelled, encoding="unicode", with_tail=with_tail, method=method)
        return texts.restore(written)
    raw = Marks.swap(node, obsolete_raw_text, lambda text: text)
    code = Marks.coded_values(raw.copy)
    values = Marks.uri_values(code.copy)
    written = html.tostring(as_spelled(values.copy, names or {}), encoding="unicode", with_tail=with_tail,
                            method=method)
    return raw.restore(code.restore(values.restore(VOID_END.sub(r"\1", written))))


@contextmanager
def open_empties(node: etree._Element | etree._ElementTree, html_parsed: bool = False) -> Iterator[None]:
    """While it is written as XML, each empty XHTML element under ``node`` that is not void holds
    an empty text, so that the writer gives it an end tag: XML's writer shortens every element with
    no content, ``<script src="a.js"></script>`` to ``<script src="a.js"/>``, which a browser
    reading the page as HTML (text/html, as XHTML 1.0 pages are often served; its Appendix C)
    takes for a start tag: the whole body went into the script, a blank page.  Elements of other
    namespaces (SVG's ``<path/>``, MathML's) are written short, as XML may; in a tree the HTML
    parser read (``html_parsed``: no namespaces), those are what is inside <svg> and <math>.  The
    tree is as it was afterwards."""
    elements = (node.iter(etree.Element) if html_parsed else node.iter(f"{{{XHTML}}}*"))
    opened = [element for element in elements
              if element.text is None and len(element) == 0
              and element.tag.rpartition("}")[2].lower() not in HTML_VOIDS
              and not (html_parsed and any(outer.tag in FOREIGN for outer in (element, *element.iterancestors())))]
    for element in opened:
        element.text = ""
    try:
        yield
    finally:
        for element in opened:
            element.text = None


@dataclass
class Marks:
    """Values of a tree swapped for marks in a copy of it that is written, and put back in the written
    text.  A mark is letters and digits, which both writers keep as they are, and holds a nonce no
    page has.  Two kinds, each a writer's fault:

    - URI attributes (``uri_values``): libxml2's HTML writer URI-escapes an href, src or action (on
      any element, and an <a>'s name) and drops the spaces before it, so ``href="{{ page.url }}"``
      came back as ``href="{{%20page.url%20}}"``, ``src="my photo.jpg"`` as ``src="my%20photo.jpg"``,
      a link to ".../Straße" as ".../Stra%C3%9Fe": a template, a file name, a link of the page
      changed.  Their values come back in the written text alone: lxml refuses to set a value with a
      control character (``href="a\x0cb.html"``, ``&#1;``), which libxml2's parser keeps, so the
      parsed tree is never changed.  An empty value, or none (``<a href>``), is not swapped: libxml2
      writes it as it came.
      A <meta>'s ``http-equiv`` is swapped as well (``swapped``).
    - Script and style texts (``raw_texts``), where the tree is written as XHTML: the HTML parser
      reads them as written (``a &lt; b`` stays those six characters), and XML's writer escapes every
      text, so a style's ``div > p`` came back as ``div &gt; p`` and a script's ``&lt;`` as
      ``&amp;lt;``: broken for the reader that reads the page as HTML, as the parser did."""

    mark: re.Pattern[str]
    values: list[str]  # the k-th mark's value
    copy: etree._Element  # what is written: the node, or its copy holding the marks
    written_as: Callable[[str], str]  # a value as the writer would have written it

    @classmethod
    def swap(cls, node: etree._Element, spots: Callable[[etree._Element], Sequence[tuple[str | None, str]]],
             written_as: Callable[[str], str]) -> Marks:
        """``node``'s values that ``spots`` finds, in it and under it (each element's as (attribute name,
        value); None for its text), each given a mark in a copy."""
        if not any(spots(element) for element in node.iter(etree.Element)):
            return cls(NO_MARK, [], node, written_as)  # nothing compiled for each of a fragment's top-level nodes
        nonce = uuid4().hex
        mark = re.compile(rf"attnmt{nonce}x(\d+)")
        copy = deepcopy(node)  # with its tail, as the node's is written
        values: list[str] = []
        for element in copy.iter(etree.Element):
            for name, value in spots(element):
                if name is None:
                    element.text = f"attnmt{nonce}x{len(values)}"
                else:
                    element.set(name, f"attnmt{nonce}x{len(values)}")
                values.append(value)
        return cls(mark, values, copy, written_as)

    @classmethod
    def uri_values(cls, node: etree._Element) -> Marks:
        """``node``'s URI attributes, put back escaped as libxml2 escapes other attributes' values
        (``&``, ``<``, ``>``, ``"``)."""
        return cls.swap(node, swapped, attribute_text)

    @classmethod
    def coded_values(cls, node: etree._Element) -> Marks:
        """``node``'s attribute values that hold a template's code (VALUE_CODE), put back with their
        quotes (coded_value): libxml2's HTML writer escaped ``<?php`` as ``&lt;?php``, which the server
        no longer runs."""
        marks = cls.swap(node, coded, coded_value)
        marks.mark = re.compile(f'"{marks.mark.pattern}"') if marks.values else marks.mark
        return marks

    @classmethod
    def raw_texts(cls, node: etree._Element) -> Marks:
        """``node``'s script and style texts, put back as they came."""
        return cls.swap(node, raw_text, lambda text: text)

    def restore(self, written: str) -> str:
        """``written`` with each mark the value it stands for."""
        return self.mark.sub(lambda found: self.written_as(self.values[int(found.group(1))]), written)


def raw_text(element: etree._Element) -> list[tuple[str | None, str]]:
    """The text of a script or style ``element`` (RAW_TEXT), or of an obsolete one the HTML parser
    also reads as written (OBSOLETE_RAW_TEXT), as Marks.swap's spots."""
    return [(None, element.text)] if element.tag in (*RAW_TEXT, *OBSOLETE_RAW_TEXT) and element.text else []


def obsolete_raw_text(element: etree._Element) -> list[tuple[str | None, str]]:
    """The text of an ``<xmp>``, ``<plaintext>``, ``<noembed>`` or ``<noframes>`` (OBSOLETE_RAW_TEXT), as
    Marks.swap's spots: written as it came (``<xmp><b>x</b></xmp>`` shows its tags), where libxml2's
    HTML writer escapes it."""
    return [(None, element.text)] if element.tag in OBSOLETE_RAW_TEXT and element.text else []


def swapped(element: etree._Element) -> list[tuple[str, str]]:
    """The attributes of ``element`` that libxml2's HTML writer would change, with their values: the URI
    attributes it escapes, and a <meta>'s ``http-equiv``, where it leaves out a <meta http-equiv=
    "Content-Type"> in <head>: a page written back in the encoding it declares so (attnmt.documents.charsets)
    lost its declaration."""
    return [(name, value) for name, value in element.attrib.items()
            if value and (name in URI_ATTRIBUTES or (name == "name" and element.tag == "a")
                          or (name == "http-equiv" and element.tag == "meta"))]


def coded(element: etree._Element) -> list[tuple[str, str]]:
    """The attributes of ``element`` whose values hold a template's code (VALUE_CODE), as Marks.swap's spots."""
    return [(name, value) for name, value in element.attrib.items() if VALUE_CODE.search(value)]


def coded_value(value: str) -> str:
    """An attribute's value that holds a template's code, quoted: the code as written, the text
    around it escaped (attribute_text); in single quotes where the code holds a double quote and no
    single one (``'<?php echo "x"; ?>'``), else a double quote in it is ``&quot;``."""
    quote = "'" if any('"' in code and "'" not in code for code in VALUE_CODE.findall(value)) else '"'
    pieces = VALUE_CODE.split(value)
    written = [attribute_text(piece).replace("&quot;", '"') for piece in pieces]
    text = "".join(piece + code for piece, code in zip(written, [*VALUE_CODE.findall(value), ""], strict=True))
    return quote + text.replace(quote, "&quot;" if quote == '"' else "&#39;") + quote


def attribute_text(value: str) -> str:
    return escape(value, quote=False).replace('"', "&quot;")
