"""Model directories: one written by an earlier release keeps loading, with the same numbers."""

import json
from pathlib import Path

import torch

from attnmt import load_model_dir

RELEASE_0_1_0 = Path(__file__).parent / "fixtures" / "model_0.1.0"


def test_a_model_directory_written_by_release_0_1_0_loads_and_computes_the_same_logits():
    # Written by attnmt 0.1.0 before the package was reorganised (a random tiny model);
    # expected.json holds the logits that release computed for one sentence pair.
    model, tokenizer = load_model_dir(RELEASE_0_1_0)
    expected = json.loads((RELEASE_0_1_0 / "expected.json").read_text())
    assert tokenizer.encode("a dog runs") == expected["src"][0]
    with torch.inference_mode():
        logits = model(torch.tensor(expected["src"]), torch.tensor(expected["tgt_in"]))
    torch.testing.assert_close(logits[0], torch.tensor(expected["logits"]), atol=1e-4, rtol=1e-4)
