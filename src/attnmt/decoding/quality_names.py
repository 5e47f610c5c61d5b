"""The ``name`` rule (attnmt.decoding.quality): a name the source writes is missing from its translation, which
keeps a name as written ("The dog runs, says John." as "Der Hund rennt, sagt Peter.").

German writes every noun with a capital, so its capitals mark no name; where the source's language writes a
capital only for a name and a sentence's first word (NAMED_BY_CAPITAL) and the translation's writes names in
the same letters (KEPT_IN), a word with a capital is a name the translation keeps (``kept_names``), unless it

- starts a sentence, or is written in lower case elsewhere in the source;
- is written in capitals alone ("ATV", "TV": an abbreviation, which a translation may spell out);
- stands beside another word with a capital or holds a hyphen ("Salvation Army", "German Shepherd",
  "African-American": an institution, a breed, a people, which a translation translates);
- is a common word with a capital: its lower case is one piece of the model's source vocabulary ("Christmas",
  "Mohawk", "Child"; ``common``), which a name the model never learnt to translate is not ("john": "jo", "h",
  "n");
- names a day of the week or a month, which the verbatim rule reads (attnmt.decoding.verbatim_months);
- follows "the" or a program's verb for its controls (NOT_A_NAME_AFTER: "the Queen", "the Government", "the Edit
  menu", "Press Cancel", "select Privacy"): a title, an institution or a menu's item, which a translation
  translates ("die Königin", "Abbrechen"), as a person's name after them is rare; a land, a river or a people
  quality_exonyms knows is still read there ("the Germans", "The Swiss team", "the Danube"), and so is a
  possessive after a verb ("Click Anna's photo", "Open John's folder"): a control has no "'s", a person does.

The translation keeps the name where it holds it, or a word that starts as it does, an article elided before it
("l'Italie") or a compound's parts before it ("Pro-Judäa-Schild") aside (``spelled``: its first three
letters, "c" read as "k" and "sch" as "sk", an accent left out: "Japanese" as "Japaner", "Scottish" as
"schottischer", "California" as "Kalifornien", "Zurich" as "Zürich", "Turkish" as "türkisch"), or the name as
the translation's language writes it (attnmt.decoding.quality_exonyms: "Vienna" as "Wien").  On Multi30k's
1,014 validation pairs, en-de, 3 references break the rule ("Cami" as "Tarnanzug", "Fez's" as "Fesen", "an
Eastern nation" as "ein östliches Land").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from attnmt.decoding.quality_exonyms import EXONYMS
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.verbatim_months import MONTHS, WEEKDAYS
from attnmt.text.invisible import folded, unaccented
from attnmt.text.language_codes import primary_subtag

NAMED_BY_CAPITAL = ("en", "fr", "es", "it", "pt", "nl")  # a capital marks a name, not a noun as German's does
KEPT_IN = ("en", "de", "fr", "es", "it", "pt", "nl")  # languages that write a Latin name as it is
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_SENTENCE_END = re.compile(r"[.!?:]\s*$")
_GLUED = re.compile(r"['’-]")  # an elided article ("d'Italie", "dell'Italia") or a compound's hyphen ("Pro-Judäa")
# English words after which a capital marks a title, an institution or a program's control, not a name: of 20
# good news and software translations, 8 were flagged for such words (benchmarks/results/quality_names_epyc.txt)
NOT_A_NAME_AFTER = frozenset({"the", "click", "press", "tap", "select", "choose", "hit", "open", "enable", "disable"})
_KNOWN_NAMES = frozenset(word for table in EXONYMS.values() for word in table)  # "the Germans", "the Danube"
_KEPT_LETTERS = 3  # a translation's word that starts with the name's first three letters keeps it ("Japaner")


def spelled(text: str) -> str:
    """``text`` case-folded (attnmt.text.invisible.folded), without accents ("Zürich" as "zurich") and with
    German's spelling of Latin's letters undone."""
    return unaccented(folded(text)).replace("sch", "sk").replace("c", "k")


def kept_names(source: str, common: Callable[[str], bool]) -> list[str]:
    """The names ``source`` writes that a translation keeps (module docstring), as written, a possessive's "'s"
    left off; ``common``: whether a word in lower case is a common word of the model's source vocabulary."""
    source = source.strip()
    words = list(_WORD.finditer(source))
    lower = {folded(m[0]) for m in words if m[0][0].islower()}
    names = []
    for k, match in enumerate(words[1:], start=1):  # the first word has a capital anyway
        word = re.sub(r"['’]s?$", "", match[0])
        beside = [words[j][0] for j in (k - 1, k + 1) if 0 < j < len(words)]
        if after_title_or_control(folded(words[k - 1][0]), folded(word), word != match[0]):
            continue
        if (word[0].isupper() and not word.isupper() and "-" not in word
                and not _SENTENCE_END.search(source[:match.start()]) and not any(w[0].isupper() for w in beside)
                and folded(word) not in lower | WEEKDAYS.keys() | MONTHS.keys() and not common(word.lower())):
            names.append(word)
    return names


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
    return any(not any(spelled(form) in text for form in (name, *exonyms.get(folded(name), ())))
               and spelled(name)[:_KEPT_LETTERS] not in starts for name in kept_names(source, common))
