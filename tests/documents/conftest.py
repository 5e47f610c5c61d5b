"""Stand-in translators for the document tests: their translations and alignments are known
exactly, so where each tag must land can be worked out by hand."""

import pytest


class Same:
    """Every sentence translated as itself, each word aligned to itself; records what it was given."""

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return list(sentences)

    def align(self, sources: list[str], translations: list[str]) -> list[list[tuple[int, int]]]:
        return [[(k, k) for k in range(len(s.split()))] for s in sources]


class Mirror(Same):
    """Words upper-cased in reverse order ("a red car" -> "CAR RED A"): word k aligns to n - 1 - k."""

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return [" ".join(word.upper() for word in reversed(s.split())) for s in sentences]

    def align(self, sources: list[str], translations: list[str]) -> list[list[tuple[int, int]]]:
        return [[(k, len(s.split()) - 1 - k) for k in range(len(s.split()))] for s in sources]


class Fixed(Same):
    """One given translation and alignment for every sentence."""

    def __init__(self, translation: str, alignment: list[tuple[int, int]]) -> None:
        super().__init__()
        self.translation, self.alignment = translation, alignment

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return [self.translation for _ in sentences]

    def align(self, sources: list[str], translations: list[str]) -> list[list[tuple[int, int]]]:
        return [list(self.alignment) for _ in sources]


@pytest.fixture
def same() -> Same:
    return Same()


@pytest.fixture
def mirror() -> Mirror:
    return Mirror()


@pytest.fixture
def fixed():
    return Fixed
