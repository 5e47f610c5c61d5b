"""/v1/translate's request and response bodies, as its OpenAPI schema shows them: what a request may ask
(``TranslateRequest``, checked as it is read), what it is answered (``TranslateResponse``), and the errors
(``ERRORS``).  Apart from its handling (attnmt.server.v1_api) because they are its API's reference."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from attnmt.decoding import DEFAULT, MOST_SEED, Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.glossary_pairs import GivenPairs
from attnmt.decoding.inputs import sampling_with_terms
from attnmt.decoding.quality import EMPTY, FLAGS
from attnmt.errors import UserError
from attnmt.server.models import MOST_BEAM, MOST_N_BEST, MOST_OUTPUT_TOKENS, Options
from attnmt.text.encodings import check_encodable


class TranslateRequest(BaseModel):
    """Give ``text`` (one) or ``texts`` (several), never both."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str | None = Field(None, description="one text to translate", examples=["A dog runs."])
    texts: list[str] | None = Field(None, description="several texts, translated in order")
    model: str | None = Field(None, description="which served model: its name or pair, e.g. en-de "
                                                "(default: the first given to attnmt serve)")
    beam: int = Field(DEFAULT.beam_size, ge=1, le=MOST_BEAM, description="beam size; 1 is greedy search")
    max_length: int | None = Field(
        None, ge=1, le=MOST_OUTPUT_TOKENS,
        description=f"most output subword tokens per translation (default {DEFAULT.max_len_a} x input tokens "
                    f"+ {DEFAULT.max_len_b})",
    )
    return_attention: bool = Field(False, description="also return the tokens and attention of each sentence's "
                                   "translation")
    n_best: int = Field(DEFAULT.n_best, ge=1, le=MOST_N_BEST,
                        description="hypotheses per text in 'hypotheses' (at most beam)")
    return_scores: bool = Field(False, description="return 'hypotheses': each with its score (log-prob / length "
                                "penalty) and log-prob")
    return_alignments: bool = Field(False, description="add each hypothesis's word alignment (Pharaoh pairs)")
    return_confidence: bool = Field(False, description="add each hypothesis's pieces with their probabilities")
    return_quality: bool = Field(False, description="return 'quality' and 'flags' per text (every hypothesis "
                                 "returned carries its own, and its sentences' in 'sentences'): "
                                 "docs/translating.md, Quality")
    glossary: dict[str, str] | None = Field(None, description='terms the translations must use: {"source term": '
                                            '"target term"} (docs/translating.md, Terminology)')
    prefix: str | None = Field(None, description="text every translation starts with")
    min_len: int = Field(DEFAULT.min_len, ge=0, le=MOST_OUTPUT_TOKENS,
                         description="no EOS before this many output tokens")
    sampling_topk: int = Field(DEFAULT.sampling_topk, ge=0, description="1: no sampling; 0 or k > 1: sample "
                               "from all tokens or the k most likely (with beam 1)")
    sampling_topp: float = Field(DEFAULT.sampling_topp, gt=0, le=1, description="with sampling: nucleus size")
    sampling_temperature: float = Field(DEFAULT.sampling_temperature, gt=0, description="with sampling")
    seed: int | None = Field(DEFAULT.seed, ge=0, le=MOST_SEED, description="with sampling: the same seed, the same "
                             "output")
    no_repeat_ngram_size: int = Field(DEFAULT.no_repeat_ngram_size, ge=0, description="0: off")
    repetition_penalty: float = Field(DEFAULT.repetition_penalty, gt=0, description="1: off")
    disable_unk: bool = Field(DEFAULT.disable_unk, description="never generate the unknown piece")
    format: Literal["text", "html"] = Field("text", description='"html": each text is HTML (a fragment or a page), '
                                            "split into sentences, its tags carried onto the translation")

    @property
    def wants_hypotheses(self) -> bool:
        return self.n_best > 1 or self.return_scores or self.return_alignments or self.return_confidence

    def decoding(self) -> Decoding:
        return Decoding(beam_size=self.beam, n_best=self.n_best, **{
            key: getattr(self, key) for key in DECODING_FIELDS}).with_max_length(self.max_length)

    def options(self, terms: list[tuple[str, object]] | None = None) -> Options:
        """The request's options, its glossary built (a DataError for a blank term, or a source term
        with two targets) from ``terms``, its pairs as the body gives them (``given_glossary``), where
        given: after the limits, which count its terms first.  Attention needs each sentence's
        translation, as hypotheses do, and every hypothesis returned carries its quality."""
        hypotheses = self.wants_hypotheses or self.return_attention or self.return_quality
        glossary = Glossary.of(self.glossary if terms is None else GivenPairs(terms)) if self.glossary else None
        return Options(self.decoding(), hypotheses, glossary,
                       self.prefix, self.format, quality=hypotheses)

    @model_validator(mode="after")
    def one_nonblank_text_or_texts(self) -> TranslateRequest:
        if (self.text is None) == (self.texts is None):
            raise ValueError('give either "text": "..." or "texts": ["...", ...]')
        if self.texts == []:
            raise ValueError('"texts" is empty: give at least one text')
        if self.n_best > self.beam:
            raise ValueError(f'"n_best" {self.n_best} needs "beam" {self.n_best} or more (got {self.beam})')
        if self.format == "html" and (self.wants_hypotheses or self.return_attention or self.return_quality
                                      or self.prefix):
            raise ValueError('"format": "html" returns the translated HTML only: leave out n_best, return_scores, '
                             "return_alignments, return_confidence, return_attention, return_quality and prefix")
        try:
            self.decoding()
        except UserError as error:  # Decoding's rule, in the request's words: "beam", not beam_size
            raise ValueError(re.sub(r"\bbeam_size\b", "beam", str(error))) from None
        if self.glossary and self.decoding().sampling:
            raise ValueError(sampling_with_terms('"glossary"', '"sampling_topk"'))
        for where, text in self.named_texts():
            if not text.strip():
                raise ValueError(f"{where} is empty: give a sentence to translate")
        try:
            check_encodable(self.named_strings())
        except UserError as error:
            raise ValueError(str(error)) from None
        return self

    def named_texts(self) -> list[tuple[str, str]]:
        """(name for messages, text) pairs: ("text", ...) or ("texts[0]", ...), ..."""
        if self.text is not None:
            return [("text", self.text)]
        return [(f"texts[{i}]", text) for i, text in enumerate(self.texts or [])]

    def named_strings(self) -> list[tuple[str, str]]:
        """Every text the request holds, named for messages: its texts, prefix and glossary terms."""
        terms = [(f"glossary term {source!r}", term) for source, target in (self.glossary or {}).items()
                 for term in (source, target)]
        return [*self.named_texts(), *([("prefix", self.prefix)] if self.prefix is not None else []), *terms]


# The request fields that are Decoding fields of the same name.
DECODING_FIELDS = ("min_len", "sampling_topk", "sampling_topp", "sampling_temperature", "seed", "no_repeat_ngram_size",
                   "repetition_penalty", "disable_unk")


class TranslateResponse(BaseModel):
    translations: list[str] = Field(description="one per input text, in order")
    hypotheses: list[list[dict[str, Any]]] | None = Field(
        None, description="with n_best > 1 or return_scores/alignments/confidence, per text the n_best best: "
                          '{"text", "score", "log_prob"[, "alignment": "0-0 1-1 …"][, "confidence": '
                          '[[piece, probability], …]]}; a text of several sentences joins its sentences\' '
                          "(docs/serving.md, Paragraphs)",
    )
    quality: list[float | None] | None = Field(
        None, description="with return_quality (or hypotheses), per text: the estimated probability in [0, 1] that "
                          "its translation is acceptable (the least of its sentences')")
    flags: list[list[str]] | None = Field(
        None, description=f"with quality, per text: the checks its translation fails ({', '.join((EMPTY, *FLAGS))})")
    calibrated: bool | None = Field(None, description="with quality: whether the model's quality is calibrated")
    attention: list[list[dict[str, Any]]] | None = Field(
        None, description="with return_attention, per text one per sentence (in order): "
                          'TranslationAttention.to_dict(), i.e. {"sentence", "translation", "kinds": '
                          '{"cross" | "encoder" | "decoder_self": {"rows", "cols" (tokens), '
                          '"weights" [layer][head][row][col], ...}}}',
    )


class ErrorMessage(BaseModel):
    detail: str = Field(description="what was wrong, in a sentence")


ERRORS = {
    401: {"model": ErrorMessage, "description": "the server wants an API key (api_key or Authorization: Bearer)"},
    403: {"model": ErrorMessage, "description": "the API key is not one the server knows"},
    413: {"model": ErrorMessage, "description": "too many texts or characters (also: more than the API key may "
                                                "translate a minute), a text too long, or a body too large"},
    422: {"model": ErrorMessage, "description": "not valid JSON, an unknown or mistyped field, or an empty text"},
    429: {"model": ErrorMessage, "description": "over a rate limit (requests, or the API key's characters, a minute); "
                                                "retry after the Retry-After seconds"},
    500: {"model": ErrorMessage, "description": "the model failed on this request; the server goes on"},
    503: {"model": ErrorMessage, "description": "the queue is full; retry after the Retry-After seconds"},
}
