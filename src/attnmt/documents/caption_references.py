"""A Word cross-reference to a caption shows, once translated, what Word's field update writes: the caption's
translated label and number.

A ``REF`` field to a caption's bookmark (Insert Cross-reference, "Only label and number": the bookmark spans
``Figure {SEQ Figure}1{}``) shows a copy of that bookmark's text, which Word writes again when someone updates the
fields (F9, or printing).  Its result goes with its sentence's translation (attnmt.documents.copied_results), where
the model may write no label at all: the demo model wrote ``{REF}Table 2{} lists the dogs.`` as ``Zwei {REF}Table
2{} schründe Hunde.`` and ``{REF}Figure 1{} shows a dog in the park.`` as ``{REF}Auf 1{} einem Park …``, while the
caption they point to read ``Tabelle 2`` and ``Abbildung 1`` (attnmt.documents.caption_labels).  The document
showed the English label, or the sentence's word, until the next update.  So each such result is written as the
update would write it, the bookmark's translated text (``Tabelle 2``, ``Abbildung 1``), in the look of the result's
first run.  A ``REF`` whose switches make it show something else (a paragraph's number, ``\\r``, ``\\n``, ``\\w``;
"above" or "below", ``\\p``; a case of its own, ``\\* Upper``) and one to a bookmark that is no caption's label and
number (a heading's words, which the sentence's grammar may inflect) are left as translated."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from attnmt.documents.copied_results import LABELLED_NUMBER
from attnmt.documents.fields import ARGUMENT, field_code_kind, is_caption_code
from attnmt.documents.wordml import w

# The switches that leave a REF's result the bookmark's text: a link to it (\h), a note's mark's look (\f), the
# result keeping its look on an update (\* MERGEFORMAT, \* CHARFORMAT).
PLAIN_SWITCHES = frozenset({"\\h", "\\f", "\\*", "MERGEFORMAT", "CHARFORMAT"})


@dataclass
class Field:
    """A complex field as a part's walk meets it: its code's text, and its result's text elements."""

    code: list[str] = field(default_factory=list)
    result: list[etree._Element] | None = None  # None while its code is read


def update_caption_references(roots: Iterable[etree._Element]) -> set[etree._Element]:
    """Each REF field under ``roots`` (a Word document's parts, translated) to a caption's label and number given the
    bookmark's text (the module docstring), in place; the roots whose fields changed."""
    roots = list(roots)
    captions = caption_bookmarks(roots)
    changed = set()
    for root in roots:
        for code, texts in field_results(root):
            shown = captions.get(caption_bookmark(code) or "")
            if shown is not None and texts and "".join(text.text or "" for text in texts).strip() != shown:
                write_result(texts, shown)
                changed.add(root)
    return changed


def caption_bookmark(code: str) -> str | None:
    """The bookmark a ``REF`` field of ``code`` shows the text of as it is (PLAIN_SWITCHES); None for another."""
    arguments = [found.group(2) or found.group(3) or "" for found in ARGUMENT.finditer(code)]
    if field_code_kind(code) != "REF" or len(arguments) < 2 or not set(arguments[2:]) <= PLAIN_SWITCHES:
        return None
    return arguments[1]


def field_results(root: etree._Element) -> list[tuple[str, list[etree._Element]]]:
    """(code, the result's text elements) of each field under ``root``: a simple one's, and a complex one's text
    elements between its separator and its end outside the fields nested in it."""
    found = [(simple.get(w("instr"), ""), list(simple.iter(w("t")))) for simple in root.iter(w("fldSimple"))]
    open_fields: list[Field] = []
    for node in root.iter(w("fldChar"), w("instrText"), w("t")):
        kind = node.get(w("fldCharType")) if node.tag == w("fldChar") else None
        if kind == "begin":
            open_fields.append(Field())
        elif not open_fields:
            continue
        elif kind == "separate":
            open_fields[-1].result = []
        elif kind == "end":
            done = open_fields.pop()
            found.append(("".join(done.code), done.result or []))
        elif node.tag == w("instrText") and open_fields[-1].result is None:
            open_fields[-1].code.append(node.text or "")
        elif node.tag == w("t") and open_fields[-1].result is not None:
            open_fields[-1].result.append(node)
    return found


def caption_bookmarks(roots: Iterable[etree._Element]) -> dict[str, str]:
    """The text of each bookmark under ``roots`` that spans a caption's label and number (LABELLED_NUMBER, a caption's
    number field inside it: fields.is_caption_code), by its name."""
    texts: dict[str, list[str]] = {}
    numbered: set[str] = set()
    for root in roots:
        names: dict[str, str] = {}  # a bookmark's id (a part's own) -> its name, while it is open
        for node in root.iter(w("bookmarkStart"), w("bookmarkEnd"), w("t"), w("instrText"), w("fldSimple")):
            if node.tag == w("bookmarkStart"):
                names[node.get(w("id"), "")] = node.get(w("name"), "")
                texts[node.get(w("name"), "")] = []
            elif node.tag == w("bookmarkEnd"):
                names.pop(node.get(w("id"), ""), None)
            elif node.tag == w("t"):
                for name in names.values():
                    texts[name].append(node.text or "")
            elif is_caption_code(node.text or "" if node.tag == w("instrText") else node.get(w("instr"), "")):
                numbered.update(names.values())
    shown = {name: "".join(texts[name]).strip() for name in numbered}
    return {name: text for name, text in shown.items() if LABELLED_NUMBER.fullmatch(text)}


def write_result(texts: list[etree._Element], shown: str) -> None:
    """``shown`` in the first of a result's text elements ``texts``, the spaces at the result's edges kept; the others
    taken out, as an update writes the result in its first run's look."""
    old = "".join(text.text or "" for text in texts)
    texts[0].text = old[:len(old) - len(old.lstrip())] + shown + old[len(old.rstrip()):]
    texts[0].set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    for text in texts[1:]:
        text.getparent().remove(text)
