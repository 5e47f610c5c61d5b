"""The training objective: the block-wise output loss against the readable label_smoothed_nll."""

import pytest
import torch

from attnmt.model import Transformer, TransformerConfig
from attnmt.training import objective
from attnmt.training.objective import OutputLoss, TranslationLoss, label_smoothed_nll

SRC = torch.tensor([[5, 6, 7, 0], [8, 9, 10, 11], [12, 5, 0, 0]])
TGT_IN = torch.tensor([[2, 12, 13, 0], [2, 14, 15, 16], [2, 17, 0, 0]])
TGT_OUT = torch.tensor([[12, 13, 3, 0], [14, 15, 16, 3], [17, 3, 0, 0]])


def extension_loads() -> bool:
    from attnmt.fast import extension

    return extension.available()


@pytest.fixture(autouse=True, params=[False, True], ids=["torch-ops", "fused"])
def loss_path(request, monkeypatch):
    """Every test twice: the loss and gradient from PyTorch's ops, and from the C++ extension's
    one pass per row (csrc/smoothed_loss.cpp), which training takes on a CPU where it loads."""
    if request.param and not extension_loads():
        pytest.skip("the C++ extension does not load here")
    monkeypatch.setattr(objective, "fused_loss_runs", lambda h, dtype: request.param)
    return request.param


def tiny_model(**overrides) -> Transformer:
    torch.manual_seed(0)
    config = dict(vocab_size=30, d_model=16, n_heads=2, encoder_layers=1, decoder_layers=1, d_ff=32, dropout=0.0)
    return Transformer(TransformerConfig(**(config | overrides))).eval()


def loss_and_grads(model: Transformer, compute) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    model.zero_grad(set_to_none=True)
    value = compute()
    value.backward()
    return value.detach(), {name: p.grad.clone() for name, p in model.named_parameters() if p.grad is not None}


@pytest.mark.parametrize("bias", [False, True])
def test_blockwise_loss_has_the_reference_value_and_gradients(monkeypatch, bias):
    monkeypatch.setattr(OutputLoss, "ROWS", 3)  # 9 real target tokens: three blocks
    model = tiny_model(output_bias=bias)
    with torch.no_grad():  # a bias of zeros would not show a wrong gradient
        if bias:
            model.output.bias.normal_()
    reference, reference_grads = loss_and_grads(
        model, lambda: label_smoothed_nll(model(SRC, TGT_IN), TGT_OUT, 0.1, pad_id=0)[0])
    value, grads = loss_and_grads(model, lambda: TranslationLoss(model, 0.1)(SRC, TGT_IN, TGT_OUT))
    torch.testing.assert_close(value, reference)
    assert grads.keys() == reference_grads.keys()
    for name, grad in grads.items():
        torch.testing.assert_close(grad, reference_grads[name], msg=name)


def test_without_gradients_it_computes_the_loss_alone():
    model = tiny_model()
    reference, _ = label_smoothed_nll(model(SRC, TGT_IN), TGT_OUT, 0.1, pad_id=0)
    with torch.no_grad():
        value = TranslationLoss(model, 0.1)(SRC, TGT_IN, TGT_OUT)
    torch.testing.assert_close(value, reference)
    assert value.grad_fn is None


def test_under_bf16_autocast_it_matches_the_readable_loss_in_bf16():
    model = tiny_model()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        reference, reference_grads = loss_and_grads(
            model, lambda: label_smoothed_nll(model(SRC, TGT_IN), TGT_OUT, 0.1, pad_id=0)[0])
        value, grads = loss_and_grads(model, lambda: TranslationLoss(model, 0.1)(SRC, TGT_IN, TGT_OUT))
    assert value.dtype == torch.float32
    assert abs(value - reference) < 0.01 * reference  # both round the same bf16 logits
    for name, grad in grads.items():
        assert grad.dtype == torch.float32, name  # the master weights' gradients stay float32
        if name.endswith("k_proj.bias"):
            # Zero in exact arithmetic (softmax ignores a shift shared by every key): both sides
            # hold rounding noise only, which bf16 makes differ; it stays small next to the rest.
            assert grad.norm() < 0.01 * grads[name.replace("k_proj.bias", "k_proj.weight")].norm(), name
            continue
        relative = (grad - reference_grads[name]).norm() / reference_grads[name].norm()
        assert relative < 0.05, name  # bf16 keeps 8 bits of mantissa: each rounding is < 0.4%


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_scratch_is_kept_between_steps_and_leaves_nothing_stale(monkeypatch, precision):
    """The workspace's buffers serve the next, smaller batch in the same memory, with the same
    results as a loss that starts with nothing kept."""
    monkeypatch.setattr(OutputLoss, "ROWS", 4)
    model = tiny_model()
    kept = TranslationLoss(model, 0.1)
    autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16")
    with autocast:
        loss_and_grads(model, lambda: kept(SRC, TGT_IN, TGT_OUT))
        places = {name: buffer.data_ptr() for name, buffer in kept.workspace.buffers.items()}
        for rows in (slice(1, 3), slice(0, 1), slice(0, 3)):
            batch = SRC[rows], TGT_IN[rows], TGT_OUT[rows]
            value, grads = loss_and_grads(model, lambda batch=batch: kept(*batch))
            fresh, fresh_grads = loss_and_grads(model, lambda batch=batch: TranslationLoss(model, 0.1)(*batch))
            assert torch.equal(value, fresh)
            for name, grad in grads.items():
                assert torch.equal(grad, fresh_grads[name]), name
    assert places and {name: b.data_ptr() for name, b in kept.workspace.buffers.items()} == places


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("bias", [False, True])
def test_fused_rows_equal_the_readable_block(loss_path, dtype, bias):
    """The C++ rows against OutputLoss.block's PyTorch ops on the same logits: the losses, and the
    gradient rounded once to bfloat16 (or kept in float32), in place or into another tensor."""
    if not loss_path:
        pytest.skip("compares the two paths once")
    torch.manual_seed(5)
    n, vocab = 37, 1001  # rows and a vocabulary that fill no lane block evenly
    logits = (torch.randn(n, vocab) * 4).to(dtype)
    target = torch.randint(0, vocab, (n,))
    target[0] = vocab - 1
    b = torch.randn(vocab) if bias else None
    readable = logits.float() + (0 if b is None else b)
    loss = OutputLoss.block(readable, target, readable.mean(1), 0.1, True)
    gradient = torch.empty(n, vocab, dtype=dtype)
    rows = torch.ops.attnmt.smoothed_loss_rows(logits, b, target, 0.1, gradient)
    torch.testing.assert_close(rows.sum(), loss, rtol=1e-5, atol=0)
    if dtype == torch.bfloat16:  # a float32 difference of an ulp or two can round the other way
        assert ((gradient.float() - readable.to(dtype).float()).abs() > 1e-2).sum() == 0
        assert (gradient != readable.to(dtype)).float().mean() < 0.01
    else:
        torch.testing.assert_close(gradient, readable, rtol=1e-5, atol=1e-7)
    in_place = logits.float() + (0 if b is None else b)
    torch.ops.attnmt.smoothed_loss_rows(in_place, None, target, 0.1, in_place)
    torch.testing.assert_close(in_place, readable, rtol=1e-5, atol=1e-7)
    alone = torch.ops.attnmt.smoothed_loss_rows(logits, b, target, 0.1, None)
    assert torch.equal(alone, rows)
    with pytest.raises(RuntimeError, match="target out of range"):
        torch.ops.attnmt.smoothed_loss_rows(logits, b, target + vocab, 0.1, None)
