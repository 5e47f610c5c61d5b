"""DeepL's options on how a plain text is read and written back, as its clients send them.

    split_of      ``split_sentences`` as sent, one of DeepL's values (400 in DeepL's words for another), or its default
    as_split      ``split_sentences`` ``nonewlines`` or ``0``: a line break inside a sentence read as a space
    line_breaks   how line breaks are read (LineBreaks): a line alone with ``split_sentences`` ``1`` (DeepL's default
                  but for ``tag_handling=html``), in a plain text as in an XML or HTML element's text
    preserved     ``preserve_formatting`` as sent, on or off (400 in DeepL's words for another value)
    as_formatted  ``preserve_formatting``: each line ends in a full stop where its source line does, and only there
                  (in its ellipsis), starts with a letter in its case and keeps the quotes or brackets around it

DeepL splits a text at punctuation and at line breaks, unless told to split at punctuation only
(deepl-python's SplitSentences.NO_NEWLINES and OFF, deepl-node's "nonewlines" and "off", sent as
"nonewlines" and "0"); attnmt's models still get one sentence at a time.
"""

from __future__ import annotations

import re

from attnmt.server.api_errors import DeepLError
from attnmt.server.markup_texts import LineBreaks
from attnmt.text.sentence_ends import ENDS, STOPS, with_source_ellipsis, without_added_stop

SPLITS = ("0", "1", "nonewlines")  # DeepL's split_sentences values; "1" splits at line breaks too
NO_NEWLINES = ("nonewlines", "0")
# A line break inside a sentence: after a line ending in no mark that ends one (a quote or bracket may
# close it), before a line of text; a blank line (a paragraph's end) is none
WRAPPED = re.compile(r"(?<![.!?…:;])(?<![.!?…:;][\"'”’»)\]])(?<!\s)[ \t]*\r?\n[ \t]*(?=\S)")
# preserve_formatting as deepl-python (JSON true) and deepl-node (a form's "1") send it, on and off (a JSON
# number 1 or 0 equals True or False)
PRESERVED = (True, "1", "true")
NOT_PRESERVED = (None, "", False, "0", "false")
# A line's first word, up to a space, where it starts with a letter (after spaces, quotes, brackets, a bullet), not
# a number: a compound's capitals after a hyphen ("E-Mail-Adresse") are the word's own
FIRST_WORD = re.compile(r"^[\W_]*([^\W\d_]\S*)")
# The marks that open a quotation or an aside, each with the one that closes it
PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "„": "“", "‚": "‘", "«": "»", "»": "«", "‹": "›", "「": "」",
         "『": "』", "(": ")", "[": "]", "{": "}"}
CLOSING = "".join(PAIRS.values())
SENTENCE_GAP = re.compile(r"((?<=[.!?…。！？])\s+)")  # the spaces after a sentence's end, kept by re.split


def split_of(params: dict) -> str:
    """DeepL's ``split_sentences`` as sent, a JSON number 0 or 1 as its digit, or where none is DeepL's default for
    the ``tag_handling`` sent ("nonewlines" for ``html``, as its documentation's "HTML handling" says, else "1");
    400 in DeepL's words, naming the parameter, for another value.  "2" or "yes" was read as "1", as DeepL's
    default: the text split at its line breaks, which its sender may have meant to turn off."""
    value = params.get("split_sentences")
    if value is None or value == "":
        return "nonewlines" if params.get("tag_handling") == "html" else "1"
    sent = str(value) if type(value) is int else value
    if sent not in SPLITS:
        raise DeepLError(400, f"Value for 'split_sentences' not supported: {value!r} (0, 1 or nonewlines)")
    return sent


def as_split(texts: list[str], params: dict) -> list[str]:
    """``texts`` as DeepL's ``split_sentences`` reads them: with ``nonewlines`` or ``0``, each line
    break inside a sentence (WRAPPED) a space.  A sentence wrapped over two lines (copied from a PDF or
    an e-mail) was translated as two halves ("Ein Mann steht." / "Eine Leiter ...")."""
    if split_of(params) not in NO_NEWLINES:
        return texts
    return [WRAPPED.sub(" ", text) for text in texts]


def line_breaks(params: dict) -> LineBreaks:
    """How ``split_sentences`` reads line breaks: ALONE where it splits at them too (``1``), as DeepL reads them in
    an XML or HTML element's text as in a plain text, else SPACES.  ``<p>A man walks in the park\nand a woman
    reads.</p>`` was translated as one sentence, its line break a space, with ``tag_handling=xml`` and with
    ``tag_handling=html`` where the request sent ``split_sentences=1`` (``html``'s default is ``nonewlines``)."""
    return LineBreaks.SPACES if split_of(params) in NO_NEWLINES else LineBreaks.ALONE


def preserved(params: dict) -> bool:
    """Whether ``preserve_formatting`` is on; 400 in DeepL's words, naming the parameter, for a value that is
    neither on nor off: "yes" was read as off, and the line's case and full stop changed where its sender
    asked they be kept."""
    value = params.get("preserve_formatting")
    if value not in PRESERVED and value not in NOT_PRESERVED:
        raise DeepLError(400, f"Value for 'preserve_formatting' not supported: {value!r} (0 or 1, true or false)")
    return value in PRESERVED


def as_formatted(texts: list[str], translations: list[str], params: dict) -> list[str]:
    """``translations`` with ``preserve_formatting``: each line's end as its source line's (``end_kept``),
    its first letter's case (``start_kept``) and the marks around it (``line_kept``), line by line where a
    translation has its text's lines, else at the text's ends.  A user interface's "Save changes" came back
    "Änderungen speichern.", a full stop its source never had; a chat's "hello world." came back "Hallo Welt.",
    a capital it never had."""
    if not preserved(params):
        return translations
    return [lines_kept(text, translation) for text, translation in zip(texts, translations, strict=True)]


def lines_kept(text: str, translation: str) -> str:
    sources, lines = text.split("\n"), translation.split("\n")
    if len(sources) != len(lines):
        sources, lines = [text], [translation]
    return "\n".join(line_kept(source, line) for source, line in zip(sources, lines, strict=True))


def line_kept(source: str, translation: str) -> str:
    """``translation`` with its source line's first letter's case and end (``start_kept``, ``end_kept``), and
    the quotes or brackets around the whole source line (``PAIRS``) around it where the model wrote no such
    marks at either end: a quoted line, ``"two dogs play in the snow"``, came back without its quotes."""
    said, written = source.strip(), translation.strip()
    wrapped = len(said) > 1 and PAIRS.get(said[0]) == said[-1]
    if not wrapped or not written or written[0] in PAIRS or written[-1] in CLOSING:
        return end_kept(source, starts_kept(source, translation))
    inner = said[1:-1]
    before, after = translation[:len(translation) - len(translation.lstrip())], translation[len(translation.rstrip()):]
    return before + said[0] + end_kept(inner, starts_kept(inner, written)) + said[-1] + after


def end_kept(source: str, translation: str) -> str:
    """``translation`` without the full stop its ``source`` does not end in, or with the one the
    model left out, or with the source's ellipsis for the model's full stop ("a man is riding a bike..."
    came back "... Fahrrad."); any other mark, and the spaces after the last one, as the model wrote them."""
    said, written = source.rstrip(), translation.rstrip()
    spaces = translation[len(written):]
    if not said or not written:
        return translation
    if (trailing := with_source_ellipsis(said, translation)) != translation:
        return trailing
    if (shorter := without_added_stop(said, translation)) != translation:
        return shorter
    if said[-1] in STOPS and written[-1] not in ENDS:
        return written + said[-1] + spaces
    return translation


def starts_kept(source: str, translation: str) -> str:
    """``translation`` with each sentence's first letter in the case of its source sentence's (``start_kept``),
    where it has as many sentences as ``source``; else its first alone.  A chat's "hey. how are you?" came back
    "hey. Wie geht es dir?", the second sentence's capital one its writer never typed."""
    said, parts = SENTENCE_GAP.split(source)[::2], SENTENCE_GAP.split(translation)
    if len(said) != len(parts[::2]):
        return start_kept(source, translation)
    parts[::2] = [start_kept(sentence, part) for sentence, part in zip(said, parts[::2], strict=True)]
    return "".join(parts)


def start_kept(source: str, translation: str) -> str:
    """``translation`` with its first letter in the case of ``source``'s, as DeepL keeps a sentence's first
    letter: lowered where the word is in title case, raised where it is all in lower case; a word cased
    otherwise ("OK", "iPhone"), or a line that starts with a number or a letter without case, as written.
    A German noun is lowered too ("apple pie" is "apfelkuchen"): DeepL's documentation lists the case at a
    sentence's beginning among what preserve_formatting keeps, and nothing here tells a noun from a first word."""
    said, written = FIRST_WORD.match(source), FIRST_WORD.match(translation)
    if not said or not written:
        return translation
    first, word, at = said[1][0], written[1], written.start(1)
    if first.islower() and word[0].isupper() and (len(word) == 1 or word[1:].islower()):
        return translation[:at] + word[0].lower() + translation[at + 1:]
    if first.isupper() and word.islower():
        return translation[:at] + word[0].upper() + translation[at + 1:]
    return translation
