"""An HTML page's markers (is_marker): a footnote's reference or back link, a reference's number, a symbol alone, a
number raised after a word; kept whole at their point of the sentence by attnmt.documents.elements.Vocabulary."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.html_layout import BLOCKS, gap_before
from attnmt.documents.markers import (
    is_link_label,
    is_note_link,
    is_note_number,
    is_reference,
    is_short_label,
    is_symbols,
)
from attnmt.documents.pages import local_name
from attnmt.documents.shown import shown_text


def is_marker(node: etree._Element, shown: str) -> bool:
    """Whether ``node``, which shows the characters ``shown`` (markers.ShownCharacters), is a footnote's
    marker or back link, a reference's number, or a symbol: kept whole, as an atom, it stays after what
    it followed, where as a mark it would take a word in its place (rule 1 of attnmt.documents.spans:
    "park.1" is one word) and hide the sentence end before it.

    - a note's reference or back link by its role (is_note_link, on the element or on the one link
      it holds) that is short (is_short_label) or has no letter: ``bench.<sup><a
      epub:type="noteref" href="#fa">a</a></sup>``, ``<a role="doc-backlink" href="#ra">↩</a>``;
    - a superscript or subscript that holds a link to a fragment (``walks<sup><a href="#fn1">1</a>
      </sup>``, ``<sup><a href="notes.xhtml#n3">iv</a></sup>``), is in brackets (``<sup>[2]</sup>``),
      or, with no letter, stands right after punctuation or at its block's start (``snow.<sup>3</sup>``);
    - a link to a fragment (in the page or another, ``notes.xhtml#n2``) in brackets, right after
      punctuation or at its block's start, with no letter or a short label (``walks.<a
      href="#fn1">1</a>``, a note's own ``<a href="#ra">a</a>`` back to its reference):
      ``page <a href="#p3">3</a>`` keeps its number in the sentence;
    - a link whose text is a reference, to a fragment or not (markers.is_reference: ``<a
      href="https://example.com/src">[3]</a>``, ``(3)``, ``³``), as an office file's link is;
    - an inline element around symbols alone, no letter or digit (``<a href="/next">»</a>``,
      ``<span class="stars">★★★</span>``, ``A man <i>-</i> a woman``): the model would drop or move
      them, and its attention says nothing of where they went;
    - a superscript of numbers or a reference glued to the end of a word, no letter or digit after
      it (``book<sup>1</sup>``, ``m<sup>2</sup>``, ``10<sup>6</sup>``), as an office file's is
      (markers.is_note_number): read with the word, "book1" was one word, the model dropped the
      number and the <sup> went onto the word's translation.  Kept whole, it follows that word's
      translation (attnmt.documents.glued_points).

    A superscript inside a word (``x<sup>2</sup>y``: kept whole, it parted the word and the words around it
    ran together), one of letters (``x<sup>n</sup>``, ``1<sup>st</sup>``), one after a space (``m <sup>2</sup>``)
    and a subscript (``H<sub>2</sub>O``) stay marks: the model reads them with the word."""
    name = local_name(node)
    if name in BLOCKS:
        return False
    text = shown.strip()
    if not text:
        return False
    letters = any(character.isalpha() for character in text)
    if is_note_link(node) or (len(node) == 1 and not (node.text or "").strip() and not (node[0].tail or "").strip()
                              and is_note_link(node[0])):
        return not letters or is_short_label(text)
    if is_symbols(text) or (name == "a" and is_reference(text)):
        return True
    if letters and not (is_link_label(text) if name == "a" else is_short_label(text)):
        return False  # "see", "yes" in a link to #anchor are words; "ii" in a <sup> is a note's
    linked = any(local_name(a) == "a" and "#" in a.get("href", "") for a in node.iter("{*}a"))
    bracketed = text.startswith("[") and text.endswith("]")
    if not ((name in ("sup", "sub") and (linked or bracketed or not letters)) or (name == "a" and linked)):
        return False
    before = gap_before(node)
    at_start = node.getprevious() is None and not before.strip()
    after_punctuation = before[-1:] != "" and not before[-1].isspace() and not before[-1].isalnum()
    last = (before or shown_text(node.getprevious()))[-1:]  # the character a reader sees before it
    following = (node.tail or shown_text(node.getnext()))[:1]  # and after it: x<sup>2</sup>y is one word
    raised = name == "sup" and last.isalnum() and not following.isalnum() and is_note_number(shown, last)
    return (name != "a" and linked) or bracketed or at_start or after_punctuation or raised
