"""Where atoms glued to the end of a word go (rule 2 of attnmt.documents.spans).

A note's link or reference typed right after a word (``bench<a>[1]</a>.``, ``bike`` and a
superscript ``1, 2``) belongs to that word.  The model reads it parted from what follows (``bench
.``: an atom that shows text parts words, attnmt.documents.elements), so the rule for other points,
before the translation of the source word that follows, put it before the target word aligned to
the stop, wherever the word it was glued to went (``auf einer<a>[1]</a> Bank.``).  It goes after
that word's translation instead: at the end of the letters of the last target word aligned to it,
before the punctuation that ends that word (``auf einer Bank<a>[1]</a>.``).  Atoms that touch go
there together (``bench<a>[1]</a><a>[2]</a>.``: the first is glued to the word, the last to
nothing), and so do atoms only spaces apart from them (``bike<a>[1]</a> <a>[2]</a>.``): left to
the other rule, the later ones went before the earlier, ``auf [2] einem Fahrrad[1].``.  One glued
to a word's start already goes before that word's translation, the word that follows it.  Atoms a
space after a word and glued to the punctuation after it (a caption's number: ``Figure <field/>:``)
go after that word's translation where the model wrote the punctuation on it (``Abbildung
<field/>:``), not before it.  Atoms inside a word after its opening bracket go before the letters of its
translation (``Typen (`str`, `int`, usw.).``).  Apart from spans.py so that the placing rules read on their own."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence

from attnmt.documents.closing_marks import closes
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.kept_words import core
from attnmt.text.sentence_ends import closing_length


def glued_point(flat: FlatText, atoms: Mapping[int, list[Mark]], words: Sequence[tuple[int, int]], target: str,
                target_words: Sequence[tuple[int, int]], aligned: Callable[[Sequence[int]], list[int]],
                position: int) -> int | None:
    """Where the atoms at ``position`` go in ``target`` where they are glued to the end of one of
    ``words`` (glued_word), one sentence's source words; ``atoms`` are flat's (``atoms_by_position``),
    ``target_words`` are its translation's,
    ``aligned`` gives the target words aligned to source words (spans.Projector.aligned).  None
    where they are not glued to a word, or no target word aligned to it has letters."""
    k = glued_word(flat, atoms, words, position)
    opened = opened_word(flat, words, position) if k is None else None
    if opened is not None:
        return letters_start(target, [target_words[t] for t in aligned([opened])])
    if k is None:
        k = word_before_stop(flat, atoms, words, position)
        return None if k is None else stop_written_on(target, [target_words[t] for t in aligned([k])])
    following = aligned([k + 1]) if k + 1 < len(words) else []
    return letters_end(target, [target_words[t] for t in letters_aligned(flat.text, words[k], aligned([k]), following)])


def atoms_by_position(flat: FlatText) -> dict[int, list[Mark]]:
    """The atoms of ``flat`` by their position in ``flat.text``, each position's in source order: found
    once, where going through every mark for each point took the square of their number."""
    atoms: dict[int, list[Mark]] = {}
    for mark in flat.marks:
        if mark.atom:
            atoms.setdefault(mark.start, []).append(mark)
    return atoms


def glued_word(flat: FlatText, atoms_at: Mapping[int, list[Mark]], words: Sequence[tuple[int, int]],
               position: int) -> int | None:
    """The index of the word of ``words`` ([start, end) in ``flat.text``, in order) that the atoms at
    ``position`` (``atoms_at``) are glued to the end of: a letter or digit right before the first of them, or
    before the first of the atoms they stand only spaces apart from (``bike<a>[1]</a> <a>[2]</a>``),
    none right after the last (Mark.glued_before, glued_after), and nothing after them in that word
    but punctuation (``bench|``, ``bench|.``).  None where there is none, and where quotes and
    brackets alone follow them in it (``runs<b>.</b>"``: Projector.inside_closing and before_closing)."""
    atoms = atoms_at.get(position, [])
    if not atoms or atoms[-1].glued_after:
        return None
    while not (atoms[0].glued_before or atoms[0].closed_up):  # spaces alone after other atoms: the run those started
        earlier = position
        while earlier and flat.text[earlier - 1].isspace():  # the text's rstrip, without copying all before it
            earlier -= 1
        atoms = atoms_at.get(earlier, []) if earlier < position else []
        if not atoms:
            return None
        position = earlier
    k = bisect_left(words, position, key=lambda word: word[1])  # the one word that can hold it: found by bisection
    if k == len(words):
        return None
    start, end = words[k]
    rest = flat.text[position:end]
    if start < position <= end and core(flat.text, start, end)[1] == position:
        return k if not rest or closing_length(rest) != len(rest) else None
    return None


def opened_word(flat: FlatText, words: Sequence[tuple[int, int]], position: int) -> int | None:
    """The index of the word of ``words`` that ``position`` stands inside of, after the brackets or quotes that open
    it and before its letters (``(|etc).``, where ``(`str`, `int`, etc).`` reads ``(etc).``: closing_marks); None
    for any other.  Left to the rule for other points, no word after them, they went to the sentence's end."""
    k = bisect_left(words, position, key=lambda word: word[1])
    if k == len(words):
        return None
    start, end = words[k]
    return k if start < position < end and core(flat.text, start, end)[0] == position else None


def letters_start(target: str, words: Sequence[tuple[int, int]]) -> int | None:
    """The start of the letters of the first of ``words`` ([start, end) in ``target``) that has any
    (``(|usw.).``); None where none has."""
    for word in words:
        start, end = core(target, *word)
        if start < end:
            return start
    return None


def word_before_stop(flat: FlatText, atoms_at: Mapping[int, list[Mark]], words: Sequence[tuple[int, int]],
                     position: int) -> int | None:
    """The index of the word of ``words`` that the atoms at ``position`` follow a space after, where
    they are glued to a word of punctuation alone that closes it (a caption's number in ``Figure
    <field/>: A red rose``, which the model reads ``Figure : A red rose``).  Where the model writes
    that punctuation on the word before (``Abbildung:``), the rule for other points, before the
    target word aligned to the colon, gave ``<field/>Abbildung:``; they go after its letters there
    (stop_written_on).  None where they are not such atoms."""
    atoms = atoms_at.get(position, [])
    if not atoms or not atoms[0].space_before or atoms[-1].space_after:
        return None
    k = bisect_left(words, position, key=lambda word: word[0])
    if not 0 < k < len(words) or words[k][0] != position or core(flat.text, *words[k - 1])[1] < words[k - 1][1]:
        return None  # after a word that ends in punctuation of its own (``said: <i>bonjour</i>,``), that is not theirs
    return k - 1 if all(map(closes, flat.text[words[k][0]:words[k][1]])) else None


def stop_written_on(target: str, words: Sequence[tuple[int, int]]) -> int | None:
    """The end of the letters of the last of ``words`` ([start, end) in ``target``) that has any, where
    punctuation that closes follows them in it (``Abbildung|:``); None where none does, as where the
    model wrote the punctuation apart (``Abbildung :``), before which the other rule puts the atoms."""
    for word in reversed(words):
        start, end = core(target, *word)
        if start < end:
            return end if end < word[1] and closes(target[end]) else None
    return None


def letters_aligned(source: str, word: tuple[int, int], targets: list[int], following: list[int]) -> list[int]:
    """Of ``targets``, the target words aligned to ``word``, those that translate its letters: where
    punctuation in the word follows them (``ball,`` where an atom that does not part words stands
    in ``ball<img>, and``), the target words also aligned to the next source word (``following``)
    answer to that punctuation, not to the letters (``Ball und``: "und" attends to the comma most),
    and are left out, unless no other is aligned to the word."""
    if core(source, *word)[1] == word[1]:
        return targets
    return [t for t in targets if t not in following] or targets


def letters_end(target: str, words: Sequence[tuple[int, int]]) -> int | None:
    """The end of the letters of the last of ``words`` ([start, end) in ``target``) that has any,
    before the punctuation that ends it (``Bank|.``); None where none has (a stop alone)."""
    return next((end for start, end in (core(target, *word) for word in reversed(words)) if start < end), None)
