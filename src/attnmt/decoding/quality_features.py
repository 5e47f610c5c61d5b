"""What quality estimation reads of one translation (attnmt.decoding.quality): the Features of its
teacher-forced pass (``features_of``), the regression's inputs made of them (``Features.inputs``,
``input_names``, ``segments``), and the rules besides low_quality that they break (``rules_broken``,
with the thresholds COPIED_SHARE and UNTRANSLATED_*).  attnmt.decoding.calibration fits on these inputs
and attnmt.decoding.elsewhere reads them as well; the flags, the quality and the passes are quality's.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Sequence, Set
from dataclasses import dataclass, field, fields
from itertools import zip_longest
from typing import TYPE_CHECKING

from attnmt.decoding.dictated import (
    NOTHING,
    Dictated,
    counted_log_probs,
    dictated_pieces,
    undictated,
    verbatim_differs,
)
from attnmt.decoding.fronting import verb_third
from attnmt.decoding.quality_added import tail_added
from attnmt.decoding.quality_language import UNKNOWN, Languages, in_other_language, in_source_language, profile_of
from attnmt.decoding.quality_measures import (
    added,
    attention_spread,
    compounds_formed,
    copied_run,
    cut_short,
    end_attention,
    ends_sentence,
    final_character,
    looped,
    names_of,
    question_differs,
    repeated_share,
    stop_lost,
    symbols_looped,
    unread_words,
    words_doubled,
    words_of,
)
from attnmt.decoding.quality_negation import negation_differs
from attnmt.decoding.quality_person import person_differs
from attnmt.decoding.quality_unfinished import unfinished
from attnmt.decoding.quality_within import added_within

if TYPE_CHECKING:  # forced imports translate, which imports quality, which imports this module
    from attnmt.decoding.forced import ForcedPass

COPIED_SHARE = 0.6
UNTRANSLATED_WORDS = 2
UNTRANSLATED_SHARE = 0.25
# Pieces a translation may lie under and over the length rule's range by (``Features.out_of_length``): one piece
# moves a short sentence's ratio far ("Help!" as "Hilfe!": 2 pieces for 4, under the demo model's 0.51; "He quit
# his job." as "Er hat seinen Job gekündigt.": 14 for 6, over its 2.14), and a long one's hardly.  Over by more:
# German's perfect and separable verbs lengthen a short sentence, and a clause added is the ``added`` rule's too.
LENGTH_SLACK = (1, 2)
# A translation this share of the usual length or shorter (pieces per source piece against the calibration's
# length_center), a piece of LENGTH_SLACK's under it aside, leaves out part of its source (``Features.too_short``):
# on the demo model, none of 519 good pairs (test_2016_flickr references, the held-out news and software ones) is
# that short, and the untranslated flag caught 31 % of the test references with a phrase dropped instead of 22 %,
# 87 % of those with their second half cut instead of 74 % (benchmarks/results/quality_labelled_xeon.txt).
SHORT_SHARE = 0.6
# A source of at most this many words is very short: a model trained on longer sentences doubts that its
# translation ends so soon, and the final mark after two words is its least likely piece (``short_ending``).
SHORT_SOURCE = 4
# ... and where its final mark gives this share of its attention to the source's end, it reads the source's own
# mark there (``short_ending``): on the demo model, 0.50 to 0.97 for 17 of 20 right short translations (a reordered
# one, "Spielende Kinder.", 0.03), 0.00 to 0.24 for 4 cut ones ("Ein Junge." for "A boy jumps.": 0.01).
ENDING_READ = 0.5


# What the verbatim rule reads (dictated.verbatim_differs' arguments): the source, the translation, what was dictated,
# the target's and the source's languages.
VerbatimRead = tuple[str, str, Dictated, str | None, str | None]


@dataclass(frozen=True)
class WholeReading:
    """What the verbatim and the language rule read of a text and its translation (``read``), and what they found:
    quality_joined.read_whole takes it where it reads the very same again.  ``language`` None: not read."""

    read: VerbatimRead
    verbatim: bool
    language: bool | None


@dataclass
class Features:
    """What one forced pass says about one translation; the first six and the attention's spread
    (ATTENTION) are among the regression's inputs (``Features.inputs``)."""

    mean_log_prob: float  # mean over the translation's pieces and EOS (forced ones: counted_log_probs)
    min_log_prob: float  # the least likely piece (or EOS), of the same
    eos_log_prob: float  # how likely the translation is to end where it ends (low for a cut one)
    unread: float  # share of source words the cross-attention leaves unread (< UNREAD)
    repeated: float  # share of the translation's word bigrams that repeat an earlier one
    copied: float  # share of the translation's words that are source words (a forced word: not, features_of)
    length_ratio: float  # translation pieces / source pieces (no EOS)
    unread_words: int = 0
    loop: bool = False
    unknown: int = 0  # unknown pieces, source and translation, but those of punctuation alone (unknown_pieces)
    words: int = 0  # words of the translation
    # How the last decoder layer's cross-attention (heads averaged) spreads (``attention_spread``):
    attention_entropy: float = 0.0  # over the source, per translation piece: 0 one source piece, 1 all alike
    coverage: float = 0.0  # mean over source pieces of log min(1, the attention each gets): 0 when all are read
    source_entropy: float = 0.0  # over the translation, per source piece: 0 read at one place, 1 everywhere
    verbatim: bool = False  # URLs, addresses, placeholders, tags or numbers differ (verbatim.differs): a rule
    language: bool = False  # clearly not in the target language (quality_language.in_other_language): a rule
    negation: bool = False  # one side negated, the other not (quality_negation.negation_differs): a rule
    person: bool = False  # another person's pronouns (quality_person.person_differs): a rule
    question: bool = False  # one side asks, the other not (quality_measures.question_differs): a rule
    copied_run: bool = False  # words in a row copied from the source (quality_measures.copied_run): a rule
    source_word_kept: bool = False  # a one-word source given back (quality_copy.source_word_kept, read by quality)
    cut_short: bool = False  # ends where the source's sentence goes on (quality_measures.cut_short,
    # quality_unfinished.unfinished): a rule
    stop_lost: bool = False  # ends without the source's final mark (quality_measures.stop_lost): a rule
    name_lost: bool = False  # a name of the source missing (quality_names.name_lost, read by quality): a rule
    names: int = 0  # the translation's words that are the source's names, kept as written (quality_measures.names_of)
    numbers: int = 0  # the translation's words with a digit that the source writes too, kept (``numbers_kept``)
    added: bool = False  # words the source does not say (quality_measures.added, quality_added, quality_within): a rule
    source_pieces: int = 0  # the source pieces length_ratio is of (no EOS; 0: not known, no LENGTH_SLACK)
    verb_third: bool = False  # German's verb third after a phrase put first (fronting.verb_third): elsewhere's input
    # What the verbatim rule read (verbatim_differs' arguments), so that quality_joined.read_whole, reading the same
    # again for a line of one sentence, takes ``verbatim`` rather than running the rule a second time.
    verbatim_read: VerbatimRead | None = field(default=None, compare=False, repr=False)

    def reading(self) -> WholeReading | None:
        """What its verbatim and language rules read and found, as quality_joined.read_whole reads a whole text (the
        language rule reads the texts and languages the verbatim rule does); None where not known."""
        return WholeReading(self.verbatim_read, self.verbatim, self.language) if self.verbatim_read else None

    def inputs(self, length_center: float, length_range: tuple[float, float], knots: Sequence[float] = (),
               names: Sequence[str] | None = None) -> list[float]:
        """The regression's inputs named ``names`` (``input_names(len(knots))`` where None; a
        calibration's own list, which an older file wrote otherwise): the mean log-prob whole or cut
        at ``knots`` (``segments``: mean_log_prob_1 ..), the next five features and the attention's
        spread as they are, how far the log length ratio is from the usual one (``length_center``,
        the references' median in calibration), and whether the loop, untranslated and length rules
        fire (1.0) or not: a loop or a cut translation is rare and bad, and a linear term in a share
        would price it like a small slip."""
        rules = rules_broken(self, length_range)
        values = {name: float(getattr(self, name)) for name in (*REGRESSED, *ATTENTION)}
        values.update((f"mean_log_prob_{j}", v) for j, v in enumerate(segments(self.mean_log_prob, knots), 1))
        values["length_gap"] = abs(math.log(self.length_ratio) - length_center)
        values.update(loop=float(rules["repetition"]), untranslated=float(self.untranslated()),
                      length=float(rules["length"]))
        return [values[name] for name in (names or input_names(len(knots)))]

    def copies(self) -> bool:
        """Whether at least COPIED_SHARE of the translation's words (and at least two), those ``kept`` aside, are
        source words: a name is kept as written ("Michael Jordan gibt in New York Autogramme." is 3 of 4 words
        copied, 1 of 4 names aside), and so is a number ("Gleis 9, 10:45" for "Platform 9, 10:45": 3 of 4 copied,
        none of the one word left)."""
        own = self.words - self.kept()
        return own >= 2 and round(self.copied * self.words) - self.kept() >= COPIED_SHARE * own

    def kept(self) -> int:
        """The translation's words that are the source's kept as written, which no translation changes: its names
        and its numbers (and codes with a digit: "A4", "MP3"), which the verbatim rule reads."""
        return self.names + self.numbers

    def out_of_length(self, length_range: tuple[float, float]) -> bool:
        """Whether length_ratio lies under or over ``length_range`` by more than LENGTH_SLACK's pieces."""
        under, over = (pieces / self.source_pieces if self.source_pieces else 0.0 for pieces in LENGTH_SLACK)
        return not length_range[0] - under <= self.length_ratio <= length_range[1] + over

    def untranslated(self) -> bool:
        return self.unread_words >= UNTRANSLATED_WORDS and self.unread >= UNTRANSLATED_SHARE

    def too_short(self, length_center: float) -> bool:
        """Whether the translation is at most SHORT_SHARE of the usual length (``length_center``: the median log
        ratio of translation pieces to source pieces of a calibration's references), a piece under it aside: part
        of the source dropped ("The storm caused power outages in several villages." as "Der Sturm verursachte
        Stromausfälle."), which the cross-attention of a small model may still read."""
        slack = LENGTH_SLACK[0] / self.source_pieces if self.source_pieces else 0.0
        return self.length_ratio < SHORT_SHARE * math.exp(length_center) - slack


REGRESSED = tuple(f.name for f in fields(Features)[:6])
ATTENTION = ("attention_entropy", "coverage", "source_entropy")
INPUT_NAMES = (*REGRESSED, "length_gap", "loop", "untranslated", "length")  # what the first quality.json files read


def input_names(knots: int) -> tuple[str, ...]:
    """What a calibration fitted with ``knots`` knots reads: INPUT_NAMES with the mean log-prob cut
    into mean_log_prob_1 .. _{knots + 1}, and the attention's spread (ATTENTION)."""
    return (*(f"mean_log_prob_{j}" for j in range(1, knots + 2)), *INPUT_NAMES[1:], *ATTENTION)


def known_inputs(knots: int) -> set[str]:
    """Every input name ``Features.inputs`` computes with ``knots`` knots."""
    return {*INPUT_NAMES, *input_names(knots)}


def segments(x: float, knots: Sequence[float]) -> list[float]:
    """x as len(knots) + 1 inputs, one per stretch of the line between the (ascending) knots: each
    moves with x inside its stretch only, so that a sum of them with weights >= 0 is an increasing
    piecewise-linear function of x, its slope free in each stretch; [x] where there are no knots."""
    if not knots:
        return [x]
    return [min(x, knots[0]), *(min(max(x, low), high) - low for low, high in zip(knots, knots[1:], strict=False)),
            max(x, knots[-1]) - knots[-1]]


def features_of(forced: ForcedPass, source: str, translation: str, source_pieces: Sequence[str],
                unk_id: int, languages: Languages = UNKNOWN, target_pieces: Sequence[str] = (),
                dictated: Dictated = NOTHING, target_spans: Sequence[tuple[int, int]] = ()) -> Features:
    """The Features of one translation of ``source`` from its ForcedPass; ``source_pieces`` and
    ``target_pieces``: the text of each piece the pass read (``unknown_pieces``); ``languages``: those of
    the source and the translation, where known (the language rule needs the translation's, the negation
    rule both).  ``dictated``: the prefix and glossary terms the search was made to write (the user's
    words, not the model's: attnmt.decoding.dictated), found among the translation's pieces by their
    characters (``target_spans``, the tokenizer's): a forced piece's log-prob counts as at least the
    mean of the pieces the model chose (``counted_log_probs``), and a forced word as translated, not
    copied (a name the glossary keeps as written is no copy), in a share of all the translation's words
    ("in einem Restaurant" after the prefix "Ein Mann isst" is 2 in 6 words copied, not 2 in 3); the
    verbatim rule reads them apart (dictated.verbatim_differs)."""
    given = dictated.spans(translation)
    unread, n_source = unread_words(forced.cross, source_pieces)
    at_end = end_attention(forced.cross, source_pieces)
    ending = short_ending(source, translation, target_pieces, at_end)
    forced_pieces = dictated_pieces(target_spans, given, translation)
    lp = counted_log_probs(forced.log_probs, forced_pieces)
    # The mean alone reads a very short pair's mark as the source's (``short_ending``): the least likely piece keeps it.
    mean = counted_log_probs(forced.log_probs, [any(pair) for pair in zip_longest(forced_pieces, ending,
                                                                                  fillvalue=False)])
    words, source_words = words_of(translation), words_of(source)
    own_words = words_of(undictated(translation, given)) if given else words
    entropy, coverage, source_entropy = attention_spread(forced.cross, source_pieces)
    names, read = names_of(source), (source, translation, dictated, languages.target, languages.source)
    return Features(
        mean_log_prob=sum(mean) / len(mean), min_log_prob=min(lp), eos_log_prob=lp[-1],
        unread=unread / n_source if n_source else 0.0, repeated=repeated_share(words),
        copied=copied_among(source_words, own_words, words,
                            compounds_formed(source, undictated(translation, given) if given else translation)),
        length_ratio=len(forced.target) / max(1, sum(p != "</s>" for p in source_pieces)),
        source_pieces=sum(p != "</s>" for p in source_pieces),
        unread_words=unread, loop=looped(words, source_words) or symbols_looped(translation, source)
        or words_doubled(translation, source, profile_of(languages.target)),
        unknown=unknown_pieces(forced.target, target_pieces, unk_id) + unknown_pieces(forced.source, source_pieces,
                                                                                     unk_id), words=len(words),
        attention_entropy=entropy, coverage=coverage, source_entropy=source_entropy,
        verbatim=verbatim_differs(*read), verbatim_read=read,
        language=in_other_language(translation, languages.target) or in_source_language(source, translation, languages),
        negation=negation_differs(source, translation, languages),
        person=person_differs(source, translation, languages), question=question_differs(source, translation),
        copied_run=copied_run(source, undictated(translation, given) if given else translation),
        cut_short=cut_short(source, translation) or unfinished(source, translation, languages),
        stop_lost=stop_lost(source, translation),
        names=len([w for w in own_words if w in names]), numbers=len(numbers_kept(source_words, own_words, names)),
        added=added(forced.cross, source_pieces, translation, target_spans)
        or tail_added(at_end, lp, translation, target_spans)
        or added_within(forced, lp), verb_third=verb_third(translation.split()))


def numbers_kept(source_words: Sequence[str], words: Sequence[str], names: Set[str] = frozenset()) -> list[str]:
    """The ``words`` (a translation's, ``words_of``) with a digit that are ``source_words`` too, but ``names``
    (counted as names): numbers and codes kept as written ("20 der 40 Zimmer" keeps "20" and "40")."""
    known = set(source_words)
    return [w for w in words if w in known and w not in names and any(ch.isdigit() for ch in w)]


def copied_among(source_words: Sequence[str], chosen: Sequence[str], words: Sequence[str],
                 formed: Counter[str] | None = None) -> float:
    """The share of ``words`` (a translation's) that are source words among those the model ``chosen``:
    a word a glossary or a prefix forced counts as translated, and so does one of a compound the translation
    ``formed`` of source words (quality_measures.compounds_formed: "Team-Meeting" for "team meeting")."""
    known, formed = set(source_words), Counter(formed)
    copied = 0
    for word in chosen:
        if word in known and formed[word] > 0:
            formed[word] -= 1
        else:
            copied += word in known
    return copied / len(words) if words else 0.0


def short_ending(source: str, translation: str, pieces: Sequence[str], at_end: Sequence[float]) -> list[bool]:
    """Whether each of the translation's ``pieces`` (their text) is the final mark of a very short pair, which
    the mean log-prob counts as the source's, not the model's doubt (``counted_log_probs``): where the source has
    at most SHORT_SOURCE words and ends with the mark the translation ends with, and the mark's pieces give, on
    average, ENDING_READ of their attention to the source's end (``at_end``: each piece's,
    quality_measures.end_attention).  A model trained on captions gave the "." of "Ein Mann." for "A man." -2.9 (its
    other pieces -0.1): a mean log-prob of -0.8 over four pieces, quality 0.33 for its own right translation.  Where
    the mark reads a source word still to translate ("Zwei Mädchen." for "Two girls smile.": "smile"), the
    translation ends early, and its mark keeps its doubt.  The least likely piece (Features.min_log_prob) keeps it
    anyway: read against the model's own translation (attnmt.decoding.elsewhere), whose mark is seldom so read, a
    text it raised above that one's least piece scored lower ("Zwei Hunde." for "Two dogs." beside "Zwei Hunde
    laufen.": 0.545 before, 0.460 so)."""
    found = [False] * len(pieces)
    if len(words_of(source)) > SHORT_SOURCE or not ends_sentence(source) \
            or final_character(source) != final_character(translation):
        return found
    k = len(pieces)
    while k > 0 and punctuation(pieces[k - 1]):
        k -= 1
    read = at_end[k:len(pieces)]
    if k == 0 or not read or sum(read) / len(read) < ENDING_READ:  # a mark alone translates no word
        return found
    return [j >= k for j in range(len(pieces))]


def unknown_pieces(ids: Sequence[int], pieces: Sequence[str], unk_id: int) -> int:
    """How many of ``ids`` are ``unk_id`` where the piece's text (``pieces``, one an id; an id past them:
    not known, counted) holds more than punctuation: a word, a number or a symbol ("€", "+") the model
    cannot read or write.  Punctuation alone ("«", "—", "*") is no word of the sentence: a weak model's
    vocabulary without "«" had every line of a French text flagged ``unknown``."""
    return sum(i == unk_id and not (k < len(pieces) and punctuation(pieces[k])) for k, i in enumerate(ids))


def punctuation(piece: str) -> bool:
    """Whether ``piece`` (SentencePiece's "▁" for a space aside) is punctuation alone (Unicode's P*)."""
    shown = piece.replace("\u2581", "").strip()
    return bool(shown) and all(unicodedata.category(ch).startswith("P") for ch in shown)


def rules_broken(features: Features, length_range: tuple[float, float],
                 length_center: float | None = None) -> dict[str, bool]:
    """Whether each rule flag but low_quality (module docstring) fires for ``features``, the length
    rule's range ``length_range`` (``Features.out_of_length``); ``length_center``: a calibration's usual
    length, against which a translation is too short (``Features.too_short``; None: not known, not read)."""
    short = length_center is not None and features.too_short(length_center)
    return {
        "copied": features.copies() or features.copied_run or features.source_word_kept,
        "repetition": features.loop,
        "untranslated": features.untranslated() or features.cut_short or short,
        "added": features.added,
        "length": features.out_of_length(length_range),
        "unknown": features.unknown > 0,
        "verbatim": features.verbatim,
        "name": features.name_lost,
        "language": features.language,
        "negation": features.negation,
        "person": features.person,
        "question": features.question,
        "punctuation": features.stop_lost,
    }
