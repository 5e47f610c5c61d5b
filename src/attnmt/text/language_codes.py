"""Language codes as BCP 47 writes them (en, de, pt-BR, zh-Hant), the one rule the command line's
--source-lang and --target-lang and the Python API's DocumentOptions read them by.

sentencex takes any text for a language and splits by its default rules where it knows none, and
it does not list the languages it knows, so a name ("english") is refused by its form; a target
language is written into the translated file's language attributes as it is given.
"""

from __future__ import annotations

import re

from attnmt.text.language_names import other_names, plain

# en, EN, pt-BR, en_US; a private-use or grandfathered tag (x-klingon, i-default)
LANGUAGE_CODE = re.compile(r"([a-z]{2,3}|[xi](?=[-_]))([-_][a-z0-9]+)*", re.IGNORECASE)
# The two-letter codes of ISO 639-1, all 184 (as Debian's iso-codes lists them): where nothing else says
# which languages a text names, a code of LANGUAGE_CODE's form is a language's only with one of these
# (dog, car, war and WHO have that form, and name none).
ISO_639_1 = frozenset("""
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee
    el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is
    it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms
    mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk
    sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi
    yo za zh zu""".split())


def is_language_code(text: object) -> bool:
    """Whether ``text`` is a str of LANGUAGE_CODE's form."""
    return isinstance(text, str) and LANGUAGE_CODE.fullmatch(text) is not None


def is_iso_639_1_code(text: str) -> bool:
    """Whether ``text`` is a language code (``is_language_code``) whose primary subtag is in ISO_639_1:
    "en" and "en-US", not "dog" or "WHO"."""
    return is_language_code(text) and primary_subtag(text) in ISO_639_1


def as_bcp_47(code: str) -> str:
    """A target language code as BCP 47 writes it in a language attribute: ``de_DE`` is ``de-DE``."""
    return code.replace("_", "-")


def variety(code: str) -> str:
    """A language code as two codes of one variety of a language share it: "de-CH", "de_ch" and
    "DE-ch" are "de-ch"."""
    return code.strip().replace("_", "-").casefold()


def primary_subtag(code: str) -> str:
    """A language code's primary subtag, in lower case, what two codes of one language share:
    "en-US", "en_us" and "EN" are "en"."""
    return re.split(r"[-_]", code.strip(), maxsplit=1)[0].lower()


# The three-letter codes (ISO 639-2/T, and the /B ones no English word spells) of the languages LANGUAGE_NAMES
# names, as termbases write them (TBX's xml:lang="eng", "deu"): their two-letter code.
ISO_639_2 = {
    "ara": "ar", "bul": "bg", "ben": "bn", "cat": "ca", "ces": "cs", "cze": "cs", "dan": "da", "deu": "de",
    "ger": "de", "ell": "el", "gre": "el", "eng": "en", "spa": "es", "est": "et", "eus": "eu", "baq": "eu",
    "fas": "fa", "fin": "fi", "fra": "fr", "fre": "fr", "gle": "ga", "glg": "gl", "heb": "he", "hin": "hi",
    "hrv": "hr", "hun": "hu", "ind": "id", "isl": "is", "ita": "it", "jpn": "ja", "kor": "ko", "lit": "lt",
    "lav": "lv", "msa": "ms", "mlt": "mt", "nob": "nb", "nld": "nl", "dut": "nl", "nor": "no", "pol": "pl",
    "por": "pt", "ron": "ro", "rum": "ro", "rus": "ru", "slk": "sk", "slv": "sl", "sqi": "sq", "srp": "sr",
    "swe": "sv", "swa": "sw", "tha": "th", "tur": "tr", "ukr": "uk", "urd": "ur", "vie": "vi", "zho": "zh",
    "chi": "zh",
}


def language_of(code: str) -> str:
    """A language code's language as its two-letter code where ISO_639_2 has it, else its primary subtag:
    "deu", "de-DE" and "DE" are "de"."""
    language = primary_subtag(code)
    return ISO_639_2.get(language, language)


# The English names of the languages most glossaries are kept in, lower case: a spreadsheet's header row
# names its columns so ("English,German": attnmt.decoding.glossary_headers.csv_header).
LANGUAGE_NAMES = {
    "ar": "arabic", "bg": "bulgarian", "bn": "bengali", "ca": "catalan", "cs": "czech", "da": "danish",
    "de": "german", "el": "greek", "en": "english", "es": "spanish", "et": "estonian", "eu": "basque",
    "fa": "persian", "fi": "finnish", "fr": "french", "ga": "irish", "gl": "galician", "he": "hebrew",
    "hi": "hindi", "hr": "croatian", "hu": "hungarian", "id": "indonesian", "is": "icelandic", "it": "italian",
    "ja": "japanese", "ko": "korean", "lt": "lithuanian", "lv": "latvian", "ms": "malay", "mt": "maltese",
    "nb": "norwegian", "nl": "dutch", "no": "norwegian", "pl": "polish", "pt": "portuguese", "ro": "romanian",
    "ru": "russian", "sk": "slovak", "sl": "slovenian", "sq": "albanian", "sr": "serbian", "sv": "swedish",
    "sw": "swahili", "th": "thai", "tr": "turkish", "uk": "ukrainian", "ur": "urdu", "vi": "vietnamese",
    "zh": "chinese",
}


def names_languages(source: str, target: str, source_lang: str | None, target_lang: str | None) -> bool:
    """Whether two header cells name the languages translated (``names_language``: ``English``,
    ``German``, or ``Englisch``, ``Deutsch`` as a German user heads them, for en -> de), or, where those
    are not known, two different languages by their English names: a column's heading, where
    ``English,Englisch`` or ``German,Deutsch`` are terms."""
    if source_lang is None or target_lang is None:
        names = (plain(source), plain(target))
        return names[0] != names[1] and all(name in LANGUAGE_NAMES.values() for name in names)
    return names_language(source, source_lang) and names_language(target, target_lang)


def names_language(cell: str, code: str) -> bool:
    """Whether a header's ``cell`` names the language of ``code`` (a BCP 47 code), case, accents and a
    region in parentheses aside ("English (United States)"): by its English name (LANGUAGE_NAMES) or
    by one in another language, its own among them (language_names.OTHER_NAMES)."""
    name, language = plain(cell), primary_subtag(code)
    return name == LANGUAGE_NAMES.get(language) or name in other_names(language)


# The script a language is written in where its code names none, of the languages written in more than one
# (CLDR's likely subtags): by the language, or by the language and its region where that says another.
LIKELY_SCRIPTS = {"zh": "hans", "zh-tw": "hant", "zh-hk": "hant", "zh-mo": "hant", "sr": "cyrl", "sr-me": "latn",
                  "bs": "latn", "uz": "latn", "uz-af": "arab", "az": "latn", "az-ir": "arab", "pa": "guru",
                  "pa-pk": "arab", "mn": "cyrl", "kk": "cyrl", "ms": "latn", "tg": "cyrl", "ha": "latn"}


def subtags(code: str) -> tuple[str, str, str]:
    """A language code's language, script and region subtags, in lower case, "" for one it does not name but
    the script its language and region are written in where it names none (LIKELY_SCRIPTS): "zh-Hant-TW" is
    ("zh", "hant", "tw"), "zh_TW" ("zh", "hant", "tw"), "sr-Latn" ("sr", "latn", ""), "de-CH" ("de", "", "ch")."""
    parts = re.split(r"[-_]", code.strip().lower())
    script = parts[1] if len(parts) > 1 and len(parts[1]) == 4 and parts[1].isalpha() else ""
    rest = parts[2:] if script else parts[1:]
    region = rest[0] if rest and (len(rest[0]) == 2 and rest[0].isalpha() or len(rest[0]) == 3
                                   and rest[0].isdigit()) else ""
    likely = LIKELY_SCRIPTS.get(f"{parts[0]}-{region}", LIKELY_SCRIPTS.get(parts[0], ""))
    return parts[0], script or likely, region


# The country a language is most written in where its code names none (CLDR's likely subtags), by the
# language, or by the language and its script where that says another: "de" is German of Germany.
LIKELY_REGIONS = {
    "af": "za", "am": "et", "ar": "eg", "az": "az", "be": "by", "bg": "bg", "bn": "bd", "bs": "ba", "ca": "es",
    "cs": "cz", "cy": "gb", "da": "dk", "de": "de", "el": "gr", "en": "us", "es": "es", "et": "ee", "eu": "es",
    "fa": "ir", "fi": "fi", "fil": "ph", "fr": "fr", "ga": "ie", "gl": "es", "gu": "in", "ha": "ng", "he": "il",
    "hi": "in", "hr": "hr", "hu": "hu", "hy": "am", "id": "id", "is": "is", "it": "it", "ja": "jp", "ka": "ge",
    "kk": "kz", "km": "kh", "kn": "in", "ko": "kr", "lb": "lu", "lo": "la", "lt": "lt", "lv": "lv", "mk": "mk",
    "ml": "in", "mn": "mn", "mr": "in", "ms": "my", "mt": "mt", "my": "mm", "nb": "no", "ne": "np", "nl": "nl",
    "nn": "no", "no": "no", "pa": "in", "pa-arab": "pk", "pl": "pl", "ps": "af", "pt": "br", "ro": "ro", "ru": "ru",
    "si": "lk", "sk": "sk", "sl": "si", "so": "so", "sq": "al", "sr": "rs", "sv": "se", "sw": "tz", "ta": "in",
    "te": "in", "th": "th", "tl": "ph", "tr": "tr", "uk": "ua", "ur": "pk", "uz": "uz", "vi": "vn", "xh": "za",
    "yo": "ng", "zh": "cn", "zh-hant": "tw", "zu": "za",
}


def open_graph_locale(code: str) -> str:
    """A language code as Open Graph's ``og:locale`` writes it, language_TERRITORY: "de" is "de_DE"
    (LIKELY_REGIONS), "pt-BR" "pt_BR", "zh-Hant" "zh_TW"; a language whose country is not known, alone ("eo")."""
    language, script, region = subtags(code)
    country = region if region.isalpha() else LIKELY_REGIONS.get(f"{language}-{script}", LIKELY_REGIONS.get(language))
    return f"{language}_{country.upper()}" if country else language
