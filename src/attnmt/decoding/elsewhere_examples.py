"""What ``attnmt calibrate`` shows the fit for texts written elsewhere (attnmt.decoding.elsewhere), after the fit for
the model's own translations (attnmt.decoding.calibration): the validation references, the beam's other hypotheses
and the model's own translations broken by random edits (attnmt.decoding.noising), each read against the model's
translation of its source and labelled by ``elsewhere.elsewhere_labels``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from attnmt.decoding import Decoding, elsewhere
from attnmt.decoding.inputs import TextCodec
from attnmt.decoding.noising import noised
from attnmt.decoding.quality import Assessment
from attnmt.decoding.translate import translate_n_best
from attnmt.model import Transformer


def elsewhere_fit(model: Transformer, tokenizer: TextCodec, calibration: attnmt.decoding.calibration.Calibration,
                  sources: Sequence[str], references: Sequence[str], translations: Sequence[str],
                  own: Sequence[Assessment | None], on_references: Sequence[Assessment | None], decoding: Decoding,
                  max_tokens: int) -> tuple[elsewhere.ElsewhereFit | None, float | None]:
    """The fit for texts written elsewhere (attnmt.decoding.elsewhere) and the share of the references
    it flags, from the references, the beam's other hypotheses and the model's own translations
    broken by random edits, each read against the model's translation of its source and labelled
    by ``elsewhere_labels``; (None, None) where fewer than calibration.MIN_EACH of them go either way
    (as the first fit: a fit on one or two unacceptable texts flags at random, and ``attnmt score`` then
    reads each text alone, as without this fit)."""
    ids = tokenizer.encode_target
    mine = {i: a.features for i, a in enumerate(own) if a is not None and a.features is not None}
    todo = [(i, r, on_references[i], "reference") for i, r in enumerate(references)]  # (sentence, text, its
    if decoding.beam_size > 1:                                                         # assessment, its kind)
        n_best = translate_n_best(model, tokenizer, sources, replace(decoding, n_best=decoding.beam_size), max_tokens)
        todo += [(i, h.text, None, "n-best") for i, hypotheses in enumerate(n_best) for h in hypotheses[1:]]
    todo += [(i, text, None, f"noised {edit}") for i, text, edit in noised(sources, translations)]
    todo = [item for item in todo if item[0] in mine and item[1].strip() and ids(item[1]) != ids(translations[item[0]])]
    unread = [k for k, item in enumerate(todo) if item[2] is None]
    read = attnmt.decoding.calibration.read_pairs(model, tokenizer, [sources[todo[k][0]] for k in unread],
                                                  [todo[k][1] for k in unread], max_tokens)
    for k, a in zip(unread, read, strict=True):
        todo[k] = (todo[k][0], todo[k][1], a, todo[k][3])
    found = [(i, text, a.features, kind) for i, text, a, kind in todo if a is not None and a.features is not None]
    texts = [text for _, text, _, _ in found]
    readings = elsewhere.read_against_own([f for _, _, f, _ in found], [mine[i] for i, _, _, _ in found], texts,
                                          [translations[i] for i, _, _, _ in found])
    own_to_reference = elsewhere.chrf_to(translations, references)
    labels = elsewhere.elsewhere_labels([kind for _, _, _, kind in found],
                                        elsewhere.chrf_to(texts, [references[i] for i, _, _, _ in found]),
                                        [r.chrf_to_own for r in readings],
                                        [own_to_reference[i] for i, _, _, _ in found], calibration.chrf_threshold)
    acceptable = int(sum(labels))
    if min(acceptable, len(labels) - acceptable) < attnmt.decoding.calibration.MIN_EACH:
        return None, None
    is_reference = [kind == "reference" for _, _, _, kind in found]
    weights = [elsewhere.REFERENCE_WEIGHT if ref else 1.0 for ref in is_reference]
    fit = elsewhere.fit_elsewhere(readings, labels, weights,
                                  [r for r, ref in zip(readings, is_reference, strict=True) if ref] or readings,
                                  calibration.length_center, calibration.length_range)
    on_refs = [fit.quality(r, calibration.quality(r.features), calibration.length_center, calibration.length_range,
                           calibration.quality(r.own) >= calibration.threshold)
               for r, ref in zip(readings, is_reference, strict=True) if ref]
    return fit, sum(q < calibration.threshold for q in on_refs) / max(1, len(on_refs))


# The module of the annotations' Calibration and of read_pairs and MIN_EACH, read when called: calibration imports
# this module, so either may be part-way through its imports while the other runs.
import attnmt.decoding.calibration  # noqa: E402
