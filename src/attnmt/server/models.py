"""The models a server holds: each with its language pair, its own batcher (a thread that owns
it), its limits on input, and what it reports in ``/health``.

One server may serve several models, one per language pair (``attnmt serve --model
en-de=runs/en_de --model de-en=runs/de_en``); a request names its pair (LibreTranslate's
``source`` and ``target``) or its model (attnmt's own API, default: the first).
"""

from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import NamedTuple

from attnmt.config import TransformerConfig
from attnmt.config_ranges import truth_value, whole_number
from attnmt.decoding import MAX_BEAM, Decoding
from attnmt.decoding.calibration import Calibration
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import ModelFitsWrites
from attnmt.decoding.quality import Assessment, Assessor, blank_pair
from attnmt.decoding.quality_joined import joined, read_whole
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.unread import copy_assessment
from attnmt.documents.files import MAX_FILE_BYTES
from attnmt.documents.paragraphs import translate_texts, translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions, paragraph_sentences
from attnmt.documents.translators import ModelTranslator
from attnmt.errors import ConfigError, UserError
from attnmt.inspect.trace import PieceCodec
from attnmt.model import Transformer
from attnmt.server.batcher import Batcher
from attnmt.server.markup_texts import NO_SPLITS, LineBreaks, TagSplits, translated_html, translated_xml


def characters(text: str) -> int:
    """A text's characters as the server's limits count them: a line end one, CRLF as LF.  A browser's form sends
    each line end of a textarea as CRLF, a JSON client the same text's as LF: the same text counts the same."""
    return len(text) - text.count("\r\n")


@dataclass
class ServeSettings:
    """Limits and batching of the server; every limit is checked before any model work."""

    max_texts: int = 64  # texts per request
    max_chars: int = 2000  # characters per text (the model's own token limit applies too)
    max_request_chars: int = 20_000  # characters per request, all its texts together
    max_attention_texts: int = 8  # texts per request with return_attention (each one a scoring pass)
    max_attention_weights: int = 2_000_000  # attention weights per request with return_attention (7 bytes of JSON each)
    max_glossary_terms: int = 1000  # terms in a request's glossary (attnmt's API)
    max_alternatives: int = 3  # LibreTranslate's "alternatives" at most
    max_body_bytes: int = 1_000_000
    max_batch: int = 32  # texts translated together
    batch_window_ms: float = 5.0  # how long a lone request waits for company
    max_queued: int = 1024  # texts waiting; beyond this, 503
    header_timeout_s: float = 10.0  # a connection silent this long (opened, or answered) is closed
    body_timeout_s: float = 30.0  # a request body must arrive within this long of its headers; else 408
    shutdown_timeout_s: float = 10.0  # on SIGTERM or Ctrl-C, requests in flight get this long to finish
    # Files (attnmt.server.file_jobs).  A fifth of the library's limit (documents.files.MAX_FILE_BYTES):
    # a server holds max_file_jobs files in memory at once, each with its parsed form and its translation,
    # and as many LibreTranslate and DeepL files waiting for their turn (file_jobs.IN_TURN), as they came.
    max_file_bytes: int = MAX_FILE_BYTES // 5
    max_file_jobs: int = 2  # files translated at once; one more is refused (503) until one is done, or waits
    file_chunk: int = 8  # sentences a file hands the batcher at a time: a short request waits for one chunk
    file_ttl_s: float = 3600.0  # a translated file is deleted this long after it was done
    max_file_results: int = 64  # translated files kept for download at most (on disk); the oldest goes first
    # LibreTranslate's /translate (text) and the stream's end also carry quality, flags and calibrated
    # (attnmt.decoding.quality): one more pass of the decoder over each translation, so off unless
    # the operator asks (attnmt serve --quality); /v1/translate asks per request.
    quality: bool = False
    # Office files with macros (.docm, .pptm, .xlsm, or any holding vbaProject.bin) translated, their
    # macros kept: the operator's choice (attnmt serve --allow-macros), as the command line's; else refused.
    allow_macros: bool = False

    def __post_init__(self) -> None:
        for setting in fields(self):
            setattr(self, setting.name, setting_value(setting.name, str(setting.type), getattr(self, setting.name)))
        for key, value in asdict(self).items():
            if isinstance(value, bool):
                continue
            least = 0 if key in ("batch_window_ms", "max_alternatives") else 1
            if not (math.isfinite(value) and value >= least):  # nan >= 1 is False, as nan < 1 is
                raise ConfigError(f"serve setting {key} must be a finite number >= {least}, got {value}")
        if self.file_chunk > self.max_queued:  # a chunk larger than the queue would never be let in
            raise ConfigError(f"serve setting file_chunk must be <= max_queued ({self.max_queued}), got "
                              f"{self.file_chunk}")
        if self.max_file_bytes > MAX_FILE_BYTES:
            raise ConfigError(f"serve setting max_file_bytes must be <= {MAX_FILE_BYTES} (what attnmt.documents "
                              f"translates at most), got {self.max_file_bytes}")
        if self.max_alternatives >= MOST_N_BEST:  # alternatives are the n-best after the first
            raise ConfigError(f"serve setting max_alternatives must be <= {MOST_N_BEST - 1} (the n-best a request "
                              f"may ask for, less the translation itself), got {self.max_alternatives}")


def setting_value(key: str, type_name: str, value: object) -> bool | int | float:
    """``value`` of the serve setting ``key`` as its type (``type_name``) reads it, where it is one: a
    switch a bool (``quality="no"`` was true), a count a whole number of any numeric type (a
    ``file_chunk`` of 1.5 was taken, and failed the first file sent), a number a real number (``"5"``
    was a TypeError); one clear error otherwise."""
    read: bool | int | float | None = None
    if type_name == "bool":
        read, kind = truth_value(value), "true or false"
    elif type_name == "int":
        read, kind = whole_number(value), "a whole number"
    else:
        kind = "a number"
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            read = float(value)
    if read is None:
        raise ConfigError(f"serve setting {key} must be {kind}, got {value!r:.60}")
    return read


class Options(NamedTuple):
    """The decoding options of a request: only requests with equal ones share a batch."""

    decoding: Decoding
    hypotheses: bool = False  # False: translations only; True: each text's Paragraph (n-best, sentences)
    glossary: Glossary | None = None
    prefix: str | None = None
    # "html": HTML fragments or pages, tags carried over (attnmt.documents); "xml": XML fragments so, written
    # as XML (DeepL's tag_handling=xml); "sentences": each text one
    # sentence of a file, its output (translation, None); "weighed": (translation, its word weights)
    format: str = "text"
    # with hypotheses, or a file's sentences: each assessed as its batch is searched (attnmt.decoding.quality)
    quality: bool = False
    threshold: float | None = None  # with quality: where the low_quality flag starts (a file review's)
    # how line breaks are read: as attnmt's and LibreTranslate's clients send them, or as DeepL's split_sentences says
    lines: LineBreaks = LineBreaks.PARAGRAPHS
    tags: TagSplits = NO_SPLITS  # with format "xml": the elements that end a sentence, or never do (DeepL's)


class TooMuch(ValueError):
    """A request over one of the limits; the message says which (each API answers it its own way)."""


# A request's caps.  Each derives from the library's own limit, and is stricter where it is because
# one server's model thread is shared by every client: a wide or long request delays all the others.
MOST_BEAM = MAX_BEAM // 4  # 16: a quarter of attnmt.decoding's widest beam, the rest left to clients
MOST_N_BEST = MOST_BEAM  # hypotheses per text: Decoding takes at most the beam's
# Output tokens a request may ask for (max_length, min_len): what a model of the default shape can
# write at all; a model's own positions (TransformerConfig.longest_input) still cap every output.
MOST_OUTPUT_TOKENS = TransformerConfig.max_positions
PAIR = re.compile(r"^([A-Za-z]{2,3})-([A-Za-z]{2,3})$")


@dataclass
class ServedModel(ModelFitsWrites):
    """One model being served: ``model`` (the inference copy, eval mode) and its tokenizer, whose
    ``fits`` and ``writes`` split sentences as translation does (attnmt.decoding.inputs.ModelFitsWrites).

    ``source``/``target``: its language codes (None where unknown: then LibreTranslate's
    endpoints do not list it).  ``parameters``: the trained model's count (packed layers hold
    their weights outside ``parameters()``; default: counted).  ``loaded_bytes``: how much the
    process's resident memory grew while it was loaded, where the server measured it.
    """

    model: Transformer
    tokenizer: PieceCodec
    name: str = "model"
    source: str | None = None
    target: str | None = None
    parameters: int | None = None
    loaded_bytes: int | None = None
    calibration: Calibration | None = None  # its quality calibration (attnmt.decoding.calibration), if any
    batcher: Batcher | None = field(default=None, repr=False)  # set while the server runs
    batch_observers: list[Callable[[int], None]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if self.parameters is None:
            self.parameters = self.model.num_parameters()
        self.model.eval()

    def assessed_text(self, text: str, translation: str, sentences: dict[str, str]) -> Assessment | None:
        """``text``'s ``translation``, from its ``sentences``' translations, assessed sentence by sentence
        and joined (attnmt.decoding.quality_joined): as trustworthy as its worst sentence; a text with no
        sentence to translate, passed through as it is, quality 1 and no flags, as translate_texts_n_best
        gives it (attnmt.decoding.unread.copy_assessment), a text of spaces alone too, which ``assess``
        gives no Assessment (blank_pair, as POST /translate answers it).  Runs in the model's thread."""
        assessor = self.assessor()  # an empty translation: quality 0, as /v1/translate gives it
        if not sentences:
            found = assessor.assess(self.model, self.tokenizer, [text], [translation])[0]
            return copy_assessment(found) or blank_pair(self.calibration)
        found = joined(assessor.assess(self.model, self.tokenizer, list(sentences), list(sentences.values())))
        return read_whole(found, text, translation, assessor.languages)  # verbatim and language over the whole text

    def plausibility(self, sentences: Sequence[str], translations: Sequence[str]) -> list[float | None]:
        """ModelTranslator.plausibility's, for a file's short labels (attnmt.documents.short_labels), as ``attnmt
        translate`` judges them.  Runs in the model's thread."""
        return ModelTranslator(self.model, self.tokenizer).plausibility(sentences, translations)

    def assessor(self, threshold: float | None = None) -> Assessor:
        """How its translations are assessed: with its calibration, low_quality under ``threshold`` (None:
        the calibration's), the language rule reading its languages where they are known."""
        return Assessor(self.calibration, threshold, languages=Languages(self.source, self.target))

    @property
    def pair(self) -> str | None:
        """``source-target``, e.g. "en-de", where both are known."""
        return f"{self.source}-{self.target}" if self.source and self.target else None

    @property
    def longest_input(self) -> int:
        return self.model.config.longest_input

    @property
    def document_options(self) -> DocumentOptions:
        """How texts are split into sentences: by the rules of the model's source language, which an
        XLIFF file's source-language must name (where the model's is known); a refusal says it is the
        model's (source_lang_asked): a client chooses a model, and with source=auto names no language."""
        return DocumentOptions(source_lang=self.source or DocumentOptions.source_lang,
                               source_lang_known=self.source is not None, source_lang_asked=False)

    def run_batch(self, texts: list[str], options: Options) -> list:
        """Runs in the batcher's model thread: translations, or each text's Paragraph (its n-best
        and its sentences'); plain text is split into sentences as ``attnmt translate`` splits it.
        A file's sentences: (translation, word weights or None), and its Assessment with ``quality``."""
        for observe in self.batch_observers:
            observe(len(texts))
        if options.format in ("sentences", "weighed"):  # a file's (attnmt.server.file_jobs)
            quality = self.assessor(options.threshold) if options.quality else None
            translator = ModelTranslator(self.model, self.tokenizer, options.decoding, glossary=options.glossary,
                                         quality=quality)
            found = translator.translate(texts, [options.format == "weighed"] * len(texts))
            if quality is not None:  # (translation, word weights, its Assessment)
                return list(zip(*found, [translator.assessed.get(text) for text in texts], strict=True))
            return list(zip(*found, strict=True))
        if options.format == "html":  # the target language: its quotes' forms, each translated block's lang
            page = replace(self.document_options, target_lang=self.target)
            return translated_html(self.model, self.tokenizer, texts, options.decoding, options.glossary, page,
                                   options.lines)
        if options.format == "xml":
            return translated_xml(self.model, self.tokenizer, texts, options.decoding, options.glossary,
                                  self.document_options, options.lines, options.tags)
        # the quotes around a sentence in the target language's form (attnmt.documents.quote_forms), in every
        # hypothesis: those of a text with alternatives kept the source's, which its translation alone did not
        target = replace(self.document_options, target_lang=self.target, rewrap=options.lines is LineBreaks.PARAGRAPHS)
        if options.hypotheses or options.prefix is not None:
            found = translate_texts_n_best(self.model, self.tokenizer, texts, options.decoding, target,
                                           options.glossary, options.prefix,
                                           quality=self.assessor() if options.quality else None)
            return found if options.hypotheses else [paragraph.hypotheses[0].text for paragraph in found]
        return translate_texts(self.model, self.tokenizer, texts, options.decoding, target, options.glossary)

    def check_texts(self, named: Sequence[tuple[str, str]], settings: ServeSettings,
                    markup: bool = False) -> None:
        """Raises TooMuch naming the first text over a limit: the texts and characters the server
        documents.  A sentence longer than the model reads is no mistake: translation parts it into
        sentences that fit (attnmt.documents.sentences.fitting_parts), as a LibreTranslate client
        sends long paragraphs; it was refused.  A text of spaces or invisible characters alone
        (text.invisible.blank, a zero-width space, a direction mark) is none either: holding no
        letter, it passes through as it is, quality 1, as any letterless text does (/v1/translate's
        own rule refuses an empty one).  ``markup``: HTML, its nesting depth checked too
        (attnmt.documents.pages.MAX_DEPTH), here so that a page refused never fails the others
        batched with it."""
        if len(named) > settings.max_texts:
            raise TooMuch(f"{len(named)} texts in one request; at most {settings.max_texts}")
        total = sum(characters(text) for _, text in named)
        if total > settings.max_request_chars:
            raise TooMuch(f"the request has {total} characters; at most {settings.max_request_chars}")
        for where, text in named:
            if characters(text) > settings.max_chars:
                raise TooMuch(f"{where} has {characters(text)} characters; at most {settings.max_chars}")
            if markup:
                from attnmt.documents.pages import check_markup  # lxml's parser, needed only here

                try:
                    check_markup(text, where)
                except UserError as error:
                    raise TooMuch(str(error)) from None

    def attention_weights(self, text: str, options: Options) -> int:
        """The most attention weights ``return_attention`` can send for ``text``, known before any
        model work: one trace per sentence the model is sent (``paragraph_sentences`` with the
        request's glossary, split where translation splits), each per layer and head the encoder's
        [S, S] and the decoder's [T, T] and [T, S], S the sentence's pieces, T the longest output
        ``options`` allow (room for its glossary terms included, and for the prefix in the first
        sentence, which alone starts with it) and the end of sentence.  Summed per sentence, not
        sized from the whole text: attention is quadratic in length, and no sentence attends to another."""
        sentences = paragraph_sentences(text, self.document_options, options.glossary, self.fits, self.writes)
        prefix = len(self.tokenizer.encode_target(options.prefix)) if options.prefix else 0
        return sum(self.sentence_attention_weights(sentence, options, prefix if k == 0 else 0)
                   for k, sentence in enumerate(sentences))

    def sentence_attention_weights(self, sentence: str, options: Options, prefix: int) -> int:
        """The attention weights of one sentence's trace (``attention_weights``); ``prefix``: the
        pieces of the prefix it starts with (0 for none)."""
        c, encode = self.model.config, self.tokenizer.encode_target
        source = min(len(self.tokenizer.encode(sentence)), self.longest_input)
        terms = sum(len(encode(term)) for term in options.glossary.matches(sentence)) if options.glossary else 0
        target = 1 + options.decoding.max_output_length(source, self.longest_input, prefix, terms)
        return c.n_heads * (c.encoder_layers * source * source + c.decoder_layers * target * (target + source))

    def health(self) -> dict:
        """What /health says about this model."""
        batcher = self.batcher
        return {"name": self.name, "source": self.source, "target": self.target,
                "vocab_size": self.model.config.vocab_size, "parameters": self.parameters,
                "device": str(next(self.model.parameters()).device), "max_input_tokens": self.longest_input,
                "loaded_bytes": self.loaded_bytes, "batches": batcher.batches if batcher else 0,
                "translated": batcher.batched_texts if batcher else 0, "queued": batcher.queued if batcher else 0}


class Models:
    """The served models, by name and by language pair; the first is the default."""

    def __init__(self, served: Sequence[ServedModel]) -> None:
        if not served:
            raise ConfigError("nothing to serve: give at least one --model")
        self.all = list(served)
        self.by_name: dict[str, ServedModel] = {}
        self.by_pair: dict[tuple[str, str], ServedModel] = {}
        for each in self.all:
            if each.name in self.by_name and each.name == each.pair:  # named by their pair already
                raise ConfigError(f"two models translate {each.pair}: serve one model per language pair")
            if each.name in self.by_name:
                raise ConfigError(f"two models are named {each.name!r}: name them by pair, --model en-de=DIR")
            self.by_name[each.name] = each
            if each.source and each.target:
                if (each.source, each.target) in self.by_pair:
                    raise ConfigError(f"two models translate {each.pair}: serve one model per language pair")
                self.by_pair[each.source, each.target] = each

    @property
    def default(self) -> ServedModel:
        return self.all[0]

    def sources(self) -> list[str]:
        """The source language codes, in the order the models were given."""
        return list(dict.fromkeys(source for source, _ in self.by_pair))

    def targets_of(self, source: str) -> list[str]:
        return [target for s, target in self.by_pair if s == source]

    def codes(self) -> list[str]:
        """Every language code served, source or target."""
        return list(dict.fromkeys(code for pair in self.by_pair for code in pair))


def split_model_argument(argument: str) -> tuple[str | None, str]:
    """``en-de=runs/en_de`` -> ("en-de", "runs/en_de"); ``runs/en_de`` -> (None, "runs/en_de").
    The pair in lower case (``EN-DE`` -> "en-de"), as LibreTranslate's codes are and as its clients
    send them: served as "EN", a client's "en" was not supported."""
    pair, equals, folder = argument.partition("=")
    if equals and PAIR.match(pair):
        return pair.lower(), folder
    if equals and "/" not in pair and not Path(argument).exists():
        raise ConfigError(f"--model {argument}: {pair!r} is not a language pair; write it as SOURCE-TARGET=DIR, "
                          "e.g. en-de=runs/en_de")
    return None, argument


def resident_bytes() -> int:
    """The process's resident memory now (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
