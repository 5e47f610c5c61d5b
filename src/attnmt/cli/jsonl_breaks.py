"""A JSONL text's line breaks (every one ``str.splitlines`` knows, CRLF as one) and tabs: the parts
between them are translated apart, as a text line's fields and a text file's lines are, and as
``translate`` translates a sentence's (attnmt.decoding.sentence_parts.PART_BREAK), and each record's
output holds its breaks where they stood, the same characters, with the spaces beside them (``"a
\\nb"`` gives ``"x \\ny"``; a part's translation has none at its ends, and they were lost).  Read
whole, the model took a break for a space: ``"a dog runs.\\nA cat sleeps."`` came back as one
sentence's translation, the part after the break lost, and the break with it; and
``"Name:\\tJohn Smith"`` as ``"Fecheme Folne."``, where a text line kept the tab between the fields.

A record's hypotheses join its parts' as a paragraph's join its sentences'
(attnmt.documents.paragraphs): the k-th joins each part's k-th best (a part's last where it has
fewer), its breaks between them; score and log_prob are the parts' sums; the assessment is theirs
joined (paragraphs.text_assessment: as trustworthy as the worst part); an alignment numbers the
words of the whole text and of the whole translation (a break is whitespace, so those are the
parts' words, in order); a confidence lists each part's pieces in order, each ending with its
``</s>``.  Every part has the record's glossary; the record's prefix starts the translation of its
first part with letters (of its first part, where none has).  A record without breaks is one part,
its output as it was.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO, TypeVar

from attnmt.cli.lines import (
    SPACED_LINE_BREAK,
    Alignments,
    Inputs,
    report_not_translated,
    write_hypotheses,
    write_texts,
)
from attnmt.cli.translate_quality import (
    below_quality,
    below_quality_results,
    copy_extras,
    copy_pairs,
    keeps_source,
    marked_pairs,
    quality_fields,
)
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.quality import Assessment
from attnmt.decoding.sentence_parts import cut, with_breaks
from attnmt.decoding.translate import Translation
from attnmt.decoding.unread import copy_assessment
from attnmt.documents.letterless import reaches_model
from attnmt.documents.paragraphs import pick, text_assessment
from attnmt.inspect.align import pharaoh
from attnmt.text.speaker_labels import dialogue

T = TypeVar("T")


@dataclass
class Parted:
    """A batch of JSONL records, each record's text cut at its line breaks."""

    parts: Inputs  # every record's parts, in order, as Inputs of their own
    breaks: list[list[str]]  # each record's line breaks and tabs with the spaces beside them: one fewer than its parts
    records: list[int]  # the record (its index in the batch) of each part

    def grouped(self, values: list[T]) -> list[list[T]]:
        """``values``, one per part, as a list per record."""
        groups: list[list[T]] = [[] for _ in self.breaks]
        for record, value in zip(self.records, values, strict=True):
            groups[record].append(value)
        return groups

    def numbers(self, first_line: int) -> list[int]:
        """The input line of each part, the batch's records being lines first_line, first_line + 1, …"""
        return [first_line + record for record in self.records]


def parted(inputs: Inputs) -> Parted:
    """``inputs``' texts cut at their line breaks (the module docstring), and after the sound descriptions a part
    opens with, as ``translate`` cuts a sentence (attnmt.decoding.sentence_parts.cut): each part ends as its source
    does, "[LAUGHS]" as "[EINE LACHT]", not with the stop the model added, "[EINE LACHT.]"."""
    parts, breaks, records, speakers = Inputs([], [], []), [], [], dialogue(inputs.texts)
    for record, (text, glossary, prefix) in enumerate(zip(inputs.texts, inputs.glossaries, inputs.prefixes,
                                                          strict=True)):
        pieces, found = cut(text, speakers)
        first = next((k for k, piece in enumerate(pieces) if reaches_model(piece)), 0)
        parts.texts += pieces
        parts.glossaries += [glossary] * len(pieces)
        parts.prefixes += [prefix if k == first else None for k in range(len(pieces))]
        breaks.append(found)
        records += [record] * len(pieces)
    return Parted(parts, breaks, records)


def joined_pairs(sources: list[str], texts: list[str], found: list[Alignments]) -> Alignments:
    """Each part's word pairs (numbering the words of its source and of its translation ``texts``,
    split at whitespace, as Pharaoh's are), as pairs of the words of the whole record and of its
    whole translation, as a paragraph's sentences' are joined (attnmt.documents.paragraphs.text_pairs):
    a line break is whitespace, so each part's words follow the parts' before it."""
    from attnmt.documents.paragraphs import text_pairs

    return text_pairs(found, sources, texts, " ".join(sources), " ".join(texts))


def joined_assessment(found: list[Assessment | None], parts: list[str], texts: list[str], text: str,
                      source: str, earlier: Sequence[Assessment | None] = ()) -> Assessment | None:
    """The assessment of a record's translation ``text`` of ``source`` from its ``parts``' (``found``,
    of the parts' translations ``texts``): a part's as it is where it is the only one.  A part the
    model does not read, which passes through, has no say (a paragraph's letterless sentences have
    none: paragraphs.letterless_parts), its words no probability; a record whose every part passes
    through passes through whole, quality 1 and no flags (attnmt.decoding.unread.copy_assessment): ``12\n34``,
    each part copied, was flagged ``copied``.  ``earlier``: the record's hypotheses before, whose reading of the
    same text whole is taken (paragraphs.text_assessment)."""
    if len(found) == 1:
        return found[0]
    read = [a if reaches_model(part) else None for a, part in zip(found, parts, strict=True)]
    if not any(read):
        return copy_assessment(text_assessment(found, texts, text, source, earlier=earlier))
    return text_assessment(read, texts, text, source, earlier=earlier)


def joined_hypotheses(source: str, sources: list[str], breaks: list[str], found: list[list[Translation]],
                      extras: list[list[dict]]) -> tuple[list[Translation], list[dict]]:
    """A record's hypotheses and each one's extras (``"alignment"``: pairs; ``"confidence"``) from its
    parts' (the module docstring); none where no part has any (a blank record)."""
    if len(found) == 1:
        return found[0], extras[0]
    hypotheses: list[Translation] = []
    more = []
    for rank in range(max(map(len, found))):
        picked = [pick(each, rank) if each else None for each in found]
        added: list[dict] = [each[min(rank, len(each) - 1)] if each else {} for each in extras]  # as pick picks
        texts = [h.text if h else "" for h in picked]
        text = with_breaks(texts, breaks)
        assessed = joined_assessment([h.assessment if h else None for h in picked], sources, texts, text, source,
                                     [h.assessment for h in hypotheses])
        hypotheses.append(Translation(text, sum(h.score for h in picked if h), sum(h.log_prob for h in picked if h),
                                      assessed))
        joined: dict = {}
        if any("alignment" in each for each in added):
            joined["alignment"] = joined_pairs(sources, texts, [each.get("alignment", []) for each in added])
        if any("confidence" in each for each in added):
            joined["confidence"] = [piece for each in added for piece in each.get("confidence", [])]
        more.append(joined)
    return hypotheses, more


def kept_records(translating: Callable[[], list[T]], records: Parted, where: str,
                 first_line: int) -> tuple[list[T], int]:
    """``translating()``'s outputs, one per part of ``records`` (lines first_line, first_line + 1, …),
    and how many records the model failed on: such a record is left empty, as a line is
    (attnmt.cli.lines.kept), its breaks too (each part has the empty output of the part the model
    failed on), and named once (report_not_translated); the other records keep their translations."""
    try:
        return translating(), 0
    except SentencesFailed as failed:
        outputs, failures = failed.outputs, failed.failures
    lost: dict[int, int] = {}  # record: the first part of it the model failed on
    for part in sorted(failures):
        lost.setdefault(records.records[part], part)
    for record, part in lost.items():
        report_not_translated(where, first_line + record, failures[part])
        records.breaks[record] = [""] * len(records.breaks[record])
    kept = [outputs[lost[record]] if record in lost else output
            for record, output in zip(records.records, outputs, strict=True)]
    return kept, len(lost)


def write_record_texts(args: argparse.Namespace, out: TextIO, records: Parted, sources: list[str], texts: list[str],
                       alignments: list[Alignments] | None, assessed: list[Assessment | None] | None = None) -> None:
    """``text`` output of each record (its text ``sources``) from its parts' translations ``texts``,
    their ``alignments`` (None without --alignments) and ``assessed`` assessments (None without
    quality): the parts joined by the record's breaks, which attnmt.cli.lines.write_texts writes as
    spaces, a break's own spaces with it (one output line per record), and what --below-quality
    writes for the record's joined assessment in place of its translation
    (attnmt.cli.translate_quality.below_quality), its alignment the mark's or the copy's."""
    every: list[Assessment | None] = assessed or [None] * len(texts)
    found = records.grouped(every)
    aligned = records.grouped(alignments) if alignments is not None else None
    written, pairs = [], []
    for k, (source, breaks, own, each) in enumerate(zip(sources, records.breaks, records.grouped(records.parts.texts),
                                                        records.grouped(texts), strict=True)):
        text = with_breaks(each, breaks)
        a = joined_assessment(found[k], own, each, text, source)
        written.append(below_quality(args, source, text, a))
        if aligned is not None:
            joined = joined_pairs(own, each, aligned[k])
            pairs.append(copy_pairs(source) if keeps_source(args, a) else marked_pairs(args, joined, a))
    write_texts(out, written, pairs if aligned is not None else None, breaks=SPACED_LINE_BREAK)


def write_record_hypotheses(args: argparse.Namespace, out: TextIO, records: Parted, sources: list[str],
                            first_line: int, results: list[list[Translation]], extras: list[list[dict]]) -> None:
    """``tsv`` or ``jsonl`` output of records first_line, first_line + 1, … (their texts ``sources``)
    from their parts' hypotheses ``results`` (each text as written) and ``extras`` (joined_hypotheses),
    each hypothesis's quality and flags those of its joined assessment, and with --below-quality
    source, a record's text in place of its hypotheses under the threshold
    (attnmt.cli.translate_quality.below_quality_results), its extras the copy's."""
    joined_results, joined_extras = [], []
    for source, own, breaks, found, more in zip(sources, records.grouped(records.parts.texts), records.breaks,
                                                records.grouped(results), records.grouped(extras), strict=True):
        hypotheses, added = joined_hypotheses(source, own, breaks, found, more)
        joined_results.append(hypotheses)
        joined_extras.append([{**(copy_extras(args, source) if keeps_source(args, h.assessment) else written(each)),
                               **quality_fields(h.assessment, args.output_format)}
                              for h, each in zip(hypotheses, added, strict=True)])
    results, extras = below_quality_results(args, sources, joined_results, joined_extras)
    write_hypotheses(out, first_line, results, args.output_format, extras)


def written(extras: dict) -> dict:
    """A hypothesis's extras as written: its alignment's pairs as Pharaoh's."""
    return {**extras, "alignment": pharaoh(extras["alignment"])} if "alignment" in extras else extras
