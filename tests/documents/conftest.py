"""Stand-in translators for the document tests: their translations and alignments are known
exactly, so where each tag must land can be worked out by hand."""

import pytest


def one_hot(pairs, sources: int, targets: int) -> list[list[float]]:
    """Word weights [target word][source word]: 1 for each (source, target) pair, else 0."""
    return [[float((s, t) in pairs) for s in range(sources)] for t in range(targets)]


class Same:
    """Every sentence translated as itself, each word aligned to itself; records what it was given."""

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return list(sentences)

    def word_weights(self, sources: list[str], translations: list[str]) -> list[list[list[float]]]:
        return [one_hot({(k, k) for k in range(len(s.split()))}, len(s.split()), len(t.split()))
                for s, t in zip(sources, translations, strict=True)]


class Mirror(Same):
    """Words upper-cased in reverse order ("a red car" -> "CAR RED A"): word k aligns to n - 1 - k."""

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return [" ".join(word.upper() for word in reversed(s.split())) for s in sentences]

    def word_weights(self, sources: list[str], translations: list[str]) -> list[list[list[float]]]:
        return [one_hot({(k, len(s.split()) - 1 - k) for k in range(len(s.split()))}, len(s.split()), len(t.split()))
                for s, t in zip(sources, translations, strict=True)]


class Fixed(Same):
    """One given translation and alignment (source word, target word pairs) for every sentence."""

    def __init__(self, translation: str, alignment: list[tuple[int, int]]) -> None:
        super().__init__()
        self.translation, self.alignment = translation, alignment

    def translate(self, sentences: list[str]) -> list[str]:
        self.given.extend(sentences)
        return [self.translation for _ in sentences]

    def word_weights(self, sources: list[str], translations: list[str]) -> list[list[list[float]]]:
        return [one_hot(set(self.alignment), len(s.split()), len(t.split()))
                for s, t in zip(sources, translations, strict=True)]


@pytest.fixture
def same() -> Same:
    return Same()


@pytest.fixture
def mirror() -> Mirror:
    return Mirror()


@pytest.fixture
def fixed():
    return Fixed
