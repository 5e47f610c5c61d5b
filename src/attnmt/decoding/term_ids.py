"""Glossary terms and prefixes as the target token ids the searches force (attnmt.decoding.constraints):
a term or prefix the target vocabulary cannot write, or writes otherwise, is a DataError in one line;
a sentence's terms each once, less those inside another (``term_tokens``), and the terms that fit
into an output's room together (``fitting``); a term the sentence has glued to an opening bracket or
quote, with the other ways its translation may write it so (``Term``, ``glued_forms``)."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

from attnmt.decoding.term_adjectives import declined_adjectives
from attnmt.decoding.term_after import FIRST_PART, INFLECTED, WORD
from attnmt.decoding.term_agreement import Articles, articles, weak_cases
from attnmt.decoding.term_cases import datives, subjects, without_dative
from attnmt.decoding.term_compounds import compound_heads, first_parts, guessed_heads, modified, modifying
from attnmt.decoding.term_plurals import (
    ENDINGS,
    plural_endings,
    spelled_as_source,
    umlaut_endings,
    umlauted,
    verb_target,
    without_umlaut,
)
from attnmt.decoding.term_weak import numbered, weak_case, weak_endings, weak_masculine, weak_rules
from attnmt.errors import DataError, shown, value_shown


def term_tokens(tokenizer, targets: Sequence[str], unk_id: int) -> list[list[int]]:
    """The target token ids of each target term (``target_ids``), less the terms whose pieces lie
    inside another term's (writing the longer one writes them too) and repeats."""
    return outermost([target_ids(tokenizer, target, unk_id) for target in targets])


def target_ids(tokenizer, target: str, unk_id: int, place: str | None = None) -> list[int]:
    """A target term's token ids; one the target vocabulary cannot write (an unknown piece), or
    writes differently, is a DataError in one line, naming ``place`` (where the term was given:
    "terms.tsv:3", Glossary.place) where known.  A term the vocabulary writes in another but
    canonically equal Unicode form (NFC: "Café" typed with a combining accent comes out with "é")
    is the same text, and is written as the vocabulary writes it."""
    ids = tokenizer.encode_target(target)
    where = f"{place}: " if place else ""
    if unk_id in ids:
        raise DataError(f"{where}glossary target term {value_shown(target)}: the model's target vocabulary cannot "
                        "write it (it has characters with no piece); change the term or leave it out")
    written = tokenizer.decode(ids)
    # Exactly, but for the ends: "Hund  Bello" (two spaces) or "Hund\tBello" comes out "Hund Bello",
    # which is not the term as written.
    if unicodedata.normalize("NFC", written.strip()) != unicodedata.normalize("NFC", target.strip()):
        raise DataError(f"{where}glossary target term {shown(target, written)}: the model's target vocabulary "
                        f"writes it as {shown(written, target)}; write the term that way")
    return ids


def prefix_ids(tokenizer, prefix: str, unk_id: int, name: str = "prefix") -> list[int]:
    """A prefix's token ids; one the target vocabulary cannot write (an unknown piece, which would
    start every translation with " ⁇ ") is a DataError in one line, ``name`` saying where it came from."""
    ids = tokenizer.encode_target(prefix)
    if unk_id in ids:
        raise DataError(f"{name} {value_shown(prefix)}: the model's target vocabulary cannot write it (it has "
                        "characters with no piece); change the prefix or leave it out")
    return ids


def fitting(terms: Sequence[Sequence[int]], room: int) -> tuple[list[list[int]], list[list[int]]]:
    """The terms that fit together into ``room`` output tokens, in their order, and those left out:
    each term that would take the pieces kept so far past ``room``.  A term left out could never be
    written whole: the search would fill the translation with its first pieces and stop at the
    length limit without it or the rest of the sentence."""
    kept: list[list[int]] = []
    left_out: list[list[int]] = []
    for term in terms:
        fits = sum(map(len, kept)) + len(term) <= room
        (kept if fits else left_out).append(list(term))
    return kept, left_out


def outermost(terms: Sequence[Sequence[int]]) -> list[list[int]]:
    """The terms, each once, less those that occur as consecutive tokens inside another, in their
    order.  Each term's runs of the terms' lengths go into one set: the work grows with the
    number of terms (times their lengths), not with its square."""
    unique = list(dict.fromkeys(map(tuple, terms)))
    lengths = {len(term) for term in unique}
    runs = {term[i: i + k] for term in unique for k in lengths if k < len(term) for i in range(len(term) - k + 1)}
    return [list(term) for term in unique if term not in runs]


class Term(list):
    """A term's token ids, as the search writes it where a word starts (its first piece with SentencePiece's
    "▁"), and ``others``: the other forms that write it, any of which meets it (attnmt.decoding.constraints);
    ``inflects``: whether the model may carry its last word on ("Zugangspunkt" + "e"), for a source term the
    sentence holds in the plural (attnmt.decoding.term_plurals) or an adjective ("alt" + "e": ``declines``), by the
    pieces ``endings`` alone (``ending_ids``: "e",
    "en", not "ett": "Bankett" is no "Bank"); ``rules``: what may follow each form's last piece, where a form has
    a rule of its own (attnmt.decoding.term_after: a compound's first part; none given: ``rules_of``); ``cases``: of a
    weak masculine noun, whether each form has its case ending (term_agreement.weak_cases; none given: ``cases_of``),
    which agrees with the article before it as the target vocabulary's ``articles`` read it.  A plain list is a term
    of one form."""

    def __init__(self, ids: Sequence[int], others: Sequence[Sequence[int]] = (), inflects: bool = False,
                 endings: Sequence[int] = (), rules: Sequence[int] = (), cases: Sequence[int] = (),
                 articles: Articles | None = None) -> None:
        super().__init__(ids)
        self.others = [list(form) for form in others]
        self.inflects = inflects
        self.endings = list(endings)
        self.rules = list(rules)
        self.cases = list(cases)
        self.articles = articles


def inflects(term: Sequence[int]) -> bool:
    """Whether the model may carry ``term``'s last word on once it is written (``Term``'s ``inflects``)."""
    return isinstance(term, Term) and term.inflects


def endings_of(term: Sequence[int]) -> list[int]:
    """The pieces that are endings to ``term``'s forms' rules (``Term``'s ``endings``: those that inflect it, or
    that may not follow it as a compound's first part); none for a plain list."""
    return term.endings if isinstance(term, Term) else []


def rules_of(term: Sequence[int]) -> list[int]:
    """What may follow each of ``forms(term)``'s last piece (attnmt.decoding.term_after): ``Term``'s ``rules``
    where given, else for each form an ending where the term ``inflects``, or else nothing that carries it on."""
    if isinstance(term, Term) and term.rules:
        return term.rules
    return [INFLECTED if inflects(term) else WORD] * len(forms(term))


def cases_of(term: Sequence[int]) -> list[int]:
    """Whether each of ``forms(term)`` is a weak masculine noun's with or without its case ending (``Term``'s
    ``cases``; 0 for the forms of other terms)."""
    cases = term.cases if isinstance(term, Term) else []
    return [*cases, *[0] * (len(forms(term)) - len(cases))]


def articles_of(sentences: Iterable[Iterable[Sequence[int]]]) -> Articles | None:
    """The target vocabulary's articles (term_agreement.Articles) that the weak nouns among the terms of
    ``sentences`` agree with; None where there is none."""
    return next((term.articles for terms in sentences for term in terms
                 if isinstance(term, Term) and term.articles is not None), None)


def forms(term: Sequence[int]) -> list[list[int]]:
    """The forms that write ``term``: its own ids, then its ``others`` where it is a ``Term``."""
    return [list(term), *(term.others if isinstance(term, Term) else ())]


# The brackets and quotes a translation may glue to the word after them, whatever the source's are: an English
# '"router"' is a German „Router“ or »Router«, a French « routeur », a Spanish ¿…?
OPENERS = "([{\"'„“‘‚«»‹›¿¡"


def glued_forms(tokenizer, target: str) -> list[list[int]]:
    """The token ids of a target term glued to each of OPENERS before it ("▁„" "H" "und" for „Hund), where the
    vocabulary writes it so (``written_so``): SentencePiece writes a word glued to a bracket or quote in other pieces
    than the word after a space, so a term, its first piece "▁Hund", could not follow "▁„" but with a space
    ("„ Hund“"), and the model left the quote out instead.  The search writes such a form only where the model
    itself writes its first piece, the opener (attnmt.decoding.constraints)."""
    return [form for opener in OPENERS for form in written_so(tokenizer, opener + target)]


def capitalised_form(tokenizer, target: str) -> list[list[int]]:
    """The token ids of a target term in lower case with a capital first ("Routeur" for "routeur"), where the
    vocabulary writes it so (``written_so``), as a translation starts a sentence with it: the term as written could
    not, and the model put a word of its own first ("Ein rote Autos" for "Red cars", "rote" the term; "Ein Mann mit
    rotem Hemd" for "Red shirts …", "Rotes Hemd" a German noun's capital inside).  No form for a term with a capital,
    or no letter, first, or a capital inside its first word, whose case is its own ("iPhone", "eBay")."""
    if not (word := target.split(" ")[0])[:1].islower() or word != word.lower():
        return []
    return written_so(tokenizer, target[0].upper() + target[1:])


def written_so(tokenizer, text: str) -> list[list[int]]:
    """``text``'s token ids, alone in a list, where the vocabulary writes it exactly (NFC aside, as ``target_ids``
    reads a term); none where it writes it otherwise (an unknown piece)."""
    form = tokenizer.encode_target(text)
    return [form] if unicodedata.normalize("NFC", tokenizer.decode(form)) == unicodedata.normalize("NFC", text) else []


def with_other_forms(tokenizer, terms: Sequence[list[int]], sentence: str, found: Iterable[tuple[int, int, str]],
                     inflected: AbstractSet[str] = frozenset(),
                     singular: AbstractSet[str] = frozenset(), german: bool = False) -> list[list[int]]:
    """``terms`` (a sentence's target terms' token ids), each a ``Term`` with its other forms where ``sentence``, its
    source terms found at ``found`` (Glossary.found_in's (start, end, target term)), has its source term right after
    an opening bracket or quote ("(router)", „router“: OPENERS, or Unicode's opening punctuation; ``glued_forms``) or
    first, in a capital ("Router is off.", but for the brackets and quotes before it; ``capitalised_form``); the
    target terms ``inflected`` (Glossary.inflected: their source terms are in another number) ``inflects``, as does
    an adjective (``declines``), those ``singular`` (Glossary.singular: given in the plural, their source in the
    singular) ``stem_forms`` too, a noun whose source term has a word before it (term_compounds.modified) the
    compounds it is the head of (term_compounds.compound_heads), and one whose source term has a word after it
    (term_compounds.modifying) the compounds it is the first part of (``as_first_part``); where the target is
    ``german``, a weak masculine noun its case form, agreeing with its article (term_weak, term_agreement): a French
    "Président" took German's "Présidenten" after "des", and its source's number where that tells the form
    (term_weak.numbered: the plural, a singular subject); a plural's dative ending only where the source may be in
    the dative (term_cases.datives), and a consonant's "s" only for a loanword, its target spelled as its source and
    not declined as German's in the vocabulary (``declined_whole``)."""
    found = list(found)
    glued, first, compounded = set(), set(), as_written(modified(sentence, found))
    dative, subject = as_written(datives(sentence, found)), as_written(subjects(sentence, found))
    loanwords = as_written(target for start, end, target in found  # "Ticket" for "tickets", not "Katalog"
                           if spelled_as_source(sentence[start:end], target) and not declined_whole(tokenizer, target))
    modifiers = as_written(modifying(sentence, found))
    for start, _, target in found:
        if start and (sentence[start - 1] in OPENERS or unicodedata.category(sentence[start - 1]) in ("Ps", "Pi")):
            glued.add(unicodedata.normalize("NFC", target.strip()))
        if sentence[start].isupper() and not sentence[:start].strip(OPENERS + " "):
            first.add(unicodedata.normalize("NFC", target.strip()))
    kept = []
    for ids in terms:
        text = unicodedata.normalize("NFC", tokenizer.decode(ids))
        declined = [form for other in declined_adjectives(text) if german for form in written_so(tokenizer, other)]
        capitalised = [form for each in (text, *map(tokenizer.decode, declined)) if text in first  # "Rote Hemden" too
                       for form in capitalised_form(tokenizer, each)]
        written = [text, *map(tokenizer.decode, (*capitalised, *declined))]  # „Rote for '"Red cars" …' too
        others = [*capitalised, *declined,
                  *(form for each in written if text in glued for form in glued_forms(tokenizer, each))]
        plural, weak = text in as_written(inflected), german and weak_masculine(text)
        inflecting = not weak and (plural or declines(text))  # a weak noun takes "en" alone, in either number
        in_german = inflecting and german and text not in as_written(singular)
        own = german_plural(text, text in dative, text in loanwords) if in_german else ENDINGS
        if inflecting:  # "Hunde"; "rote", and "Rote" first in a sentence
            others += [form for each in (ids, *capitalised, *declined)
                       for form in inflected_forms(tokenizer, each, own)]
            others += [form for each in written for form in ending_forms(tokenizer, each, own)]
        if plural and not weak:
            umlauts = umlaut_forms(tokenizer, text, text in dative or not german, text in loanwords)
            others += [*umlauts, *([] if german else head_forms(tokenizer, text))]  # German: declined_adjectives
        others += stem_forms(tokenizer, text) if text in as_written(singular) else []
        others += map(list, compound_heads(tokenizer, text)) if text in compounded else []
        case = weak_case(text)
        others += written_so(tokenizer, text + case) if weak else []
        others = [list(form) for form in dict.fromkeys(map(tuple, others)) if list(form) != list(ids)]  # each once
        endings = ending_ids(tokenizer, own) if inflecting else weak_endings(tokenizer, case) if weak else ()
        rules = weak_rules(tokenizer, [ids, *others], case, text in modifiers) if weak else ()
        rules = plural_rules(tokenizer, [ids, *others], text) if own != ENDINGS else rules
        cases = weak_cases(tokenizer, [ids, *others], case) if weak else ()
        if weak and (plural or text in subject):  # "Kollegen warten"; "Kollege wartet" for "Colleague is waiting."
            rules, cases = numbered(rules, cases, plural)
        term = Term(ids, others, inflecting or weak, endings, rules, cases, articles(tokenizer) if weak else None)
        kept.append(as_first_part(tokenizer, term, text) if text in modifiers else term if others or term.inflects
                    else ids)
    return kept


def declined_whole(tokenizer, target: str) -> bool:
    """Whether the vocabulary writes the plural in "-n" of ``target``'s last word in "-e" as one piece ("▁Rosen",
    "▁Noten", "▁Typen" in the demo model's): a noun its training text declines as German's, which is no loanword
    taking "-s" though spelled as its English ("rose", "note"; "Zwei Roses"); a loanword's "Updaten" is no piece."""
    word = target.rpartition(" ")[2].rpartition("-")[2]
    return word.endswith("e") and any(len(form) == 1 for form in written_so(tokenizer, word + "n"))


def as_first_part(tokenizer, term: Term, text: str) -> Term:
    """``term`` (its target ``text``), whose source term is a compound's first part in English ("dog owners"),
    with the forms that write it as a German compound's first part (term_compounds.first_parts, each with its rule)
    and its own form free to go on as one ("▁Auto" "schlüssel": term_after.FIRST_PART); as it was where it
    inflects (the source is in another number: its ending is the word's) or is no noun (it has no such forms)."""
    if term.inflects or not text.isalpha() or not text[:1].isupper():
        return term
    parts = [(form, rule) for form, rule in first_parts(tokenizer, text) if form not in forms(term)]
    rules = [FIRST_PART, *rules_of(term)[1:], *(rule for _, rule in parts)]
    endings = [*ending_ids(tokenizer), *guessed_heads(tokenizer, term)]
    return Term(term, [*term.others, *(form for form, _ in parts)], False, endings, rules)


def german_plural(target: str, dative: bool = True, loanword: bool = True) -> tuple[str, ...]:
    """The endings a German target term takes for a source in the plural: a noun's own (term_plurals.plural_endings:
    "Patent" + "e", not "Patent" + "n"; a consonant's "s" where it may be a ``loanword``, spelled as its source),
    less the dative's where its source may not be in the ``dative`` (term_cases.without_dative: "Vier Berichten" came
    out); any of the ENDINGS where it is no noun (its last word in small letters).  A hyphenated compound takes its
    head's ("Sicherheits-Update": "Sicherheits-Updaten" came out where every ending was free)."""
    word = target.rpartition(" ")[2].rpartition("-")[2]
    if not (word[:1].isupper() and word.isalpha()):
        return ENDINGS
    endings = plural_endings(word, loanword)
    return endings if dative else without_dative(word, endings)


def plural_rules(tokenizer, written: Sequence[Sequence[int]], target: str) -> list[int]:
    """What may follow each of a German noun's forms ``written`` for a source in the plural (term_after): an ending
    after a form that ends as the term does ("▁Pa" "ten" "t" + "e"), nothing after one with its ending ("Patente",
    "Hunden": "Vier Vertragenen" came out, "Vertragen" taking another "en")."""
    word = target.rpartition(" ")[2]
    return [INFLECTED if tokenizer.decode(form).endswith(word) else WORD for form in written]


def declines(target: str) -> bool:
    """Whether the target term ``target`` ends in an adjective, which takes an ending before its noun, whatever the
    source's number: German's "alte", "roten", "glücklichem" for "alt", "rot", "glücklich"; French's "rouges".  Its
    last word is in small letters (a German noun has a capital) and is no verb's infinitive (``verb_target``: "gehen"
    + "d" is another word).  The search forced "alt" as written: "Der alte Mann sitzt alt auf einer Bank"."""
    word = target.rpartition(" ")[2]
    return word.isalpha() and word.islower() and not verb_target(target)


def as_written(targets: Iterable[str]) -> set[str]:
    """``targets`` as a term's ids decode, to be told apart by: NFC, without spaces at the ends."""
    return {unicodedata.normalize("NFC", target.strip()) for target in targets}


def ending_forms(tokenizer, target: str, endings: Sequence[str] = ENDINGS) -> list[list[int]]:
    """The token ids of ``target`` carried on by each of the ENDINGS, where the vocabulary writes that word otherwise
    than ``target``'s pieces and the ending's ("▁alte" for "▁a" "lt" + "e"), as the model writes it: the search
    let such a term be carried on by an ending's piece alone: the model wrote "▁alte", and the search then the term,
    "Der alte alte Mann".  ``endings``: those the term takes (``german_plural``)."""
    ids = tokenizer.encode_target(target)
    return [form for ending in endings for form in written_so(tokenizer, target + ending) if form[:len(ids)] != ids]


def umlaut_forms(tokenizer, target: str, dative: bool = True, loanword: bool = False) -> list[list[int]]:
    """The token ids of a German target noun with its last vowel in its umlaut (``term_plurals.umlauted``) and each
    ending such a plural takes (``term_plurals.umlaut_endings``: "Männer" for "Mann", "Häuser" for "Haus", "Stühle"
    for "Stuhl"), where the vocabulary writes it so: the search required "Mann" for "Two men", and "Drei Mann
    sitzen auf Stuhl" came out; the dative's endings only where its source may be in the ``dative`` (``german_plural``:
    "Viele Verträgen" came out).  A ``loanword``, spelled as its English source, takes German's umlaut only where the
    vocabulary holds that plural's last word whole (``umlaut_declined``)."""
    if not (stem := umlauted(target)):
        return []
    endings = umlaut_endings(stem) if dative else without_dative(stem, umlaut_endings(stem))
    return [form for ending in endings if not loanword or umlaut_declined(tokenizer, stem + ending)
            for form in written_so(tokenizer, stem + ending)]


def umlaut_declined(tokenizer, plural: str) -> bool:
    """Whether the vocabulary writes the last word of ``plural``, a noun with an umlaut, as one piece ("▁Hände",
    "▁Bälle" in the demo model's): a German noun spelled as English ("hand", "ball") that its training text declines,
    where an English loanword's umlaut is a German rule applied to English ("Budget Manäger", "Chatböte", "Product
    Öwner" came out, "▁Man" "ä" "g" "er" in four pieces)."""
    return any(len(form) == 1 for form in written_so(tokenizer, plural.rpartition(" ")[2].rpartition("-")[2]))


def head_forms(tokenizer, target: str) -> list[list[int]]:
    """The token ids of a target term of several words, its first in small letters, that word carried on by each of
    the ENDINGS ("points d'accès" for "point d'accès", "puntos de acceso" for "punto de acceso"), where the
    vocabulary writes it so: French and Spanish put the plural on a term's first word, which the search could not
    inflect (only the last word is carried on), so "access points" came out "point d'accès"."""
    first, _, rest = target.partition(" ")
    if not rest or not first.isalpha() or not first.islower():
        return []
    return [form for ending in ENDINGS for form in written_so(tokenizer, f"{first}{ending} {rest}")]


def stem_forms(tokenizer, target: str) -> list[list[int]]:
    """The token ids of a target term given in the plural without an ending of its last word (ENDINGS: "Zugangspunkt"
    for "Zugangspunkte", "Kind" for "Kinder", "routeur" for "routeurs") or of its first ("point d'accès" for "points
    d'accès"), each with the pieces that carry it on (``inflected_forms``), where the vocabulary writes it so: a
    sentence holds its source term in the singular, the model picks the form, and may carry the word on ("Kund" +
    "e" for "Kunden"); a German noun's also without its umlaut (``term_plurals.without_umlaut``: "Mann" for
    "Männer"; "Ein Männer sitzt auf einem Stühle" came out)."""
    first, _, rest = target.partition(" ")
    word = target.rpartition(" ")[2]
    cut = [target[: -len(ending)] for ending in ENDINGS if word.endswith(ending) and len(word) - len(ending) >= 3]
    # French and Spanish put the plural on a term's first word: "points d'accès", "puntos de acceso"
    heads = [f"{first[: -len(ending)]} {rest}" for ending in ENDINGS
             if rest and first.endswith(ending) and len(first) - len(ending) >= 3]
    stems = [*cut, *(plain for stem in cut if (plain := without_umlaut(stem))), *heads]
    return [form for stem in stems for each in written_so(tokenizer, stem)
            for form in (each, *inflected_forms(tokenizer, each))]


def inflected_forms(tokenizer, ids: Sequence[int], endings: Sequence[str] = ENDINGS) -> list[list[int]]:
    """The forms of a term whose last piece is one that carries it on by one of the ENDINGS ("▁Hunde" for
    "▁Hund", not "▁Bankett" for "▁Bank"), which the vocabulary writes in one piece: the search lets a term whose
    source is in the plural be inflected after its last piece (``Term``'s ``inflects``), but "Zwei Hund spielen"
    came out, "▁Hunde" being no "▁Hund" and a piece after it.  ``endings``: those the term takes (``german_plural``).
    None for a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return []
    last = tokenizer.id_to_piece(ids[-1])
    return [[*ids[:-1], longer] for longer in carried_on(tokenizer).get(last, ())
            if tokenizer.id_to_piece(longer)[len(last):] in endings]


@functools.lru_cache(maxsize=64)  # per tokenizer and endings: a look at each of its pieces
def ending_ids(tokenizer, endings: Sequence[str] = ENDINGS) -> tuple[int, ...]:
    """The ids of the target pieces that are one of ``endings`` alone (the ENDINGS, or a term's own: "e", "en"),
    which may carry on a term the search lets the model inflect; none for a tokenizer that does not name its
    pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return ()
    return tuple(i for i in range(tokenizer.vocab_size) if tokenizer.id_to_piece(i) in endings)


@functools.lru_cache(maxsize=4)  # per tokenizer: a look at each of its pieces
def carried_on(tokenizer) -> dict[str, list[int]]:
    """A target piece -> the ids of the pieces that are it and one of the ENDINGS more ("▁Hund": "▁Hunde",
    "▁Hunden")."""
    longer: dict[str, list[int]] = {}
    for i in range(tokenizer.vocab_size):
        piece = tokenizer.id_to_piece(i)
        for ending in ENDINGS:
            if piece.endswith(ending) and len(piece) > len(ending):
                longer.setdefault(piece[:-len(ending)], []).append(i)
    return longer
