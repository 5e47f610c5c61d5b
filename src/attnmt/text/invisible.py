"""What shows nothing: the characters no piece stands for (``dropped``: spaces, and those
SentencePiece's normalisation leaves out), and texts made of them alone (``blank``), which hold
nothing to translate; of them, those that take no room either (``invisible``), which glossary
matching reads past, and those the model reads as a space all the same (``SPACING``).  One rule
for the quality flags, word probabilities, alignments, ``score``'s checks and glossary terms.
And the form the quality flags' words and glossary terms are compared in (``folded``), and a text without its
accents (``unaccented``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable


def dropped(character: str) -> bool:
    """Whether ``character`` is one no piece stands for: a space, or one SentencePiece's
    normalisation leaves out (a control character, an invisible format character, U+FFFD) that
    ``str.split`` may still count as a word of its own (``the \\x01 dog``: "▁dog" spans "\\x01 dog")."""
    return character.isspace() or character == "\ufffd" or invisible(character)


def invisible(character: str) -> bool:
    """Whether ``character`` shows nothing and takes no room, no space: a control or format
    character (Unicode's Cc and Cf: a zero-width space, a (non-)joiner, a word joiner, a soft
    hyphen, a byte order mark, a direction mark) that is not a space (a TAB, a line break are)."""
    return not character.isspace() and unicodedata.category(character) in ("Cc", "Cf")


# The invisible characters SentencePiece's normalisation (nmt_nfkc, as attnmt trains its models)
# turns into a space, found with sentencepiece itself over every Cc and Cf character: the Arabic
# letter mark, the zero-width space and non-joiner, the two direction marks and the byte order
# mark.  The model reads "a\u200bdog" as the two words "a dog"; the other invisible characters it
# leaves out or keeps as a piece inside the word ("do\u2060g", "co\u00adop").
SPACING = frozenset("\u061c\u200b\u200c\u200e\u200f\ufeff")
# The white space SentencePiece's normalisation (nmt_nfkc) leaves out, found with sentencepiece itself over
# every character str.isspace knows: the vertical tab, the file, group, record and unit separators (what
# spreadsheet and terminal tools part fields and records with), which it drops, and NEL, which it reads as
# an unknown piece.  "one\x0btwo" reached the model as "onetwo": the tokenizers read each as a space
# (``spaced``), one character for one, so that a piece's place in the text given stays where it was.
UNREAD_SPACES = re.compile("[\x0b\x1c-\x1f\x85]")
# The controls that wrap a run of text of another direction (a Latin name in Hebrew or Arabic):
# embeddings and overrides, isolates, and the characters that close them (attnmt.documents.bidi).
ISOLATES = "\u2066\u2067\u2068"  # LRI, RLI, FSI
CLOSE_ISOLATE = "\u2069"  # PDI
EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE, RLE, LRO, RLO
CLOSE_EMBEDDING = "\u202c"  # PDF
DIRECTION_RUNS = frozenset(ISOLATES + CLOSE_ISOLATE + EMBEDDINGS + CLOSE_EMBEDDING)


def spaced(text: str) -> str:
    """``text`` with each space the model's tokenizer would leave out (``UNREAD_SPACES``) a plain space."""
    return UNREAD_SPACES.sub(" ", text)


def folded(text: str, fold: Callable[[str], str] = str.casefold) -> str:
    """``text`` as the model reads it, case aside: in NFKC (as SentencePiece gives the text to it: "café"
    with a combining accent is "café", full-width "ＤＯＧ" is "DOG"), case-folded (``fold``; ``str``
    keeps the case), NFKC again (folding can leave characters that compose)."""
    return unicodedata.normalize("NFKC", fold(unicodedata.normalize("NFKC", text)))


def unaccented(text: str) -> str:
    """``text`` in NFKD without its combining marks: "Zürich" is "Zurich", "À éviter" "A eviter"."""
    return "".join(character for character in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(character))


def blank(text: str) -> bool:
    """Whether ``text`` shows nothing: every character a space or ``dropped`` (a zero-width space,
    a word joiner, a soft hyphen, a byte order mark), so that it holds nothing to translate, as a
    line of spaces does.  str.strip() keeps the invisible ones, which the model reads as no piece
    or as an unknown one: a translation of a zero-width space alone was read as a text, not as empty."""
    return all(map(dropped, text))
