"""The function words of the languages attnmt reads words of: articles (attnmt.text.articles), prepositions, the
contractions of a preposition and an article (German's "im", French's "au", Italian's "nel") and the conjunctions
that join words.  A closed class: such a word never carries a noun's, a verb's or an adjective's meaning, so one left
alone in a mark over such a word was not written for it (attnmt.documents.function_marks)."""

from __future__ import annotations

from attnmt.text.articles import ANY_ARTICLE

PREPOSITIONS = {language: frozenset(words.split()) for language, words in {
    "de": "an auf aus bei durch für gegen hinter in mit nach neben ohne über um unter von vor zu zwischen "
          "am ans beim im ins vom zum zur",
    "en": "about above across against along among around at before behind below beside between by down for from in "
          "into near next of off on onto out over through to toward towards under up with without",
    "fr": "à au aux avec chez dans de du en par pour sans sous sur vers",
    "es": "a al con de del en entre hacia para por sin sobre",
    "it": "a al alla allo ai agli alle con da dal dalla di del della dei in nel nella nei per su sul sulla tra fra",
    "pt": "a ao com da das de do dos em na nas no nos para pela pelo por sem sobre",
    "nl": "aan bij door in met naar naast om onder op over uit van voor zonder"}.items()}
CONJUNCTIONS = frozenset("und oder and or et ou y o e ed en of".split())
# Where the language is not known (a mark's translation is read so): any language's
FUNCTION_WORDS = ANY_ARTICLE.union(CONJUNCTIONS, *PREPOSITIONS.values())
PUNCTUATION = ".,;:!?\"'()[]«»„“”‚‘’"


def is_function_word(word: str) -> bool:
    """Whether ``word`` (punctuation around it left out, any case) is a function word of any language."""
    return word.strip(PUNCTUATION).lower() in FUNCTION_WORDS
