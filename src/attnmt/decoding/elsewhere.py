"""Quality for a translation the model did not write (a person's, another engine's, a corpus's):
read against the model's own translation of the same source.

    source ─ beam search ─ own translation ─┐
    text ─────────────── forced pass ───────┴─ relative inputs ─ the fit for texts written elsewhere ─ quality

The fit for the model's own translations (attnmt.decoding.calibration) reads a human reference as
the model's own doubt: a good reference the model would not have written gets a low log-probability
and so a low quality (69-77 % of Multi30k's validation references flagged ``low_quality`` on the
shipped config's models).  This second fit reads the text against what the model would have written
instead: chrF between the two, how much less likely the text is than the model's translation (the
log-probability gap) and at its least likely piece, its ending, its unread source words, its
length and how its attention covers the source beside the model's translation's, how much of
the model's translation it leaves out (``Reading.omitted``), how far it is that translation's words
in another order (``reordering``), whether it puts German's verb third after a phrase put first
(attnmt.decoding.fronting.verb_third), and the rule flags.  ``attnmt
calibrate`` fits it on the validation references (each counted ``REFERENCE_WEIGHT`` times), the
beam's other hypotheses, and the model's own translations broken by random edits
(attnmt.decoding.noising), each labelled, as the own fit's texts are, by sentence chrF against the
reference; a broken one that keeps under ``DAMAGED_BELOW`` chrF of the
translation it was made from, or whose words were put in another order, is labelled unacceptable
(``elsewhere_labels``).

Where a rule that marks a broken text fires (copied, repetition, untranslated, length, added, verbatim), or the
text lies below every validation reference in one of ``ENVELOPE_SIGNALS`` (their
``ENVELOPE_PERCENTILE``th percentile), its quality is at most the own fit's.  Of those signals, the
two read against the model's translation (``AGAINST_OWN``) count only where the own fit trusts that
translation (its quality at least the threshold): out of the model's domain its own translation is
poor, and a good text far from it is no sign of a bad one (the demo model capped 81 of 219 good news,
software and travel translations so, flagging 61 % of them ``low_quality``, 24 % without the cap;
benchmarks/results/quality_labelled_xeon.txt).  A text that reads as
the model's own translation (the same ids) keeps the own fit's quality.

The settings (the hinges, the reference weight, the envelope's percentile) were chosen on one
model's held-out validation half (a 30-minute fp32 Multi30k model, benchmarks/experiments/
quality_pseudo_reference.py) and kept unchanged on another (the shipped config in bf16), where
they flagged 3.4 % of the held-out references at AUROC 0.956 against the benchmark's broken texts
(benchmarks/results/quality_pseudo_reference_epyc_bf16.txt).  The gaps in the attention's coverage
and spread (quality_measures.attention_spread) were added later and measured on those two models only
(benchmarks/results/quality_attention_epyc.txt), and so was DAMAGED_BELOW (chosen among 60, 70, 78
and 85 on those two, then read on a third model: quality_damaged_epyc.txt).  The last two inputs,
``omitted`` and ``reordered``, the label for reordered texts, DAMAGED_BELOW's 78 and
REFERENCE_WEIGHT's 4 were chosen on those three, and read on a fourth (quality_reordered_epyc.txt).
``verb_third`` and its unacceptable edit were read on the demo model alone (quality_verb_third_epyc.txt).
The cost: a beam search of every source beside the forced passes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import torch

from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.dictated import NOTHING, Dictated, by_glossary
from attnmt.decoding.fitting import probability
from attnmt.decoding.glossary import as_glossary
from attnmt.decoding.inputs import GivenGlossary, TextCodec
from attnmt.decoding.quality import Assessment, assess, flags_of, passes_through
from attnmt.decoding.quality_features import Features, rules_broken
from attnmt.decoding.quality_language import UNKNOWN, Languages
from attnmt.decoding.quality_measures import words_of
from attnmt.decoding.quality_options import check_assessing
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError
from attnmt.model import Transformer
from attnmt.text.data import given_pairs, given_texts
from attnmt.text.sentence_ends import ended_as_source

REFERENCE_WEIGHT = 4.0
# A text noised from the model's own translation that keeps less than this sentence chrF of it
# is labelled unacceptable, whatever its chrF against the reference (``elsewhere_labels``)...
DAMAGED_BELOW = 78.0
# ... and so is one made by these edits (attnmt.decoding.noising), however much it keeps: its words
# in a wrong order, which chrF hardly sees (two swapped; a phrase put first with the verb third, which the input
# verb_third reads: without both, the fit rated "Im Park eine Frau liest ein Buch." as the right verb second).
UNACCEPTABLE_EDITS = ("transpose_adjacent", "front_phrase_verb_third")
# An edit that puts the words in another right order (a phrase put first, German's verb second): its text is
# labelled as the translation it was made from, whatever it keeps of it.  Without it, the only other orders the
# fit saw were broken ones, and it rated "Im Park liest eine Frau ein Buch." 0.07 beside the model's "Eine Frau
# liest ein Buch im Park.".
ACCEPTABLE_EDITS = ("front_phrase",)
ENVELOPE_PERCENTILE = 0.5
ENVELOPE_SIGNALS = ("log_prob_gap", "chrf_to_own", "eos_log_prob", "min_log_prob")
AGAINST_OWN = ("log_prob_gap", "chrf_to_own")  # the envelope's signals read only where the own translation is trusted
INPUT_NAMES = (
    "chrf_to_own", "log_prob_gap", "min_log_prob_gap", "eos_log_prob", "unread", "unread_gap", "length_gap_to_own",
    "length_gap", "loop", "untranslated", "length", "copied_rule", "repeated", "copied",
    "chrf_to_own_under_35", "log_prob_gap_under_-3", "chrf_to_own_under_50", "log_prob_gap_under_-2",
    "log_length_to_own", "unread_over_0.1", "min_log_prob_gap_under_-5", "eos_log_prob_under_-0.5",
    "coverage_gap", "source_entropy_gap", "omitted", "reordered", "verb_third",
)


@dataclass
class Reading:
    """A text read against the model's own translation of its source: both Features, the text's
    sentence chrF against that translation (0-100), and that translation's against the text (the
    same n-grams, recall and precision swapped: higher where the text leaves out what the model
    wrote than where it adds to it)."""

    features: Features
    own: Features
    chrf_to_own: float
    chrf_from_own: float | None = None
    reordered: float = 0.0  # ``reordering`` of the text and the model's translation

    def inputs(self, length_center: float, length_range: tuple[float, float],
               names: Sequence[str] = INPUT_NAMES) -> list[float]:
        """The fit's inputs named ``names`` (INPUT_NAMES, or the fewer a fit stored before the last
        ones were added)."""
        f, o, chrf = self.features, self.own, self.chrf_to_own / 100
        gap, least = f.mean_log_prob - o.mean_log_prob, f.min_log_prob - o.min_log_prob
        to_own = math.log(f.length_ratio / o.length_ratio) if f.length_ratio > 0 and o.length_ratio > 0 else 0.0
        rules = rules_broken(f, length_range)
        values = [chrf, gap, least, f.eos_log_prob, f.unread, f.unread - o.unread, abs(to_own),
                  abs(math.log(max(f.length_ratio, 1e-6)) - length_center),
                  *(float(rules[name]) for name in ("repetition", "untranslated", "length", "copied")), f.repeated,
                  f.copied, max(0.0, 0.35 - chrf), max(0.0, -gap - 3.0), max(0.0, 0.5 - chrf), max(0.0, -gap - 2.0),
                  to_own, max(0.0, f.unread - 0.1), max(0.0, -least - 5.0), max(0.0, -0.5 - f.eos_log_prob),
                  f.coverage - o.coverage, f.source_entropy - o.source_entropy, self.omitted(), self.reordered,
                  float(f.verb_third)]
        if names is INPUT_NAMES:
            return values
        by_name = dict(zip(INPUT_NAMES, values, strict=True))
        return [by_name[name] for name in names]

    def omitted(self) -> float:
        """How much more of the text the model's translation holds than of the model's translation
        the text does (chrF with recall and precision swapped, over 100; 0 where it holds less):
        about 0.2 for the model's translation with a third left out, about 0 for a rewording."""
        back = self.chrf_to_own if self.chrf_from_own is None else self.chrf_from_own
        return max(0.0, back - self.chrf_to_own) / 100

    def envelope_signals(self) -> list[float]:
        """ENVELOPE_SIGNALS' values."""
        f = self.features
        return [f.mean_log_prob - self.own.mean_log_prob, self.chrf_to_own, f.eos_log_prob, f.min_log_prob]


def broken_by_rules(f: Features, length_range: tuple[float, float]) -> bool:
    """A rule that marks a broken text fires: copied, repetition, untranslated, length, added or verbatim.  A
    phrase added to a right translation keeps most of its chrF to the model's (attnmt.decoding.quality_added):
    capped by none, the fit rated 93 % of the demo model's benchmark's short phrases added acceptable.  A number
    changed keeps nearly all of it (on the demo model, "Vier Pferde." for "Two horses.": 0.58, "Ein Mann mit 4
    Bällen." for "A man with 3 balls.": 0.87), as does a one-word source given back
    (attnmt.decoding.quality_copy: "Snow." 0.73), where the fit has learnt nothing of such a short text."""
    rules = rules_broken(f, length_range)
    return any(rules[name] for name in ("copied", "repetition", "untranslated", "length", "added", "verbatim"))


@dataclass
class ElsewhereFit:
    """The logistic regression for texts written elsewhere, on standardised inputs (INPUT_NAMES),
    and the references' envelope (ENVELOPE_SIGNALS' ENVELOPE_PERCENTILE-th percentiles)."""

    weights: list[float]
    bias: float
    means: list[float]
    scales: list[float]
    envelope: list[float]
    inputs: tuple[str, ...] = INPUT_NAMES

    def quality(self, reading: Reading, own_fit_quality: float, length_center: float,
                length_range: tuple[float, float], own_trusted: bool = True) -> float:
        """The text's quality; ``own_fit_quality``: what the fit for the model's own translations
        gives the text, its cap where a rule fires or the text lies outside the envelope;
        ``own_trusted``: whether that fit trusts the model's own translation, without which the
        envelope's signals read against it (AGAINST_OWN) say nothing."""
        quality = probability(self.weights, self.bias, self.means, self.scales,
                              reading.inputs(length_center, length_range, self.inputs))
        outside = any(v < e for name, v, e in zip(ENVELOPE_SIGNALS, reading.envelope_signals(), self.envelope,
                                                  strict=True) if own_trusted or name not in AGAINST_OWN)
        if outside or broken_by_rules(reading.features, length_range):
            quality = min(quality, own_fit_quality)
        return quality

    @classmethod
    def from_json(cls, values: dict) -> ElsewhereFit:
        return cls(**{**values, "inputs": tuple(values.get("inputs", INPUT_NAMES))})


def fit_elsewhere(readings: Sequence[Reading], labels: Sequence[float], weights: Sequence[float],
                  references: Sequence[Reading], length_center: float,
                  length_range: tuple[float, float]) -> ElsewhereFit:
    """The fit from texts read against the model's own translations (``labels``: 1 where acceptable,
    ``weights``: how many times each counts) and the envelope from the ``references``' readings."""
    from attnmt.decoding.fitting import L2, newton_fit

    x = torch.tensor([r.inputs(length_center, length_range) for r in readings], dtype=torch.float64)
    means, scales = x.mean(dim=0), x.std(dim=0).clamp(min=1e-6)
    w, bias = newton_fit((x - means) / scales, torch.tensor(labels, dtype=torch.float64), L2, 50,
                         torch.tensor(weights, dtype=torch.float64))
    signals = torch.tensor([r.envelope_signals() for r in references], dtype=torch.float64)
    envelope = torch.quantile(signals, ENVELOPE_PERCENTILE / 100, dim=0, interpolation="linear")
    return ElsewhereFit(w.tolist(), bias, means.tolist(), scales.tolist(), envelope.tolist())


def elsewhere_labels(kinds: Sequence[str], chrf_to_reference: Sequence[float], chrf_to_own: Sequence[float],
                     own_to_reference: Sequence[float], threshold: float) -> list[float]:
    """The label (1.0: acceptable) of each text the fit for texts written elsewhere is fitted on:
    its sentence chrF against the reference at least ``threshold``, except that a text of kind
    "noised EDIT" (the model's own translation edited by attnmt.decoding.noising's EDIT) is
    unacceptable where it keeps less than DAMAGED_BELOW chrF of that translation, or where EDIT is
    one of UNACCEPTABLE_EDITS; and one of ACCEPTABLE_EDITS is labelled by that translation's chrF
    against the reference (``own_to_reference``), which its new order should not change.  chrF
    forgives a dropped clause or a swapped pair of words: most such texts still reach 50 against
    the reference, and labelled by it alone, the fit learnt to rate them acceptable."""
    labels = []
    for kind, reference, own, made_from in zip(kinds, chrf_to_reference, chrf_to_own, own_to_reference, strict=True):
        edit = kind.split()[-1] if kind.startswith("noised") else None
        if edit in ACCEPTABLE_EDITS:
            labels.append(float(made_from >= threshold))
        elif edit is not None and (own < DAMAGED_BELOW or edit in UNACCEPTABLE_EDITS):
            labels.append(0.0)
        else:
            labels.append(float(reference >= threshold))
    return labels


def reordering(text: str, own: str) -> float:
    """How far ``text`` is the model's translation ``own`` with its words in another order: U⁴ ·
    max(0, U − B), U and B the F1 of their words (``words_of``) and word pairs (as multisets).  The
    same words in the same order: 0; the same words, two swapped: about a third; another wording
    (U about a half): about 0.  A text or translation of one word has no order: 0."""
    def f1(a: list, b: list) -> float:
        common = sum((Counter(a) & Counter(b)).values())
        return 2 * common / (len(a) + len(b)) if a and b else 0.0

    t, o = words_of(text), words_of(own)
    if len(t) < 2 or len(o) < 2:
        return 0.0
    u = f1(t, o)
    b = f1(list(zip(t, t[1:], strict=False)), list(zip(o, o[1:], strict=False)))
    return u ** 4 * max(0.0, u - b)


def read_against_own(features: Sequence[Features], own_features: Sequence[Features], texts: Sequence[str],
                     owns: Sequence[str]) -> list[Reading]:
    """The Reading of each text (its Features and string) against the model's own translation of
    its source (its Features and string) beside it: chrF both ways and ``reordering``."""
    return [Reading(f, o, to_own, from_own, reordering(text, own))
            for f, o, to_own, from_own, text, own in zip(features, own_features, chrf_to(texts, owns),
                                                          chrf_to(owns, texts), texts, owns, strict=True)]


def chrf_to(texts: Sequence[str], others: Sequence[str]) -> list[float]:
    """Sentence chrF (0-100) of each text against the other text beside it."""
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    return [chrf.sentence_score(t, [o]).score for t, o in zip(texts, others, strict=True)]


def assess_elsewhere(model: Transformer, tokenizer: TextCodec, sources: Sequence[str | bytes],
                     translations: Sequence[str | bytes],
                     calibration: attnmt.decoding.calibration.Calibration | None, decoding: Decoding = DEFAULT,
                     max_tokens: int = MAX_TOKENS, threshold: float | None = None,
                     own: Sequence[str | bytes] | None = None,
                     glossary: GivenGlossary | None = None, languages: Languages = UNKNOWN) -> list[Assessment | None]:
    """``assess`` for translations the model did not write (``attnmt score``): each source is
    translated by the model (``decoding``, and ``glossary``, the terms the translations were made
    with; or ``own``, those translations, one a source), and each translation that does not read as
    that one (other ids) gets the fit for texts written elsewhere.  Searched without the terms, the
    model's own translation with them ("Einrad" for "unicycle") read as written elsewhere, and
    scored otherwise than translate had scored it.  Where the calibration has no such fit (none,
    or one fitted before it existed), it is ``assess``.  ConfigError (a ValueError), as
    ``assess``'s, for not one translation (and one of ``own``) a source; ``own`` is checked as the
    translations are (``given_texts``): one str was read a character a source, and a None was
    blamed on ``translations``; an option ``assess`` cannot take is refused before the search, as
    there (``check_assessing``).  ``languages``: as ``assess``'s, the language rule's.  A glossary's terms are the
    user's words where a search with them wrote them, not in the model's translation without them
    (``glossary_dictated``)."""
    check_assessing(calibration, threshold, max_tokens, languages)
    sources, translations = given_pairs(sources, translations)
    if own is not None:
        own = given_texts(own, "own")
        if len(own) != len(sources):  # too few: an IndexError; too many: the rest unread
            raise ConfigError(f"own: got {len(own)} translations for {len(sources)} sources; give the model's "
                              "translation of each source")
    dictated = glossary_dictated(model, tokenizer, sources, translations, glossary, decoding, max_tokens)
    if calibration is None or calibration.elsewhere is None:
        return assess(model, tokenizer, sources, translations, calibration, max_tokens, threshold, languages,
                      dictated)
    filled = [i for i, (s, t) in enumerate(zip(sources, translations, strict=True)) if s.strip() and t.strip()]
    texts, ours = [sources[i] for i in filled], [translations[i] for i in filled]
    own = (translate(model, tokenizer, texts, decoding, max_tokens, glossary=glossary) if own is None
           else [own[i] for i in filled])
    both = assess(model, tokenizer, texts * 2, [*ours, *own], calibration, max_tokens, threshold, languages,
                  [dictated[i] for i in filled] * 2)  # one pass
    mine = both[len(filled):]
    written = [k for k in range(len(filled)) if own_as_written(texts[k], ours[k], own[k]) and mine[k] is not None
               and not passes_through(texts[k], ours[k])]
    for k in written:  # translate's output, assessed as translate assessed it, its words as they stand in it
        both[k] = replace(mine[k], words=both[k].words if both[k] else [])
    read = [k for k in range(len(filled)) if all(a is not None and a.features is not None for a in (both[k], mine[k]))
            and tokenizer.encode_target(ours[k]) != tokenizer.encode_target(own[k])
            and not passes_through(texts[k], ours[k]) and k not in written]
    readings = dict(zip(read, read_against_own([both[k].features for k in read], [mine[k].features for k in read],
                                               [ours[k] for k in read], [own[k] for k in read]), strict=True))
    found: list[Assessment | None] = [None] * len(sources)
    for k, i in enumerate(filled):
        text = both[k]
        if k not in readings:  # blank, own, passed through (1) or read as no piece (unread_pair): assess's
            found[i] = text
            continue
        trusted = calibration.quality(readings[k].own) >= calibration.threshold  # the model's translation
        quality = calibration.elsewhere.quality(readings[k], text.quality, calibration.length_center,
                                                calibration.length_range, trusted)
        found[i] = Assessment(quality, flags_of(text.features, quality, calibration, threshold), True, text.words,
                              text.features)
    return found


def own_as_written(source: str, text: str, own: str) -> bool:
    """Whether ``text`` is the model's translation ``own`` of ``source`` as translate writes a line's sentence, but
    not as it is: ending as its source ends (sentence_ends.ended_as_source: without the full stop the model added
    where the source has none, with its question mark or colon).  Read as written elsewhere, "Zwei Männer arbeiten
    auf einem blauen See" for "Two men setting up a blue ice fishing hut on an iced over lake" (no stop) scored
    0.0519, flagged ``untranslated``, where translate had given it 0.1483, read with its stop (the demo model)."""
    return text.strip() != own.strip() and text.strip() == ended_as_source(source, own).strip()


def glossary_dictated(model: Transformer, tokenizer: TextCodec, sources: Sequence[str], translations: Sequence[str],
                      glossary: GivenGlossary | None, decoding: Decoding, max_tokens: int) -> list[Dictated]:
    """What a search with ``glossary`` made each translation hold, the user's words in it (dictated.by_glossary), but
    nothing where the translation holds its terms and is the model's own without the glossary (``translate``, for
    those alone): translate keeps such a translation, whose terms the model wrote (attnmt.decoding.plain_first),
    and assesses it as without the glossary."""
    terms = as_glossary(glossary)
    dictated = [by_glossary(terms, s, lambda t: tokenizer.decode(tokenizer.encode_target(t))) for s in sources]
    holding = [i for i, (told, text) in enumerate(zip(dictated, translations, strict=True))
               if told.terms and told.spans(text)]
    plain = translate(model, tokenizer, [sources[i] for i in holding], decoding, max_tokens) if holding else []
    for i, own in zip(holding, plain, strict=True):
        if own.strip() == translations[i].strip():
            dictated[i] = NOTHING
    return dictated


# The module of the annotations' Calibration, imported last (typing.get_type_hints reads the annotations):
# it reads this module's names when called (elsewhere.X), so this module may be part-way through its
# imports when calibration runs.
import attnmt.decoding.calibration  # noqa: E402
