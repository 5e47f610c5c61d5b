"""Which language a text is in, among the languages the server translates from (lingua).

lingua ships its language models inside its wheel, so nothing is downloaded at run
time.  Detection is limited to the served source languages: a server of en-de and
fr-de only ever needs to tell English from French, and lingua is both faster and
surer choosing among few.  Languages lingua does not know are left out of detection.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder


def lingua_language(code: str) -> Language | None:
    """lingua's Language for an ISO 639-1 code ("de"), or None."""
    iso = getattr(IsoCode639_1, code.upper(), None) if len(code) == 2 and code.isalpha() else None
    return Language.from_iso_code_639_1(iso) if iso is not None else None


def language_name(code: str) -> str:
    """The English name of a language code ("de" -> "German"); the code itself where unknown."""
    language = lingua_language(code)
    return language.name.title() if language is not None else code


class Detector:
    """Ranks ``codes`` by how likely a text is in each; built on first use (about a second)."""

    def __init__(self, codes: Sequence[str]) -> None:
        self.codes = list(dict.fromkeys(codes))
        self.known = {code: lingua_language(code) for code in self.codes}
        self.known = {code: language for code, language in self.known.items() if language is not None}
        self._detector: LanguageDetector | None = None
        self._lock = threading.Lock()

    def detector(self) -> LanguageDetector:
        with self._lock:
            if self._detector is None:
                self._detector = (LanguageDetectorBuilder.from_languages(*self.known.values())
                                  .with_preloaded_language_models().build())
            return self._detector

    def warm(self) -> None:
        """Builds the detector now, where there is a choice to make."""
        if len(self.known) >= 2:
            self.detector()

    def rank(self, text: str) -> list[tuple[str, float]]:
        """(code, confidence in percent), most likely first.  With one language (or one lingua
        knows) there is nothing to choose: it gets 100."""
        if len(self.known) < 2:
            return [(code, 100.0 if i == 0 else 0.0) for i, code in enumerate(self.known or self.codes)]
        code_of = {language: code for code, language in self.known.items()}
        return [(code_of[value.language], round(value.value * 100, 2))
                for value in self.detector().compute_language_confidence_values(text)]
