"""How glossary matching sees a term and a sentence (attnmt.decoding.glossary): ``normal`` (NFKC,
case-folded, apostrophes straight, invisible characters read as the model reads them, spaces as one),
``cased`` (the same in the term's own case), and ``normal_pieces``, a text made normal a piece at a
time so that each place in the normal text knows the characters it came from."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from attnmt.decoding.word_edges import emoji_joiner
from attnmt.text.invisible import DIRECTION_RUNS, SPACING, folded, invisible


def normal(term: str, fold: Callable[[str], str] = str.casefold) -> str:
    """A term as matching sees it: in Unicode's compatibility form NFKC (a letter and its combining
    accent as the one letter they make, full-width letters as the usual ones: as SentencePiece,
    which normalises to NFKC, gives them to the model), case-folded (then NFKC again: folding can leave
    characters that compose), apostrophes as "'", double quotes as '"' and hyphens as "-" (``TYPED``), without
    invisible characters (``compatible``), runs of spaces as one.  ``fold``: how case is folded (``capitals``)."""
    folded = "".join("".join(run) if kept else compatible("".join(run), fold)  # a run of symbols left as it is
                     for kept, run in itertools.groupby(term, kept_symbol))
    return " ".join(folded.split())


def acronym(term: str) -> bool:
    """Whether ``term`` (as written, ``cased``) is an acronym: two letters or more, all capitals ("US",
    "IT", "NATO", "ΗΠΑ"), which matches only where a text has it in capitals (attnmt.decoding.glossary)."""
    return len(term) >= 2 and term.isalpha() and term.isupper()


def has_acronym(term: str) -> bool:
    """Whether a word of ``term`` (as written, ``cased``) is an ``acronym``: "US", "US Army",
    "EU AI Act", "IT department"; each such word matches only in capitals."""
    return any(map(acronym, term.split()))


def term_key(source: str) -> str:
    """What tells two source terms apart (attnmt.decoding.glossary): ``normal(source)``, but each
    of its words that is an acronym in its capitals (``normal(source, capitals)``): under smart case
    "US" (the country) and "us" (the word) match apart, so they are two terms, as are "US Army"
    and "us army", where "Dog" and "dog", "US Army" and "US army", are one (but for two targets:
    ``case_variant_key``)."""
    folded = normal(source)
    if not has_acronym(cased(source)):
        return folded
    shown = normal(source, capitals)
    if len(shown) != len(folded):  # NFKC composed the two apart: the words cannot be paired
        return shown
    return " ".join(word if acronym(word) else own
                    for word, own in zip(shown.split(" "), folded.split(" "), strict=True))


# Marks the key of a source term kept beside one that reads alike but for its case and has another target ("Apple":
# Apple beside "apple": Apfel, a brand and a word): no normal text holds it (``compatible`` drops control characters)
CASE_VARIANT = "\0"


def same_target(term: str) -> str:
    """A target term as two that are one term read alike: stripped, in Unicode's canonical form NFC
    ("Café" typed with a combining accent is "Café", and is written so: attnmt.decoding.term_ids), so
    a term given it twice, once in each form, was "two target terms, 'Café' (…) and 'Café'"."""
    return unicodedata.normalize("NFC", term.strip())


def case_variant_key(source: str) -> str:
    """The key a source term is kept under beside one that reads alike but for its case and has another target
    (attnmt.decoding.glossary): CASE_VARIANT and the term as ``capitals`` shows it ("Apple", "apple"; "US Army",
    "US army": the acronym's capitals alike, one ``term_key``), each then matched where a text has its case."""
    return CASE_VARIANT + normal(source, capitals)


def in_capitals(shown: str, key: str) -> bool:
    """Whether a text's words ``shown`` as ``capitals`` shows them have each acronym of the term
    whose ``term_key`` is ``key`` in its capitals (its other words in any case: "US ARMY" and
    "US army" hold "US Army", "us army" does not)."""
    words, own = shown.split(" "), key.split(" ")
    return len(words) == len(own) and all(word == mine for word, mine in zip(words, own, strict=True)
                                          if acronym(mine))


def named(term: str) -> bool:
    """Whether ``term`` (as written, ``cased``) is a name by its capitals: a word after its first begins with one
    ("Red Cross", "Statue of Liberty"), which matches only where a text has them (``in_own_capitals``)."""
    return any(word[:1].isupper() for word in term.split()[1:])


def in_own_capitals(shown: str, term: str) -> bool:
    """Whether a text's words ``shown`` as ``capitals`` shows them begin with a capital where those of ``term`` (as
    written, ``cased``) after its first do, as memoQ's "smart case" matches (the first may be a sentence's capital or
    none): "the Red Cross", "RED CROSS" hold the name "Red Cross", "the red cross", a red cross ("rote Kreuz"), does
    not.  Words parted by spaces or hyphens; a text of other words ("redcross") holds it in none of its cases."""
    words, own = re.split("[ -]", shown), re.split("[ -]", term)
    return len(words) == len(own) and all(word[:1].isupper() for word, mine in zip(words[1:], own[1:], strict=True)
                                          if mine[:1].isupper())


def one_capital(term: str) -> bool:
    """Whether ``term`` (as written, ``cased``) is one word with a capital first and no acronym ("Word", "Manager",
    "E-Mail"), which may be a name: its plural is matched only where a text writes it so too (``titled_at``), "words"
    and "offices" being no plurals of the programs Word and Office."""
    return " " not in term and term[:1].isupper() and not acronym(term)


def narrowed(term: str) -> bool:
    """Whether ``term`` (as written, ``cased``) matches in fewer of its forms than in small letters, by its
    capitals: a name (``named``: "Coffee Shop") only with them, one word with a capital (``one_capital``: "Dog")
    in its plural only so ("Dogs" inside a sentence)."""
    return named(term) or one_capital(term)


# The marks that may stand before a sentence's first word: opening quotes and brackets, a list's dash or bullet
OPENING = "\"'([{«‹¡¿-–—•*"
# The marks that end a sentence, after which the next word's capital is the sentence's
SENTENCE_ENDS = ".!?"


def titled_at(text: str, start: int, shown: str) -> bool:
    """Whether a word of a normal ``text`` at ``start``, ``shown`` as ``capitals`` shows it, has a capital first and
    small letters after ("Managers"), not as a sentence's first word nor in capitals ("MANAGERS"), where every word
    has a capital: only then does the capital tell a single word's name from the common word."""
    before = text[:start].rstrip().rstrip(OPENING).rstrip()
    first = not before or before.endswith(tuple(SENTENCE_ENDS))
    return not first and shown[:1].isupper() and not shown.isupper()


def capitals(text: str) -> str:
    """``text`` case-folded as ``str.casefold`` folds it, but a capital's fold in capitals ("Join US":
    "join US"), so that ``normal(text, capitals)`` has ``normal(text)``'s length, character for character
    (where NFKC composes the two alike), and shows where an acronym is written in capitals."""
    return "".join(character.casefold().upper() if character.isupper() else character.casefold()
                   for character in text)


# The controls that wrap a run of text of another direction part words too.
WORD_EDGES = SPACING | DIRECTION_RUNS


def cased(term: str) -> str:
    """``term`` as ``normal`` makes it but in its own case: "Apple\\u00a0 Music" is "Apple Music"."""
    return " ".join(compatible(term, str).split())  # str: each text as it is, not case-folded


def compatible(text: str, fold: Callable[[str], str] = str.casefold) -> str:
    """``text`` with its invisible characters read as the model reads them, in NFKC, case-folded
    (``fold``), NFKC again, "İ" folded to "i" (``DOTTED_I``), its apostrophes and hyphens straight
    (``APOSTROPHES``, ``HYPHENS``).  Those SentencePiece turns into a space (attnmt.text.invisible.SPACING: a
    zero-width space, a non-joiner, a byte order mark, a direction mark) are a space, so "a\\u200bdog"
    holds the term "dog", as the model reads "a dog", and "dog\\u200b" is the term "dog"; the
    other invisible characters (a soft hyphen, which marks where a word may break, a word joiner) are no
    part of what a reader sees, so none of a term or of a
    sentence: "20\\u00ad12" holds the term "2012" (and not "12").  found_in reads a character at a
    time, so its places stay right.  The controls that embed or isolate text of another direction
    (``DIRECTION_RUNS``) are word edges too: "ב\\u2066Google\\u2069" holds the term "Google".  A joiner
    that joins emoji into one (``emoji_joiner``) is kept, so a term ends nowhere inside them."""
    if not text.isprintable():  # only then can it hold one (every Cc and Cf character is unprintable)
        text = "".join(" " if character in WORD_EDGES
                       else "" if invisible(character) and not emoji_joiner(text, at) else character
                       for at, character in enumerate(text))
    return folded(text, fold).replace(DOTTED_I, "i").translate(TYPED)


# What case-folding makes of Turkish "İ" (U+0130): an "i" and a combining dot above, which NFKC keeps
# apart, so "İstanbul" was no "istanbul" and a term matched neither way; as Turkish lower-cases it, "i".
DOTTED_I = "i\u0307"


def normal_pieces(text: str, joiners: AbstractSet[int]) -> Iterable[tuple[int, int, str]]:
    """``text`` as (first, end, normal form) of its pieces, for ``Glossary.found_in``: each character
    with the combining marks after it, made normal together (``compatible``), as ``normal`` composes
    them: made alone, half-width "ｶ" and its voicing mark "ﾞ" were "カ" and a combining mark, never
    the "ガ" that ``normal`` makes of both, so a term ``matches`` found was not found in the text.
    The emoji ``joiners`` (indices in text) and the symbols NFKC would change (``kept_symbol``) are
    pieces of their own, as they are.  A piece of several characters is made normal once, when it is
    whole: made again at each mark, a run of 2,000 marks ("Zalgo" text) took 4 s, and 8,000 over three minutes.
    Printable ASCII is each character in small letters, as ``compatible`` makes it, without asking it of each."""
    if text.isascii() and text.isprintable():
        return [(at, at + 1, character) for at, character in enumerate(text.lower())]
    pieces: list[tuple[int, int, str]] = []  # a piece of several characters holds its first's form till the end
    kept = False  # whether the last piece was kept as it is, so that no mark joins it
    for at, character in enumerate(text):
        if at in joiners or kept_symbol(character):
            pieces.append((at, at + 1, character))
            kept = True
            continue
        made = compatible(character)
        if pieces and not kept and pieces[-1][2].strip() and made and unicodedata.category(made[0]).startswith("M"):
            pieces[-1] = (pieces[-1][0], at + 1, pieces[-1][2])
        else:
            pieces.append((at, at + 1, made))
        kept = False
    return [(first, end, made if end - first == 1 else compatible(text[first:end])) for first, end, made in pieces]


# The apostrophes a term typed with "'" must match: Word and most editors write "’" (U+2019) for
# it, some "‘" (U+2018, "Rock ‘n’ roll"), and U+02BC is the letter apostrophe; NFKC keeps all
# three.  One character for one, so found_in's places in the text stay right.
APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc", "'"))
# The hyphens a term typed with "-" must match: U+2010, and the non-breaking U+2011 that Word's
# Ctrl+Shift+- types ("Wi\u2011Fi"), which NFKC makes U+2010.  One character for one, as above.
HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011", "-"))
# The double quotes a term typed with '"' must match, as Word writes them ("“Save As”", German "„Speichern“", an
# inch mark "5”"): the term '"Save As"' was not found in Word's text.  One character for one, as above.
QUOTES = str.maketrans(dict.fromkeys("\u201c\u201d\u201e\u201f", '"'))
TYPED = APOSTROPHES | HYPHENS | QUOTES


def kept_symbol(character: str) -> bool:
    """Whether ``character`` is a symbol or other number (Unicode's S* and No) that NFKC would change: NFKC
    makes "™" "TM" and "①" "1", which glued "Acme™" into one word, "acmetm", and "Acme" matched no more.
    Asked of each character as it comes: a pattern of them all, built from the 1.1 million code points,
    took a second at each glossary job's start."""
    category = unicodedata.category(character)
    return (category[0] == "S" or category == "No") and unicodedata.normalize("NFKC", character) != character
