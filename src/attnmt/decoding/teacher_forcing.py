"""A translation given to the decoder whole (teacher-forced), not searched: what the model makes of a sentence and
a translation of it.

    score_pair          one pair -> each output id's probability and every attention matrix (ScoredPair): the one
                        pass word alignments, token confidences and the attention views read (attnmt.inspect)
    written_attention   a batch of pairs -> one decoder layer's cross-attention alone, the output layer not run:
                        alignments (attnmt.inspect.align) and quality's passes (attnmt.decoding.forced)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.next_tokens import whole_vocabulary_logits, without_outside
from attnmt.model import AttentionTrace, Transformer, check_model
from attnmt.text.data import pad_rows


@dataclass
class ScoredPair:
    """One teacher-forced pass of the model over a sentence and a translation of it.

    source: the source ids; target: the output ids (no BOS, no EOS);
    probs: the probability the model gives each output id, then EOS, after the ids before it;
    trace: every attention matrix of the pass, one [1, H, ·, ·] tensor per layer.
    """

    source: list[int]
    target: list[int]
    probs: list[float]
    trace: AttentionTrace


@torch.no_grad()  # not inference_mode: the trace's tensors stay ordinary ones a notebook can change
def score_pair(model: Transformer, source: list[int], target: list[int]) -> ScoredPair:
    """Scores target ids (no BOS, no EOS) as a translation of source ids, recording the attention:
    the one pass that word alignments, token confidences and the attention views all read.  The
    probabilities are the whole vocabulary's, also where the model searches a shortlist, but for pad
    and BOS, which get none (next_tokens.outside_distribution), as in the searches.  A ``model`` that
    is no Transformer is a ConfigError (``check_model``), as for ``translate``."""
    check_model(model)
    c = model.config
    device = next(model.parameters()).device
    src, trace = torch.tensor([source], device=device), AttentionTrace()
    with evaluating(model):  # Transformer.forward with its trace, the output layer over the whole vocabulary
        memory = model.encode(src, trace)
        states = model.decoder_states(torch.tensor([[c.bos_id, *target]], device=device), memory,
                                      padding_mask(src, c.pad_id), trace)
        logits = whole_vocabulary_logits(model, states)
    following = torch.tensor([*target, c.eos_id], device=device)
    probs = without_outside(logits[0].float(), c).softmax(dim=-1).gather(1, following[:, None]).squeeze(1).tolist()
    return ScoredPair(source, target, probs, trace)


@torch.inference_mode()
def written_attention(model: Transformer, src: Tensor, memory: Tensor, targets: Sequence[Sequence[int]],
                      layer: int = -1, heads: Sequence[int] | None = None) -> Tensor:
    """Decoder ``layer``'s cross-attention, the mean of ``heads`` (default: all), at the steps that
    wrote each target's ids: [B, T, S] for src [B, S], its encoder output memory [B, S, d] and B
    non-empty target id lists (no BOS, no EOS), teacher-forced in one padded batch.

    The decoder runs only up to those weights (``Transformer.cross_attention``), and not its output
    projection to the vocabulary (a large share of a pass on a small model): the attention is all
    that is read.  Rows past a target's end are padding."""
    c = model.config
    tgt_in = pad_rows([[c.bos_id, *ids[:-1]] for ids in targets], c.pad_id).to(src.device)
    weights = model.cross_attention(tgt_in, memory, padding_mask(src, c.pad_id), layer).float()  # [B, H, T, S]
    return (weights[:, list(heads)] if heads else weights).mean(dim=1).cpu()
