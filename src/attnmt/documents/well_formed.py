"""XML that is not well-formed, refused in one line naming where: the file (or the text), the line
and column, and what is wrong.

libxml2 reads on past such a fault (its ``recover`` mode, which attnmt.documents.pages parses
with), but what it makes of the text is not what the file says: a bare ``&`` is deleted ("A dog &
cat." read "A dog  cat."), so is a stray ``<`` and the text after an end tag that closes nothing,
and an element never closed swallows what follows it (an XLIFF unit read inside the unit before
it).  XML is an exchange format: the tools that wrote the file and will read its translation (CAT
tools, xmllint) refuse it too.  Only a namespace prefix nothing declares (``<xliff:g>`` in a
fragment of Android strings) is let through: the tree keeps the name as written, and the parser's
warning says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from attnmt.documents.doctype import COMMENT
from attnmt.errors import DataError

XML_ROOT = "attnmt-fragment"  # the element around the text parsed, so that a fragment is a document
# libxml2 names an element by the line of its start tag: "Opening and ending tag mismatch: b line 2 and p".
LINE = re.compile(r" line (\d+)\b")
NEVER_CLOSED = re.compile(rf"Opening and ending tag mismatch: (\S+)( line \d+)? and {XML_ROOT}$")
CLOSES_NOTHING = re.compile(rf"Opening and ending tag mismatch: {XML_ROOT}(?: line \d+)? and (\S+)$")
# What XML lets stand beside a document's root element: its own spaces (not Python's str.strip's,
# which takes a no-break space for one), comments and processing instructions (check_one_root).
XML_SPACE = " \t\r\n"
MISC = re.compile(rf"(?:[{XML_SPACE}]|{COMMENT}|<\?(?:[^?]|\?(?!>))*\?>)*")
# libxml2's words for text before a document's root element (a CDATA section there it takes for a
# tag's start, and check_cdata_before says so itself).
BEFORE_ROOT = "Start tag expected, '<' not found"
# libxml2's words for a CDATA section with no "]]>", said at the text's end (the section holds the rest of it);
# unfinished_cdata finds where it opens.
UNFINISHED_CDATA = "CData section not finished"
# What libxml2 has read by the time a section turns out unfinished, one piece at a time (unfinished_cdata): a
# comment, an instruction, a finished CDATA section (none of whose "<![CDATA[" starts one), a tag with its quoted
# attribute values (which may hold "<![CDATA["), text; and last the section's "<![CDATA[" (group 1).
READ = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>|(<!\[CDATA\[)|<(?:\"[^\"]*\"|'[^']*'|[^\"'>])*>?|[^<]+",
                  re.DOTALL)
# libxml2's words for the faults text most often has, said as what to write instead.
PLAIN = {"xmlParseEntityRef: no name": "a & that starts no entity reference (write & as &amp;)",
         "EntityRef: expecting ';'": "an entity reference with no ; to end it (write & as &amp;, or end it with ;)",
         "StartTag: invalid element name": "a < that starts no tag (write < as &lt;)",
         UNFINISHED_CDATA: "a CDATA section that no ]]> finishes (it holds the rest of the text)",
         # check_one_root's: what a document holds outside its one root element
         "Extra content at the end of the document": "content after the root element's end (an XML document is "
         "one element: only comments, processing instructions and spaces may follow it)",
         BEFORE_ROOT: "text before the root element (an XML document is one element: "
         "only comments, processing instructions and spaces may come before it)"}


@dataclass(frozen=True)
class Start:
    """Where the parsed text starts in its file: its line (None for a text whose lines are not the
    file's, a line of one or a text sent alone: ``where`` names it), and the characters before it
    on that line (a prolog's, ``<?xml version="1.0"?><doc>``)."""

    line: int | None
    column: int = 0


def check_well_formed(parser: etree.XMLParser, parsed: str, opening: int, where: str, start: Start) -> None:
    """DataError for the first fault that made libxml2 repair ``parsed`` (the text, after the
    ``opening`` characters of the DOCTYPE declaring its entities and XML_ROOT's start tag), naming
    its line and column in the file.  Markup nested past libxml2's limits is check_depth's to name
    (attnmt.documents.pages)."""
    faults = [e for e in parser.error_log if e.domain_name != "NAMESPACE" and e.level_name != "WARNING"]
    if not faults or any(e.type_name == "ERR_RESOURCE_LIMIT" for e in faults):
        return
    first = faults[0]
    lines = parsed.split("\n")
    line = min(first.line, len(lines))
    column = first.column - (opening if line == 1 else 0)
    column = max(1, min(column, len(lines[line - 1]) + 1))  # the end tag around it: the text's end
    if first.message.startswith(UNFINISHED_CDATA) and (section := unfinished_cdata(parsed)) is not None:
        line, column = line_and_column(parsed, section)
    raise DataError(f"{where} is not well-formed XML at {place(line, column, start)}: "
                    f"{reason(first.message, start.line)}")


def place(line: int, column: int, start: Start) -> str:
    """``line`` and ``column`` of the parsed text (from 1) in the file's terms: "line 3, column 5"
    (the column alone where the text's lines are not the file's)."""
    return (f"line {start.line + line - 1}, " if start.line is not None else "") + \
        f"column {column + (start.column if line == 1 else 0)}"


def check_one_root(wrapper: etree._Element, declarations: str, parsed: str, where: str, start: Start) -> None:
    """DataError for XML that is to be a document (an XLIFF file) but holds more than one root element
    beside comments, processing instructions and spaces (text after it, a second element, a
    character reference, an entity reference or a CDATA section): parsed in XML_ROOT's ``wrapper``
    as a fragment is, ``</xliff>⏎A dog runs.`` was read, and written back, as if it were.
    ``parsed`` (after the entities' ``declarations``) is read again as a document then, for
    libxml2 to say where (of a CDATA section before the root, check_cdata_before has said it first)."""
    elements = [node for node in wrapper if isinstance(node.tag, str)]
    texts = [wrapper.text, *(node.tail for node in wrapper)]
    if not any((text or "").strip() for text in texts) and (
            not elements or len(elements) == 1 and stands_alone(wrapper, elements[0], parsed)):
        return  # no element at all is parse_xliff's to say
    parser = etree.XMLParser(recover=True, resolve_entities=False, huge_tree=True, no_network=True)
    try:
        etree.fromstring(f"{declarations}{parsed}", parser=parser)
    except etree.XMLSyntaxError:  # nothing read (no element): its fault is in the log all the same
        pass
    check_well_formed(parser, parsed, len(declarations), where, start)


def check_cdata_before(parsed: str, where: str, start: Start) -> None:
    """DataError, as for any text before the root element, where a CDATA section comes before it
    (after the comments, instructions and spaces allowed there: MISC), at the line and column it opens
    at.  libxml2 reads its ``<!`` as a tag's start, and said "a < that starts no tag", of a ``<`` that
    starts a CDATA section; of a section never finished (no ``]]>``: the document is in it), "CData
    section not finished" at the file's end.  A document is checked for one before check_well_formed."""
    first = found.end() if (found := MISC.match(parsed)) else 0
    if parsed.startswith("<![CDATA[", first):
        line, column = line_and_column(parsed, first)
        raise DataError(f"{where} is not well-formed XML at {place(line, column, start)}: {PLAIN[BEFORE_ROOT]}")


def unfinished_cdata(parsed: str) -> int | None:
    """Where in ``parsed`` the CDATA section that no ``]]>`` finishes opens (its ``<``), read past
    what comes before it as libxml2 read it (READ: comments, instructions, finished sections, tags):
    libxml2 says "CData section not finished" at the text's end, which the section holds, not where
    it opens (``<source><![CDATA[A dog`` at line 5 was named at the file's last line).  None where
    there is no such section."""
    return next((found.start() for found in READ.finditer(parsed) if found.group(1)), None)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column (both from 1) of ``text[offset]``."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def stands_alone(wrapper: etree._Element, root: etree._Element, parsed: str) -> bool:
    """Whether ``parsed`` holds nothing but XML's spaces, comments and processing instructions before
    and after ``root``, its one element.  Read in the text, not the tree: the tree holds ``&#32;``
    and ``<![CDATA[ ]]>`` as a space, ``&#160;`` as what str.strip takes for one, and
    ``<![CDATA[]]>`` not at all.  Before the root, MISC reads it; after it, it is read back from the
    end, over the comments and instructions the tree holds there (an instruction may hold ``<?``,
    so where one starts is the tree's to say), and what is left must end with the root's ``>``."""
    first = found.end() if (found := MISC.match(parsed)) else 0  # MISC matches "" at least
    if not parsed.startswith("<", first) or parsed.startswith(("<!", "<?"), first):
        return False
    end = len(parsed)
    for node in reversed(wrapper[wrapper.index(root) + 1:]):
        begins = remark_start(parsed, spaces_before(parsed, end), node)
        if begins is None:
            return False  # an entity reference (a node of its own), text or a CDATA section between two
        end = begins
    end = spaces_before(parsed, end)
    return parsed.endswith(">", 0, end) and not parsed.endswith("]]>", 0, end)


def remark_start(parsed: str, end: int, node: etree._Element) -> int | None:
    """Where the comment or processing instruction ``node`` starts in ``parsed``, which holds it
    as written just before ``end``; None where it does not (or ``node`` is neither)."""
    if isinstance(node, etree._Comment):
        written = f"<!--{node.text or ''}-->"
        return end - len(written) if parsed.endswith(written, 0, end) else None
    if not isinstance(node, etree._ProcessingInstruction):
        return None
    content = f"{node.text or ''}?>"  # its target and content parted by spaces the tree does not keep
    if not parsed.endswith(content, 0, end):
        return None
    end = spaces_before(parsed, end - len(content))
    opener = f"<?{node.target}"
    return end - len(opener) if parsed.endswith(opener, 0, end) else None


def spaces_before(text: str, end: int) -> int:
    """Where the XML spaces (XML_SPACE) that end ``text[:end]`` start."""
    while end and text[end - 1] in XML_SPACE:
        end -= 1
    return end


def reason(message: str, first_line: int | None) -> str:
    """libxml2's ``message`` in the file's terms: its lines those of the file (none where the
    text's lines are not the file's), the element around the text never named."""
    message = message.strip().split("\n")[0]  # "CData section not finished" goes on with the text after it
    shifted = LINE.sub(lambda m: "" if first_line is None else f" line {first_line + int(m.group(1)) - 1}", message)
    if (found := NEVER_CLOSED.match(shifted)) is not None:
        return f"<{found.group(1)}>{f' (opened at{found.group(2)})' if found.group(2) else ''} is never closed"
    if (found := CLOSES_NOTHING.match(shifted)) is not None:
        return f"the end tag </{found.group(1)}> closes no element"
    return PLAIN.get(message, shifted)
