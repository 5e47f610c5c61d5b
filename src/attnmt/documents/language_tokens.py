"""A paragraph that starts with a language token is read with it in every sentence.

A multi-target model (OPUS-MT's en-ROMANCE or en-mul; one of attnmt's own trained with the tokens
among its ``user_defined_symbols``) is told the language to write by a token at the start of its
input: ``>>de<< A dog runs. A cat sleeps.``.  Read whole (``--no-split``), the line is one input
with the token; split into sentences (attnmt.documents.sentences), only the first sentence held it,
and the model wrote the others in whatever language it guessed.  So each sentence after the first
is read with the token in front (``>>de<< A cat sleeps.``), where the translator's tokenizer knows
it as a language token (its ``language_token``).  What a sentence stands for in the text stays as it
is (what passes through, the words the marks and alignments number), so the token's column is left
out of its word weights; the first sentence holds the token in the text, a word of it there, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attnmt.documents.flat import FlatText
from attnmt.documents.spans import Weights

# The language token a text starts with that the model reads as one ("": none), such as
# attnmt.text.vocab_tokenizer.VocabTokenizer.language_token.
LanguageToken = Callable[[str], str]


def no_language_token(text: str) -> str:
    """No text starts with a language token: what a model without them reads."""
    return ""


def language_token_of(owner: object) -> LanguageToken:
    """``owner.language_token`` (a tokenizer's, or a Translator's: ModelTranslator's is its
    tokenizer's), else ``no_language_token``: a stand-in tokenizer or a user's own translator,
    written without one, read every sentence as it is, as before."""
    return getattr(owner, "language_token", None) or no_language_token


def read_with_token(sentences: Sequence[str], language_token: LanguageToken) -> list[str]:
    """One paragraph's sentences as the model reads them: each after the first with the language
    token the first starts with, if any, in front (``>>de<< A cat sleeps.``)."""
    token = language_token(sentences[0]) if sentences else ""
    return [sentence if k == 0 or not token else f"{token} {sentence}" for k, sentence in enumerate(sentences)]


def read_sentences(flats: Sequence[FlatText], sentences: Sequence[Sequence[tuple[int, int]]],
                   language_token: LanguageToken = no_language_token) -> list[str]:
    """Every sentence (each flat text's ``sentences``, [start, end) spans) as the model reads it, in
    order: as it stands, but those after the first of a flat text that starts with a language
    token, read with it (``read_with_token``)."""
    return [read for flat, spans in zip(flats, sentences, strict=True)
            for read in read_with_token([flat.text[s:e] for s, e in spans], language_token)]


def added_words(sentence: str, read: str) -> int:
    """How many words (split at whitespace) ``read`` (``read_with_token``'s) has in front of ``sentence``'s:
    1 for a sentence read with a language token in front, else 0."""
    return 0 if read == sentence else len(read.split()) - len(sentence.split())


def without_token(weights: Weights | None, sentence: str, read: str) -> Weights | None:
    """Word weights [target word][source word] of ``read``, ``sentence`` as the model read it, as
    those of ``sentence``: the columns of the words in front (a language token) left out."""
    added = added_words(sentence, read)
    return weights if weights is None or not added else [row[added:] for row in weights]
