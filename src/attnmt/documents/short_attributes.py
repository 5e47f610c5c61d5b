"""Which attributes of a page are short labels, the guard of attnmt.documents.short_labels' to keep their source
where the model garbled them (``<img alt="Logo">`` came back ``alt="Zwei Geschäfts"``): an ``alt`` or
``aria-label``, which a screen reader reads in place of a picture or a button, a ``title`` or ``placeholder``, which
a browser shows as a tip or in an empty field, of at most ``SHORT`` words.  One the guard answered with itself keeps
its value as written (FlatText.source_kept, which TreeJob.write_contents leaves alone), and with a target language
its element says the source's (TreeJob.kept_attributes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText
from attnmt.documents.short_labels import SHORT
from attnmt.text.letters import reaches_model

if TYPE_CHECKING:
    from attnmt.documents.markup import TreeJob

LABELS = frozenset(("alt", "title", "placeholder", "aria-label"))  # what stands alone for a reader


def is_label(name: str, text: str) -> bool:
    """Whether the attribute ``name`` holding ``text`` is a short label (``LABELS``, at most ``SHORT`` words)."""
    return name.lower() in LABELS and len(text.split()) <= SHORT


def label_sentences(jobs: Sequence[TreeJob], sentences: Sequence[Sequence[tuple[int, int]]]
                    ) -> list[tuple[FlatText, list[str]]]:
    """Each label among ``jobs``' attributes (``is_label``) and its sentences that reach the model, stripped, as
    the pipeline sends them (``sentences``: each flat's spans, in the jobs' flats' order)."""
    spans = iter(sentences)
    spans_of = {id(flat): next(spans) for job in jobs for flat in job.flats()}
    return [(flat, [flat.text[start:end].strip() for start, end in spans_of[id(flat)]
                    if reaches_model(flat.text[start:end])])
            for job in jobs for (_, name), flat in zip(job.attributes, job.attribute_flats(), strict=True)
            if is_label(name, flat.text)]


def keep_sources(labels: Sequence[tuple[FlatText, list[str]]], kept: set[str]) -> None:
    """Each of ``labels`` (``label_sentences``) whose sentences were all ``kept`` (KeepingLabels.kept) marked as
    keeping its source, written as it was (FlatText.source_kept)."""
    for flat, sentences in labels:
        if sentences and all(sentence in kept for sentence in sentences):
            flat.source_kept = True
