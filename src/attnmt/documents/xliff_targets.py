"""Which XLIFF targets are written (attnmt.documents.xliff): where there is none, where one holds
no text, and where one holds text that is no translation yet.

A target with text is a translation already (a person's, or an earlier run's, perhaps reviewed
since) and is kept, as CAT tools' and pre-translation tools' "fill the empty targets" does; but
not where its state says it is still to be translated (1.2's ``new`` or ``needs-translation`` on
the ``<target>``, XLIFF 2's ``initial`` on the ``<segment>``: what attnmt writes where a review kept
some source text, "for a translator or a later run to fill"), nor where it is its source's copy
with no state, or one of those (Okapi copies each source into its target).  Any other state
(``translated``, ``needs-review-*``, ``final``, ``signed-off``, XLIFF 2's ``reviewed``) keeps it.

A 1.2 target of ``<mrk mtype="seg">`` segments (Trados's) is judged segment by segment: in a
target with text, each empty segment (or one that is its source segment's copy, the target saying
no state) is filled, and the others are kept (open_segments).  A segment of it that kept its
source text under a review (--below-quality source) is left as it came, empty, for a later run to
fill (reopen_segments): a state on the whole target would have that run translate again the
segments a person filled.

CAT tools say what is finished in attributes of their own, not in the target's state, and what
they say wins: a Trados segment whose ``<sdl:seg>`` says ``locked="true"``, or a ``conf`` other
than ``Draft``, ``RejectedTranslation`` or ``RejectedSignOff`` (``Translated``,
``ApprovedTranslation``, ``ApprovedSignOff``: sealed_segments), a memoQ unit locked or confirmed
(its ``mq:locked``, its ``mq:status``: sealed_unit) and a Phrase one (its ``m:locked``,
``m:confirmed``) are kept as they are, even empty or a copy of the source; so is a 1.2 unit that says
``approved="yes"`` of a target with text, whatever its
state.  A Trados unit with no target, or an empty one, holds no one's work: its
target is written, its finished segments in it empty, as they came, and the others filled
(needs_target, unsealed).  A Trados segment filled here says it is a machine's draft, and a memoQ
unit that it is pre-translated (say_drafted).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import named
from attnmt.errors import warn

# The states that say a target holding text is still to be translated: 1.2's, on its <target>, and
# XLIFF 2's, on its <segment>.
TO_TRANSLATE_1 = frozenset(("new", "needs-translation"))
TO_TRANSLATE_2 = frozenset(("initial",))
# What a target says where some of its sentences kept their source text (--below-quality source):
# it is still to be translated (1.2's needs-translation, its qualifier staying mt-suggestion; 2's initial).
PART_STATE_1 = {"state": "needs-translation"}
PART_STATE_2 = {"state": "initial"}
# Trados's (.sdlxliff) status of each segment, an <sdl:seg id="mid"> in the unit's <sdl:seg-defs>:
# the confirmation levels that leave a segment still to be translated (none said is one too).
SDL_SEG = "{http://sdl.com/FileTypes/SdlXliff/1.0}seg"
SDL_OPEN = frozenset(("Draft", "RejectedTranslation", "RejectedSignOff"))
# What Trados's status of a segment filled here says: a draft, from machine translation.
SDL_DRAFT = {"conf": "Draft", "origin": "mt"}
# memoQ's (.mqxliff) status of each trans-unit: its mq:locked, and the mq:status of a confirmed one
# (Proofread: confirmed in the Reviewer 2 role, memoQ's last).
MQ_LOCKED, MQ_STATUS = "{MQXliff}locked", "{MQXliff}status"
MQ_CONFIRMED = frozenset(("ManuallyConfirmed", "Reviewer1Confirmed", "Reviewer2Confirmed", "Proofread", "Locked"))
# What memoQ's status of a unit filled here says: pre-translated, not confirmed (memoQ's name for the
# state, as its server's pre-translation options spell it), which memoQ shows as a translation to review.
MQ_DRAFT = "Pretranslated"
# Phrase's (Memsource, .mxliff) status of each trans-unit: its m:locked, and m:confirmed, the last workflow
# step that confirmed it (0: none).
PHRASE = "{http://www.memsource.com/mxlf/2.0}"
PHRASE_LOCKED, PHRASE_CONFIRMED = f"{PHRASE}locked", f"{PHRASE}confirmed"


@dataclass
class Slot:
    """One place a translation goes: ``source`` (what is translated: a ``<source>``, or 1.2's
    ``<seg-source>``) into the ``<target>`` of ``holder``, right after the source; ``holder`` is a
    1.2 ``<trans-unit>`` (its target then says the state) or an XLIFF 2 ``<segment>`` (it says it)."""

    holder: etree._Element
    source: etree._Element
    segment: bool

    def target(self) -> etree._Element | None:
        return self.holder.find(named(self.source, "target"))

    def state(self) -> str | None:
        """What the target's state says (on 1.2's target, on XLIFF 2's segment); None for none."""
        stating = self.holder if self.segment else self.target()
        return None if stating is None else stating.get("state")


def has_content(element: etree._Element | None) -> bool:
    """Whether a source holds something to translate or copy: text (has_text) or a code.  Spaces alone,
    however written (plain, ``&#160;``, a CDATA section), are nothing, and so are they beside comments
    and processing instructions alone (``<![CDATA[   ]]><!-- c -->``): such a source got a target of
    spaces, or an empty one, said to be translated."""
    return element is not None and (any(isinstance(child.tag, str) for child in element) or has_text(element))


def shown(element: etree._Element) -> str:
    """The text an element shows, in it or in the codes it holds (comments aside), its runs of
    whitespace one space."""
    return " ".join("".join(element.itertext(etree.Element)).split())


def has_text(element: etree._Element | None) -> bool:
    """Whether an element shows any text, in it or in the codes it holds (comments aside)."""
    return element is not None and bool(shown(element))


def is_open(slot: Slot, target: etree._Element | None, source: etree._Element) -> bool:
    """Whether ``target`` (the slot's target, or one of its segments) is still to be translated:
    there is none, it shows no text (codes or empty segments alone, as Trados and Okapi write them
    before translation: ``<target><g id="1"><mrk mtype="seg" mid="1"/></g></target>``), the slot's
    state says so, or it is a copy of ``source`` and the slot says no state."""
    if not has_text(target):
        return True
    state = slot.state()
    to_translate = TO_TRANSLATE_2 if slot.segment else TO_TRANSLATE_1
    return state in to_translate or (state is None and shown(target) == shown(source))


def seg_marks(element: etree._Element) -> dict[str, etree._Element]:
    """1.2's segments in ``element`` (a seg-source or a target), by their ``mid``."""
    return {mrk.get("mid", ""): mrk for mrk in element.iter("{*}mrk") if mrk.get("mtype") == "seg"}


def is_segment(element: etree._Element) -> bool:
    """Whether an element is one of 1.2's segments, ``<mrk mtype="seg">``."""
    return isinstance(element.tag, str) and etree.QName(element).localname == "mrk" and element.get("mtype") == "seg"


def sealed_unit(slot: Slot) -> bool:
    """Whether memoQ says the slot's 1.2 unit is locked or confirmed (its ``mq:locked``, ``mq:status``), or
    Phrase does (its ``m:locked="true"``, an ``m:confirmed`` other than 0: a name or a number it copied into
    the target and locked was its source's copy, translated again), or the unit says its target with text
    is approved (1.2's ``approved="yes"``, as Okapi and Weblate write it: a reviewed ``<target>OK</target>``
    that is its source's copy, a name, was written again)."""
    unit = slot.holder
    return not slot.segment and (unit.get(MQ_LOCKED, "").lower() in ("locked", "true")
                                 or unit.get(MQ_STATUS) in MQ_CONFIRMED
                                 or unit.get(PHRASE_LOCKED, "").strip().lower() == "true"
                                 or unit.get(PHRASE_CONFIRMED, "0").strip() not in ("", "0")
                                 or unit.get("approved", "").strip() == "yes" and has_text(slot.target()))


def sealed_segments(slot: Slot) -> frozenset[str]:
    """The ``mid`` of each segment of the slot's 1.2 unit that Trados's ``<sdl:seg>`` says is locked
    or confirmed (a ``conf`` not in SDL_OPEN)."""
    if slot.segment:
        return frozenset()
    return frozenset(seg.get("id", "") for seg in slot.holder.iter(SDL_SEG)
                     if seg.get("locked") == "true" or seg.get("conf", "Draft") not in SDL_OPEN)


def open_segments(slot: Slot) -> dict[etree._Element, etree._Element]:
    """The segments of a 1.2 target with text to fill (each empty one, or its source segment's
    copy where the target says no state), each with the source segment it is filled from, where
    the target as a whole is kept (is_open), or where Trados says some of its segments are
    finished (sealed_segments: those are kept, and the others are filled where the whole target is
    open); none where the whole target is written, or for a slot without segments."""
    target = slot.target()
    if slot.segment or target is None:
        return {}
    closed = sealed_segments(slot)
    whole = is_open(slot, target, slot.source)
    if whole and not closed:
        return {}
    sources = seg_marks(slot.source)
    return {mark: sources[mid] for mid, mark in seg_marks(target).items()
            if mid in sources and mid not in closed and (whole or is_open(slot, mark, sources[mid]))}


def unsealed(slot: Slot, written: list[etree._Element]) -> list[etree._Element]:
    """The segments of ``written`` (the slot's whole target just written as its seg-source's copy:
    needs_target) that Trados does not say are finished; those it does are emptied, as they came
    (there was no text in the target: needs_target), not filled with their source's copy."""
    closed = sealed_segments(slot)
    for mark in written:
        if mark.get("mid", "") in closed:
            mark.text = None
            del mark[:]
    return [mark for mark in written if mark.get("mid", "") not in closed]


def needs_target(slot: Slot, marks: dict[etree._Element, etree._Element]) -> bool:
    """A source with something in it, in a unit memoQ does not say is finished (sealed_unit), and
    segments of a target to fill (``marks``: open_segments) or a target to write (is_open): one none
    of whose segments is finished, or one that shows no text (there is none, or it is empty), with
    a segment of its seg-source not finished: nothing in it is anyone's work, and write_target
    leaves the finished segments empty, as they came."""
    if not has_content(slot.source) or sealed_unit(slot):
        return False
    if marks:
        return True
    if not is_open(slot, slot.target(), slot.source):
        return False
    closed = sealed_segments(slot)
    return not closed or not has_text(slot.target()) and bool(seg_marks(slot.source).keys() - closed)


def holds_kept(slot: Slot, needed: bool) -> bool:
    """Whether a slot left as it is (not ``needed``: needs_target) keeps a translation its target holds
    by attnmt's choice, which emptying the target or stating it undoes (say_kept counts them):
    not where its CAT tool says it is finished (sealed_unit, sealed_segments)."""
    return not needed and has_text(slot.target()) and not sealed_unit(slot) and not sealed_segments(slot)


def say_kept(kept: int, version_2: bool, where: str) -> None:
    """One warning counting the ``kept`` units (1.2) or segments (2), whose targets hold a
    translation already (xliff_targets.is_open), and saying how to have one translated again."""
    if kept:
        what, state = ("segment(s)", 'the segment\'s state="initial"') if version_2 else \
            ("unit(s)", 'its state="needs-translation"')
        warn(f"{where}: {kept:,} {what} kept the translation their target holds; to have one translated "
             f"again, empty its target or set {state}", stacklevel=3)


def reopen_segments(before: etree._Element, jobs: list[TreeJob]) -> int:
    """Each segment translated (a job's root) any of whose sentences kept its source text under a
    review (FlatText.source_kept, partly_kept), back as it was in ``before`` (its unit as it came)
    where it showed no text there, else emptied, as Trados writes a segment still to translate (a
    copy of its source, in a target now saying a state, would be kept by a later run); returned,
    how many were."""
    target = before.find(named(before, "target"))
    came = {} if target is None else seg_marks(target)
    reopened = 0
    for job in jobs:
        if not any(flat.source_kept or flat.partly_kept for flat in job.flats()):
            continue
        mark, reopened = job.root, reopened + 1
        was = came.get(mark.get("mid", ""))
        mark.text = None if was is None or has_text(was) else was.text
        del mark[:]
        if was is not None and not has_text(was):
            mark.extend(copy.deepcopy(child) for child in was)
    return reopened


def say_left(left: int, version_2: bool, where: str) -> None:
    """One warning counting the ``left`` units (1.2) or segments (2) that got no translation, every sentence
    of theirs having kept its source (settle_kept): left as they came, the file looked translated."""
    if left:
        what = "segment(s)" if version_2 else "unit(s)"
        warn(f"{where}: {left:,} {what} left as they came, without a translation: each sentence kept its source "
             "(a short label whose translation the model garbled, one under --below-quality, or one that came back "
             "empty); a translator or a later run fills them", stacklevel=3)


def settle_kept(slot: Slot, before: etree._Element, jobs: list[TreeJob]) -> bool:
    """A slot some of whose sentences kept their source text (FlatText.source_kept, partly_kept: a
    Review with ``source_below``, a short label the model garbled: attnmt.documents.short_labels): with all of
    them, its holder as it was ``before`` its target was written (no target, or the empty one it came with), for a
    translator or a later run to fill, not the source said to be its translation; returned, whether it was.  With
    some, a 1.2 target of segments gets each
    segment that kept any back as it came (reopen_segments), the target still a machine's
    suggestion: a state on the whole target would have a later run translate again the segments
    a person filled.  Any other target says it is still to be translated (PART_STATE_1 on 1.2's
    target, PART_STATE_2 on XLIFF 2's segment)."""
    kept = [flat.source_kept for job in jobs for flat in job.flats()]
    if kept and all(kept):
        slot.holder.getparent().replace(slot.holder, before)
        return True
    if not any(kept) and not any(flat.partly_kept for job in jobs for flat in job.flats()):
        return False
    if not slot.segment and all(is_segment(job.root) for job in jobs):
        if reopen_segments(before, jobs) == len(jobs):  # none of it translated: all as it came
            slot.holder.getparent().replace(slot.holder, before)
            return True
    elif (stating := slot.holder if slot.segment else slot.target()) is not None:  # what says the state
        say_state(stating, PART_STATE_2 if slot.segment else PART_STATE_1)
    return False


def say_state(element: etree._Element, state: dict[str, str]) -> None:
    """``state`` (STATE_1 on a 1.2 target, STATE_2 on an XLIFF 2 segment, or a PART_STATE) said on
    ``element``, without the ``subState`` that qualified the state it had (XLIFF 2: a subState
    refines its state): kept, ``subState="acme:draft"`` went on saying draft of attnmt's translation."""
    element.attrib.update(state)
    element.attrib.pop("subState", None)


def say_drafted(slot: Slot, jobs: list[TreeJob]) -> None:
    """Trados's status of each segment translated here (a job's root that holds text: not one a
    review left as it came, reopen_segments), where the unit has one for it (``<sdl:seg>``): a
    machine's draft, SDL_DRAFT, as machine translation plug-ins write it, which Trados shows as
    a translation to review, not as a segment still untranslated.  memoQ's status of a unit that
    has one (``mq:status``), its target translated (not still to translate: settle_kept), MQ_DRAFT:
    left ``NotStarted``, memoQ showed the machine's translation as a row no one had filled."""
    statuses = {} if slot.segment else {seg.get("id", ""): seg for seg in slot.holder.iter(SDL_SEG)}
    for job in jobs:
        status = statuses.get(job.root.get("mid", "")) if is_segment(job.root) else None
        if status is not None and has_text(job.root):
            status.attrib.update(SDL_DRAFT)
    target = slot.target()
    if MQ_STATUS in slot.holder.attrib and target is not None and has_text(target) \
            and target.get("state") not in TO_TRANSLATE_1:
        slot.holder.set(MQ_STATUS, MQ_DRAFT)
