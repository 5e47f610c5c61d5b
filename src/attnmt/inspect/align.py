"""Word alignments from cross-attention, in Pharaoh format (``0-0 1-2 …``: source word - target word).

For each target subword the decoder wrote, the source subword that one layer's
cross-attention (mean of its heads) weighs most is taken as its partner; subword
pairs become pairs of the words of the sentence and of its translation split at whitespace,
each piece numbered by where it stands in the text (``trace.span_words``).
The weights are those of the step that wrote each piece: ``trace.trace_translation``
teacher-forced on the given translation (``align``), the same pass batched
(``align_batched``), or, while translating, a pass of the decoder alone over the search's
own output and encoder output (``translate_with_weights``).  The last layer is the default: on the Multi30k model it
aligned best of the three (``benchmarks/results/alignment.txt``).  For deeper models
another layer may be better (Garg et al., 2019, found the penultimate one best in
their 6-layer models): measure it with ``benchmarks/alignment.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import Tensor

from attnmt.config_ranges import truth_value
from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.failed_sentences import SentencesFailed, keeping
from attnmt.decoding.inputs import (
    Glossaries,
    Guides,
    check_batch_limits,
    check_tokenizer,
    checked_call,
    cut,
    encode_given_targets,
    encode_inputs,
    length_batches,
)
from attnmt.decoding.state import Recording
from attnmt.decoding.teacher_forcing import written_attention
from attnmt.decoding.translate import searched_batches
from attnmt.decoding.written_text import final_text, written_assessment, written_from
from attnmt.errors import ConfigError
from attnmt.inspect.trace import (
    PieceCodec,
    TranslationAttention,
    check_layer,
    checked_heads,
    source_word_numbers,
    target_word_numbers,
    trace_translation,
)
from attnmt.model import Transformer, check_model
from attnmt.text.data import given_pairs, pad_rows
from attnmt.text.invisible import blank

# The annotations' Assessment and Assessor: the package imports attnmt.decoding.quality where an annotation is read
# (attnmt.decoding.__getattr__), so that a document translated without a review loads no quality estimation.
if TYPE_CHECKING:
    import attnmt.decoding.quality
else:
    import attnmt

WORD_START = "▁"


def word_index(pieces: Sequence[str]) -> list[int]:
    """For each subword piece, the index of the word it belongs to ("▁" starts a word): the words of a
    search's output, whose text is its pieces joined, and of pieces given without their text."""
    words, index = [], -1
    for i, piece in enumerate(pieces):
        if piece.startswith(WORD_START) or i == 0:
            index += 1
        words.append(index)
    return words


def word_alignment(cross: Tensor, source_pieces: Sequence[str], target_pieces: Sequence[str],
                   source_numbers: Sequence[int] | None = None,
                   target_numbers: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """cross [target pieces, source pieces] attention weights -> sorted (source word, target word)
    pairs: each target piece linked to the source piece it attends to most.  ``source_numbers``,
    ``target_numbers``: each piece's word (``trace.span_words``); None: counted by "▁" (``word_index``)."""
    if not target_pieces or not source_pieces:
        return []
    best = cross[: len(target_pieces), : len(source_pieces)].argmax(dim=1).tolist()
    source_numbers = word_index(source_pieces) if source_numbers is None else source_numbers
    target_numbers = word_index(target_pieces) if target_numbers is None else target_numbers
    return sorted({(source_numbers[s], target_numbers[t]) for t, s in enumerate(best)})


def pharaoh(pairs: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{s}-{t}" for s, t in pairs)


def align(model: Transformer, tokenizer: PieceCodec, sources: Sequence[str | bytes],
          translations: Sequence[str | bytes],
          layer: int = -1, heads: Sequence[int] | None = None) -> list[list[tuple[int, int]]]:
    """Word alignments of each source sentence with its translation, from decoder ``layer``'s
    cross-attention (negative counts from the last), the mean of ``heads`` (default: all);
    [] where either side is blank."""
    sources, translations = given_pairs(sources, translations)
    return [trace_alignment(trace_translation(model, tokenizer, source, target=translation), layer, heads)
            if not (blank(source) or blank(translation)) else []
            for source, translation in zip(sources, translations, strict=True)]


def trace_alignment(trace: TranslationAttention, layer: int = -1,
                    heads: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """One traced translation's word alignment (see ``align``); [] when it has no output pieces.
    ConfigError naming those there are for a layer or a head the model lacks."""
    check_layer(layer, trace.cross.size(0), "cross")
    heads = checked_heads(heads, trace.cross.size(1))
    weights = trace.cross[layer]  # [heads, T + 1, S]: the rows that wrote each piece, then EOS
    cross = (weights[list(heads)] if heads else weights).mean(dim=0)
    # A source's closing </s> (source_eos) is no word: attention parked on it aligns nothing.
    words = trace.source[:-1] if trace.source[-1:] == ["</s>"] else trace.source
    return word_alignment(cross, words, trace.target_out[:-1], trace.source_words, trace.target_words)


def trace_weights(trace: TranslationAttention, layer: int = -1) -> Tensor:
    """One traced translation's [target words, source words] cross-attention (``word_weights``
    of ``layer``, all heads averaged), as ``translate_with_weights`` gives it for a search's output."""
    check_layer(layer, trace.cross.size(0), "cross")
    words = trace.source[:-1] if trace.source[-1:] == ["</s>"] else trace.source
    return word_weights(trace.cross[layer].mean(dim=0), words, trace.target_out[:-1], trace.source_words,
                        trace.target_words)


def trace_extras(trace: TranslationAttention | None, alignment: bool, confidence: bool, layer: int = -1,
                 heads: Sequence[int] | None = None) -> dict:
    """What a traced translation adds on request: ``"alignment"`` (Pharaoh pairs) and
    ``"confidence"`` ([piece, probability] per output piece, then EOS); trace None (a blank
    source): both empty."""
    extras: dict = {}
    if alignment:
        extras["alignment"] = pharaoh(trace_alignment(trace, layer, heads) if trace is not None else [])
    if confidence:
        extras["confidence"] = [[piece, round(p, 4)] for piece, p in trace.confidence()] if trace else []
    return extras


def align_batched(model: Transformer, tokenizer: PieceCodec, sources: Sequence[str | bytes],
                  translations: Sequence[str | bytes],
                  layer: int = -1, heads: Sequence[int] | None = None,
                  max_tokens: int = MAX_TOKENS, warn: bool = True) -> list[list[tuple[int, int]]]:
    """``align`` for many pairs at once: the teacher-forced passes run in length-sorted, padded
    batches of at most max_tokens source tokens.  Padding is masked (source) or after the rows
    read (target), so the links are ``align``'s.  ``warn`` False: no warning for a source cut, for
    a caller aligning what ``translate`` read, and warned of, already.  A ``model`` that is no
    Transformer is a ConfigError (``check_model``), as for ``align``, and a tokenizer that is none
    (``check_tokenizer``)."""
    check_model(model)
    check_tokenizer(tokenizer)
    sources, translations = given_pairs(sources, translations)
    check_batch_limits(max_tokens)
    found: list[list[tuple[int, int]]] = [[] for _ in sources]
    for i, cross, source_pieces, target_pieces in cross_attention_batches(
            model, tokenizer, sources, translations, layer, heads, max_tokens, warn):
        found[i] = word_alignment(cross, source_pieces, target_pieces,
                                  source_word_numbers(tokenizer, sources[i], len(source_pieces)),
                                  target_word_numbers(tokenizer, translations[i], len(target_pieces)))
    return found


def word_weights(cross: Tensor, source_pieces: Sequence[str], target_pieces: Sequence[str],
                 source_numbers: Sequence[int] | None = None, target_numbers: Sequence[int] | None = None) -> Tensor:
    """cross [target pieces, source pieces] -> [target words, source words]: for each target word,
    the attention its pieces give each source word's pieces (summed over those, averaged over its own).
    ``source_numbers``, ``target_numbers`` as ``word_alignment`` takes them; a word no piece stands in (a
    lone U+200B, which the tokenizer drops) has a row or a column of zeros."""
    if not target_pieces or not source_pieces:
        return torch.zeros(0, 0)
    source_numbers = word_index(source_pieces) if source_numbers is None else source_numbers
    target_numbers = word_index(target_pieces) if target_numbers is None else target_numbers
    pieces = cross[: len(target_pieces), : len(source_pieces)].cpu().numpy()
    words = word_sums(word_sums(pieces, source_numbers, axis=1), target_numbers, axis=0)
    pieces_per_word = np.bincount(target_numbers, minlength=words.shape[0])
    return torch.from_numpy(words / np.maximum(pieces_per_word, 1)[:, None])


def word_sums(pieces: np.ndarray, words: Sequence[int], axis: int) -> np.ndarray:
    """pieces summed along ``axis`` by word (``words``: each piece's, in order): one slice per word
    0 … the last, zeros for a word no piece stands in."""
    # numpy's reduceat over each word's first piece: these matrices are tiny, and torch's index_add_
    # on them costs more in thread hand-offs than in arithmetic.
    starts = [i for i in range(len(words)) if i == 0 or words[i] != words[i - 1]]
    runs = np.add.reduceat(pieces, starts, axis=axis)
    shape = list(pieces.shape)
    shape[axis] = max(words) + 1
    found = np.zeros(shape, dtype=runs.dtype)
    at: list = [slice(None)] * pieces.ndim
    at[axis] = [words[i] for i in starts]
    np.add.at(found, tuple(at), runs)
    return found


def translate_with_weights(model: Transformer, tokenizer: PieceCodec, sentences: Sequence[str | bytes],
                           weighed: Sequence[bool], decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS,
                           max_sentences: int | None = None, layer: int = -1,
                           heads: Sequence[int] | None = None,
                           glossary: Glossaries = None) -> tuple[list[str], list[Tensor | None]]:
    """``attnmt.decoding.translate.translate``'s translations (with ``glossary`` as there) and, for each
    sentence ``weighed`` marks, the cross-attention between its words and its translation's
    (``word_weights``: [target words, source words]; None for the others and for an empty translation).

    Beam search records the weights as it writes each token (``Recording``: the C++ step of the
    inference copy hands them over as it attends), which is what teacher forcing its output gives.
    Where a search records none (greedy search, sampling), one teacher-forced pass of the decoder
    alone over the search's own output ids reads them, batch by batch, from the encoder output the
    search computed: the source is encoded once and the translation is never tokenised again.
    ConfigError for a ``weighed`` that is not one bool per sentence (``checked_weighed``)."""
    sentences = checked_call(model, tokenizer, sentences, decoding, max_tokens, max_sentences)
    weighed = checked_weighed(weighed, len(sentences))
    try:
        texts, found, _ = translate_assessed(model, tokenizer, sentences, weighed, decoding, max_tokens,
                                             max_sentences, layer, heads, glossary)
    except SentencesFailed as failed:
        failed.outputs = failed.outputs[:2]  # what this call returns: the translations and their weights
        raise
    return texts, found


def is_zero_or_one(flag: object) -> bool:
    """Whether ``flag`` is the whole number 0 or 1 (an int or a NumPy integer, not a bool's other kin)."""
    return isinstance(flag, int | np.integer) and flag in (0, 1)


def checked_weighed(weighed: object, count: int) -> list[bool]:
    """``weighed`` as a list of ``count`` bools (a bool array's or tensor's ``tolist()`` too; a mask of whole
    numbers 0 and 1, as ``np.array([1, 0])`` is, too); a ConfigError
    naming it otherwise: one too few was an IndexError deep in the batches, and "yes" was read a
    character a sentence."""
    tolist = getattr(weighed, "tolist", None)
    given = tolist() if callable(tolist) else weighed
    flags = list(given) if isinstance(given, list | tuple) else []
    if len(flags) != count or any(truth_value(flag) is None and not is_zero_or_one(flag) for flag in flags):
        shown = " ".join(repr(weighed).splitlines())  # a tensor's repr spans lines
        raise ConfigError(f"weighed: expected a list of {count} bools, True for each sentence whose word weights are "
                          f"wanted, got {type(weighed).__name__} {shown:.60}")
    return [bool(flag) for flag in flags]


def translate_assessed(model: Transformer, tokenizer: PieceCodec, sentences: Sequence[str],
                       weighed: Sequence[bool], decoding: Decoding = DEFAULT, max_tokens: int = MAX_TOKENS,
                       max_sentences: int | None = None, layer: int = -1,
                       heads: Sequence[int] | None = None, glossary: Glossaries = None,
                       quality: attnmt.decoding.quality.Assessor | None = None,
                       ) -> tuple[list[str], list[Tensor | None], list[attnmt.decoding.quality.Assessment | None]]:
    """``translate_with_weights``'s translations and word weights, and with ``quality`` (an
    attnmt.decoding.quality.Assessor) each translation's Assessment (None for a blank sentence; an
    empty translation's is quality.empty_translation's), as ``assess`` gives it, from what each batch's search computed
    (``assess_searched``): the search scores its tokens and records the last layer's attention, so
    no second pass of the decoder runs for a translation whose text reads back as the ids searched.
    Without ``quality``, every Assessment is None; ConfigError for a layer or a head the model lacks,
    and for a tokenizer that is none (``check_tokenizer``: ModelTranslator's, which a document reaches here)."""
    check_tokenizer(tokenizer)
    check_layer(layer, model.config.decoder_layers, "cross")
    heads = checked_heads(heads, model.config.n_heads)
    if quality is not None and (layer != -1 or heads):
        raise ValueError("quality reads the last layer's cross-attention of all heads: give word weights of "
                         "another layer or heads by translate_with_weights, and assess apart")
    guides = Guides.of(len(sentences), glossary)
    record = Recording(layer, tuple(heads) if heads else None)
    # Only the batches holding a weighed sentence record (each step then copies its weights out), all where quality
    # reads every sentence's attention.
    record_for = None if quality is not None else weighed
    # Where sentences fail, the error holds all three, as this call returns them (SentencesFailed).
    nothing_yet: tuple[list[str], list[Tensor | None], list[attnmt.decoding.quality.Assessment | None]] = (
        [""] * len(sentences), [None] * len(sentences), [None] * len(sentences))
    with keeping(nothing_yet) as (outputs, found, assessed):
        for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences,
                                      quality is not None, guides, record, record_for):
            best = [hypotheses[0] for hypotheses in batch.hypotheses]
            texts = [tokenizer.decode(hypothesis.tokens) for hypothesis in best]  # as the model wrote them
            for i, text in zip(batch.indices, texts, strict=True):  # the articles agreed, in capitals where read so
                outputs[i] = final_text(sentences[i], batch.read[i], text, guides.glossaries[i], model.target_lang)
            if quality is not None:
                each = quality.searched(model, tokenizer, batch.read, batch, [[text] for text in texts])
                for i, text, [assessment] in zip(batch.indices, texts, each, strict=True):
                    assessed[i] = written_assessment(assessment, text, outputs[i])
            rows = [r for r, i in enumerate(batch.indices) if weighed[i] and best[r].tokens]
            unrecorded = [r for r in rows if best[r].attention is None]
            cross = dict(zip(unrecorded, written_attention(
                model, batch.src[unrecorded], batch.memory[unrecorded], [best[r].tokens for r in unrecorded], layer,
                heads) if unrecorded else [], strict=True))
            lengths = (batch.src != model.config.pad_id).sum(dim=1).tolist()
            for r in rows:
                i = batch.indices[r]
                recorded = best[r].attention
                weights = recorded if recorded is not None else cross[r]
                read = source_words(tokenizer, batch.read[i], lengths[r])
                words = word_weights(weights, read, [tokenizer.id_to_piece(t) for t in best[r].tokens],
                                     source_word_numbers(tokenizer, batch.read[i], len(read)))
                found[i] = rewritten_rows(words, texts[r], outputs[i])
    return outputs, found, assessed


def rewritten_rows(weights: Tensor, before: str, after: str) -> Tensor:
    """Word weights [words of ``before``, source words] as rows for the words of ``after``, the same translation with
    words rewritten (written_text.final_text: "im Wiese" -> "in der Wiese", a word more; "einem" -> "einer" keeps the
    count, and every row): each word of ``after`` has the row of the word it was written from
    (written_text.written_from), so that a mark over a source word stays on the target word it was on ("Wiese"), and
    a word written from none a row of zeros, as a word no piece stands in has (``word_weights``)."""
    if len(before.split()) == len(after.split()) or not len(weights):
        return weights
    with_zeros = torch.cat([weights, weights.new_zeros(1, weights.size(1))])  # its last row: a word from none
    rows = [len(weights) if row is None else min(row, len(weights) - 1) for row in written_from(before, after)]
    return with_zeros[torch.tensor(rows, dtype=torch.long)]


def cross_attention_batches(model: Transformer, tokenizer: PieceCodec, sources: Sequence[str],
                            translations: Sequence[str], layer: int, heads: Sequence[int] | None,
                            max_tokens: int, warn: bool = True) -> Iterator[tuple[int, Tensor, list[str], list[str]]]:
    """(pair index, cross [T, S] of ``layer`` averaged over ``heads`` (``written_attention``), source
    pieces without </s>, target pieces) for each pair with text on both sides, in padded batches."""
    c = model.config
    heads = checked_heads(heads, c.n_heads)  # the layer: Transformer.cross_attention
    device = next(model.parameters()).device
    # A pair blank on either side has no links; the others are cut as translate cuts them, with its warning
    # (none with ``warn`` False: align_batched).
    texts = [("", "") if blank(s) or blank(t) else (s, t) for s, t in zip(sources, translations, strict=True)]
    pairs = list(zip(encode_inputs(tokenizer, [s for s, _ in texts], c.longest_input, warn),
                     encode_given_targets(tokenizer, [t for _, t in texts], c.longest_input), strict=True))
    todo = [i for i, (src, out) in enumerate(pairs) if src and out]
    with evaluating(model):
        for batch in length_batches([max(len(pairs[i][0]), len(pairs[i][1])) for i in todo], max_tokens):
            rows = [todo[b] for b in batch]
            src = pad_rows([pairs[i][0] for i in rows], c.pad_id).to(device)
            with torch.inference_mode():
                memory = model.encode(src)
            cross = written_attention(model, src, memory, [pairs[i][1] for i in rows], layer, heads)
            for row, i in enumerate(rows):
                yield (i, cross[row], source_words(tokenizer, sources[i], len(pairs[i][0])),
                       [tokenizer.id_to_piece(k) for k in pairs[i][1]])


def source_words(tokenizer: PieceCodec, source: str, length: int) -> list[str]:
    """The source pieces the encoder read, ``length`` of them (a long source cut as ``translate``
    cuts it, its </s> kept), without a closing </s> (source_eos), which is no word."""
    pieces = cut(tokenizer.pieces(source), length, tokenizer.source_eos)
    return pieces[:-1] if pieces[-1:] == ["</s>"] else pieces
