"""Which attributes of a page are short labels, the guard of attnmt.documents.short_labels' to keep their source
where the model garbled them (``<img alt="Logo">`` came back ``alt="Zwei Geschäfts"``): an ``alt`` or
``aria-label``, which a screen reader reads in place of a picture or a button, a ``title`` or ``placeholder``, which
a browser shows as a tip or in an empty field, a button's ``value`` or an option's ``label``, which a browser shows
as a ``<button>``'s or an ``<option>``'s own words (text_attributes.holds_text: no other ``value`` or ``label`` is
translated), of at most ``SHORT`` words.  One the guard answered with itself keeps
its value as written (FlatText.source_kept, which TreeJob.write_contents leaves alone), and with a target language
its element says the source's (TreeJob.kept_attributes).  So does a block that is a short label alone
(short_labels.alone: a table's header, a button, a menu's link, a heading), which, kept, says the source's
language (TreeJob.say_languages)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText
from attnmt.documents.short_labels import SHORT, alone
from attnmt.text.letters import reaches_model

if TYPE_CHECKING:
    from attnmt.documents.markup import TreeJob

# What stands alone for a reader: ``<input type="submit" value="Send the message">`` is judged as
# ``<button>Send the message</button>`` is (the demo model wrote the value "Dieser bereitet sich").
LABELS = frozenset(("alt", "title", "placeholder", "aria-label", "value", "label"))


def is_label(name: str, text: str) -> bool:
    """Whether the attribute ``name`` holding ``text`` is a short label (``LABELS``, at most ``SHORT`` words)."""
    return name.lower() in LABELS and len(text.split()) <= SHORT


def label_sentences(jobs: Sequence[TreeJob], sentences: Sequence[Sequence[tuple[int, int]]]
                    ) -> list[tuple[FlatText, list[str]]]:
    """Each label of ``jobs`` (``job_labels``) and its sentences that reach the model, stripped, as the pipeline
    sends them (``sentences``: each flat's spans, in the jobs' flats' order)."""
    spans = iter(sentences)
    spans_of = {id(flat): next(spans) for job in jobs for flat in job.flats()}
    return [label for job in jobs for label in job_labels(job, spans_of)]


def job_labels(job: TreeJob, spans_of: dict[int, Sequence[tuple[int, int]]]) -> list[tuple[FlatText, list[str]]]:
    """``job``'s short attributes (``is_label``) and its blocks that are a short label alone (short_labels.alone:
    ``<th>Price</th>``, ``<button>Buy now</button>``, a menu's ``<a>Home</a>``), each with its sentences that reach
    the model, stripped (``spans_of``: each flat's spans, by the flat's id)."""
    attributes = [(flat, reaching(flat, spans_of[id(flat)]))
                  for (_, name), flat in zip(job.attributes, job.attribute_flats(), strict=True)
                  if is_label(name, flat.text)]
    blocks = [(flat, reaching(flat, spans_of[id(flat)])) for _, flat in job.runs]
    return attributes + [(flat, sentences) for flat, sentences in blocks if alone(sentences)]


def reaching(flat: FlatText, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The sentences of ``flat`` (its ``spans``) that reach the model, stripped."""
    return [flat.text[start:end].strip() for start, end in spans if reaches_model(flat.text[start:end])]
