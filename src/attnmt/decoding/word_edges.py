"""Where a glossary term may begin and end in a text (attnmt.decoding.glossary): at a word's edge, a
character no part of a word on the other side, whatever the term's own first and last characters (and
for a term that is no acronym, no hyphen that joins two words into one: ``compound_hyphen``, "e-mail" holds
no "mail");
or, in a script written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar), beside
any of its letters, as nothing there marks a word's edge.  Never inside one character as a reader
sees it (a grapheme cluster, Unicode's UAX #29: an emoji with its skin tone, a ZWJ sequence, a flag), nor inside
an address (``addresses``: "bike" is no term in "bike.com", "bike@shop.de" or "/home/bike/notes.txt")."""

from __future__ import annotations

import bisect
import unicodedata

from attnmt.decoding import protected

HYPHENS = frozenset("-\u2010\u2011")  # a hyphen-minus, a hyphen, a no-break hyphen


def is_word(text: str, at: int) -> bool:
    """Whether ``text[at]`` is part of a word: a word character (as regular expressions' \\w) or a
    combining mark, which belongs to the letter before it ("q" + U+0301 is one letter, so "q" is
    not a whole word there); False outside the text."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_"
                                    or unicodedata.category(text[at]).startswith("M"))


def may_begin(text: str, start: int) -> bool:
    """Whether a term may begin at ``text[start]``: where the character before is no part of a word
    (``is_word``; the text's start too), whatever the term's first character, so ".net" is not in
    "asp.net" nor "-based" in "web-based"; or beside a letter of a script written without spaces
    (``beside_unspaced``); never inside a grapheme cluster (``joined``)."""
    return (not is_word(text, start - 1) or beside_unspaced(text, start)) and not joined(text, start)


def may_end(text: str, end: int) -> bool:
    """Whether a term that ends before ``text[end]`` may end there: where that character is no part of
    a word (the text's end too), whatever the term's last character, so "c++" is not in "c++x"; or
    beside a letter of a script written without spaces (``beside_unspaced``); never inside a grapheme
    cluster (``joined``)."""
    return (not is_word(text, end) or beside_unspaced(text, end)) and not joined(text, end)


def addresses(text: str) -> list[tuple[int, int]]:
    """The (start, end) of what in ``text`` is written as it is, never translated: a URL, an e-mail address, a path, a
    file name (protected.VERBATIM, which a translation passes through) and a host alone (protected.HOST, which the
    model may copy whole).  A term inside one ("bike" in "Visit bike.com for a new bike.") was required of the
    translation, and "Fahrrad" was forced in for the address (``in_address``)."""
    return [match.span() for pattern in (protected.VERBATIM, protected.HOST) for match in pattern.finditer(text)]


def in_address(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``text[start:end]`` reaches into one of the ``spans`` of ``addresses(text)`` without holding all of it: a
    term that is a whole address itself ("Node.js", "example.com") is a term there."""
    return any(first < end and start < last and not (start <= first and last <= end) for first, last in spans)


def compound_hyphen(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a hyphen between two letters or digits, joining the words either side into one
    (``e-mail``, ``state-of-the-art``, ``T-shirt``): a term that is no acronym does not begin or end at it
    (attnmt.decoding.glossary), so that "mail" is not in "e-mail", nor "art" in "state-of-the-art", nor "shirt"
    in "T-shirt" (a term that holds the hyphen, "e-mail", is found whole); an acronym is, in "NATO-led", and so is
    a term that holds a hyphen itself, "Wi-Fi" in "Wi-Fi-enabled" (``hyphenated``), and one of a code, "4G" in
    "4G-capable" (``in_compound``).
    Hyphens as matching reads them (HYPHENS: U+2011's no-break hyphen is "-")."""
    return 0 < at < len(text) - 1 and text[at] in HYPHENS and is_word(text, at - 1) and is_word(text, at + 1)


def in_compound(key: str, text: str, start: int, end: int) -> bool:
    """Whether the normal source term ``key``, at ``text[start:end]``, is hyphen-joined into a longer word there
    (``compound_hyphen``), which it is then no term of ("art" in "state-of-the-art"); never for a term that holds
    a hyphen itself (``hyphenated``), nor at its word that holds a letter and a digit, a code that no compound
    makes another word of ("4G" in "4G-capable", "MP3" in "MP3-Player": ``coded``), or a dot, a program's or a
    platform's name ("Node.js" in "Node.js-based", ".NET" in ".NET-Anwendung": ``dotted``)."""
    if hyphenated(key):
        return False
    words = key.split(" ")
    return (compound_hyphen(text, start - 1) and not coded(words[0]) and not dotted(words[0])) or (
        compound_hyphen(text, end) and not coded(words[-1]) and not dotted(words[-1]))


def hyphenated(key: str) -> bool:
    """Whether a normal source term holds a hyphen joining two of its words ("wi-fi", "e-mail"): such a term is
    found in a longer compound it is hyphen-joined into ("Wi-Fi-enabled"), as an acronym is ("NATO-led") and a
    term ending in punctuation is ("C++-based"), for its hyphen says it is written so; "Wi-Fi" was not found in
    "Wi-Fi-enabled", and a German translation writes it so ("WLAN-fähig", "E-Mail-Adresse")."""
    return any(compound_hyphen(key, at) for at in range(1, len(key) - 1) if key[at] == "-")


def coded(word: str) -> bool:
    """Whether ``word`` holds a letter and a digit ("4g", "mp3", "h2o"): a code or a model's name.  A number alone
    ("2012") is none: "2012-05-01" is a date, which holds no term "2012"."""
    return any(map(str.isdigit, word)) and any(map(str.isalpha, word))


def dotted(word: str) -> bool:
    """Whether ``word`` holds a dot ("node.js", ".net", "asp.net"): a name no word of a language is, as a code is
    (``coded``), found where a hyphen joins it to a word ("Node.js-based"), as "C++" was in "C++-based" and
    "Node.js" was not."""
    return "." in word


def joined(text: str, at: int) -> bool:
    """Whether ``text[at - 1]`` and ``text[at]`` are of one grapheme cluster (UAX #29), which a term's
    edge must not split: where ``text[at]`` is a combining mark (a variation selector is one), a
    skin tone or a zero-width joiner, or ``text[at - 1]`` is a joiner and ``text[at]`` a pictographic
    symbol (``pictographic``: "🐕\\u200d🦺" is a service dog, no "🐕"; "👍🏽" holds no "👍"; but
    "★\\u200ddog" holds "dog", as a letter after a joiner begins a cluster of its own); or between the
    two regional indicators of one flag, which pair from the start of their run ("🇦🇩🇪🇸" is Andorra
    and Spain, no "🇩🇪").  False at the text's ends."""
    if not 0 < at < len(text):
        return False
    before, after = text[at - 1], text[at]
    if before < FIRST_JOINING and after < FIRST_JOINING:
        return False  # the common case, no combining mark, joiner, skin tone or flag, without a look-up
    if after in SKIN_TONES or after == ZWJ or unicodedata.category(after).startswith("M"):
        return True
    if before == ZWJ:
        return pictographic(after)
    if after not in REGIONAL_INDICATORS:
        return False
    run = at  # the regional indicators before text[at] pair from the first of their run
    while run > 0 and text[run - 1] in REGIONAL_INDICATORS:
        run -= 1
    return (at - run) % 2 == 1


def emoji_joiner(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a zero-width joiner that joins emoji into one character as a reader sees
    it (UAX #29: "🐕\\u200d🦺" is a service dog, "👩\\u200d👩\\u200d👧" a family): one after a symbol
    (an emoji, a skin tone), with combining marks between (a variation selector).  Glossary matching
    keeps such a joiner and reads any other past, as it does the other invisible characters
    (attnmt.decoding.term_forms.compatible: "do\\u200dg" is "dog")."""
    if text[at] != ZWJ:
        return False
    before = at - 1
    while before >= 0 and unicodedata.category(text[before]).startswith("M"):
        before -= 1
    return before >= 0 and unicodedata.category(text[before]).startswith("S")


def pictographic(character: str) -> bool:
    """Whether a zero-width joiner joins ``character`` to the emoji before it (UAX #29's rule GB11,
    for Extended_Pictographic characters): an other symbol (category So: "🦺", "♀", "★") or a code
    point of plane 1's emoji blocks (U+1F000 to U+1FFFF), the unassigned ones too, kept for emoji."""
    return unicodedata.category(character) == "So" or "\U0001F000" <= character <= "\U0001FFFF"


def beside_unspaced(text: str, at: int) -> bool:
    """Whether ``text[at - 1]`` or ``text[at]`` (both in the text: a term's edge character and the word
    character beside it) is a letter of a script written without spaces (``unspaced``), in which
    nothing marks a word's edge ("東京" in "我在東京住", "iPhone" in "我的iPhone"); a combining mark
    stays the letter's before it all the same (``joined``: Thai "กิน" holds no "ก")."""
    before, after = text[at - 1], text[at]
    if before < FIRST_UNSPACED and after < FIRST_UNSPACED:
        return False  # the common case, Latin, Greek or Cyrillic inside a word, without a look-up
    return unspaced(before) or unspaced(after)


def unspaced(character: str) -> bool:
    """Whether ``character`` is of a script written without spaces between words (``UNSPACED``)."""
    return bisect.bisect_right(UNSPACED, ord(character)) % 2 == 1


# The code points of the scripts written without spaces between words, as (first, last + 1) bounds
# in order, so that a code point lies in one where bisect_right finds an odd index.  After NFKC,
# which makes half-width katakana and compatibility ideographs the usual ones.
UNSPACED = (
    0x0E00, 0x0F00,  # Thai, Lao
    0x1000, 0x10A0,  # Myanmar
    0x1780, 0x1800,  # Khmer
    0x3005, 0x3008,  # Han's iteration mark, closing mark and ideographic zero (々, 〆, 〇)
    0x3021, 0x302A,  # Hangzhou numerals
    0x3031, 0x3036,  # kana repeat marks
    0x303B, 0x303D,  # vertical iteration mark, masu mark
    0x3040, 0x3100,  # Hiragana, Katakana
    0x31F0, 0x3200,  # Katakana phonetic extensions
    0x3400, 0x4DC0,  # CJK extension A
    0x4E00, 0xA000,  # CJK unified ideographs
    0xA9E0, 0xAA00,  # Myanmar extended B
    0xAA60, 0xAA80,  # Myanmar extended A
    0xF900, 0xFB00,  # CJK compatibility ideographs
    0x1B000, 0x1B170,  # Kana supplement and extensions
    0x20000, 0x40000,  # CJK extensions B to H, compatibility supplement (planes 2 and 3)
)
FIRST_UNSPACED = chr(UNSPACED[0])

# What joins characters into one grapheme cluster beyond the combining marks (UAX #29): the zero-width
# joiner of emoji sequences, the five skin tones (Fitzpatrick modifiers) and the 26 regional indicators
# that pair into flags.  No combining mark comes before U+0300.
ZWJ = "\u200d"
SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))
REGIONAL_INDICATORS = frozenset(map(chr, range(0x1F1E6, 0x1F200)))
FIRST_JOINING = "\u0300"
