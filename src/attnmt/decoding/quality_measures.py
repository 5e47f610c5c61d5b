"""What quality estimation measures of one translation, each a plain function of its words or of
one cross-attention matrix [T, S]: words in a loop or repeated, words copied from the source,
source words left unread, how thinly the attention spreads, and each word's probability where a
reader finds the word.

attnmt.decoding.quality turns these numbers into Features, flags and a quality.  They are apart
because each is checked by hand on a few words or a small matrix, with no model, tokenizer or
forced pass, and an experiment reads one alone (benchmarks/experiments/quality_signals.py: the
attention's spread of every layer and head)."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence

import numpy as np
from torch import Tensor

from attnmt.decoding.quality_language import WORDS, text_words
from attnmt.decoding.verbatim import PLACEHOLDER, TAG, VERBATIM
from attnmt.text.invisible import dropped, folded

LOOP_RUNS = 3
UNREAD = 0.2  # total attention a source word gets, summed over the translation's pieces (a word read once: ~1)
WORD = re.compile(r"\w+")
# Inside a word: 2 to 8 letters written 3 times or more in a row, or one letter 4 times or more.  Up to 8: a
# phrase of a language written without spaces is one "word" ("我喜欢你们" three times), and in no sentence of
# Multi30k do 5 to 8 letters come three times in a row.
LETTER_LOOP = re.compile(r"([^\W\d_]{2,8})\1{2,}|([^\W\d_])\2{3,}")
# A symbol (no letter, digit or space), or a unit of up to three, again and again, a space between allowed:
# "!!!!!!", "......", "- - - - - -", "?!?!?!", ":) :) :)".  SYMBOL_RUN such symbols (spaces not counted) or more
# are a loop, where the source's longest run is shorter: no pair of Multi30k's (train, validation, test) has 4.
SYMBOL_LOOP = re.compile(r"([^\w\s]{1,3})(?:\s?\1){2,}")
SYMBOL_RUN = 6
# The end of a text cut where its sentence goes on (``cut_short``); "“" closes a German quotation and ";" is the
# Greek question mark ("Τι κάνεις;"), so neither is one.
GOES_ON = re.compile(r"[,:(\[{„«‹–—/&-]\s*$")
# Words in a row copied from the source (``copied_run``): letters, an apostrophe within ("woman's"); not in quotes.
COPIED_RUN = 3
LETTER_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
QUOTATION = re.compile(r"[\"“”„«»`][^\"“”„«»`]*[\"“”„«»`]")  # and code in backquotes: `pip install attnmt`
# A word written twice in a row, spaces alone between, not right after a clause mark (``words_doubled``).
DOUBLED = re.compile(r"(?<![,;:(\"„“«–-])(?<![,;:(\"„“«–-]\s)\b([^\W\d_]+)\s+\1\b")
FUNCTION_WORDS = frozenset().union(*WORDS.values())  # every profile's (attnmt.decoding.quality_language)
# Languages that double no word on purpose, spaces between (Turkish, Hindi, Indonesian, Afrikaans do): any word
# twice in a row is a slip there.
SLIPS = frozenset({"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "ca"})
# Function words their grammar writes twice: French's reflexive "nous nous levons", German's "ob sie sie kennt",
# English's "he had had enough", "he said that that was wrong", "what it is is a game", German's "dass das das
# Beste ist", Dutch's "ik weet dat dat klopt".
DOUBLED_ON_PURPOSE = frozenset({"nous", "vous", "sie", "had", "that", "is", "das", "dat"})
HYPHENED = re.compile(r"\w+(?:[-\u2010\u2011]\w+)+")  # a compound of words joined by hyphens (``compounds_formed``)
NAME_LIKE = re.compile(r"\b[^\W\d_][\w'’-]*")  # a word that starts with a letter (``names_of``)
WORD_AS_WRITTEN = re.compile(r"\S+")  # what word_probabilities reports on: a word as str.split() cuts it
# The question marks of the world's scripts: Latin's, the full-width one (Chinese, Japanese), Arabic's, Spanish's
# opening one, the reversed one, the Greek question mark (U+037E, which NFKC makes ";"), Armenian's, Ethiopic's,
# the interrobang and its kin.  Greek writes ";" for it: a text with Greek letters that ends with ";" asks too.
QUESTION_MARKS = frozenset("?\uff1f\u061f\u00bf\u2e2e\u037e\u055e\u1367\u203d\u2047\u2048\u2049")
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
CLOSING = " \t\"'’”»«)]}"  # what may stand after a sentence's last mark: quotes, brackets
# What ends a sentence: a question mark of any script, a full stop (Latin's, CJK's, the full-width one, Devanagari's
# danda, Urdu's), an exclamation mark, an ellipsis; Greek's ";" where the text is Greek (``ends_sentence``).
FINAL_MARKS = QUESTION_MARKS | frozenset(".!…。．！‼।۔")
# Words the source does not say (``added``): ADDED_RUN of the translation's words in a row each give, on average
# over their pieces, ADDED_ATTENTION or more of their attention to the source's end, where a decoder looks when no
# source word is left to translate.  Of Multi30k's 2,014 validation and test references none has such a run of 5
# (5 one of 4: a German verb or particle at a clause's end); 10 of 26 clauses added to good translations do.
ADDED_RUN = 5
ADDED_ATTENTION = 0.3
# ... or ADDED_END_RUN words in a row that end the translation: after them no source word is left to come back to,
# where a verb or particle at a clause's end within the sentence is (none of the demo model's 519 good pairs,
# 15 of 26 hand-written clauses added instead of 13: benchmarks/results/quality_labelled_xeon.txt).
ADDED_END_RUN = 4


def looped(words: Sequence[str], source: Sequence[str] = ()) -> bool:
    """Whether the translation ``words`` loops where its ``source``'s words do not: some word n-gram
    (n <= 4) comes LOOP_RUNS times back to back, or a word 4-gram twice, or a word 3-gram twice back
    to back (a sentence of three words written twice: "ein hund rennt ein hund rennt"), or a word
    holds a loop of letters (``LETTER_LOOP``: "Dezinininin", "Künnnnner"), more of it than the source
    has.  The source's repeats are counted, not matched word for word, its words being of another
    language: "boom boom boom" written "bumm bumm bumm", or "a man in a .. a man in a" written "ein
    Mann in einem .. ein Mann in einem", is faithful.  No sentence of Multi30k's holds a 3-gram twice
    back to back."""
    runs, again, letters, threes = repeats(words)
    source_runs, source_again, source_letters, source_threes = repeats(source)
    return (runs >= LOOP_RUNS and runs > source_runs or again > source_again
            or letters > source_letters or threes > max(1, source_threes))


def copied_run(source: str, translation: str) -> bool:
    """Whether ``translation`` holds COPIED_RUN words in a row of ``source``'s, in its order, each written in
    lower case in the source, and all but one in the translation: a stretch left untranslated ("Ein Mann
    schläft in einem green room on a couch.", "Zwei Männer bauen eine blaue fishing hut on an iced over
    lake"), which the copied share (at least COPIED_SHARE of all words) lets pass while the rest is
    translated.  A name keeps its capitals ("New York City") and a quotation its words (``QUOTATION``: „Stop
    raping my wife!“, `pip install attnmt`), so neither counts, nor what passes through untranslated, a URL,
    an e-mail address, a file name, a tag or a placeholder (quality_language.text_words).  Multi30k's
    validation and test references, en-de both ways: none; its 29,000 training pairs, both ways: 3 ("Hand in
    Hand in")."""
    def read(text: str) -> list[tuple[str, bool]]:
        return [(folded(word), word.islower()) for word in LETTER_WORD.findall(QUOTATION.sub(" ", text_words(text)))]

    ours = read(source)
    runs = {tuple(w for w, _ in ours[k:k + COPIED_RUN]) for k in range(len(ours) - COPIED_RUN + 1)
            if all(lower for _, lower in ours[k:k + COPIED_RUN])}
    theirs = read(translation)
    return any(tuple(w for w, _ in theirs[k:k + COPIED_RUN]) in runs
               and sum(lower for _, lower in theirs[k:k + COPIED_RUN]) >= COPIED_RUN - 1
               for k in range(len(theirs) - COPIED_RUN + 1))


def cut_short(source: str, translation: str) -> bool:
    """Whether ``translation`` ends where a sentence goes on (``GOES_ON``: a comma, a colon, a dash, an opening
    bracket or quotation mark) and ``source`` does not: a translation cut off ("Eine Gruppe von Männern," for
    "A group of men are loading cotton onto a truck").  A subtitle's line that goes on in the next one ends
    so on both sides.  Multi30k's validation and test references, en-de both ways: none; its 29,000 training
    pairs, both ways: 13, each a reference cut or mistyped ("Ein Mann geht neben einem gelben Fahrrad-").  So is
    a translation of punctuation alone ("...", "." for "Dog.") of a source with letters: cut before its first word
    (the demo model flagged it low_quality alone)."""
    def goes_on(text: str) -> bool:  # not at a URL's last "/" or "-", nor a tag's or placeholder's
        end = len(text.rstrip())
        return bool(GOES_ON.search(text)) and not any(m.end() == end for kept in (VERBATIM, TAG, PLACEHOLDER)
                                                      for m in kept.finditer(text))

    return (goes_on(translation) and not goes_on(source)
            or not WORD.search(translation) and any(character.isalpha() for character in source))


def words_doubled(translation: str, source: str = "", target: str | None = None) -> bool:
    """Whether ``translation`` writes a function word twice in a row (``DOUBLED``: "Ein Mann sitzt auf der der
    Bank", "the the"), or any word where it is in a language of SLIPS (``target``, a profile of
    attnmt.decoding.quality_language: "Ein Mann steht steht am Pult"), more often than ``source`` does: a slip
    ``looped`` lets pass, a word twice being no loop.  Not after a comma or another clause mark, where
    German's relative pronoun meets its article ("Leute, die die Straße überqueren"), nor in two cases ("Der
    der"); a content word in another language or none known stays out, as languages double them on purpose
    (Turkish's "yavaş yavaş", slowly).  No reference of Multi30k's validation and test sets (en, de) has one;
    of its 58,000 training sentences, 13 do, 10 of them a slip ("einem einem", "steht steht")."""
    def count(text: str) -> int:
        return sum((target in SLIPS or folded(m[1]) in FUNCTION_WORDS) and folded(m[1]) not in DOUBLED_ON_PURPOSE
                   for m in DOUBLED.finditer(text))

    return count(translation) > count(source)


def symbols_looped(translation: str, source: str = "") -> bool:
    """Whether ``translation`` loops on symbols, which its words (``looped``) leave out: a run of
    SYMBOL_LOOP of SYMBOL_RUN symbols or more ("Ein Hund rennt!!!!!!!!", "Ein Hund - - - - - -"), longer
    than any such run of ``source`` (a row of dots the source has too is no loop)."""
    run = symbol_run(translation)
    return run >= SYMBOL_RUN and run > symbol_run(source)


def symbol_run(text: str) -> int:
    """The symbols of ``text``'s longest SYMBOL_LOOP, spaces not counted (0: none)."""
    return max((len("".join(m.group().split())) for m in SYMBOL_LOOP.finditer(text)), default=0)


def repeats(words: Sequence[str]) -> tuple[int, int, int, int]:
    """(the most times some word n-gram, n <= 4, comes back to back (1: none does), how many word
    4-grams repeat an earlier one, the characters of the longest ``LETTER_LOOP`` in a word (0: none),
    the most times some word 3-gram comes back to back (1: none does))."""
    most, grams, threes = 1, [], 1
    for n in range(1, 5):
        grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
        runs = [1] * len(grams)  # runs[i]: the n-gram at i and those equal to it back to back after it
        for i in range(len(grams) - n - 1, -1, -1):
            if grams[i] == grams[i + n]:
                runs[i] = runs[i + n] + 1
        most = max([most, *runs])
        threes = max([threes, *runs]) if n == 3 else threes
    fours = grams  # the last n's, 4
    letters = max((len(m.group()) for word in words for m in LETTER_LOOP.finditer(word)), default=0)
    return most, len(fours) - len(set(fours)), letters, threes


def repeated_share(words: Sequence[str]) -> float:
    """Share of word bigrams that occurred earlier in the same sentence."""
    bigrams = list(zip(words, words[1:], strict=False))
    return 1 - len(set(bigrams)) / len(bigrams) if bigrams else 0.0


def words_of(text: str) -> list[str]:
    """``text``'s words as the model reads them: in NFKC (as SentencePiece gives the text to it),
    case-folded, NFKC again (attnmt.text.invisible.folded), as attnmt.decoding.glossary reads terms.
    So "café" written with a combining accent is the word "café", not "cafe" cut at the accent, and
    full-width "ＤＯＧ" is "dog": a text and its copy in another Unicode form are one."""
    return WORD.findall(folded(text))


def copied_share(source: str, translation: str) -> float:
    """Share of the translation's words (``words_of``) found among the source's: 1.0 for a copy."""
    return copied_words(words_of(source), words_of(translation))


def names_of(text: str) -> set[str]:
    """The words (``words_of``) ``text`` writes with a capital where no sentence starts, and nowhere in lower case:
    names ("Michael Jordan signs autographs in New York." names "jordan", "new", "york"), which a translation
    keeps as they are."""
    capital = {folded(m[0]) for m in NAME_LIKE.finditer(text.strip()) if m[0][0].isupper()
               and m.start() > 0 and not re.search(r"[.!?:]\s*$", text.strip()[:m.start()])}
    lower = {folded(m[0]) for m in NAME_LIKE.finditer(text) if m[0][0].islower()}
    return {word for name in capital for word in WORD.findall(name)} - lower


def compounds_formed(source: str, translation: str) -> Counter[str]:
    """The words (``words_of``) of each compound ``translation`` joins with hyphens (HYPHENED) that ``source`` does not
    write so: a compound the target language makes of the source's words, as German makes "Team-Meeting" of "team
    meeting" and "Online-Shop" of "online shop", is a word of its own, translated, not two copied."""
    written = set(HYPHENED.findall(folded(source)))
    return Counter(word for compound in HYPHENED.findall(folded(translation)) if compound not in written
                   for word in WORD.findall(compound))


def copied_words(source: Sequence[str], target: Sequence[str]) -> float:
    """``copied_share`` of the words already read (``words_of``) of a source and its translation."""
    known = set(source)
    return sum(w in known for w in target) / len(target) if target else 0.0


def word_probabilities(text: str, spans: Sequence[tuple[int, int]],
                       probs: Sequence[float]) -> list[tuple[str, float | None]]:
    """(word, probability) per word of ``text`` as written (split at whitespace), so that a reader
    finds each in the translation: the product of the probabilities of the pieces that stand in it
    (``spans``: each piece's (begin, end) characters in ``text``, the tokenizer's
    ``target_spans``).  SentencePiece's pieces are of the normalised text ("™" read as "TM", a
    character it lacks as "<unk>"), and glued together they were no word of the translation.  A
    piece stands in the word of its first character that shows (none ``dropped``): "▁rennt" spans
    "\\u200b rennt" after "Hund\\u200b", and is no piece of "Hund\\u200b".  A piece of none ("▁" alone
    before a character that is a piece of its own) counts for the word after it; a word no piece
    stands in (characters normalisation drops, or words past a translation cut to the model's
    positions) gets None.  The EOS probability is no word's."""
    words = [(match.group(), match.end()) for match in WORD_AS_WRITTEN.finditer(text)]
    if not words:
        return []
    ends = [end for _, end in words]
    found: list[float | None] = [None] * len(words)
    for (begin, end), p in zip(spans, probs, strict=False):  # probs: one more, EOS's
        # A piece of invisible characters alone (SentencePiece keeps U+200D, U+2060 as "<unk>") stands
        # where its last one does, in the word that holds it, not in the next word.
        at = next((k for k in range(begin, end) if not dropped(text[k])), max(begin, end - 1))
        k = min(bisect_right(ends, at), len(words) - 1)  # the word that holds ``at``, or the next one
        known = found[k]
        found[k] = p if known is None else known * p
    return [(word, None if p is None else round(p, 4)) for (word, _), p in zip(words, found, strict=True)]


def unread_words(cross: Tensor, source_pieces: Sequence[str]) -> tuple[int, int]:
    """(source words that get less than UNREAD attention in all, source words), </s> left out;
    cross [T, S]."""
    starts = [i for i, p in enumerate(source_pieces) if p != "</s>" and (i == 0 or p.startswith("▁"))]
    pieces = [i for i, p in enumerate(source_pieces) if p != "</s>"]
    if not starts:
        return 0, 0
    read = cross.sum(dim=0).tolist()  # [S]: the attention each source piece gets from the whole translation
    ends = [*starts[1:], (pieces[-1] + 1)]
    unread = sum(sum(read[a:b]) < UNREAD for a, b in zip(starts, ends, strict=True))
    return unread, len(starts)


def added(cross: Tensor, source_pieces: Sequence[str], translation: str,
          spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ADDED_RUN words of ``translation`` in a row, or its last ADDED_END_RUN, each give, on average over
    their pieces (punctuation aside), ADDED_ATTENTION or more of their attention to the source's end: its pieces
    after its last word, its final marks and </s> ("Ein Mann fährt Fahrrad, während seine Frau im Auto wartet." for
    "A man is riding a bike.", "Der Akku ist fast leer, obwohl er neu ist." for "The battery is almost empty.").
    ``cross``: [T, S]; ``spans``: the characters of each translation piece, one a row of ``cross``."""
    at_end = end_attention(cross, source_pieces)
    words: dict[int, list[float]] = {}
    for (begin, stop), attention in zip(spans, at_end, strict=False):
        if any(ch.isalnum() for ch in translation[begin:stop]):
            words.setdefault(len(translation[:stop].split()), []).append(attention)
    run = 0
    for _, shares in sorted(words.items()):
        run = run + 1 if sum(shares) / len(shares) >= ADDED_ATTENTION else 0
        if run >= ADDED_RUN:
            return True
    return run >= ADDED_END_RUN  # the run that ends the translation


def end_attention(cross: Tensor, source_pieces: Sequence[str]) -> list[float]:
    """Each translation piece's attention (``cross``: [T, S]) to the source's end: its pieces after its last
    word ("</s>", ".", "?"), where a decoder looks when no source word is left to translate."""
    return cross[:, source_end(source_pieces):].sum(dim=1).tolist()  # [T]


def source_end(source_pieces: Sequence[str]) -> int:
    """Where the source's end starts (``end_attention``): the index of its first piece after its last word."""
    end = len(source_pieces)
    while end > 1 and (source_pieces[end - 1] == "</s>" or not any(ch.isalnum() for ch in source_pieces[end - 1])):
        end -= 1
    return end


def attention_spread(cross: Tensor, source_pieces: Sequence[str]) -> tuple[float, float, float]:
    """(attention_entropy, coverage, source_entropy) of Features from cross [T, S], </s> left out.

    attention_entropy: the mean over the translation's pieces of the entropy of each one's attention
    over the source pieces (normalised to sum 1), over log S; coverage: the mean over source pieces
    of log min(1, the attention each gets from the whole translation) (GNMT's coverage penalty,
    Wu et al. 2016, per piece); source_entropy: the mean over source pieces of the entropy of the
    attention each gets over the translation's pieces, over log T.  Attention spread thin, or a
    source piece no piece reads, goes with worse translations (each lowers chrF beyond what the
    mean log-prob says, on Multi30k; benchmarks/results/quality_attention_epyc.txt)."""
    kept = [i for i, p in enumerate(source_pieces) if p != "</s>"]
    if not kept:
        return 0.0, 0.0, 0.0
    a = cross.double().numpy()[:, kept]  # [T, S]
    t, s = a.shape
    rows = a / np.maximum(a.sum(axis=1, keepdims=True), 1e-12)
    columns = a / np.maximum(a.sum(axis=0, keepdims=True), 1e-12)
    entropy = -(rows * np.log(rows + 1e-12)).sum(axis=1).mean() / math.log(max(s, 2))
    coverage = np.log(np.clip(a.sum(axis=0), 1e-6, 1.0)).mean()
    source_entropy = -(columns * np.log(columns + 1e-12)).sum(axis=0).mean() / math.log(max(t, 2))
    return float(entropy), float(coverage), float(source_entropy)


def asks(text: str) -> bool:
    """Whether ``text`` holds a question mark (QUESTION_MARKS; Greek's ";" at its end), outside its URLs,
    e-mail addresses, file names and tags ("https://example.com/?q=1" asks nothing)."""
    text = TAG.sub(" ", VERBATIM.sub(" ", text))
    return (not QUESTION_MARKS.isdisjoint(text)
            or GREEK.search(text) is not None and text.rstrip(CLOSING).endswith(";"))


def question_differs(source: str, translation: str) -> bool:
    """Whether one of ``source`` and ``translation`` asks (``asks``) and the other does not: a question
    translated as a statement ("Is the man asleep?" as "Der Mann schläft."), or a statement as one."""
    return asks(source) != asks(translation)


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends with a final mark (FINAL_MARKS), quotation marks and brackets after it aside
    ("He asked: „Why?“", "„Halt!“": German closes with "“"); a ";" only where the text holds Greek letters,
    whose question mark it is."""
    end = final_character(text)
    return end in FINAL_MARKS and end != ";" or end == ";" and GREEK.search(text) is not None


def final_character(text: str) -> str:
    """``text``'s last character before the quotation marks, brackets and spaces that close it ("" where none):
    spaces of any kind and what shows nothing (``dropped``: a line's "\n", a no-break space, a zero-width space)
    aside, which made "Ein Hund rennt.\n" a full stop lost."""
    end = len(text)
    while end and (text[end - 1] in CLOSING + "“‘›" or dropped(text[end - 1])):
        end -= 1
    return text[end - 1:end]


def stop_lost(source: str, translation: str) -> bool:
    """Whether ``source`` ends with a final mark (``ends_sentence``) and ``translation``, which has a word, ends
    with none: a full stop or an exclamation mark lost ("A dog runs." as "Ein Hund rennt"), or a translation
    cut after a whole word ("Ein Hund rennt über die").  A question mark lost is ``question_differs``'s too."""
    return ends_sentence(source) and not ends_sentence(translation) and WORD.search(translation) is not None
