"""The teacher-forced pass that quality estimation reads (attnmt.decoding.forced)."""

import pytest
import torch
from torch.profiler import ProfilerActivity, profile

from attnmt.decoding.forced import chosen_log_probs, forced_passes


def test_the_chosen_log_probs_are_the_logits_less_their_logsumexp_to_the_bit():
    torch.manual_seed(0)
    logits = torch.randn(5, 300) * 4
    logits[:, [0, 7]] = float("-inf")  # pad and BOS, outside the distribution (next_tokens.without_outside)
    logits[4] = float("-inf")  # a row of -inf: logsumexp's -inf, not NaN
    chosen = torch.tensor([3, 299, 150, 7, 5])
    expected = logits.gather(1, chosen[:, None]).squeeze(1) - logits.logsumexp(dim=-1)
    found = chosen_log_probs(logits.clone(), chosen)
    assert torch.equal(found[:3], expected[:3]) and found[3] == float("-inf")
    assert found[4].isnan() and expected[4].isnan()  # -inf less -inf, either way
    assert found[:3].exp().tolist() == pytest.approx(logits[:3].softmax(dim=-1).gather(1, chosen[:3, None])
                                                     .squeeze(1).tolist(), rel=1e-5)


def test_the_forced_pass_writes_the_whole_vocabularys_logits_once(model_and_tokenizer):
    """The output layer's [N, V] is the largest tensor of the pass (58101 pieces: 0.2 GiB for 1,000 positions);
    logsumexp wrote a second one, its exponent, where the logits themselves are free to overwrite."""
    model, tokenizer = model_and_tokenizer
    targets = [tokenizer.encode_target("ein hund rennt")] * 4
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiled:
        [(_, forced), *_] = forced_passes(model, [tokenizer.encode("a dog runs")] * 4, targets)
    logits_bytes = sum(len(t) + 1 for t in targets) * model.config.vocab_size * 4  # [N, V] float32
    written = {event.name for event in profiled.events() if event.cpu_memory_usage == logits_bytes}
    assert written and written <= {"aten::linear", "aten::matmul", "aten::mm", "aten::addmm"}  # the output layer's
    assert forced.log_probs == pytest.approx([0.0] * (len(targets[0]) + 1), abs=0.05)  # the model knows the pair
