"""The output layer and beam search's choice in one pass (csrc/top_tokens.cpp: top_log_probs_of):
the same candidates as the logits written out and then chosen from, on every kernel that has it."""

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD
from torch import nn

from attnmt.decoding import Decoding
from attnmt.decoding.next_tokens import READABLE
from attnmt.decoding.search import beam_search
from attnmt.decoding.state import Recording
from attnmt.fast import extension, prepare
from attnmt.fast.cache import GrowingCache
from attnmt.fast.int8 import Int8PanelLinear, int8_panels_available, quantize_linear_layers
from attnmt.fast.transformer import FastTransformer
from attnmt.model import Transformer, TransformerConfig

pytestmark = NEEDS_EXTENSION_BUILD
needs_vnni = pytest.mark.skipif(not int8_panels_available(), reason="no AVX512-VNNI int8 panels on this CPU")

BANNED = [0, 2]


def layer(vocab: int, d: int = 64) -> tuple[torch.Tensor, torch.Tensor]:
    """W [vocab, d], b [vocab]: token 2 (banned) holds every row's largest logit, the last token (in
    the last, partial panel) the next largest, and tokens 5 and 6, tied, the next two."""
    torch.manual_seed(vocab)
    w, b = torch.randn(vocab, d) * 0.3, torch.randn(vocab)
    b[2], b[vocab - 1] = 120.0, 80.0
    if vocab > 6:
        w[6], b[5], b[6] = w[5], 50.0, 50.0
    return w, b


def fp32_layer(w: torch.Tensor, b: torch.Tensor):
    """(logits of x, the fused choice of x) on the float32 panels."""
    panels, n = torch.ops.attnmt.pack_panels(w), w.size(0)
    return (lambda x: torch.ops.attnmt.panel_linear(x, panels, b, n, None, False),
            lambda x, k, forced: torch.ops.attnmt.panel_top_log_probs(x, panels, b, n, k, BANNED, forced))


def int8_layer(w: torch.Tensor, b: torch.Tensor):
    """The same on the int8 panels (their logits are those of the int8 weights)."""
    linear = nn.Sequential(nn.Linear(w.size(1), w.size(0)))
    linear[0].weight.data, linear[0].bias.data = w, b
    quantize_linear_layers(linear)  # torch.ao's int8 weights, one scale per output column
    panels = Int8PanelLinear(linear[0])
    return panels, lambda x, k, forced: panels.panels.top_log_probs(x, k, BANNED, forced)


KERNELS = [pytest.param(fp32_layer, id="fp32 panels"), pytest.param(int8_layer, id="int8 panels", marks=needs_vnni)]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("rows, vocab, k", [(1, 17, 2), (3, 60, 8), (9, 130, 8), (40, 4099, 8), (136, 20011, 8)])
@pytest.mark.parametrize("threads", [1, 2])
def test_the_fused_choice_is_the_choice_from_the_written_logits(kernel, rows, vocab, k, threads):
    assert extension.available()
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        logits_of, fused = kernel(*layer(vocab))
        x = torch.randn(rows, 64)
        logits = logits_of(x)
        top, tokens, normaliser = torch.ops.attnmt.top_log_probs(logits, k, BANNED)
        got_top, got_tokens, got_normaliser, forced_log_probs = fused(x, k, None)
    finally:
        torch.set_num_threads(before)
    assert torch.equal(got_tokens, tokens)
    assert bool((got_tokens[:, 0] == vocab - 1).all()) and not torch.isin(got_tokens, torch.tensor(BANNED)).any()
    if k > 2:  # the tie: the lower id first
        assert got_tokens[:, 1:3].tolist() == [[5, 6]] * rows
    torch.testing.assert_close(got_normaliser, logits.logsumexp(dim=1), atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(got_top, top, atol=1e-5, rtol=1e-6)
    assert torch.isnan(forced_log_probs).all()


@pytest.mark.parametrize("threads", [1, 2])
def test_among_tied_logits_the_fused_choice_takes_the_lower_ids_first(threads):
    """Whole-number weights and inputs: logits of a few whole values, exact in float32, so that the
    k-th best is tied with many later tokens, in other panels and other threads' slices."""
    torch.manual_seed(threads)
    vocab = 4099
    w, b = torch.randint(-1, 2, (vocab, 64)).float(), torch.zeros(vocab)
    logits_of, fused = fp32_layer(w, b)
    x = torch.randint(0, 2, (12, 64)).float()
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        tokens = fused(x, 8, None)[1]
    finally:
        torch.set_num_threads(before)
    logits = logits_of(x)
    assert torch.equal(logits, x @ w.T)  # whole numbers: no rounding
    order = torch.sort(-logits.index_fill(1, torch.tensor(BANNED), float("-inf")), dim=1, stable=True).indices
    assert torch.equal(tokens, order[:, :8])
    assert (logits.gather(1, order[:, 7:8]) == logits.gather(1, order[:, 8:9])).any()  # a tie at the k-th


@pytest.mark.parametrize("threads", [1, 2])
def test_the_fused_choice_never_takes_a_banned_token_from_a_later_block(threads):
    """Column 4000 (banned) holds every row's largest logit at place 32 of its chunk, where the list of
    k best is full, in a later block of columns than the first (1 thread: the second block; 2: the
    second thread's first); token 10 ties with token 2600 (in a chunk of a larger maximum) at the
    k-th place."""
    vocab, banned = 4099, [0, 2, 4000]
    w, b = torch.zeros(vocab, 64), torch.full((vocab,), -5.0)
    b[4000], b[2590], b[2600], b[10] = 200.0, 10.0, 3.0, 3.0
    panels = torch.ops.attnmt.pack_panels(w)
    x = torch.randn(12, 64)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        tokens = torch.ops.attnmt.panel_top_log_probs(x, panels, b, vocab, 2, banned, None)[1]
    finally:
        torch.set_num_threads(before)
    assert tokens.tolist() == [[2590, 10]] * 12


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_forced_tokens_log_prob_comes_with_the_choice(kernel):
    assert extension.available()
    logits_of, fused = kernel(*layer(4099))
    x = torch.randn(5, 64)
    forced = torch.tensor([-1, 0, 2, 4098, 1234])  # none, banned ones (still a log-prob), the last, any
    log_probs = logits_of(x).log_softmax(dim=1)
    got = fused(x, 4, forced)[3]
    assert torch.isnan(got[0])
    torch.testing.assert_close(got[1:], log_probs[torch.arange(1, 5), forced[1:]], atol=1e-5, rtol=1e-6)


def test_a_forced_token_outside_the_vocabulary_is_refused():
    assert extension.available()
    _, fused = fp32_layer(*layer(60))
    with pytest.raises(RuntimeError, match="forced token 60 is outside the vocabulary"):
        fused(torch.randn(2, 64), 2, torch.tensor([3, 60]))


def small_model(seed: int) -> Transformer:
    torch.manual_seed(seed)
    config = TransformerConfig(vocab_size=300, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=2, d_ff=64,
                               max_positions=64)
    return Transformer(config).eval()


@pytest.mark.parametrize("int8", [False, pytest.param(True, marks=needs_vnni)], ids=["fp32", "int8"])
def test_beam_search_through_the_fused_choice_finds_what_the_logits_path_finds(int8, monkeypatch):
    """Ending at the length limit (every row forced to EOS), under min_len, and after a prefix (forced
    tokens): the same hypotheses and scores whether the step chooses its next tokens itself or
    writes its logits for the search to choose from."""
    fast = prepare(small_model(seed=11), int8=int8)
    src = torch.randint(4, 300, (5, 8))
    src[3, 2:] = 0
    settings = Decoding(beam_size=4, n_best=4, alpha=0.6, max_len_a=0.0, max_len_b=6, min_len=2)
    prefixes = [[17, 18], [], [5], [], [40, 41, 42]]
    calls = []
    original = FastTransformer.decode_top

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FastTransformer, "decode_top", counted)
    fused = beam_search(fast, src, settings, prefixes=prefixes)
    assert calls, "the search never took the fused choice"
    monkeypatch.setattr(FastTransformer, "decode_top", lambda self, *args, **kwargs: None)
    written = beam_search(fast, src, settings, prefixes=prefixes)
    for ours, theirs in zip(fused, written, strict=True):
        assert [h.tokens for h in ours] == [h.tokens for h in theirs]
        assert [h.log_prob for h in ours] == pytest.approx([h.log_prob for h in theirs], abs=1e-4)
    assert [h.tokens[:2] for h in fused[0]] == [[17, 18]] * 4


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("threads", [1, 2])
def test_rows_whose_largest_logit_lies_anywhere_get_the_written_logits_normaliser(kernel, threads):
    """Unplanted logits: a row's largest logit comes in any block of columns, so the running sum is
    rescaled as a larger one arrives, and the threads' sums are brought to one maximum."""
    assert extension.available()
    torch.manual_seed(3)
    w, b = torch.randn(20011, 64), torch.randn(20011)  # logits of spread ~8: each block has a new maximum
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        logits_of, fused = kernel(w, b)
        x = torch.randn(64, 64)
        logits = logits_of(x)
        got_top, got_tokens, got_normaliser, _ = fused(x, 8, None)
    finally:
        torch.set_num_threads(before)
    top, tokens, _ = torch.ops.attnmt.top_log_probs(logits, 8, BANNED)
    assert torch.equal(got_tokens, tokens)
    assert len(set(logits.argmax(dim=1).div(2048, rounding_mode="floor").tolist())) > 3  # maxima all over the row
    torch.testing.assert_close(got_normaliser, logits.logsumexp(dim=1), atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(got_top, top, atol=1e-5, rtol=1e-6)


@pytest.mark.parametrize("rows, vocab", [(3, 60), (40, 4099)])
@pytest.mark.parametrize("threads", [1, 2])
def test_the_fused_choice_leaves_the_tokens_outside_out_of_the_normaliser(rows, vocab, threads):
    """Token 2 (BOS) holds every row's largest logit, by 40 over the next: outside the distribution
    (next_tokens.outside_distribution), it counts in no normaliser, as in the Python path."""
    assert extension.available()
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        w, b = layer(vocab)
        panels, x = torch.ops.attnmt.pack_panels(w), torch.randn(rows, 64)
        logits = torch.ops.attnmt.panel_linear(x, panels, b, vocab, None, False)
        forced = torch.full((rows,), 7)
        top, tokens, normaliser, forced_log_probs = torch.ops.attnmt.panel_top_log_probs(
            x, panels, b, vocab, 4, BANNED, forced, [0, 2])
    finally:
        torch.set_num_threads(before)
    expected = READABLE.top_log_probs(logits, 4, BANNED, [0, 2])  # torch.topk leaves the order of ties open
    assert torch.equal(tokens, torch.ops.attnmt.top_log_probs(logits, 4, BANNED, [0, 2])[1])
    torch.testing.assert_close(top, expected[0], atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(normaliser, expected[2], atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(forced_log_probs, logits[:, 7] - expected[2], atol=1e-5, rtol=1e-6)


@pytest.mark.parametrize("int8", [False, pytest.param(True, marks=needs_vnni)], ids=["fp32", "int8"])
@pytest.mark.parametrize("layer", [-1, 0])
def test_a_recording_search_takes_the_fused_choice_and_records_what_the_logits_path_records(int8, layer,
                                                                                           monkeypatch):
    """A search that records its cross-attention (word weights, quality) chooses its next tokens in the step's own
    pass, as one that does not: the same hypotheses, log-probs and recorded weights as when the step writes its
    logits, with a prefix (forced tokens) and sentences of several lengths."""
    fast = prepare(small_model(seed=12), int8=int8)
    src = torch.randint(4, 300, (4, 9))
    src[1, 3:] = 0
    settings = Decoding(beam_size=3, n_best=2, alpha=0.6, max_len_a=0.0, max_len_b=7)
    prefixes = [[], [21], [], [30, 31]]
    calls = []
    original = FastTransformer.decode_top_recording

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FastTransformer, "decode_top_recording", counted)
    fused = beam_search(fast, src, settings, prefixes=prefixes, record=Recording(layer))
    assert calls, "the recording search never took the fused choice"
    monkeypatch.setattr(FastTransformer, "decode_top_recording", lambda self, *args, **kwargs: None)
    written = beam_search(fast, src, settings, prefixes=prefixes, record=Recording(layer))
    for ours, theirs in zip(fused, written, strict=True):
        assert [h.tokens for h in ours] == [h.tokens for h in theirs]
        assert [h.log_prob for h in ours] == pytest.approx([h.log_prob for h in theirs], abs=1e-4)
        for one, other in zip(ours, theirs, strict=True):
            assert one.attention is not None and one.attention.shape == (len(one.tokens), src.size(1))
            torch.testing.assert_close(one.attention, other.attention, atol=1e-5, rtol=0)


def test_a_step_that_recorded_no_weights_raises_rather_than_passing_for_a_step_not_taken(monkeypatch):
    """decode_top_recording gave None, "the cache untouched", where the C++ step had chosen the tokens but recorded no
    weights; the cache then held the new position, and the search's logits path would have added it a second time.
    A step always records where ``record`` is set (GrowingCache.step_arguments): one that did not now raises."""
    fast = prepare(small_model(seed=12))
    arguments = GrowingCache.step_arguments

    def unrecorded(self, src_mask, rows):
        self.record = None
        return arguments(self, src_mask, rows)

    monkeypatch.setattr(GrowingCache, "step_arguments", unrecorded)
    with pytest.raises(RuntimeError, match="recorded no cross-attention weights"):
        beam_search(fast, torch.randint(4, 300, (2, 5)), Decoding(beam_size=2, max_len_b=3), record=Recording(0))
