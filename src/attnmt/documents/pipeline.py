"""Many flat texts (blocks of a page, lines, subtitle cues) translated together.

    flat texts ─ sentences (sentencex) ─ one batched translate ─ alignments where a mark needs one ─ place ─ nest

Every sentence of a document goes into one ``translate`` call, so a page is batched
by length exactly as a file of lines is; a sentence repeated (a menu entry, a
footer) is translated once.  Word alignments (``attnmt.inspect.align``, from the
decoder's cross-attention) are computed only for sentences a mark starts, ends or
sits inside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from attnmt.decoding import DEFAULT, Decoding
from attnmt.documents.sentences import sentence_spans
from attnmt.documents.spans import (
    FlatBuilder,
    FlatText,
    Nested,
    Weights,
    has_words,
    needs_alignment,
    nest,
    place,
    plain,
)
from attnmt.errors import ConfigError
from attnmt.inspect.align import word_weights_batched
from attnmt.model import Transformer
from attnmt.tokenizer import Tokenizer
from attnmt.translate import translate


@dataclass(frozen=True)
class DocumentOptions:
    """How documents are cut up and put back together (the search itself: attnmt.decoding).

    source_lang:  language code for the sentence segmenter (sentencex knows ~300)
    target_lang:  written into an HTML document's ``lang`` attribute (None: left as it was)
    split:        paragraphs into sentences (False: each block, line or cue translated whole)
    attributes:   HTML attributes whose values are translated (``()``: none)
    """

    source_lang: str = "en"
    target_lang: str | None = None
    split: bool = True
    attributes: tuple[str, ...] = ("title", "alt", "placeholder", "aria-label")

    def __post_init__(self) -> None:
        if not self.source_lang.strip():
            raise ConfigError("document option source_lang is empty: give a language code such as 'en'")


DEFAULT_OPTIONS = DocumentOptions()


class Translator(Protocol):
    """What documents need of a model: sentences translated, and how their words attend to each other."""

    def translate(self, sentences: list[str]) -> list[str]: ...

    def word_weights(self, sources: list[str], translations: list[str]) -> list[Weights]:
        """Per pair, [target word][source word] cross-attention (attnmt.inspect.align.word_weights)."""
        ...


@dataclass
class ModelTranslator:
    """A Translator over a model: attnmt.translate's batched search, attnmt.inspect.align's alignments."""

    model: Transformer
    tokenizer: Tokenizer
    decoding: Decoding = DEFAULT
    max_tokens: int = 4096
    max_sentences: int | None = None

    def translate(self, sentences: list[str]) -> list[str]:
        return translate(self.model, self.tokenizer, sentences, self.decoding, self.max_tokens, self.max_sentences)

    def word_weights(self, sources: list[str], translations: list[str]) -> list[Weights]:
        return [weights.tolist() for weights in word_weights_batched(self.model, self.tokenizer, sources, translations,
                                                                      max_tokens=self.max_tokens)]


def translate_flats(flats: Sequence[FlatText], translator: Translator,
                    options: DocumentOptions = DEFAULT_OPTIONS) -> list[list[str | Nested]]:
    """Each flat text translated, its marks placed and nested (attnmt.documents.spans)."""
    sentences = [sentence_spans(flat.text, options.source_lang, options.split) for flat in flats]
    sources = [flat.text[s:e] for flat, spans in zip(flats, sentences, strict=True) for s, e in spans]
    unique = list(dict.fromkeys(s for s in sources if has_words(s)))
    translated = dict(zip(unique, translator.translate(unique), strict=True))
    translations = [translated.get(s, s) for s in sources]  # no letters: passes through as it is
    wanted = [i for i, (flat, span) in enumerate(pairs(flats, sentences)) if needs_alignment(flat, span)]
    alignments: list[Weights | None] = [None] * len(sources)
    to_align = [i for i in wanted if has_words(sources[i])]
    for i, found in zip(to_align, translator.word_weights([sources[i] for i in to_align],
                                                          [translations[i] for i in to_align]), strict=True):
        alignments[i] = found
    for i in set(wanted) - set(to_align):  # passed through: each word is itself
        alignments[i] = identity(len(sources[i].split()))
    results, first = [], 0
    for flat, spans in zip(flats, sentences, strict=True):
        last = first + len(spans)
        results.append(nest(flat, place(flat, spans, translations[first:last], alignments[first:last])))
        first = last
    return results


def identity(n: int) -> Weights:
    """The weights of a sentence that is its own translation: each word attends to itself."""
    return [[float(s == t) for s in range(n)] for t in range(n)]


def pairs(flats: Sequence[FlatText], sentences: Sequence[list[tuple[int, int]]]):
    """(flat text, sentence span) for every sentence, in order."""
    return [(flat, span) for flat, spans in zip(flats, sentences, strict=True) for span in spans]


def flat_line(line: str) -> FlatText:
    """A line of plain text: its spacing kept, URLs and e-mail addresses protected."""
    builder = FlatBuilder(collapse=False)
    builder.add_text(line)
    return builder.build()


def translate_lines(lines: Sequence[str], translator: Translator,
                    options: DocumentOptions = DEFAULT_OPTIONS) -> list[str]:
    """Plain text lines, each split into sentences (unless options.split is false), URLs and
    e-mail addresses kept as they are; one output line per input line."""
    translated = translate_flats([flat_line(line) for line in lines], translator, options)
    return [plain(content) if line.strip() else "" for line, content in zip(lines, translated, strict=True)]
