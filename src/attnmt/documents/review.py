"""The sentences of a translated document that need review: each sentence's quality
(attnmt.decoding.quality.assess), and the ones under a threshold or flagged by a rule listed with
where they are, as a table a translator opens beside the document (docs/documents.md, "Sentences
that need review").

    translate_flats ─ each batch's new (source, translation) pairs assessed ─ Review.check
      ─ every place of a sentence that needs review (needs_review): a Segment ─ Review.write: a TSV file

A sentence needs review where its quality is under the threshold, where its translation is empty,
or where a rule flags it at any quality (``needs_review``: a dropped negation, a number changed,
a translation in another language, ...), since a confident translation can still say the opposite
of its source.

A sentence repeated (a footer) is assessed once and listed at each of its places.  With
``source_below``, a sentence under the threshold (``under_threshold``: a rule's flag alone keeps
its translation) is written into the document as its source, its
marks placed word for word (the weights of a sentence that is its own translation), and the
table still shows the translation that was turned down; a block whose sentences all keep their
source is marked so (FlatText.source_kept), and its format does not say it is in the target
language.  A sentence with words whose
translation came back empty is listed too, at any threshold, as ``attnmt score`` gives it: quality
0, the flags ``empty`` and ``low_quality`` (attnmt.decoding.quality.empty_translation).

The table shows each sentence as the document does, in plain text: the things the model never
reads (a URL, an e-mail address, inline code: the flat text's atoms) are put back into the source
and the translation where the document gets them (``with_atoms``), so that a reviewer can find
the sentence; the tags around words are left out; a run of white space is one space
(``on_one_line``); and the translation ends as the document ends it (stops.without_added_end: a cell's "Zwei
Hunde", not the model's "Zwei Hunde.").  The quality is the sentence's without them,
as the model read it.

The table: a header row, then one row a sentence in document order; tab-separated, a field
quoted only where it holds a tab, a line break or a double quote (Python's csv, as spreadsheets
read it).  Office files and e-books: ``part`` (the archive member), ``paragraph`` (its n-th
paragraph with words to translate, from 1; one of numbers or symbols alone is not counted; a text
no paragraph holds, a formula's result text, a drop-down's item or an index entry, is numbered after
the paragraphs of the part that holds it: Review.places_after); text files (plain, HTML, XML,
subtitles): ``line``.  Then
``quality`` (4 decimals), ``flags`` (comma-separated, ``-`` for none), ``source``, ``translation``.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from attnmt.config_ranges import truth_value
from attnmt.decoding import MAX_TOKENS
from attnmt.decoding.calibration import Calibration
from attnmt.decoding.inputs import TextCodec, check_tokenizer
from attnmt.decoding.quality import (
    EMPTY,
    Assessment,
    Assessor,
    empty_translation,
    low_quality_threshold,
    shown_quality,
)
from attnmt.decoding.quality_language import UNKNOWN, Languages
from attnmt.decoding.quality_options import check_assessing, check_threshold
from attnmt.documents.failed import mark_source_kept
from attnmt.documents.flat import LINE_ENDS, Place, Placed
from attnmt.documents.review_keys import with_kept_keys_judged
from attnmt.documents.review_rows import with_atoms
from attnmt.documents.spans import Weights, identity
from attnmt.documents.stops import EndAtoms, without_added_end
from attnmt.documents.translators import ModelTranslator
from attnmt.errors import ConfigError, OutputError
from attnmt.files import write_text
from attnmt.model import Transformer, check_model

# sources, their translations -> each pair's Assessment: quality.Assessor.assess, bound to a model (None where
# both are blank; quality.assess gives None for an empty translation too, which Review.check then fills in)
Assess = Callable[[Sequence[str], Sequence[str]], Sequence[Assessment | None]]


@dataclass
class Segment:
    """One sentence that needs review, at one of its places."""

    place: Place
    source: str
    translation: str
    quality: float
    flags: list[str]


# What a quality is, said beside a review of a model without a calibration (the command line, the server).
UNCALIBRATED = ("the model has no quality calibration (attnmt calibrate): a quality is exp(mean log-prob), "
                "which ranks sentences but is no probability")


@dataclass
class Review:
    """Collects the sentences that need review (under ``threshold``, empty, or flagged by a rule:
    ``needs_review``) while a document is translated (hand it to
    attnmt.documents.translate_file, or to any translate_* of attnmt.documents that takes ``review``).

    assess:        (sources, translations) -> their Assessments (``model_review`` binds a model's)
    threshold:     a quality under it needs review
    source_below:  write the source sentence into the document in place of a translation under
                   ``threshold`` (or empty: ``under_threshold``), not of one only a rule flags
    segments:      what needs review so far, in document order
    sentences:     how many sentences were assessed at all their places
    archive:       whether the document is an archive (an office file, an e-book: its table's places
                   are part and paragraph, not line); the translation of one sets it
                   (attnmt.documents.office), so that a table with no rows has the columns too
    counted:       how many of ``sentences`` are at each place, so that ``withdraw`` can take them back
    languages:     the document's and its translation's, which the verbatim rule reads (review_keys)"""

    assess: Assess
    threshold: float
    source_below: bool = False
    segments: list[Segment] = field(default_factory=list)
    sentences: int = 0
    archive: bool = False
    counted: Counter[Place] = field(default_factory=Counter)
    languages: Languages = UNKNOWN

    def check(self, sources: list[str], texts: list[str], weights: list[Weights | None],
              placed: Sequence[Placed]) -> tuple[list[str], list[Weights | None]]:
        """One batch of ``translate_flats``: ``sources`` (each once) and their translations and
        weights; ``placed``: every sentence of the batch's blocks, in order.  Records what needs
        review (each sentence with its atoms put back: ``with_atoms``); returns the texts and
        weights the document gets (the source, word for word, where ``source_below`` turns a
        translation under the threshold down, each flat text whose sentences all are turned down marked so:
        ``mark_source_kept``)."""
        found = dict(zip(sources, zip(texts, weights, self.assess(sources, texts), strict=True), strict=True))
        ends: dict[int, EndAtoms] = {}  # each flat text's, found once
        for sentence in placed:
            if sentence.source not in found or not sentence.flat.seen:
                continue  # no letters: it passed through untranslated; or a copy no reader sees
            self.sentences += 1
            self.counted[sentence.place or Place(None, 0)] += 1
            translation, found_weights, assessment = found[sentence.source]
            assessment = with_kept_keys_judged(assessment, sentence, translation, found_weights, self.languages)
            if needs_review(assessment, translation, self.threshold):
                assessment = assessment or empty_translation(None, self.threshold)  # empty, not assessed
                source = with_atoms(sentence, sentence.source, identity(len(sentence.source.split())))
                atoms = ends.setdefault(id(sentence.flat), EndAtoms(sentence.flat))
                written = without_added_end(atoms, sentence.span, translation)  # as the document ends it
                self.segments.append(Segment(sentence.place or Place(None, 0), on_one_line(source),
                                             on_one_line(with_atoms(sentence, written, found_weights)),
                                             assessment.quality, assessment.flags))
        if not self.source_below:
            return texts, weights
        turned_down = [under_threshold(found[s][2], t, self.threshold) for s, t in zip(sources, texts, strict=True)]
        mark_source_kept(placed, {s for s, down in zip(sources, turned_down, strict=True) if not down},
                         {s for s, down in zip(sources, turned_down, strict=True) if down})
        return ([s if down else t for s, t, down in zip(sources, texts, turned_down, strict=True)],
                [identity(len(s.split())) if down and w is not None else w
                 for s, w, down in zip(sources, weights, turned_down, strict=True)])

    def withdraw(self, places: set[Place]) -> None:
        """The sentences at ``places`` neither listed nor counted: the document shows their source
        there after all (an Excel table's header kept for a formula that names its column,
        attnmt.documents.tables), so no translation of theirs is left to review."""
        self.segments = [segment for segment in self.segments if segment.place not in places]
        self.sentences -= sum(self.counted.pop(place, 0) for place in places)

    def reshown(self, place: Place | None, before: str, after: str) -> None:
        """The first row at ``place`` whose translation shows ``before`` as a whole shows ``after`` there: a thing kept
        whole in its sentence that the document writes again once the sentence is reviewed (a form's chosen item, which
        shows its translation: attnmt.documents.word_lists; a data-bound control given the text of the one that sets
        its store: bound_controls), which the row showed as it came ("Der Mann fährt a red car", the document showing
        "ein rotes Auto").  None, a block outside any paragraph: no row shows it."""
        shown, now = on_one_line(before), on_one_line(after)
        found = re.compile(rf"(?<!\w){re.escape(shown)}(?!\w)")
        for k, segment in enumerate(self.segments):
            if place is not None and shown and segment.place == place and found.search(segment.translation):
                translation = found.sub(lambda _: now, segment.translation, count=1)
                self.segments[k] = replace(segment, translation=translation)
                return

    def written(self, place: Place | None, source: str, text: str) -> None:
        """The row at ``place`` of ``source``, a text the document holds apart from the sentence it is chosen into (a
        list's item, a conditional text's choice: attnmt.documents.chosen_items), shows ``text``, the document's
        translation of it: the row showed the model's, "Ein rotes Auto.", where the list offers "ein rotes Auto".
        Where ``source`` is several sentences (rows of its parts), or ``source_below`` wrote the source in place of
        the translation (the row shows the one turned down), the row is left as it is."""
        rows = [k for k, segment in enumerate(self.segments)
                if place is not None and segment.place == place and segment.source == on_one_line(source)]
        if len(rows) != 1:
            return
        segment = self.segments[rows[0]]
        if not (self.source_below and (segment.quality < self.threshold or EMPTY in segment.flags)):
            self.segments[rows[0]] = replace(segment, translation=on_one_line(text))

    def places_after(self, members: Sequence[str]) -> list[Place]:
        """A place for each text that no paragraph holds (a formula's result literal, an index entry's
        words: attnmt.documents.result_literals, index_entries), ``members`` naming the member that holds
        each: numbered there after the paragraphs counted so far, in order, so that the table lists it
        with its member's other texts."""
        last: Counter[str] = Counter()
        for counted in self.counted:
            if counted.part is not None:
                last[counted.part] = max(last[counted.part], counted.number)
        places = []
        for member in members:
            last[member] += 1
            places.append(Place(member, last[member]))
        return places

    def listed(self) -> tuple[int, Counter[Place]]:
        """What is listed and counted so far, for ``nest_places``."""
        return len(self.segments), Counter(self.counted)

    def nest_places(self, listed: tuple[int, Counter[Place]], member: str | None) -> None:
        """The sentences listed and counted since ``listed`` (a package embedded in the file, translated
        as a file of its own: a chart's workbook) placed in ``member``, the package: each part is
        ``member/part``, so that its ``xl/sharedStrings.xml`` is told apart from the file's own parts;
        None: neither listed nor counted, the package kept as it was."""
        first, before = listed
        added = self.counted - before
        self.segments[first:] = [] if member is None else [
            replace(segment, place=Place(f"{member}/{segment.place.part}", segment.place.number))
            for segment in self.segments[first:]]
        self.sentences -= sum(added.values())
        self.counted = before
        if member is not None:
            self.counted += Counter({Place(f"{member}/{place.part}", place.number): n for place, n in added.items()})
            self.sentences += sum(added.values())

    def table(self) -> str:
        """The segments as the module docstring's TSV, header first."""
        out = io.StringIO()
        rows = csv.writer(out, delimiter="\t", lineterminator="\n")
        rows.writerow([*(["part", "paragraph"] if self.archive else ["line"]), "quality", "flags", "source",
                       "translation"])
        for s in self.segments:
            rows.writerow([*place_of(s, self.archive).values(), shown_quality(s.quality), ",".join(s.flags) or "-",
                           s.source, s.translation])
        return out.getvalue()

    def rows(self) -> list[dict]:
        """The table's rows as dicts of its columns (an API's JSON): ``quality`` cut down to 4
        decimals (shown_quality), ``flags`` a list."""
        return [{**place_of(s, self.archive), "quality": float(shown_quality(s.quality)),
                 "flags": s.flags, "source": s.source, "translation": s.translation} for s in self.segments]

    def write(self, path: str | Path) -> None:
        """The table into ``path``, which appears whole (or is left as it was)."""
        write_text(Path(path), self.table(), OutputError)

    def summary(self, path: str | Path) -> str:
        """One line for a person: how many sentences need review, how many of them are under the threshold
        (or empty: what ``source_below`` turns down) and how many a rule alone flags, and where they are
        listed."""
        under = sum(s.quality < self.threshold or EMPTY in s.flags for s in self.segments)
        return (f"{len(self.segments)} of {self.sentences} sentences need review ({under} with quality under "
                f"{self.threshold:g} or empty, {len(self.segments) - under} flagged by a rule alone): listed in {path}")


def check_reviewing(calibration: object, min_quality: object, source_below: object, max_tokens: object) -> None:
    """One clear error for a review's arguments that it cannot take: a ``calibration`` that is no
    ``load_calibration`` result (its path was an AttributeError), a ``min_quality`` that is no number from
    0 to 1, a ``max_tokens`` under 1 (quality_options.check_assessing), or a ``source_below`` that is no bool
    (``source_below="no"`` was taken as true: every source under the threshold kept in the document)."""
    check_threshold(min_quality, "min_quality")
    check_assessing(calibration, None, max_tokens)
    if truth_value(source_below) is None:
        raise ConfigError(f"source_below: expected True or False, got {source_below!r:.60}")


def check_review(review: object) -> None:
    """One clear error for a ``review`` that is neither None nor a Review (a path, ``review="r.tsv"``, was
    an AttributeError once the first sentences were translated)."""
    if review is not None and not isinstance(review, Review):
        raise ConfigError(f"review: expected None or a Review (model_review(model, tokenizer, ...)), got "
                          f"{type(review).__name__} {review!r:.60}")


def place_of(segment: Segment, archive: bool) -> dict[str, str | int]:
    """Where ``segment`` is: {"part", "paragraph"} in an archive, else {"line"}."""
    place = segment.place
    return {"part": place.part or "", "paragraph": place.number} if archive else {"line": place.number}


# What a reader sees as one space between words: a run of spaces, tabs and line breaks (HTML's white space,
# and every other character str.splitlines breaks a line at).  A no-break, thin or other Unicode space is the
# writer's choice (beside a French « guillemet », inside "10 km": U+202F) and is shown as it stands.
BLANKS = re.compile(rf"[ \t{LINE_ENDS}]+")


def on_one_line(text: str) -> str:
    """``text`` as a row shows it, for every format alike: each run of ``BLANKS`` one space, none at its
    ends, so that a sentence an XML file writes over two lines, indented, or one with a picture shown as
    nothing between its words (``with_atoms``) reads as it does on the page, on one line of the table."""
    return BLANKS.sub(" ", text).strip(" ")


def needs_review(assessment: Assessment | None, translation: str, threshold: float) -> bool:
    """What the table lists: a sentence under the threshold or empty (``under_threshold``), or one a rule
    flags at any quality (a negation dropped, a number changed, a translation in another language:
    quality.FLAGS but low_quality, which is the threshold's own), as the server's page marks one."""
    return under_threshold(assessment, translation, threshold) or (
        assessment is not None and any(flag != "low_quality" for flag in assessment.flags))


def under_threshold(assessment: Assessment | None, translation: str, threshold: float) -> bool:
    """Under the threshold, or empty at any threshold (a sentence with words always has some translation):
    what ``source_below`` turns down; a rule's flag alone does not, the translation may well be right."""
    return not translation.strip() or (assessment is not None and assessment.quality < threshold)


def reviewing(translator: ModelTranslator, calibration: Calibration | None = None,
              min_quality: float | None = None, source_below: bool = False, languages: Languages = UNKNOWN) -> Review:
    """A Review of what ``translator`` translates, assessed from its own search: ``translator``
    gets an Assessor (attnmt.decoding.quality) and the Review takes each batch's Assessments from
    it, so the decoder does not run a second time over the translations (``model_review`` does).
    The threshold is as ``model_review``'s.  Hand the document to ``translator`` itself (a
    translate_* of attnmt.documents that takes it): a sentence some other translator translated
    is a ConfigError (``taken_from``), and so is a ``translator`` that is no ModelTranslator (None,
    or one of a user's own, was an AttributeError here): no other has a search to assess from.  The other
    arguments are checked as ``model_review``'s (``check_reviewing``); ``languages`` are read as
    ``model_review`` reads them (without them, the flags language and negation never fired)."""
    if not isinstance(translator, ModelTranslator):
        raise ConfigError(f"translator: reviewing() assesses from a ModelTranslator's own search, got "
                          f"{type(translator).__name__}; for another translator, use model_review(model, tokenizer, "
                          "...), which assesses its translations with the model")
    check_reviewing(calibration, min_quality, source_below, translator.max_tokens)
    threshold = low_quality_threshold(calibration, min_quality)
    translator.quality = Assessor(calibration, threshold, translator.max_tokens, languages)
    return Review(partial(taken_from, translator), threshold, source_below, languages=languages)


def taken_from(translator: ModelTranslator, sources: Sequence[str],
               translations: Sequence[str]) -> list[Assessment | None]:
    """``translator.taken``, after a ConfigError where it never translated one of ``sources``: the
    document went through another translator (``translate_file`` builds its own), and the review
    listed nothing and said all was well, every sentence without an assessment."""
    missing = next((source for source in sources if source not in translator.assessed), None)
    if missing is not None:
        raise ConfigError(f"review: a reviewing() review follows only its own ModelTranslator, and {missing!r:.60} "
                          "went through another; translate with that translator (translate_office, translate_lines, "
                          "...), or use model_review(model, tokenizer, ...) with translate_file")
    return translator.taken(sources, translations)


def model_review(model: Transformer, tokenizer: TextCodec, calibration: Calibration | None = None,
                 min_quality: float | None = None, source_below: bool = False, max_tokens: int = MAX_TOKENS,
                 languages: Languages = UNKNOWN) -> Review:
    """A Review that assesses with ``model`` (attnmt.decoding.quality.Assessor, ``calibration`` from
    attnmt.decoding.calibration.load_calibration); the threshold is ``min_quality``, else the
    calibration's, else quality.LOW_QUALITY: the one the ``low_quality`` flag uses.  A ``model`` that
    is no Transformer, or a ``tokenizer`` that is none, is a ConfigError here (``check_model``,
    ``check_tokenizer``), not at the first sentence assessed, once a document has been read; so are
    the other arguments that it cannot take (``check_reviewing``).  ``languages``: the document's and its
    translation's, which the flags language and negation read (attnmt.decoding.quality_language.Languages)."""
    check_model(model)
    check_tokenizer(tokenizer)
    check_reviewing(calibration, min_quality, source_below, max_tokens)
    threshold = low_quality_threshold(calibration, min_quality)
    return Review(partial(Assessor(calibration, threshold, max_tokens, languages).assess, model, tokenizer), threshold,
                  source_below, languages=languages)

