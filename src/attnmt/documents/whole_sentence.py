"""A text read whole, as one sentence (an ``attnmt translate --input-format jsonl`` line's), with
the symbols the model's vocabulary cannot write kept as a plain text line keeps them
(attnmt.documents.symbols): the model reads "The dog runs in the park fast." for "The dog runs 🐕
in the park | fast.", and "🐕" and "|" go back where their neighbours' words went.  Sent to the
model as it was, such a text came back without them.  A terminal's codes and Markdown's emphasis and links are
taken out as a text line's are (``flat_whole``): a colour, ``**...**`` or ``<b>...</b>`` wraps the translation of its
words.

Both halves go through the pipeline's own code, unsplit: the symbols are taken out where its
sentences are split (pipeline.flat_sentences) and placed where its translations are
(pipeline.translate_flats), as for every document; so are its URLs and what else passes through untranslated
(attnmt.decoding.protected), as a text line's.  A text without such symbols, codes or URLs is read, and
its translation written, as it is but for its soft hyphens (a piece the model never saw, in the middle of
a word, which a text line drops too): no tab splits it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import SENTENCE_PROTECTED
from attnmt.documents.flat import SOFT_HYPHEN, FlatBuilder, FlatText
from attnmt.documents.list_marks import after_line_start
from attnmt.documents.no_break_spaces import BINDING
from attnmt.documents.pipeline import DocumentOptions, flat_sentences, translate_flats
from attnmt.documents.spans import Weights
from attnmt.documents.terminal_codes import add_line, written
from attnmt.documents.text_emphasis import MARKED, stops_after_quotes
from attnmt.documents.text_tags import add_tagged, holds_markup, written_references
from attnmt.documents.translators import FoundTranslations
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.speaker_labels import speaker_label
from attnmt.text.terminal_codes import LINE_CODES

WHOLE = DocumentOptions(split=False)  # one sentence: no splitter's language is read


def flat_whole(text: str, speakers: frozenset[str] = frozenset()) -> FlatText:
    """``text`` as one flat text, its codes taken out as terminal_codes.add_line takes a line's, its Markdown
    emphasis and links read around their words as a text line's are (attnmt.documents.text_emphasis: ``**A dog**
    runs``), and so are HTML's inline elements, their character references read (attnmt.documents.text_tags: ``A
    <b>red</b> car``, which the demo model read as words and wrote "Ein bereitet sich an."), and what passes
    through untranslated (attnmt.decoding.protected: a URL, ``$HOME``, a version, a call, ``print("hi")``) kept whole
    as a text line's is, all else given to the model as it stands (no tab ending a sentence): a JSONL line's text and
    ``attnmt.translate``'s, which the model read with its codes, marks and URLs as words; a list's mark and a
    speaker's label at its start kept whole, as a text line's (attnmt.documents.list_marks; one of the dialogue's
    ``speakers`` too, as the texts given with it name them: "GUEST:" of "GUEST: oh, years ago." after "GUEST:
    Thanks.").  A text without codes, marks or such is that text alone, unmarked, but for its soft hyphens, dropped
    as ``FlatBuilder.add_text`` drops a text line's: the model read each as an unknown piece in the middle of its word
    ("A man is play\\u00ading the gui\\u00adtar." came back "Ausspprüssssen")."""
    if not (LINE_CODES.search(text) or LIST_MARK.match(text) or speaker_label(text, speakers)
            or SENTENCE_PROTECTED.search(text) or MARKED.search(text) or holds_markup(text)):
        return FlatText(text.replace(SOFT_HYPHEN, ""))
    builder = FlatBuilder(collapse=False, protected=SENTENCE_PROTECTED)
    add_line(builder, after_line_start(builder, text, speakers), LINE_CODES,
             partial(add_tagged, add_text=FlatBuilder.add_text, references=holds_markup(text)))
    return builder.build()


def model_reads(text: str, glossary: Glossary | None, writes: Callable[[str], bool],
                speakers: frozenset[str] = frozenset()) -> str:
    """What the model reads of ``text``, one sentence: ``text`` without a terminal's codes (``flat_whole``)
    and the symbols ``writes`` says its vocabulary cannot write (attnmt.decoding.inputs.writes_whole), but
    for those in a term of ``glossary``, which translates them; ``text`` itself where it holds none, and ""
    where the model reads nothing of it (every word in a script the vocabulary has no pieces for: "Привет мир").
    ``speakers``: the names of the dialogue ``text`` is of, whose labels it keeps (``flat_whole``)."""
    flat = flat_whole(text, speakers)
    [spans] = flat_sentences([flat], WHOLE, glossary, writes=writes)
    if not flat.marks:
        return flat.text  # the text itself, without its soft hyphens (``flat_whole``)
    return flat.text[slice(*spans[0])] if spans else ""


def with_symbols(text: str, read: str, translation: str, glossary: Glossary | None,
                 writes: Callable[[str], bool], weigh: Callable[[str, str], Weights],
                 speakers: frozenset[str] = frozenset()) -> str:
    """``translation``, the model's of ``read`` (``model_reads(text, glossary, writes, speakers)``, taken as
    given: it is worked out once per text, not once per hypothesis), with the symbols taken out of
    ``text`` put back where a plain text line's go, and its codes around the words they wrapped; ``weigh``
    gives the word weights of the sentence read and its translation, asked for where a symbol stood inside the sentence
    (attnmt.documents.paragraphs.traced_weights).  The translation of a text read as it was, and
    an empty one (of a line the model failed on), as they are, but for a no-break space between two words
    (``10\u00a0km``), written between their translations as a text line's is (attnmt.documents.no_break_spaces):
    "A dog\u00a0runs in the park." came back with a plain space, where a text line kept it."""
    if not translation or (read == text and not BINDING.search(text)):
        return translation
    found = FoundTranslations({read: translation}, weigh, glossary, writes=writes)
    flat = flat_whole(text, speakers)
    return written(flat, stops_after_quotes(flat, translate_flats([flat], found, WHOLE, empty_kept=False)[0]),
                   written_references(text, SENTENCE_PROTECTED))
