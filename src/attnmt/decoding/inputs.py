"""What a translation starts from: the sentences a caller gives (checked), their glossaries and
prefixes (Guides), and their token ids cut to the model's positions and padded into length-sorted
batches (padded_sources), as attnmt.decoding.translate searches them."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, Protocol, TypeVar

from torch import Tensor

from attnmt.config_ranges import whole_number
from attnmt.decoding import Decoding
from attnmt.decoding.capitals import read_as
from attnmt.decoding.constraints import Terms
from attnmt.decoding.glossary import Glossary, as_glossary
from attnmt.decoding.next_tokens import next_tokens_of
from attnmt.decoding.sentence_edges import sentence_edges
from attnmt.decoding.term_ids import fitting, prefix_ids, target_ids, term_tokens, with_other_forms
from attnmt.decoding.term_numbers import with_numbers
from attnmt.decoding.term_warnings import warn_left_out
from attnmt.decoding.term_weak import german
from attnmt.errors import AttnmtWarning, ConfigError
from attnmt.model import Transformer, check_model
from attnmt.text.data import given_texts, pad_rows
from attnmt.text.encodings import check_encodable
from attnmt.text.invisible import blank
from attnmt.text.terminal_codes import CODE
from attnmt.threads import recheck


class TextCodec(Protocol):
    """What ``translate`` needs of a tokenizer."""

    source_eos: bool  # whether encode ends a source with </s>

    def encode(self, text: str) -> list[int]: ...

    def encode_target(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


T = TypeVar("T")
# One glossary (or prefix) for every sentence, or one per sentence (None: none); a glossary may be
# given as a mapping {source term: target term}.
GivenGlossary = Glossary | Mapping[str, str]
Glossaries = GivenGlossary | Sequence[GivenGlossary | None] | None
Prefixes = str | Sequence[str | None] | None


@dataclass
class Guides:
    """What each input sentence's translation must hold: its glossary and its prefix (or None)."""

    glossaries: list[Glossary | None]
    prefixes: list[str | None]
    left_out: set[str] = field(default_factory=set)  # target terms too long to fit, each warned of once
    missed: set[str] = field(default_factory=set)  # target terms a translation came without, each warned of once
    fewer: set[str] = field(default_factory=set)  # target terms a translation holds fewer times, each warned of once
    too_long: set[str] = field(default_factory=set)  # prefixes that fill a whole translation, each warned of once

    @classmethod
    def of(cls, count: int, glossary: Glossaries = None, prefix: Prefixes = None) -> Guides:
        """``glossary`` and ``prefix`` for each of ``count`` sentences (``translate``); a ConfigError for
        a glossary of another type (``as_glossary``)."""
        if isinstance(glossary, Sequence) and not isinstance(glossary, str):  # one per sentence
            glossaries = [as_glossary(g, f"glossary[{k}]")
                          for k, g in enumerate(each_sentence(glossary, Glossary, count, "glossary"))]
        else:
            glossaries = [as_glossary(glossary)] * count
        prefixes = each_sentence(prefix, str, count, "prefix")
        for k, each in enumerate(prefixes):
            if each is not None and not isinstance(each, str):
                raise ConfigError(f"prefix[{k}]: expected a str or None, got {type(each).__name__}")
        check_encodable(("prefix", each) for each in dict.fromkeys(p for p in prefixes if p))
        return cls(glossaries, prefixes)

    def terms(self, tokenizer: TextCodec, unk_id: int, sentences: Sequence[str], i: int, room: int,
              target_lang: str | None = None) -> Terms:
        """The token ids of the target terms sentence i needs (DataError for one the vocabulary cannot
        write), less those that do not fit into ``room`` output tokens with the others: each left out
        with one warning (``term_ids.fitting``, ``term_warnings.warn_left_out``), as the docs promise, not
        written in part; a term the sentence glues to a bracket or quote, or starts with, may be written so
        (``term_ids.with_other_forms``), and one it holds in another number than given inflected; German's
        rules for a term only where the model's ``target_lang`` is German (term_weak.german).  A sentence with terms
        keeps its numbers in digits as terms too (term_numbers.with_numbers: "Route 66" came out "Sechs Sechs")."""
        glossary = self.glossaries[i]
        if not glossary:
            return []
        targets = with_numbers(tokenizer, glossary, sentences[i], unk_id)
        kept, left_out = fitting(term_tokens(tokenizer, targets, unk_id), room)
        for term in left_out:
            warn_left_out(self.left_out, tokenizer.decode(term), len(term), room, glossary)
        return with_other_forms(tokenizer, kept, sentences[i], glossary.found_in(sentences[i]),
                                glossary.inflected(sentences[i]), glossary.singular(sentences[i]),
                                german(target_lang))

    def prefix_ids(self, tokenizer: TextCodec, unk_id: int, i: int, longest: int) -> list[int]:
        """The token ids sentence i's translation starts with (DataError for a prefix the vocabulary
        cannot write); one warning for a prefix of ``longest`` pieces or more (the model's positions),
        which the length limit cuts, with no room left for the translation of the sentence: a term
        that cannot fit is warned of (``terms``), and the prefix was cut in silence."""
        prefix = self.prefixes[i]
        if not prefix:
            return []
        ids = prefix_ids(tokenizer, prefix, unk_id)
        if len(ids) >= longest and prefix not in self.too_long:
            self.too_long.add(prefix)
            shown = prefix[:40] + ("…" if len(prefix) > 40 else "")
            warnings.warn(f"prefix {shown!r} ({len(ids)} pieces) leaves no room in a translation of at most "
                          f"{longest} pieces (the model's positions): the translation is the prefix's first "
                          f"{longest} pieces alone; shorten the prefix", AttnmtWarning, stacklevel=2)
        return ids


def each_sentence(value: T | Sequence[T | None] | None, kind: type, count: int, name: str) -> list[T | None]:
    """``value`` for each of ``count`` sentences: itself for all (one ``kind``, or None), or one each."""
    if value is None or isinstance(value, kind):
        return [value] * count
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):  # b"Ein" was 3 prefixes
        raise ConfigError(f"{name}: expected a {kind.__name__} (or one per sentence), got {type(value).__name__}")
    if len(value) != count:
        raise ConfigError(f"{name}: got {len(value)} for {count} sentences; give one for all or one each")
    return list(value)


def checked_call(model: object, tokenizer: object, sentences: object, decoding: object, max_tokens: object,
                 max_sentences: object = None) -> list[str]:
    """A Python caller's sentences (given_texts), after ``check_search`` and ``check_tokenizer`` of the
    other arguments; one warning where some hold a terminal's escape codes between their words (those at
    its edges ``translate`` keeps around the translation: attnmt.decoding.sentence_edges), which the package's
    ``attnmt.translate`` (attnmt.documents.sentence_translate) and ``attnmt translate`` carry around their words."""
    check_search(model, decoding, max_tokens, max_sentences)
    check_tokenizer(tokenizer)
    sentences = given_texts(sentences)
    if any(CODE.search(sentence_edges(sentence).body) for sentence in sentences):
        warnings.warn("a sentence holds a terminal's escape codes (\\x1b[...) between its words, which the model reads "
                      "as words: attnmt.translate keeps them around the translation of their words",
                      AttnmtWarning, stacklevel=3)
    return sentences


def check_tokenizer(tokenizer: object) -> None:
    """ConfigError for a ``tokenizer`` argument that is no tokenizer (None, the path of a
    SentencePiece model), before it is used, as ``check_model`` refuses a model: None was an
    AttributeError naming ``encode``, and a path's str.encode read the sentence as the name of a
    codec ("unknown encoding: A dog runs.").  Any object with an ``encode`` and a ``source_eos``,
    what every use of a tokenizer reads first (``encode_inputs``), is one."""
    if not (callable(getattr(tokenizer, "encode", None)) and hasattr(tokenizer, "source_eos")):
        raise ConfigError(f"tokenizer: expected an attnmt tokenizer, got {type(tokenizer).__name__}; "
                          "e.g. model, tokenizer = load_model_dir(path)")


def check_search(model: object, decoding: object, max_tokens: object, max_sentences: object = None) -> None:
    """One clear error for a model that is no Transformer (``check_model``), a decoding that is not a
    Decoding (``check_decoding``) or a batch limit that is no count (``check_batch_limits``): what
    every search is given, checked alike by ``translate`` and the document functions' translator."""
    check_model(model)
    check_decoding(decoding)
    check_batch_limits(max_tokens, max_sentences)


def check_batch_limits(max_tokens: object, max_sentences: object = None) -> None:
    """One clear error for a max_tokens that is not a whole number of at least 1, or a max_sentences
    neither None (what suits the search) nor a whole number of at least 0 (0: no limit); a whole
    number of any numeric type (``whole_number``) is one.  "2" was a TypeError, and -1 a bare
    ValueError, in the middle of the batching; 1.5 was taken."""
    tokens = whole_number(max_tokens)
    if tokens is None or tokens < 1:
        raise ConfigError(f"max_tokens must be a whole number of at least 1, got {max_tokens!r}")
    sentences = whole_number(max_sentences)
    if max_sentences is not None and (sentences is None or sentences < 0):
        raise ConfigError(f"max_sentences must be a whole number of at least 0 (0: no limit) or None (what suits "
                          f"the search), got {max_sentences!r}")


def check_not_sampled(decoding: Decoding, glossaries: Sequence[Glossary | None]) -> None:
    """A ConfigError where ``decoding`` samples and any of ``glossaries`` holds a term, before any
    sentence is searched (``sampling_with_terms``)."""
    if decoding.sampling and any(glossaries):
        raise ConfigError(sampling_with_terms("the glossary", "sampling_topk"))


def check_target_terms(tokenizer: TextCodec, unk_id: int, glossaries: Iterable[Glossary | None]) -> None:
    """A DataError for the first target term of ``glossaries`` that the target vocabulary cannot
    write as given (``term_ids.target_ids``), before any work; each distinct term checked once,
    named where it was first given (``Glossary.place``: a JSONL line's glossary holds --glossary's too)."""
    places: dict[str, str | None] = {}
    for glossary in {id(g): g for g in glossaries if g}.values():
        for source, target in glossary.terms:
            places.setdefault(target, glossary.place(source))
    for target, place in places.items():
        target_ids(tokenizer, target, unk_id, place)


def sampling_with_terms(glossary: str, sampling: str) -> str:
    """Why a glossary and sampling do not go together, each named as its caller gave it ("--glossary",
    "--sampling-topk").  Refused whenever both are given, not only for a sentence that holds a term:
    a run sampled "A cat." and stopped at "A dog.", and a request passed or failed on its text."""
    return (f"{glossary} needs beam search (it steers the search to its terms); sampling draws tokens at random: "
            f"leave out {sampling}, or {glossary}")


def check_decoding(decoding: object) -> None:
    """One clear error for a decoding that is not a Decoding: a dict was an AttributeError deep in
    the search (``translate``, the documents, ``trace_translation``)."""
    if not isinstance(decoding, Decoding):
        raise ConfigError(f"decoding: expected attnmt.Decoding, got {type(decoding).__name__}; "
                          "e.g. Decoding(beam_size=4)")


def length_batches(lengths: Sequence[int], max_tokens: int, max_sentences: int = 0) -> list[list[int]]:
    """Indices of ``lengths``, sorted by length, cut into batches of at most max_tokens padded
    source tokens (sentences × longest) and, unless 0, at most max_sentences sentences; a
    sentence longer than the budget gets a batch alone."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        # Sorted ascending, so sentence i is the longest of current + [i].
        full = max_sentences and len(current) == max_sentences
        if current and (full or (len(current) + 1) * lengths[i] > max_tokens):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def encode_inputs(tokenizer: TextCodec, sentences: Sequence[str], max_len: int, warn: bool = True) -> list[list[int]]:
    """Token ids per sentence ([] for blank ones), truncated to max_len with one warning (none with
    ``warn`` False: a caller reading again what ``translate`` read, and warned of, already).

    The warning counts distinct sentences, blank ones left out: what it can count truly, as callers
    pass either every line (``translate``) or each distinct sentence of the input once (plain text
    split into sentences, documents: a repeated sentence is translated once)."""
    encoded = [[] if blank(s) else tokenizer.encode(s) for s in sentences]
    if warn:
        warn_cut(sentences, encoded, max_len, "sentences translated", "split long lines to translate them whole")
    return [cut(ids, max_len, tokenizer.source_eos) for ids in encoded]


def reads_whole(tokenizer: TextCodec, max_len: int) -> Callable[[str], bool]:
    """Whether the model reads a sentence whole: it has at most ``max_len`` tokens (the model's
    ``longest_part``: its longest_input, past which ``encode_inputs`` would cut it, or the longest
    source it was trained on).  The sentence splitter joins two sentences around a glossary term
    only where this holds (attnmt.documents.sentences.across_terms).  A sentence in capitals is
    measured as the model reads it, in sentence case (``capitals.read_as``): counted in capitals, a
    piece a letter or two, it was parted where the model reads it whole."""
    def pieces(text: str) -> int:
        return len(tokenizer.encode(text))
    return lambda sentence: pieces(read_as(sentence, None, pieces)) <= max_len


# byte_fallback's pieces, one for each UTF-8 byte of a character the vocabulary has no piece for
BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")


def writes_whole(tokenizer: TextCodec, unk_id: int) -> Callable[[str], bool]:
    """Whether the model's target vocabulary writes a text (a symbol: "👍🏽", "©") with pieces of its
    own: no unknown piece (``unk_id``), and no byte piece (byte_fallback's ``<0xF0>``, four of which
    a model has rarely learnt to write for one emoji).  Documents keep a symbol it cannot write
    where it stood (attnmt.documents.symbols): the model, which reads it as unknown, drops it."""
    piece = getattr(tokenizer, "id_to_piece", None)

    def writes(text: str) -> bool:
        ids = tokenizer.encode_target(text)
        return unk_id not in ids and not (piece and any(BYTE_PIECE.fullmatch(piece(i)) for i in ids))
    return writes


class FitsWrites(NamedTuple):
    """Whether a model reads a sentence whole (``fits``: ``reads_whole``) and writes a symbol (``writes``:
    ``writes_whole``): what splitting a text into the sentences it is sent asks of the model."""

    fits: Callable[[str], bool]
    writes: Callable[[str], bool]


def fits_and_writes(model: Transformer, tokenizer: TextCodec) -> FitsWrites:
    """The model's ``fits`` and ``writes``, from its tokenizer, its ``longest_part`` and its unknown
    id: the one pair that translation (ModelTranslator), the server (ServedModel), n-best paragraphs
    and ``attnmt score`` split sentences and keep symbols with; the first use of a document's
    tokenizer, so ConfigError for one that is none (``check_tokenizer``)."""
    check_tokenizer(tokenizer)
    return FitsWrites(reads_whole(tokenizer, longest_part(model)), writes_whole(tokenizer, model.config.unk_id))


def longest_part(model: Transformer) -> int:
    """The most tokens of a sentence sent to ``model`` whole; a longer one is parted first
    (attnmt.documents.sentences.fitting_parts).  Its longest_input, or less where its folder records
    a shorter longest source in training (Transformer.longest_trained: attnmt.trained_lengths): a
    model trained on short sentences writes a few words for a long one it reads whole.  A model
    without the attribute (a user's own translator's: translator_parts.translator_fits) has no record."""
    limit, trained = model.config.longest_input, getattr(model, "longest_trained", None)
    return limit if trained is None else min(limit, trained)


class ModelFitsWrites:
    """The ``fits`` and ``writes`` (``fits_and_writes``) of a class that holds a ``model`` and its
    ``tokenizer`` (ModelTranslator, ServedModel), built once, at their first use, and kept: the
    same two functions at every use, not new ones each time."""

    model: Transformer
    tokenizer: TextCodec

    @cached_property
    def fits_writes(self) -> FitsWrites:
        return fits_and_writes(self.model, self.tokenizer)

    @property
    def fits(self) -> Callable[[str], bool]:
        """Whether the model reads a sentence whole (``reads_whole``)."""
        return self.fits_writes.fits

    @property
    def writes(self) -> Callable[[str], bool]:
        """Whether the model's target vocabulary writes a symbol (``writes_whole``)."""
        return self.fits_writes.writes


def encode_given_targets(tokenizer: TextCodec, translations: Sequence[str], max_len: int) -> list[list[int]]:
    """Token ids per translation a caller gives to be read, not searched (``attnmt attention
    --target``, word alignments), [] for blank ones: cut to max_len with one warning, as
    ``encode_inputs`` cuts sources (a target has no </s> to keep: the decoder writes it)."""
    encoded = [[] if blank(t) else tokenizer.encode_target(t) for t in translations]
    warn_cut(translations, encoded, max_len, "translations given", "shorten them to read them whole")
    return [ids[:max_len] for ids in encoded]


# Where each text given to the work done in this context stands, by its index (``named_places``), if known.
PLACES: ContextVar[Callable[[int], str] | None] = ContextVar("attnmt_input_places", default=None)


@contextmanager
def named_places(place: Callable[[int], str]) -> Iterator[None]:
    """Within the block, the warning for texts cut to the model's length (``warn_cut``) names where
    they stand, ``place(index)``: JSONL lines, each read whole by design (attnmt.cli.translate_jsonl),
    are named by their line ("in.jsonl:3"), which the search several calls below does not know."""
    token = PLACES.set(place)
    try:
        yield
    finally:
        PLACES.reset(token)


def warn_cut(texts: Sequence[str], encoded: Sequence[list[int]], max_len: int, what: str, advice: str) -> None:
    """One warning for the texts longer than max_len tokens (``encode_inputs``, ``encode_given_targets``),
    naming where the first few stand where the caller said (``named_places``)."""
    at = [i for i, ids in enumerate(encoded) if len(ids) > max_len]
    long = list(dict.fromkeys(texts[i] for i in at))
    if long:
        first = long[0][:40] + ("…" if len(long[0]) > 40 else "")
        distinct = len({s for s in texts if not blank(s)})
        place = PLACES.get()
        where = "" if place is None else f", at {', '.join(map(place, at[:5]))}{', …' if len(at) > 5 else ''}"
        warnings.warn(
            f"{len(long)} of the {distinct} distinct {what} were longer than {max_len} tokens "
            f"(the model's max_positions minus 2) and were truncated to their first {max_len} "
            f"tokens (the first starts {first!r}{where}); {advice}", AttnmtWarning, stacklevel=4,
        )


def cut(source: list[T], max_len: int, source_eos: bool) -> list[T]:
    """A source's ids (or pieces) cut to max_len; with ``source_eos`` a cut source still ends with
    its </s>, as the model was trained to read one."""
    if len(source) <= max_len:
        return source
    return source[: max_len - 1] + source[-1:] if source_eos else source[:max_len]


def padded_sources(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], max_tokens: int, max_sentences: int | None,
    beam_size: int = 1,
) -> Iterator[tuple[list[int], Tensor]]:
    """(input indices, padded source ids [B, S] on the model's device) per length-sorted batch,
    blank sentences left out; max_sentences None: what suits the model's search with
    ``beam_size`` rows a sentence (``NextTokens.sentences_per_batch``).  Before each batch, the
    thread count is looked at again where it follows the free cores (``attnmt.threads.recheck``)."""
    device = next(model.parameters()).device
    if max_sentences is None:
        max_sentences = next_tokens_of(model).sentences_per_batch(model.config, beam_size)
    if max_tokens < 1 or max_sentences < 0:
        raise ValueError(f"need max_tokens >= 1 and max_sentences >= 0, got {max_tokens}, {max_sentences}")
    c = model.config
    encoded = encode_inputs(tokenizer, sentences, c.longest_input)
    nonempty = [i for i, ids in enumerate(encoded) if ids]
    for batch in length_batches([len(encoded[i]) for i in nonempty], max_tokens, max_sentences):
        indices = [nonempty[b] for b in batch]
        recheck()  # the thread count, where it follows the free cores (attnmt.threads; at most once a second)
        yield indices, pad_rows([encoded[i] for i in indices], c.pad_id).to(device)
