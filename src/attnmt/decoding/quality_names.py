"""The ``name`` rule (attnmt.decoding.quality): a name the source writes is missing from its translation, which
keeps a name as written ("The dog runs, says John." as "Der Hund rennt, sagt Peter.").

German writes every noun with a capital, so its capitals mark no name; where the source's language writes a
capital only for a name and a sentence's first word (NAMED_BY_CAPITAL) and the translation's writes names in
the same letters (KEPT_IN), a word with a capital is a name the translation keeps (``kept_names``), unless it

- starts a sentence (but for an English name: ``first_word_name``), or is written in lower case elsewhere in the
  source;
- is written in capitals alone ("ATV", "TV": an abbreviation, which a translation may spell out);
- stands beside another word with a capital or holds a hyphen ("Salvation Army", "German Shepherd",
  "African-American": an institution, a breed, a people, which a translation translates);
- is a common word with a capital: its lower case is one piece of the model's source vocabulary ("Christmas",
  "Mohawk", "Child"; ``common``), which a name the model never learnt to translate is not ("john": "jo", "h",
  "n");
- names a day of the week (or days: "on Sundays", "sonntags") or a month, which the verbatim rule reads
  (attnmt.decoding.verbatim_months);
- follows "the" or a program's verb for its controls (NOT_A_NAME_AFTER: "the Queen", "the Government", "the Edit
  menu", "Press Cancel", "select Privacy"): a title, an institution or a menu's item, which a translation
  translates ("die Königin", "Abbrechen"), as a person's name after them is rare; a land, a river or a people
  quality_exonyms knows is still read there ("the Germans", "The Swiss team", "the Danube"), and so is a
  possessive after a verb ("Click Anna's photo", "Open John's folder"): a control has no "'s", a person does.

A sentence's first word has a capital anyway, and Multi30k's vocabulary cuts many a first word into pieces
("Several": "se", "veral"), so reading every one of them gave 24 false flags on its 1,000 test references.  An
English one is a name (``first_word_name``: "Anna is reading.", "Microsoft released ...", "Anna's car") where it is
none of ENGLISH_FIRST_WORDS (a closed class: "This", "Several", "Here"), has no ending of a noun ("Elections",
"Payment": NOUN_ENDINGS; but a name in "s" before a verb in the singular: "Thomas works", "Chris is reading"), is
no common word with an English ending ("Bearded", "Looking": ENDINGS), a verb follows it ("said", "released":
FOLLOWS_A_NAME; "is reading": PROGRESSIVE) or it is a possessive, and the translation does not start with an
article (``opens_with_article``: "Das Frühstück wird ..." for "Breakfast is ..."): none of those 1,000 references
and of the 1,014 validation ones is flagged so, 3 of the 29,000 training ones ("Grandpa is demonstrating ...",
"Childern are playing ...").  Any other verb is no evidence ("Local villagers" and "Login failed." read so as "Anna
reads."), so "Anna reads." and "Anna went home." are not read.

The translation keeps the name where it holds it, or a word that starts as it does, an article elided before it
("l'Italie") or a compound's parts before it ("Pro-Judäa-Schild") aside (``spelled``: its first three
letters, "c" read as "k" and "sch" as "sk", an accent left out: "Japanese" as "Japaner", "Scottish" as
"schottischer", "California" as "Kalifornien", "Zurich" as "Zürich", "Turkish" as "türkisch"), or the name as
the translation's language writes it (attnmt.decoding.quality_exonyms: "Vienna" as "Wien").  On Multi30k's
1,014 validation pairs, en-de, 3 references break the rule ("Cami" as "Tarnanzug", "Fez's" as "Fesen", "an
Eastern nation" as "ein östliches Land").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from attnmt.decoding.quality_exonyms import EXONYMS
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.verbatim_months import MONTHS, WEEKDAYS
from attnmt.text.articles import ARTICLES  # a translation's first word that says its source's first was a noun
from attnmt.text.invisible import folded, unaccented
from attnmt.text.language_codes import primary_subtag

NAMED_BY_CAPITAL = ("en", "fr", "es", "it", "pt", "nl")  # a capital marks a name, not a noun as German's does
KEPT_IN = ("en", "de", "fr", "es", "it", "pt", "nl")  # languages that write a Latin name as it is
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_SENTENCE_END = re.compile(r"[.!?:]\s*$")
# A person's title: its full stop ends no sentence, and the name after it is read as if it stood alone ("Mrs. Jones").
TITLES = frozenset({"Mr", "Mrs", "Ms", "Dr", "Prof"})
_TITLE = re.compile(rf"\b(?:{'|'.join(TITLES)})\.\s*$")
_GLUED = re.compile(r"['’-]")  # an elided article ("d'Italie", "dell'Italia") or a compound's hyphen ("Pro-Judäa")
# English words after which a capital marks a title, an institution or a program's control, not a name: of 20
# good news and software translations, 8 were flagged for such words (benchmarks/results/quality_names_epyc.txt)
NOT_A_NAME_AFTER = frozenset({"the", "click", "press", "tap", "select", "choose", "hit", "open", "enable", "disable"})
_KNOWN_NAMES = frozenset(word for table in EXONYMS.values() for word in table)  # "the Germans", "the Danube"
_KEPT_LETTERS = 3  # a translation's word that starts with the name's first three letters keeps it ("Japaner")
# English words that start sentences and are no names: determiners, pronouns, numbers, prepositions, conjunctions
# and adverbs, which a small vocabulary cuts into pieces ("This": "thi", "s"), so ``common`` does not know them.
ENGLISH_FIRST_WORDS = frozenset("""a an the this that these those they them their there here he she it its we our us
you your i my me his her some several many multiple various numerous few both each every all any most more no none
such other another one two three four five six seven eight nine ten eleven twelve twenty dozens hundreds as at in
on of by for from with without during before after while when where what which who whose why how and or but so if
then yet also only just still even please today yesterday tomorrow now somebody someone something everybody everyone
everything nobody anybody""".split())
ENDINGS = ("ed", "d", "ing", "er", "ly")  # a common word's past, gerund, doer, adverb: "Bearded", "Looking", "Elderly"
# Endings of English nouns that names hardly have: a plural ("Elections", "Users"; a name in "s", "Thomas", only
# before a verb in the singular: ``first_word_name``) and a noun made of another word ("Installation", "Payment",
# "Security", "Software").  A news or software text's first word is as new to a caption model's vocabulary as a
# name is ("Inflation": "▁inflat", "ion").
NOUN_ENDINGS = ("s", "tion", "sion", "ment", "ity", "ness", "ship", "ware", "ism")
# What a person, a company or a town does, right after a sentence's first word, says that word names one: a verb
# of saying or doing ("Sarah said", "Microsoft released"; FOLLOWS_A_NAME) or a verb in "-ing" after "is" or "was"
# ("Anna is reading": PROGRESSIVE).  "is" alone ("Copper is", "Email is") and a past in "-ed" ("Login failed",
# "Fog delayed") follow a thing's name as often: of 28 news, software and travel sentences with a noun first, 6
# were flagged so.
FOLLOWS_A_NAME = frozenset("""says said tells told asks asked answered replied explained added wrote writes called
calls visited visits met meets thanked thanks lives lived works worked wants wanted announced announces released
releases launched launches reported reports confirmed confirms denied denies""".split())
PROGRESSIVE = re.compile(r"\s+(?:is|was|are|were)\s+\w+ing\b")
# A verb in the singular after a first word in "s" ("Thomas works", "Chris is reading") says it is a name, no
# plural ("Users report", "Elections are"): NOUN_ENDINGS' "s" gives way to it.
_SINGULAR = re.compile(r"\s+(?:is|was)\s+\w+ing\b")
_NEXT_WORD = re.compile(r"\s+(\w+)")


def spelled(text: str) -> str:
    """``text`` case-folded (attnmt.text.invisible.folded), without accents ("Zürich" as "zurich") and with
    German's spelling of Latin's letters undone."""
    return unaccented(folded(text)).replace("sch", "sk").replace("c", "k")


def kept_names(source: str, common: Callable[[str], bool], first_words: Sequence[bool] = ()) -> list[str]:
    """The names ``source`` writes that a translation keeps (module docstring), as written, a possessive's "'s"
    left off; ``common``: whether a word in lower case is a common word of the model's source vocabulary; the
    first word of the source's i-th sentence is read where ``first_words[i]`` is true, in English
    (``first_word_name``)."""
    source = source.strip()
    words = list(_WORD.finditer(source))
    lower = {folded(m[0]) for m in words if m[0][0].islower()}
    starts = sentence_starts(source, words)
    sentence = [n - 1 for n in itertools.accumulate(starts)]  # which sentence each word is in, from 0
    read_first = [*first_words, *[False] * len(words)]  # a sentence past first_words: its first word not read
    names = []
    for k, match in enumerate(words):
        word = re.sub(r"['’]s?$", "", match[0])
        beside = [words[j][0] for j in (k - 1, k + 1)  # a first word and a title have a capital anyway
                  if 0 <= j < len(words) and not starts[j] and words[j][0] not in TITLES]
        if starts[k]:
            read = read_first[sentence[k]] and first_word_name(word, source[match.end():], word != match[0], common)
        else:
            read = not after_title_or_control(folded(words[k - 1][0]), folded(word), word != match[0])
        if (read and word[0].isupper() and not word.isupper() and "-" not in word
                and not any(w[0].isupper() for w in beside)
                and folded(word) not in lower | MONTHS.keys() and folded(word).removesuffix("s") not in WEEKDAYS
                and not common(word.lower())):
            names.append(word)
    return names


def first_word_name(word: str, after: str, possessive: bool, common: Callable[[str], bool]) -> bool:
    """Whether ``word``, an English sentence's first (a possessive's "'s" left off), is a name (module docstring):
    none of ENGLISH_FIRST_WORDS, with none of NOUN_ENDINGS, no ``common`` word with one of ENDINGS, and a
    ``possessive`` or ``after`` it (the source's rest) a verb that says so (FOLLOWS_A_NAME, PROGRESSIVE).  The caller
    reads ``common(word)`` itself."""
    low = folded(word)
    inflected = any(low.endswith(end) and len(low) - len(end) >= 3 and common(low[:-len(end)]) for end in ENDINGS)
    after = after.lower()
    verb = _NEXT_WORD.match(after)
    singular = verb is not None and verb[1] in FOLLOWS_A_NAME and verb[1].endswith("s") or _SINGULAR.match(after)
    in_s = low.endswith("s") and not low.endswith(NOUN_ENDINGS[1:])  # a plural's "s", or a name's ("Thomas")
    noun = low.endswith(NOUN_ENDINGS) and not (in_s and singular)
    if low in ENGLISH_FIRST_WORDS or noun or inflected:
        return False
    return possessive or verb is not None and verb[1] in FOLLOWS_A_NAME or PROGRESSIVE.match(after) is not None


def after_title_or_control(before: str, word: str, possessive: bool) -> bool:
    """Whether ``word`` (folded), after ``before`` (folded), is a title, an institution or a program's control, no
    name (NOT_A_NAME_AFTER): not a land or a people quality_exonyms knows, nor a ``possessive`` after a verb."""
    if before not in NOT_A_NAME_AFTER or word in _KNOWN_NAMES:
        return False
    return before == "the" or not possessive  # "the Queen's speech" is a title's still


class SourcePieces(Protocol):
    """What ``common_words`` reads of a tokenizer: the pieces its source vocabulary cuts a text into."""

    def pieces(self, text: str) -> list[str]: ...


def common_words(tokenizer: SourcePieces) -> Callable[[str], bool]:
    """Whether a word is one piece of ``tokenizer``'s source vocabulary (a lone "\u2581" and "</s>" aside)."""
    return lambda word: len([p for p in tokenizer.pieces(word) if p not in ("\u2581", "</s>")]) == 1


def name_lost(source: str, translation: str, languages: Languages, common: Callable[[str], bool]) -> bool:
    """Whether a name ``source`` writes (``kept_names``) is missing from ``translation`` (module docstring), where
    both languages (``languages``) are known and the rule reads them."""
    target = primary_subtag(languages.target or "")
    if primary_subtag(languages.source or "") not in NAMED_BY_CAPITAL or target not in KEPT_IN:
        return False
    text = spelled(translation)
    starts = {spelled(part)[:_KEPT_LETTERS] for word in _WORD.findall(translation) for part in _GLUED.split(word)}
    exonyms = EXONYMS.get(target, {})
    first_words = [not opens_with_article(start, target) for start in first_words_of(translation)]
    first_words = first_words if primary_subtag(languages.source or "") == "en" else []
    return any(not any(spelled(form) in text for form in (name, *exonyms.get(folded(name), ())))
               and spelled(name)[:_KEPT_LETTERS] not in starts for name in kept_names(source, common, first_words))


def sentence_starts(text: str, words: Sequence[re.Match[str]]) -> list[bool]:
    """Whether each of ``words`` (``_WORD``'s in ``text``) starts a sentence of ``text``: the first, and each after
    a final mark or a colon, but for a title's (TITLES: "Mrs. Jones", "Dr. Smith")."""
    return [k == 0 or bool(_SENTENCE_END.search(text[:m.start()]) and not _TITLE.search(text[:m.start()]))
            for k, m in enumerate(words)]


def first_words_of(text: str) -> list[str]:
    """The first word of each sentence of ``text`` (``sentence_starts``)."""
    words = list(_WORD.finditer(text))
    return [m[0] for m, start in zip(words, sentence_starts(text, words), strict=True) if start]


def opens_with_article(word: str, language: str) -> bool:
    """Whether ``word``, a translation's sentence's first, is an article of ``language`` (ARTICLES; an elided one:
    "L'appli"): it translates a noun ("Das Frühstück wird ..." for "Breakfast is ..."), where a name, kept or
    changed, goes without one ("Maria liest.")."""
    return folded(_GLUED.split(word)[0]) in ARTICLES.get(language, ())
