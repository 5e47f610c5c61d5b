"""The pairs a line's translation is read by where ``attnmt translate`` parted a source sentence too
long for the model (attnmt.documents.sentences.fitting_parts) and joined the parts' translations
with the source's spacing: the translation holds one sentence where the model read several, and
no stop marks where one part's translation ends.  ``attnmt score`` finds those places by the
model's own translation of each part (``own``): each part's translation is the run of words,
from where the one before ended, closest to the part's own translation by sentence chrF.
Translate's own output is the parts' own translations joined, each found exactly (chrF 100 there
alone), and scores as translate gave it; a translation written elsewhere is read by the runs of
its words that stand where the model's parts would."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from attnmt.decoding.glossary import Glossary
from attnmt.documents.pipeline import DocumentOptions, paragraph_sentences

Pairs = list[tuple[str, str]]


def sentence_parts(sentences: Sequence[str], parts: Sequence[str]) -> list[list[str]] | None:
    """The ``parts`` (the sentences a translator is given, a long one parted) of each of
    ``sentences`` (the same text's, none parted), in order; None where they do not line up."""
    groups: list[list[str]] = []
    left = iter(parts)
    for sentence in sentences:
        wanted, found, group = unspaced(sentence), "", []
        while len(found) < len(wanted):
            part = next(left, None)
            if part is None:
                return None
            group.append(part)
            found += unspaced(part)
        if found != wanted:
            return None
        groups.append(group)
    return groups if next(left, None) is None else None


def parted_groups(source: str, parts: Sequence[str], options: DocumentOptions, glossary: Glossary | None,
                  writes: Callable[[str], bool] | None) -> list[list[str]] | None:
    """The ``parts`` (``source``'s sentences a translator is given, a long one parted) of each sentence
    of ``source`` (``paragraph_sentences``, none parted: ``sentence_parts``); None where none was parted."""
    if not parts:
        return None
    groups = sentence_parts(paragraph_sentences(source, options, glossary, None, writes), parts)
    return None if groups is None or all(len(g) == 1 for g in groups) else groups


def parted_pairs(whole: Pairs, groups: Sequence[Sequence[str]],
                 own: Callable[[list[str]], Sequence[str]]) -> Pairs | None:
    """``whole`` (each sentence, none parted, with its translation) with each sentence of several
    of ``groups`` read part by part, each part by its run of the translation's words
    (``runs_like``); None where ``whole`` is not those sentences, or a translation has fewer words
    than its sentence has parts (and ``whole``, the line read whole, is not the parts' own
    translations joined)."""
    if len(whole) != len(groups) or any(unspaced(s) != unspaced("".join(g))
                                        for (s, _), g in zip(whole, groups, strict=True)):
        # The line read whole (its sentences do not show): read by every part where it is their own
        # translations joined (``own_joined``), as translate wrote it.
        parts = [part for g in groups for part in g]
        runs = own_joined(whole[0][1], own(parts)) if len(whole) == 1 else None
        return None if runs is None else list(zip(parts, runs, strict=True))
    parted = [list(g) for g in groups if len(g) > 1]
    owns = iter(own([part for g in parted for part in g]))
    pairs: Pairs = []
    for (sentence, translation), group in zip(whole, groups, strict=True):
        if len(group) == 1:
            pairs.append((sentence, translation))
            continue
        runs = runs_like(translation, [next(owns) for _ in group])
        if runs is None:
            return None
        pairs.extend(zip(group, runs, strict=True))
    return pairs


def record_group(source: str, options: DocumentOptions, fits: Callable[[str], bool],
                 writes: Callable[[str], bool] | None) -> list[list[str]] | None:
    """The parts translate gives the model of a record's text of several lines (``source``, its
    breaks line feeds), every line's, as one group to be read by runs of its reference's words (a
    line too long for the model parted too); None where it gives it one part or none."""
    parts = paragraph_sentences(source, options, None, fits, writes)
    return [parts] if len(parts) > 1 else None


def parted_references(sources: Sequence[str], references: Sequence[str], fits: Callable[[str], bool],
                      writes: Callable[[str], bool] | None,
                      own: Callable[[list[str]], Sequence[str]]) -> tuple[list[str], list[str]]:
    """``sources`` and their ``references`` (``attnmt calibrate``'s pairs, a sentence a line), each
    source the model does not read whole (``fits``) parted as translate parts it (``paragraph_sentences``,
    not split), each part with the run of its reference's words closest to the part's ``own``
    translation, as score reads a translation of such a sentence (``parted_pairs``); the pair whole
    where it cannot be read so.  Given whole, the model read it cut to its length, and its translation
    of the beginning was labelled against the whole reference.  A JSONL record's text of several lines
    (its line breaks line feeds: attnmt.cli.score_sources.record_lines) is parted at them, as translate
    gives the model each line apart (attnmt.cli.jsonl_breaks), each line with its run of the reference's
    words: given whole, the model read the break as a space."""
    whole = DocumentOptions(split=False)
    groups = [None if not source.strip() or fits(source) and "\n" not in source else
              record_group(source, whole, fits, writes) if "\n" in source else
              parted_groups(source, paragraph_sentences(source, whole, None, fits, writes), whole, None, writes)
              for source in sources]
    parts = list(dict.fromkeys(part for g in groups if g for group in g for part in group))
    owns = dict(zip(parts, own(parts), strict=True)) if parts else {}
    pairs: Pairs = []
    for source, reference, g in zip(sources, references, groups, strict=True):
        if g and "\n" in source:  # a record's lines, read by runs whatever lines with no letter it passes through
            runs = runs_like(reference, [owns[part] for part in g[0]])
            read = None if runs is None else list(zip(g[0], runs, strict=True))
        else:
            read = parted_pairs([(source, reference)], g, lambda texts: [owns[text] for text in texts]) if g else None
        pairs.extend(read or [(source, reference)])
    return [s for s, _ in pairs], [r for _, r in pairs]


def sentence_references(sources: Sequence[str], references: Sequence[str], options: DocumentOptions,
                        target_lang: str, writes: Callable[[str], bool] | None) -> tuple[list[str], list[str]]:
    """``sources`` and their ``references`` (``attnmt calibrate``'s pairs, a line each) cut into the
    pairs ``attnmt score`` reads a line by (attnmt.documents.paragraphs.line_pairs, nothing parted:
    ``parted_references`` parts them next): sentence by sentence where both sides have as many, as
    translate gives the model a line's sentences apart and rates the line by its worst; else the pair
    whole, as score reads it.  A pair with a blank side stays as it is (calibrate leaves it out); one
    whose source has no sentence for the model (numbers, punctuation, a URL), which translate passes
    through and score rates 1 without the model (attnmt.decoding.unread.copy_assessment), is left out: the model's
    translation of "12345" was fitted on, a pair no translation is rated by.  Read whole, "the boy
    laughs. a bird sings." was translated as one sentence and fitted on as one, where translate and
    score never read one so."""
    from attnmt.documents.paragraphs import line_pairs
    from attnmt.text.invisible import blank

    pairs = [pair for source, reference in zip(sources, references, strict=True)
             if blank(source) or blank(reference) or paragraph_sentences(source, options, writes=writes)
             for pair in ([(source, reference)] if blank(source) or blank(reference) else
                          line_pairs(source, reference, options, target_lang, writes=writes))]
    return [s for s, _ in pairs], [r for _, r in pairs]


def own_joined(text: str, owns: Sequence[str]) -> list[str] | None:
    """``text`` cut into ``owns`` (the model's translations of a line's sentences, in order:
    ``runs_like``) where it is they joined, spacing aside, as translate joins them; else None, and
    the line is read whole (a translation written elsewhere whose sentences do not show)."""
    if unspaced(text) != unspaced("".join(owns)) or not all(unspaced(own) for own in owns):
        return None
    return runs_like(text, owns)


def unspaced(text: str) -> str:
    """``text`` without its whitespace: a sentence and its parts (``fitting_parts`` trims each) compare so."""
    return "".join(text.split())


def runs_like(text: str, guides: Sequence[str]) -> list[str] | None:
    """``text`` cut at spaces into one run of words a guide, in order, each the run from where the
    one before ended whose sentence chrF against its guide is highest (the shortest where several
    are), the last the rest; None where ``text`` has fewer words than there are guides."""
    from attnmt.decoding.elsewhere import chrf_to

    words = [m.span() for m in re.finditer(r"\S+", text)]
    if len(words) < len(guides):
        return None
    runs, start = [], 0
    for i, guide in enumerate(guides[:-1]):
        ends = range(start + 1, len(words) - (len(guides) - 1 - i) + 1)
        texts = [text[words[start][0]:words[end - 1][1]] for end in ends]
        scores = chrf_to(texts, [guide] * len(texts))
        best = max(range(len(texts)), key=lambda k: (scores[k], -k))
        runs.append(texts[best])
        start = ends[best]
    return [*runs, text[words[start][0]:]]
