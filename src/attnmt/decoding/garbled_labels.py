"""Whether a short label's translation is garbled: the one rule every path that translates a label alone follows.

A model trained on sentences (the demo's, on Multi30k's captions) reads a word or two alone as the start of a
caption and writes one: a field's name "BENEFITS" came back "EIN DEMA", "PREP TIME" "GROSSER AMÜSIEREN SICH".
Left in the source's language, a reader still understands it.  So a label's translation is taken only where the
model finds it plausible: exp(mean log-prob) of its pieces at ``FLOOR`` or over (``garbled``), judged as it is
written: without the full stop the model added, which its source lacks.  Its callers: a document's short labels
(attnmt.documents.short_labels.KeepingLabels: alt texts, captions, a text line's and a cue's field names) and a
field's name that attnmt.decoding.translate cuts from a sentence (attnmt.decoding.sentence_parts), which
``attnmt.translate`` and the JSONL input of ``attnmt translate`` translate alone.  ``FLOOR`` is measured in
attnmt.documents.short_labels' docstring."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attnmt.text.sentence_ends import ended_as_source

FLOOR = 0.3  # plausibility under which a label keeps its source (attnmt.documents.short_labels: measured)
# sources, their translations -> how plausible the model finds each (ModelTranslator.plausibility; None: not judged)
Plausibility = Callable[[Sequence[str], Sequence[str]], Sequence[float | None]]


def garbled(plausibility: Plausibility, labels: Sequence[str], translations: Sequence[str]) -> list[bool]:
    """Whether each translation of each of ``labels`` is under ``FLOOR`` to ``plausibility``, judged without the
    full stop the model added ("Close" -> "In einem Restaurant." is 0.30 to the demo model, as written 0.24); a
    blank one, or the label given back as it came (a sentence the model failed on keeps its source), is not."""
    judged = [k for k, (label, text) in enumerate(zip(labels, translations, strict=True))
              if text.strip() not in ("", label.strip())]
    found = plausibility([labels[k] for k in judged],
                         [ended_as_source(labels[k], translations[k]) for k in judged]) if judged else []
    out = [False] * len(labels)
    for k, plausible in zip(judged, found, strict=True):
        out[k] = plausible is not None and plausible < FLOOR
    return out
