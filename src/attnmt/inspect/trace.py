"""One translation's attention, recorded from the real model (no plotting here: the server uses it too).

    sentence ─ beam search ─ output ids ─ teacher-forced forward(return_attention) ─ TranslationAttention
                                                                                      ├─ figures (PNG)
                                                                                      └─ viewer (HTML)
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.model import Transformer
from attnmt.search import beam_search, greedy_search
from attnmt.tokenizer import Tokenizer

KINDS = {
    "cross": "cross-attention (decoder → encoder)",
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
        return {
            "sentence": self.sentence,
            "translation": self.translation,
            "kinds": {
                kind: {
                    "title": title,
                    "rows": self.labels(kind)[0],
                    "cols": self.labels(kind)[1],
                    "row_title": AXIS_TITLES[kind][0],
                    "col_title": AXIS_TITLES[kind][1],
                    "weights": self.weights(kind).double().round(decimals=decimals).tolist(),
                }
                for kind, title in KINDS.items()
            },
        }


def check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown attention kind {kind!r}: use one of {', '.join(KINDS)}")


@torch.no_grad()  # not inference_mode: the returned tensors stay ordinary ones a notebook can change
def trace_translation(
    model: Transformer, tokenizer: Tokenizer, sentence: str, target: str | None = None,
    beam_size: int = 4, alpha: float = 0.6,
) -> TranslationAttention:
    """Translates ``sentence`` (or takes ``target`` as given) and records the attention of that translation.

    The output ids come from beam search (greedy for beam_size=1); one teacher-forced
    pass over [BOS] + output then yields every attention matrix, exactly those that
    produced output + [EOS].
    """
    c = model.config
    src_ids = tokenizer.encode(sentence)[: c.max_positions - 2]
    if not src_ids:
        raise ValueError("nothing to show: the sentence is empty")
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device)  # [1, S]
    was_training = model.training
    model.eval()
    try:
        if target is not None:
            out_ids = tokenizer.encode_target(target)[: c.max_positions - 2]
        elif beam_size == 1:
            out_ids = greedy_search(model, src)[0]
        else:
            out_ids = beam_search(model, src, beam_size, alpha)[0][0].tokens
        tgt_in = torch.tensor([[c.bos_id, *out_ids]], device=device)  # [1, T]
        _, trace = model(src, tgt_in, return_attention=True)
    finally:
        model.train(was_training)

    def stack(layers: list[Tensor]) -> Tensor:  # L × [1, H, Q, K] -> [L, H, Q, K]
        return torch.cat(layers).float().cpu()

    pieces = [tokenizer.id_to_piece(i) for i in out_ids]
    return TranslationAttention(
        sentence=sentence,
        translation=tokenizer.decode(out_ids),
        source=tokenizer.pieces(sentence)[: len(src_ids)],
        target_in=[tokenizer.id_to_piece(c.bos_id), *pieces],
        target_out=[*pieces, tokenizer.id_to_piece(c.eos_id)],
        encoder=stack(trace.encoder),
        decoder_self=stack(trace.decoder_self),
        cross=stack(trace.cross),
    )
