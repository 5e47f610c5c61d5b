"""One batch of source ids to its hypotheses, by the search a ``Decoding`` asks for.

    run_search          greedy search, beam search, or sampling, as ``decoding`` says
    search_with_terms   greedy or beam search where some sentences bring glossary terms
    forced_hypotheses   outputs written elsewhere (sampling's) scored by one teacher-forced pass

Apart from attnmt.decoding.translate, which handles text (tokenising, length-sorted batches, a
failed batch searched again a sentence at a time): here are only ids and tensors, and which search
each batch goes to.  The searches themselves are attnmt.decoding.search.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding import MAX_BEAM, Decoding
from attnmt.decoding.constraints import Terms
from attnmt.decoding.next_tokens import allow_forced, without_outside
from attnmt.decoding.search import Hypothesis, beam_search, greedy_search, length_penalty
from attnmt.decoding.state import Recording
from attnmt.decoding.term_fallback import with_fallbacks
from attnmt.model import Transformer
from attnmt.text.data import pad_rows


def run_search(model: Transformer, src: Tensor, decoding: Decoding, scored: bool, prefixes: list[list[int]],
                 terms: list[Terms], continuing: Tensor | None = None,
                 memory: Tensor | None = None, record: Recording | None = None,
                 space: int | None = None, stops: Tensor | None = None) -> list[list[Hypothesis]]:
    """One batch's hypotheses, by the search ``decoding`` asks for.

    Beam 1 without ``scored`` runs greedy search (the same output), whose hypotheses carry no
    scores (0.0): it adds up no log-probabilities.  Sampling draws one output per sentence
    (scored, with ``scored``, by one teacher-forced pass).  With a glossary, each sentence with terms
    runs constrained beam search with at least one hypothesis per bank (a beam of at least 1 + its
    term pieces, at most MAX_BEAM; ``search_with_terms``), and again with its terms' forms freed where the
    model cannot write those their rules allow, or with no piece bigram twice where it loops
    (term_fallback.with_fallbacks).  ``continuing``, ``space``,
    ``stops``: the pieces that may not follow a term, the lone "▁" after which no term starts, and the pieces that end a
    sentence, after which none starts where the model ends (``beam_search``).
    ``memory``: src's encoder output, where the caller has it already.  ``record``: beam search's
    hypotheses carry their cross-attention (``Hypothesis.attention``); greedy search's and sampling's
    do not.
    """
    if decoding.sampling:  # never with terms: refused before the search (inputs.check_not_sampled)
        outputs = greedy_search(model, src, decoding, prefixes=prefixes, memory=memory)
        return forced_hypotheses(model, src, outputs, decoding.alpha) if scored else [
            [Hypothesis(ids, 0.0, 0.0)] for ids in outputs]
    if any(terms):  # searched again more freely where the model cannot write the forms the terms allow
        def rows_searched(rows: list[int], own_terms: list[Terms], banned: int) -> list[list[Hypothesis]]:
            index = torch.tensor(rows, device=src.device)
            ban = min(filter(None, (banned, decoding.no_repeat_ngram_size)), default=0)  # the stricter, where asked
            own = replace(decoding, no_repeat_ngram_size=ban)
            return search_with_terms(model, src[index], own, scored, [prefixes[k] for k in rows], own_terms,
                                     continuing, None if memory is None else memory[index], record, space, stops)
        sources = [[token for token in row if token != model.config.pad_id] for row in src.tolist()]
        return with_fallbacks(rows_searched, terms, sources, continuing)
    if decoding.greedy and not scored:
        return [[Hypothesis(ids, 0.0, 0.0)]
                for ids in greedy_search(model, src, decoding, prefixes=prefixes, memory=memory)]
    return beam_search(model, src, decoding, prefixes=prefixes, terms=terms, continuing=continuing, memory=memory,
                       space=space, record=record, stops=stops)


def search_with_terms(model: Transformer, src: Tensor, decoding: Decoding, scored: bool,
                      prefixes: list[list[int]], terms: list[Terms], continuing: Tensor | None,
                      memory: Tensor | None, record: Recording | None, space: int | None = None,
                      stops: Tensor | None = None) -> list[list[Hypothesis]]:
    """Greedy or beam search of a batch where some sentences have terms: each sentence with terms
    searched with a beam of at least 1 + its term pieces (``term_beam``), those without as without a
    glossary.  The sentences of one width are searched together, so that a sentence's translation
    never depends on the terms of the others in its batch (``--batch-size`` changes no output)."""
    widths = [term_beam(decoding.beam_size, sentence) for sentence in terms]
    found: list[list[Hypothesis]] = [[] for _ in widths]
    for width in sorted(set(widths)):
        rows = [k for k, w in enumerate(widths) if w == width]
        index = torch.tensor(rows, device=src.device)
        own_prefixes, own_terms = [prefixes[k] for k in rows], [terms[k] for k in rows]
        own_memory = None if memory is None else memory[index]
        if not any(own_terms):  # no terms: searched as without a glossary
            each = run_search(model, src[index], decoding, scored, own_prefixes, own_terms, memory=own_memory,
                              record=record)
        else:
            each = beam_search(model, src[index], replace(decoding, beam_size=width), prefixes=own_prefixes,
                               terms=own_terms, continuing=continuing, memory=own_memory, space=space,
                               record=record, stops=stops)
        for k, hypotheses in zip(rows, each, strict=True):
            found[k] = hypotheses
    return found


def term_beam(beam_size: int, terms: Terms) -> int:
    """The beam a sentence with these ``terms`` is searched with: beam_size, but at least one hypothesis
    per bank (1 + the term pieces; at most MAX_BEAM).  The banks share the beam from the fullest down
    (attnmt.decoding.banks), so with fewer slots than banks the hypotheses that have not started a
    term got none: "Ein Junge reitet Elefant auf einem Elefanten." at beam 4, where beam 5 kept
    "Ein Junge reitet auf einem" and wrote "… auf einem Elefanten."."""
    return max(beam_size, min(MAX_BEAM, 1 + sum(map(len, terms))))


@torch.inference_mode()
def forced_hypotheses(model: Transformer, src: Tensor, outputs: list[list[int]],
                      alpha: float) -> list[list[Hypothesis]]:
    """Each output of src [B, S] as a Hypothesis with the model's log-probability of it and EOS
    (one teacher-forced pass over the batch), its score with length penalty α: as the search that
    wrote it would score it (over a shortlist that also holds the outputs' pieces, where it has one)."""
    c = model.config
    rows = [[c.bos_id, *ids, c.eos_id] for ids in outputs]
    target = pad_rows(rows, c.pad_id).to(src.device)
    memory = model.encode(src)
    allow_forced(model, (t for ids in outputs for t in ids))  # a prefix's pieces, where off the shortlist
    logits = model.decode(target[:, :-1], memory, padding_mask(src, c.pad_id))
    log_probs = without_outside(logits.float(), c).log_softmax(dim=-1).gather(2, target[:, 1:, None]).squeeze(2)
    found = []
    for i, ids in enumerate(outputs):
        log_prob = log_probs[i, : len(ids) + 1].sum().item()
        found.append([Hypothesis(ids, log_prob / length_penalty(len(ids) + 1, alpha), log_prob, 0,
                                 log_probs[i, : len(ids) + 1].tolist())])
    return found
