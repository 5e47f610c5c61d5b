"""The sentences ``translate`` passes through unread, as ``attnmt translate`` passes their lines through
(attnmt.text.letters.reaches_model): one without letters or of one letter is its own translation.  Given
them, the model made up words: "42" came back "422.", "A" "Ein Mann befindet sich.", where the command
wrote "42" and "A".

One that holds a term of its glossary is still searched, as it was, so that the term is in its translation
(the command writes the target term in place of its source term: attnmt.documents.letterless.with_terms).

``translate_n_best`` gives such a sentence one hypothesis, itself: it sent "42" to the model, and listed "422."
and "42 tragen andere Personen." as its translations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import TextCodec
from attnmt.model import Transformer
from attnmt.text.invisible import blank
from attnmt.text.letters import reaches_model

if TYPE_CHECKING:  # quality imports translate, which imports this module
    from attnmt.decoding.quality import Assessment, Assessor
    from attnmt.decoding.translate import Translation


def passed_through(given: Sequence[str], read: Sequence[str], glossaries: Sequence[Glossary | None]
                   ) -> tuple[list[str], list[str]]:
    """Each sentence's output before any search: the sentence as ``given`` where the model is not given it (its
    text as the model would read it, ``read``, is not blank and does not ``reaches_model``, and holds no term of
    its glossary), "" for the others; and ``read`` with those sentences blank, so that none is searched."""
    unread = [not blank(text) and not reaches_model(text) and not (glossary and glossary.found_in(text))
              for text, glossary in zip(read, glossaries, strict=True)]
    return ([sentence if skipped else "" for sentence, skipped in zip(given, unread, strict=True)],
            ["" if skipped else text for text, skipped in zip(read, unread, strict=True)])


def unread_hypotheses(model: Transformer, tokenizer: TextCodec, kept: Sequence[str], quality: Assessor | None
                      ) -> list[list[Translation]]:
    """Each sentence's n-best list before any search: a sentence ``passed_through`` (``kept`` holds it as given, ""
    for the others, whose list is []) is its one hypothesis, with the scores of no model's word (0), and with
    ``quality`` the assessment of a copy (``copy_assessment``), as a JSONL line passed through gets it."""
    from attnmt.decoding.translate import Translation  # which imports this module

    texts = [text for text in kept if text]
    found = iter(quality.assess(model, tokenizer, texts, texts) if quality else [None] * len(texts))
    return [[Translation(text, 0.0, 0.0, copy_assessment(next(found)))] if text else [] for text in kept]


def copy_assessment(assessed: Assessment | None) -> Assessment | None:
    """The assessment of a text passed through untranslated, from the forced pass's (``assessed``): quality 1, no
    flags and no word probability (None each), as quality.passes_through gives a copy with no letter.  The copy
    is its own reference (chrF 100); read whole by the model, never trained to copy, "https://example.com/docs/page"
    came out 0, ``copied`` and ``low_quality``, and "A" low.  Nothing of the text reached the model, so no word of
    it has the model's probability: "2012" with its glossary's "zweitausendzwölf" had come out 0.0."""
    return assessed and replace(assessed, quality=1.0, flags=[], words=[(word, None) for word, _ in assessed.words])
