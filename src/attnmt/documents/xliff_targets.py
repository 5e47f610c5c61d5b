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
no state) is filled, and the others are kept (open_segments).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from attnmt.documents.pages import named

# The states that say a target holding text is still to be translated: 1.2's, on its <target>, and
# XLIFF 2's, on its <segment>.
TO_TRANSLATE_1 = frozenset(("new", "needs-translation"))
TO_TRANSLATE_2 = frozenset(("initial",))


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
    return element is not None and (len(element) > 0 or bool((element.text or "").strip()))


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


def open_segments(slot: Slot) -> dict[etree._Element, etree._Element]:
    """The segments of a 1.2 target with text to fill (each empty one, or its source segment's
    copy where the target says no state), each with the source segment it is filled from, where
    the target as a whole is kept (is_open); none where the whole target is written, or for a
    slot without segments."""
    target = slot.target()
    if slot.segment or target is None or is_open(slot, target, slot.source):
        return {}
    sources = seg_marks(slot.source)
    return {mark: sources[mid] for mid, mark in seg_marks(target).items()
            if mid in sources and is_open(slot, mark, sources[mid])}


def needs_target(slot: Slot, marks: dict[etree._Element, etree._Element]) -> bool:
    """A source with something in it, and a target to write (is_open) or segments of one to fill
    (``marks``: open_segments)."""
    return has_content(slot.source) and (is_open(slot, slot.target(), slot.source) or bool(marks))
