"""Stand-in translators for the document tests: their translations and alignments are known
exactly, so where each tag must land can be worked out by hand."""

import pytest

from attnmt.decoding.glossary import Glossary
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions


def one_hot(pairs, sources: int, targets: int) -> list[list[float]]:
    """Word weights [target word][source word]: 1 for each (source, target) pair, else 0."""
    return [[float((s, t) in pairs) for s in range(sources)] for t in range(targets)]


UNWRITABLE = "👍🏽❤\ufe0f🐕|»→"  # what Dropping's vocabulary has no piece for: emoji, separators
UNITLESS = "°€£µ×±½≥§"  # what Unitless's vocabulary has no piece for besides: the signs of measures
NO_RAISED_DIGITS = str.maketrans("", "", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # what Unnoted drops
UNDIRECTED = str.maketrans("", "", "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class Same:
    """Every sentence translated as itself, each word aligned to itself; records what it was given."""

    glossary = None  # no terms: a sentence without letters never reaches it

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        self.given.extend(sentences)
        texts = self.texts(sentences)
        return texts, [self.weights(s, t) if w else None for s, t, w in zip(sentences, texts, weighed, strict=True)]

    def texts(self, sentences: list[str]) -> list[str]:
        return list(sentences)

    def weights(self, source: str, translation: str) -> list[list[float]]:
        return one_hot({(k, k) for k in range(len(source.split()))}, len(source.split()), len(translation.split()))


class Mirror(Same):
    """Words upper-cased in reverse order ("a red car" -> "CAR RED A"): word k aligns to n - 1 - k."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [" ".join(word.upper() for word in reversed(s.split())) for s in sentences]

    def weights(self, source: str, translation: str) -> list[list[float]]:
        n = len(source.split())
        return one_hot({(k, n - 1 - k) for k in range(n)}, n, len(translation.split()))


class Dropping(Mirror):
    """Mirror's translation as a model writes it: without the characters its vocabulary cannot
    write (UNWRITABLE: emoji, "|", "»", "→"; it writes "♥", "-", "&"), which it reads as unknown;
    ``writes`` says which."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = lambda text: not any(character in UNWRITABLE for character in text)

    def texts(self, sentences: list[str]) -> list[str]:
        return super().texts(["".join(c for c in s if c not in UNWRITABLE) for s in sentences])


class SameDropping(Dropping):
    """Dropping's reading, each sentence written as itself (without what it cannot write) and each
    word aligned to itself: an identity with a vocabulary, under which the spacing around the
    symbols it cannot write must come back as it was."""

    weights = Same.weights

    def texts(self, sentences: list[str]) -> list[str]:
        return ["".join(c for c in s if c not in UNWRITABLE) for s in sentences]


class Unitless(SameDropping):
    """SameDropping's, its vocabulary without the signs of measures too (UNITLESS), as the demo model's
    (Multi30k's) has no piece for "°", "€" or "½": each word aligned to itself, so what it reads shows."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = lambda text: not any(character in UNWRITABLE + UNITLESS for character in text)

    def texts(self, sentences: list[str]) -> list[str]:
        return ["".join(c for c in s if c not in UNWRITABLE + UNITLESS) for s in sentences]


class Unnoted(Same):
    """Every sentence written as itself without its superscript digits ("grass.³" -> "grass."), each
    word aligned to itself: the model, given a note's number typed after a stop, drops it."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [s.translate(NO_RAISED_DIGITS) for s in sentences]


class Sentencing(Same):
    """Each sentence it knows (``known``: source -> translation of as many words) as a model writes a list's item it
    reads alone, a sentence with a capital and a stop ("a red car" -> "Ein rotes Auto."); any other as itself."""

    def __init__(self, known: dict[str, str]) -> None:
        super().__init__()
        self.known = known

    def texts(self, sentences: list[str]) -> list[str]:
        return [self.known.get(sentence, sentence) for sentence in sentences]


class Upper(Same):
    """Every sentence upper-cased, each word aligned to itself: a translation that differs from its
    source in every letter and in nothing else ("a < b" -> "A < B")."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [s.upper() for s in sentences]


class AmpersandDropping(Upper):
    """Every sentence upper-cased without its words that hold a "&" ("Tom & Jerry" -> "TOM JERRY"), each word aligned
    to its place: the demo model, whose vocabulary writes "&", dropped the names joined by one ("We watched Tom &
    Jerry." came back "Ein bereitet sich.")."""

    def texts(self, sentences: list[str]) -> list[str]:
        return [" ".join(word for word in s.split() if "&" not in word) for s in super().texts(sentences)]


class Fixed(Same):
    """One given translation and alignment (source word, target word pairs) for every sentence."""

    def __init__(self, translation: str, alignment: list[tuple[int, int]]) -> None:
        super().__init__()
        self.translation, self.alignment = translation, alignment

    def texts(self, sentences: list[str]) -> list[str]:
        return [self.translation for _ in sentences]

    def weights(self, source: str, translation: str) -> list[list[float]]:
        return one_hot(set(self.alignment), len(source.split()), len(translation.split()))


class Known(Same):
    """A translation and alignment of each sentence it knows (sentence: (translation, pairs)): where
    the sentence the model reads is the point, each reading gets the translation it would."""

    def __init__(self, known: dict[str, tuple[str, list[tuple[int, int]]]]) -> None:
        super().__init__()
        self.known = known

    def texts(self, sentences: list[str]) -> list[str]:
        return [self.known[sentence][0] for sentence in sentences]

    def weights(self, source: str, translation: str) -> list[list[float]]:
        return one_hot(set(self.known[source][1]), len(source.split()), len(translation.split()))


class KnownUnitless(Known):
    """Known's translations, read with Unitless's vocabulary: a measure's sign ("°", "€") and an emoji are
    taken out of what it reads, as the demo model's vocabulary has no piece for them."""

    def __init__(self, known: dict[str, tuple[str, list[tuple[int, int]]]]) -> None:
        super().__init__(known)
        self.writes = Unitless().writes


class Undirected(Upper):
    """Upper's translation as a model writes it: without the bidirectional controls (U+200E, U+200F,
    U+202A-U+202E, U+2066-U+2069), which its tokenizer reads as unknown pieces or spaces; it writes
    every symbol."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = lambda text: True

    def texts(self, sentences: list[str]) -> list[str]:
        return [s.translate(UNDIRECTED) for s in super().texts(sentences)]


class Termed(Upper):
    """Upper-cased, with the glossary 2012 -> zweitausendzwölf, whose term it writes upper-cased: a
    text without letters never reaches it, and takes the term as the glossary writes it
    (letterless.with_terms), so the case shows which way a translation came."""

    glossary = Glossary.of({"2012": "zweitausendzwölf"})

    def texts(self, sentences: list[str]) -> list[str]:
        return [s.replace("2012", "zweitausendzwölf").upper() for s in sentences]


@pytest.fixture
def same() -> Same:
    return Same()


@pytest.fixture
def mirror() -> Mirror:
    return Mirror()


@pytest.fixture
def dropping() -> Dropping:
    return Dropping()


@pytest.fixture
def same_dropping() -> SameDropping:
    return SameDropping()


@pytest.fixture
def unitless() -> Unitless:
    return Unitless()


@pytest.fixture
def unnoted() -> Unnoted:
    return Unnoted()


@pytest.fixture
def upper() -> Upper:
    return Upper()


@pytest.fixture
def ampersand_dropping() -> AmpersandDropping:
    return AmpersandDropping()


@pytest.fixture
def translated():
    """A file's text, its format found by its ``name`` ("in.md", "in.ts"), as translate_file_bytes translates it with
    ``translator`` and the default DocumentOptions."""
    def translation(translator, name: str, text: str) -> str:
        return translate_file_bytes(text.encode(), name, translator, DocumentOptions()).decode()
    return translation


@pytest.fixture
def sentencing():
    return Sentencing


@pytest.fixture
def fixed():
    return Fixed


@pytest.fixture
def known():
    return Known


@pytest.fixture
def known_unitless():
    return KnownUnitless


@pytest.fixture
def undirected() -> Undirected:
    return Undirected()


@pytest.fixture
def termed() -> Termed:
    return Termed()


class Judging:
    """``translator``'s translations (the ``mirror`` fixture's), each as plausible as ``plausible`` says of its source
    (else 0.9); ``judged``: the pairs it was asked about."""

    def __init__(self, translator, plausible: dict[str, float], glossary: Glossary | None = None) -> None:
        self.translator, self.plausible, self.glossary, self.judged = translator, plausible, glossary, []

    def translate(self, sentences, weighed):
        return self.translator.translate(sentences, weighed)

    def plausibility(self, sentences, translations):
        self.judged.extend(zip(sentences, translations, strict=True))
        return [self.plausible.get(sentence, 0.9) for sentence in sentences]
