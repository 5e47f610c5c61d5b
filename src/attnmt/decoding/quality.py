"""Quality estimation: how far to trust each translation, from one teacher-forced pass over it.

    source, translation ─ forced pass ─ token log-probs, cross-attention ─ Features ─┬─ flags (rules)
                                                                                      └─ quality in [0, 1]

Every number comes from the model itself, with no reference: the probability it gives each
piece of the translation after the pieces before it (and EOS at the end: where neither side ends
with a final mark, ending there or after a full stop, attnmt.decoding.quality_ending), the share of source
words its cross-attention leaves unread and how thinly that attention is spread, the length
ratio, repeated word n-grams, words copied from the source, and unknown pieces.  The same pass
scores attnmt's own output (translate) and a translation written elsewhere (``assess``), so a
sentence gets the same number either way;
``attnmt score`` also reads a translation written elsewhere against the model's own translation
of its source (attnmt.decoding.elsewhere).
A search has computed most of that pass already (``assess_searched``): the encoder output, and
the log-probs of the ids it wrote, which are the pass's wherever the text reads as those ids
again; the decoder then runs again only up to its last cross-attention.

``quality`` is the estimated probability that the translation is acceptable (sentence chrF
against a reference at least the calibration's threshold): the features' predicted chrF, mapped
to that probability, fitted per model by ``attnmt calibrate`` (attnmt.decoding.calibration).  A model without
a calibration gets the geometric mean of its piece probabilities, exp(mean log-prob), marked
``calibrated: false``: a number in [0, 1] that ranks, but is no probability of anything.

The flags are rules a person can check, each independent of the fit (the words and attention they
read are measured in attnmt.decoding.quality_measures, which holds LOOP_RUNS and UNREAD; the Features
they read, COPIED_SHARE and UNTRANSLATED_* are in attnmt.decoding.quality_features):

    copied        at least COPIED_SHARE of the translation's words (and at least two), the source's names and
                  numbers kept as written aside (Features.copies), are source words (not those of a compound the
                  translation joins with hyphens, "Team-Meeting": quality_measures.compounds_formed), or
                  COPIED_RUN of them in a row, in lower case (quality_measures.copied_run: an English tail)
                  or, for a source of one word given back, one the source's vocabulary writes in lower case and
                  the target's does not write (quality_copy: "Snow." for "Snow.", not "Taxi." or "Berlin.")
                  (a text of several sentences: of all their words, attnmt.decoding.quality_joined; a word a
                  glossary or a prefix forced counts as translated, attnmt.decoding.dictated)
    repetition    a word n-gram (n <= 4) LOOP_RUNS times back to back, a word 4-gram twice, a word
                  3-gram twice back to back, or a loop of letters in a word, more than in the source
                  (quality_measures.looped), a run of symbols longer than the source's
                  (quality_measures.symbols_looped), or a word twice in a row ("der der":
                  quality_measures.words_doubled)
    untranslated  at least UNTRANSLATED_WORDS source words, and UNTRANSLATED_SHARE of them,
                  get less than UNREAD attention from the whole translation, or it ends where a
                  sentence goes on (a comma, a colon, an article before its full stop) and the source does
                  not (quality_measures.cut_short, attnmt.decoding.quality_unfinished), or it is at most
                  SHORT_SHARE of the calibration's usual length (quality_features: a part dropped)
    added         ADDED_RUN translation words in a row attend mostly to the source's end (its final marks and
                  </s>), as words the source does not say do (a clause added: quality_measures.added), or its last
                  2 to 4, the first of them reading that end, are words the model did not expect (quality_added),
                  or 3 to 6 within it, reading source words the others translate, that the model did not expect
                  and that the source makes no likelier than no source does (quality_within: a second pass with
                  no source, over those translations alone), or 1 or 2 within it that the source makes far less
                  likely and without which the other words are no less likely (a third pass without them)
    length        translation pieces / source pieces outside the calibration's range (uncalibrated: LENGTH_RANGE)
                  by more than a piece under it or two over it (quality_features.LENGTH_SLACK)
    unknown       the source or the translation holds a piece the vocabulary does not know, one with more
                  than punctuation in it (a word, a number, "€": quality_features.unknown_pieces)
    verbatim      the URLs, e-mail addresses, file names, placeholders, tags or numbers differ
                  (attnmt.decoding.verbatim; a text of several sentences: read whole,
                  attnmt.decoding.quality_joined)
    name          a name the source writes with a capital (not a common word of the model's source vocabulary)
                  is missing from the translation, where both languages are known (attnmt.decoding.quality_names)
    language      the translation is clearly in another language than the target language, where that
                  is known (``languages``; attnmt.decoding.quality_language), or in the source's language,
                  where both are known, on fewer words (quality_language.in_source_language)
    negation      one of the source and the translation is negated and the other is not, where both
                  languages are known and it is clear (attnmt.decoding.quality_negation)
    person        the translation's pronouns speak of another person ("my" as "dein", "we" as "Sie"), where
                  both languages are known and it is clear (attnmt.decoding.quality_person)
    question      one of the source and the translation asks (a question mark of any script) and the other
                  does not: a question translated as a statement (quality_measures.question_differs)
    punctuation   the source ends with a final mark (a full stop, an exclamation mark) and the translation
                  with none (quality_measures.stop_lost)
    low_quality   quality under the threshold (calibrated: the calibration's; else LOW_QUALITY)

An empty translation of a source with text (``blank``, or read as no piece) has no pass to read:
what gives translations out (``Assessor``: translate, the server, a review; ``attnmt score``) gives
it quality 0 and the flag ``empty`` (EMPTY), and ``low_quality`` under the threshold.  A text with
no letter passed through as it is gets quality 1 and no flags (``passes_through``; ``blank_pair``
where no piece of it is read), as does one of URLs, e-mail addresses and file names alone
(attnmt.decoding.unread.copy_assessment).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, Decimal

import torch

from attnmt.decoding import MAX_TOKENS, Decoding
from attnmt.decoding.capitals import read_pair
from attnmt.decoding.dictated import NOTHING, Dictated, undictated_pair
from attnmt.decoding.forced import ForcedPass, forced_passes, searched_passes
from attnmt.decoding.inputs import TextCodec, check_tokenizer, cut
from attnmt.decoding.next_tokens import shortlisted
from attnmt.decoding.penalties import Penalties
from attnmt.decoding.quality_copy import source_word_kept, target_words
from attnmt.decoding.quality_ending import mark_written, with_stop_read
from attnmt.decoding.quality_features import Features, WholeReading, features_of, rules_broken
from attnmt.decoding.quality_language import UNKNOWN, Languages
from attnmt.decoding.quality_measures import word_probabilities
from attnmt.decoding.quality_names import common_words, name_lost
from attnmt.decoding.quality_options import check_assessing
from attnmt.decoding.quality_within import with_source_unread
from attnmt.decoding.state import Recording
from attnmt.decoding.translate import SearchedBatch
from attnmt.errors import ConfigError
from attnmt.model import Transformer, check_model
from attnmt.text.data import given_pairs
from attnmt.text.invisible import blank

FLAGS = ("copied", "repetition", "untranslated", "added", "length", "unknown", "verbatim", "name", "language",
         "negation", "person", "question", "punctuation", "low_quality")
LENGTH_RANGE = (0.4, 2.5)  # pieces of translation per source piece, where no calibration says better
LOW_QUALITY = 0.5
EMPTY = "empty"  # the flag of an empty translation of a source with text (``empty_translation``)


@dataclass
class Assessment:
    """A translation's quality in [0, 1], its flags (names from FLAGS), and each word's probability."""

    quality: float
    flags: list[str]
    calibrated: bool
    words: list[tuple[str, float | None]] = field(default_factory=list)  # word_probabilities
    features: Features | None = None
    dictated: Dictated = NOTHING  # what the search was made to write (assessment_of), which rules read apart
    # What quality_joined.read_whole's rules read of it whole and found, which it takes where it reads the same again
    whole: WholeReading | None = field(default=None, compare=False, repr=False)

    def fields(self) -> dict:
        """What output formats carry: quality (4 decimals, cut down: shown_quality), flags, calibrated."""
        return {"quality": float(shown_quality(self.quality)), "flags": self.flags, "calibrated": self.calibrated}


def shown_quality(quality: float, decimals: int = 4) -> str:
    """``quality`` with ``decimals`` decimals, cut down rather than rounded: a figure shown beside
    ``low_quality`` never reaches the threshold it is under (0.49996 shows 0.4999, not 0.5000).  From the
    float's shortest decimal (repr), so 0.29 shows 0.2900, not 0.2899."""
    return str(Decimal(repr(float(quality))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_DOWN))


def low_quality_threshold(calibration: attnmt.decoding.calibration.Calibration | None,
                          threshold: float | None = None) -> float:
    """Where ``low_quality`` starts: ``threshold`` where given, else the calibration's, else LOW_QUALITY."""
    if threshold is not None:
        return float(threshold)  # a NumPy number or a 0-d tensor, as check_threshold takes it: compared as a float
    return calibration.threshold if calibration else LOW_QUALITY


def flags_of(features: Features, quality: float, calibration: attnmt.decoding.calibration.Calibration | None,
             threshold: float | None = None) -> list[str]:
    """The names of the rules (module docstring) that a translation with ``features`` breaks;
    ``threshold``: low_quality's (``low_quality_threshold``)."""
    broken = rules_broken(features, *((calibration.length_range, calibration.length_center) if calibration
                                      else (LENGTH_RANGE,)))
    broken["low_quality"] = quality < low_quality_threshold(calibration, threshold)
    return [name for name in FLAGS if broken[name]]


def assess(model: Transformer, tokenizer: TextCodec, sources: Sequence[str | bytes],
           translations: Sequence[str | bytes], calibration: attnmt.decoding.calibration.Calibration | None = None,
           max_tokens: int = MAX_TOKENS, threshold: float | None = None,
           languages: Languages = UNKNOWN, dictated: Sequence[Dictated] = ()) -> list[Assessment | None]:
    """An Assessment of each translation of each source (None where either is ``blank``, spaces or
    invisible characters alone), from one teacher-forced pass over each pair; ``calibration``
    (attnmt.decoding.calibration) turns the features into a calibrated quality, else it is
    exp(mean log-prob), ``calibrated`` false.  A pair with a side read as no piece has no pass
    (``unread_pair``: quality 1 for a copy with no letter, else 0).  A source in capitals and its
    translation in capitals are read in sentence case, as translate reads them (``capitals.read_pair``).
    ``threshold``: where low_quality starts (``flags_of``); ``languages``: the sources' and the
    translations' (quality_language.Languages), where known, which the language rule reads; ``dictated``:
    what a glossary or a prefix made each translation hold (attnmt.decoding.dictated: ``assessment_of``;
    none where not given).  ConfigError
    (a ValueError) where ``sources`` and ``translations`` are no lists of texts, or not one translation a
    source, for an option it cannot take (``check_assessing``), and for a model that is no Transformer
    (``check_model``) or a tokenizer that is none (``check_tokenizer``)."""
    check_model(model)
    check_tokenizer(tokenizer)
    check_assessing(calibration, threshold, max_tokens, languages)
    languages = Languages(*languages)  # ("en", "de") as given is Languages("en", "de")
    sources, translations = given_pairs(sources, translations)
    if dictated and len(dictated) != len(sources):
        raise ConfigError(f"dictated: got {len(dictated)} for {len(sources)} sources; give one Dictated a source")
    given = translations  # as written: the words an Assessment reports (``words_as_given``)
    pieces = lambda text: len(tokenizer.encode(text))  # noqa: E731 - as translate reads a line in capitals
    pairs = [read_pair(s, t, pieces, tokenizer.encode_target) for s, t in zip(sources, translations, strict=True)]
    sources, translations = [s for s, _ in pairs], [t for _, t in pairs]
    c = model.config
    source_ids = [[] if blank(s) else cut(tokenizer.encode(s), c.longest_input, tokenizer.source_eos) for s in sources]
    target_ids = [translation_ids(tokenizer, t, c.longest_input) for t in translations]
    found: list[Assessment | None] = [None] * len(sources)
    passes = with_stop_read(model, tokenizer, dict(forced_passes(model, source_ids, target_ids, max_tokens)), sources,
                            translations, max_tokens)  # a translation's end without a full stop (quality_ending)
    passes = with_source_unread(model, tokenizer, passes, sources, translations, max_tokens, dictated)  # quality_within
    for i, forced in passes.items():
        found[i] = assessment_of(forced, tokenizer, sources[i], translations[i], c.unk_id, calibration, threshold,
                                 languages, dictated[i] if dictated else NOTHING)
    found = [unread_pair(s, t, bool(ids), calibration, threshold, bool(sids)) if a is None else a
             for a, s, t, ids, sids in zip(found, sources, translations, target_ids, source_ids, strict=True)]
    return [a if read == text else words_as_given(a, text) for a, read, text in zip(found, translations, given,
                                                                                   strict=True)]


def words_as_given(assessment: Assessment | None, translation: str) -> Assessment | None:
    """``assessment`` with its words as ``translation`` writes them: a translation in capitals is read in
    sentence case (``capitals.read_pair``: only the case changes), and its words are reported in its own capitals."""
    if assessment is None or not assessment.words:
        return assessment
    return replace(assessment, words=[(word, p) for word, (_, p) in zip(translation.split(), assessment.words,
                                                                          strict=True)])


def translation_ids(tokenizer: TextCodec, translation: str, longest_input: int) -> list[int]:
    """The ids a translation is read as ([] for a ``blank`` one, invisible characters alone too): its
    text encoded again, so that a translation gets the same assessment from the search that wrote
    it and from ``assess``."""
    return [] if blank(translation) else tokenizer.encode_target(translation)[: longest_input - 1]


def assessment_of(forced: ForcedPass, tokenizer: TextCodec, source: str, translation: str, unk_id: int,
                  calibration: attnmt.decoding.calibration.Calibration | None, threshold: float | None,
                  languages: Languages = UNKNOWN, dictated: Dictated = NOTHING) -> Assessment:
    """The Assessment of ``translation`` of ``source`` from its ForcedPass (``assess``'s arguments);
    ``dictated``: the prefix and glossary terms the search was made to write, which are the user's
    words, not the model's: their pieces' probabilities and their words are left out of the features
    (attnmt.decoding.dictated)."""
    source_pieces = cut(tokenizer.pieces(source), len(forced.source), tokenizer.source_eos)
    spans = tokenizer.target_spans(translation)[: len(forced.target)]  # forced.target: translation_ids
    features = features_of(forced, source, translation, source_pieces, unk_id, languages,
                           [translation[begin:end] for begin, end in spans], dictated, spans)
    if features.stop_lost and not mark_written(tokenizer, source, unk_id):
        features = replace(features, stop_lost=False)  # the model cannot write the mark it lost (quality_ending)
    common = common_words(tokenizer)
    lost = name_lost(*undictated_pair(source, translation, dictated), languages, common)
    kept = not dictated.spans(translation) and source_word_kept(source, translation, common,
                                                                target_words(tokenizer.target_spans))
    features = replace(features, name_lost=lost, source_word_kept=kept)  # read with the model's vocabularies
    if passes_through(source, translation):  # copied, never the model's: no word of it has a probability (None)
        return Assessment(1.0, [], calibration is not None, word_probabilities(translation, [], []), features)
    words = word_probabilities(translation, spans, [math.exp(lp) for lp in forced.log_probs])
    quality = calibration.quality(features) if calibration else geometric_mean_probability(features)
    return Assessment(quality, flags_of(features, quality, calibration, threshold), calibration is not None, words,
                      features, dictated)


def passes_through(source: str, translation: str) -> bool:
    """Whether ``translation`` is ``source`` as it is, and ``source`` has no letter (numbers,
    punctuation): what attnmt passes through untranslated (attnmt.documents.flat.has_words).  The
    copy is its own reference (chrF 100): quality 1, no flags, where the model, never trained to
    copy, gave "12345" 0.001."""
    return translation.strip() == source.strip() and not any(ch.isalpha() for ch in source)


def geometric_mean_probability(features: Features) -> float:
    """An uncalibrated model's quality: exp(mean log-prob), 0.0 where that is NaN (a broken model's)."""
    return 0.0 if math.isnan(features.mean_log_prob) else math.exp(features.mean_log_prob)


def assess_searched(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], batch: SearchedBatch,
                    translations: Sequence[Sequence[str]],
                    calibration: attnmt.decoding.calibration.Calibration | None = None, max_tokens: int = MAX_TOKENS,
                    threshold: float | None = None,
                    languages: Languages = UNKNOWN) -> list[list[Assessment | None]]:
    """``assess`` of each hypothesis of a searched batch (``translations[k]``: the texts of
    sentence ``batch.indices[k]``'s hypotheses), the same numbers up to float rounding, from what
    the search computed (``searched_passes``): only the decoder runs again, and where the search
    scored the very ids ``assess`` reads the text as, only up to its last cross-attention, or not
    at all where the search also recorded that attention (``Hypothesis.attention``).  What the search
    was made to write (``SearchedBatch.dictated``: a prefix, glossary terms) is the user's, not the
    model's: ``assessment_of`` leaves it out of the features.  A model whose
    step rounds its cache to float16 (``Transformer.float16_cache``: int8) runs the whole pass: its
    search's log-probs differ from the pass's, and translate --int8 gave its own output a quality
    0.006 away from score --int8's."""
    c = model.config
    pairs = [(k, j) for k, texts in enumerate(translations) for j in range(len(texts))]
    targets = [translation_ids(tokenizer, translations[k][j], c.longest_input) for k, j in pairs]
    exact = not model.float16_cache  # the search's numbers are a forced pass's (Transformer.float16_cache)
    languages = Languages(*languages)
    known = [batch.model_log_probs(k, j) if exact and batch.hypotheses[k][j].tokens == target else None
             for (k, j), target in zip(pairs, targets, strict=True)]
    recorded = [batch.hypotheses[k][j].attention if lp is not None else None
                for (k, j), lp in zip(pairs, known, strict=True)]
    found: list[list[Assessment | None]] = [[None] * len(texts) for texts in translations]
    with torch.inference_mode():
        passes = dict(searched_passes(model, batch, [k for k, _ in pairs], targets, known, max_tokens, recorded))
        texts = [translations[k][j] for k, j in pairs]
        read = [sentences[batch.indices[k]] for k, _ in pairs]
        over_memory = lambda ps, ids: searched_passes(model, batch, [pairs[p][0] for p in ps], ids,  # noqa: E731
                                                      [None] * len(ids), max_tokens)  # not encoded again
        passes = with_stop_read(model, tokenizer, passes, read, texts, max_tokens, over_memory)
        dictated = [batch.dictated_in(k) for k, _ in pairs]
        for p, forced in with_source_unread(model, tokenizer, passes, read, texts, max_tokens, dictated).items():
            k, j = pairs[p]
            found[k][j] = assessment_of(forced, tokenizer, sentences[batch.indices[k]], translations[k][j], c.unk_id,
                                        calibration, threshold, languages, batch.dictated_in(k))
    return found


@dataclass
class Assessor:
    """How to assess translations, ``assess``'s options; translate_n_best (attnmt.decoding.translate)
    is handed one to assess its hypotheses batch by batch as the search finds them."""

    calibration: attnmt.decoding.calibration.Calibration | None = None
    threshold: float | None = None  # where low_quality starts (``flags_of``)
    max_tokens: int = MAX_TOKENS
    languages: Languages = UNKNOWN  # the sources' and the translations', where known (``assess``)

    def __post_init__(self) -> None:
        check_assessing(self.calibration, self.threshold, self.max_tokens, self.languages)
        self.languages = Languages(*self.languages)  # ("en", "de") as given is Languages("en", "de")

    def assess(self, model: Transformer, tokenizer: TextCodec, sources: Sequence[str | bytes],
               translations: Sequence[str | bytes]) -> list[Assessment | None]:
        """``assess``'s Assessments, and ``empty_translation``'s where a source with text has a blank
        translation: translate's tsv and jsonl, the server and a review give a quality wherever the source has text."""
        sources, translations = given_pairs(sources, translations)
        found = assess(model, tokenizer, sources, translations, self.calibration, self.max_tokens, self.threshold,
                       self.languages)
        return with_empty(found, sources, translations, self.calibration, self.threshold)

    def recording(self, model: Transformer, decoding: Decoding) -> Recording | None:
        """What a search with ``decoding`` records for ``searched``: each token's cross-attention (Recording) where
        ``assess_searched`` takes the search's log-probs as the pass's and reads it; None where they are not the
        pass's (the step's cache in float16, int8; a penalty, a shortlist: SearchedBatch.model_log_probs): the pass
        computes that attention itself, and a copy of the weights at every step would be kept for nothing."""
        taken = not model.float16_cache and Penalties.of(decoding) is None and not shortlisted(model)
        return Recording() if taken else None

    def searched(self, model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], batch: SearchedBatch,
                 translations: Sequence[Sequence[str]]) -> list[list[Assessment | None]]:
        """``assess_searched``'s Assessments, with ``empty_translation``'s as ``Assessor.assess``."""
        found = assess_searched(model, tokenizer, sentences, batch, translations, self.calibration, self.max_tokens,
                                self.threshold, self.languages)
        return [with_empty(each, [sentences[i]] * len(texts), texts, self.calibration, self.threshold)
                for i, texts, each in zip(batch.indices, translations, found, strict=True)]


def empty_translation(calibration: attnmt.decoding.calibration.Calibration | None,
                      threshold: float | None = None, flags: Sequence[str] = (EMPTY,)) -> Assessment:
    """The Assessment of an empty translation of a source with text, which no forced pass reads:
    the most obvious broken translation, quality 0, ``flags`` (the flag EMPTY) and, as any quality
    under the threshold (``low_quality_threshold``) gets, ``low_quality``."""
    low = 0.0 < low_quality_threshold(calibration, threshold)
    return Assessment(0.0, [*flags, "low_quality"] if low else [*flags], calibration is not None)


def unread_pair(source: str, translation: str, translation_read: bool,
                calibration: attnmt.decoding.calibration.Calibration | None,
                threshold: float | None = None, source_read: bool = True) -> Assessment | None:
    """The Assessment of a pair ``assess`` has no pass for: ``blank_pair``'s for a copy with no letter
    or where neither side is read; None where a side is ``blank`` (``with_empty``); else quality 0, as
    nothing vouches for a pair the model reads no piece of one side of, and ``empty`` where that is the
    translation ("\u2581", SentencePiece's space, alone: ``translation_read`` false)."""
    if source.strip() and (passes_through(source, translation) or not (source_read or translation_read)):
        return blank_pair(calibration)
    if blank(source) or blank(translation):
        return None
    words = word_probabilities(translation, [], [])  # no word of it was read: each one's probability None
    return replace(empty_translation(calibration, threshold, [] if translation_read else [EMPTY]), words=words)


def blank_pair(calibration: attnmt.decoding.calibration.Calibration | None) -> Assessment:
    """The Assessment of a blank line given as its own blank translation, or of a line the model
    reads as no piece given as itself (``unread_pair``): a copy, its own reference (``passes_through``):
    quality 1, no flags, as the server answers for ""."""
    return Assessment(1.0, [], calibration is not None)


def with_empty(found: Sequence[Assessment | None], sources: Sequence[str], translations: Sequence[str],
               calibration: attnmt.decoding.calibration.Calibration | None,
               threshold: float | None = None) -> list[Assessment | None]:
    """``found`` (one Assessment or None a pair of ``sources`` and ``translations``), with
    ``empty_translation``'s in place of None where the source has text and the translation is
    ``blank`` (spaces and invisible characters alone: a zero-width space is no translation); None
    stays for a blank pair, which has nothing to assess."""
    return [empty_translation(calibration, threshold) if a is None and not blank(s) and blank(t) else a
            for a, s, t in zip(found, sources, translations, strict=True)]


# The module of the annotations' Calibration, imported last (typing.get_type_hints reads the annotations):
# it imports this module, whose names it takes must exist by then.
import attnmt.decoding.calibration  # noqa: E402
