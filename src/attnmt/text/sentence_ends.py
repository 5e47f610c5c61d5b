"""How a translation ends as its source sentence ends, read from the marks at their ends alone: without the stop
a model trained on whole sentences writes after every one, where the source ends in no mark (a title, a button's
"Save changes"), and with the source's ellipsis, question or exclamation mark where the model wrote a stop for
it.  A text line's sentence (attnmt.documents.stops), ``attnmt.translate``'s (attnmt.documents.sentence_translate)
and each part of a sentence cut at its tabs, line breaks and opening sound descriptions
(attnmt.decoding.sentence_parts) end so."""

from __future__ import annotations

import re
import unicodedata

# What ends a sentence, in the atoms that can end one (attnmt.documents.stops.without_added_end): Latin,
# Chinese and Japanese, Arabic (؟), Urdu (۔), Devanagari (। ॥), Armenian (։), Ethiopic (።), and doubled marks.
SENTENCE_ENDS = ".!?…。！？؟۔।॥։።‼⁇⁈⁉"
CLOSING_CATEGORIES = ("Pe", "Pf", "Pi")  # Unicode's closing brackets, final and initial quotes
STOPS = ".。"  # a full stop, which a model trained on whole sentences writes after every one
ENDS = ".!?…:;,。！？"  # a mark that ends a line of text as its writer meant it
PAUSES = ":;,"  # of ENDS, those that end no sentence: a line's before what follows it (with_source_pause)
ASKED = "?!？！؟‼⁇⁈⁉"  # of SENTENCE_ENDS, those of a question or an exclamation (with_source_mark)
ELLIPSIS = re.compile(r"(?:\.\.\.|…)$")  # a line that trails off
ELLIPSES = re.compile(r"\.\.\.|…")


def closing_length(text: str) -> int:
    """How many characters at the end of ``text`` are quotes and brackets that close it (``"``,
    ``)``, ``»``, ``“``), spaces among them counted."""
    kept = len(text)
    while kept and (text[kept - 1] in "\"'" or text[kept - 1].isspace()
                    or unicodedata.category(text[kept - 1]) in CLOSING_CATEGORIES):
        kept -= 1
    return len(text) - kept


def ended_as_source(source: str, translation: str) -> str:
    """``translation`` ending as ``source``, a sentence read whole, ends: with its ellipsis where its words end in a
    mark (``with_source_ellipsis``), else without the full stop the model added (``without_added_stop``).  The rule
    of a sentence no atom ends (``without_added_end``), and of ``attnmt.translate``'s (sentence_translate.written)."""
    tail = symbols_tail(source)
    if tail and symbols_tail(translation) == tail:  # read inside its notes: "(♪ soft music ♪)"
        return ended_as_source(source[:-len(tail)], translation[:-len(tail)]) + tail
    said = source.rstrip()
    if said[:len(said) - closing_length(said)].rstrip()[-1:] in SENTENCE_ENDS:
        return with_source_ellipsis(source, with_source_mark(source, translation))
    return with_source_pause(source, without_added_stop(source, translation))


def symbols_tail(text: str) -> str:
    """What of ``text``'s end is symbols (Unicode's So: "♪", an emoji) and the spaces and closing quotes and brackets
    among and after them (``closing_length``'s), one symbol at least: " ♪)" of "(♪ Die Band spielt. ♪)", where the
    stop the model added stands before the notes a description of music closes with (sentence_parts: "[♪ upbeat
    music ♪]" came back "[♪ Ein Musiker singt. ♪]"); "" for none."""
    kept = len(text)
    while kept and (unicodedata.category(text[kept - 1]) == "So" or closing_length(text[kept - 1])):
        kept -= 1
    return text[kept:] if any(unicodedata.category(character) == "So" for character in text[kept:]) else ""


def with_source_mark(source: str, translation: str) -> str:
    """``translation`` ending in ``source``'s question or exclamation marks (``ASKED``) where the model wrote a full
    stop for them: "Does a man walk?" came back "Ein Mann geht an einem Mann vorbei.", a question told as a statement,
    and "A cat sleeps!" "Eine Katze schläft.".  After a Latin full stop a full-width mark is written as Latin text
    writes it ("？" as "?": NFKC).  Read inside the quotes and brackets that close each; an ellipsis the model wrote
    stays, and so does a stop after a mark inside its closing quotes ('"Ist es weit?".')."""
    said, written = source.rstrip(), translation.rstrip()
    said, words = said[:len(said) - closing_length(said)].rstrip(), written[:len(written) - closing_length(written)]
    marks, before = said[len(said.rstrip(ASKED)):], words[:-1].rstrip()
    if not marks or not words[-1:] or words[-1] not in STOPS or ELLIPSIS.search(words):
        return translation
    if before[:len(before) - closing_length(before)].rstrip()[-1:] in SENTENCE_ENDS:  # '"Ist es weit?".'
        return translation
    written_marks = unicodedata.normalize("NFKC", marks) if words[-1] == "." else marks
    return words[:-1] + written_marks + translation[len(words):]


def with_source_pause(source: str, translation: str) -> str:
    """``translation`` ending in ``source``'s colon, semicolon or comma (``PAUSES``) where the model wrote a full stop
    for it: a line that opens what follows ("Dear team," "Step 1:", a field's "Name:" before its tab) came back
    "Liebes Team." "Schritt 1." "Name.", the colon the reader needs lost.  Read inside the quotes and brackets that
    close each; an ellipsis or another mark the model wrote stays, and a stop after the source's own mark goes
    ("Liebes Team,." is "Liebes Team,", not "Liebes Team,,").  The spaces before the source's mark come with it
    (French writes "Prix :", "Ingrédients :"), which "PLAYERS : 2-4" lost, read as "PLAYERS :" without its number."""
    said, written = source.rstrip(), translation.rstrip()
    said, words = said[:len(said) - closing_length(said)].rstrip(), written[:len(written) - closing_length(written)]
    if said[-1:] and said[-1] in PAUSES and words[-1:] and words[-1] in STOPS and not ELLIPSIS.search(words):
        if words[:-1].endswith(said[-1]):  # the model wrote the mark and a stop after it: the stop goes
            return words[:-1] + translation[len(words):]
        spaces = said[len(said[:-1].rstrip()):-1]
        return words[:-1].rstrip() + spaces + said[-1] + translation[len(words):]
    return translation


def without_added_stop(source: str, translation: str) -> str:
    """``translation`` without the full stop (``STOPS``) the model ended it with, where ``source`` ends in no mark
    (``ENDS``): a page's ``<title>A dog in the park</title>`` came back ``Ein Hund im Park.``, and a user
    interface's "Save changes" with a stop it never had.  Read inside the quotes and brackets that close each (its
    ``closing_length``): "(optional)" came back "(Bei einem Kampffeld.)".  An ellipsis the model wrote stays whole."""
    said, written = source.rstrip(), translation.rstrip()
    said, words = said[:len(said) - closing_length(said)], written[:len(written) - closing_length(written)]
    if said and words and words[-1] in STOPS and said[-1] not in ENDS and not ELLIPSIS.search(words):
        return words[:-1] + translation[len(words):]
    return translation


def with_source_ellipsis(source: str, translation: str) -> str:
    """``translation`` ending in ``source``'s ellipsis where the model wrote a full stop or no mark for it:
    "Loading..." came back "Ein Cumma.", "A dog runs…" "Ein Hund rennt."; any other mark as the model wrote it."""
    said, written = source.rstrip(), translation.rstrip()
    trailing = ELLIPSIS.search(said)
    if not trailing or not written or ELLIPSIS.search(written) or (written[-1] in ENDS and written[-1] not in STOPS):
        return translation
    if len(ELLIPSES.findall(written)) >= len(ELLIPSES.findall(said)):  # the model wrote it elsewhere: "AS... SAVE"
        return translation
    return (written[:-1] if written[-1] in STOPS else written) + trailing[0] + translation[len(written):]
