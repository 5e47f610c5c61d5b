"""Whether a text is one the model is given at all: it has letters, more than one.  A text without letters
(``123``, ``12/05/2012``) or of one letter (``A``, ``(b)``) passes through as it is: given one, the model wrote a
sentence of its own ("A" came out ``Ein Mann befindet sich.``, "42" ``422.``).  The one decision that
``attnmt translate`` (attnmt.documents.letterless), the documents and the Python ``translate``
(attnmt.decoding.unread) make alike."""

from __future__ import annotations

import re
import unicodedata

# A syllable sung for its sound alone, a vowel or a consonant drawn out ("laaa", "ooooh", "mmm"); words of it, its
# syllables run together or joined by hyphens ("lalala", "na-na-na"): what a song's chorus holds where it has no words.
SYLLABLE = r"(?:[lnd]a+|doo+|du+m|dee+|bu+m|ba+|o+h+|a+h+|o+o+|who+a+|m+|h+m+|tra+|sha+|bo+p|wo+p|shoo+|fa+)"
SUNG = re.compile(rf"{SYLLABLE}+", re.IGNORECASE)
WORD = re.compile(r"[^\W\d_]+")


def has_words(text: str) -> bool:
    """Whether there is anything to translate (a letter); numbers and punctuation pass through."""
    return any(ch.isalpha() for ch in text)


def reaches_model(text: str) -> bool:
    """Whether the model is given ``text``, a sentence or a text of any format: it has letters
    (has_words), more than one (``is_one_letter``).  Any other (``123``, ``A``, ``(b)``) passes
    through as it is, but for its glossary's terms (attnmt.documents.letterless.with_terms): a plain
    text line or a JSONL line of one letter as a document's heading of one letter is (the model wrote
    ``Ein Mann befindet sich.`` for "A"), and a text of sung syllables alone (``is_sung``)."""
    return has_words(text) and not is_one_letter(text) and not is_sung(text)


def is_sung(text: str) -> bool:
    """Whether ``text``'s words are syllables sung for their sound alone (``SYLLABLE``), two words at least or one of
    three: ``La la la``, ``Na-na-na-na``, ``Ooh, ooh``, ``lalala``; not ``Oh.``, an interjection the model translates,
    nor a word that reads as two (``Lola``, ``Doom``).  Such a chorus (a lyric's ``♪ La la la ♪``) is no language's
    words, and a subtitler leaves it as it is sung; the demo model wrote ``Eine Frau mit einem T-Shirt schneidet``."""
    words = WORD.findall(text)
    return all(SUNG.fullmatch(word) for word in words) and (
        len(words) > 1 or any(re.fullmatch(rf"{SYLLABLE}{{3,}}", word, re.IGNORECASE) for word in words))


def is_one_letter(text: str) -> bool:
    """Whether ``text`` is one letter, with punctuation or symbols around it but no other letter or
    digit (``A``, ``A.``, ``(b)``, an alt's ``T``): a label (an index's heading, a list's item, a
    drop cap's picture), no sentence.  Given one, the model wrote a sentence of its own ("A" came
    out ``Ein Mann befindet sich.``, "B" ``Dieses.``).  An ideograph or a Hangul syllable alone
    (``猫``, ``네``) is a word, and is translated."""
    letters = [character for character in text if character.isalnum()]
    return len(letters) == 1 and letters[0].isalpha() and not is_word_sign(letters[0])


def is_word_sign(character: str) -> bool:
    """Whether ``character`` is a word of its own where it is written: an ideograph (Chinese,
    Japanese kanji) or a Hangul syllable block."""
    name = unicodedata.name(character, "")
    return "IDEOGRAPH" in name or name.startswith("HANGUL SYLLABLE")
