"""A searched translation as its user reads it: the one last step of every search that writes final text
(attnmt.decoding.translate's ``translate`` and ``translate_n_best``, attnmt.inspect.align's ``translate_assessed``,
which a document's translation runs), so that they write the same text.

The model's pieces decoded are German's articles agreed with the glossary's terms (attnmt.decoding.term_articles:
"Er saß auf einem Wiese." with meadow -> Wiese, "einer Wiese"), then written in capitals where the model read the
sentence in sentence case (attnmt.decoding.capitals); an assessment of the model's text, which a search with
quality gives, reports the words of the text written (``written_assessment``).  The server's stream
(attnmt.server.streaming) takes no glossary, and writes its text with ``written_as`` alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from difflib import SequenceMatcher
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


def written_from(decoded: str, final: str) -> list[int | None]:
    """For each word of ``final`` (split at whitespace), the number of the word of ``decoded`` it was written from,
    where ``final`` is ``decoded`` rewritten (``final_text``; a document's symbols put back): a word rewritten in its
    place ("einem" -> "einer", "Wiese" -> "WIESE", "Er" -> "„Er") from the word there; where the count changed, the
    word of ``decoded`` its first character was found in, or was rewritten from ("im" -> "in der": "in" and "der" from
    "im"; "ins große" -> "in den großen": "den" from "ins"), None for a word of characters added where ``decoded`` had
    none (an emoji the model did not read).  Compared in small letters: ``final`` is in capitals where its sentence
    is."""
    if len(decoded.split()) == len(final.split()):  # every rewrite kept its place
        return list(range(len(final.split())))
    old, new = decoded.lower(), final.lower()
    old_words = word_of_each_character(old)
    source: dict[int, int] = {}  # a character of ``new`` -> the word of ``old`` it was written from
    for tag, first, last, start, end in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            source.update((start + k, old_words[first + k]) for k in range(end - start))
        elif tag == "replace":  # written from the first word that the replaced characters stand in
            word = next((number for number in old_words[first:last] if number >= 0), None)
            source.update((k, word) for k in range(start, end) if word is not None)
    return [next((source[k] for k in range(*word.span()) if k in source), None) for word in re.finditer(r"\S+", new)]


def word_of_each_character(text: str) -> list[int]:
    """The number of the word (split at whitespace) each character of ``text`` stands in, -1 for whitespace."""
    found = [-1] * len(text)
    for number, word in enumerate(re.finditer(r"\S+", text)):
        found[word.start():word.end()] = [number] * len(word.group())
    return found


def written_assessment(assessment: attnmt.decoding.quality.Assessment | None, decoded: str, final: str
                       ) -> attnmt.decoding.quality.Assessment | None:
    """An ``assessment`` of ``decoded``, the model's text, as its user reads it: its words those of ``final``, the
    text written (``final_text``), each with the probability of the word of ``decoded`` it was written from
    (``written_from``: "in" and "der" each with that of the model's "im"; None for a word added from none).  Its
    quality and flags are those of the model's text, which the search scored; one whose words are not ``decoded``'s
    (an empty translation's, of a text with words) is kept as it is."""
    if assessment is None or len(assessment.words) != len(decoded.split()):
        return assessment
    probabilities = [p for _, p in assessment.words]
    return replace(assessment, words=[(word, None if k is None else probabilities[k]) for word, k in
                                      zip(final.split(), written_from(decoded, final), strict=True)])
