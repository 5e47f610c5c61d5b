"""The articles of the languages attnmt reads words of: a closed class of short words that go with a noun, which a
decoder writes with that noun in view (attnmt.documents.looking_ahead) and which says a sentence's first word was a
noun, no name (attnmt.decoding.quality_names)."""

from __future__ import annotations

ARTICLES = {language: frozenset(words.split()) for language, words in {
    "de": "der die das den dem des ein eine einen einem einer eines", "en": "the a an", "fr": "le la les l un une des",
    "es": "el la los las un una unos unas", "it": "il lo la i gli le l un una uno", "pt": "o a os as um uma",
    "nl": "de het een"}.items()}
ANY_ARTICLE = frozenset().union(*ARTICLES.values())  # where the language is not known: a mark's translation
