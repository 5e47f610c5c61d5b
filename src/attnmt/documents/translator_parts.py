"""What a document's translator may answer besides its translations (the Translator protocol of
attnmt.documents.translators leaves each optional): the glossary its translations use, whether the
model reads a sentence whole (``fits``), whether its vocabulary writes a symbol (``writes``) and how
plausible it finds a translation (``plausibility``); and its translations themselves, checked once
(``translated_by``) and made fit for XML (``xml_text``); and a translator checked before a document is
read (``check_translator``)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from numbers import Real
from typing import Any, TypeGuard

from attnmt.decoding.garbled_labels import Plausibility
from attnmt.decoding.glossary import Glossary, as_glossary
from attnmt.decoding.inputs import longest_part, reads_whole
from attnmt.documents.spans import Weights
from attnmt.documents.xstring import CONTROLS
from attnmt.errors import ConfigError

# What a translation written into XML may not hold: the characters XML 1.0 cannot, which SentencePiece's
# normalisation leaves out of what a model reads and so writes none of (a user's translator's are left out
# too, in a run, but for those its sentence holds, which the format it was read from writes again: an Excel
# cell's _x0007_), and a surrogate alone, which no encoding writes (a user's translator's that cut an emoji in
# two, "\ud83d"): the file was a UnicodeEncodeError.  Only where XML is written (ForXml): the server's stream
# marks its place in a plain text's translation with one (attnmt.server.streaming).  Two that make a pair are
# the one character they stand for (PAIR).
LEFT_OUT = re.compile(f"[{CONTROLS}\ud800-\udfff]+")
PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


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




def translator_plausibility(translator: object) -> Plausibility | None:
    """``translator``'s ``plausibility`` (ModelTranslator.plausibility), which the Translator protocol leaves
    optional: None for a translator without one (a user's own, translations already found), whose
    translations are then taken as they come (attnmt.documents.short_labels)."""
    return getattr(translator, "plausibility", None)


# sentences, the translations written in place of the model's -> None (ModelTranslator.rewritten)
Rewritten = Callable[[Sequence[str], Sequence[str]], None]


def translator_rewritten(translator: object) -> Rewritten | None:
    """``translator``'s ``rewritten`` (ModelTranslator.rewritten), which a translator that assesses nothing lacks."""
    return getattr(translator, "rewritten", None)


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
    """``translator``'s ``checked_answer``, and where a sentence is ``weighed`` but its weights are None,
    ``in_order``'s in their place."""
    texts, weights = checked_answer(translator, sentences, weighed)
    # No weights where a mark needs them (a user's translator that gives None): the words
    # aligned by their order.  Without any, a mark over words went empty to its sentence's end (rule 2 of
    # attnmt.documents.spans): "A <b>big</b> dog" came back "A BIG DOG<b></b>", its formatting lost.
    return texts, [in_order(sentence, text) if each is None and wanted else each
                   for sentence, text, each, wanted in zip(sentences, texts, weights, weighed, strict=True)]


def checked_answer(translator: object, sentences: list[str],
                   weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
    """``translator.translate(sentences, weighed)``, checked once: a (texts, weights) pair of one
    text (a str) and one weights (or None) per sentence.  A user's translator that answered
    otherwise failed deep in the pipeline (zip() argument 2 is shorter than argument 1, too many
    values to unpack, 'NoneType' object is not iterable); now one ConfigError names it and what it gave.
    So do a text and weights no document can take (``checked_text``, ``checked_weights``)."""
    given = translator.translate(sentences, weighed)  # type: ignore[attr-defined]
    name = f"{type(translator).__name__}.translate"
    pair = (given if isinstance(given, tuple | list) and len(given) == 2
            and all(isinstance(part, Iterable) and not isinstance(part, str) for part in given) else None)
    if pair is None:
        typed = shown(given) if shaped(given) else f"{type(given).__name__} {shown(given)}"
        raise ConfigError(f"{name} returned {typed}, not a (texts, weights) pair: "
                          "a list of translations and a list of weights (or None), one of each per sentence")
    texts, weights = list(pair[0]), list(pair[1])
    for count, one, many in ((len(texts), "text", "texts"), (len(weights), "weights", "weights")):
        if count != len(sentences):
            raise ConfigError(f"{name} returned {count} {one if count == 1 else many} for {len(sentences)} "
                              f"sentence{'s' * (len(sentences) != 1)}: give one per sentence")
    return [checked_text(name, text) for text in texts], [checked_weights(name, each) for each in weights]


def checked_text(name: str, text: object) -> str:
    """One translation as ``name`` gave it; a ConfigError for one that is no str."""
    if not isinstance(text, str):
        raise ConfigError(f"{name} returned {shown(text)} among its texts: each translation is a str")
    return text


def xml_text(sentence: str, text: str) -> str:
    """``text``, a translation of ``sentence`` to be written into XML, its surrogate pairs joined, less the
    characters in ``LEFT_OUT`` that the sentence does not hold (lxml refused the page: "All strings must be
    XML compatible").  A run of them between two words is a space, as a vertical tab or form feed there
    shows: left out, the two words became one ("BIG\\x0bDOG" read "BIGDOG")."""
    def kept(found: re.Match[str]) -> str:
        held = "".join(character for character in found.group() if character in sentence)
        start, end = found.span()
        between = 0 < start and end < len(text) and not text[start - 1].isspace() and not text[end].isspace()
        return held or (" " if between else "")

    text = PAIR.sub(lambda pair: pair.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), text)
    return LEFT_OUT.sub(kept, text)


def checked_weights(name: str, weights: object) -> Weights | None:
    """One sentence's weights as ``name`` gave them (None, or rows of numbers: attnmt.documents.spans.Weights),
    as lists of floats; a ConfigError for anything else (a str, or a row of them, was a TypeError in spans).
    A tensor or array is read as the lists its ``tolist()`` gives, in place of the weights, a row or a number:
    a 2-D tensor, as a model's cross-attention is, was refused, and a 1-D one was a TypeError ("iteration
    over a 0-d tensor"); one of another shape is refused as those lists are."""
    if weights is None:
        return None
    found: list[list[float]] = []
    rows = as_lists(weights)
    for row in map(as_lists, rows) if listed(rows) else [None]:
        values = list(row) if listed(row) else [None]
        if all_finite_floats(values):  # a model's rows (Tensor.tolist()): no per-weight isinstance of an ABC
            found.append(values)
            continue
        values = [as_lists(value) for value in values]
        if not all(isinstance(value, Real) and math.isfinite(value) for value in values):
            raise ConfigError(f"{name} returned {shown(weights)} as a sentence's weights: give None, or a list of "
                              "rows (a 2-D tensor), one per word of the translation, of finite numbers, its "
                              "attention to each source word")
        found.append([float(value) for value in values if isinstance(value, Real)])
    return found


def as_lists(value: object) -> object:
    """``value`` as plain Python: a tensor's or an array's ``tolist()`` (nested lists, or a number for
    one of no dimensions), anything else as it is."""
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


def shown(value: object) -> str:
    """``value`` for a one-line message: a tensor or an array by its type and shape (its repr spans
    lines), anything else by its repr, at most 80 characters, on one line."""
    if shaped(value):
        return f"{type(value).__name__} of shape {tuple(value.shape)}"
    return " ".join(repr(value).splitlines())[:80]


def shaped(value: object) -> TypeGuard[Any]:
    """Whether ``value`` is a tensor or an array, whose ``shape`` is a tuple (torch.Size is one)."""
    return isinstance(getattr(value, "shape", None), tuple)


def all_finite_floats(values: Sequence[object]) -> TypeGuard[list[float]]:
    """Whether ``values`` are all finite floats of the type float itself, checked at C speed (a sentence
    of 5,000 words has 25 million weights: ``isinstance(value, Real)`` on each took a minute)."""
    return set(map(type, values)) <= {float} and all(map(math.isfinite, values))  # type: ignore[arg-type]


def listed(value: object) -> TypeGuard[Iterable[object]]:
    """Whether ``value`` holds items, as a list, tuple or array does (a str or bytes is one text)."""
    return isinstance(value, Iterable) and not isinstance(value, str | bytes)


def in_order(source: str, translation: str) -> Weights:
    """Word weights [target word][source word] for a translation given without any: the t-th of its
    T words aligned to the source word at the same place among the S, the ((2t + 1) S // 2T)-th (the
    words split at whitespace), so that "A <b>big</b> dog" translated "A BIG DOG" has "BIG" bold."""
    sources, targets = len(source.split()), len(translation.split())
    return [[float(k == (2 * t + 1) * sources // (2 * targets)) for k in range(sources)] for t in range(targets)]


def check_translator(translator: object) -> None:
    """One clear error for a ``translator`` without a ``translate`` method (None, or a model handed as it
    is, was an AttributeError deep in the document), before the document is read."""
    if not callable(getattr(translator, "translate", None)):
        raise ConfigError(f"translator: expected a Translator, with translate(sentences, weighed), got "
                          f"{type(translator).__name__}; a model goes in "
                          "attnmt.documents.translators.ModelTranslator(model, tokenizer)")
