"""A glossary's target noun written as the head of a German compound (attnmt.decoding.term_ids.with_other_forms):
"construction workers" with worker -> Arbeiter is "Bauarbeiter", and the search, which knew the term only as the
word "▁Arbeiter", wrote it again beside the compound: "Drei Bauarbeiter … Arbeiter".  Where the source term has a
word of its own before it (``modified``: English writes the compound's first part as a word, "construction",
"police"), the pieces of the target vocabulary that write the term as a compound's head (``compound_heads``) meet it
too, when the model writes them: the search never offers them, so a sentence it translates with the plain word is
translated as before.

A noun written as a compound's FIRST part: "Dog owners walk" with dog -> Hund came out "Hundebesitzer … Hund", the
term written again.  Where the source term is followed by a word of its own that is no function word (``modifying``:
English writes a compound's parts as words, "dog owners", "car key"), the term is met too by the forms that begin a
compound with it (``first_parts``): the term with a linking "e", "s", "en" … ("▁Hunde" of "Hundebesitzer"), which
must be carried on by the compound's next part (term_after.JOINED, so "Hunde" alone, the plural, is no such form),
and a piece that holds the term and a word more ("▁Straßenmusik").  The term's own form may go on as a compound too
("▁Auto" "schlüssel", term_after.FIRST_PART), but for a term the model does not know as a word, by a short piece or
a hyphen (``guessed_heads``: "Fotoapparatel").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from attnmt.decoding.term_after import COMPOUND, HYPHENS, JOINED

# The words before a noun that are no first part of a compound: articles, determiners, numbers, possessives.
DETERMINERS = frozenset(
    "a an the this that these those some any many several few each every other another no all both my your his her "
    "its our their one two three four five six seven eight nine ten twelve".split())
# How long a compound's first part is at least: "S" + "hut" ("Shut") is no compound of "Hut".
FIRST_PART = 3


def modified(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term follows
    a word of letters that is no determiner (``DETERMINERS``): "construction workers", "police dog"."""
    kept = set()
    for start, _, target in found:
        before = re.search(r"([^\W\d_]+)\s+$", sentence[:start])
        if before and before.group(1).casefold() not in DETERMINERS:
            kept.add(target)
    return kept


# The words after a noun that are no compound's next part: verbs' helpers, prepositions, conjunctions, pronouns.
NO_HEADS = frozenset(
    "and or but nor of in on at by to for from with without into onto over under near behind beside between through "
    "across along around up down out off is are was were be been being has have had do does did can could will would "
    "shall should may might must as than that which who whom whose while when where there here it its they them he "
    "she him her we us you i me this these those".split())
# The letters German puts between a compound's parts ("Hund-e-besitzer", "Arbeit-s-platz", "Kind-er-garten",
# "Herz-ens-wunsch"; no "n" after another letter: "Hundn"); after a first part's "-e" an "n" alone ("Katze-n-futter",
# "Name-ns-schild": "Kundee" and "Kundes" were forms of "Kunde"), after "-el" and "-er" an "s" or "n"
# ("Engel-s-flügel", "Feder-n-bett"), and after the endings of feminine nouns, "-ung", "-heit", "-keit", "-schaft",
# "-ion", "-tät", an "s" alone ("Zeitung-s-papier").
LINKS = ("e", "s", "es", "en", "er", "ens")
E_LINKS = ("n", "ns")
EL_LINKS = ("s", "n")
S_LINKED = ("ung", "heit", "keit", "schaft", "ion", "tät")
# How long a compound's next part is at least, in one piece with the term: "Hundert" is no compound of "Hund".
NEXT_PART = 4
# How long the first piece of a compound's next part is at least after a term the model does not know as a word
# (``guessed_heads``): "tasche" of "Fotoapparattasche", not "el" of "Fotoapparatel".
HEAD_START = 3


def modifying(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term is followed
    by a word of letters that is no function word (``NO_HEADS``) nor determiner (``DETERMINERS``) nor the sentence's
    verb (``verb_after``): "dog owners", "car key", a compound's first part; not "brings the customer a coffee",
    "The patent expires"."""
    kept = set()
    for start, end, target in found:
        after = re.match(r"\s+([^\W\d_]+)", sentence[end:])
        if after and after.group(1).casefold() not in NO_HEADS | DETERMINERS and not verb_after(
                sentence[:start], after.group(1).casefold(), sentence[end + after.end():]):
            kept.add(target)
    return kept


# The words after a noun that are a verb or an adverb, no compound's next part: adverbs of time and manner,
# English's commonest irregular pasts ("The dog ran"; "won" of "won't" too), and the third persons of the verbs that
# an adjective or an object follows, where the rule of ``verb_after`` reads a compound ("The document looks old"
# came out "Die Dokumentin"); none that is a noun's plural too ("needs", "works", "stands").
NO_NOUNS = frozenset(
    "looks seems appears becomes feels sounds remains stays gets goes comes wants says tells knows thinks likes "
    "loves hates "
    "always never often also just still really usually soon today tomorrow yesterday now then again already "
    "sometimes rarely finally suddenly only even not very too so quickly slowly ran sat came went saw said got "
    "made took gave found told felt became brought bought began kept held stood wrote ate fell lost met paid sent "
    "built won broke chose drove flew forgot grew knew led lay rode rose sang shook slept spoke spent stole swam "
    "taught thought threw understood woke wore".split())
# The determiners of one thing alone, after which a noun's next word in "-s" is no plural: "A patent expires"
SINGULAR = frozenset(("a", "an", "this", "that", "each", "every", "one", "another"))
# The determiners of several, after which a noun's next word in "-s" is the plural of a compound: "Two dog owners"
PLURAL = frozenset(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "many",
                    "several", "few", "these", "those", "some", "all", "both", "other"))
# The verbs' helpers, after which a word in "-s" is the noun they tell of: "The dog owners are here"
HELPERS = frozenset("is are was were be been has have had do does did can could will would shall should may might "
                    "must".split())
# How long a past in "-ed" is at least ("changed"; "bed", "shed" are nouns), and the endings of nouns in "-ed"
# and "-s" ("seed", "speed"; "glass", "bus", "analysis")
PAST, NOUN_ED, NOUN_S = 5, "eed", ("ss", "us", "is", "'s")


def verb_after(before: str, word: str, rest: str) -> bool:
    """Whether ``word`` (case-folded), after a noun that ``before`` is the sentence's text before and followed by
    ``rest``, is a verb or an adverb, no compound's next part: one of NO_NOUNS, a contraction's ("doesn't"), a past
    in "-ed" ("The patent changed"), or a third person in "-s": after a singular determiner (``SINGULAR``: "A patent
    expires"), or before the sentence's end, a function word, a determiner or a plural noun (``plural_object``),
    not after a plural one (``PLURAL``: "Two dog owners."), where "The patent expires." came out "Der Patentschrünt",
    "The contract arrives today." "Der Vertragter".  A word in "-s" before another word of letters stays the
    compound's ("Dog owners walk")."""
    if word in NO_NOUNS or rest.startswith(("'", "\u2019")):
        return True
    if word.endswith("ed") and len(word) >= PAST and not word.endswith(NOUN_ED):
        return True
    if not word.endswith("s") or word.endswith(NOUN_S):
        return False
    # the determiner right before the noun, or before an adjective before it ("a new patent expires")
    said = next((w for w in reversed(re.findall(r"[^\W\d_]+", before.casefold())[-2:]) if w in SINGULAR | PLURAL), "")
    if said:
        return said in SINGULAR
    following = re.match(r"\s*([^\W\d_]+)", rest)
    if not following:
        return True
    return following.group(1).casefold() in (NO_HEADS | DETERMINERS | NO_NOUNS) - HELPERS or plural_object(
        following.group(1).casefold())


def plural_object(word: str) -> bool:
    """Whether ``word``, after a noun and a word in "-s", is a plural noun, the object of that word, which is then
    the sentence's verb ("The catalog lists shoes", "The report shows results"; "The catalog lists shoes." came out
    "Die Katzen Katalog."): a compound's plural head is followed by its own verb, which takes no "-s" ("The dog
    owners walk"); not a word that ends in "-s" in the singular (NOUN_S: "glass", "bus")."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(NOUN_S)


def first_parts(tokenizer, target: str) -> list[tuple[list[int], int]]:
    """The forms that write a one-word noun ``target`` ("Hund") as a compound's first part, each with its rule
    (attnmt.decoding.term_after): the term and each of its ``links``, as the vocabulary writes them ("▁Hunde") and
    as the term's pieces and the link's piece ("▁Katze" "n" of "Katzenfutter", "▁Arbeit" "s" of "Arbeitsplatz",
    which FIRST_PART bars after the term's own form, as it bars every ending), JOINED; and each target piece that
    is "▁", the term and ``NEXT_PART`` letters more ("▁Straßenmusik"), COMPOUND.  None for another term, or a
    tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece") or not (target.isalpha() and target[:1].isupper()):
        return []
    own, named = tokenizer.encode_target(target), named_pieces(tokenizer)
    kept = []
    for link in links(target):
        ids = tokenizer.encode_target(target + link)
        written = [ids] if tokenizer.decode(ids) == target + link else []
        # the link a piece of its own after the term's, as the vocabulary writes a compound it has no piece for
        written += [[*own, named.index(link)]] if link in named else []
        for form in written:
            kept += [(form, JOINED)] if (form, JOINED) not in kept else []
    for i, piece in enumerate(named):
        rest = piece[len(target) + 1:]
        if piece.startswith("▁" + target) and len(rest) >= NEXT_PART and rest.isalpha() and rest.islower():
            kept.append(([i], COMPOUND))
    return kept


def links(target: str) -> tuple[str, ...]:
    """The letters that may join a one-word noun ``target`` to a compound's next part, by how it ends (LINKS)."""
    if target.endswith("e"):
        return E_LINKS
    if target.endswith(("el", "er")):
        return EL_LINKS
    return ("s",) if target.endswith(S_LINKED) else LINKS


@functools.lru_cache(maxsize=4096)  # per tokenizer and term
def compound_heads(tokenizer, target: str) -> tuple[tuple[int, ...], ...]:
    """The forms that write a one-word noun ``target`` (a capital first, letters alone: "Arbeiter") as a compound's
    head: each target piece that is a word of a first part (``FIRST_PART`` letters or more) and the term in small
    letters ("▁Bauarbeiter", "▁Schäferhund"), and the piece of the term in small letters that carries a word on
    ("hund" of "▁Polizei" "hund"); none for another term, or a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece") or not (target.isalpha() and target[:1].isupper()):
        return ()
    head = target[0].lower() + target[1:]
    kept = []
    for i, piece in enumerate(named_pieces(tokenizer)):
        word = piece.removeprefix("▁")
        whole = piece != word and word[:1].isupper() and len(word) >= len(head) + FIRST_PART
        if piece == head or (whole and word.endswith(head) and word[: -len(head)].isalpha()):
            kept.append((i,))
    return tuple(kept)


@functools.lru_cache(maxsize=4)  # per tokenizer: a look at each of its pieces
def short_parts(tokenizer) -> tuple[int, ...]:
    """The ids of the target pieces that carry a word on by fewer than ``HEAD_START`` letters or digits ("el", "t"),
    or by a hyphen ("-" "St"), which may not follow a term of several pieces as its compound's next part
    (``guessed_heads``)."""
    return tuple(i for i, piece in enumerate(named_pieces(tokenizer))
                 if (piece[:1].isalnum() and len(piece) < HEAD_START) or piece[:1] in HYPHENS)


def guessed_heads(tokenizer, own: list[int]) -> tuple[int, ...]:
    """The pieces that may not start the next part of a compound whose first part is a term of the token ids ``own``:
    where the vocabulary writes the term in several pieces, the model has not learnt it as a word nor its compounds,
    and its next piece is a guess, a short one making a fragment ("A man holds a camera bag." with camera ->
    Fotoapparat came out "Ein Mann hält eine Fotoapparatel.", and with a hyphen "Fotoapparat-St."), so the short
    pieces and hyphens (``short_parts``); none for a term
    of one piece ("▁Polizei" "t" "ra" "ns" "porter" is the model's own compound)."""
    return short_parts(tokenizer) if len(own) > 1 else ()


@functools.lru_cache(maxsize=4)  # per tokenizer: naming each piece cost 30 ms a term
def named_pieces(tokenizer) -> tuple[str, ...]:
    """The target vocabulary's pieces, by id."""
    return tuple(map(tokenizer.id_to_piece, range(tokenizer.vocab_size)))
