"""One translation's attention, recorded from the real model (no plotting here: the server uses it too).

    sentence ─ search ─ output ids ─ teacher-forced forward (teacher_forcing.score_pair) ─ TranslationAttention
                                                                                      ├─ figures (PNG)
                                                                                      └─ viewer (HTML)
"""

from __future__ import annotations

import functools
import json
import numbers
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import torch
from torch import Tensor

from attnmt.config_ranges import plain_number, whole_number
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.inputs import TextCodec, check_decoding, check_tokenizer, cut, encode_given_targets, encode_inputs
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.errors import ConfigError
from attnmt.model import CROSS_ATTENTION, Transformer, check_model
from attnmt.model import check_layer as check_model_layer
from attnmt.text.encodings import given_text
from attnmt.text.invisible import dropped


class PieceCodec(TextCodec, Protocol):
    """What showing attention needs of a tokenizer besides ``translate``'s: the pieces the model reads
    and writes, by which its rows and columns are labelled, and where each stands in the text (the
    word it belongs to, for word alignments: ``span_words``).  load_model_dir's tokenizers have them
    (attnmt.text.Tokenizer, and a model imported from Marian's VocabTokenizer)."""

    def pieces(self, text: str) -> list[str]: ...

    def id_to_piece(self, i: int) -> str: ...

    def source_spans(self, text: str) -> list[tuple[int, int]]: ...

    def target_spans(self, text: str) -> list[tuple[int, int]]: ...


KINDS = {
    "cross": CROSS_ATTENTION,
    "encoder": "encoder self-attention",
    "decoder_self": "decoder self-attention (causal)",
}
AXIS_TITLES = {  # (rows: queries, columns: keys)
    "cross": ("target (token being written)", "source"),
    "encoder": ("source (query)", "source (key)"),
    "decoder_self": ("target (token being written)", "target (decoder input)"),
}

@dataclass
class TranslationAttention:
    """Every attention weight of one translation, by layer and head; one sentence, so no padding.

    Decoder step t reads ``target_in[t]`` (``<s>`` then the output pieces) and writes
    ``target_out[t]`` (the output pieces then ``</s>``).  Weights are probabilities
    [layers, heads, queries, keys]; each query's row sums to 1:

    encoder:      [L_enc, H, S, S]  source piece i attends to source piece j
    decoder_self: [L_dec, H, T, T]  step t attends to decoder input j <= t (causal: zero above the diagonal)
    cross:        [L_dec, H, T, S]  step t attends to source piece j
    """

    sentence: str
    translation: str
    source: list[str]
    target_in: list[str]
    target_out: list[str]
    encoder: Tensor
    decoder_self: Tensor
    cross: Tensor
    probs: list[float] = field(default_factory=list)  # per target_out piece: the model's probability of it
    # The word of the sentence (split at whitespace) that holds each source piece but </s> (span_words), and
    # that of the target given for each output piece; None: counted by "▁" (word_index), as for a search's
    # output, whose text is its pieces joined.
    source_words: list[int] | None = None
    target_words: list[int] | None = None

    def confidence(self) -> list[tuple[str, float]]:
        """Each output piece, then the end of sentence, with the probability the model gave it
        after the pieces before it: how sure it was, token by token."""
        return list(zip(self.target_out, self.probs, strict=True))

    def weights(self, kind: str) -> Tensor:
        """[layers, heads, queries, keys] of one kind: "cross", "encoder" or "decoder_self"."""
        check_kind(kind)
        return getattr(self, kind)

    def labels(self, kind: str) -> tuple[list[str], list[str]]:
        """(row labels, column labels): the queries' and the keys' pieces."""
        check_kind(kind)
        return {
            "cross": (self.target_out, self.source),
            "encoder": (self.source, self.source),
            "decoder_self": (self.target_out, self.target_in),
        }[kind]

    def to_dict(self, decimals: int = 3) -> dict:
        """Plain JSON-ready data (what the HTML viewer embeds): weights as nested lists [layer][head][query][key]."""
        return {"sentence": self.sentence, "translation": self.translation,
                "kinds": {kind: {**self.described(kind), "weights": self.weights(kind).double().round(
                    decimals=decimals).tolist()} for kind in KINDS}}

    def to_json(self, decimals: int = 3) -> str:
        """``to_dict()`` as JSON text, its weights written straight from the tensors (``weights_json``):
        a long sentence has millions, and as Python floats each would take 32 bytes."""
        kinds = (f"{json.dumps(kind)}: {json.dumps(self.described(kind))[:-1]}, "
                 f'"weights": {weights_json(self.weights(kind), decimals)}}}' for kind in KINDS)
        return (f'{{"sentence": {json.dumps(self.sentence)}, "translation": {json.dumps(self.translation)}, '
                f'"kinds": {{{", ".join(kinds)}}}}}')

    def described(self, kind: str) -> dict:
        """What ``to_dict()`` says of one kind besides its weights: title, row and column pieces and titles."""
        rows, cols = self.labels(kind)
        return {"title": KINDS[kind], "rows": rows, "cols": cols, "row_title": AXIS_TITLES[kind][0],
                "col_title": AXIS_TITLES[kind][1]}


def weights_json(weights: Tensor, decimals: int) -> str:
    """Probabilities [..., keys] as JSON nested lists, each rounded to ``decimals`` places: one of
    10**decimals + 1 numbers, whose texts come from a table, a row at a time."""
    scale = 10**decimals
    texts = number_texts(decimals)
    steps = (weights.double() * scale).round().clamp(0, scale).long()

    def nested(block: Tensor) -> str:
        inner = (texts[step] for step in block.tolist()) if block.dim() == 1 else map(nested, block)
        return f"[{', '.join(inner)}]"

    return nested(steps)


@functools.cache
def number_texts(decimals: int) -> list[str]:
    """The JSON of i / 10**decimals for i = 0 … 10**decimals: what json.dumps writes for each
    probability rounded to ``decimals`` places."""
    return [json.dumps(i / 10**decimals) for i in range(10**decimals + 1)]


def check_kind(kind: str) -> None:
    """ConfigError (a ValueError) for a ``kind`` that is no key of KINDS, as for a layer or head the
    model lacks: it was a plain ValueError, which the command line printed as a traceback."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise ConfigError(f"unknown attention kind {kind!r}: use one of {', '.join(KINDS)}")


def check_layer(layer: int, count: int, kind: str) -> None:
    """attnmt.model.check_layer for a model's ``count`` layers of ``kind`` attention (a key of KINDS)."""
    check_model_layer(layer, count, KINDS[kind])


def checked_heads(heads: Sequence[int] | None, count: int) -> tuple[int, ...] | None:
    """``heads`` as ints (None: all), after a ConfigError naming the heads there are where it holds
    one a layer of ``count`` heads lacks; they count as ``check_layer``'s layers do.  Each head is
    read as ``whole_number`` reads a count (3.0, NumPy's ints, a 0-d tensor: indices that always
    worked).  An empty list is refused too: the mean of no heads has no meaning, and taking it for
    all of them would hide the mistake (a filter that kept none).  So is one head alone (0, not
    [0]), which was a TypeError."""
    there = f"0 to {count - 1}, -1 to -{count} from the last"
    if heads is None:
        return None
    if isinstance(heads, str | bytes) or not isinstance(heads, Sequence):
        alone = isinstance(heads, numbers.Integral) and not isinstance(heads, bool)
        raise ConfigError(f"heads={heads!r}: expected a list of heads ({there}), or None for all of them"
                          + (f"; pass [{heads!r}] for one" if alone else ""))
    if len(heads) == 0:
        raise ConfigError(f"heads=[]: give one head or more ({there}), or None for all of them")
    chosen = [whole_number(plain_number(head)) for head in heads]
    if not all(head is not None and -count <= head < count for head in chosen):
        raise ConfigError(f"heads={list(heads)}: each layer has {count} heads ({there}, or None for all of them)")
    given = [head for head in chosen if head is not None]
    twice = repeated_head(given, count)
    if twice:
        raise ConfigError(f"heads={list(heads)}: {twice}")
    return tuple(given)


def repeated_head(heads: Sequence[int], count: int) -> str | None:
    """Where ``heads`` (each in range for a layer of ``count``) names one head twice (2 and 2, or 3
    and -1 of 4), what to tell the user; None where each is named once.  A repeated head would weigh
    twice in the mean, which nobody asks for by listing it."""
    seen: dict[int, int] = {}
    for head in heads:
        if head % count in seen:
            earlier = seen[head % count]
            twice = f"head {head} is given twice" if earlier == head else f"{earlier} and {head} are the same head"
            return f"{twice}; give each head once (a repeated one would count twice in the mean)"
        seen[head % count] = head
    return None


def trace_translation(
    model: Transformer, tokenizer: PieceCodec, sentence: str | bytes, target: str | bytes | None = None,
    decoding: Decoding = DEFAULT, warn: bool = True,
) -> TranslationAttention:
    """Translates ``sentence`` (or takes ``target`` as given) and records the attention of that translation.

    The output ids come from ``decoding``'s search (greedy for beam_size 1); one teacher-forced
    pass over [BOS] + output (``teacher_forcing.score_pair``) then yields every attention matrix,
    exactly those that produced output + [EOS], and each output piece's probability.

    A sentence (or target) longer than the model's ``longest_input`` is cut as ``translate`` cuts
    it, with the same warning (none with ``warn`` False, for a caller tracing the translation
    ``translate`` wrote, which warned already): a cut source keeps its </s>, so the trace shows
    the translation ``translate`` gives.  ConfigError for a sentence with no pieces (blank, or only characters
    the tokenizer drops, such as U+200B), and for an argument of the wrong type (a list for the sentence,
    a model that is no Transformer: ``check_model``; a tokenizer that is none: ``check_tokenizer``).
    """
    check_model(model)
    check_tokenizer(tokenizer)
    sentence = given_text(sentence, "sentence")
    target = None if target is None else given_text(target, "target")
    check_decoding(decoding)
    c = model.config
    [src_ids] = encode_inputs(tokenizer, [sentence], c.longest_input, warn)
    if not src_ids:
        raise ConfigError("nothing to show: the sentence has no pieces to translate (it is blank, or holds "
                          'only characters the tokenizer drops); give one, e.g. "A man rides a bike."')
    if target is not None:
        [out_ids] = encode_given_targets(tokenizer, [target], c.longest_input)
    else:
        device = next(model.parameters()).device
        with evaluating(model):
            out_ids = search_one(model, torch.tensor([src_ids], device=device), decoding)
    scored = score_pair(model, src_ids, out_ids)

    def stack(layers: list[Tensor]) -> Tensor:  # L × [1, H, Q, K] -> [L, H, Q, K]
        return torch.cat(layers).float().cpu()

    pieces = [tokenizer.id_to_piece(i) for i in out_ids]
    source = cut(tokenizer.pieces(sentence), c.longest_input, tokenizer.source_eos)
    return TranslationAttention(
        sentence=sentence,
        translation=tokenizer.decode(out_ids),
        source=source,
        target_in=[tokenizer.id_to_piece(c.bos_id), *pieces],
        target_out=[*pieces, tokenizer.id_to_piece(c.eos_id)],
        encoder=stack(scored.trace.encoder),
        decoder_self=stack(scored.trace.decoder_self),
        cross=stack(scored.trace.cross),
        probs=scored.probs,
        source_words=source_word_numbers(tokenizer, sentence, len(source) - (source[-1:] == ["</s>"])),
        target_words=None if target is None else target_word_numbers(tokenizer, target, len(out_ids)),
    )


WORD = re.compile(r"\S+")  # a word of text split at whitespace, as Pharaoh's words are


def span_words(text: str, spans: Sequence[tuple[int, int]]) -> list[int]:
    """For each piece's (begin, end) in ``text``, the number of the word of ``text`` (split at whitespace)
    that holds it: the word of its first character that shows (none ``dropped``: not a space, nor
    one normalisation leaves out); for a piece of none (a "▁" alone, or one normalisation made up, whose span is empty),
    the first word that ends after its last character (after its start, for an empty span).

    Counting the pieces that start with "▁" numbers the words of the text as SentencePiece normalised
    it (NFKC), which are not always the user's: "Don´t" is read "Don ́t" (´ becomes a space and an
    accent: "▁Do", "n", "▁", "́", "t", one word here), and a U+200B between spaces, a word of its
    own to ``str.split``, is dropped ("▁rides" after it is the word after it).  A character
    SentencePiece drops where ``str.split`` parts words (a vertical tab, U+001C-U+001F) ends the span
    of the piece before it ("▁man" spans "man\\x0b"), which its first character still places."""
    ends = [match.end() for match in WORD.finditer(text)]
    last = max(len(ends) - 1, 0)
    numbers = []
    for begin, end in spans:
        shown = next((i for i in range(begin, end) if not dropped(text[i])), None)
        at = shown if shown is not None else end - 1 if end > begin else begin
        numbers.append(min(bisect_right(ends, at), last))
    return numbers


def source_word_numbers(tokenizer: PieceCodec, sentence: str, count: int) -> list[int]:
    """``span_words`` of the first ``count`` source pieces of ``sentence`` (a long one is cut, its </s> kept)."""
    return span_words(sentence, tokenizer.source_spans(sentence)[:count])


def target_word_numbers(tokenizer: PieceCodec, translation: str, count: int) -> list[int]:
    """``span_words`` of the first ``count`` pieces of a translation given to be read (encode_given_targets)."""
    return span_words(translation, tokenizer.target_spans(translation)[:count])


def search_one(model: Transformer, src: Tensor, decoding: Decoding) -> list[int]:
    """The best output ids for one sentence src [1, S]."""
    if decoding.greedy:
        return greedy_search(model, src, decoding)[0]
    return beam_search(model, src, replace(decoding, n_best=1))[0][0].tokens
