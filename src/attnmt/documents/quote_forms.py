"""Quotes in the target language's usual form: around a whole sentence, and around words inside one.

A sentence wrapped whole in quotes is read without them and its translation written between them
(attnmt.decoding.sentence_edges.quoted_edges): the source's own, which are English's where it is English
(``“Two dogs play.”``), and a German reader's are „…“.  Typographic quotes are written in the target
language's (``FORMS``); straight quotes, typed as such, and brackets stay as they were, and so do all where
the target language is not known or none of ``FORMS``.

Quotes around words inside a sentence of a text line (attnmt.documents.text_emphasis.Quote: ``She said "hello" to
him.``) are prose's, typed straight on any keyboard: they are written in the target language's form too, straight
ones included (``… „hallo“ …``, French's ``« bonjour »`` with a no-break space inside each, ``SPACED``).  What is
code or a URL holds no such quote (it passes through whole: attnmt.decoding.protected), and CJK's corner brackets
stay as they were."""

from __future__ import annotations

from attnmt.decoding.sentence_edges import quoted_edges
from attnmt.documents.flat import FlatText
from attnmt.documents.text_emphasis import Quote
from attnmt.text.language_codes import primary_subtag, variety

# A language's (or a variety's) double and single quotes: opening, closing, opening, closing.
FORMS = {"de": "„“‚‘", "de-ch": "«»‹›", "de-li": "«»‹›", "en": "“”‘’", "nl": "“”‘’", "cs": "„“‚‘", "da": "»«›‹",
         "pl": "„”‚’", "fr": "«»‹›", "es": "«»“”", "it": "«»“”", "ru": "«»„“", "uk": "«»„“", "pt": "«»“”"}
DOUBLE = "“„«»"  # the typographic double quotes a sentence may open with (sentence_edges.PAIRS)
SINGLE = "‘‚‹"
# The languages that write a no-break space inside their guillemets (French's « bonjour »; Swiss German's none).
SPACED = {"fr"}
NO_BREAK = "\u00a0"


def in_target_form(source: str, translation: str, target_lang: str | None) -> str:
    """``translation`` of ``source``, a sentence wrapped whole in typographic quotes that wrap its translation too,
    with them written in ``target_lang``'s usual form (``FORMS``): '“Two dogs play.”' into German is
    '„Zwei Hunde spielen.“'; else ``translation`` as it is."""
    said, written = quoted_edges(source), quoted_edges(translation)
    if target_lang is None or said is None or written is None:
        return translation
    opening = said.head.strip()
    form = target_form(target_lang)
    if form is None or opening != written.head.strip() or opening not in DOUBLE + SINGLE:
        return translation
    pair = form[:2] if opening in DOUBLE else form[2:]
    closing = written.tail.strip()
    return written.head.replace(opening, pair[0]) + written.body + written.tail.replace(closing, pair[1])


def target_form(target_lang: str) -> str | None:
    """``target_lang``'s quotes (``FORMS``: a variety's, else its language's), None for one of no known form."""
    return FORMS.get(variety(target_lang)) or FORMS.get(primary_subtag(target_lang))


def quotes_in_target_form(flat: FlatText, target_lang: str | None) -> None:
    """Each pair of quotes read around words inside ``flat`` (a ``Quote``) set, in place, to ``target_lang``'s form
    (the module docstring): double ones to its double quotes, single ones to its single; a pair already in that form,
    and all where ``target_lang`` is None or of no known form, as written."""
    form = None if target_lang is None else target_form(target_lang)
    if form is None:
        return
    space = NO_BREAK if primary_subtag(target_lang or "") in SPACED else ""
    for mark in flat.marks:
        quote = mark.node
        if not isinstance(quote, Quote) or quote.opening.strip() in "\u300c\u300e":
            continue
        pair = form[2:] if quote.opening.strip() in "'\u2018\u201a\u2039\u203a" else form[:2]
        if (quote.opening.strip(), quote.closing.strip()) != (pair[0], pair[1]):
            quote.opening, quote.closing = pair[0] + space, space + pair[1]


def commas_outside(target_lang: str | None) -> bool:
    """Whether ``target_lang`` writes the comma after a quote's closing mark (``„Es geht“, sagte er``), as each
    language of ``FORMS`` does but English, which writes it inside (``"It works," he said``)."""
    return target_lang is not None and target_form(target_lang) is not None and primary_subtag(target_lang) != "en"
