"""What shows nothing: the characters no piece stands for (``dropped``: spaces, and those
SentencePiece's normalisation leaves out), and texts made of them alone (``blank``), which hold
nothing to translate.  One rule for the quality flags, word probabilities, alignments and
``score``'s checks."""

from __future__ import annotations

import unicodedata


def dropped(character: str) -> bool:
    """Whether ``character`` is one no piece stands for: a space, or one SentencePiece's
    normalisation leaves out (a control character, an invisible format character, U+FFFD) that
    ``str.split`` may still count as a word of its own (``the \\x01 dog``: "▁dog" spans "\\x01 dog")."""
    return character.isspace() or character == "\ufffd" or unicodedata.category(character) in ("Cc", "Cf")


def blank(text: str) -> bool:
    """Whether ``text`` shows nothing: every character a space or ``dropped`` (a zero-width space,
    a word joiner, a soft hyphen, a byte order mark), so that it holds nothing to translate, as a
    line of spaces does.  str.strip() keeps the invisible ones, which the model reads as no piece
    or as an unknown one: a translation of a zero-width space alone was read as a text, not as empty."""
    return all(map(dropped, text))
