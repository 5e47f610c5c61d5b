"""The quotes around a whole sentence in the target language's usual form.

A sentence wrapped whole in quotes is read without them and its translation written between them
(attnmt.decoding.sentence_edges.quoted_edges): the source's own, which are English's where it is English
(``“Two dogs play.”``), and a German reader's are „…“.  Typographic quotes are written in the target
language's (``FORMS``); straight quotes, typed as such, and brackets stay as they were, and so do all where
the target language is not known or none of ``FORMS``."""

from __future__ import annotations

from attnmt.decoding.sentence_edges import quoted_edges
from attnmt.text.language_codes import primary_subtag, variety

# A language's (or a variety's) double and single quotes: opening, closing, opening, closing.
FORMS = {"de": "„“‚‘", "de-ch": "«»‹›", "de-li": "«»‹›", "en": "“”‘’", "nl": "“”‘’", "cs": "„“‚‘", "da": "»«›‹",
         "pl": "„”‚’", "fr": "«»‹›", "es": "«»“”", "it": "«»“”", "ru": "«»„“", "uk": "«»„“", "pt": "«»“”"}
DOUBLE = "“„«»"  # the typographic double quotes a sentence may open with (sentence_edges.PAIRS)
SINGLE = "‘‚‹"


def in_target_form(source: str, translation: str, target_lang: str | None) -> str:
    """``translation`` of ``source``, a sentence wrapped whole in typographic quotes that wrap its translation too,
    with them written in ``target_lang``'s usual form (``FORMS``): '“Two dogs play.”' into German is
    '„Zwei Hunde spielen.“'; else ``translation`` as it is."""
    said, written = quoted_edges(source), quoted_edges(translation)
    if target_lang is None or said is None or written is None:
        return translation
    opening = said.head.strip()
    form = FORMS.get(variety(target_lang)) or FORMS.get(primary_subtag(target_lang))
    if form is None or opening != written.head.strip() or opening not in DOUBLE + SINGLE:
        return translation
    pair = form[:2] if opening in DOUBLE else form[2:]
    closing = written.tail.strip()
    return written.head.replace(opening, pair[0]) + written.body + written.tail.replace(closing, pair[1])
