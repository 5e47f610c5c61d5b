"""What of a sentence given to ``translate`` the model does not read, kept as ``attnmt translate`` keeps it in a
line (attnmt.documents.pipeline.flat_line) or a JSONL text (attnmt.documents.whole_sentence.flat_whole), so that
the same text comes back the same from either: a list's mark at its start (``- ``, ``1) ``:
attnmt.text.list_marks) and a speaker's label after it or in its place (``ANNA: ``: attnmt.text.speaker_labels),
and a terminal's escape codes at its edges (attnmt.text.terminal_codes.at_edges) are written back around its
translation; its soft hyphens and the zero-width breaks inside its words are dropped.
The Python call wrote "- A dog runs in the park." as "Ein Hund rennt im Park." and "A man is play\\u00ading the
gui\\u00adtar." as "Ein Mann spielt Ausspprüssssen.", where the command wrote "- Ein Hund rennt im Park." and
"Ein Mann spielt Gitarre.".

A run of symbols the model's vocabulary cannot write that stands apart at a sentence's start or end (an emoji, a
quote's ">") is kept around its translation too, as a text line keeps it (attnmt.documents.symbols): the model,
which reads it as unknown, wrote "🎉 A group of people are celebrating." as "Eine Gruppe von Personen feiert.".

A pair of quotes or brackets around a whole sentence (``quoted_edges``) is read apart from it too, by every search
(attnmt.decoding.capitals.read_as, written_as): the demo model read '"Two dogs play in the snow."' as "Auf dem
Schnee.", its quotes and most of its words lost.

A terminal's codes between a sentence's words stay in what the model reads: placing them in the translation
takes its word alignment (attnmt.inspect.align), which this layer does not import; attnmt.documents.translate_text
places them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from attnmt.decoding.word_edges import unspaced
from attnmt.text.letters import reaches_model
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.speaker_labels import dialogue, speaker_label
from attnmt.text.terminal_codes import Edges, at_edges

# A soft hyphen (U+00AD: HTML's &shy;, OpenDocument's, a slide's) says where its word may break at a
# line's end: stale once the word is translated, and a piece the model has never seen.
SOFT_HYPHEN = "\u00ad"
# So are a zero-width space (U+200B) and a word joiner (U+2060) inside a word of a script written with
# spaces, a break allowed or forbidden there ("do\u200bg"), which the tokenizer reads as a space or as
# a piece: "A brown do\u200bg is running." came out "Ein braun-Fahrer rennt auf dem Kopf.".  Between
# letters written without spaces (Thai, Khmer) a zero-width space parts words, and stays.
ZERO_WIDTH_IN_WORD = re.compile(r"(?<=[^\W\d_])[\u200b\u2060]+(?=[^\W\d_])")
# A run of symbols and punctuation (an emoji with its joiners, ">", "→") apart from the words at a sentence's
# start or end, with the spaces between it and them.
LEADING_SYMBOLS = re.compile(r"(?P<run>[^\w\s]+)\s+")
TRAILING_SYMBOLS = re.compile(r"\s+(?P<run>[^\w\s]+)$")
# The marks that open a quotation, an aside or a caption's sound description ("[DOOR SLAMS]", "[dog barking]": the
# demo model wrote them "HÄNNER KRANKENSCHWESTERN", "Wolbebebe…", their brackets lost), each with the one that closes
# it: not "{" (a template's placeholder), which a sentence wraps itself in for other reasons.
PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "„": "“", "‚": "‘", "«": "»", "»": "«", "‹": "›", "(": ")",
         "[": "]"}


def sentence_edges(sentence: str, speakers: frozenset[str] = frozenset()) -> Edges:
    """``sentence``'s list mark, then its speaker's label (one of the dialogue's ``speakers`` too), with the spaces
    around them, then the codes at its start, as its ``head``; the codes at its end as its ``tail``: "- \\x1b[1mA
    dog runs.\\x1b[0m" is ("- \\x1b[1m", "A dog runs.", "\\x1b[0m"), "- ANNA: Hi." ("- ANNA: ", "Hi.", "")."""
    mark = LIST_MARK.match(sentence)
    start = len(sentence) - len(sentence[mark.end("mark"):].lstrip(" \t")) if mark else 0  # spaces, then more
    if label := speaker_label(sentence[start:], speakers):
        start += len(sentence[start:]) - len(sentence[start + label.end("label"):].lstrip(" \t"))
    if start == 0:
        return at_edges(sentence)
    inner = at_edges(sentence[start:])
    return Edges(sentence[:start] + inner.head, inner.body, inner.tail)


def symbol_edges(edges: Edges, writes: Callable[[str], bool]) -> Edges:
    """``edges`` with each run of symbols at its body's start or end that the vocabulary cannot write (``writes``:
    attnmt.decoding.inputs.writes_whole) moved into its head or tail, where a sentence the model is given is left:
    "🎉 A dog runs. 👍" is ("🎉 ", "A dog runs.", " 👍")."""
    head, body, tail = edges
    while (run := LEADING_SYMBOLS.match(body)) and not writes(run["run"]) and reaches_model(body[run.end():]):
        head, body = head + run[0], body[run.end():]
    while (run := TRAILING_SYMBOLS.search(body)) and not writes(run["run"]) and reaches_model(body[:run.start()]):
        body, tail = body[:run.start()], run[0] + tail
    return Edges(head, body, tail)


def read_sentences(sentences: Sequence[str], writes: Callable[[str], bool] | None = None
                   ) -> tuple[list[Edges], list[str]]:
    """Each sentence's edges (``sentence_edges``, the labels of a dialogue they take turns in too: "Anna:" of "Anna:
    Hi." / "Tom: Hello." / "Anna: Bye.", and ``symbol_edges`` where the vocabulary's ``writes`` is given),
    and what of it the model reads: its body, less its soft hyphens and the zero-width breaks inside its words
    (``without_word_breaks``), as a text line's (attnmt.documents.flat)."""
    speakers = dialogue(sentences)
    edges = [symbol_edges(sentence_edges(each, speakers), writes) if writes else sentence_edges(each, speakers)
             for each in sentences]
    return edges, [without_word_breaks(each.body.replace(SOFT_HYPHEN, "")) for each in edges]


def without_word_breaks(text: str) -> str:
    """``text`` without the zero-width spaces and word joiners between two letters of scripts written
    with spaces (``ZERO_WIDTH_IN_WORD``)."""
    if "\u200b" not in text and "\u2060" not in text:
        return text
    return ZERO_WIDTH_IN_WORD.sub(lambda m: m[0] if unspaced(text[m.start() - 1]) or unspaced(text[m.end()]) else "",
                                  text)


def quoted_edges(sentence: str) -> Edges | None:
    """``sentence`` as (its spaces and opening mark, what the marks wrap, its closing mark and spaces), where one pair
    of ``PAIRS`` wraps all of it, glued to the words it wraps, and neither mark stands inside but as an apostrophe
    between letters: '"Two dogs play."' is ('"', 'Two dogs play.', '"'); None for '"Yes," he said, "go."'."""
    said = sentence.strip()
    if len(said) < 3 or PAIRS.get(said[0]) != said[-1] or not reaches_model(inner := said[1:-1]):
        return None
    if inner != inner.strip() or any(character in (said[0], said[-1]) and not apostrophe(inner, at)
                                     for at, character in enumerate(inner)):
        return None
    opening = len(sentence) - len(sentence.lstrip()) + 1
    return Edges(sentence[:opening], inner, sentence[opening + len(inner):])


def apostrophe(text: str, at: int) -> bool:
    """Whether ``text[at]`` stands between two letters, as an apostrophe does ("it's", "it’s")."""
    return 0 < at < len(text) - 1 and text[at - 1].isalpha() and text[at + 1].isalpha()
