"""Attention: the tutorial's worked example, the √d_k argument, and PyTorch as the oracle."""

import numpy as np
import pytest
import torch
from torch import nn

from attnmt.attention import (
    MultiHeadAttention,
    causal_mask,
    padding_mask,
    scaled_dot_product_attention,
)


def two_decimals(t: torch.Tensor) -> list[list[float]]:
    return [[round(x, 2) for x in row] for row in t.tolist()]


def test_worked_example_of_the_tutorial():
    # Inputs a¹=(1,1), a²=(1,0); W_q=[[1,1],[0,1]] so q = a W_q.
    a = torch.tensor([[1.0, 1.0], [1.0, 0.0]])
    w_q = torch.tensor([[1.0, 1.0], [0.0, 1.0]])
    q = a @ w_q
    assert q.tolist() == [[1.0, 2.0], [1.0, 1.0]]
    k = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    v = torch.eye(2)

    scores = q @ k.T / 2**0.5
    assert two_decimals(scores) == [[0.71, 1.41], [0.71, 0.71]]

    out, weights = scaled_dot_product_attention(q, k, v, need_weights=True)
    assert two_decimals(weights) == [[0.33, 0.67], [0.5, 0.5]]
    assert two_decimals(out) == [[0.33, 0.67], [0.5, 0.5]]


def test_scaling_by_sqrt_dk_keeps_softmax_from_collapsing():
    torch.manual_seed(0)
    samples = torch.randn(20_000) * 100.0  # N(0, 100²), as in the tutorial
    unscaled = samples.softmax(dim=0)
    scaled = (samples / 100.0).softmax(dim=0)
    assert unscaled.max() > 0.9  # nearly one-hot: gradients vanish
    assert scaled.max() < 0.01  # spread over many elements


@pytest.mark.parametrize("queries", [1, 5, 12])  # 5: a small query, which takes the explicit path on CPU
def test_fused_and_explicit_paths_agree(queries):
    torch.manual_seed(0)
    q, k, v = torch.randn(2, 3, queries, 8), torch.randn(2, 3, 7, 8), torch.randn(2, 3, 7, 6)
    mask = torch.rand(2, 1, queries, 7) > 0.3
    fused, none = scaled_dot_product_attention(q, k, v, mask)
    explicit, weights = scaled_dot_product_attention(q, k, v, mask, need_weights=True)
    assert none is None
    torch.testing.assert_close(fused, explicit, atol=1e-5, rtol=1e-5)
    assert weights.shape == (2, 3, queries, 7)


def test_bf16_inputs_match_float32_within_bf16_precision():
    """bf16 (training under autocast) takes the step-by-step path on CPU; its output and
    gradients stay within bf16's rounding of float32's."""
    torch.manual_seed(0)
    q, k, v = torch.randn(2, 3, 12, 8), torch.randn(2, 3, 7, 8), torch.randn(2, 3, 7, 6)
    mask = torch.rand(2, 1, 12, 7) > 0.3
    inputs32 = [t.clone().requires_grad_() for t in (q, k, v)]
    inputs16 = [t.to(torch.bfloat16).requires_grad_() for t in (q, k, v)]
    out32, _ = scaled_dot_product_attention(*inputs32, mask)
    out16, _ = scaled_dot_product_attention(*inputs16, mask)
    assert out16.dtype == torch.bfloat16
    torch.testing.assert_close(out16.float(), out32, atol=0.05, rtol=0.02)
    out32.sum().backward()
    out16.float().sum().backward()
    for a, b in zip(inputs16, inputs32, strict=True):
        torch.testing.assert_close(a.grad.float(), b.grad, atol=0.05, rtol=0.05)


def test_matches_torch_functional_sdpa():
    torch.manual_seed(1)
    q, k, v = torch.randn(4, 6, 16), torch.randn(4, 9, 16), torch.randn(4, 9, 16)
    expected = nn.functional.scaled_dot_product_attention(q, k, v)
    out, _ = scaled_dot_product_attention(q, k, v, need_weights=True)
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)


def test_masked_keys_get_exactly_zero_weight():
    torch.manual_seed(0)
    q, k, v = torch.randn(1, 4, 8), torch.randn(1, 5, 8), torch.randn(1, 5, 8)
    mask = torch.tensor([True, True, True, False, False])
    _, weights = scaled_dot_product_attention(q, k, v, mask, need_weights=True)
    assert torch.all(weights[..., 3:] == 0.0)
    torch.testing.assert_close(weights.sum(-1), torch.ones(1, 4))


@pytest.mark.parametrize("need_weights", [False, True])
def test_fully_masked_row_gives_zeros_not_nan(need_weights):
    q, k, v = torch.randn(1, 2, 4), torch.randn(1, 3, 4), torch.randn(1, 3, 4)
    mask = torch.tensor([[True, True, False], [False, False, False]])
    out, _ = scaled_dot_product_attention(q, k, v, mask, need_weights=need_weights)
    assert not torch.isnan(out).any()
    assert torch.all(out[0, 1] == 0.0)


@pytest.mark.parametrize("length", [1, 5, 12])  # the fused kernel (1, 12) and the step-by-step path (5)
@pytest.mark.parametrize("need_weights", [False, True])
def test_a_mask_that_is_not_boolean_is_one_error_naming_the_convention(length, need_weights):
    torch.manual_seed(0)
    mha = MultiHeadAttention(16, 4).eval()
    x = torch.randn(1, length, 16)
    zeros_and_ones = torch.tril(torch.ones(length, length))  # the tutorials' spelling of a causal mask
    with pytest.raises(ValueError, match=r"^attention masks are boolean, True where a query may attend to a key; "
                                         r"got a torch.float32 mask: give causal_mask\(T\)"):
        mha(x, x, x, zeros_and_ones, need_weights=need_weights)
    with pytest.raises(ValueError, match="got a torch.int64 mask"):
        mha.weights(x, x, zeros_and_ones.long())
    good, _ = mha(x, x, x, causal_mask(length), need_weights=need_weights)
    assert torch.equal(mha(x, x, x, zeros_and_ones.bool(), need_weights=need_weights)[0], good)


@pytest.mark.parametrize("length", [2.5, -1, True])
def test_a_causal_mask_length_that_is_no_count_is_rejected_in_one_line(length):
    with pytest.raises(ValueError, match=rf"^causal_mask: length must be a whole number of positions, got {length}$"):
        causal_mask(length)


@pytest.mark.parametrize("length", [np.int64(3), np.uint8(3), 3.0, torch.tensor(3)])
def test_a_causal_mask_length_of_any_numeric_type_is_a_count(length):
    assert torch.equal(causal_mask(length), causal_mask(3))


@pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning")
def test_a_causal_mask_traced_with_torch_jit_follows_the_length_it_is_given():
    # While tracing, x.size(1) is a 0-dim tensor: reading it as a count would fix the mask at 3.
    traced = torch.jit.trace(lambda x: causal_mask(x.size(1)), torch.zeros(2, 3))
    assert torch.equal(traced(torch.zeros(2, 5)), causal_mask(5))


def test_padding_mask_marks_real_tokens():
    tokens = torch.tensor([[5, 6, 0], [7, 0, 0]])
    mask = padding_mask(tokens, pad_id=0)
    assert mask.shape == (2, 1, 1, 3)
    assert mask[:, 0, 0].tolist() == [[True, True, False], [True, False, False]]


def test_causal_mask_lets_position_t_see_up_to_t():
    assert causal_mask(3).tolist() == [
        [True, False, False],
        [True, True, False],
        [True, True, True],
    ]


def copy_from_torch(torch_mha: nn.MultiheadAttention, d_model: int, n_heads: int) -> MultiHeadAttention:
    """Our MultiHeadAttention with the weights of PyTorch's (which packs W_Q, W_K, W_V in one matrix)."""
    ours = MultiHeadAttention(d_model, n_heads)
    w_q, w_k, w_v = torch_mha.in_proj_weight.chunk(3)
    b_q, b_k, b_v = torch_mha.in_proj_bias.chunk(3)
    with torch.no_grad():
        for proj, w, b in ((ours.q_proj, w_q, b_q), (ours.k_proj, w_k, b_k), (ours.v_proj, w_v, b_v)):
            proj.weight.copy_(w)
            proj.bias.copy_(b)
        ours.out_proj.weight.copy_(torch_mha.out_proj.weight)
        ours.out_proj.bias.copy_(torch_mha.out_proj.bias)
    return ours


@pytest.mark.parametrize("kind", ["self", "cross"])
def test_multi_head_attention_matches_torch(kind):
    torch.manual_seed(0)
    d_model, n_heads = 32, 4
    reference = nn.MultiheadAttention(d_model, n_heads, batch_first=True).eval()
    ours = copy_from_torch(reference, d_model, n_heads).eval()
    x = torch.randn(3, 6, d_model)
    memory = torch.randn(3, 9, d_model) if kind == "cross" else x
    keys = torch.randint(1, 10, (3, memory.size(1)))
    keys[0, -3:] = 0  # padding
    keys[2, -1:] = 0

    expected, expected_weights = reference(x, memory, memory, key_padding_mask=keys == 0)
    out, weights = ours(x, memory, memory, padding_mask(keys, 0), need_weights=True)
    fast, _ = ours(x, memory, memory, padding_mask(keys, 0))

    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(fast, expected, atol=1e-5, rtol=1e-5)
    assert weights.shape == (3, n_heads, 6, memory.size(1))
    torch.testing.assert_close(weights.mean(dim=1), expected_weights, atol=1e-5, rtol=1e-5)


def test_multi_head_attention_with_causal_mask_matches_torch():
    torch.manual_seed(2)
    reference = nn.MultiheadAttention(16, 2, batch_first=True).eval()
    ours = copy_from_torch(reference, 16, 2).eval()
    x = torch.randn(2, 5, 16)
    expected, _ = reference(x, x, x, attn_mask=~causal_mask(5))
    out, _ = ours(x, x, x, causal_mask(5))
    torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)


def test_d_model_not_divisible_by_heads_is_rejected():
    with pytest.raises(ValueError, match="not divisible by n_heads"):
        MultiHeadAttention(30, 4)


@pytest.mark.parametrize(("sizes", "message"), [
    ((8, 0), "n_heads must be a whole number of at least 1, got 0"),  # was a ZeroDivisionError
    ((8, -2), "n_heads must be a whole number of at least 1, got -2"),  # built a module that failed on its input
    ((8.5, 2), "d_model must be a whole number of at least 1, got 8.5"),
    (("8", 2), "d_model must be a whole number of at least 1, got '8'"),
])
def test_sizes_that_are_no_positive_count_are_rejected_in_one_line(sizes, message):
    with pytest.raises(ValueError, match=rf"^MultiHeadAttention: {message}$"):
        MultiHeadAttention(*sizes)


@pytest.mark.parametrize("p", [-0.5, 1.5])
def test_an_attention_dropout_that_is_no_probability_is_rejected_as_the_module_is_built(p):
    """-0.5 was taken, and in training the fused kernel said it does "not support dropout > 0"."""
    message = rf"^MultiHeadAttention: dropout probability must be between 0 and 1, got {p}$"
    with pytest.raises(ValueError, match=message):
        MultiHeadAttention(8, 2, dropout=p)


@pytest.mark.parametrize("queries", [1, 4, 10])  # the fused kernel (1, 10) and the step-by-step path (4)
@pytest.mark.parametrize("p", [-0.5, 1.5])
def test_a_dropout_p_that_is_no_probability_is_one_error_on_every_path(queries, p):
    """Only the step-by-step path checked it: 4 queries took -0.5 without a word, and 1 or 10 gave
    torch's "not support dropout > 0"."""
    q, kv = torch.randn(1, 2, queries, 8), torch.randn(1, 2, 5, 8)
    with pytest.raises(ValueError, match=rf"^dropout_p: dropout probability must be between 0 and 1, got {p}$"):
        scaled_dot_product_attention(q, kv, kv, dropout_p=p)


def test_sizes_of_any_numeric_type_are_counts():
    mha = MultiHeadAttention(np.int64(8), np.int32(2), d_k=4.0, d_v=np.int64(2))
    assert (mha.n_heads, mha.d_k, mha.d_v) == (2, 4, 2) and type(mha.n_heads) is int
    assert mha(torch.ones(1, 3, 8), torch.ones(1, 3, 8), torch.ones(1, 3, 8))[0].shape == (1, 3, 8)


def test_custom_head_sizes_and_input_sizes():
    # The tutorials' SelfAttention(input_dim, dim_qk, dim_v): d_k differs from d_v.
    mha = MultiHeadAttention(d_model=12, n_heads=2, d_k=3, d_v=5, kdim=7, vdim=9)
    assert mha.q_proj.out_features == 6 and mha.v_proj.out_features == 10
    out, weights = mha(torch.randn(2, 4, 12), torch.randn(2, 6, 7), torch.randn(2, 6, 9), need_weights=True)
    assert out.shape == (2, 4, 12)
    assert weights.shape == (2, 2, 4, 6)


def test_changing_padded_tokens_does_not_change_outputs():
    torch.manual_seed(0)
    mha = MultiHeadAttention(16, 4).eval()
    x = torch.randn(1, 6, 16)
    tokens = torch.tensor([[4, 5, 6, 7, 0, 0]])
    mask = padding_mask(tokens, 0)
    changed = x.clone()
    changed[:, 4:] = torch.randn(1, 2, 16) * 10
    a, _ = mha(x, x, x, mask)
    b, _ = mha(changed, changed, changed, mask)
    torch.testing.assert_close(a[:, :4], b[:, :4])


def test_causal_output_at_t_ignores_later_inputs():
    torch.manual_seed(0)
    mha = MultiHeadAttention(16, 4).eval()
    x = torch.randn(1, 6, 16)
    changed = x.clone()
    changed[:, 3:] = torch.randn(1, 3, 16)
    a, _ = mha(x, x, x, causal_mask(6))
    b, _ = mha(changed, changed, changed, causal_mask(6))
    torch.testing.assert_close(a[:, :3], b[:, :3])
    assert not torch.allclose(a[:, 3:], b[:, 3:])


@pytest.mark.parametrize("need_weights", [False, True])
def test_gradcheck_attention_in_double_precision(need_weights):
    torch.manual_seed(0)
    q = torch.randn(1, 2, 3, 4, dtype=torch.double, requires_grad=True)
    k = torch.randn(1, 2, 5, 4, dtype=torch.double, requires_grad=True)
    v = torch.randn(1, 2, 5, 4, dtype=torch.double, requires_grad=True)
    mask = torch.tensor([True, True, True, True, False])
    assert torch.autograd.gradcheck(
        lambda q, k, v: scaled_dot_product_attention(q, k, v, mask, need_weights=need_weights)[0],
        (q, k, v),
    )
