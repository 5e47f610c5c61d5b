"""The articles of the languages attnmt reads words of: a closed class of short words that go with a noun, which a
decoder writes with that noun in view (attnmt.documents.looking_ahead) and which says a sentence's first word was a
noun, no name (attnmt.decoding.quality_names)."""

from __future__ import annotations

ARTICLES = {language: frozenset(words.split()) for language, words in {
    "de": "der die das den dem des ein eine einen einem einer eines", "en": "the a an", "fr": "le la les l un une des",
    "es": "el la los las un una unos unas", "it": "il lo la i gli le l un una uno", "pt": "o a os as um uma",
    "nl": "de het een"}.items()}
ANY_ARTICLE = frozenset().union(*ARTICLES.values())  # where the language is not known: a mark's translation
# A preposition and an article written as one word (German's "im" for "in dem", French's "au", Italian's "nel"): it
# carries its article, written with the noun in view as an article is (attnmt.documents.looking_ahead).  Not one
# that is another word of another language too (French's "du" is German's "you", Portuguese's "no" English's).
CONTRACTIONS = frozenset("am ans beim im ins vom zum zur au aux al del nel nella nelle negli dal dalla sul sulla ao "
                         "pelo pela".split())
