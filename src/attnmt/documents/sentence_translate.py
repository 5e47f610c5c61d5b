"""``attnmt.translate`` and ``attnmt.translate_n_best``: attnmt.decoding.translate's, each sentence read whole as
``attnmt translate`` reads a JSONL text (attnmt.documents.whole_sentence): a URL, an e-mail address, a path, a
terminal's codes and the symbols the model's vocabulary cannot write (an emoji) anywhere in it are kept out of what
the model reads and placed in its translation by the word alignment, as a text line's are.  The model read a URL as
words and an emoji as unknown: the demo model wrote "Auf einem „Fee Heeeeee Hürssssss“, auf dem er diesen Fühnt
sind." for "See https://example.com/a?b=1 for details." and "Ein nasser Krünzzel." for "We love it 😀 so much.",
where the command wrote "Ein Koch stellt https://example.com/a?b=1 ein Gericht auf." and "Ein hübscher 😀 Krühner.".

The placing is the documents' own (pipeline.translate_flats), which the search's layer (attnmt.decoding) does not
import: these calls are the package's ``translate`` and ``translate_n_best``, and the JSONL input of ``attnmt
translate`` (attnmt.cli.translate_jsonl) reads and writes its texts with the same ``sentence_reads`` and
``written``.  A sentence without such things is read, and its translation written, as attnmt.decoding's is."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial

import attnmt.decoding.translate as search
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Glossaries, Guides, Prefixes, check_search, check_tokenizer, writes_whole
from attnmt.decoding.quality import Assessor
from attnmt.decoding.translate import Translation
from attnmt.decoding.unread import unread_hypotheses
from attnmt.decoding.written_text import written_assessment
from attnmt.documents.command_lines import is_command
from attnmt.documents.letterless import reaches_model, with_terms
from attnmt.documents.paragraphs import traced_weights
from attnmt.documents.spans import Weights
from attnmt.documents.terminal_codes import whole_with_codes, without_codes
from attnmt.documents.whole_sentence import model_reads, with_symbols
from attnmt.inspect.trace import PieceCodec
from attnmt.model import Transformer
from attnmt.text.data import given_texts
from attnmt.text.invisible import blank
from attnmt.text.sentence_ends import ended_as_source
from attnmt.text.speaker_labels import dialogue


def sentence_reads(lines: Sequence[str], glossaries: Sequence[Glossary | None], writes: Callable[[str], bool],
                   speakers: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """Each text's sentence, what of it the model is given (without the bidirectional controls and spaces at its
    edges, a terminal's code there whole: terminal_codes.whole_with_codes), "" for one without letters or of one
    letter, or a shell command alone (command_lines.is_command: ``npm install express``, kept as a text line is);
    and what the model reads of it (``model_reads``: ``writes`` says what its vocabulary writes, a text's glossary
    keeps the symbols in its terms), "" for one the model reads nothing of (every word in a script the
    vocabulary lacks, a URL alone), whose sentence is then "" too: such a text passes through.  ``speakers``: the
    names of the dialogue the texts take turns in (attnmt.text.speaker_labels.dialogue of ``lines``), whose labels
    are kept in each: read alone, "GUEST: oh, years ago." after "GUEST: Thanks for having me." lost its "GUEST:" to
    the model, where ``attnmt translate`` of the same lines kept it."""
    sentences = [line[slice(*whole_with_codes(line))] if reaches_model(without_codes(line)) and not is_command(line)
                 else "" for line in lines]
    reads = [model_reads(sentence, glossary, writes, speakers)
             for sentence, glossary in zip(sentences, glossaries, strict=True)]
    return [sentence if read else "" for sentence, read in zip(sentences, reads, strict=True)], reads


def written(line: str, sentence: str, read: str, translation: str, glossary: Glossary | None,
            writes: Callable[[str], bool], weigh: Callable[[str, str], Weights],
            speakers: frozenset[str] = frozenset()) -> str:
    """What is written for the ``translation`` of ``read``, what the model read of ``line`` read as ``sentence``
    (``sentence_reads``, with the same ``speakers``): with the symbols the model did not read put back
    (whole_sentence.with_symbols: ``glossary``, the line's, kept those in its terms for the model; ``writes`` says what
    its vocabulary writes; ``weigh`` places a symbol inside the sentence), between what stood at the line's edges, which
    the model did not read either: bidirectional controls, spaces (a terminal's code there, whole, is the sentence's); a
    line passed through (no ``sentence``) and the empty translation of a line the model failed on, as they are.  It ends
    as ``read`` ends (attnmt.text.sentence_ends.ended_as_source), as a text line's sentence does: the demo model wrote
    "Ein Hund." for "dog", where ``attnmt translate`` wrote "Ein Hund"."""
    if not (sentence and translation):
        return translation
    start, end = whole_with_codes(line)
    ended = ended_as_source(read, translation)
    return line[:start] + with_symbols(sentence, read, ended, glossary, writes, weigh, speakers) + line[end:]


def translate(model: Transformer, tokenizer: PieceCodec, sentences: Sequence[str | bytes],
              decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS, max_sentences: int | None = None,
              glossary: Glossaries = None, prefix: Prefixes = None) -> list[str]:
    """attnmt.decoding.translate.translate's translations (its arguments, its SentencesFailed), each sentence read
    and written as a JSONL text of ``attnmt translate`` is (the module docstring): a URL or an emoji inside it kept
    where its neighbours' words went, the spaces and controls at its edges where they stood; one without letters, or
    of one letter, or the model reads nothing of, itself, its glossary's terms replaced (letterless.with_terms)."""
    lines, guides, reads, write = sentence_inputs(model, tokenizer, sentences, glossary, prefix)
    with kept_written(lambda found: [write(k, text) for k, text in enumerate(found)]) as writing:
        return writing(search.translate(model, tokenizer, reads, decoding, max_tokens, max_sentences,
                                        guides.glossaries, guides.prefixes))


def translate_n_best(model: Transformer, tokenizer: PieceCodec, sentences: Sequence[str | bytes],
                     decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS, max_sentences: int | None = None,
                     glossary: Glossaries = None, prefix: Prefixes = None,
                     quality: Assessor | None = None) -> list[list[Translation]]:
    """attnmt.decoding.translate.translate_n_best's hypotheses, each written as ``translate`` writes a translation;
    a sentence passed through has one, itself, scored 0, its assessment a copy's (decoding.unread.copy_assessment)."""
    quality = search.checked_quality(quality)  # before a copy is assessed with it
    lines, guides, reads, write = sentence_inputs(model, tokenizer, sentences, glossary, prefix)
    # a sentence the model reads nothing of (a URL alone) passes through, as one without letters does
    copies = unread_hypotheses(model, tokenizer, ["" if read or blank(line) else line
                                                  for line, read in zip(lines, reads, strict=True)], quality)

    def writing(found: list[list[Translation]]) -> list[list[Translation]]:
        return [[rewritten(h, write(k, h.text)) for h in each or copies[k]] for k, each in enumerate(found)]

    with kept_written(writing) as write_all:
        return write_all(search.translate_n_best(model, tokenizer, reads, decoding, max_tokens, max_sentences,
                                                 guides.glossaries, guides.prefixes, quality))


def rewritten(hypothesis: Translation, text: str) -> Translation:
    """``hypothesis`` written as ``text``, its assessment's words those of ``text`` (written_text.written_assessment:
    a symbol put back has no probability, a word whose end mark went keeps its own)."""
    return replace(hypothesis, text=text, assessment=written_assessment(hypothesis.assessment, hypothesis.text, text))


def sentence_inputs(model: Transformer, tokenizer: PieceCodec, sentences: object, glossary: Glossaries,
                    prefix: Prefixes) -> tuple[list[str], Guides, list[str], Callable[[int, str], str]]:
    """The sentences as given (bytes read as UTF-8), their glossaries and prefixes, what the model reads of each
    (``sentence_reads``), and what writes sentence k's translation: ``written``, or for a sentence passed through
    (nothing read), the sentence itself, its glossary's terms replaced."""
    check_search(model, DEFAULT, MAX_TOKENS)  # the model, before its vocabulary is asked what it writes
    check_tokenizer(tokenizer)
    lines = given_texts(sentences)
    guides = Guides.of(len(lines), glossary, prefix)
    writes, speakers = writes_whole(tokenizer, model.config.unk_id), dialogue(lines)
    kept, reads = sentence_reads(lines, guides.glossaries, writes, speakers)
    weigh = partial(traced_weights, model, tokenizer)

    def write(k: int, translation: str) -> str:
        if not reads[k]:
            return with_terms(lines[k], guides.glossaries[k]) if lines[k].strip() else ""
        return written(lines[k], kept[k], reads[k], translation, guides.glossaries[k], writes, weigh, speakers)

    return lines, guides, reads, write


@contextmanager
def kept_written(write: Callable) -> Iterator[Callable]:
    """``write``; where the model failed on some sentences, their SentencesFailed with the others' outputs written."""
    try:
        yield write
    except SentencesFailed as failed:
        failed.outputs = write(failed.outputs)
        raise
