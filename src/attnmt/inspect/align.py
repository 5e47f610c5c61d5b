"""Word alignments from cross-attention, in Pharaoh format (``0-0 1-2 …``: source word - target word).

For each target subword the decoder wrote, the source subword that one layer's
cross-attention (mean of its heads) weighs most is taken as its partner; subword
pairs become word pairs (a SentencePiece piece starting with "▁" starts a word).
The weights are those of the step that wrote each piece: ``trace.trace_translation``
teacher-forced on the given translation.  The last layer is the default: on the Multi30k model it
aligned best of the three (``benchmarks/results/alignment.txt``).  For deeper models
another layer may be better (Garg et al., 2019, found the penultimate one best in
their 6-layer models): measure it with ``benchmarks/alignment.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from torch import Tensor

from attnmt.inspect.trace import TranslationAttention, trace_translation
from attnmt.model import Transformer
from attnmt.tokenizer import Tokenizer

WORD_START = "▁"


def word_index(pieces: Sequence[str]) -> list[int]:
    """For each subword piece, the index of the word it belongs to ("▁" starts a word)."""
    words, index = [], -1
    for i, piece in enumerate(pieces):
        if piece.startswith(WORD_START) or i == 0:
            index += 1
        words.append(index)
    return words


def word_alignment(cross: Tensor, source_pieces: Sequence[str], target_pieces: Sequence[str]) -> list[tuple[int, int]]:
    """cross [target pieces, source pieces] attention weights -> sorted (source word, target word)
    pairs: each target piece linked to the source piece it attends to most."""
    if not target_pieces or not source_pieces:
        return []
    best = cross[: len(target_pieces), : len(source_pieces)].argmax(dim=1).tolist()
    source_words, target_words = word_index(source_pieces), word_index(target_pieces)
    return sorted({(source_words[s], target_words[t]) for t, s in enumerate(best)})


def pharaoh(pairs: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{s}-{t}" for s, t in pairs)


def align(model: Transformer, tokenizer: Tokenizer, sources: Sequence[str], translations: Sequence[str],
          layer: int = -1, heads: Sequence[int] | None = None) -> list[list[tuple[int, int]]]:
    """Word alignments of each source sentence with its translation, from decoder ``layer``'s
    cross-attention (negative counts from the last), the mean of ``heads`` (default: all);
    [] where either side is blank."""
    return [trace_alignment(trace_translation(model, tokenizer, source, target=translation), layer, heads)
            if source.strip() and translation.strip() else []
            for source, translation in zip(sources, translations, strict=True)]


def trace_alignment(trace: TranslationAttention, layer: int = -1,
                    heads: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """One traced translation's word alignment (see ``align``); [] when it has no output pieces."""
    weights = trace.cross[layer]  # [heads, T + 1, S]: the rows that wrote each piece, then EOS
    cross = (weights[list(heads)] if heads else weights).mean(dim=0)
    # A source's closing </s> (source_eos) is no word: attention parked on it aligns nothing.
    words = trace.source[:-1] if trace.source[-1:] == ["</s>"] else trace.source
    return word_alignment(cross, words, trace.target_out[:-1])


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
