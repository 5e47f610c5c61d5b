"""What of a sent file tells its language: LibreTranslate's ``translate_file`` with source ``auto``
detects it from the file's texts, whatever its format (attnmt.server.libre_files); and whether a
file given back as it came, in the target language already, could be read at all (``read_through``).

The file is read as its translation will read it (attnmt.documents.files), by a translator that
keeps the sentences it is handed and answers each with itself: a subtitle file's cues without
their numbers and timings, a page's text without its tags, an office file's paragraphs without
its XML.  Its first SAMPLE_CHARS characters are enough; the reading stops there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.spans import Weights
from attnmt.errors import UserError, collected_warnings

# The characters read to tell a file's language: lingua is sure well before this.
SAMPLE_CHARS = 2000
# How a file is read for its sample: with no language to hold an XLIFF file's source-language to.
SAMPLING = DocumentOptions(macros=True, source_lang_known=False)


class Enough(Exception):
    """The sample is full: the file need not be read further."""


@dataclass
class Sampler:
    """A Translator (attnmt.documents.translators) that keeps the sentences it is handed, answering
    each with itself, and stops the reading (Enough) once it holds ``chars`` characters."""

    chars: int
    sentences: list[str] = field(default_factory=list)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        self.sentences += sentences
        if sum(map(len, self.sentences)) >= self.chars:
            raise Enough
        return list(sentences), [None] * len(sentences)


def file_sample(data: bytes, filename: str, max_bytes: int, chars: int = SAMPLE_CHARS) -> str:
    """The first ``chars`` characters of the texts the file ``data`` (its format named by ``filename``)
    would have translated, a line each; "" for a file whose texts cannot be read: its translation
    then says why (its warnings too, which the sample keeps to itself)."""
    sampler = Sampler(chars)
    with collected_warnings():
        try:  # macros: a file with them was let in (checked_name); an XLIFF's source-language is what is sought
            translate_file_bytes(data, filename, sampler, SAMPLING, max_bytes=max_bytes)
        except (Enough, UserError):
            pass
    return "\n".join(sampler.sentences)[:chars]


@dataclass
class Echo:
    """A Translator that answers each sentence with itself, and keeps them."""

    sentences: list[str] = field(default_factory=list)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        self.sentences += sentences
        return list(sentences), [None] * len(sentences)


def read_through(data: bytes, filename: str, options: DocumentOptions, max_bytes: int) -> list[str]:
    """Reads the whole file ``data`` as its translation would, with ``options``, each sentence answered with
    itself: UserError (one line naming the file) where its translation would fail for the file's own fault
    (text not UTF-8, XML not well-formed, an XLIFF file that is none), so that a file given back as it came, in
    the target language already, is refused as one translated would be.  What its reader warns of is left
    unsaid: a copy leaves nothing untranslated that a translation would have translated.  Returns the sentences
    read, those its translation would have handed the model (their characters charged to its key's characters a
    minute, a chunk at a time: attnmt.server.file_translator)."""
    echo = Echo()
    with collected_warnings():
        translate_file_bytes(data, filename, echo, options, max_bytes=max_bytes)
    return echo.sentences
