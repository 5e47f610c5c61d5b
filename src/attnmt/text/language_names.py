"""The names a spreadsheet's header row gives the languages of its columns in the languages people keep
glossaries in: a German user heads them "Englisch" and "Deutsch", a French one "Anglais" and "Allemand"
(attnmt.decoding.glossary_headers).  English names are language_codes.LANGUAGE_NAMES'; these are the
others, each language's own name among them, for the languages most glossaries are kept in."""

from __future__ import annotations

import re

from attnmt.text.invisible import unaccented

# A language's names in German, French, Spanish, Italian, Portuguese, Dutch, Polish and Russian, and its
# own, lower case and without Latin letters' accents (``plain`` takes them off a header's cell: "inglés" is "ingles")
OTHER_NAMES = {
    "en": "englisch anglais ingles inglese engels angielski английский 英语 英語 영어",
    "de": "deutsch allemand aleman tedesco alemao duits niemiecki немецкий 德语 德語 ドイツ語 독일어",
    "fr": "franzosisch francais frances francese frances frans francuski французский 法语 法語 フランス語 프랑스어",
    "es": "spanisch espagnol espanol spagnolo espanhol spaans hiszpanski испанский 西班牙语 スペイン語 스페인어",
    "it": "italienisch italien italiano italiaans wloski итальянский 意大利语 イタリア語 이탈리아어",
    "pt": "portugiesisch portugais portugues portoghese portugees portugalski португальский 葡萄牙语 ポルトガル語 "
          "포르투갈어",
    "nl": "niederlandisch hollandisch neerlandais neerlandes olandese holandes nederlands niderlandzki нидерландский "
          "荷兰语 オランダ語 네덜란드어",
    "pl": "polnisch polonais polaco polacco polones pools polski польский 波兰语 ポーランド語 폴란드어",
    "ru": "russisch russe ruso russo rosyjski русский 俄语 ロシア語 러시아어",
    "zh": "chinesisch chinois chino cinese chines chinees chinski китайский 中文 汉语 漢語 中国語 중국어",
    "ja": "japanisch japonais japones giapponese japans japonski японский 日语 日語 日本語 일본어",
    "ko": "koreanisch coreen coreano koreaans koreanski корейский 韩语 韓語 韓国語 한국어",
    "sv": "schwedisch suedois sueco svedese zweeds szwedzki шведский svenska",
    "da": "danisch danois danes danese dinamarques deens dunski датский dansk",
    "cs": "tschechisch tcheque checo ceco tcheco tsjechisch czeski чешский cestina",
    "tr": "turkisch turc turco turks turecki турецкий turkce",
    "uk": "ukrainisch ukrainien ucraniano ucraino oekraiens ukrainski украинский українська",
    "ar": "arabisch arabe arabo arabski арабский العربية",
}

# A region or script after a language's name, as memoQ and Phrase head a column: "English (United States)"
QUALIFIER = re.compile(r"\s*\([^()]*\)$")


def plain(name: str) -> str:
    """A language's name as OTHER_NAMES holds it: case-folded, without accents and without a qualifier in
    parentheses ("Français (France)" is "francais")."""
    return unaccented(QUALIFIER.sub("", name.strip()).casefold())


def other_names(code: str) -> frozenset[str]:
    """The names OTHER_NAMES gives the language of the primary subtag ``code`` ("de"), made ``plain`` as a
    header's cell is (which leaves a kana's voicing mark out of "ドイツ語" too): none for another."""
    return frozenset(map(plain, OTHER_NAMES.get(code, "").split()))


# Each language's name in itself (its endonym), as a language switcher lists it ("Deutsch", "Français"), plain
# (``plain``: "francais"); a written form of it ("简体中文", "Bahasa Indonesia") as well.
OWN_NAMES = {
    "ar": "العربية", "bg": "български", "ca": "català", "cs": "čeština", "da": "dansk", "de": "deutsch",
    "el": "ελληνικά", "en": "english", "es": "español", "et": "eesti", "fa": "فارسی", "fi": "suomi",
    "fr": "français", "he": "עברית", "hi": "हिन्दी", "hr": "hrvatski", "hu": "magyar", "id": "bahasa_indonesia",
    "it": "italiano", "ja": "日本語", "ko": "한국어", "lt": "lietuvių", "lv": "latviešu", "nb": "norsk norsk_bokmål",
    "nl": "nederlands", "no": "norsk", "pl": "polski", "pt": "português", "ro": "română", "ru": "русский",
    "sk": "slovenčina", "sl": "slovenščina", "sr": "српски srpski", "sv": "svenska", "th": "ไทย",
    "tr": "türkçe", "uk": "українська", "vi": "tiếng_việt", "zh": "中文 简体中文 繁體中文 繁体中文",
}


def own_names(code: str) -> frozenset[str]:
    """The names OWN_NAMES gives the language of the primary subtag ``code`` ("fr") in itself, ``plain``: none
    for another."""
    return frozenset(plain(name.replace("_", " ")) for name in OWN_NAMES.get(code, "").split())
