"""The ``language`` rule (attnmt.decoding.quality): a translation clearly written in another language
than the one asked for, an English paraphrase given as the German translation, a copy in French.

No language-identification package is needed: each language of PROFILES is known by its function words
(articles, pronouns, prepositions, conjunctions, auxiliaries), which nearly every sentence of it has and
a name or a number has none of, and Chinese and Japanese, written without spaces, by their particles'
characters (Korean by its words in Hangul).  A text's ``evidence`` for one language against another is
how many of its words are function words of the one and not of the other.  It is in another language
than ``target`` where some other language's evidence against the target is at least MIN_EVIDENCE and more
than twice the target's against it, and two more (``in_other_language``): the words languages share
("in", "de", "la", "a") count for neither, a translation with its own language's words too is not
taken for another language's, and a short line (one or two words, a name, a number, a title) has too few
function words to judge, so it never does.  Languages close to each other (Danish, Norwegian and Swedish,
Spanish, Catalan and Portuguese, Czech and Slovak, Dutch and Afrikaans, Russian and Ukrainian) share most
of their function words, so a word in lower case with a letter of one's alphabet that the other's lacks
(LETTERS: "är" and "ägare" are Swedish, "løber" Danish, "veľmi" Slovak, "přijde" Czech) is evidence too;
a name keeps its own spelling and is left out ("José García" in a German text).  Danish and Norwegian,
which share letters too, are told apart by their own function words alone ("af", "av"; "nogle", "noen";
"tilbage", "tilbake"; "uden", "uten"; "ude", "ute"), those of Swedish's that they share listed for it too.
Multi30k's references, en and de, read as translations into their own language: 0 of 2,014 (validation
and test) and 0 of 58,000 (training) flagged; read as translations into the other one, 82-84 % are (the
others hold too few function words of their language to judge).  Where the source's language is known too,
a translation in it is told on two function words (``in_source_language``): another sentence of the
source's language given as the translation, 94-95 % of them, and still none of the references.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from attnmt.decoding.verbatim import PLACEHOLDER, TAG, VERBATIM
from attnmt.text.invisible import folded
from attnmt.text.language_codes import primary_subtag


class Languages(NamedTuple):
    """The language codes of the sources and of their translations (BCP 47: "de", "pt-BR"); None where
    not known, where the rules that need it stay silent."""

    source: str | None = None
    target: str | None = None


UNKNOWN = Languages()  # neither known: the rules that need a language stay silent
MIN_EVIDENCE = 3
MIN_SOURCE_EVIDENCE = 2  # a translation in the source's language (``in_source_language``)
QUOTED = re.compile(r"[\"“”„«»]([^\"“”„«»]+)[\"“”„«»]")  # a quotation, between any two quotation marks
# Each language's most frequent function words, case-folded, as attnmt.decoding.quality_measures.words_of
# reads a text ("l'homme" is "l" and "homme").  A word two languages share is in both: Spanish's "a" and "o"
# (to, or) are Portuguese's "a" and "o" (the), and counted for Portuguese alone, three of them made "Quiero ir
# a Madrid o a Barcelona" Portuguese.
PROFILES = {
    "en": "the a an no and of to is are was were with for from that this these those it its they them their he she "
          "his her we our you your i my me be been has have had will would can could should not there what which "
          "who when where while as at by on in or but if than into out about over under after before very also "
          "just only some any all more other such do does did",
    "de": "der die das den dem des ein eine einen einem einer eines und ist sind war waren wird werden wurde mit "
          "von vom zu zum zur im in auf für aus bei beim nach über unter vor hinter neben sich er sie es wir ihr "
          "ich du nicht auch noch schon sehr nur aber oder wenn dass als wie was wer wo hat haben hatte kein keine "
          "dieser diese dieses jeder jede am an ins durch gegen um",
    "fr": "le la les un une des du de a et est sont était étaient avec pour dans sur par au aux ce cette ces il elle "
          "ils elles nous vous je tu qui que ne pas plus se sa son ses leur leurs mais ou où être avoir été fait "
          "très aussi comme en y d l qu c n j",
    "es": "el la los las un una unos unas a o de y es son está están estaba fue con para por en del al que se su "
          "sus lo le les no pero como más muy este esta estos estas ese esa hay también cuando donde porque sobre "
          "entre sin hasta desde yo tú él ella ellos nosotros me mi ha han va van",
    "it": "il lo la i gli le un uno una a o di da del della dei degli delle nel nella sul sulla al alla e è sono era "
          "erano con per su che non si ma come più molto questo questa quello quella anche ci ha hanno essere io "
          "tu lui lei noi voi loro",
    "pt": "o a os as um uma uns umas de do da dos das no na nos nas em e é são está estão estava foi com para "
          "por pelo pela que se seu sua não mas como mais muito este esta isso isto também ele ela eles elas eu "
          "você ao aos",
    "nl": "de het een en is zijn was waren met van voor op in aan bij uit naar door over onder dat die dit deze "
          "er hij zij ze wij we ik jij je niet ook nog wel maar of als om te tot heeft hebben had wordt worden "
          "geen",
    "pl": "i w z na do się nie jest są był była było to że jak co ale od po za przez dla o przy ten ta te tego "
          "jego jej oni ona on my wy ja ty już tak czy",
    "cs": "a v ve na se je jsou byl byla bylo s z do k o od po pro že jak co ale to ten ta tento tato jeho její "
          "oni ona on my vy já ty už tak by jako při i jsem jsme jste ne",
    "sv": "och i att det som en ett är var på för med av till den de han hon vi jag du inte om har hade men så "
          "från kan ska eller där när efter vid mig dig sig vad något mycket nu någon några ut ute upp tillbaka kanske "
          "utan genom blev igen mellan",
    "da": "og i at det som en et er var på for med af til den de han hun vi jeg du ikke om har havde men så fra "
          "kan skal eller der når efter ved mig dig sig hvad noget meget nu nogle nogen ud ude tilbage måske uden "
          "gennem jer vores hende blev igen mellem",
    "no": "og i at det som en et ei er var på for med av til den de han hun vi jeg du ikke om har hadde men så fra "
          "kan skal eller der når etter ved meg deg seg hva noe mye veldig nå noen ut ute tilbake kanskje uten "
          "gjennom dere våre ble igjen mellom sånn ikkje eg kva berre noko mykje frå",
    "ca": "el la els les un una uns unes de del dels i a o amb per en és són era eren està estan que no es se va van "
          "ha han hi ho li em et ens us però com més molt aquest aquesta això també quan on perquè sense fins des jo "
          "tu ell ella ells elles nosaltres",
    "sk": "a v vo na sa je sú bol bola bolo s so z zo do k ku o od po pre že ako čo ale to ten tá tento táto jeho "
          "jej oni ona on my vy ja ty už tak by pri aj som sme ste nie",
    "af": "die n en is was van in op vir met aan by uit na deur oor onder dat hierdie daardie dit hy sy ons hulle ek "
          "jy u nie ook nog maar of as om te tot het word kan sal baie",
    "tr": "ve bir bu da de için ile ne o çok daha gibi olan var yok ama mi mı mu mü şu ben sen biz siz onlar "
          "değil olarak kadar sonra her",
    "ru": "и в не на что с он она они я мы вы это как по но из к у за от то же все так его её их был была было "
          "были есть для только уже или",
    "uk": "і й в у не на що з він вона вони я ми ви це як по але із до за від то же все так його її їх був "
          "була було були є для тільки вже або та",
    "ar": "في من على إلى عن أن إن هذا هذه التي الذي كان كانت مع لا ما هو هي هم قد كل بين بعد",
}
WORDS = {language: frozenset(words.split()) for language, words in PROFILES.items()}
# The letters of each language's alphabet beyond a-z, case-folded.  A word in lower case holding a letter of
# another language's that the target's alphabet lacks is that language's evidence, as its function words are:
# what tells close languages apart, whose function words are mostly one ("är", "ägare" are Swedish, never Danish;
# "løber" Danish or Norwegian, never Swedish; "veľmi" Slovak, "přijde" Czech; "mañana" Spanish, "não" Portuguese).
# A word in capitals is left out: a name ("José García") is written as its own language spells it.
LETTERS = {
    "de": "äöü", "fr": "àâæçéèêëîïôœùûüÿ", "es": "áéíñóúü", "it": "àèéìíîòóùú", "pt": "áâãàçéêíóôõú",
    "nl": "éëïöü", "pl": "ąćęłńóśźż", "cs": "áčďéěíňóřšťúůýž", "sk": "áäčďéíĺľňóôŕšťúýž", "sv": "åäöé",
    "da": "æøåé", "no": "æøåéèêóòô", "tr": "çğıöşü", "ca": "àçèéíïòóúü·", "af": "áéèêëíîïóôöúûüŉ",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
}
ALIASES = {"nb": "no", "nn": "no"}  # Norwegian's written standards, Bokmål and Nynorsk: one profile
# Languages written without spaces between words: their function words are characters.  Chinese's are
# those Japanese seldom writes; Japanese's, the hiragana of its particles and endings, which Chinese never has.
CHARACTERS = {
    "zh": frozenset("的是了我你他她们們这這个個说說吗嗎呢没沒么麼也都就很和着著"),
    "ja": frozenset("のはをにがでともへやただすましているかねよな"),
}
HANGUL = re.compile(r"[\uac00-\ud7a3]")
WORD = re.compile(r"\w+")
KNOWN = frozenset({*PROFILES, *CHARACTERS, "ko"})


class Word(NamedTuple):
    """A word of a text as ``evidence`` reads it: case-folded, and whether it was written in lower case."""

    folded: str
    lower: bool


def evidence(words: list[Word], language: str, other: str) -> int:
    """How many of ``words`` (``words_read``) mark ``language`` and not ``other``: its function words that
    are not ``other``'s too, or words in lower case holding a letter of its alphabet that ``other``'s lacks
    (LETTERS); Chinese's and Japanese's: such characters; Korean's its words written in Hangul."""
    if language == "ko":
        return sum(bool(HANGUL.search(word.folded)) for word in words)
    if language in CHARACTERS:
        marks = CHARACTERS[language] - CHARACTERS.get(other, frozenset())
        return sum(character in marks for word in words for character in word.folded)
    shared = WORDS.get(other, frozenset())
    letters = set(LETTERS.get(language, "")) - set(LETTERS.get(other, ""))
    return sum(word.folded in WORDS[language] and word.folded not in shared
               or word.lower and not letters.isdisjoint(word.folded) for word in words)


def words_read(text: str) -> list[Word]:
    """The words of ``text`` (``WORD``'s, each case-folded as attnmt.text.invisible.folded reads it), each
    with whether it was written in lower case."""
    return [Word(folded(word), word.islower()) for word in WORD.findall(text)]


def text_words(text: str) -> str:
    """``text`` without what passes through untranslated (verbatim's URLs, e-mail addresses and file names,
    tags with their attributes, placeholders): "Siehe https://example.com/how-to-use-the-app" is German,
    whatever the slug of the URL in it says."""
    for kept in (VERBATIM, TAG, PLACEHOLDER):
        text = kept.sub(" ", text)
    return text


def in_source_language(source: str, translation: str, languages: Languages) -> bool:
    """Whether ``translation`` of ``source`` reads as written in the source's language, with a lower bar
    than another language's (MIN_SOURCE_EVIDENCE, a margin of 1): what a model writes where it fails to
    translate (a paraphrase, another sentence in the source's language) is far likelier to be in the source's
    language than in any other, and a short sentence has few function words ("Two men play in the snow." as
    the German translation).  A quotation the translation keeps as the source writes it is not read (a
    title: „Race for a Cure“).  False where either language is unknown, not in KNOWN, or both are one."""
    source_code, target_code = (profile_of(code) for code in languages)
    if source_code is None or target_code is None or source_code == target_code:
        return False
    words = words_read(text_words(without_quotes_of(source, translation)))
    found = evidence(words, source_code, target_code)
    return found >= MIN_SOURCE_EVIDENCE and found > 2 * evidence(words, target_code, source_code) + 1


def profile_of(code: str | None) -> str | None:
    """The key of KNOWN that language ``code`` ("de-AT", "nb") is read by; None where none is, or no code."""
    language = primary_subtag(code) if code else ""
    language = ALIASES.get(language, language)
    return language if language in KNOWN else None


def without_quotes_of(source: str, translation: str) -> str:
    """``translation`` without the quotations in it that ``source`` holds as they are (case aside)."""
    kept = folded(source)
    return QUOTED.sub(lambda m: " " if folded(m[1]).strip() in kept else m[0], translation)


def in_other_language(text: str, target: str | None) -> bool:
    """Whether ``text``, a translation into ``target`` (a language code; None: not known), is clearly in
    another language (module docstring); False for a target the rule does not know (not in KNOWN)."""
    language = profile_of(target)
    if language is None:
        return False
    words = words_read(text_words(text))
    for other in KNOWN - {language}:
        found = evidence(words, other, language)
        if found >= MIN_EVIDENCE and found > 2 * evidence(words, language, other) + 2:
            return True
    return False
