"""Which language a text is in, among the languages the server translates from (lingua).

lingua ships its language models inside its wheel, so nothing is downloaded at run
time.  Detection is limited to the served source languages: a server of en-de and
fr-de only ever needs to tell English from French, and lingua is both faster and
surer choosing among few.  Languages lingua does not know are left out of detection.
/detect ranks the served targets too (``rank_served``), as LibreTranslate ranks every language it lists.

One served language leaves nothing to choose, yet its confidence should still say whether
the text is in it (German sent to an English model is not English "at 100 %").  So it is
weighed against the widely written languages of ``CONTRAST``, in lingua's low accuracy mode
(its trigram models only: 27 MB and under a second to load for all of them, where its high
accuracy mode took 354 MB and 11 s), and its confidence is lingua's among them all.  Trigrams alone misjudge
a short text, though: "Download PDF" was German at 96.2 % and "Hallo, danke für dein Feedback!" English at 88.5 %.
So ``language``, which decides whether a text is given back untranslated, takes the lower of that confidence and
the one of lingua's high accuracy mode among the served languages alone (``served``: English and German took
98 MB and 1 s to load, 2.7 s on a busy machine), which puts "Download PDF" at 57.7 % German.  A text shorter than
TRIGRAMS_LENGTH is told by ``served`` alone, and so ranked at /detect: lingua's own documentation says its low
accuracy mode drops "significantly" below 120 characters, and it did: "Anmelden" was Turkish at 87.6 % and German
at 5.4 %, "Abonnieren" Dutch at 89.7 %, so short German UI strings sent to an en-de server with auto were
translated as English, and /detect put "Log in", "Delete" and "Reset" German first
(benchmarks/experiments/detection_short.py).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from attnmt.decoding.verbatim import TAG
from attnmt.documents.elements import Vocabulary
from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import check_depth, parse_html
from attnmt.documents.pipeline import DocumentOptions, flat_line
from attnmt.errors import DataError

# What one served language is weighed against: twenty of the languages most written on the web.
CONTRAST = ("en", "de", "fr", "es", "pt", "it", "nl", "ru", "pl", "tr", "zh", "ja", "ko", "ar", "hi", "id", "vi", "sv",
            "uk", "fa")
# The length (characters) from which lingua's low accuracy mode is as sure as its high accuracy mode (lingua's
# documentation of with_low_accuracy_mode): a shorter text is told among the served languages alone.
TRIGRAMS_LENGTH = 120


def readable_text(text: str, text_format: str) -> str:
    """What of ``text`` tells its language: of a plain text, what the model is given (flat_line: not its
    code spans, URLs, e-mail addresses, file names, paths or placeholders, which pass through as written), less
    its inline tags, a program's and no language's; of HTML (``text_format``
    ``"html"``), the texts that would be translated, a line each (a block's, an ``alt``'s, a
    ``title``'s), not its tags, class names and links, which are English-looking words on a page in
    any language (``class="card-text text-muted"``, ``href="/account/settings"``).  Markup nested
    too deep to translate has none: the translation refuses it.  Read whole, "Run <code>ls -la</code>. A
    dog runs." was German at 96.56 % and came back untranslated; "Run `npm install` and then `npm start`."
    was German too."""
    if text_format != "html":
        return TAG.sub(" ", flat_line(text).text)
    parsed, parser, _ = parse_html(text)
    if parsed is None:
        return ""
    try:
        check_depth(parsed.root, parser, "q")
    except DataError:
        return ""
    job = TreeJob(parsed.root, Vocabulary(), DocumentOptions(), None)  # no source language: none is foreign
    return "\n".join(flat.text for flat in job.flats())


def lingua_language(code: str) -> Language | None:
    """lingua's Language for an ISO 639-1 code ("de"), or None."""
    iso = getattr(IsoCode639_1, code.upper(), None) if len(code) == 2 and code.isalpha() else None
    return Language.from_iso_code_639_1(iso) if iso is not None else None


def language_name(code: str) -> str:
    """The English name of a language code ("de" -> "German"); the code itself where unknown."""
    language = lingua_language(code)
    return language.name.title() if language is not None else code


class Detector:
    """Ranks ``codes`` by how likely a text is in each; built on first use (about a second).
    ``targets``: the served target languages, which ``language`` weighs beside them."""

    def __init__(self, codes: Sequence[str], targets: Sequence[str] = ()) -> None:
        self.codes = list(dict.fromkeys(codes))
        self.known = {code: lingua_language(code) for code in self.codes}
        self.known = {code: language for code, language in self.known.items() if language is not None}
        self.targets = {code: language for code in targets if (language := lingua_language(code)) is not None}
        self._detector: LanguageDetector | None = None
        self._whole: LanguageDetector | None = None
        self._served: LanguageDetector | None = None
        self._weighed: set[Language] = set()  # the languages _detector weighs
        self._lock = threading.Lock()

    def detector(self) -> LanguageDetector:
        """lingua's detector: among the served languages, or one against CONTRAST (module docstring)."""
        with self._lock:
            if self._detector is None:
                self._weighed = set(self.known.values())
                if len(self.known) == 1:
                    self._weighed |= set(filter(None, map(lingua_language, CONTRAST)))
                self._detector = self.built(self._weighed)
            return self._detector

    def built(self, languages: set[Language]) -> LanguageDetector:
        builder = LanguageDetectorBuilder.from_languages(*languages)
        if len(self.known) == 1:  # against CONTRAST: its trigram models only (module docstring)
            builder = builder.with_low_accuracy_mode()
        return builder.with_preloaded_language_models().build()

    def whole(self) -> LanguageDetector:
        """lingua's detector among the served targets too: ``detector`` where it weighs them already."""
        detector = self.detector()
        with self._lock:
            if self._whole is None:
                more = set(self.targets.values()) - self._weighed
                self._whole = self.built(self._weighed | more) if more else detector
            return self._whole

    def served(self) -> LanguageDetector:
        """lingua's high accuracy detector among the served languages alone: ``whole`` where it is one
        (more than one served source), for one source a second among it and the targets (module docstring)."""
        whole = self.whole()
        with self._lock:
            if self._served is None:
                languages = set(self.known.values()) | set(self.targets.values())
                self._served = whole if len(self.known) > 1 else LanguageDetectorBuilder.from_languages(
                    *languages).with_preloaded_language_models().build()
            return self._served

    def warm(self) -> None:
        """Builds the detectors now, where there is a language lingua knows."""
        if self.known:
            self.served()

    def rank_served(self, text: str) -> list[tuple[str, float]]:
        """(code, confidence in percent), most likely first, among every served language, source or target, as
        LibreTranslate's /detect ranks among all the languages it lists: German sent to an en-de server is German,
        where a ranking of the sources alone could only call it English at 0 %, which a client taking the first
        entry translates as English.  Text with nothing to go by (``12345``, ``!!!``, emoji) is one language at 0,
        as LibreTranslate answers it (``unknown``): every language at 0, in lingua's order, put French first on a
        server of en and fr."""
        ranking = ranked(self.telling(text), text, {**self.targets, **self.known}) if self.known else []
        if not ranking or ranking[0][1] <= 0:
            return [(self.unknown(), 0.0)]
        return ranking

    def rank_texts(self, texts: list[str]) -> list[tuple[str, float]]:
        """``rank_served`` of a list of texts, one ranking for them all, as LibreTranslate's /detect
        answers a list: each text ranked on its own, a language's confidence its mean over the texts
        weighed by their length.  Joined as one text, a German "fährt" ruled English out of the whole
        list: an English sentence beside a German one was English at 0 %.  Each text is read as its
        language (``readable_text``), not its code, links and placeholders, and weighed by what is read."""
        return self.mean_ranking([readable_text(text, "text") for text in texts])

    def mean_ranking(self, read: list[str]) -> list[tuple[str, float]]:
        """``rank_served`` of texts read already (``readable_text``), a language's confidence its mean over
        them weighed by their length: /detect's answer, and the one ``source: "auto"`` reports
        (attnmt.server.auto_source), so that a client shows the same confidence for the same text."""
        weighed: dict[str, float] = {}  # code: the sum of its confidence times each text's length
        for text in read:
            for code, confidence in self.rank_served(text):
                weighed[code] = weighed.get(code, 0.0) + confidence * len(text)
        total = max(sum(map(len, read)), 1)  # nothing read: every confidence is 0 (rank_served)
        means = [(code, round(weighed[code] / total, 2)) for code in weighed]
        return sorted(means, key=lambda mean: mean[1], reverse=True)

    def unknown(self) -> str:
        """The language of a text with nothing to go by: LibreTranslate's "en" where English is a served
        source, or else the first served source, a language a client can translate from."""
        return "en" if "en" in self.codes or not self.codes else self.codes[0]

    def telling(self, text: str) -> LanguageDetector:
        """The detector that tells ``text``'s language among the served ones: ``whole``, but ``served`` for a
        text shorter than TRIGRAMS_LENGTH (module docstring)."""
        return self.served() if len(text.strip()) < TRIGRAMS_LENGTH else self.whole()

    def language(self, text: str) -> tuple[str, float] | None:
        """The served language, source or target, ``text`` is most likely in, with its confidence in
        percent, the lower of ``whole``'s and ``served``'s, ``served``'s alone for a short text (``telling``:
        module docstring); None where lingua goes by nothing, or finds a language no model serves likelier."""
        if not self.known:
            return None
        code_of = {language: code for code, language in {**self.targets, **self.known}.items()}
        values = self.telling(text).compute_language_confidence_values(text)
        if not values or values[0].value <= 0 or values[0].language not in code_of:
            return None
        among_served = self.served().compute_language_confidence(text, values[0].language)
        return code_of[values[0].language], round(min(values[0].value, among_served) * 100, 2)


def ranked(detector: LanguageDetector, text: str, languages: dict[str, Language]) -> list[tuple[str, float]]:
    """(code, confidence in percent) of ``languages`` (code: lingua's Language), most likely first,
    by ``detector``, which may weigh more languages than these (CONTRAST)."""
    code_of = {language: code for code, language in languages.items()}
    return [(code_of[value.language], round(value.value * 100, 2))
            for value in detector.compute_language_confidence_values(text) if value.language in code_of]
