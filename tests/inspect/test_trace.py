"""One translation's attention (attnmt.inspect.trace) as the server sends it: JSON text."""

import json

import torch

from attnmt.inspect.trace import KINDS, TranslationAttention


def test_to_json_holds_what_to_dict_holds_its_weights_rounded_to_three_places():
    torch.manual_seed(0)
    pieces = ["▁Ein", '▁"Mann"', "</s>"]
    trace = TranslationAttention(
        sentence='A "man"', translation='Ein "Mann"', source=["▁A", '▁"man"', "</s>"], target_in=["<s>", *pieces[:2]],
        target_out=pieces, encoder=torch.rand(2, 3, 3, 3).softmax(-1), decoder_self=torch.rand(2, 3, 3, 3).softmax(-1),
        cross=torch.rand(2, 3, 3, 3).softmax(-1))
    sent, plain = json.loads(trace.to_json()), trace.to_dict()
    for kind in KINDS:
        weights, rounded = (torch.tensor(d["kinds"][kind].pop("weights"), dtype=torch.float64) for d in (sent, plain))
        assert torch.allclose(weights, trace.weights(kind).double(), atol=0.0005 + 1e-9)
        assert torch.allclose(weights, rounded, atol=1e-9)
    assert sent == plain
