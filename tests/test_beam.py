"""Beam search's strategies (attnmt.decoding.beam): plain and constrained rank a step's extensions,
and agree wherever a sentence has no terms."""

import torch
from support import ending_model

from attnmt.decoding import Decoding
from attnmt.decoding.beam import BeamSearch, ConstrainedBeamSearch, strategy_for
from attnmt.decoding.constraints import Constraints
from attnmt.decoding.search import beam_search

EOS = 3


def test_the_strategy_is_constrained_only_where_a_sentence_has_a_term():
    device = torch.device("cpu")
    assert type(strategy_for(None, device)) is BeamSearch
    assert type(strategy_for([[], []], device)) is BeamSearch
    assert type(strategy_for([[[7]], []], device)) is ConstrainedBeamSearch


def test_both_strategies_rank_a_sentence_without_terms_alike():
    """Two sentences, one row each; the first must write token 7, the second has no term.  Each row's
    4 best next tokens, then (constrained) its wanted one, at -inf where there is none."""
    beam_log_prob = torch.tensor([-1.0, -2.0])
    row_top = torch.tensor([[-0.1, -0.5, -1.2, -2.0], [-0.2, -0.3, -1.5, -3.0]])
    row_token = torch.tensor([[4, 5, EOS, 6], [8, EOS, 9, 10]])
    constrained = ConstrainedBeamSearch(Constraints.start([[[7]], []], torch.device("cpu")))
    wanted = constrained.wanted()  # [2, 2]: the first piece of each unmet term, then the pieces where forms part
    assert wanted.tolist() == [[7, -1], [-1, -1]]
    extra = torch.tensor([[-4.0, float("-inf")], [float("-inf"), float("-inf")]])
    at_limit = torch.tensor([False, False])
    plain = BeamSearch().rank(beam_log_prob, row_top, row_token, 2, 4, EOS, at_limit)
    ranked = constrained.rank(beam_log_prob, torch.cat([row_top, extra], 1),
                              torch.cat([row_token, wanted.clamp(min=0)], 1), 2, 4, EOS, at_limit)
    assert plain.missed is None
    assert torch.equal(ranked.token[1, :4], plain.token[1]) and torch.equal(ranked.row[1, :4], plain.row[1])
    assert torch.equal(ranked.log_prob[1, :4], plain.log_prob[1]) and ranked.missed[1].eq(0).all()
    # The first sentence: EOS before its term is ruled out, and the term's token is offered.
    eos = ranked.token[0] == EOS
    assert ranked.log_prob[0][eos].eq(float("-inf")).all() and 7 in ranked.token[0].tolist()


def test_a_sentence_without_terms_gets_the_plain_search_beside_one_with_terms():
    model, decoding = ending_model(), Decoding(beam_size=4, n_best=4, alpha=0.0)
    src = torch.tensor([[9, 10, 11, 0], [12, 13, 14, 15]])
    constrained = beam_search(model, src, decoding, terms=[[[30, 31]], []])
    assert constrained[1] == beam_search(model, src, decoding)[1]
