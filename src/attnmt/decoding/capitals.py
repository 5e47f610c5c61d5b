"""Sentences in capitals: ``STOP! WHO'S THERE?``, a subtitle's ``[DOOR SLAMS]``, a heading, a
shouted line.  A model trained on mixed-case text has seen few of them: it reads their words as
rare pieces, a letter or two each, and translates them badly.  Such a sentence is given to the
model in sentence case (``read_as``: "Stop! Who's there?") and its translation written back in
capitals (``written_as``): one rule for every search of text (attnmt.decoding.translate's
``searched_batches``, the server's stream), so plain lines, documents, n-best lists and the server
agree.  A lone word in capitals is read in sentence case only where the model reads that in fewer
pieces ("STOP!" split from its line: "Stop!"): an acronym its vocabulary holds in capitals stays as
it is.  So does a sentence given a prefix: its translation starts with the prefix as written, which
steers the search in its own case.  A label in capitals before a colon ("JOHN: Where are you going?")
is read in title case where the model reads that in fewer pieces, and the translation's label is
written back in capitals.  So is a word in capitals that stresses it in a sentence that is not ("a RED
shirt", "Do NOT open"), in lower or title case, where the model reads that in far fewer pieces
(``emphasised``): its translation's copy of it, a name or a word both languages write alike, comes back
in capitals; an acronym its vocabulary holds, or reads hardly better so, stays as given."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from attnmt.decoding.sentence_edges import quoted_edges

# The first letter of a text, and the first after the end of a sentence inside it, as sentence case
# writes them in capitals: "stop! who's there?" is "Stop! Who's there?".
SENTENCE_START = re.compile(r"(^|[.!?…]\s+)(\W*?)([^\W\d_])")
_LETTERS = re.compile(r"[^\W\d_]+")  # a word's letters, which ``recased`` cases
# A sentence with words in lower case is in capitals where its words in capitals are this many times as many.
CAPITALS_PER_OTHER = 3
# A word in capitals inside a sentence not in capitals is read in lower or title case where the model reads that in
# this many pieces fewer: "RED" was four pieces (</s> with them) to "red"'s two, and the demo model wrote "AD-T-Shirt"
# for "a RED shirt", "Quarterback" for "Two DOGS"; "NASA" is one piece fewer so, and stays as given.
EMPHASIS_SAVING = 2
_WORD = re.compile(r"(?<!\w)[^\W\d_]{2,}(?!\w)")  # a word of letters alone, two or more: "RED", not "A", "MP3"
SENTENCE_BEFORE = re.compile(r"(?:^|[.!?…]\s+)\W*$")  # what stands before a sentence's first word
INNER_START = re.compile(r"([.!?…]\s+\W*?)([^\W\d_])")  # a sentence's first letter after another's end
# A label at a sentence's start: a speaker's name or a notice's word, up to three words, and a script's
# extension in brackets ("JOHN (V.O.):"), then a colon that ends it or is followed by a space ("JOHN: WHERE ARE
# YOU GOING?", "MARY JANE: Come here.", "NOTE: Do not open.").
LABEL = re.compile(r"(\W*)((?:[^\W\d_][\w'’.-]*\s){0,2}[^\W\d_][\w'’.-]*(?:\s\([^()\s]+(?:\s[^()\s]+)?\))?)"
                   r"(?=:(?:\s|$))")


def capitalised_words(sentence: str) -> int:
    """How many words of ``sentence`` hold a capital and no lower-case letter, where that makes it a sentence in
    capitals: no word holds a lower-case letter, or two such words or more and ``CAPITALS_PER_OTHER`` times as
    many as those that do (a unit, a brand: "A MAN RUNS 5 km", "AN iPhone", a screenplay's "(cont'd)"); else 0."""
    words = sentence.split()
    others = sum(any(character.islower() for character in word) for word in words)
    capitals = sum(any(character.isupper() for character in word) for word in words) - others
    return capitals if others == 0 or (capitals >= 2 and capitals >= CAPITALS_PER_OTHER * others) else 0


def sentence_case(sentence: str) -> str:
    """``sentence`` in lower case but for the first letter of each sentence in it, and for each word that holds
    a lower-case letter (``mixed_words``), which stays as written."""
    lowered = "".join(word if mixed_words(word) else word.lower() for word in re.split(r"(\s+)", sentence))
    return SENTENCE_START.sub(lambda m: m[1] + m[2] + m[3].upper(), lowered)


def mixed_words(sentence: str) -> set[str]:
    """The words of ``sentence`` that hold a lower-case letter: in a sentence in capitals, a unit or a brand
    ("km", "iPhone"), which the translation writes as the source does."""
    return {word for word in sentence.split() if any(character.islower() for character in word)}


def read_as(sentence: str, prefix: str | None = None, pieces: Callable[[str], int] | None = None) -> str:
    """``sentence`` as the model is given it: in sentence case where every cased letter is a capital,
    in two words or more, or in one word that the model reads in fewer ``pieces`` so (``lone_word``;
    none given: in no lone word), and no ``prefix`` is given; else as it is.  Its label in capitals
    ("JOHN:", "MARY JANE:", "NOTE:"), in a sentence in capitals or not, has each word in title case
    where the model reads it in fewer ``pieces`` so (``titled_label``); in a sentence not in capitals, each
    other word in capitals is read as ``emphasised`` says.  Without a ``prefix``, a sentence wrapped whole in quotes
    or brackets is read without them (sentence_edges.quoted_edges), its words so."""
    if not prefix and (quoted := quoted_edges(sentence)):
        return read_as(quoted.body, prefix, pieces)
    words = 0 if prefix else capitalised_words(sentence)
    if words == 0:
        return sentence if prefix else emphasised(titled_label(sentence, sentence, pieces), pieces)
    read = sentence_case(sentence)
    if words == 1:
        return lone_word(sentence, read, pieces)
    return titled_label(sentence, read, pieces)


def lone_word(sentence: str, read: str, pieces: Callable[[str], int] | None) -> str:
    """A ``sentence`` of one word in capitals as the model is given it: in sentence case (``read``), or in
    lower case where the source vocabulary holds the word so in fewer ``pieces`` still ("EXIT": "Exit"
    three pieces, "exit" one; "DOGS": "Dog" "s", "dogs"), whichever the model reads in fewer pieces than
    the capitals given; else as given (an acronym the vocabulary holds in capitals; none given: always)."""
    if pieces is None:
        return sentence
    best = min((read, sentence.lower()), key=pieces)  # sentence case where both are as many pieces
    return best if pieces(best) < pieces(sentence) else sentence


def titled_label(sentence: str, read: str, pieces: Callable[[str], int] | None) -> str:
    """``read`` (``sentence`` as the model is to read it) with each word of ``sentence``'s label in capitals
    (``LABEL``) in title case where the model reads it in fewer ``pieces`` so than as ``read`` has it:
    "JOHN" alone in a line in mixed case, a piece a letter, is "John"; "JANE", which sentence case
    made "jane", a name the model knows with its capital, is "Jane"."""
    given, label = LABEL.match(sentence), LABEL.match(read)  # sentence case may change a length ("İ")
    if pieces is None or given is None or label is None or any(character.islower() for character in given[2]):
        return read

    def titled(match: re.Match[str]) -> str:
        word = match[0]
        title = word[:1].upper() + word[1:].lower()
        return title if pieces(title) < pieces(word) else word

    return read[:label.start(2)] + _LETTERS.sub(titled, read[label.start(2):label.end(2)]) + read[label.end(2):]


def emphasised(read: str, pieces: Callable[[str], int] | None) -> str:
    """``read`` with each run of words in capitals (``capital_runs``: "DO NOT TOUCH") in lower case, or each
    word in title case (a name: "JOHN SMITH"), whichever the model reads in fewer ``pieces``, with a capital
    where a sentence starts, where that is ``EMPHASIS_SAVING`` pieces fewer than in capitals; else as given
    (none given: every run)."""
    if pieces is None:
        return read
    for start, end in reversed(capital_runs(read)):
        run = read[start:end]
        lowered = INNER_START.sub(lambda m: m[1] + m[2].upper(), run.lower())
        if SENTENCE_BEFORE.search(read[:start]):
            lowered = lowered[:1].upper() + lowered[1:]
        best = min((lowered, _LETTERS.sub(lambda m: m[0][:1] + m[0][1:].lower(), run)), key=pieces)
        if pieces(best) <= pieces(run) - EMPHASIS_SAVING:
            read = read[:start] + best + read[end:]
    return read


def capital_runs(text: str) -> list[tuple[int, int]]:
    """[start, end) of each run of words in capitals of ``text``, side by side: "DO NOT TOUCH" in "DO NOT TOUCH
    the dog", "RED," in "a RED, big shirt".  A word is what stands between spaces, with two letters side by side
    (``_WORD``) and no lower-case one: not "A4", "MP3", nor a URL's "EXAMPLE" in "https://EXAMPLE.com/Path", whose
    case is its own."""
    runs: list[tuple[int, int]] = []
    for match in re.finditer(r"\S+", text):
        if not (match[0].isupper() and _WORD.search(match[0])):
            continue
        if runs and text[runs[-1][1]:match.start()].isspace():
            runs[-1] = (runs[-1][0], match.end())
        else:
            runs.append(match.span())
    return runs


def copied_back(sentence: str, translation: str, read: str) -> str:
    """``translation`` with each word that ``sentence`` gives in capitals and ``read`` in another case
    (``emphasised``) in capitals again where the translation holds it, its case aside (a
    name, "John"; a word both languages write alike, "Park"): the only word of it known to be that one's."""
    for word in {as_read for _, as_read in recased_words(sentence, read)}:
        translation = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", word.upper(), translation, flags=re.IGNORECASE)
    return translation


def recased_words(sentence: str, read: str) -> Iterator[tuple[str, str]]:
    """Each word of three letters or more (not "in", "to": chance words in a translation) that ``sentence`` gives
    in capitals and ``read`` in another case (``emphasised``), as given and as read."""
    for given, seen in zip(sentence.split(), read.split(), strict=False):
        if given != seen and given.isupper() and seen.casefold() == given.casefold():
            words = zip(_WORD.findall(given), _WORD.findall(seen), strict=False)
            yield from ((word, as_read) for word, as_read in words if len(word) > 2)


def written_as(sentence: str, translation: str, read: str) -> str:
    """The ``translation`` of ``sentence``, which the model was given as ``read`` (``read_as``), as it
    is written: in capitals where the model read the sentence in sentence case; where it read only a
    label or a word in another case, the translation's label (what it writes before a colon: ``LABEL``) in
    capitals where the label was so read, and its copy of such a word (``copied_back``); else as it wrote it.  A
    sentence read without the quotes or brackets around it (``read_as``) has its translation between them, but
    where the model wrote such a pair around it itself."""
    if read == sentence:
        return translation
    if quoted := quoted_edges(sentence):
        written = written_as(quoted.body, translation, read)
        return written if quoted_edges(written) else quoted.around(written.strip())
    if capitalised_words(sentence):
        return as_given(translation.upper(), mixed_words(sentence))
    given, seen = LABEL.match(sentence), LABEL.match(read)
    if not (given and seen) or any(character.islower() for character in given[2]):  # no label in capitals
        return copied_back(sentence, translation, read)
    translation = copied_back(sentence[given.end(2):], translation, read[seen.end(2):])  # a name in the label
    label = LABEL.match(translation)  # moved into the sentence ("Wohin gehst du, John?") is the model's to case
    if not label or given[2] == seen[2]:
        return translation
    return translation[:label.end(2)].upper() + translation[label.end(2):]


def as_given(text: str, words: set[str]) -> str:
    """``text``, in capitals, with each of ``words`` (a unit, a brand: ``mixed_words``) that it holds in
    capitals, a whole word, written as given again: "5 KM" is "5 km", "IPHONE" "iPhone"."""
    for word in words:  # each written back through re.sub's template, where a backslash is doubled
        text = re.sub(rf"(?<!\w){re.escape(word.upper())}(?!\w)", word.replace("\\", "\\\\"), text)
    return text


def recased(translation: str, ids: Callable[[str], list[int]]) -> str:
    """``translation``, written in capitals, in the case the model writes: each word in lower case, or with its
    first letter a capital where the model reads it so in fewer pieces (``ids``), or as many of which the
    rarest is more frequent (a lower id: SentencePiece numbers its pieces by score, the most frequent first):
    German's nouns, "HUND" is "Hund" and "PARK" "Park", but "RENNT" "rennt".  A word's "SS" is read as "ß" where
    the vocabulary writes that so, as German's capitals write "ß" ("GROSSE" is "große", "STRASSE" "Straße", but
    "KLASSE" "Klasse"): read as "ss" the demo model gave "GROSSE HUNDE" for "BIG DOGS" 0.0, "Große Hunde" 0.90.
    The first word of each sentence has a capital.  Sentence case alone lowered every noun."""
    def cased(match: re.Match[str]) -> str:
        word = match[0].lower()
        forms = [word, word.replace("ss", "ß")] if "ss" in word else [word]
        weight = lambda text: (len(read := ids(text)), max(read, default=0))  # noqa: E731
        return min((each for form in forms for each in (form, form[:1].upper() + form[1:])), key=weight)

    return SENTENCE_START.sub(lambda m: m[1] + m[2] + m[3].upper(), _LETTERS.sub(cased, translation))


def read_pair(source: str, translation: str, pieces: Callable[[str], int] | None = None,
              target_ids: Callable[[str], list[int]] | None = None) -> tuple[str, str]:
    """A sentence and a translation of it written elsewhere, as the model reads them (``attnmt score``):
    where the source is read in sentence case (``read_as``: ``pieces``, the source's), a translation in
    capitals is read ``recased`` (``target_ids``: the ids the model reads a translation as; none given, in
    sentence case), as translate's own translation of it was the model's
    in its own case (``written_as``), and was scored so.  Read in capitals, a piece a letter or two, the demo
    model's "EIN HUND RENNT." scored 0.0 where translate gave it 0.895.  Where only some words of the source
    are read in another case (a label, a stressed word: ``emphasised``), the translation's copies of them
    in capitals are read as the model wrote them (``copies_read``), as ``written_as`` wrote them in capitals."""
    read = read_as(source, None, pieces)
    if read == source:
        return read, translation
    if not capitalised_words(source):
        return read, copies_read(source, translation, read, target_ids)
    if not capitalised_words(translation):
        return read, translation
    return read, recased(translation, target_ids) if target_ids else sentence_case(translation)


def copies_read(sentence: str, translation: str, read: str, target_ids: Callable[[str], list[int]] | None) -> str:
    """``translation`` with each copy in capitals of a word that ``sentence`` gives in capitals and ``read`` in
    another case (``recased_words``) ``recased`` (``target_ids``; none given: as ``read`` has it): "Ich traf
    JOHN im PARK." for "I met JOHN in the PARK." is read "Ich traf John im Park.", only the case changed."""
    for word, as_read in recased_words(sentence, read):
        cased = recased(word, target_ids) if target_ids else as_read
        translation = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", cased, translation)  # letters alone
    return translation
