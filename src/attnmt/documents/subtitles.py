"""SRT and WebVTT subtitles: the cue text translated, every other byte kept.

Both formats are blocks separated by blank lines; in a cue, the line with ``-->``
holds the timings (and WebVTT's cue settings), the lines before it the cue's
number or identifier, the lines after it the text.  Blocks without ``-->`` (the
``WEBVTT`` header, ``NOTE``, ``STYLE``, ``REGION``) are not cues.  That is the whole
of what is needed, so the file is read block by block here rather than through a
subtitle library: srt, webvtt-py and pysubs2 all write files back from their own
model (renumbered cues, reformatted times, dropped settings or notes), and the
promise here is that numbering, timings, settings and notes come out byte for byte.

A cue's lines are translated as one text (split into sentences as any paragraph)
and wrapped again into as many lines, at the spaces nearest even lengths; cue text
with tags (``<i>``, ``<b>``, ``<font color=…>``) goes through the inline-markup path.
Each cue is translated alone: a sentence running over two cues is translated as two
pieces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.sax.saxutils import unescape

from attnmt.documents.markup import TreeJob, Vocabulary, parse
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, Translator, flat_line, translate_flats
from attnmt.documents.spans import plain

BLOCK_GAP = re.compile(r"(\r?\n(?:[ \t]*\r?\n)+)")
FORMATS = ("srt", "vtt")


def translate_subtitle_text(text: str, translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                            where: str = "input") -> str:
    """An SRT or WebVTT file's text with each cue's text translated; everything else as it was."""
    pieces = BLOCK_GAP.split(text)  # blocks at even indices, the blank lines between them at odd ones
    cues = []  # (piece index, lines kept, text lines, line ending)
    for i in range(0, len(pieces), 2):
        ending = "\r\n" if "\r\n" in pieces[i] else "\n"
        lines = pieces[i].split(ending)
        timing = next((k for k, line in enumerate(lines) if "-->" in line), None)
        last = max((k for k, line in enumerate(lines) if line.strip()), default=-1)
        if timing is not None and last > timing:
            cues.append((i, lines[: timing + 1], lines[timing + 1: last + 1], lines[last + 1:], ending))
    texts = [" ".join(line.strip() for line in text_lines) for _, _, text_lines, _, _ in cues]
    translations = translate_cues(texts, translator, options, where)
    for (i, kept, text_lines, after, ending), translated in zip(cues, translations, strict=True):
        pieces[i] = ending.join([*kept, *wrap(translated, len(text_lines)), *after])
    return "".join(pieces)


def translate_cues(texts: Sequence[str], translator: Translator, options: DocumentOptions, where: str) -> list[str]:
    """Cue texts translated in one batched pass: tagged ones as HTML fragments, the others as text."""
    tagged = {i: parse(text, False, f"{where}, cue {i + 1}") for i, text in enumerate(texts) if "<" in text}
    jobs = {i: TreeJob(parsed.root, Vocabulary(), options) for i, parsed in tagged.items()}
    groups = [jobs[i].flats() if i in jobs else [flat_line(text)] for i, text in enumerate(texts)]
    results = translate_flats([flat for group in groups for flat in group], translator, options)
    out, first = [], 0
    for i, group in enumerate(groups):
        contents = results[first:first + len(group)]
        first += len(group)
        if i in jobs:
            jobs[i].finish(contents)
            out.append(unescape(tagged[i].serialise(None)))  # subtitles are text with tags, not HTML
        else:
            out.append(plain(contents[0]))
    return out


def wrap(text: str, lines: int) -> list[str]:
    """``text`` in ``lines`` lines (fewer if it has fewer words), cut at the spaces that make
    them most even; no cut inside a tag."""
    words = re.findall(r"(?:<[^>]*>|[^\s<])+", text) if text.strip() else [text]
    if lines <= 1 or len(words) <= 1:
        return [text.strip()]
    out, rest = [], words
    for remaining in range(lines, 1, -1):
        if len(rest) <= 1:
            break
        target = sum(len(w) + 1 for w in rest) / remaining
        cut = min(range(1, len(rest)), key=lambda k: abs(sum(len(w) + 1 for w in rest[:k]) - target))
        out.append(" ".join(rest[:cut]))
        rest = rest[cut:]
    return [*out, " ".join(rest)]
