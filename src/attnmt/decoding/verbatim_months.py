"""The months of a date written in words, for the ``verbatim`` rule (attnmt.decoding.verbatim): "May 3, 2021"
as "3. März 2021" keeps its numbers and changes its date; and the days of the week, which a date or a
timetable names ("The shop is closed on Sunday." as "Das Geschäft ist am Samstag geschlossen.").

A month's name is read as its number (MONTHS: English, German, French, Spanish, Italian, Portuguese, Dutch), in
the text after NFKC and case-folded, but English's "may" and "march" only where written with a capital ("you may
go", "they march").  As with a number in words, the rule breaks only where both sides hold a month the other
does not: a month named on one side alone was written in digits on the other ("03.05.2021"), left out, or was no
month ("May I come in?"); and Multi30k's references, which name no month, are never flagged for one.  A day of
the week (WEEKDAYS, in the same languages but Portuguese, whose "segunda" is "second" too) is read the same
way, in the plural too ("on Saturdays"), German's and Dutch's also at the head of a compound ("Dienstagmorgen",
"zondagavond", "sonntags"); of Multi30k's 31,014 pairs of references, en-de, 8 name a day, none flagged.

A month or a day the source names that the translation says in no way is dropped (``dates_dropped``: "We meet on
Monday at the station." as "Wir treffen uns am Bahnhof."), where the translation's language is one whose names
this module knows: any language's name counts, in a compound or shortened ("Ostermontag", "Mo.–Fr.", "Dez."), a
month's number too ("03.05.2021"), and a day's group ("werktags", "am Wochenende").  Of Multi30k's 31,014 pairs
of references, en-de and de-en, 22 sides name a month or a day, none dropped.

A time of day (PERIODS: "at noon" as "um Mitternacht", "in the morning" as "am Abend", "at night" as "am Tag") is
read the same way, each word as the parts of the day it can mean, so a word on one side is matched by one word on
the other that shares one (``periods_differ``): English's "night" is German's "Abend" too ("a night at the
opera"), and a day ("Tag") holds its morning, noon and afternoon; English's "lunch" is noon ("zu Mittag essen");
German's "Morgen" only with a capital ("morgen" is tomorrow), also after a weekday in one word ("Dienstagmorgen").
Of Multi30k's 31,014 pairs of references, en-de, 541 name a time of day, 1 flagged ("in the evening" as "nachts").
"""

from __future__ import annotations

import re
from collections import Counter

from attnmt.text.invisible import folded
from attnmt.text.language_codes import primary_subtag

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


_DAYS = (
    "monday montag lundi lunes lunedì maandag",
    "tuesday dienstag mardi martes martedì dinsdag",
    "wednesday mittwoch mercredi miércoles mercoledì woensdag",
    "thursday donnerstag jeudi jueves giovedì donderdag",
    "friday freitag vendredi viernes venerdì vrijdag",
    "saturday samstag sonnabend samedi sábado sabato zaterdag",
    "sunday sonntag dimanche domingo domenica zondag",
)
WEEKDAYS = {name: day for day, names in enumerate(_DAYS, start=1) for name in names.split()}
# German's and Dutch's days at the head of a word: "sonntags", "Dienstagmorgen", "zondagavond"; not "Montage"
# (assembly), whose "e" is no part of a time of day.
_DAY_COMPOUND = re.compile(r"(\w+?(?:tag|woch|abend|dag))s?(?:früh|morgen|vormittag|mittag|nachmittag|abend|nacht"
                           r"|ochtend|middag|avond)?s?")


# The parts of the day each word can mean, in the languages of _NAMES but Portuguese; a day is its waking hours.
_DAYTIME = "day morning noon afternoon"
_PERIOD_WORDS = {
    "morning": "morning mornings morgen morgens vormittag vormittags matin matinée mañana mattina mattino ochtend",
    "noon": "noon midday lunch lunchtime mittag mittags midi mediodía mezzogiorno",
    "afternoon": "afternoon afternoons nachmittag nachmittags après-midi pomeriggio",
    "evening": "evening evenings abend abende abends soir soirs soirée sera avond",
    "night": "nacht nächte nachts nuit nuits notte",
    "night evening": "night nights tonight noche noches",
    "afternoon evening": "tarde tardes",
    "midnight": "midnight mitternacht minuit medianoche mezzanotte",
    _DAYTIME: "day days daytime tag tage tages tagen tagsüber jour jours journée día días giorno giorni dag",
}
PERIODS = {word: frozenset(parts.split()) for parts, words in _PERIOD_WORDS.items() for word in words.split()}
_CAPITALISED_PERIODS = frozenset({"morgen"})  # German's "morgen" is tomorrow
_PERIOD_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # "après-midi" is one word


def periods_in(text: str) -> list[frozenset[str]]:
    """The parts of the day each time of day ``text`` names can mean (PERIODS), one set a word, the time after a
    weekday in one word too ("Dienstagmorgen")."""
    found = []
    for word in _PERIOD_WORD.findall(text):
        name = folded(word)
        head = _DAY_COMPOUND.fullmatch(name)
        if head and head[1] in WEEKDAYS:
            name = name[len(head[1]):].strip("s")  # "dienstagsmorgens" is "morgen"
        elif name in _CAPITALISED_PERIODS and word[0].islower():
            continue
        if name in PERIODS:
            found.append(PERIODS[name])
    return found


def periods_differ(source: str, translation: str) -> bool:
    """Whether ``source`` and ``translation`` each name a time of day that none of the other's left can mean: each
    of the source's, the narrowest first, takes the narrowest of the translation's that can mean one of its parts
    ("having lunch at noon" as "zu Mittag um Mitternacht": "Mittag" is lunch's, and midnight is left to noon)."""
    left = sorted(periods_in(translation), key=len)
    unmatched = 0
    for parts in sorted(periods_in(source), key=len):
        match = next((k for k, other in enumerate(left) if parts & other), None)
        if match is None:
            unmatched += 1
        else:
            del left[match]
    return bool(unmatched and left)


def weekdays_in(text: str) -> Counter[int]:
    """The numbers of the days of the week ``text`` names (WEEKDAYS), as many times as it names each."""
    found: Counter[int] = Counter()
    for word in WORD.findall(text):
        name = folded(word)
        head = _DAY_COMPOUND.fullmatch(name)
        day = WEEKDAYS.get(name) or WEEKDAYS.get(name.removesuffix("s")) or (WEEKDAYS.get(head[1]) if head else None)
        if day:
            found[day] += 1
    return found


def weekdays_differ(source: str, translation: str) -> bool:
    """Whether ``source`` and ``translation`` each name a day of the week the other does not, as ``months_differ``."""
    ours, theirs = weekdays_in(source), weekdays_in(translation)
    return bool(ours - theirs) and bool(theirs - ours)


# The languages whose months (_NAMES) and days of the week (_DAYS) this module knows: a translation into one of them
# that says a month or a day its source names in none of these words has dropped it (``dates_dropped``).
MONTHS_IN = ("en", "de", "fr", "es", "it", "pt", "nl")
WEEKDAYS_IN = ("en", "de", "fr", "es", "it", "nl")
_MONTH_NAMES = {month: names.split() for month, names in enumerate(_NAMES, start=1)}
_DAY_NAMES = {day: names.split() for day, names in enumerate(_DAYS, start=1)}


def _head_or_tail(names: list[str]) -> re.Pattern[str]:
    """Where one of ``names`` ends a word, a plural's "s" after it ("Karfreitag", "sonntags"), or one of four letters
    or more begins one ("Dezemberabend"): "mai" begins "Mail" too."""
    either, long = ("|".join(map(re.escape, words)) for words in (names, [n for n in names if len(n) >= 4]))
    return re.compile((rf"\b(?:{long})|" if long else "") + rf"(?:{either})s?\b")


_MONTH_SAID = {month: _head_or_tail(names) for month, names in _MONTH_NAMES.items()}
_DAY_SAID = {day: _head_or_tail(names) for day, names in _DAY_NAMES.items()}
# Month names that are other words too ("you may go", "they march", "an august body"): a month only with a capital,
# next to a number ("May 3", "3 March", "August 2021") or after a word that leads to a date ("in May", "mid-August").
_OTHER_WORDS_TOO = frozenset({"may", "march", "august"})
_BEFORE_MONTH = re.compile(r"(?:\b(?:in|of|since|until|till|by|from|to|through|early|late|mid|last|next|this|every"
                           r"|during|before|after|im|seit|bis|ab|anfang|mitte|ende)[\s-]+|\d\.?\s+)$", re.IGNORECASE)
_NUMBER_AFTER = re.compile(r"\s+\d")
# A name shortened, as timetables and dates write it: a day's first two or three letters with a full stop or before a
# dash or a slash ("Mo.–Fr.", "Mon-Fri"; not "mit 3", "with 3"), a month's three or four also before a number
# ("Dez. 2021", "3 Dec 2021").
_SHORT_DAY = re.compile(r"\b([^\W\d_]{2,3})(?:\.|(?=\s?[-–/]))")
_SHORT_MONTH = re.compile(r"\b([^\W\d_]{3,4})(?:\.|(?=\s?[-–/]|\s\d))")
# What names several days at once: Monday to Friday as "werktags" or "en semaine", the weekend's two days as
# "am Wochenende" ("on Saturdays and Sundays").
_WORKDAYS = ("werktag", "wochentag", "arbeitstag", "weekday", "workday", "working day", "business day", "werkdag",
             "en semaine", "ouvrable", "laborable", "feriale")
_WEEKEND = ("wochenende", "weekend", "week-end", "fin de semana", "fine settimana", "fin de semaine")
_GROUP = {day: _WORKDAYS if day <= 5 else _WEEKEND for day in _DAY_NAMES}


def named_months(text: str) -> set[int]:
    """The months ``text`` names in words (MONTHS) where it clearly means one: English's "may", "march" and "august"
    only with a capital and beside a number or after a word that leads to a date (_OTHER_WORDS_TOO: "May I come
    in?" and a headline's "You May Like" name no month)."""
    found = set()
    for match in WORD.finditer(text):
        name = folded(match[0])
        if name in _OTHER_WORDS_TOO and not (match[0][0].isupper() and (
                _BEFORE_MONTH.search(text, 0, match.start()) or _NUMBER_AFTER.match(text, match.end()))):
            continue
        if name in MONTHS:
            found.add(MONTHS[name])
    return found


def _says(text: str, names: list[str], said: re.Pattern[str], shortened: re.Pattern[str]) -> bool:
    """Whether ``text`` (case-folded) holds one of ``names`` at a word's head or tail (``said``, _head_or_tail: a
    compound, a plural) or shortened (``shortened``: the first letters of one)."""
    return bool(said.search(text)) or any(any(name.startswith(match[1]) for name in names)
                                          for match in shortened.finditer(text))


def dates_dropped(source: str, translation: str, target: str | None) -> bool:
    """Whether ``source`` names a month or a day of the week that ``translation``, in ``target`` (a language of
    MONTHS_IN or WEEKDAYS_IN; None: not known, never), says in no way: in no language's name for it, written in
    full, in a compound or shortened (``_says``: "Montag", "Ostermontag", "Mo.–Fr."), nor a month as its number
    ("May 3, 2021" as "03.05.2021"), nor a day as the days it is one of ("werktags", "am Wochenende").  "We meet
    on Monday at the station." as "Wir treffen uns am Bahnhof." raised no flag, a day on one side alone
    being read as reworded (``weekdays_differ``)."""
    language, text = primary_subtag(target or ""), folded(translation)
    # A month said as its number sits in a numeric date ("03.05.2021", "3. 5.", "10/2025"); a lone "3." is the
    # day, so "Submit it by 3 March." as "bis zum 3." had the month read as said.
    numbers = {int(digits) for pair in re.findall(r"(?<!\d)(\d{1,2})[./-] ?(\d{1,2}|\d{4})(?!\d)", translation)
               for digits in pair}
    month_lost = language in MONTHS_IN and any(
        not _says(text, _MONTH_NAMES[month], _MONTH_SAID[month], _SHORT_MONTH) and month not in numbers
        for month in named_months(source))
    return month_lost or language in WEEKDAYS_IN and any(
        not _says(text, _DAY_NAMES[day], _DAY_SAID[day], _SHORT_DAY) and not any(group in text for group in _GROUP[day])
        for day in weekdays_in(source))
