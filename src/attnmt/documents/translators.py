"""The translators a document is handed (attnmt.documents.pipeline translates with one): what a
document needs of a model (the Translator protocol), a base for translators that wrap another
(Wrapper), the translator over a model and its batched search (ModelTranslator), and one over
translations already found (FoundTranslations)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from torch import Tensor

from attnmt.config_ranges import check_function
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.garbled_labels import labels_plausibility
from attnmt.decoding.glossary import Glossary, as_glossary
from attnmt.decoding.inputs import ModelFitsWrites, check_not_sampled, check_search, check_tokenizer
from attnmt.decoding.label_phrases import known_words
from attnmt.decoding.quality_options import checked_quality
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import (
    Plausibility,
    Rewritten,
    checked_answer,
    translator_fits,
    translator_glossary,
    translator_plausibility,
    translator_rewritten,
    translator_writes,
    xml_text,
)
from attnmt.errors import ConfigError
from attnmt.inspect.align import translate_assessed
from attnmt.inspect.trace import PieceCodec
from attnmt.model import Transformer

# The annotations' Assessment and Assessor: the package imports attnmt.decoding.quality where an annotation is read
# (attnmt.decoding.__getattr__), so that a document translated without a review loads no quality estimation.
if TYPE_CHECKING:
    import attnmt.decoding.quality
else:
    import attnmt


class Translator(Protocol):
    """What documents need of a model: sentences translated and, for those a mark needs it, how
    their words attend to each other; and, optionally, the glossary those translations use, whose
    terms a text without letters, which never reaches it, takes instead (``with_terms``).  It is the
    translator's own, so that what is sent and the terms it is searched with cannot come from two
    glossaries.  A translator without a ``glossary`` attribute, or with None, has no terms; a dict
    {source term: target term} is taken as ``as_glossary`` takes it (``translator_glossary``).
    Optionally too, ``fits``: whether the model reads a sentence whole, so that the splitter joins
    no two sentences around a term into one it would cut (``translator_fits``; without it, the
    tokenizer's count where one is reachable, else at most 1,000 bytes joined: translator_parts).  And ``writes``:
    whether the model's vocabulary writes a symbol, so that one it cannot is kept where it stood
    (attnmt.documents.symbols; without it, every symbol is left to the model).  And ``plausibility``: how
    plausible the model finds each translation, so that a short label it garbled keeps its source
    (attnmt.documents.short_labels; without it, every translation is taken).  These optional members
    are read with getattr (attnmt.documents.translator_parts), so the protocol declares ``translate``
    alone: a class with nothing else is a Translator to a type checker too."""

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        """Each sentence's translation and, where ``weighed``, its [target word][source word]
        cross-attention (attnmt.inspect.align.word_weights: lists, or a 2-D tensor); None elsewhere.
        None where weighed too has the words aligned by their order (translator_parts.in_order)."""
        ...


@dataclass
class Wrapper:
    """A Translator's base that hands its sentences to ``translator`` (progress counted, failures
    spared, ...): the glossary and ``fits`` it answers with are that translator's, so a document
    is split and its letterless texts given terms as the wrapped translator would have them."""

    translator: Translator

    @property
    def glossary(self) -> Glossary | None:
        return translator_glossary(self.translator)

    @property
    def fits(self) -> Callable[[str], bool]:
        return translator_fits(self.translator)

    @property
    def writes(self) -> Callable[[str], bool] | None:
        return translator_writes(self.translator)

    @property
    def plausibility(self) -> Plausibility | None:
        return translator_plausibility(self.translator)

    @property
    def rewritten(self) -> Rewritten | None:
        return translator_rewritten(self.translator)


@dataclass
class ForXml(Wrapper):
    """A Translator whose translations can be written into XML (a page, an office file, XLIFF, EPUB, or
    Markdown, whose inline HTML lxml reads): ``xml_text`` of each.  Only there: a text or subtitle file
    keeps a user's translator's control characters as it gave them."""

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts, weights = checked_answer(self.translator, sentences, weighed)
        return [xml_text(sentence, text) for sentence, text in zip(sentences, texts, strict=True)], weights


@dataclass
class ModelTranslator(ModelFitsWrites):
    """A Translator over a model: attnmt.decoding.translate's batched search, with the cross-attention of
    the sentences that need it read in the same batches (attnmt.inspect.align.translate_with_weights);
    its ``fits`` and ``writes`` are the model's (attnmt.decoding.inputs.ModelFitsWrites).

    With ``quality`` (an attnmt.decoding.quality.Assessor), each translation is also assessed from
    its batch's search (attnmt.inspect.align.translate_assessed) and kept until ``taken``: a
    Review's ``assess`` (attnmt.documents.review.reviewing), with no second pass of the decoder."""

    model: Transformer
    tokenizer: PieceCodec
    decoding: Decoding = DEFAULT
    max_tokens: int = MAX_TOKENS
    max_sentences: int | None = None
    glossary: Glossary | Mapping[str, str] | None = None  # terms every translation must use: a Glossary after init
    quality: attnmt.decoding.quality.Assessor | None = None
    # sentence -> its Assessment, until taken
    assessed: dict[str, attnmt.decoding.quality.Assessment | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """One clear error for a model, tokenizer, decoding, batch limit, glossary or quality of the wrong
        type (or sampling with a glossary), before any document is read (a dict for the decoding, or None
        for the model, was an AttributeError deep in the search, quality=True one after it, and None for
        the tokenizer was refused only once the document was parsed); a glossary given as a dict indexed
        once here, not for each batch of sentences; quality False is None."""
        check_search(self.model, self.decoding, self.max_tokens, self.max_sentences)
        check_tokenizer(self.tokenizer)
        self.glossary = as_glossary(self.glossary)
        self.quality = checked_quality(self.quality)
        check_not_sampled(self.decoding, [self.glossary])

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        """Where the model fails on some sentences, SentencesFailed holds the others' outputs as this returns them."""
        try:
            texts, found, assessed = translate_assessed(self.model, self.tokenizer, sentences, weighed,
                                                        self.decoding, self.max_tokens, self.max_sentences,
                                                        glossary=self.glossary, quality=self.quality)
        except SentencesFailed as failed:
            failed.outputs = self.kept(sentences, *failed.outputs)
            raise
        return self.kept(sentences, texts, found, assessed)

    def kept(self, sentences: list[str], texts: list[str], found: list[Tensor | None],
             assessed: list[attnmt.decoding.quality.Assessment | None]
             ) -> tuple[list[str], list[Weights | None]]:
        """What ``translate`` returns of translate_assessed's outputs; the Assessments kept until ``taken``."""
        if self.quality is not None:
            self.assessed.update(zip(sentences, assessed, strict=True))
        return texts, [None if weights is None else weights.tolist() for weights in found]

    def plausibility(self, sentences: Sequence[str], translations: Sequence[str]) -> list[float | None]:
        """How plausible each translation of each sentence is to the model, as a short label's guard reads it
        (attnmt.decoding.garbled_labels.labels_plausibility: its words' probabilities, its end left out, a German
        plural alone's read after a number too, and 0 for a German one that is no label's translation, in the model's
        ``target_lang``) from teacher-forced passes (attnmt.decoding.quality.assess, uncalibrated, so that it means
        the same with or without a model's calibration); None where either side is blank."""
        def assess(sources: Sequence[str], found: Sequence[str]) -> list[attnmt.decoding.quality.Assessment | None]:
            return attnmt.decoding.quality.assess(self.model, self.tokenizer, sources, found,
                                                  max_tokens=self.max_tokens)

        return labels_plausibility(assess, sentences, translations, self.model.target_lang,
                                   known_words(self.tokenizer))

    def rewritten(self, sentences: Sequence[str], translations: Sequence[str]) -> None:
        """``translations`` are written in place of what the model wrote for ``sentences`` (a garbled label's source
        kept, a glossary's term: attnmt.documents.short_labels): with ``quality``, their Assessments replace those of
        the search's, so that a review shows the quality of what the document holds, not of an attempt turned down."""
        if self.quality is not None and sentences:
            found = self.quality.assess(self.model, self.tokenizer, sentences, translations)
            self.assessed.update(zip(sentences, found, strict=True))

    def taken(self, sentences: Sequence[str], translations: Sequence[str]
              ) -> list[attnmt.decoding.quality.Assessment | None]:
        """The Assessments of ``sentences`` as translated last (a Review's ``assess``), forgotten here."""
        return [self.assessed.pop(sentence, None) for sentence in sentences]


@dataclass
class FoundTranslations:
    """A Translator over translations already found, sentence -> translation (a sentence not in
    ``translations`` gives ""); ``weigh(sentence, translation)``, where given, reads the word
    weights of the sentences a mark needs them for.  Without it, their weights are rows for no word
    (not None, which translator_parts.in_order would align by their order): a mark over words goes to
    its sentence's end, and a URL inside a sentence after it, as the server's stream shows its partial
    translations (attnmt.server.streaming): placed by the words' order, the URL moved about as words
    came ("http://example.com/page Ein", then "Ein http://example.com/page Mann")."""

    translations: dict[str, str]
    weigh: Callable[[str, str], Weights] | None = None
    glossary: Glossary | Mapping[str, str] | None = None  # the one they were searched with (a Glossary after init)
    fits: Callable[[str], bool] | None = None  # the model's limit their sentences were split with (translator_fits)
    writes: Callable[[str], bool] | None = None  # what its vocabulary writes, when they were split (translator_writes)
    # how plausible the model finds each translation (ModelTranslator.plausibility), so that a short label it garbled
    # keeps its source (attnmt.documents.short_labels), as the server's stream's field names do; None: none judged
    plausibility: Plausibility | None = None

    def __post_init__(self) -> None:
        """One clear error, before any document is read, for ``translations`` that are no dict, a ``glossary``
        that is neither a Glossary nor a dict of terms (``as_glossary``: a dict indexed once here), or a
        ``weigh``, ``fits``, ``writes`` or ``plausibility`` that is neither None nor a function: ``weigh="yes"`` was
        taken, and failed as "'str' object is not callable" once a mark needed weights."""
        if not isinstance(self.translations, Mapping):
            raise ConfigError(f"translations: expected a dict, sentence -> translation, got "
                              f"{type(self.translations).__name__}")
        self.glossary = as_glossary(self.glossary)  # a dict of terms as the Translator protocol says
        check_function(self.weigh, "weigh", "weigh(sentence, translation)")
        check_function(self.fits, "fits", "fits(sentence)")
        check_function(self.writes, "writes", "writes(symbol)")
        check_function(self.plausibility, "plausibility", "plausibility(sentences, translations)")

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts = [self.translations.get(sentence, "") for sentence in sentences]
        weights = [(self.weigh(sentence, text) if self.weigh else []) if wanted and text else None
                   for sentence, text, wanted in zip(sentences, texts, weighed, strict=True)]
        return texts, weights
