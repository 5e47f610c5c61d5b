"""The German article before a glossary term takes the term's gender, in the case the model's own article shows.

The model writes the article before it knows the search will force the term, with its own noun in view: "He sat on
a meadow." with meadow -> Wiese came out "Er saß auf einem Wiese.", "einem" being the dative of the model's
"Rasen".  The case is the model's (its verb and preposition chose it), the gender the term's: "einem" -> "einer",
"dem" -> "der", "einen" -> "eine", "den" -> "die", "ein" -> "eine", and the other way for a masculine or neuter term
after a feminine article ("auf einer Garten" -> "auf einem Garten"); the adjectives between take the ending the new
article gives them ("einen großen Wiese" -> "eine große Wiese"), and a contraction its preposition's other form
("zum" -> "zur", "im" -> "in der"), and the term the form of the new article's case: a weak masculine noun its
"-n" but in the nominative ("mit der Kunde" -> "mit dem Kunden"), a masculine or neuter one its genitive's "-s"
("der Mädchen" -> "des Mädchens", and after a genitive article of its own: "des Schmetterling" -> "des
Schmetterlings"; the article is kept where that genitive is not sure: ``genitive``).  Where the
article is of two cases (feminine "der": nominative of a masculine noun, dative of a feminine one; "eine":
nominative or accusative), the English tells which (``source_case``: a subject, a dative's preposition or verb,
"of" before the term's phrase, "of a young girl": the genitive but where German writes a preposition, "von der"),
and without it an article that may agree already is kept.

A term's gender is known from its ending (label_gender.noun_gender: "Zeitung", "Mädchen"; term_weak: "Kunde"), or,
for the feminine nouns in "-e" ("Wiese", "Straße", "Brücke": most German nouns in "-e"), from that ending but for
the nouns of it named (NOT_FEMININE_E), those made with "Ge-" ("Gebäude"), and loanwords spelt as their source
("Update").  A term of unknown gender or of several words keeps the model's article.

A term the sentence holds in the plural of its given singular ("children" for "child": Glossary.inflected) takes its
article's plural after "of" alone (``plural_edits``): German's plural article is one for every gender ("die", "den",
"der"), and "of" is the one English word that tells its case ("The toys of the children": "der Kinder", its
genitive; "von den Kindern" where German writes "von").  Elsewhere, after a numeral ("zweier großer Hunde": a
numeral's genitive and the adjectives' strong endings, which no paradigm here holds), and for a source term that
only looks plural ("meadows" given as it is, "gas"), the model's words are kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.label_gender import DER_WORDS, EIN_WORDS, FEMININE, MASCULINE, NEUTER, noun_gender
from attnmt.decoding.term_adjectives import stem_of
from attnmt.decoding.term_cases import dative_ending, dative_possible, subject
from attnmt.decoding.term_compounds import DETERMINERS, NO_HEADS
from attnmt.decoding.term_plurals import plural_endings, spelled_as_source, umlaut_endings, umlauted
from attnmt.decoding.term_weak import german, weak_case, weak_genitive, weak_masculine
from attnmt.text.function_words import PREPOSITIONS
from attnmt.text.german_words import ADVERBS

NOMINATIVE, ACCUSATIVE, DATIVE, GENITIVE = range(4)  # the place of each case's form in a paradigm's row
Forms = dict[str, tuple[str, ...]]  # a gender -> its forms in the four cases
Paradigm = tuple[Forms, Forms]  # a determiner's forms and an adjective's endings after it

DEFINITE: Forms = {MASCULINE: ("der", "den", "dem", "des"), FEMININE: ("die", "die", "der", "der"),
                   NEUTER: ("das", "das", "dem", "des")}
DER_ENDINGS: Forms = {MASCULINE: ("er", "en", "em", "es"), FEMININE: ("e", "e", "er", "er"),
                      NEUTER: ("es", "es", "em", "es")}
EIN_ENDINGS: Forms = {MASCULINE: ("", "en", "em", "es"), FEMININE: ("e", "e", "er", "er"), NEUTER: ("", "", "em", "es")}
# An adjective's ending after "der" and its like (weak), and after "ein" and its like (mixed: "ein großer")
WEAK: Forms = {MASCULINE: ("e", "en", "en", "en"), FEMININE: ("e", "e", "en", "en"), NEUTER: ("e", "e", "en", "en")}
MIXED: Forms = {MASCULINE: ("er", "en", "en", "en"), FEMININE: ("e", "e", "en", "en"), NEUTER: ("es", "es", "en", "en")}
SHORTENED = {"euer": "eur"}  # "eure", "eurem": the stem before an ending


def declined(stem: str, endings: Forms) -> Forms:
    """A determiner's forms by gender and case: ``stem`` with each of its ``endings``."""
    return {gender: tuple(stem + ending if not ending else SHORTENED.get(stem, stem) + ending for ending in row)
            for gender, row in endings.items()}


PARADIGMS: list[Paradigm] = [(DEFINITE, WEAK), *((declined(stem, DER_ENDINGS), WEAK) for stem in DER_WORDS),
                             *((declined(stem, EIN_ENDINGS), MIXED) for stem in EIN_WORDS)]
ARTICLE_FORMS = frozenset(form for forms, _ in PARADIGMS for row in forms.values() for form in row)
# A determiner's forms and its plural's in the four cases, one for every gender ("die", "diese", "meine"; "ein" has
# none), all of them among ARTICLE_FORMS; its adjectives' ending after it is "-en" in each ("der großen Hunde")
PLURAL_ENDINGS = ("e", "e", "en", "er")
PLURAL_ROWS: list[tuple[Forms, tuple[str, ...]]] = [
    (DEFINITE, ("die", "die", "den", "der")),
    *((forms, tuple(SHORTENED.get(stem, stem) + end for end in PLURAL_ENDINGS))
      for stem, (forms, _) in zip((*DER_WORDS, *EIN_WORDS), PARADIGMS[1:], strict=True) if stem != "ein")]
# The German prepositions of the dative alone, "of"'s among them ("von"): a plural after another may be in the
# accusative ("an die Kinder denken"), which the English does not tell
DATIVE_ONLY = ("von", "zu", "aus", "bei", "mit", "nach", "seit")
# A preposition and "dem" or "das" written as one word, and the one word of a preposition and its new article
CONTRACTED = {"zum": ("zu", "dem"), "zur": ("zu", "der"), "im": ("in", "dem"), "am": ("an", "dem"),
              "vom": ("von", "dem"), "beim": ("bei", "dem"), "ins": ("in", "das"), "ans": ("an", "das")}
CONTRACTIONS = {parts: word for word, parts in CONTRACTED.items()}
# The common nouns in "-e" that are not feminine, and so their compounds ("Wochenende", "Hauptgebäude"): neuter
# ("Auge", "Ende", "Erbe", "Interesse", "Image", the collectives in "Ge-") and masculine ("Käse", "Charme"); a
# feminine noun of such an end ("Legende") is taken with no gender, which keeps the model's article
NOT_FEMININE_E = ("auge", "ende", "erbe", "interesse", "image", "finale", "genre", "regime", "prestige", "käse",
                  "charme", "gebäude", "gemälde", "gebirge", "gelände", "gemüse", "getreide", "gewebe", "gehäuse",
                  "getriebe", "getränke")
BETWEEN = 3  # how many adjectives (or adverbs: "sehr") may stand between an article and its term
# The ends of a noun whose genitive no rule of its letters tells ("des Hauses", "des Ergebnisses", "des Globus"), and
# the one of them that is sure to take no ending ("des Tourismus"): see ``genitive``
SIBILANTS, UNINFLECTED = ("s", "ß", "x", "z"), ("ismus",)
# The marks that end the English words a term's case is read from: no "of" before one is the term's
CLAUSE_MARK = re.compile(r"[,.;:!?()\[\]\"\u201c\u201d]")


def term_gender(target: str, source: str) -> str | None:
    """The gender of a German target term of one word (the module docstring), None where not known; ``source`` is
    its source term as the sentence writes it (a loanword's spelling)."""
    if not one_noun(target):
        return None
    if weak_masculine(target):
        return MASCULINE
    word = target.lower().split("-")[-1]
    found = noun_gender(word)
    if found is not None:
        return found
    # "-ee" and "-ie" are other endings ("Kaffee", "Knie"); a noun made with "Ge-" is mostly neuter ("Gebäude")
    feminine_e = word.endswith("e") and not word.endswith(("ee", "ie", *NOT_FEMININE_E)) and not word.startswith("ge")
    return FEMININE if feminine_e and not spelled_as_source(source, target) else None


def one_noun(target: str) -> bool:
    """Whether ``target`` is one German noun: a word of letters (or a compound's parts joined by hyphens) with a
    capital first."""
    return bool(re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)*", target)) and target[:1].isupper()


def source_case(sentence: str, start: int) -> int | None:
    """The case the English before the source term at ``start`` tells: NOMINATIVE for the sentence's subject,
    GENITIVE after "of" (``after_of``), DATIVE after a dative's preposition or verb (term_cases), else None."""
    if subject(sentence, start):
        return NOMINATIVE
    if after_of(sentence, start):
        return GENITIVE
    return DATIVE if dative_possible(sentence, start) else None


def after_of(sentence: str, start: int) -> bool:
    """Whether the source term at ``start`` of ``sentence`` ends a noun phrase after "of": "of" [determiners]
    [adjectives] term ("the face of a young girl", "the roof of my big old barn", "the end of the meadow"), up to
    BETWEEN words that are no function word (term_compounds.NO_HEADS: a preposition, a conjunction, a helping verb)
    standing next to the term, none of them before a determiner ("afraid of losing the girl": "losing" is a verb,
    its object no genitive), and no mark between ("Of course, the girl runs")."""
    words = re.findall(r"[^\W\d_]+", CLAUSE_MARK.split(sentence[:start])[-1].casefold())
    adjectives, determined = 0, False
    for word in reversed(words):
        if word == "of":
            return True
        if word in DETERMINERS:
            determined = True
        elif determined or word in NO_HEADS or adjectives == BETWEEN:
            return False
        else:
            adjectives += 1
    return False


def agreeing(article: str, gender: str, hint: int | None) -> tuple[Paradigm, int] | None:
    """The paradigm and case in which ``article`` (in small letters) is to take ``gender``'s form, given the case the
    English tells (``hint``: ``source_case``); None where it agrees already, or the case is not told."""
    readings = [(paradigm, case, own) for paradigm in PARADIGMS for own, row in paradigm[0].items()
                for case, form in enumerate(row) if form == article]
    agreed = {case for _, case, own in readings if own == gender}
    other = [(paradigm, case) for paradigm, case, own in readings if own != gender]
    told = [(paradigm, case) for paradigm, case in other if case == hint]
    if agreed and (hint is None or hint in agreed or not told):
        return None
    if told:
        other = told
    elif hint != NOMINATIVE and any(case != NOMINATIVE for _, case in other):
        other = [(paradigm, case) for paradigm, case in other if case != NOMINATIVE]  # an object, not the subject
    forms = {(paradigm[0][gender][case], paradigm[1][gender][case]) for paradigm, case in other}
    return other[0] if len(forms) == 1 else None


def before_term(text: str, end: int) -> tuple[tuple[int, int], list[tuple[int, int]]] | None:
    """The (start, end) of the determiner before the term at ``text[end:]``, past up to BETWEEN adjectives
    (term_adjectives.stem_of) or adverbs, and the adjectives' (start, end); None where a word of another kind stands
    there, or the determiner follows a comma (a relative pronoun: "Das Haus, das Wiesen hat")."""
    adjectives: list[tuple[int, int]] = []
    for _ in range(BETWEEN + 1):
        found = re.search(r"([^\W\d_]+) +$", text[:end])
        if found is None:
            return None
        word = found.group(1)
        if word.lower() in ARTICLE_FORMS or word.lower() in CONTRACTED:
            after_comma = text[:found.start(1)].rstrip().endswith(",")
            return None if after_comma else (found.span(1), adjectives)
        if not word.islower() or (word not in ADVERBS and stem_of(word) is None):
            return None
        if word not in ADVERBS:
            adjectives.append(found.span(1))
        end = found.start(1)
    return None


def article_edits(text: str, noun: tuple[int, int], target: str, gender: str,
                  hint: int | None) -> list[tuple[int, int, str]]:
    """The (start, end, new text) that make the determiner before the term ``target`` written at ``text``'s span
    ``noun``, the adjectives between, and the term's own form (``case_form``) agree with the term's ``gender`` in the
    case the determiner is read in; none where no determiner stands there, it agrees (but for the term's genitive
    ending: ``in_genitive``), or the term's form in that case is not known."""
    span = before_term(text, noun[0])
    if span is None:
        return []
    (start, end), adjectives = span
    written = text[start:end]
    preposition, article = CONTRACTED.get(written.lower(), ("", written.lower()))
    told = german_case(hint, text[:start], preposition)
    if in_genitive(article, gender, told):
        form = case_form(target, gender, GENITIVE)
        return [] if form is None else [(*noun, form)]
    found = agreeing(article, gender, told)
    form = None if found is None else case_form(target, gender, found[1])
    if found is None or form is None:
        return []
    (forms, adjective_forms), case = found
    new = forms[gender][case]
    if preposition:
        new = CONTRACTIONS.get((preposition, new), f"{preposition} {new}")
    ending = adjective_forms[gender][case]
    return [(start, end, as_written(new, written)),
            *((first, last, f"{stem_of(text[first:last])}{ending}") for first, last in adjectives), (*noun, form)]


def in_genitive(article: str, gender: str, hint: int | None) -> bool:
    """Whether ``article`` (in small letters) agrees with ``gender`` already in the genitive: its one reading of that
    gender ("des", "eines", "meines") or the one the English tells (``hint``: "dieses" after "of").  The search lets
    a strong noun take no "-s" (term_ids), and "des Schmetterling", "eines jungen Mädchen" came out."""
    cases = {case for forms, _ in PARADIGMS for case, form in enumerate(forms[gender]) if form == article}
    return GENITIVE in cases and (cases == {GENITIVE} or hint == GENITIVE)


def german_case(hint: int | None, before: str, preposition: str) -> int | None:
    """The case the English tells (``hint``: ``source_case``) as the German ``before`` the determiner allows: after a
    German preposition (``preposition``, a contraction's, or the word before) "of" is no genitive but "von" and its
    dative ("von der alten Wiese", "Angst vor dem Hund"); "zu des", "von des" came out."""
    return DATIVE if hint == GENITIVE and german_preposition(before, preposition) else hint


def german_preposition(before: str, preposition: str) -> str:
    """The German preposition before a determiner, in small letters: a contraction's (``preposition``) or the last
    word of ``before`` where that is one; "" where none stands there."""
    word = re.search(r"([^\W\d_]+)\s+$", before)
    last = "" if word is None else word.group(1).lower()
    return preposition or (last if last in PREPOSITIONS["de"] else "")


def case_form(target: str, gender: str, case: int) -> str | None:
    """The term ``target``, a noun of ``gender``, in the singular of ``case``, the case its rewritten article is in:
    a weak masculine noun with the ending the search holds it to after an oblique article (term_weak.weak_case,
    term_agreement) in every case but the nominative ("dem Kunden", "des Namens": term_weak.weak_genitive); another
    masculine or neuter noun in its ``genitive``; None where that is not known."""
    if weak_masculine(target):
        if case == NOMINATIVE:
            return target
        return weak_genitive(target) if case == GENITIVE else target + weak_case(target)
    return genitive(target) if case == GENITIVE and gender != FEMININE else target


def genitive(target: str) -> str | None:
    """The genitive singular of a strong masculine or neuter noun ``target``: its "-s" ("des Mädchens", "des
    Schmetterlings", "des Dokuments", "des Direktors").  After a sibilant (SIBILANTS) it is "-es" mostly ("des
    Hauses"), but "-nis" doubles its "s" ("des Ergebnisses") and a Latin "-us" takes none ("des Globus"), which the
    letters do not tell apart: None there, and the model's article is kept, for a genitive ending guessed wrong
    ("des Ergebnises") would be a mistake of ours where the model's article is at worst its own; but "-ismus", sure to
    take none (UNINFLECTED: "des Tourismus")."""
    if target.endswith(UNINFLECTED):
        return target
    return None if target.endswith(SIBILANTS) else target + "s"


def places(text: str, target: str, gender: str) -> Iterator[tuple[int, int]]:
    """The spans where the term ``target`` stands in ``text`` as a word, in a masculine or neuter one's genitive or a
    weak one's case form too ("des Gartens", "dem Kunden"; a feminine one's "-n" is its plural's)."""
    ending = "" if gender == FEMININE else "(?:e?s|e?n)?"
    for found in re.finditer(rf"(?<![\w-]){re.escape(target)}{ending}(?![\w-])", text):
        yield found.span()


def agreed_articles(text: str, sentence: str, glossary: Glossary | None, target_lang: str | None) -> str:
    """``text``, a German translation of ``sentence`` with ``glossary``'s terms, with the article before each of its
    terms in the term's gender, or its plural (the module docstring); as it is for a target language other than
    German."""
    if not glossary or not german(target_lang):
        return text
    edits: list[tuple[int, int, str]] = []
    inflected, singular = glossary.inflected(sentence), glossary.singular(sentence)
    found = glossary.found_in(sentence)
    for target in dict.fromkeys(target for _, _, target in found):
        sources = [(start, end) for start, end, each in found if each == target]
        if target in singular:  # given in the plural, its source in the singular: the model's form of it
            continue
        hints = [source_case(sentence, start) for start, _ in sources]
        if target in inflected:  # the plural of a term given in the singular ("gas" only looks like one)
            loanword = spelled_as_source(sentence[sources[0][0]:sources[0][1]], target)
            edits += [edit for k, place in enumerate(plural_places(text, target, loanword)) if k < len(hints)
                      for edit in plural_edits(text, place, hints[k])]
            continue
        gender = term_gender(target, sentence[sources[0][0]:sources[0][1]])
        if gender is not None and not any(plural_source(sentence[start:end]) for start, end in sources):
            edits += [edit for k, noun in enumerate(places(text, target, gender))
                      for edit in article_edits(text, noun, target, gender, hints[k] if k < len(hints) else None)]
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def plural_source(source: str) -> bool:
    """Whether an English source term looks plural (its last word in "-s" but "-ss", "-us", "-is": "meadows"), where
    German's plural article ("die") would be read as a singular's."""
    return source.casefold().endswith("s") and not source.casefold().endswith(("ss", "us", "is"))


def plural_places(text: str, target: str,
                  loanword: bool) -> list[tuple[int, int, str, str, tuple[str, ...]]]:
    """The (start, end, stem, ending, endings) of each place where ``target``, a German noun (``one_noun``), stands in
    ``text`` in its plural (term_plurals: "Kinder", "Kindern", "Männer", "Kunden", "Lehrer" as it is), in order: the
    stem it is written with (``target``, or ``umlauted``), the ending after it, and all the endings of that stem's
    plural (a ``loanword``'s, spelled as its source, "Tickets", "Updates", too)."""
    if not one_noun(target):
        return []
    stems = [(target, plural_endings(target, loanword))]
    if (stem := umlauted(target)) is not None:
        stems.append((stem, umlaut_endings(stem)))
    found = []
    for stem, endings in stems:
        alternatives = "|".join(map(re.escape, sorted(endings, key=len, reverse=True)))
        for match in re.finditer(rf"(?<![\w-]){re.escape(stem)}({alternatives})?(?![\w-])", text):
            found.append((*match.span(), stem, match.group(1) or "", endings))
    return sorted(found)


def plural_edits(text: str, place: tuple[int, int, str, str, tuple[str, ...]],
                 hint: int | None) -> list[tuple[int, int, str]]:
    """The (start, end, new text) that put the determiner before a plural term at ``place`` (``plural_places``), the
    adjectives between and the term in the genitive plural where "of" stands before its source (``hint``:
    ``source_case``), or in the dative where German writes a preposition for it (``german_case``: "von den
    Kindern"); none for another case, or where no determiner with a plural stands there (a numeral, "ein"), or a
    preposition whose case is not the dative alone ("Er denkt an die Kinder": the accusative)."""
    noun_start, noun_end, stem, ending, endings = place
    span = None if hint != GENITIVE else before_term(text, noun_start)
    if span is None:
        return []
    (start, end), adjectives = span
    written = text[start:end]
    contracted, article = CONTRACTED.get(written.lower(), ("", written.lower()))
    preposition = german_preposition(text[:start], contracted)
    if preposition not in ("", *DATIVE_ONLY):
        return []
    case = DATIVE if preposition else GENITIVE
    rows = {row[case] for forms, row in PLURAL_ROWS if any(article in each for each in forms.values())}
    if len(rows) != 1:
        return []
    new = rows.pop()
    if contracted:
        new = CONTRACTIONS.get((contracted, new), f"{contracted} {new}")
    return [(start, end, as_written(new, written)), *((first, last, f"{stem_of(text[first:last])}en")
                                                       for first, last in adjectives),
            (noun_start, noun_end, plural_form(stem, ending, endings, case))]


def plural_form(stem: str, ending: str, endings: tuple[str, ...], case: int) -> str:
    """The plural ``stem`` + ``ending`` (of a plural's ``endings``: term_plurals) in ``case``: in the genitive without
    the dative's "-n" (term_cases.dative_ending: "der Kinder" for "Kindern", but "der Frauen"), in the dative with it
    where the plural ends in neither "-n" nor "-s" ("den Kindern", "den Lehrern", "den Autos")."""
    plural = stem + (ending[:-1] if dative_ending(stem, ending, endings) else ending)
    return plural + "n" if case == DATIVE and not plural.endswith(("n", "s")) else plural


def as_written(new: str, written: str) -> str:
    """``new``, a determiner in small letters, with a capital first where the one it replaces, ``written``, has one."""
    return new[:1].upper() + new[1:] if written[:1].isupper() else new
