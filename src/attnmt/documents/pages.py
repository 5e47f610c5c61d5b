"""HTML and XML text in and out: a page or a fragment parsed (with libxml2's repairs of HTML warned
of, XML that is not well-formed and markup nested too deep refused), and the tree written back as
the page came, with what a parsed tree does not hold (the DOCTYPE, the comments beside ``<html>``)
kept as written.
attnmt.documents.markup translates what is parsed here."""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from html import escape

from lxml import etree, html

from attnmt.documents.charsets import DECLARED_ENCODING
from attnmt.documents.doctype import COMMENT, check_xml_doctype, entity_declarations, xml_prolog
from attnmt.documents.fragment_ends import WRAPPER_START, WrapperEnd, fragment_end, fragment_holder
from attnmt.documents.language import say_page_direction
from attnmt.documents.named_references import reference_forms, referenced_again
from attnmt.documents.page_metadata import say_metadata_language
from attnmt.documents.page_writer import (
    UNKNOWN_VOIDS,
    append_text,
    bogus_comments,
    html_string,
    open_empties,
    set_text,
    text_after,
    written_as_they_came,
    written_references,
)
from attnmt.documents.shown import is_comment  # markers, a line's reader, asks it too
from attnmt.documents.source_tags import SourceTags, source_tags, written_as_tagged
from attnmt.documents.well_formed import XML_ROOT, Start, check_cdata_before, check_one_root, check_well_formed
from attnmt.documents.xml_forms import SourceForms, source_forms, written_in_forms
from attnmt.errors import DataError, warn

MAX_DEPTH = 512  # elements nested in elements: the walks here recurse once a level, within Python's 1000 frames
# A page: a DOCTYPE, <html>, <head> or <body> first (the tag may be unfinished where the text ends), after a
# byte order mark, spaces, comments or an XML declaration (XHTML's "<?xml version=...?>"), or nothing but those
# (a page with nothing in it).  All that follows "<!DOCTYPE" is the DOCTYPE's, as in a browser: "<!DOCTYPEhtml>",
# or a text that ends there.
DOCUMENT_START = re.compile(rf"(?:\ufeff|\s|{COMMENT}|<\?(?:[^?]|\?(?!>))*\?>)*"
                            r"(?:<!doctype|<(?:html|head|body)(?=[\s/>]|\Z)|\Z)", re.IGNORECASE)
# A file's root that is a whole document, not one fragment a line: Qt Linguist's <TS>, Android's <resources>, a
# .resx's <root>, not closed on its first line (each line read as one fragment, line 1 failed: "never closed").
WHOLE_XML_ROOT = re.compile(rf"(?:\ufeff|\s|{COMMENT})*<(TS|resources|root)(?=[\s>])(?:[^>\"']|\"[^\"]*\"|'[^']*')*"
                            r"(?<!/)>([^\n]*)")
# What may stand beside a page's elements: HTML's whitespace, comments, processing instructions.  A no-break
# space or another Unicode space before <html> is text, which the parser puts at the start of the <body>, as a
# browser does: it was written there and before the page too.
HTML_SPACES = " \t\n\f\r"
NODE = re.compile(rf"{COMMENT}|<\?(?:[^?]|\?(?!>))*\?>")
BESIDE = re.compile(rf"(?:[{HTML_SPACES}]|{NODE.pattern})*")
UTF8_NAMES = ("utf-8", "utf8")  # how a declaration may already say it (any case), kept as written


def local_name(node: etree._Element) -> str:
    """An element's name without its namespace, lower-cased: ``p`` for HTML's and XHTML's <p>."""
    return node.tag.rpartition("}")[2].lower()


def parse_problems(parser: etree._FeedParser, where: str, first_line: int | None,
                   wrapper: WrapperEnd | None = None) -> None:
    """One warning for markup the parser had to repair (tags it merely does not know are fine);
    in a whole document (``first_line``: where the parsed text starts) it names the line of the
    first problem, the text's line where the parser found it in a fragment's ``wrapper`` end."""
    problems = [e for e in parser.error_log if e.type_name != "HTML_UNKNOWN_TAG"]
    if problems:
        first = problems[0]
        line = first.line if wrapper is None else wrapper.line_of(first.line, first.column)
        at = f" at line {line + first_line - 1}" if first_line is not None else ""
        warn(f"{where}: markup repaired ({len(problems)} problem(s); the first{at}: "
             f"{first.message.strip()}); the translation follows the repaired markup", stacklevel=3)


def check_depth(root: etree._Element, parser: etree._FeedParser, where: str) -> None:
    """DataError for markup nested deeper than MAX_DEPTH, or so deep that libxml2 stopped reading it."""
    level = deepest = 0
    for event, _ in etree.iterwalk(root, events=("start", "end")):
        level += 1 if event == "start" else -1
        deepest = max(deepest, level)
    stopped = any(e.type_name == "ERR_RESOURCE_LIMIT" for e in parser.error_log)
    if stopped or deepest > MAX_DEPTH:
        raise too_deep(where, f"more than {deepest}" if stopped else str(deepest))


def too_deep(where: str, deep: str) -> DataError:
    """The error for markup nested ``deep`` ("600", "more than 2048") levels, past MAX_DEPTH."""
    return DataError(f"{where}: the markup nests elements {deep} deep; at most {MAX_DEPTH} can be translated: "
                     "close the elements left open, or split the document")


def is_document(text: str, xml: bool = False) -> bool:
    """Whether ``text`` is a whole document, not a fragment: HTML that starts with a doctype or
    <html> (or holds nothing but comments), XML that starts with an XML declaration or a DOCTYPE, or
    whose root is one of WHOLE_XML_ROOT's left open on its first line."""
    if xml:
        root = WHOLE_XML_ROOT.match(text)
        return xml_prolog(text)[0] != "" or (root is not None and f"</{root[1]}" not in root[2])
    return DOCUMENT_START.match(text) is not None


@dataclass
class Parsed:
    """One input parsed: the element whose content is translated, and how to write it back."""

    root: etree._Element
    document: bool  # a whole HTML document (else a fragment inside a holder element)
    xml: bool = False
    prolog: str = ""  # written before it as it came: the HTML document's (or XML's) declaration and DOCTYPE
    first_line: int = 1  # the line of its text that the parsed text starts on (after the prolog)
    # An HTML document's text before its first element and after </html> (whitespace and comments),
    # written back as it came, with the line breaks between the comments that the tree does not
    # hold; where the tree's comments beside <html> are not those (``from_tree``: content after
    # </html>, which gather_strays moves), the whitespace at each end, and the tree's comments.
    around: tuple[str, str] = ("", "")
    from_tree: tuple[bool, bool] = (False, False)
    # Written back in the encoding it declares (attnmt.documents.charsets), so its declaration stays as
    # written; otherwise it is written as UTF-8, and says so.
    keeps_declaration: bool = False
    wrapper: WrapperEnd | None = None  # an HTML fragment's: where its text ends in lxml's wrapper
    forms: SourceForms | None = None  # XML's: how it wrote what is written as it came where unchanged (xml_forms)
    bogus: frozenset[str] = frozenset()  # its instructions and CDATA sections as written (page_writer.bogus_comments)
    references: dict[str, list[str]] = field(default_factory=dict)  # its characters as references (named_references)
    tags: SourceTags = field(default_factory=SourceTags)  # how HTML wrote its tags and names (source_tags)

    def serialise(self, target_lang: str | None) -> str:
        """The page or fragment as text; a document's root states ``target_lang`` (say_language); a
        control character of a translated attribute written as its reference (page_writer.held_value)."""
        written = referenced_again(written_as_tagged(self.written(target_lang), self.tags), self.references, self.xml)
        return written_references(written_as_they_came(written, self.bogus))

    def written(self, target_lang: str | None) -> str:
        """``serialise``'s text as the writers give it, the stand-ins of page_writer.held_value in it."""
        self.say_language(target_lang)
        if self.document:
            xhtml = self.prolog.lstrip("\ufeff \t\r\n").startswith("<?xml")  # XHTML stays XML
            if not self.keeps_declaration:
                declare_utf8(self.root, xhtml)
            # the comments and processing instructions beside <html> ("<!-- saved from url=... -->") are
            # in ``around``, as written, with the line breaks between them that the tree does not hold;
            # where more than comments followed </html>, they are written from the tree (an element
            # beside <html> is gather_strays' emptied one: its content is in the page)
            nodes = [*(beside(self.root, preceding=True)[::-1] if self.from_tree[0] else []), self.root,
                     *(beside(self.root) if self.from_tree[1] else [])]
            page = "".join(html_string(node, with_tail=False, method="xml" if xhtml else "html", names=self.tags.names)
                           for node in nodes)
            return self.written_prolog() + self.around[0] + page + self.around[1]
        names = self.tags.names
        tostring = partial(etree.tostring, encoding="unicode") if self.xml else partial(html_string, names=names)
        with open_empties(self.root) if self.xml else nullcontext(), written_in_forms(self.forms, self.root) as restore:
            return self.written_prolog() + escape(self.root.text or "", quote=False) + restore("".join(
                tostring(child, with_tail=True) for child in self.root))

    def written_prolog(self) -> str:
        """The prolog as it is written: its XML declaration saying UTF-8 (utf8_prolog) but where the
        page ``keeps_declaration``."""
        return self.prolog if self.keeps_declaration else utf8_prolog(self.prolog)

    def say_language(self, lang: str | None) -> None:
        """A document's root states ``lang`` (None, or a fragment: what it states stays), in ``lang``
        and ``xml:lang`` where it has one, its direction (say_page_direction) and its metadata
        (say_metadata_language: its Content-Language, its link preview's locale)."""
        if self.document and lang:
            self.root.set("lang", lang)
            if self.root.get("xml:lang") is not None:  # XHTML says it twice (the HTML parser: a plain name)
                self.root.set("xml:lang", lang)
            say_page_direction(self.root, lang)
            say_metadata_language(self.root, lang)


def open_voids(root: etree._Element, unclosed: frozenset[str] = frozenset()) -> None:
    """What libxml2 nested inside a void element it does not know as void (``<p>a <wbr>bike.</p>``
    parsed as ``<wbr>bike.</wbr>``), or inside one of ``unclosed`` (``Press <Enter> to start.``:
    source_tags.unclosed), moved out to just after it, where the page has it: the element is a point,
    as ``<br>`` is, and the text after it is read with the text before it (a control character in either
    as a reference: page_writer.text_after)."""
    for node in list(root.iter(*UNKNOWN_VOIDS, *unclosed)):
        children = list(node)
        if node.text is None and not children:
            continue
        after, text = node.tail or "", node.text
        node.text = None
        for child in reversed(children):
            node.addnext(child)  # with its tail, after the node's own (its former text)
        text_end = text_after(node, text)  # before the children: the node, or the last reference in its text
        last = children[-1] if children else text_end
        text_after(last, (last.tail or "") + after)


def utf8_prolog(prolog: str) -> str:
    """The prolog with its XML declaration's encoding saying UTF-8, the rest as written: the text
    is written as UTF-8 (it was read as UTF-8, whatever the declaration said), and an XML parser
    decodes the bytes by the declaration, so ``encoding="iso-8859-1"`` would turn "schläft" into
    "schlÃ¤ft".  One that says UTF-8 already (in any case), and one without an encoding (which
    means UTF-8), are kept as written."""
    declared = DECLARED_ENCODING.match(prolog)
    if declared is None or declared.group(3).strip().lower() in UTF8_NAMES:
        return prolog
    quote = declared.group(2)
    return f"{declared.group(1)}{quote}UTF-8{quote}{prolog[declared.end():]}"


def declare_utf8(root: etree._Element, xhtml: bool = False) -> None:
    """The page is written as UTF-8, so it says so: its <meta charset> or <meta http-equiv=
    "Content-Type"> says utf-8 (say_utf8), or a <meta charset="utf-8"> is added at the top of
    <head>; else a browser may read it as Windows-1252."""
    if say_utf8(root, xhtml):
        return
    head = root.find(named(root, "head"))
    if head is None:
        head = root.makeelement(named(root, "head"), {})
        root.insert(0, head)
    meta = root.makeelement(named(root, "meta"), {"charset": "utf-8"})
    meta.tail, head.text = head.text, None
    head.insert(0, meta)


def say_utf8(root: etree._Element, xhtml: bool = False) -> bool:
    """Whether the page ``root`` declares its encoding in a <meta>, each of which now says utf-8:
    a <meta charset> is set to utf-8; a <meta http-equiv="Content-Type"> becomes a <meta
    charset="utf-8"> where it is, as libxml2's HTML writer leaves such a meta out, but on a page whose
    <head> has a <meta charset> already (or a second such meta), where it is taken out: HTML allows one
    declaration, and two <meta charset> made the page invalid.  In XHTML (written as XML, which keeps
    it, and whose DTDs have no ``charset`` attribute) its content's charset says utf-8, its type
    (application/xhtml+xml) kept.  One that says UTF-8 already is left as written.  The names are
    those of ``root``'s namespace: XHTML's, parsed as XML, or none."""
    metas = list(root.iter(named(root, "meta")))
    # by a <meta charset> that declares it: one in <head>; one in a <template>, <noscript> or <svg>, or
    # in the body (a pasted widget's), declares nothing, and the head would be left with no declaration
    said = any(meta.get("charset") is not None and in_head(meta) for meta in metas)
    found = False
    for meta in metas:
        if meta.get("charset") is not None:
            if meta.get("charset", "").strip().lower() not in UTF8_NAMES:
                meta.set("charset", "utf-8")
            found = True
        elif meta.get("http-equiv", "").strip().lower() == "content-type":
            if xhtml:
                meta.set("content", utf8_content(meta.get("content", "")))
            elif said:
                take_out(meta)
            else:
                for name in [name for name in meta.attrib if name.lower() in ("http-equiv", "content")]:
                    del meta.attrib[name]  # its other attributes (an id) stay
                meta.set("charset", "utf-8")
                said = True
            found = True
    return found


def in_head(element: etree._Element) -> bool:
    """Whether ``element`` is a child of the page's <head>."""
    parent = element.getparent()
    return parent is not None and local_name(parent) == "head"


def take_out(element: etree._Element) -> None:
    """``element`` removed from its tree, and its tail with it where that is spacing alone (a
    <meta>'s line break in <head>); a tail with words stays, after what came before it."""
    parent, tail = element.getparent(), element.tail or ""
    previous = element.getprevious()
    if tail.strip() and previous is None:
        set_text(parent, (parent.text or "") + tail)  # a control character in it a reference, as text_after's
    elif tail.strip():
        text_after(previous, (previous.tail or "") + tail)
    element.tail = None
    parent.remove(element)


CHARSET_PARAMETER = re.compile(r"(charset\s*=\s*)([^;\s]*)", re.IGNORECASE)


def utf8_content(content: str) -> str:
    """A Content-Type value ("application/xhtml+xml; charset=iso-8859-1") saying charset=utf-8,
    as written where it says UTF-8 already; "text/html; charset=utf-8" for none."""
    declared = CHARSET_PARAMETER.search(content)
    if declared is None:
        return f"{content.strip()}; charset=utf-8" if content.strip() else "text/html; charset=utf-8"
    if declared.group(2).strip("'\"").lower() in UTF8_NAMES:
        return content
    return content[:declared.start(2)] + "utf-8" + content[declared.end(2):]


def named(root: etree._Element, local: str) -> str:
    """``local`` in ``root``'s namespace: ``{http://www.w3.org/1999/xhtml}meta`` in XHTML parsed
    as XML, plain ``meta`` in HTML."""
    namespace = etree.QName(root).namespace
    return f"{{{namespace}}}{local}" if namespace else local


def parse(text: str, xml: bool, where: str, whole: bool = False, document: bool = False) -> Parsed | None:
    """An HTML document (see ``is_document``) or fragment, or an XML fragment or document; None
    for a page with nothing but a DOCTYPE, an XML declaration and comments (it comes back as it was).  HTML that had
    to be repaired gives one warning naming ``where`` (and the line, in a document, or in a
    fragment that is a ``whole`` file, whose lines are the parser's); DataError for XML that is not
    well-formed (attnmt.documents.well_formed: its repairs lose or move text; XML that is a ``document``,
    an XLIFF file, also where it is more than one root element: check_one_root), markup nested too deep
    (``check_depth``) or an XML entity reference that cannot be kept (attnmt.documents.doctype).
    A DOCTYPE never reaches the parser (attnmt.documents.doctype), so it declares no entity, and
    lifting libxml2's limits (``huge_tree``, for its depth) expands nothing."""
    parsed, parser, first_line = parse_xml(text, where, whole, document) if xml else parse_html(text)
    if parsed is not None:
        check_depth(parsed.root, parser, where)
        parse_problems(parser, where, first_line if first_line is not None or not whole else 1, parsed.wrapper)
        parsed.first_line = first_line or 1
    return parsed


def parse_xml(text: str, where: str, whole: bool = False,
              document: bool = False) -> tuple[Parsed, etree.XMLParser, int | None]:
    """(the parsed fragment, its parser, the line the parsed text starts on in a document); DataError
    where it is not well-formed, naming the line (in a document, or a ``whole`` file) and column
    (check_well_formed; a ``document`` also where it is more than one root element: check_one_root,
    or holds a CDATA section before it: check_cdata_before).
    CDATA sections stay sections (``strip_cdata``): an XHTML page's ``<script>//<![CDATA[ if (a < b)
    ... //]]></script>`` written as ``a &lt; b`` broke the script in a browser that reads the page as
    HTML, and kept text is kept as it came."""
    parser = etree.XMLParser(recover=True, resolve_entities=False, remove_comments=False, huge_tree=True,
                             no_network=True, strip_cdata=False)
    prolog, doctype, body = xml_prolog(text)
    check_xml_doctype(prolog, doctype, where, 1 if whole else None)
    first_line = prolog.count("\n") + 1 if prolog else None
    start = Start(first_line or (1 if whole else None), len(prolog) - (prolog.rfind("\n") + 1))
    declarations = entity_declarations(body, doctype, where, start.line)
    opening = f"{declarations}<{XML_ROOT}>"
    root = etree.fromstring(f"{opening}{body}</{XML_ROOT}>", parser=parser)
    if document:  # before libxml2's word: a section there never finished it names at the file's end
        check_cdata_before(body, where, start)
    check_well_formed(parser, body, len(opening), where, start)
    if document:  # one root element, as a fragment need not be
        check_one_root(root, declarations, body, where, start)
    parsed = Parsed(root, False, True, prolog, forms=source_forms(root, body), references=reference_forms(body, True))
    return parsed, parser, first_line


def parse_html(text: str) -> tuple[Parsed | None, html.HTMLParser, int | None]:
    """(the parsed page or fragment, its parser, the line the parsed text starts on in a page)."""
    parser = html.HTMLParser(recover=True, remove_comments=False, huge_tree=True, no_network=True)
    if not is_document(text):
        # wrapped here as lxml wraps a fragment: lxml takes one that starts "<html" or "<!doctype" for a page
        # (what follows a </body> or </html> of the text's own is gathered from outside its <body>)
        holder = fragment_holder(html.document_fromstring(f"{WRAPPER_START}{text}</body></html>", parser=parser))
        *_, last = holder.iter()
        end = fragment_end(text, last)  # the text ends in a comment, raw text or a tag, which took the wrapper in
        if end is not None:
            holder = fragment_holder(html.document_fromstring(f"{WRAPPER_START}{text}{end}", parser=parser))
        open_voids(holder, (tags := source_tags(text, True)).unclosed)
        return (Parsed(holder, False, wrapper=WrapperEnd.of(text), bogus=bogus_comments(text),
                       references=reference_forms(text), tags=tags), parser, None)
    prolog, _, body = xml_prolog(text)  # what comes before the DOCTYPE (an XML declaration) is kept with it
    try:
        root = html.document_fromstring(body, parser=parser)
    except etree.ParserError:  # no element at all
        return None, parser, None
    open_voids(root, (tags := source_tags(body)).unclosed)
    gather_strays(root)
    end = body.lower().rfind("</html")
    closed = body.find(">", end) + 1 if end >= 0 else 0
    before, after = BESIDE.match(body).group(), body[closed:] if closed else ""
    from_tree = (len(NODE.findall(before)) != len(beside(root, preceding=True)),
                 not (closed and BESIDE.fullmatch(after)) or len(NODE.findall(after)) != len(beside(root)))
    around = (body[:len(body) - len(body.lstrip(HTML_SPACES))] if from_tree[0] else before,
              body[len(body.rstrip()):] if from_tree[1] else after)
    return (Parsed(root, True, prolog=prolog, around=around, from_tree=from_tree, bogus=bogus_comments(body),
                   references=reference_forms(body), tags=tags),
            parser, 1 + prolog.count("\n"))


def beside(root: etree._Element, preceding: bool = False) -> list[etree._Element]:
    """The comments and processing instructions after a page's <html> (or before it), nearest first
    (an element beside it is gather_strays' emptied <html>: its content is in the page)."""
    return [node for node in root.itersiblings(preceding=preceding) if is_comment(node)]


def gather_strays(root: etree._Element) -> None:
    """Content after ``</html>``, which libxml2 puts in an <html> of its own beside the page, moved
    to the end of the page's <body>, where browsers show it (and so it is translated)."""
    body = root.find("body")
    target = body if body is not None else root
    for stray in [node for node in root.itersiblings() if not is_comment(node) and local_name(node) == "html"]:
        held = stray.find("body")
        source = held if held is not None else stray
        if (source.text or "").strip():
            append_text(target, source.text)  # a control character in it a reference (page_writer.append_text)
        for child in list(source):
            target.append(child)  # its tail comes with it
        source.text = None


def check_markup(text: str, where: str) -> None:
    """DataError where an HTML text cannot be translated (nested too deep); what the server asks
    before a text joins a batch, so one page never fails the others in it.  (Repairs are warned
    of by the translation itself.)"""
    parsed, parser, _ = parse_html(text)
    if parsed is not None:
        check_depth(parsed.root, parser, where)
