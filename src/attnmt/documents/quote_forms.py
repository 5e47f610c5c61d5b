"""Quotes in the target language's usual form: around a whole sentence, and around words inside one.

A sentence wrapped whole in quotes is read without them and its translation written between them
(attnmt.decoding.sentence_edges.quoted_edges), and quotes around words inside a sentence of a text line or a page
(attnmt.documents.text_emphasis.Quote: ``She said "hello" to him.``) are read as an element around the words they
quote.  Either way they are prose's, typed straight on any keyboard or in the source language's form, and one rule
writes both (``target_pair``): in the target language's form, straight ones included (``„Ein Hund.“``, ``… „hallo“
…``, French's ``« bonjour »`` with a no-break space inside each, ``SPACED``), so a page's ``"Hello there."`` and
``"<b>Hello</b> there."`` (a quote whose words hold an element: attnmt.documents.split_quotes) come back alike.
Brackets, CJK's corner brackets and a pair already in that form stay as they were, and so do all where the target
language is not known or of none of ``FORMS``.  What is code or a URL holds no such quote (it passes through whole:
attnmt.decoding.protected)."""

from __future__ import annotations

from attnmt.decoding.sentence_edges import quoted_edges
from attnmt.documents.flat import FlatText
from attnmt.documents.text_emphasis import Quote
from attnmt.text.language_codes import primary_subtag, variety

# A language's (or a variety's) double and single quotes: opening, closing, opening, closing.
FORMS = {"de": "„“‚‘", "de-ch": "«»‹›", "de-li": "«»‹›", "en": "“”‘’", "nl": "“”‘’", "cs": "„“‚‘", "da": "»«›‹",
         "pl": "„”‚’", "fr": "«»‹›", "es": "«»“”", "it": "«»“”", "ru": "«»„“", "uk": "«»„“", "pt": "«»“”"}
# The marks that open a quote (sentence_edges.PAIRS' and text_emphasis.QUOTES', brackets and CJK's corner brackets
# aside): the single ones, written as the target language's single quotes, and the double ones.
SINGLE = "'\u2018\u201a\u2039\u203a"
DOUBLE = '"\u201c\u201e\u00ab\u00bb'
# The languages that write a no-break space inside their guillemets (French's « bonjour »; Swiss German's none).
SPACED = {"fr"}
NO_BREAK = "\u00a0"


def in_target_form(source: str, translation: str, target_lang: str | None) -> str:
    """``translation`` of ``source``, a sentence wrapped whole in quotes that wrap its translation too, with them
    written in ``target_lang``'s usual form (``target_pair``): '“Two dogs play.”' and '"Two dogs play."' into German
    are '„Zwei Hunde spielen.“'; else ``translation`` as it is."""
    said, written = quoted_edges(source), quoted_edges(translation)
    if said is None or written is None or said.head.strip() != (opening := written.head.strip()):
        return translation
    closing = written.tail.strip()
    pair = target_pair(opening, closing, target_lang)
    if pair is None:
        return translation
    return written.head.replace(opening, pair[0]) + written.body + written.tail.replace(closing, pair[1])


def target_pair(opening: str, closing: str, target_lang: str | None) -> tuple[str, str] | None:
    """The marks ``target_lang`` writes for a quote written ``opening`` ... ``closing`` (the module docstring): its
    double quotes for double ones, its single for single ones, each with the space ``SPACED`` languages write inside;
    None where they stay as written (a bracket, a corner bracket, a pair already in that form, no known form)."""
    form = None if target_lang is None else target_form(target_lang)
    if form is None or opening.strip() not in SINGLE + DOUBLE:
        return None
    pair = form[2:] if opening.strip() in SINGLE else form[:2]
    if (opening.strip(), closing.strip()) == (pair[0], pair[1]):
        return None
    space = NO_BREAK if primary_subtag(target_lang or "") in SPACED else ""
    return pair[0] + space, space + pair[1]


def target_form(target_lang: str) -> str | None:
    """``target_lang``'s quotes (``FORMS``: a variety's, else its language's), None for one of no known form."""
    return FORMS.get(variety(target_lang)) or FORMS.get(primary_subtag(target_lang))


def quotes_in_target_form(flat: FlatText, target_lang: str | None) -> None:
    """Each pair of quotes read around words inside ``flat`` (a ``Quote``) set, in place, to ``target_lang``'s form
    (``target_pair``)."""
    for mark in flat.marks:
        quote = mark.node
        if isinstance(quote, Quote) and (pair := target_pair(quote.opening, quote.closing, target_lang)):
            quote.opening, quote.closing = pair


def commas_outside(target_lang: str | None) -> bool:
    """Whether ``target_lang`` writes the comma after a quote's closing mark (``„Es geht“, sagte er``), as each
    language of ``FORMS`` does but English, which writes it inside (``"It works," he said``)."""
    return target_lang is not None and target_form(target_lang) is not None and primary_subtag(target_lang) != "en"
