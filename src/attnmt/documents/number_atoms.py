"""Numbers in digits that the model garbles, kept whole as atoms as a measure is (attnmt.documents.measures), though
its vocabulary writes every character of them: a time ("9:00", "17:30", "9 am"), a range of times or numbers
("9:00–17:00", "10–20", "2019-2021"), a percentage ("20 %", "-15 %", "+3.5%"), a size ("30 x 40 cm", "1920x1080"),
a date ("2024-05-01", "01.05.2024", "05/01/2024") and a fraction with its unit ("1/2 cup", "¾ l").

Given to the demo model, such numbers came back lost or as others: "Open 9:00–17:00." as "Auf diesem Fünen.", "The
train leaves the station at 14:05." as "... mit der Nummer Nummer Nummer ...", "Save -15 % today." as "Ein
Deunn-Mo-Mo-Mo-M-Mo-T-Mo-MM"; of 51 sentences with one, 50 lost or changed it.  Taken out, all 51 kept it, put back
where its neighbours' words went ("Der Zug 14:05.", "10–20 Menschen stehen auf der Straße.").

A count stays the model's ("3 dogs", "In 2019"): it inflects the noun after it and must read a number there ("3
dogs" came back "Drei Hunde", "2 children" "zwei Kindern").  So do a year, a price and a decimal ("$20", "1.85 m"),
which the demo model lost as often ("A woman holds 12 eggs." came back "Eine Frau hält Holz."), but which a
translation may write otherwise ("1,85 m")."""

from __future__ import annotations

import re
from collections.abc import Collection

from attnmt.text.units import Kind, names, symbols_in_sentences

_GAP = "[ \u00a0\u2009\u202f]"  # a space, a no-break or a thin one, as measures.py reads a measure's
_DASH = "[-–—]"
_DECIMAL = r"\d+(?:[.,]\d+)?"
# A clock's time or a duration, its seconds too, and the half of the day after it or after an hour alone ("9:00",
# "17:30:15", "25:30 minutes", "10:15 am", "9 pm", "6 a.m.", "10 A.M."); not a score or a ratio with one digit after
# the colon ("3:1", "16:9"), nor German's "am" before a noun ("um 9 am Bahnhof").  The stop of "a.m." is the time's
# before a word in lower case, a dash ("8 a.m.–6 p.m."), a comma, a semicolon, a colon or a closing bracket ("9 a.m.,
# then"), where the model read "at ., then" and "a.m" came back without it; elsewhere it is the sentence's ("at 9
# a.m. Then"), before "?" or "!" too: the demo model wrote "Is it at 9 a.m.?" with a full stop, and "9 a.m.." came back.
_DOTTED = r"(?:[ap]\.m|[AP]\.M)"  # "a.m", "P.M" before their stop
_TIMES_STOP = rf"(?={_GAP}[a-z]|[,;:)\]]|{_GAP}?{_DASH})"  # what follows a stop of "a.m." that is the time's
_HALF_DAY = rf"{_GAP}?(?:am(?!{_GAP}[A-ZÄÖÜ])|pm|[AP]M|{_DOTTED}\.{_TIMES_STOP}|{_DOTTED}(?=\.))(?!\w)"
_TIME = rf"\d{{1,2}}:[0-5]\d(?::[0-5]\d)?(?:{_HALF_DAY})?|(?:1[0-2]|0?[1-9]){_HALF_DAY}"
# A range: two times, or two numbers, a dash between them, spaced or not ("9:00 - 17:00", "5-10", "1990–1995").
_RANGE = rf"(?:{_TIME}){_GAP}?{_DASH}{_GAP}?(?:{_TIME})|{_DECIMAL}%?{_GAP}?{_DASH}{_GAP}?{_DECIMAL}(?:{_GAP}?%)?"
_PERCENT = rf"[-−+±]?{_DECIMAL}{_GAP}?%"
# A size, its unit of length too, by attnmt.text.units' symbols ("30 x 40 cm", "2x4", "1920×1080 px", "30 x 40 yd"),
# not a byte in hexadecimal ("0x82").
_LENGTHS = "|".join(map(re.escape, symbols_in_sentences([Kind.LENGTH])))
_SIZE = rf"(?!0x){_DECIMAL}(?:{_GAP}?[x×]{_GAP}?{_DECIMAL})+(?:{_GAP}?(?:{_LENGTHS}))?"
# A date as ISO, German or the US write it ("2024-05-01", "1.5.24", "05/01/2024"), not a fraction ("1/2").
_DATE = r"\d{4}-[01]\d-[0-3]\d|[0-3]?\d\.[01]?\d\.(?:\d{4}|\d\d)|[01]?\d/[0-3]?\d/(?:\d{4}|\d\d)"
# A fraction and the length, weight, volume or time after it, by its symbol or its name in English or German,
# singular or plural (attnmt.text.units), a hyphen before a name too: "¾ l", "1 ½ kg", "2½ cups", "1/2 cup", "1 1/2
# tbsp", "3⁄4 in" (a fraction slash), "½ fl oz", "1½ hours", "a ½-inch pipe".  The demo model read the fraction as no
# number and lost the unit after it ("Add ¾ l of milk." came back "Ein findet ¾ eines Spiels.", "Add 1/2 cup of
# flour." "Ein Ärer hält eine Tasse.", "Wait 1½ hours." "In 1½ diesem Wünen.").  "in" is an inch's here but before
# what a preposition starts ("1/2 in the bowl", "cut ½ in half").
FRACTIONS = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"  # the vulgar fractions, which measures.py keeps alone too
_FRACTION = rf"(?:\d+{_GAP}?)?[{FRACTIONS}]|(?:\d+{_GAP})?\d+[/⁄]\d+"
_PARTED = [Kind.LENGTH, Kind.WEIGHT, Kind.VOLUME, Kind.TIME]  # what a fraction measures: "½ cup", "1½ hours"
_SYMBOL = "|".join(map(re.escape, ["fl oz", *symbols_in_sentences(_PARTED)]))
_NAME = "|".join(map(re.escape, names(_PARTED)))
_INCH = rf"in(?!{_GAP}(?i:the|an?|this|that|these|those|his|her|its|their|our|my|your|each|every|half|\d)\b)"
_SPACE_OR_HYPHEN = "[ \u00a0\u2009\u202f-]"  # before a unit's name: "½ inch", "½-inch"
_FRACTION_MEASURE = (rf"(?:{_FRACTION})(?:{_GAP}(?:{_SYMBOL}|{_INCH})"
                     rf"|{_SPACE_OR_HYPHEN}(?i:{_NAME})(?:e?s|e?n|e)?)")
# Each alone, no digit, word or separator glued on either side: not the "19" of "COVID-19", nor part of a longer
# run of numbers (a telephone number, an ISBN: attnmt.decoding.protected keeps those), nor a decimal's or a
# thousand's group.  A date before a range, so that "2024-05-01" is not "2024-05".
NUMBER_ATOM = re.compile(rf"(?<![\w.,:/%−+±-])(?:{_DATE}|{_FRACTION_MEASURE}|{_SIZE}|{_RANGE}|{_TIME}|{_PERCENT})"
                         r"(?![\w/%-]|[.,:]\d)")


_DOTTED_END = re.compile(rf"{_DOTTED}$")


def number_runs(text: str, edges: Collection[int] = ()) -> list[tuple[int, int]]:
    """[start, end) of each number of ``text`` that the model garbles (``NUMBER_ATOM``), in order; a time's "a.m"
    with the stop after it where a mark ends right after that stop (``edges``) and no sentence starts after it:
    ``<b>9 a.m.</b>, then`` holds it, and left to the model the stop was dropped or moved out of the element
    ("<b>9 a.m</b> Fama.").  Before a capital (``<b>9 a.m.</b> Then``) it ends the sentence too, and stays its."""
    runs = []
    for match in NUMBER_ATOM.finditer(text):
        start, end = match.span()
        next_sentence = text[end + 1:end + 2].isspace() and text[end + 2:end + 3].isupper()
        held = _DOTTED_END.search(match[0]) and text[end:end + 1] == "." and end not in edges and end + 1 in edges
        runs.append((start, end + 1 if held and not next_sentence else end))
    return runs


_NUMBER_PART = re.compile(r"[\d.,\s]")  # a number's digits, its decimal and group separators, the spaces between groups


def is_signed_value(text: str) -> bool:
    """Whether ``text`` is a number with a sign and no letter: a price ("$19.99", "19,99 €"), a percentage ("-15 %"),
    a rating ("4.5/5").  What a page's ``<data>`` shows so is kept whole (attnmt.documents.elements.Vocabulary.is_atom),
    as a time's number is: its ``value`` states it for scripts, and the demo model read "A man pays $19.99 for a hat."
    and wrote "... <data value="19.99">sich für eine 19.99</data>.", the sign lost and words in the value.  A number
    alone ("1,200") stays the model's to read, as a count in the text is: it may write it as the target does."""
    return (any(map(str.isdigit, text)) and not any(map(str.isalpha, text))
            and bool(_NUMBER_PART.sub("", text)))
