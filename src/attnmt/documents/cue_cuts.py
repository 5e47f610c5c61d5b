"""A run of cues translated as one text (attnmt.documents.subtitles), its translation cut back into its cues: at
the cue breaks where the alignment put them (attnmt.documents.cue_text.CueBreak), in order and each cue left a word,
else by the cues' shares of the source text, at the word boundaries nearest them."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from attnmt.documents.cue_text import CueBreak, cue_markup, split_at_breaks
from attnmt.documents.flat import FlatText, has_words
from attnmt.documents.quote_forms import commas_outside
from attnmt.documents.spans import Nested
from attnmt.documents.text_emphasis import stops_after_quotes


def split_cues(flat: FlatText, content: Sequence[str | Nested], sources: Sequence[str], vtt: bool,
               target_lang: str | None = None) -> list[str] | None:
    """One run's translation as the text of each of its cues: cut at its cue breaks where they
    are in order and leave each cue a word, else by the cues' shares of the source text; None
    where it has fewer words than the run has cues.  The stop or comma that ends a quote's words goes after it as a
    text line's does (text_emphasis.stops_after_quotes, into ``target_lang``)."""
    content = stops_after_quotes(flat, content, commas_outside(target_lang))
    if len(sources) == 1:
        return [cue_markup(flat, content, vtt, sources)]
    parts = [cue_markup(flat, part, vtt, sources).strip(" ") for part in split_at_breaks(flat, content)]
    breaks = [piece.mark for piece in content
              if isinstance(piece, Nested) and isinstance(flat.marks[piece.mark].node, CueBreak)]
    endings = [*(mark.node.ending for mark in flat.marks if isinstance(mark.node, CueBreak)), ""]
    if not (breaks == sorted(breaks) and all(has_words(part) for part in parts)):
        parts = proportional(joined(parts), [len(source) for source in sources]) or []
    return [part + ending for part, ending in zip(parts, endings, strict=True)] if parts else None


def joined(parts: Sequence[str]) -> str:
    """``parts`` as one text, a space between two, but before one without words, which stays on the last word before
    it: the stop a cue break went before where the words after it went nowhere (``Park`` and ``.``: "Park.", not
    "Park .": final_stops.before_sentence_stop)."""
    text = ""
    for part in filter(None, parts):
        text += part if text and not has_words(part) else f" {part}" if text else part
    return text


def proportional(text: str, shares: Sequence[int]) -> list[str] | None:
    """``text`` cut at word boundaries into len(shares) parts of about those relative lengths,
    each with at least one word; None where ``text`` has fewer words than that."""
    words, parts = text.split(), len(shares)
    if len(words) < parts:
        return None
    ends = list(accumulate(len(word) + 1 for word in words))  # characters up to the end of each word
    cuts = [0]
    for j, share in enumerate(accumulate(shares[:-1]), start=1):
        wanted = ends[-1] * share / sum(shares)
        # Words before cut j: past the previous cut, and leaving one for each part after it.
        cuts.append(min(range(cuts[-1] + 1, len(words) - (parts - j) + 1), key=lambda c: abs(ends[c - 1] - wanted)))
    cuts.append(len(words))
    return [" ".join(words[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
