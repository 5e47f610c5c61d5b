"""On a GPU, translation equals the CPU's: the fast copy and the readable model, greedy and beam,
with the cross-attention the search records.  Skipped where PyTorch sees no CUDA device (CI)."""

import pytest
import torch
from support import KNOWN

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.fast import prepare
from attnmt.inspect.align import translate_with_weights

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
SENTENCES = [*KNOWN, "a dog sleeps", "zebra quantum xylophone", "x"]


@pytest.mark.parametrize("beam", [1, 4])
def test_translations_on_the_gpu_equal_the_cpus(trained_model, beam):
    model, tokenizer = load_model_dir(trained_model)
    decoding = Decoding(beam_size=beam)
    on_cpu = translate(prepare(model), tokenizer, SENTENCES, decoding)
    gpu_model = model.to("cuda")
    assert translate(prepare(gpu_model), tokenizer, SENTENCES, decoding) == on_cpu
    assert translate(gpu_model, tokenizer, SENTENCES, decoding) == on_cpu  # the readable model


def test_recorded_attention_on_the_gpu_equals_the_cpus(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    weighed = [True] * len(SENTENCES)
    texts, weights = translate_with_weights(prepare(model), tokenizer, SENTENCES, weighed)
    gpu_texts, gpu_weights = translate_with_weights(prepare(model.to("cuda")), tokenizer, SENTENCES, weighed)
    assert gpu_texts == texts
    for cpu, gpu in zip(weights, gpu_weights, strict=True):
        assert (cpu is None) == (gpu is None)
        if cpu is not None:
            torch.testing.assert_close(gpu.cpu(), cpu, atol=1e-4, rtol=1e-3)
