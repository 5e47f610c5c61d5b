"""XML elements that hold native code, not words: escaped tags, symbols alone, XLIFF's and TMX's
inline and paired codes; and an element whose text is HTML (holds_markup), translated as a
fragment of its own (attnmt.documents.markup.EmbeddedJob)."""

from __future__ import annotations

import re
from html.entities import html5

from lxml import etree

from attnmt.documents.conditional_comments import REVEALED_END, REVEALED_START
from attnmt.documents.html_layout import ATOMS, BLOCKS, INLINE, gap_before
from attnmt.documents.pages import is_comment, local_name

# XML's paired codes, kept whole, whose end must come after their start (elements.Vocabulary.range_edge): name ->
# (the pair's kind, whether it starts the pair).  XLIFF 1.2's and TMX's <bpt> and <ept>; XLIFF 2's <sc/> and
# <ec/>.  The kind keeps a pair from matching another kind's code of the same key (a <bx rid="1"/> and a <bpt id="1">).
PAIRED_CODES = {"bpt": ("bpt", True), "ept": ("bpt", False), "sc": ("sc", True), "ec": ("sc", False)}
# XLIFF's paired codes whose names other XML gives to other things (an <em/>, an <ex/>): XLIFF 1.2's <bx/> and
# <ex/>, XLIFF 2's <sm/> and <em/> (a marker's start and end).  Paired only in XLIFF (paired_code).
XLIFF_PAIRED_CODES = {"bx": ("bx", True), "ex": ("bx", False), "sm": ("sm", True), "em": ("sm", False)}
XLIFF_NAMESPACE = "urn:oasis:names:tc:xliff:document:"  # 1.2's ends "1.2", 2's "2.0"
# What pairs them, first found first: XLIFF 1.2's rid (where the ids differ; without it, <ex id> is its <bx id>),
# XLIFF 2's startRef (an <ec>'s or <em>'s, naming its <sc>'s or <sm>'s id), TMX's i, the id.
PAIRED_KEYS = ("rid", "startRef", "i", "id")
# XLIFF 1.2's and TMX's inline codes, which hold native code by definition, whatever it is (``<ph id="1">%d</ph>``,
# ``<bpt id="1">{b}</bpt>``): kept whole by name in a segment (SEGMENTS, around them).  Elsewhere a <ph> may be
# DITA's, a phrase of words.
INLINE_CODES = frozenset(("ph", "it", "bpt", "ept"))
SEGMENTS = frozenset(("source", "target", "seg-source", "seg"))
# A tag, escaped in an XML element's text: a name right after < or </, attributes each with a value,
# an optional / (<b>, </b>, <br/>, <a href="x">); "<No name>", "<your name>" are words in brackets.
TAG = r"""</?[^\W\d][\w:.-]*(?:\s+[^\W\d][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))*\s*/?>"""
ESCAPED_TAGS = re.compile(rf"{TAG}(?:\s*{TAG})*")  # an XML element's text that is markup: native code
# One tag of TAG's form, its name (group 1: "/" first for an end tag).
NAMED_TAG = re.compile(r"<(/?[^\W\d][\w:.-]*)" + TAG[len(r"</?[^\W\d][\w:.-]*"):])
# An HTML comment in an XML element's text, escaped or in a CDATA section: WordPress's block delimiters
# (``<!-- wp:image {"id":12,"sizeSlug":"large"} -->``) before and after each block of a post, kept as written.
COMMENTS = re.compile(r"<!--.*?-->", re.DOTALL)
# A character reference HTML reads as one character: its name with the ";" (group 1: "amp;", looked up in
# html.entities.html5), or its number (&#160;, &#xA0;).
REFERENCE = re.compile(r"&(?:([A-Za-z][A-Za-z0-9]*;)|#[0-9]+;|#[xX][0-9A-Fa-f]+;)")
# HTML's void elements: a start tag alone, never closed (<br>, <img src="x">).
VOIDS = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())
# The elements of DITA's and DocBook's vocabularies that hold code, commands, paths and names a program
# reads, not words: kept as they are, as HTML's <pre> and <code> are (a block of them left alone, one in a
# sentence kept whole at its place).  Translated, "make install" came back "machen installieren".
# DITA's programming and software domains; DocBook's (4 and 5) program listings and inline code.  Not
# names other XML gives to words (a <function> or <parameter> may be a job's title, a <replaceable> is
# for the reader to fill in, in words).
CODE_ELEMENTS = frozenset((
    "codeblock codeph cmdname filepath varname apiname parmname msgblock msgph msgnum systemoutput userinput "
    "programlisting screen synopsis cmdsynopsis funcsynopsis literal command filename computeroutput "
    "systemitem envar code classname methodname").split())
# Angular's names for the placeholders of an HTML tag in a message (@angular/compiler's PlaceholderRegistry):
# START_ and CLOSE_ before the tag's name (START_LINK, CLOSE_LINK for <a>; START_BOLD_TEXT; START_TAG_SPAN; a
# block's START_BLOCK_IF), a counter after it where two starts differ in attributes (START_LINK_1), whose
# ends share one name (CLOSE_LINK): the counter is left out of the pair's key.
ANGULAR_TAG = re.compile(r"(START|CLOSE)_(\w+?)(?:_\d+)?")


def paired_code(node: etree._Element, xliff: bool) -> tuple[str, bool] | None:
    """(the pair's kind, whether it starts it) for a paired code, None for any other element: a
    code of PAIRED_CODES; one of XLIFF_PAIRED_CODES in XLIFF's namespaces, or anywhere in a file
    read as XLIFF (``xliff``, whatever namespace it declares).  Elsewhere an ``<em id="a"/>`` is
    that XML's own, no marker's end, and stays where the alignment puts it."""
    name = local_name(node)
    if name in XLIFF_PAIRED_CODES and (xliff or (etree.QName(node).namespace or "").startswith(XLIFF_NAMESPACE)):
        return XLIFF_PAIRED_CODES[name]
    return PAIRED_CODES.get(name)


def tag_placeholder(node: etree._Element) -> tuple[object, bool] | None:
    """(a key, whether it starts it) for an XLIFF placeholder that stands for an HTML tag's start or
    end, None for any other: by Angular's name for it (ANGULAR_TAG: 1.2's ``<x id="START_LINK"/>``,
    2's ``<ph equiv="START_LINK"/>``), or by the tag it shows (1.2's ``equiv-text``, 2's ``disp``:
    ``<a>`` and ``</a>``, no void's or ``<br/>``).  Translated as points, a sentence turned around
    wrote ``CLOSE_LINK`` before ``START_LINK``, which Angular rejects (Unexpected closing tag); as a
    range's start and end (elements.Vocabulary.range_edge) the end stays after its start."""
    if is_comment(node) or local_name(node) not in ("x", "ph"):
        return None
    named = ANGULAR_TAG.fullmatch(node.get("equiv") or node.get("id") or "")
    if named:
        return ("angular", named.group(2)), named.group(1) == "START"
    shown = NAMED_TAG.fullmatch((node.get("equiv-text") or node.get("disp") or "").strip())
    if shown is None or shown.group(0).endswith("/>"):
        return None
    name = shown.group(1).lower()
    if name.startswith("/"):
        return ("tag", name[1:]), False
    return None if name in VOIDS else (("tag", name), True)


def is_code(node: etree._Element) -> bool:
    """An XML element of native code, not words: escaped tags alone (XLIFF's and TMX's
    ``<bpt id="1">&lt;b&gt;</bpt>``, ``<ph>&lt;br/&gt;</ph>``) or symbols alone, no letter or digit
    (``<sep>•</sep>``), as HTML's markers (elements.is_marker).  As a mark, its text went to the model as a
    word, and came back in the element beside it.  Words in angle brackets (``&lt;your name&gt;``,
    a placeholder) are no tag (TAG)."""
    text = (node.text or "").strip()
    if len(node) or not text:
        return False
    return ESCAPED_TAGS.fullmatch(text) is not None or not any(character.isalnum() for character in text)


def is_code_element(node: etree._Element) -> bool:
    """A DITA or DocBook element of code (CODE_ELEMENTS: ``<codeblock>``, ``<cmdname>``,
    ``<programlisting>``, ``<filename>``), by its name in any namespace (DocBook 5's)."""
    return not is_comment(node) and local_name(node) in CODE_ELEMENTS


def is_inline_code(node: etree._Element) -> bool:
    """An XLIFF or TMX segment's inline code (INLINE_CODES): read as words, ``A woman has <ph
    id="1">%d</ph> dogs`` came back with words in the <ph> ("den Olympischen"), and a ``{0}``
    there took the next word in."""
    return local_name(node) in INLINE_CODES and any(local_name(above) in SEGMENTS for above in node.iterancestors())


def holds_markup(node: etree._Element) -> bool:
    """Whether an XML element's text is HTML with words in it, escaped or in a CDATA section, as
    an RSS item's or a CMS export's is (``<description>&lt;p&gt;A man walks his &lt;b&gt;dog&lt;/b&gt;.
    &lt;/p&gt;</description>``): the element holds that text alone, no element, and stands apart,
    no words before or after it in its parent; its text, spaces and HTML comments aside (COMMENTS:
    WordPress's ``<!-- wp:paragraph -->`` before a block and ``<!-- /wp:paragraph -->`` after it, kept
    as written), starts with a start tag of HTML's (BLOCKS, INLINE, ATOMS) and ends with an end tag of
    HTML's or a void's tag (``<br>``), and closes each element it opens but HTML's voids; or it is
    comments alone, kept whole; or words alone between an e-mail's conditional comments
    (between_conditions).  attnmt.documents.markup translates it as a fragment of HTML
    (EmbeddedJob); read as words, its tags were lost, and ``</p>`` became a sentence (a WordPress
    post's, for the comment it starts with: the model read the comments, and its ``<p>`` went).
    Text that merely holds tags is words, as code and prose about tags are (``Type <p>Hello</p>
    into the box.``, ``var html = "<b>" + name``, ``List<String>``), and so is an element in a
    sentence (DocBook's ``Use <emphasis>&lt;i&gt;text&lt;/i&gt;</emphasis> for italics``): read as HTML,
    their tags went and their words were sentences of their own.  Not in code (in_code)."""
    if is_comment(node) or len(node) or is_code(node) or gap_before(node).strip() or (node.tail or "").strip():
        return False
    written = (node.text or "").strip()
    text = COMMENTS.sub(" ", written).strip()  # a comment is neither a tag nor words
    if not text:  # comments alone: HTML with nothing to translate, kept whole
        return COMMENTS.search(written) is not None
    return (is_fragment(text) or (between_conditions(written) and reads_as_written(text))) and not in_code(node)


def holds_tags(node: etree._Element) -> bool:
    """Whether an XML element's text holds tags of HTML's (BLOCKS, INLINE, ATOMS) among its words, each
    element they open closed, escaped or in a CDATA section, and nothing else HTML would read another way
    (reads_as_written, between the tags); the element holds that text alone.  For a dialect whose text is
    HTML where it holds tags (an Android string, for Html.fromHtml: ``You have &lt;b>%d new messages&lt;/b>.``),
    which holds_markup leaves to words unless the tags stand at the text's ends.  Not in code (in_code)."""
    if is_comment(node) or len(node) or is_code(node) or in_code(node):
        return False
    text = COMMENTS.sub(" ", node.text or "").strip()
    tags = list(NAMED_TAG.finditer(text))
    names = [match.group(1).lower() for match in tags]
    html = BLOCKS | INLINE | ATOMS
    if not any(name.lstrip("/") in html for name in names) or not reads_as_written(NAMED_TAG.sub(" ", text)):
        return False
    return all(name in VOIDS or f"/{name}" in names or tag.group(0).endswith("/>")
               for name, tag in zip(names, tags, strict=True) if name in html)


def in_code(node: etree._Element) -> bool:
    """Whether ``node`` is, or stands in, a DITA or DocBook element of code (is_code_element): HTML
    there is a manual's example (``<codeblock>&lt;p&gt;Hello&lt;/p&gt;</codeblock>``), shown as written;
    read as an RSS item's HTML, it came back ``<p>HELLO</p>``."""
    return any(is_code_element(above) for above in (node, *node.iterancestors()))


def is_fragment(text: str) -> bool:
    """Whether ``text`` (its comments taken out) is a fragment of HTML by its tags (holds_markup):
    a start tag of HTML's first, an end tag of HTML's or a void's tag last, each element it opens
    closed but HTML's voids and those its tag closes (Qt Designer's ``<html><head/><body>``)."""
    tags = list(NAMED_TAG.finditer(text))
    if not tags or tags[0].start() != 0 or tags[-1].end() != len(text):
        return False
    names = [match.group(1).lower() for match in tags]
    html = BLOCKS | INLINE | ATOMS
    if names[0] not in html or not (names[-1][1:] in html if names[-1].startswith("/") else names[-1] in VOIDS):
        return False
    return all(name in VOIDS or f"/{name}" in names or tag.group(0).endswith("/>")
               for name, tag in zip(names, tags, strict=True) if name in html)


def between_conditions(text: str) -> bool:
    """Whether ``text`` starts with a downlevel-revealed conditional comment's start and ends with
    its end (conditional_comments: an e-mail's ``<!--[if !mso]><!-->A dog runs.<!--<![endif]-->``), the
    words between them what every client but Outlook shows: read as words, the comments went to the
    model, and came back broken (``RUNS. DOG !MSO]><!-->A <!--[IF``).  Other comments around words
    (``<!-- c -->Use List<String> here.<!-- d -->``) say nothing of what lies between them."""
    comments = list(COMMENTS.finditer(text))
    if len(comments) < 2 or comments[0].start() != 0 or comments[-1].end() != len(text):
        return False
    return (REVEALED_START.fullmatch(comments[0].group()[4:-3]) is not None
            and REVEALED_END.fullmatch(comments[-1].group()[4:-3]) is not None)


def reads_as_written(text: str) -> bool:
    """Whether HTML reads ``text`` as the words it is written as, and writes them back so: no "<"
    or ">" (``List<String>`` took an invented element, ``x < y`` came back ``x &lt; y``), and each
    "&" a character reference HTML knows, complete with its ";" (``&amp;``, ``&#160;``, ``&eacute;``):
    a bare one came back ``&amp;``, ``&copy`` without its ";" as ``©``."""
    if "<" in text or ">" in text:
        return False
    for ampersand in re.finditer("&", text):
        found = REFERENCE.match(text, ampersand.start())
        if found is None or (found.group(1) is not None and found.group(1) not in html5):
            return False
    return True
