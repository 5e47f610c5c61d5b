"""A review's verbatim flag on a sentence that holds a key combination the page keeps (attnmt.documents.review).

The model reads a combination's keys with its sentence (``Close it with Alt-F4 now.``: attnmt.documents.
key_combinations), and the page writes them back as they came, over what the translation wrote in their place
(copied_words.renamed_keys: ``Strg+C``, or ``Alt-F`` where the model dropped the 4) or else at a point.  So the
verbatim rule, which read the model's translation, flagged the keys it dropped or named its own way as a number
changed (``F4`` lost) where the page shows them as written.  The rule judges such a sentence again as the page
shows it: each combination taken out of the source and out of its translation with the combinations written where
the page writes them (review_rows.with_kept_written); the flag stays where something else differs (a number of the
sentence's own words, a URL), or where the translation writes keys of its own the page does not write over
(``Alt-F5`` beside ``Alt-F4``: the 5 is no key of the source's)."""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from attnmt.decoding.dictated import places, undictated, verbatim_differs
from attnmt.decoding.quality import Assessment
from attnmt.decoding.quality_language import Languages
from attnmt.documents.flat import Placed
from attnmt.documents.kept_names import shows_combination
from attnmt.documents.key_combinations import is_combination
from attnmt.documents.review_rows import with_kept_written
from attnmt.documents.spans import Weights

VERBATIM = "verbatim"


def with_kept_keys_judged(assessment: Assessment | None, sentence: Placed, translation: str,
                          weights: Weights | None, languages: Languages) -> Assessment | None:
    """``assessment`` of ``translation`` of ``sentence``, its verbatim flag judged again without the key combinations
    the page keeps in the sentence (the module docstring); ``weights``: the translation's, which place them."""
    if assessment is None or VERBATIM not in assessment.flags:
        return assessment
    keys = kept_keys(sentence)
    if not keys:
        return assessment
    shown, _, _ = with_kept_written(sentence, translation, weights)
    source, written = (undictated(text, places(text, keys)) for text in (sentence.source, shown))
    if verbatim_differs(source, written, assessment.dictated, languages.target, languages.source):
        return assessment
    return replace(assessment, flags=[flag for flag in assessment.flags if flag != VERBATIM])


def kept_keys(sentence: Placed) -> list[str]:
    """The text of each key combination kept whole in ``sentence`` (``Alt-F4``): keys side by side (their stand-in,
    key_combinations.is_combination) or in one element (kept_names.shows_combination)."""
    start, end = sentence.span
    return [sentence.flat.text[mark.start:mark.end] for mark in sentence.flat.marks
            if mark.kept_whole and start <= mark.start < end and (is_combination(mark.node) or (
                isinstance(mark.node, etree._Element) and shows_combination(mark.node)))]
