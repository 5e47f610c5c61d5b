"""The spaces around atoms placed on a translation (rule 2 of attnmt.documents.spans): they keep
the spaces they had in the source, on the sides they had them, and atoms that show text (a URL,
inline code) never touch a target word, nor each other, where they did not in the source."""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.atom_no_breaks import holds_no_break
from attnmt.documents.closing_marks import closes
from attnmt.documents.flat import LINE_END, Mark
from attnmt.documents.range_order import document_order
from attnmt.documents.span_geometry import Placement
from attnmt.text.sentence_ends import SENTENCE_ENDS, closing_length


def atom_spaces(text: str, position: int, end: int, atoms: Sequence[Mark],
                droppable: bool, opening: bool) -> tuple[bool, str, str, int]:
    """placed_spaces', but where the source's whitespace after the atoms held a line break (Mark.space_after_as:
    ``A dog runs.<br>\nA cat sleeps.``) or a no-break space (written_apart) and the target's space follows them,
    that whitespace in its place: the page's lines came back joined, ``<br> A cat``; so before them, but a no-break
    space before atoms ``opening`` their sentence's translation (before all its words): the target's space there is
    the gap after the sentence before (``DONE.&nbsp;URL NOW.``), and nesting.no_breaks_in_place writes it after
    them."""
    drop, before, after, skip = placed_spaces(text, position, end, atoms, droppable)
    first, last = atoms[0], atoms[-1]
    bound = opening and holds_no_break(first.space_before_as)
    if (not drop and not before and droppable and first.space_before and written_apart(first.space_before_as)
            and not bound and text[position - 1:position] == " "):  # and before them: ``A dog runs.\n<br>``
        drop, before = True, first.space_before_as
    if (not after and not skip and last.space_after and written_apart(last.space_after_as)
            and position < end and text[position:position + 1] == " "):
        return drop, before, last.space_after_as, 1
    return drop, before, after, skip


def written_apart(spacing: str) -> bool:
    """Whether an atom's spacing in the source (Mark.space_before_as, space_after_as) is written in place of the
    target's one space beside it: it held a line break, or a no-break space (attnmt.documents.atom_no_breaks)."""
    return bool(LINE_END.search(spacing)) or holds_no_break(spacing)


def placed_spaces(text: str, position: int, end: int, atoms: Sequence[Mark],
                  droppable: bool) -> tuple[bool, str, str, int]:
    """The spaces around atoms at one ``position`` of the target (``end``: of their parent's span;
    ``droppable``: whether the text just before them, in their parent, ends in a space): (whether to
    drop that space, the space to add before them, the space to add after them, how many of the
    target's characters after them to skip, in their parent or, past its end, after it: AtomRuns.past).

    The atoms keep the spaces they had in the source, on the sides they had them (after them, the
    character it was, where the flat text left it out: Mark.space_after_as).  Where the
    source had one on one side and the target has one on the other, the atoms change sides with
    it: a bookmark after "shirt" that lands before "isst" goes before the space ("Hemd<end/> isst"),
    a picture after "chart " that lands before the space at the end goes after it ("chart <img>").
    Where that cannot be (the space is not in their parent's text), they stay where they are,
    and no space is added: one space, on the wrong side, reads better than two; but atoms that end
    their parent take the space after it where punctuation that closes follows (``<b>see <link/></b>,
    then``, translated with the space after the run, came back ``<b>see<link/></b> , then``).  A picture
    between two spaces gets the one the target lacks.  No space goes between atoms and punctuation
    that closes what is before them (closes): the word after a note's reference in the source ("runs<note/>
    fast.") was dropped, and the full stop now after it ("rennt<note/>.") keeps touching it, not
    "rennt<note/> .".  (Line breaks and tabs: attnmt.documents.nesting.part_words_in_place.)"""
    first, last = atoms[0], atoms[-1]
    spaced_before = position > 0 and text[position - 1].isspace()
    spaced_after = position < len(text) and text[position].isspace()
    spaces_after = last.space_after and not (position < len(text) and closes(text[position]))
    if first.space_before == last.space_after:  # both sides, or neither
        before = " " if first.space_before and not spaced_before and position > 0 else ""
        after = last.space_after_as if spaces_after and not spaced_after and position < len(text) else ""
        return False, before, after, 0
    movable = position < end or (position + 1 < len(text) and closes(text[position + 1]))  # their space to take
    if first.space_before and spaced_after and not spaced_before and text[position] == " " and movable:
        return False, " ", "", 1  # "chart| " -> "chart <img>"
    if spaces_after and spaced_before and not spaced_after and droppable:
        return True, "", last.space_after_as, 0  # "Hemd |isst" -> "Hemd<end/> isst"
    if spaced_before or spaced_after:
        return False, "", "", 0
    # no space after them at the text's end, as none before them at its start: one there ends the line unseen
    before = " " if first.space_before and position > 0 else ""
    return False, before, last.space_after_as if spaces_after and position < len(text) else "", 0


def unglued(text: str, position: int, atoms: Sequence[Mark], before: str, after: str) -> tuple[str, str]:
    """``before`` and ``after`` (atom_spaces'), with a space where atoms that show text would
    otherwise touch a target word they did not touch in the source: "https://example.com sich.",
    not "https://example.comsich." (the source had the full stop there, the target a word).  The
    atoms show text where any of them does: a Word field is its begin, code, result and end, each
    an atom, and only its result shows ("1<end/>Ein Junge" would read "1Ein Junge")."""
    first, last = atoms[0], atoms[-1]
    shows_text = any(atom.shows_text for atom in atoms)
    if shows_text and not before and not first.glued_before and text[position - 1:position].isalnum():
        before = " "
    if shows_text and not after and not last.glued_after and text[position:position + 1].isalnum():
        after = " "
    return before, after


def space_between(earlier: Mark, atom: Mark) -> str:
    """What goes between two atoms written one right after the other at one place of the target: the source's
    space where it had one between them (two URLs a space apart stay apart, a no-break space as it was:
    ``👍🏽&nbsp;5 €``), and one where both show text and the source had text between them, which the translation
    dropped or put elsewhere (``<var>h</var>, where <var>w</var>`` came back ``<var>h</var><var>w</var>``, read
    "hw"), as unglued keeps such an atom from a target word; else nothing."""
    if earlier.space_after and atom.space_before:
        return earlier.space_after_as
    return " " if earlier.shows_text and atom.shows_text and earlier.start != atom.start else ""


def would_glue(atom: Mark, beside: str, before: bool) -> bool:
    """Whether ``atom``, were the space between it and ``beside`` (the target's text on that side,
    ``before`` it or after it) taken out, would show text right against a letter or digit it did
    not touch in the source, as unglued keeps it from doing: attnmt.documents.nesting.part_words_in_place
    takes out the space beside an atom that parts words (``results<br/>for``), but a passage kept
    whole (``said: <i lang="fr">bonjour</i>, and``) that lands before a word keeps its space
    (``Teig <i lang="fr">bonjour</i> und``, not ``bonjour</i>und``)."""
    glued = atom.glued_before if before else atom.glued_after
    return atom.shows_text and not glued and (beside[-1:] if before else beside[:1]).isalnum()


class AtomRuns:
    """The spaces around each group of atoms that attnmt.documents.spans writes at one place in
    one element, decided for the whole *run* the group belongs to: the atoms written one after
    another at that place, the group's own and those that touched them in the source (no text, no
    space between), whatever elements they stand in.  ``<b></b><span><img></span> meters`` is one
    run with a space after it: asked apart, the ``<b>`` (no space after: it touched the picture)
    and the picture (no space before) would each leave the space to the other, and
    ``</span>meters`` would lose it.  A run's spaces are decided once, at its first group; what
    goes before it is written beside its first atom, what goes after it beside its last."""

    def __init__(self, marks: Sequence[Mark], placement: Placement, source: str) -> None:
        self.marks, self.placement, self.source = marks, placement, source
        self.spans, self.parents, self.length = placement.spans, placement.parents, len(placement.text)
        self.run_of: dict[int, list[int]] = {}  # atom -> its run, in the order they are written
        self.decided: dict[int, tuple[bool, str, str, int]] = {}  # a run's first atom -> its spaces
        self.skipped: dict[int, int] = {}  # a run's position -> where the target's characters it skipped end
        self.after_spaced: dict[int, int] = {}  # a run's first atom -> the last of the run before it, a space between
        previous = last = None  # the mark written just before; the atom written last
        for k in document_order(self.parents, self.spans):
            if marks[k].atom:
                joins = last is not None and self._joins(last, k, previous == last)
                if last is not None and not joins and self.spans[last][0] == self.spans[k][0] \
                        and marks[last].space_after and marks[k].space_before:
                    self.after_spaced[k] = last
                run = self.run_of[last] if last is not None and joins else []
                run.append(k)
                self.run_of[k], last = run, k
            previous = k

    def _joins(self, last: int, atom: int, next_to: bool) -> bool:
        """Whether ``atom`` goes on the run ``last`` ends: at the same place, it is written right
        after it (``next_to``) in the same element (a group), or it touched it in the source."""
        if self.spans[last][0] != self.spans[atom][0]:
            return False
        before, after = self.marks[last], self.marks[atom]
        touched = before.start == after.start and not before.space_after and not after.space_before
        return touched or (next_to and self.parents[last] == self.parents[atom])

    def spaces(self, text: str, group: Sequence[int], droppable: bool) -> tuple[bool, str, str, int]:
        """atom_spaces' answer (with unglued's spaces) for ``group``, atoms one element writes at
        one place (``droppable``: whether its text just before them ends in a space): the run's
        answer, its space before and the space dropped before it only at its first atom, its
        space after and the characters skipped after it only at its last."""
        run = self.run_of[group[0]]
        if run[0] not in self.decided:
            position, parent = self.spans[run[0]][0], self.parents[run[-1]]
            end = self.length if parent is None else self.spans[parent][1]  # of the element it ends in
            atoms = [self.marks[k] for k in run]
            opening = moved_to_open(self.placement, self.source, self.marks[run[0]], position)
            drop, before, after, skip = atom_spaces(text, position, end, atoms, droppable, opening)
            before = before or self._space_between(run[0])
            before, after = unglued(text, position + skip, atoms, before, after)
            self.decided[run[0]] = drop, before, after, skip
            if skip:
                self.skipped[position] = position + skip
        drop, before, after, skip = self.decided[run[0]]
        first, last = run[0] in group, run[-1] in group
        return drop and first, before if first else "", after if last else "", skip if last else 0

    def _space_between(self, first: int) -> str:
        """The space the run that ``first`` starts writes before itself where the run before it at its place,
        a space between them in the source, wrote none after itself: at the target's end, where no run adds
        one (placed_spaces), ``Tags: <b>a@example.com</b> <b>https://example.org</b>`` came back with the two
        glued, ``</b><b>``, as did a spaced list of kept elements ending any block."""
        earlier = self.after_spaced.get(first)
        if earlier is None or self.decided.get(self.run_of[earlier][0], (False, "", " ", 0))[2]:
            return ""
        return self.marks[earlier].space_after_as

    def past(self, end: int) -> int:
        """Where the target's text goes on after an element that ends at ``end``: past the space that
        a run of atoms at its end took before them (``<b>see <link/></b>, then``: placed_spaces), so
        that it is not written twice; else at ``end``."""
        return self.skipped.get(end, end)


def moved_to_open(placement: Placement, source: str, mark: Mark, at: int) -> bool:
    """Whether the atom ``mark``, written at ``at``, opens its sentence's translation (Placement.opens_sentence) where
    it followed words of its sentence in ``source`` (the text before it there, its closing quotes and brackets aside,
    ends in no sentence's mark): the target's space before it is then the gap after the sentence before, not its own
    (``Done. Go to&nbsp;URL now.``).  One that stood in the gap in the source too keeps the spacing it had there
    (``A dog runs.&nbsp;👍&nbsp;A cat sleeps.``, where the gap's no-break space was lost)."""
    if not placement.opens_sentence(at):
        return False
    before = source[:mark.start]
    before = before[:len(before) - closing_length(before)]
    return not before or before[-1] not in SENTENCE_ENDS
