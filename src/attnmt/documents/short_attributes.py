"""A short label the model garbled keeps its source: ``<img alt="Logo">`` came back ``alt="Zwei Geschäfts"``.

A model trained on sentences (the demo's, on Multi30k's captions) reads a word or two alone as the start of
a caption, and writes one: "Logo" -> "Zwei Geschäfts", "Search" -> "In einem Auss", "Close" -> "In einem
Restaurant".  In running text its neighbours carry such a word; a label stands alone, where a screen reader
reads it in place of a picture or a button (``alt``, ``aria-label``) or a browser shows it as a tip or in an
empty field (``title``, ``placeholder``).  Left in the source's language, a reader still understands it.

So the translation of a label (an attribute in ``LABELS`` of at most ``SHORT`` words) is taken only where the
model finds it plausible: its translator's plausibility (ModelTranslator.plausibility, exp(mean log-prob))
at ``FLOOR`` or over.  Under it, the attribute keeps its value as written (FlatText.source_kept, which
TreeJob.write_contents leaves alone), and with a target language its element says the source's
(TreeJob.kept_attributes).  A translator without a plausibility (a user's own, translations already found)
has its labels taken as they come, and so does a label holding one of its glossary's terms: the user's word.

``FLOOR`` measured with the demo model on 81 labels of web pages and captions as ``<img alt>``, each translation
judged good or bad by hand: at 0.3, 1 of 20 good ones kept in English ("Company logo" -> "Logo", 0.10) and 55 of
61 bad ones ("Menu" -> "Männer unterhalten sich", 0.41, is taken); good ones start at 0.35 ("Two dogs" -> "Zwei
Hunde"); at 0.2 / 0.25 / 0.35 / 0.4: good kept 1 / 1 / 2 / 3, bad kept out 44 / 52 / 57 / 57.  On 50 labels
written after: 1 of 12 good ones kept ("Our office" -> "Büro", 0.09), 31 of 38 bad ones kept out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText
from attnmt.documents.spans import Nested, plain
from attnmt.documents.translator_parts import translator_glossary, translator_plausibility

if TYPE_CHECKING:
    from attnmt.documents.markup import TreeJob

LABELS = frozenset(("alt", "title", "placeholder", "aria-label"))  # what stands alone for a reader
SHORT = 3  # words: "Search the site" is a label; "A dog runs on the beach" a caption the model reads as one
FLOOR = 0.3  # plausibility under which a label keeps its source (module docstring: measured)


def is_label(name: str, text: str) -> bool:
    """Whether the attribute ``name`` holding ``text`` is a short label (``LABELS``, at most ``SHORT`` words)."""
    return name.lower() in LABELS and len(text.split()) <= SHORT


def keep_implausible(jobs: Sequence[TreeJob], results: Sequence[Sequence[Sequence[str | Nested]]],
                     translator: object) -> None:
    """Each label of ``jobs`` whose translation in ``results`` (each job's contents, in its flats' order)
    ``translator`` finds implausible (under ``FLOOR``) marked as keeping its source (FlatText.source_kept);
    each distinct pair is judged once."""
    plausibility = translator_plausibility(translator)
    if plausibility is None:
        return
    glossary = translator_glossary(translator)
    labels = [(flat, plain(content)) for job, contents in zip(jobs, results, strict=True)
              for flat, content in labels_of(job, contents)
              if not (glossary and glossary.matches(flat.text))]
    pairs = list(dict.fromkeys((flat.text, text) for flat, text in labels if text.strip() and not flat.source_kept))
    if not pairs:
        return
    found = dict(zip(pairs, plausibility([s for s, _ in pairs], [t for _, t in pairs]), strict=True))
    for flat, text in labels:
        plausible = found.get((flat.text, text))
        if plausible is not None and plausible < FLOOR:
            flat.source_kept = True


def labels_of(job: TreeJob, contents: Sequence[Sequence[str | Nested]]
              ) -> list[tuple[FlatText, Sequence[str | Nested]]]:
    """The flat text and translated content of each label among ``job``'s attributes (``is_label``)."""
    content_of = {id(flat): content for flat, content in zip(job.flats(), contents, strict=True)}
    return [(flat, content_of[id(flat)]) for (_, name), flat in zip(job.attributes, job.attribute_flats(),
                                                                     strict=True) if is_label(name, flat.text)]
