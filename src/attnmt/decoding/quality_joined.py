"""One Assessment for a text translated sentence by sentence (a paragraph, a line, a document's
run): as trustworthy as its worst sentence, with every flag any of them raised, and the copied rule
(attnmt.decoding.quality) read over the words of all of them, where a sentence alone may be too
short to break it; the verbatim rule is read over the whole text and its translation, and so is the
language rule, which a sentence of three words is too short to judge (``read_whole``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from attnmt.decoding.dictated import joined_dictated, verbatim_differs
from attnmt.decoding.quality import EMPTY, FLAGS, Assessment
from attnmt.decoding.quality_features import COPIED_SHARE, WholeReading
from attnmt.decoding.quality_language import UNKNOWN, Languages, in_other_language, in_source_language
from attnmt.text.terminal_codes import LINE_CODES


def joined(parts: Sequence[Assessment | None]) -> Assessment | None:
    """One Assessment for a text translated sentence by sentence: as trustworthy as its worst
    sentence (the least quality), with every flag any sentence raised, and ``copied`` where the
    whole text breaks that rule (``copied_whole``); None where none was assessed.  Of one sentence, it keeps
    what its rules read (``readings_of``), which ``read_whole`` takes where it reads the same whole."""
    found = [a for a in parts if a is not None]
    if not found:
        return None
    raised = {name for a in found for name in a.flags} | ({"copied"} if copied_whole(found) else set())
    return Assessment(min(a.quality for a in found), [name for name in (EMPTY, *FLAGS) if name in raised],
                      all(a.calibrated for a in found), [w for a in found for w in a.words],
                      dictated=joined_dictated([a.dictated for a in found]),
                      whole=next(iter(readings_of(found[0])), None) if len(found) == 1 else None)


def readings_of(found: Assessment) -> list[WholeReading]:
    """What the verbatim and language rules read of ``found``'s texts and found, where known: whole
    (``read_whole``: Assessment.whole), and its sentence (its features': Features.reading)."""
    features = found.features.reading() if found.features is not None else None
    return [reading for reading in (found.whole, features) if reading is not None]


def copied_whole(parts: Sequence[Assessment]) -> bool:
    """The copied rule over the words of all ``parts``' translations: a copy of a line of one-word
    sentences ("Cancel. Retry. Abort.") has no sentence of two words to break it alone."""
    known = [a.features for a in parts if a.features is not None]
    kept = sum(f.kept() for f in known)  # names and numbers kept as written (Features.copies)
    words = sum(f.words for f in known) - kept
    return words >= 2 and round(sum(f.copied * f.words for f in known)) - kept >= COPIED_SHARE * words


def read_whole(found: Assessment | None, source: str, translation: str, languages: Languages = UNKNOWN,
               earlier: Sequence[Assessment | None] = ()) -> Assessment | None:
    """``found``, the assessment of ``translation`` of the text ``source`` (one sentence's, or its
    sentences' ``joined``), with the verbatim rule read over the two whole texts.  The sentences the
    model read have their URLs, e-mail addresses and file names taken out, so a URL dropped or added was never
    seen there; and a number may sit in another sentence of a translation than of its source.  The
    language rule (``languages``: as quality.assess's) fires where a sentence or the whole translation
    breaks it: "The dog runs. The cat sleeps. The man reads." as a German translation has too few
    function words in each sentence to judge, and enough in all.  What a glossary or a prefix dictated
    (``Assessment.dictated``) is read as the sentences read it (dictated.verbatim_differs).  A terminal's codes
    (attnmt.text.terminal_codes) are read as the model read them, not at all: they are carried, and a hyperlink's
    URL glued to the words it wraps ("\\x1b]8;;https://example.org\\x1b\\\\link") differed where those words did.  Where
    ``found`` (a line of one sentence: its features) or one of ``earlier`` (the hypotheses of an n-best list read
    before it) read these very texts, what the rules found is taken, not run again (``readings_of``); the result
    keeps what they found (``Assessment.whole``)."""
    if found is None:
        return None
    source, translation = LINE_CODES.sub("", source), LINE_CODES.sub("", translation)
    read = (source, translation, found.dictated, languages.target, languages.source)
    readings = (reading for a in (found, *earlier) if a is not None for reading in readings_of(a))
    known = next((reading for reading in readings if reading.read == read), None)
    verbatim = known.verbatim if known else verbatim_differs(*read)
    language = known.language if known else None
    if language is None and "language" not in found.flags:  # the flag raised: the rule need not be read
        language = in_other_language(translation, languages.target) or in_source_language(source, translation,
                                                                                          languages)
    whole = {"verbatim": verbatim, "language": "language" in found.flags or bool(language)}
    flags = [name for name in (EMPTY, *FLAGS) if whole.get(name, name in found.flags)]
    return replace(found, flags=flags, whole=WholeReading(read, verbatim, language))
