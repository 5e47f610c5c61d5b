"""What a document's translator may answer besides its translations (the Translator protocol of
attnmt.documents.translators leaves each optional): the glossary its translations use, whether the
model reads a sentence whole (``fits``), and whether its vocabulary writes a symbol (``writes``);
and its translations themselves, checked once (``translated_by``)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from attnmt.decoding.glossary import Glossary, as_glossary
from attnmt.decoding.inputs import longest_part, reads_whole
from attnmt.documents.spans import Weights
from attnmt.errors import ConfigError


def translator_fits(translator: object) -> Callable[[str], bool]:
    """``translator``'s ``fits`` (ModelTranslator.fits), which the Translator protocol leaves
    optional.  For a translator without one (a user's own) that holds a ``tokenizer`` and a
    ``model`` with a config (as ModelTranslator does), the model's ``longest_part`` counted with
    that tokenizer, as ModelTranslator counts; else ``within_bytes``: None joined two sentences
    around a term at any length, and the model cut the joined sentence, losing its words."""
    fits = getattr(translator, "fits", None)
    if fits is not None:
        return fits
    tokenizer = getattr(translator, "tokenizer", None)
    model = getattr(translator, "model", None)
    longest = getattr(getattr(model, "config", None), "longest_input", None)
    if model is None or tokenizer is None or not callable(getattr(tokenizer, "encode", None)):
        return within_bytes
    if isinstance(longest, int):
        return reads_whole(tokenizer, longest_part(model))
    return within_bytes


def translator_writes(translator: object) -> Callable[[str], bool] | None:
    """``translator``'s ``writes`` (ModelTranslator.writes), which the Translator protocol leaves optional."""
    return getattr(translator, "writes", None)


def within_bytes(sentence: str) -> bool:
    """Whether ``sentence`` surely fits a model of the default ``max_positions`` (1,022 tokens),
    where nothing counts its tokens: it has at most ``UNCOUNTED_BYTES`` UTF-8 bytes in NFKC, and
    a piece stands for at least one byte (byte fallback: four pieces for a rare character), but
    for the word-start piece the tokenizer adds."""
    return len(unicodedata.normalize("NFKC", sentence).encode("utf-8", "surrogatepass")) <= UNCOUNTED_BYTES


UNCOUNTED_BYTES = 1_000


def translator_glossary(translator: object) -> Glossary | None:
    """``translator``'s glossary, which the Translator protocol leaves optional: None for a translator
    without one (a user's own, written with ``translate`` alone, was an AttributeError), a dict read
    by ``as_glossary`` (it failed deep in the letterless texts' terms), a ConfigError for another type."""
    return as_glossary(getattr(translator, "glossary", None), f"{type(translator).__name__}.glossary")


def translated_by(translator: object, sentences: list[str],
                  weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
    """``translator.translate(sentences, weighed)``, checked once: a (texts, weights) pair of one
    text (a str) and one weights (or None) per sentence.  A user's translator that answered
    otherwise failed deep in the pipeline (zip() argument 2 is shorter than argument 1, too many
    values to unpack, 'NoneType' object is not iterable); now one ConfigError names it and what it gave."""
    answer = translator.translate(sentences, weighed)  # type: ignore[attr-defined]
    name = f"{type(translator).__name__}.translate"
    pair = (answer if isinstance(answer, tuple | list) and len(answer) == 2
            and all(isinstance(part, Iterable) and not isinstance(part, str) for part in answer) else None)
    if pair is None:
        raise ConfigError(f"{name} returned {type(answer).__name__} {answer!r:.80}, not a (texts, weights) pair: "
                          "a list of translations and a list of weights (or None), one of each per sentence")
    texts, weights = list(pair[0]), list(pair[1])
    for count, one, many in ((len(texts), "text", "texts"), (len(weights), "weights", "weights")):
        if count != len(sentences):
            raise ConfigError(f"{name} returned {count} {one if count == 1 else many} for {len(sentences)} "
                              f"sentence{'s' * (len(sentences) != 1)}: give one per sentence")
    for text in texts:
        if not isinstance(text, str):
            raise ConfigError(f"{name} returned {text!r:.80} among its texts: each translation is a str")
    return texts, weights
