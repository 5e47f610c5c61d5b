"""Positional encoding, feed-forward, and encoder/decoder layers against PyTorch's own."""

import math

import pytest
import torch
from torch import nn

from attnmt import dropout as dropout_module
from attnmt.attention import causal_mask, padding_mask
from attnmt.dropout import Dropout
from attnmt.layers import (
    DecoderLayer,
    EncoderLayer,
    FeedForward,
    PositionalEncoding,
    sinusoidal_table,
)


def test_sinusoidal_values_follow_the_paper():
    table = sinusoidal_table(50, 8)
    pos, i = 7, 1  # column 2i = 2 is sin, 2i + 1 = 3 is cos
    angle = pos / 10000 ** (2 * i / 8)
    assert table[pos, 2].item() == pytest.approx(math.sin(angle), abs=1e-6)
    assert table[pos, 3].item() == pytest.approx(math.cos(angle), abs=1e-6)
    assert table[0, 0::2].abs().max() == 0.0 and torch.all(table[0, 1::2] == 1.0)


def test_half_layout_puts_sines_first_then_cosines():
    interleaved = sinusoidal_table(20, 8, "interleaved")
    half = sinusoidal_table(20, 8, "half")
    torch.testing.assert_close(half[:, :4], interleaved[:, 0::2])
    torch.testing.assert_close(half[:, 4:], interleaved[:, 1::2])


def test_positional_encoding_adds_table_from_offset():
    pe = PositionalEncoding(8, max_len=20)
    x = torch.zeros(1, 3, 8)
    torch.testing.assert_close(pe(x, offset=5)[0], sinusoidal_table(20, 8)[5:8])


def test_learned_positional_encoding_is_trainable():
    pe = PositionalEncoding(8, max_len=20, kind="learned")
    assert [name for name, _ in pe.named_parameters()] == ["embedding.weight"]
    pe(torch.zeros(1, 3, 8)).sum().backward()
    assert pe.embedding.weight.grad[:3].abs().sum() > 0
    assert pe.embedding.weight.grad[3:].abs().sum() == 0


def test_position_beyond_max_is_a_clear_error():
    with pytest.raises(ValueError, match="max_positions=4"):
        PositionalEncoding(8, max_len=4)(torch.zeros(1, 5, 8))


def test_feed_forward_is_relu_between_two_linears():
    torch.manual_seed(0)
    ff = FeedForward(4, 6)
    x = torch.randn(2, 3, 4)
    expected = torch.relu(x @ ff.linear1.weight.T + ff.linear1.bias) @ ff.linear2.weight.T + ff.linear2.bias
    torch.testing.assert_close(ff(x), expected)


def copy_attention(ours, theirs: nn.MultiheadAttention) -> None:
    w_q, w_k, w_v = theirs.in_proj_weight.chunk(3)
    b_q, b_k, b_v = theirs.in_proj_bias.chunk(3)
    for proj, w, b in ((ours.q_proj, w_q, b_q), (ours.k_proj, w_k, b_k), (ours.v_proj, w_v, b_v)):
        proj.weight.copy_(w)
        proj.bias.copy_(b)
    ours.out_proj.load_state_dict(theirs.out_proj.state_dict())


def copy_common(ours, theirs) -> None:
    """Feed-forward and LayerNorms, named alike in both implementations."""
    ours.feed_forward.linear1.load_state_dict(theirs.linear1.state_dict())
    ours.feed_forward.linear2.load_state_dict(theirs.linear2.state_dict())
    for name in ("norm1", "norm2", "norm3"):
        if hasattr(theirs, name):
            getattr(ours, name).load_state_dict(getattr(theirs, name).state_dict())


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_torch(norm_first):
    torch.manual_seed(0)
    theirs = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True,
                                        norm_first=norm_first).eval()
    ours = EncoderLayer(32, 4, 64, dropout=0.0, norm_first=norm_first).eval()
    with torch.no_grad():
        copy_attention(ours.self_attn, theirs.self_attn)
        copy_common(ours, theirs)
    tokens = torch.tensor([[5, 6, 7, 8, 0], [5, 6, 0, 0, 0]])
    x = torch.randn(2, 5, 32)
    expected = theirs(x, src_key_padding_mask=tokens == 0)
    out, _ = ours(x, padding_mask(tokens, 0))
    real = tokens != 0  # PyTorch's fast path zeroes padded positions; compare real ones
    torch.testing.assert_close(out[real], expected[real], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_torch(norm_first):
    torch.manual_seed(0)
    theirs = nn.TransformerDecoderLayer(32, 4, 64, dropout=0.0, batch_first=True,
                                        norm_first=norm_first).eval()
    ours = DecoderLayer(32, 4, 64, dropout=0.0, norm_first=norm_first).eval()
    with torch.no_grad():
        copy_attention(ours.self_attn, theirs.self_attn)
        copy_attention(ours.cross_attn, theirs.multihead_attn)
        copy_common(ours, theirs)
    src = torch.tensor([[5, 6, 7, 0], [5, 6, 7, 8]])
    x, memory = torch.randn(2, 6, 32), torch.randn(2, 4, 32)
    expected = theirs(x, memory, tgt_mask=~causal_mask(6), memory_key_padding_mask=src == 0)
    out, self_w, cross_w = ours(x, memory, causal_mask(6), padding_mask(src, 0), need_weights=True)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)
    assert torch.all(self_w.triu(diagonal=1) == 0)  # nothing from the future
    assert torch.all(cross_w[0, :, :, 3] == 0)  # nothing from padding


def test_decoder_cache_gives_same_output_as_full_prefix():
    torch.manual_seed(0)
    layer = DecoderLayer(16, 2, 32, dropout=0.0).eval()
    x, memory = torch.randn(1, 5, 16), torch.randn(1, 3, 16)
    full, _, _ = layer(x, memory, causal_mask(5))
    cache = layer.init_cache(memory)
    steps = [layer(x[:, t:t + 1], None, cache=cache)[0] for t in range(5)]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=1e-5)


def hashed_path_loads() -> bool:
    from attnmt.fast import extension

    return extension.available()


# Dropout's two paths: 16 bits drawn per element with a kept mask, and the C++ extension's hashed
# masks (csrc/dropout.cpp), taken on a CPU wherever the extension loads.
@pytest.fixture(params=[False, True], ids=["drawn", "hashed"])
def dropout_path(request, monkeypatch):
    hashed = request.param
    if hashed and not hashed_path_loads():
        pytest.skip("the C++ extension does not load here")
    monkeypatch.setattr(dropout_module, "hashed_dropout_runs", lambda x: hashed and x.device.type == "cpu")
    return hashed


def test_dropout_zeroes_about_p_and_keeps_the_expected_value(dropout_path):
    torch.manual_seed(0)
    dropout = Dropout(0.1).train()
    x = torch.ones(1000, 1000)
    out = dropout(x)
    dropped = (out == 0).float().mean().item()
    assert abs(dropped - 0.1) < 0.002  # 1M draws: the standard error is 0.0003
    kept = out[out != 0]
    torch.testing.assert_close(kept, torch.full_like(kept, 65536 / (65536 - 6554)))
    assert abs(out.mean().item() - 1.0) < 0.003


def test_dropout_masks_are_uniform_across_places_and_odd_sizes(dropout_path):
    torch.manual_seed(1)
    out = Dropout(0.5).train()(torch.ones(400_001))  # odd: the last draw (or hash) is cut
    dropped = (out[:399_360] == 0).float()
    lanes = dropped.view(-1, 4).mean(dim=0)  # the four elements of one 64-bit draw
    halves = dropped.view(-1, 2, 512).mean(dim=(0, 2))  # the low and high bits of a block's hashes
    assert torch.all((lanes - 0.5).abs() < 0.01) and torch.all((halves - 0.5).abs() < 0.01), (lanes, halves)
    assert abs((out[-1000:] == 0).float().mean().item() - 0.5) < 0.08  # the tail, too
    neighbours = (out[:-1] == 0) & (out[1:] == 0)  # neighbours dropped together a quarter of the time
    assert abs(neighbours.float().mean().item() - 0.25) < 0.005


def test_dropout_gradient_is_the_same_mask_and_eval_is_identity(dropout_path):
    torch.manual_seed(2)
    dropout = Dropout(0.3).train()
    x = torch.randn(64, 33, requires_grad=True)
    out = dropout(x)
    out.sum().backward()
    torch.testing.assert_close(x.grad, torch.where(out != 0, 1 / (1 - 0.3), 0.0), atol=1e-4, rtol=1e-4)
    assert dropout.eval()(x) is x
    assert Dropout(0.0).train()(x) is x
    assert torch.all(Dropout(1.0).train()(x) == 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        Dropout(1.5)


@pytest.mark.parametrize("p", [-0.5, 2.0])
def test_the_dropout_function_rejects_what_is_no_probability(p):
    """p = -0.5 zeroed half the elements and scaled the rest by 0.667."""
    with pytest.raises(ValueError, match=rf"^dropout probability must be between 0 and 1, got {p}$"):
        dropout_module.dropout(torch.ones(8), p)


def test_dropout_repeats_under_a_seed_and_keeps_the_dtype(dropout_path):
    x = torch.ones(50, 50, dtype=torch.bfloat16)
    torch.manual_seed(3)
    first = Dropout(0.2).train()(x)
    torch.manual_seed(3)
    second = Dropout(0.2).train()(x)
    assert torch.equal(first, second) and first.dtype == torch.bfloat16
    assert not torch.equal(first, Dropout(0.2).train()(x))  # the next call draws anew


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_dropout_after_relu_is_dropout_of_relu_with_its_gradient(dropout_path, dtype):
    """The feed-forward's Dropout(ReLU(x)), one pass each way on the hashed path: the same output
    and gradient as the two modules one after the other, from the same seed."""
    dropout = Dropout(0.25).train()
    x = torch.randn(37, 1001).to(dtype).requires_grad_()
    x2 = x.detach().clone().requires_grad_()
    g = torch.randn(37, 1001).to(dtype)
    torch.manual_seed(6)
    fused = dropout.after_relu(x)
    fused.backward(g)
    torch.manual_seed(6)
    apart = dropout(torch.relu(x2))
    apart.backward(g)
    assert torch.equal(fused, apart)
    assert torch.equal(x.grad, x2.grad)
    assert dropout.eval().after_relu(x).equal(torch.relu(x))


def test_hashed_dropout_rounds_once_and_ignores_the_thread_count():
    if not hashed_path_loads():
        pytest.skip("the C++ extension does not load here")
    x = torch.randn(3, 70_001)  # past one parallel task, with a tail
    scale = 65536 / (65536 - 13107)
    with_two = torch.ops.attnmt.hashed_dropout(x, 12345, 13107, scale)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        assert torch.equal(torch.ops.attnmt.hashed_dropout(x, 12345, 13107, scale), with_two)
    finally:
        torch.set_num_threads(threads)
    kept = with_two != 0
    torch.testing.assert_close(with_two[kept], x[kept] * scale, rtol=0, atol=0)
    in_bf16 = torch.ops.attnmt.hashed_dropout(x.bfloat16(), 12345, 13107, scale)
    assert torch.equal(in_bf16 != 0, kept & (x.bfloat16() != 0))  # the same places
    assert torch.equal(in_bf16, (x.bfloat16().float() * torch.where(kept, scale, 0.0)).bfloat16())
    assert not torch.equal(torch.ops.attnmt.hashed_dropout(x, 54321, 13107, scale) != 0, kept)


def test_cached_decoder_rows_grouped_by_sentence_equal_rows_with_their_own_memory():
    """Beam search: 3 hypotheses of each of 2 sentences share that sentence's encoder keys/values."""
    torch.manual_seed(4)
    layer = DecoderLayer(16, 2, 32, dropout=0.0).eval()
    memory, x = torch.randn(2, 4, 16), torch.randn(6, 1, 16)
    cross_mask = torch.tensor([[True, True, True, False], [True, True, True, True]])[:, None, None, :]
    grouped = layer(x, None, cross_mask=cross_mask, need_weights=True, cache=layer.init_cache(memory))
    per_row = layer(x, memory.repeat_interleave(3, dim=0), cross_mask=cross_mask.repeat_interleave(3, dim=0),
                    need_weights=True)
    for got, expected in zip(grouped, per_row, strict=True):
        torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)
    assert grouped[2].shape == (6, 2, 1, 4)
