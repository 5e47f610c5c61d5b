"""The months of a date written in words, for the ``verbatim`` rule (attnmt.decoding.verbatim): "May 3, 2021"
as "3. März 2021" keeps its numbers and changes its date.

A month's name is read as its number (MONTHS: English, German, French, Spanish, Italian, Portuguese, Dutch), in
the text after NFKC and case-folded, but English's "may" and "march" only where written with a capital ("you may
go", "they march").  As with a number in words, the rule breaks only where both sides hold a month the other
does not: a month named on one side alone was written in digits on the other ("03.05.2021"), left out, or was no
month ("May I come in?"); and Multi30k's references, which name no month, are never flagged for one.
"""

from __future__ import annotations

import re
from collections import Counter

from attnmt.text.invisible import folded

_NAMES = (
    "january januar jänner janvier enero gennaio janeiro januari",
    "february februar février febrero febbraio fevereiro februari",
    "march märz mars marzo março maart",
    "april avril abril aprile",
    "may mai mayo maggio maio mei",
    "june juni juin junio giugno junho",
    "july juli juillet julio luglio julho",
    "august août agosto augustus",
    "september septembre septiembre setiembre settembre setembro",
    "october oktober octobre octubre ottobre outubro",
    "november novembre noviembre novembro",
    "december dezember décembre diciembre dicembre dezembro",
)
MONTHS = {name: month for month, names in enumerate(_NAMES, start=1) for name in names.split()}
CAPITALISED_ONLY = frozenset({"may", "march"})  # English words too: a modal verb, to walk in step
WORD = re.compile(r"[^\W\d_]+")


def months_in(text: str) -> Counter[int]:
    """The numbers of the months ``text`` names (MONTHS), as many times as it names each."""
    return Counter(MONTHS[name] for word in WORD.findall(text)
                   if (name := folded(word)) in MONTHS and (word[0].isupper() or name not in CAPITALISED_ONLY))


def months_differ(source: str, translation: str) -> bool:
    """Whether ``source`` and ``translation`` each name a month the other does not (module docstring)."""
    ours, theirs = months_in(source), months_in(translation)
    return bool(ours - theirs) and bool(theirs - ours)
