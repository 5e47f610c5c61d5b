"""A searched translation as its user reads it: the one last step of every search that writes final text
(attnmt.decoding.translate's ``translate`` and ``translate_n_best``, attnmt.inspect.align's ``translate_assessed``,
which a document's translation runs), so that they write the same text.

The model's pieces decoded are German's articles agreed with the glossary's terms (attnmt.decoding.term_articles:
"Er saß auf einem Wiese." with meadow -> Wiese, "einer Wiese"), then written in capitals where the model read the
sentence in sentence case (attnmt.decoding.capitals).  The server's stream (attnmt.server.streaming) takes no
glossary, and writes its text with ``written_as`` alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from attnmt.decoding.capitals import written_as
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.term_articles import agreed_articles

# Assessment: of attnmt.decoding.quality, loaded where an annotation is read (attnmt.decoding.__getattr__)
if TYPE_CHECKING:
    import attnmt.decoding.quality
else:
    import attnmt


def final_text(sentence: str, read: str, decoded: str, glossary: Glossary | None, target_lang: str | None) -> str:
    """The translation of ``sentence``, which the model read as ``read`` and whose pieces decode to ``decoded``, as
    it is written: the article before each of ``glossary``'s terms in the term's gender for a German
    ``target_lang`` (term_articles.agreed_articles), in capitals where the model read it in sentence case
    (capitals.written_as)."""
    return written_as(sentence, agreed_articles(decoded, sentence, glossary, target_lang), read)


def written_assessment(sentence: str, read: str, assessment: attnmt.decoding.quality.Assessment | None
                       ) -> attnmt.decoding.quality.Assessment | None:
    """An assessment of a translation of ``sentence``, its words as ``written_as`` writes the translation."""
    if assessment is None:
        return None
    return replace(assessment, words=[(written_as(sentence, word, read), p) for word, p in assessment.words])
