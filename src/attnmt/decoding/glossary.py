"""Glossaries: source terms and the target terms a translation must use for them.

A glossary file is UTF-8 text (or UTF-16 with a byte order mark), one term a line::

    # source term <TAB> target term
    people	Personen
    New York	New York

Blank lines and lines starting with ``#`` are skipped; any other line must hold exactly one
TAB with a term on each side (a line of an empty target term, not translated yet, is skipped with a warning:
glossary_columns.with_both_terms).  A CSV file and a TBX termbase are read too, by their extension
(attnmt.decoding.glossary_files).  A source term occurs in a sentence where its words occur in it
as whole words (a combining mark is part of the letter before it; a hyphen between two words joins
them into one, but for an acronym and a term that holds a hyphen itself: "e-mail" holds no "mail", "NATO-led" holds
"NATO", "Wi-Fi-enabled" "Wi-Fi"), ignoring case (but an acronym,
"US", two letters or more all capitals, matches only in capitals: "Join us" holds no "US", and
a term's word that is one does too: "let us army ants" holds no "US Army", "US ARMY" does; a name, a term with a
capital on a word after its first, only with those capitals: "the red cross" holds no "Red Cross") and how
Unicode composes the characters (NFKC: "café" with a combining accent is "café", full-width
"ＤＯＧ" is "DOG") and which apostrophe or hyphen was typed ("children’s" is "children's",
"Wi\u2011Fi" is "Wi-Fi"), reading past
the invisible characters, in the terms as in the sentence (a soft hyphen: "co\\u00adoperative" is
"cooperative"), but for those the model reads as a space (a zero-width space: "a\\u200bdog" holds
"dog", and "dog\\u200b" is "dog"), with any run of spaces between them.  In the scripts written
without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) nothing marks a word's edge,
so beside their letters a term needs none: "東京" occurs in "我在東京住" (attnmt.decoding.word_edges).
Nowhere does a term begin or end inside a grapheme cluster: "🇦🇩🇪🇸" (Andorra, Spain) holds no "🇩🇪".
Where several terms could match at one place, the longest wins, and a matched span is not
matched again by another term (so "New York" alone is found in "New York City" when both it and
"York City" are in the glossary, from the left).  A term is found in its English plural too ("access points"
for "access point": attnmt.decoding.term_plurals; a name's where a text has its capitals, "Budget Managers", a
word with a capital's where it has that capital inside a sentence, "the Managers": term_forms.titled_at), and a
hyphenated one in its closed spelling ("email" for "e-mail"), a term of words spaced or hyphenated ("fire-truck":
attnmt.decoding.term_spellings).  Each matched term's target term is then required once, exactly as written
(attnmt.decoding.constraints turns them into the beam search's constraints).

Two source terms are one where they read alike (``term_key``: "Dog" and "dog"), but where given two target terms
("Apple": Apple, "apple": Apfel; "US Army", "US army"), each then matched where a text has its case (the first
given where it has neither's: ``term_forms.case_variant_key``); an acronym and the word of its letters ("US":
USA, "us": uns) are two, and where the text has the letters in capitals the acronym wins. The source terms are
kept in a dict (``normal``: NFKC, case-folded, apostrophes straight, no invisible characters, spaces as one), so
a sentence is matched with one look-up per place and length of term: the steps grow with the sentence and with
how many lengths the terms have, never with how many terms there are (a glossary of 100,000 terms matches as
fast as one of ten).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path

from attnmt.decoding.found_terms import remembered
from attnmt.decoding.glossary_pairs import CheckedTerms, add_term, checked_terms, widest
from attnmt.decoding.term_forms import (
    CASE_VARIANT,
    acronym,
    capitals,
    case_variant_key,
    cased,
    has_acronym,
    in_capitals,
    in_own_capitals,
    named,
    normal,
    normal_pieces,
    one_capital,
    same_target,
    term_key,
    titled_at,
)
from attnmt.decoding.term_plurals import acronym_singulars, plural_terms, singulars
from attnmt.decoding.term_spellings import closed_spellings
from attnmt.decoding.word_edges import ZWJ, addresses, emoji_joiner, in_address, in_compound, may_begin, may_end
from attnmt.errors import ConfigError


@dataclass(frozen=True)
class Glossary:
    """Source term -> target term, matched as the module docstring says.  Build one with
    ``Glossary.of({"people": "Personen"})``, ``Glossary((("people", "Personen"),))`` or
    ``read_glossary(path)``."""

    terms: tuple[tuple[str, str], ...] = ()
    # The index, built from ``terms`` alone (never given: ``dataclasses.replace(g, terms=...)`` copied
    # the old index, and the new glossary enforced the old terms)
    _kept: dict[str, tuple[str, str]] = field(init=False, compare=False, repr=False)  # term_key -> term, in order
    _targets: dict[str, str] = field(init=False, compare=False, repr=False)  # normal source -> target, acronyms aside
    # normal source -> [(its term_key, its acronyms in capitals as ``capitals`` shows a text, its target)], of the terms
    # with an acronym among their words (term_forms.has_acronym), matched where a text has them so (in_capitals), the
    # term of the most acronyms first ("US ARMY" before "US Army": each was the other's loss)
    _acronyms: dict[str, list[tuple[str, str]]] = field(init=False, compare=False, repr=False)
    # term_key -> {the term as ``capitals`` shows it: its target}, of the terms that read alike but for their case
    # and have two targets ("Apple", "apple"; "US Army", "US army"), each matched where a text has its case, the first
    # given elsewhere
    _cased: dict[str, dict[str, str]] = field(init=False, compare=False, repr=False)
    # normal plural form -> its normal source term, of the terms in _targets (term_plurals: "access points")
    _plurals: dict[str, str] = field(init=False, compare=False, repr=False)
    # the normal plural forms of the terms of one word with a capital (term_forms.one_capital: "Word", "Manager"),
    # matched only where a text writes them with it inside a sentence (term_forms.titled_at: "the Managers")
    _titled: frozenset[str] = field(init=False, compare=False, repr=False)
    # normal plural form -> (its normal source term, whether that ends in an acronym: its "s" then in small letters),
    # of the terms in _acronyms ("APIs", "IT departments")
    _acronym_plurals: dict[str, tuple[str, bool]] = field(init=False, compare=False, repr=False)
    # normal singular form -> its normal source term given in the plural, of the terms in _targets ("access point")
    _singulars: dict[str, str] = field(init=False, compare=False, repr=False)
    # normal closed or other spelling -> its normal source term, of the terms in _targets ("email": "e-mail")
    _closed: dict[str, str] = field(init=False, compare=False, repr=False)
    # normal source -> the term as written, of the terms in _targets that are names by their capitals ("Red Cross":
    # term_forms.named) and have no other case given (_cased), matched only where a text has those capitals
    _names: dict[str, str] = field(init=False, compare=False, repr=False)
    _keys: frozenset[str] = field(init=False, compare=False, repr=False)  # every normal form matched
    _lengths: tuple[int, ...] = field(init=False, compare=False, repr=False)  # of the normal sources, longest first
    # term_key -> where its term was given ("terms.tsv:3"), for messages about the term; where known
    _places: dict[str, str] = field(init=False, compare=False, repr=False)
    _found: dict[str, tuple] = field(default_factory=dict, init=False, compare=False, repr=False)  # found_terms

    def __post_init__(self) -> None:
        """Checks ``terms`` as ``of`` does and builds the index from them, however the glossary was
        made: ``Glossary((("dogs", "Hunde"),))`` (its documented field), ``of``, or
        ``dataclasses.replace``; but terms ``indexed`` hands it checked already (``CheckedTerms``) are
        not checked again: each term of a file was checked twice as it loaded."""
        kept = self.terms.kept if isinstance(self.terms, CheckedTerms) else checked_terms(self.terms, "glossary")
        acronyms: dict[str, list[tuple[str, str]]] = {}
        for key, (source, target) in sorted(kept.items(), key=lambda item: -sum(map(acronym, item[0].split()))):
            if has_acronym(cased(source)) and not key.startswith(CASE_VARIANT):
                acronyms.setdefault(normal(source), []).append((key, target))
        targets = {key: target for key, (source, target) in kept.items()
                   if not has_acronym(cased(source)) and not key.startswith(CASE_VARIANT)}
        cased_targets: dict[str, dict[str, str]] = {}
        for key, (source, target) in kept.items():
            if key.startswith(CASE_VARIANT):
                first, first_target = kept[term_key(source)]
                cased_targets.setdefault(term_key(source), {normal(first, capitals): first_target})
                cased_targets[term_key(source)][key.removeprefix(CASE_VARIANT)] = target
        object.__setattr__(self, "terms", tuple(kept.values()))
        object.__setattr__(self, "_kept", kept)
        object.__setattr__(self, "_targets", targets)
        object.__setattr__(self, "_acronyms", acronyms)
        object.__setattr__(self, "_cased", cased_targets)
        object.__setattr__(self, "_names", {key: cased(kept[key][0]) for key in targets
                                            if named(cased(kept[key][0])) and key not in cased_targets})
        closed = closed_spellings(targets, {*targets, *acronyms})
        # the plurals of every term, in its capitals where it has any ("Budget Managers", term_at); the singulars of
        # the terms in small letters alone: "Windows", "Teams" are names, no plural of "window" nor of "team"
        common = {key: target for key, target in targets.items() if kept[key][0].islower()}
        plurals = singulars(targets | {form: targets[key] for form, key in closed.items() if key in targets},
                            {*targets, *acronyms})
        # a word with a capital that may be a name ("Word", "Office"), and no variant in small letters
        titled = {key for key in targets if one_capital(cased(kept[key][0]))
                  and not any(shown.islower() for shown in cased_targets.get(key, ()))}
        acronym_plurals = acronym_singulars({source: [key for key, _ in terms] for source, terms in acronyms.items()},
                                            {*targets, *acronyms})
        plural_given = plural_terms(common, {*targets, *acronyms, *plurals, *acronym_plurals})
        keys = frozenset((*targets, *acronyms, *plurals, *acronym_plurals, *plural_given, *closed))
        object.__setattr__(self, "_closed", closed)
        object.__setattr__(self, "_plurals", plurals)
        object.__setattr__(self, "_titled", frozenset(form for form, key in plurals.items() if key in titled))
        object.__setattr__(self, "_singulars", plural_given)
        object.__setattr__(self, "_acronym_plurals", acronym_plurals)
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_lengths", tuple(sorted({len(key) for key in keys}, reverse=True)))
        object.__setattr__(self, "_places", {})

    def __repr__(self) -> str:
        """A few terms and the count: the dataclass's own repr of 100,000 terms was 3 MB in a log."""
        shown = ", ".join(f"{source!r}: {target!r}" for source, target in self.terms[:3])
        more = f", … {len(self.terms)} terms" if len(self.terms) > 3 else ""
        return f"Glossary({{{shown}{more}}})"

    @classmethod
    def of(cls, terms: Mapping[str, str] | Iterable[tuple[str, str]], where: str | None = None) -> Glossary:
        """A glossary of (source, target) pairs; a blank term, or one source term with two target
        terms, is a DataError naming ``where`` ("glossary" where None), the pair's index among
        pairs that are no mapping (a table's row: ``glossary[2]``), and the term.  ``where``, a
        place such as "in.jsonl:3", also names the terms in later messages (``place``).  ConfigError
        for terms of another type (one str, None), DataError for an item that is not a pair
        (``["ab"]`` was the term ("a", "b"))."""
        kept = checked_terms(terms, where or "glossary")
        return cls.indexed(kept, dict.fromkeys(kept, where) if where else None)

    @classmethod
    def indexed(cls, kept: dict[str, tuple[str, str]], places: dict[str, str] | None = None) -> Glossary:
        """The glossary of ``kept``: source term's key (``term_key``) -> (source, target), checked
        (``add_term``); ``places``: source term's key -> where it was given, where known."""
        glossary = cls(CheckedTerms(kept))
        object.__setattr__(glossary, "_places", places or {})
        return glossary

    def __len__(self) -> int:
        return len(self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms)

    def merged(self, other: Glossary | Mapping[str, str] | None) -> Glossary:
        """This glossary with ``other``'s terms added; other's target wins for a source term in both.
        ``other`` is what ``as_glossary`` takes: a Glossary, a dict {source term: target term} or None."""
        other = as_glossary(other)
        if not other:
            return self
        kept = {key: term for key, term in self._kept.items()  # other's target for a term in both, in any case
                if not (key.startswith(CASE_VARIANT) and term_key(term[0]) in other._kept)}
        for key, term in other._kept.items():  # its capitals narrow no term given the same target in any case
            first = kept.get(key, term)
            kept[key] = widest(first, term) if same_target(first[1]) == same_target(term[1]) else term
        places = {key: where for key, where in self._places.items() if key not in other._kept} | other._places
        return Glossary.indexed(kept, places)

    @functools.cached_property
    def of_targets(self) -> Glossary:
        """A glossary of this one's target terms, each its own target (the first of those that read
        alike: ``term_key``, so "IT" and "it" are two): a translation's sentences are split keeping
        them whole, as its source's keep the source terms (attnmt.documents.paragraphs.line_pairs).
        Built once, at the first use: ``score`` asks for it on every line, and 5,000 terms took 0.2 s
        to build each time."""
        kept: dict[str, tuple[str, str]] = {}
        for _, target in self.terms:
            kept.setdefault(term_key(target), (target, target))
        return Glossary.indexed(kept)

    @functools.cached_property
    def cased_terms(self) -> frozenset[str]:
        """The source terms as written, in their own case (``cased``), built at the first use."""
        return frozenset(cased(source) for source, _ in self.terms)

    def place(self, source: str) -> str | None:
        """Where the term of ``source`` was given ("terms.tsv:3"), None where not known."""
        return self._places.get(case_variant_key(source), self._places.get(term_key(source)))

    def matches(self, sentence: str) -> list[str]:
        """The target terms this sentence needs, in the order their source terms occur, each once.
        Only targets come out: the places matched are places in ``normal(sentence)``, which may be
        shorter or longer than the sentence (NFKC), and mean nothing in the sentence itself."""
        text, found, start = normal(sentence), [], 0
        shown = normal(sentence, capitals) if self._acronyms or self._cased or self._names or self._titled else text
        if len(shown) != len(text) or addresses(sentence):  # NFKC composed the capitals otherwise, or a term in an
            # address is none (word_edges.in_address): found_in finds them in the text
            return list(dict.fromkeys(target for _, _, target in self.found_in(sentence)))
        def shown_at(first: int, end: int) -> str:
            return shown[first:end]

        while start < len(text):
            term = self.term_at(text, start, shown_at) if may_begin(text, start) else None
            if term is not None:
                found.append(term[1])
            start += len(term[0] if term else " ")
        return list(dict.fromkeys(found))

    @remembered
    def found_in(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, target term) of each source term in ``text`` itself, found as ``matches``
        finds them (longest first, from the left), with the places in ``text``: it is made normal
        a character at a time, with the combining marks after it (``normal_pieces``), each normal
        character remembering the characters it came from.  A match that starts or ends inside one
        such piece's normal form ("½", "1⁄2") is none.  Remembered for the texts read last (attnmt.decoding.
        found_terms): a sentence is read for its terms eight times."""
        chars: list[str] = []
        origins: list[tuple[int, int]] = []  # the characters of text each of chars came from, (first, end)
        # the joiners of emoji kept as they are (emoji_joiner), found first: one test per character cost
        # a tenth of found_in's time
        joiners = {at for at, character in enumerate(text) if emoji_joiner(text, at)} if ZWJ in text else set()
        for first, end, piece in normal_pieces(text, joiners):
            for made in piece:
                if made.isspace() and (not chars or chars[-1] == " "):
                    continue  # runs of spaces as one, none in front
                chars.append(" " if made.isspace() else made)
                origins.append((first, end))
        while chars and chars[-1] == " ":
            chars.pop()
            origins.pop()
        made, found, start = "".join(chars), [], 0
        spans = addresses(text)

        def shown_at(first: int, end: int) -> str:  # the text that made made[first:end], as capitals show it
            return normal(text[origins[first][0]:origins[end - 1][1]], capitals)

        def fits(first: int, end: int) -> bool:  # made[first:end] ends where a piece does, and in no address
            return (end == len(made) or origins[end] != origins[end - 1]) and not in_address(
                spans, origins[first][0], origins[end - 1][1])

        while start < len(made):
            term = self.term_at(made, start, shown_at, fits) if may_begin(made, start) else None
            end = start + len(term[0] if term else " ")
            if term is not None and (start == 0 or origins[start - 1] != origins[start]):
                found.append((origins[start][0], origins[end - 1][1], term[1]))
            start = end
        return found

    def term_at(self, text: str, start: int, shown: Callable[[int, int], str],
                fits: Callable[[int, int], bool] | None = None) -> tuple[str, str] | None:
        """(normal source term, target term) of the longest term at ``text[start:]`` (a normal text) or of its
        plural or singular (term_plurals) or closed spelling (term_spellings), that ends where a term may
        (``may_end``) and, where ``fits`` is given, where ``fits(start, end)`` (found_in's: outside an address, so
        that "bike shop" in "the bike shop.com" gives way to "bike", which was lost with it), a term that is no
        acronym not hyphen-joined into a longer word (``word_edges.in_compound``), an acronym
        only where ``shown(start, end)``, that place of the text as ``capitals`` shows it, has it in
        capitals, and there before the word of its letters ("US" before "us"); None for none.
        One look-up per length of term, and the edge only for a term found (most look-ups find none)."""
        for length in self._lengths:
            end = start + length
            key = text[start:end]
            if end > len(text) or key not in self._keys or not may_end(text, end) or (
                    fits is not None and not fits(start, end)):
                continue
            if (target := self.acronym_at(key, start, end, shown)) is not None:
                return key, target
            if key in self._titled and not titled_at(text, start, shown(start, end)):
                continue  # "words" for the program Word
            own = self._plurals.get(key, self._singulars.get(key, key))  # "dogs": "dog", "access point": "… points"
            own = self._closed.get(own, own)  # "email": "e-mail"
            if own in self._targets and not in_compound(own, text, start, end):
                shown_own = shown(start, start + min(len(own), length))  # "email" is shorter than "e-mail"
                if own not in self._names or in_own_capitals(shown_own, self._names[own]):
                    return key, self._cased.get(own, {}).get(shown_own, self._targets[own])
        return None

    def acronym_at(self, key: str, start: int, end: int, shown: Callable[[int, int], str]) -> str | None:
        """The target of the term with an acronym ``key`` (a normal text's ``text[start:end]``) where ``shown`` has its
        acronyms in capitals (``term_at``), or of the one whose plural it is ("APIs": "API" and an "s" in small
        letters); None for none."""
        own, ending = self._acronym_plurals.get(key, (key, False))
        if ending and shown(end - 1, end) != "s":
            return None
        key, end = own, end - ending
        for term, target in self._acronyms.get(key, ()):
            if in_capitals(shown(start, end), term):
                return self._cased.get(term, {}).get(shown(start, end), target)
        return None

    def inflected(self, sentence: str) -> frozenset[str]:
        """The target terms of the source terms ``sentence`` holds in another number than given ("access points"
        for "access point", "access point" for "access points": term_plurals), which the search lets the model
        inflect (attnmt.decoding.term_ids.with_other_forms)."""
        return self.in_forms(sentence, self._plurals.keys() | self._acronym_plurals.keys() | self._singulars.keys())

    def singular(self, sentence: str) -> frozenset[str]:
        """The target terms of the source terms given in the plural that ``sentence`` holds in the singular ("access
        point" for "access points" -> "Zugangspunkte"), which the search may write without their ending
        (attnmt.decoding.term_ids.with_other_forms)."""
        return self.in_forms(sentence, self._singulars.keys())

    def in_forms(self, sentence: str, forms: AbstractSet[str]) -> frozenset[str]:
        """The target terms of the source terms ``sentence`` holds in one of the normal ``forms``."""
        if not forms:
            return frozenset()
        return frozenset(target for start, end, target in self.found_in(sentence)
                         if normal(sentence[start:end]) in forms)


def as_glossary(value: object, name: str = "glossary") -> Glossary | None:
    """``value`` as a Glossary: a Glossary or None as it is, a mapping {source term: target term}
    through ``Glossary.of``; anything else is a ConfigError naming ``name`` and what to pass."""
    if value is None or isinstance(value, Glossary):
        return value
    if isinstance(value, Mapping):
        return Glossary.of(value, name)
    raise ConfigError(f"{name}: expected a Glossary (read_glossary(path), Glossary.of(terms)) or a dict "
                      f'{{"source term": "target term"}}, got {type(value).__name__} {value!r:.60}')


def read_glossary(path: str | Path, source_lang: str | None = None, target_lang: str | None = None) -> Glossary:
    """The glossary in a file, read by its extension (attnmt.decoding.glossary_files): TSV (the
    module docstring), CSV, or a TBX termbase, whose terms of ``source_lang`` and ``target_lang``
    (BCP 47 codes, matched by their primary subtags: en-US is en) it takes.  A malformed line is a
    DataError naming ``path:line`` and what is wrong with it.  ConfigError for a ``path`` that is
    no path (None was a TypeError from pathlib) or an empty one ("" read the current directory), and
    for a language that is no code (``glossary_files.check_languages``)."""
    return read_glossaries([path], source_lang, target_lang)


def read_glossaries(paths: Iterable[str | Path], source_lang: str | None = None,
                    target_lang: str | None = None) -> Glossary:
    """The glossary of several files (``attnmt translate --glossary a.tsv --glossary b.tbx``), of
    any formats, read as one file of their terms in order: a term in two files with one target is
    kept once, and one given two targets is a DataError naming both places, as two lines of one
    file are (a later file's target silently winning would hide a termbase that disagrees with
    itself).  Each path, and the languages, as ``read_glossary`` takes them.  A file without a term
    is a DataError naming it (``glossary_rows``)."""
    # the readers of TSV, CSV, JSON and TBX files: loaded where a file is read, not by every job (issue 44)
    from attnmt.decoding.glossary_files import check_languages, glossary_rows

    if isinstance(paths, str | bytes | os.PathLike):  # one path was read a character a file: "cannot read /"
        raise ConfigError(f"read_glossaries: expected a list of glossary files, got {paths!r:.80}; pass [path] for one")
    check_languages(source_lang, target_lang)
    kept: dict[str, tuple[str, str]] = {}
    places: dict[str, str] = {}
    for path in paths:
        if not isinstance(path, str | os.PathLike) or not os.fspath(path):
            raise ConfigError(f"read_glossary: expected the path of a glossary file, got {path!r}")
        for where, source, target in glossary_rows(path, source_lang, target_lang):
            places.setdefault(add_term(kept, source, target, where, places), where)
    return Glossary.indexed(kept, places)
