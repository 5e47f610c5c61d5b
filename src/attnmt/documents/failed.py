"""Texts translated around the sentences the model fails on, as ``translate`` does for sentences.

A document's sentences go to the model in one batched call, each distinct sentence once, so the
SentencesFailed that call raises names sentences by their place in that call and holds their
translations: nothing the caller gave.  ``by_text`` turns it into one about the caller's texts:
``failures`` keyed by input text, ``outputs`` the texts' translations, a text holding a failed
sentence left empty ("", as a blank text's), every other text translated.  A file, translated
whole, fails whole: ``one_file`` raises ``FileFailed``, which names it.  A sentence with words the
translator answers with nothing at all ("", or spaces) keeps its source (``kept_where_empty``), with a
warning naming where it is: written empty, the paragraph, cell or cue lost its text silently.  Word
weights of another shape than its translation's words by its sentence's (``in_order_where_misshapen``)
are put aside for the words' order, with a warning naming where the sentence is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.documents.flat import FlatText, Place, Placed
from attnmt.documents.spans import Weights, identity
from attnmt.documents.translator_parts import in_order
from attnmt.documents.translators import Translator, Wrapper
from attnmt.errors import LeftUntranslated, warn


class FileFailed(SentencesFailed):
    """The model failed on some sentences of the file ``where``, translated whole (``translate_file``,
    ``attnmt translate``): one line naming the file, and nothing written, as a document with holes in
    it is no translation.  As a page's, the file is one text that fails whole: ``failures`` {0: the
    first sentence's error}, ``outputs`` None (what ``translate_file`` returns).  ``one_file`` raises
    it from ``failed`` (its ``__cause__``), the SentencesFailed of the sentences themselves."""

    def __init__(self, where: str, failed: SentencesFailed) -> None:
        first = next(iter(failed.failures.values()))
        super().__init__({0: first})
        self.where = where
        self.count = len(failed.failures)
        self.args = (self.line(f"{type(first).__name__}: {first}"),)

    def line(self, first: str) -> str:
        """Its one line, ``first`` saying what the first failure was: the server writes it without
        the client's text (attnmt.server.client_text), its own words around it as they are."""
        return f"{self.where}: not translated, the model failed on {self.count} of its sentences " \
               f"(the first: {first}); nothing was written"


T = TypeVar("T")
Translating = Callable[[Translator, Sequence[str]], list[str]]  # texts translated with a translator


@dataclass
class Sparing(Wrapper):
    """A Translator over ``translator`` that answers even where the model fails on sentences: those
    come back as their source (without weights: no text is made of them, ``by_text`` empties each that
    holds one, and none is taken for a translation that came back empty, ``kept_where_empty``) and go
    into ``failed``; every answer is kept in ``found``."""

    failed: dict[str, Exception] = field(default_factory=dict)
    found: dict[str, tuple[str, Weights | None]] = field(default_factory=dict)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        try:
            texts, weights = self.translator.translate(sentences, weighed)
        except SentencesFailed as failed:
            texts, weights = failed.outputs
            self.failed.update({sentences[i]: error for i, error in failed.failures.items()})
            texts = [sentences[i] if i in failed.failures else text for i, text in enumerate(texts)]
        self.found.update(zip(sentences, zip(texts, weights, strict=True), strict=True))
        return texts, weights


@dataclass
class Replaying(Wrapper):
    """A Translator that answers from what a Sparing, ``translator``, found, without a search, and
    notes in ``met`` what the model raised on each failed sentence it is asked for."""

    translator: Sparing
    met: list[Exception] = field(default_factory=list)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        sparing = self.translator
        self.met += [sparing.failed[s] for s in sentences if s in sparing.failed]
        found = [sparing.found[s] for s in sentences]
        return [text for text, _ in found], [weights if wanted else None
                                             for (_, weights), wanted in zip(found, weighed, strict=True)]


def by_text(translating: Translating, texts: Sequence[str], translator: Translator) -> list[str]:
    """``translating(translator, texts)``.  Where the model fails on sentences, SentencesFailed with
    ``failures`` {input text index: the first error among its sentences} and ``outputs`` every
    text's translation, "" for those texts: each text is built again alone from the translations
    found (no second search) to learn which of them hold a failed sentence."""
    sparing = Sparing(translator)
    outputs = translating(sparing, texts)
    if not sparing.failed:
        return outputs
    failures: dict[int, Exception] = {}
    for i, text in enumerate(texts):
        replaying = Replaying(sparing)
        translating(replaying, [text])
        if replaying.met:
            failures[i], outputs[i] = replaying.met[0], ""
    failed = SentencesFailed(failures)
    failed.outputs = outputs
    raise failed


def one_text(translating: Translating, text: str, translator: Translator) -> str:
    """``by_text`` of one text (a page, a subtitle file): where the model fails on any of its
    sentences, the text fails whole, SentencesFailed's ``outputs`` then ""."""
    try:
        return by_text(translating, [text], translator)[0]
    except SentencesFailed as failed:
        failed.outputs = ""
        raise


def one_file(translating: Callable[[], T], where: str) -> T:
    """``translating()``, a file translated whole (``translate_file_bytes``, ``attnmt translate``'s
    documents).  Where the model fails on any of its sentences, the file fails whole: FileFailed
    naming ``where``, as the SentencesFailed raised is keyed by the file's distinct sentences,
    nothing its caller can place."""
    try:
        return translating()
    except SentencesFailed as failed:
        raise FileFailed(where, failed) from failed


def kept_where_empty(sources: list[str], texts: list[str], weights: list[Weights | None], placed: Sequence[Placed],
                     name: str | None = None) -> tuple[list[str], list[Weights | None]]:
    """``texts`` and ``weights``, the translations of ``sources`` (each once, all with words), with the
    source, word for word, in place of each translation that is empty or blank: a model that wrote
    nothing but its end, or a user's translator that answered "", left the paragraph empty without a
    word.  Each place of such a sentence among ``placed`` (``translate_flats``' every sentence) is warned
    of (LeftUntranslated), after the file's ``name`` where given (an office file's), and its flat text
    says it kept its source (``mark_source_kept``), so that its format does not mark it as in the
    target language."""
    empty = {source for source, text in zip(sources, texts, strict=True) if not text.strip()}
    if not empty:
        return texts, weights
    for sentence in placed:
        if sentence.source in empty and sentence.flat.seen:
            named = f"{name}: {where(sentence.place)}" if name else where(sentence.place)
            warn(f"{named}: the translation of {sentence.source!r:.80} came back empty, so its source text is kept "
                 "there", category=LeftUntranslated)
    mark_source_kept(placed, set(sources) - empty, empty)
    return ([source if source in empty else text for source, text in zip(sources, texts, strict=True)],
            [identity(len(source.split())) if source in empty and each is not None else each
             for source, each in zip(sources, weights, strict=True)])


def in_order_where_misshapen(sources: Sequence[str], texts: Sequence[str], weights: Sequence[Weights | None],
                             asked: Sequence[bool], every: Sequence[tuple[FlatText, tuple[int, int]]],
                             name: str | None = None) -> list[Weights | None]:
    """``weights``, the translations' of ``sources``, with the words' order (translator_parts.in_order) in
    place of each that was ``asked`` for and is ``misshapen`` (those not asked for are never read), and a
    warning naming the place of the first of ``every`` sentence (its flat text and span there) that is its
    sentence, after the file's ``name`` where given.  A user's translator that gave its weights by subword
    pieces, transposed, or as rows of nothing, had its marks cut to nothing or sent to the sentence's end:
    a bold word's formatting was lost without a word."""
    found = list(weights)
    for number, (source, text, each, wanted) in enumerate(zip(sources, texts, weights, asked, strict=True)):
        if each is None or not wanted or not misshapen(source, text, each):
            continue
        place = next((flat.place for flat, (start, end) in every if flat.text[start:end] == source), None)
        named = f"{name}: {where(place)}" if name else where(place)
        warn(f"{named}: the word weights given for {source!r:.80} are {len(each)} rows of "
             f"{max(map(len, each), default=0)}, not one per word of its translation ({len(text.split())}) by one "
             f"per word of the sentence ({len(source.split())}), so its formatting is placed by the words' order")
        found[number] = in_order(source, text)
    return found


def misshapen(source: str, text: str, weights: Weights) -> bool:
    """Whether ``weights`` cannot be a model's word weights of ``text`` translating ``source``: rows (but
    none at all, FoundTranslations' weights for no word) not one per word of ``text``, or one longer than
    ``source``'s words, or all of them empty where it has words.  A row shorter than those is a model's
    that cut an over-long sentence (attnmt.documents.spans.Projector)."""
    sources, rows = len(source.split()), [len(row) for row in weights]
    if not rows:
        return False
    return len(rows) != len(text.split()) or max(rows) > sources or (sources > 0 and max(rows) == 0)


def where(place: Place | None) -> str:
    """A sentence's place as a warning names it: an archive's member and paragraph, a text file's line."""
    if place is None:
        return "a sentence"
    return f"{place.part}, paragraph {place.number}" if place.part else f"line {place.number}"


def mark_source_kept(placed: Sequence[Placed], translated: set[str], kept: set[str]) -> None:
    """Each flat text among ``placed`` whose sentences with words all keep their source (``kept``;
    none of them ``translated``) says so (FlatText.source_kept): its format then leaves it in the
    source's language (a page's ``lang``, a Word run's ``w:lang``, an XLIFF target not written);
    one with some of each says that (FlatText.partly_kept: an XLIFF target still to be translated),
    and where its kept ones are (FlatText.kept_sentences: an inline element around one alone keeps
    its language).  A sentence in neither passed through (no letters) and tells nothing."""
    sentences: dict[int, list[Placed]] = {}
    flats: dict[int, FlatText] = {}
    for sentence in placed:
        if sentence.source in translated or sentence.source in kept:
            flats[id(sentence.flat)] = sentence.flat
            sentences.setdefault(id(sentence.flat), []).append(sentence)
    for key, each in sentences.items():
        held = [sentence.source in kept for sentence in each]
        flats[key].source_kept, flats[key].partly_kept = all(held), any(held) and not all(held)
        flats[key].kept_sentences = [sentence.span for sentence in each if sentence.source in kept]
