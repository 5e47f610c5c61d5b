"""attnmt's Adam: torch.optim.Adam(fused=True)'s updates bit for bit and its state_dict format both ways,
without torch.optim, whose Optimizer imports torch._dynamo (and SymPy), 1.4-2 s, in every training process."""

import copy
import json
import subprocess
import sys

import pytest
import torch
from support import tiny_config

from attnmt.training.adam import Adam

BETAS, EPS = (0.9, 0.98), 1e-9
LEARNING_RATES = [1e-3, 2e-3, 5e-4, 0.0, 1e-2, 3e-3]  # a rate per step, as the schedule sets it


class Tiny(torch.nn.Module):
    """Parameters of the kinds a Transformer has, and one that takes no part in the loss (no gradient)."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = torch.nn.Embedding(11, 6)
        self.linear = torch.nn.Linear(6, 11)
        self.unused = torch.nn.Parameter(torch.randn(4))

    def loss(self, step: int) -> torch.Tensor:
        generator = torch.Generator().manual_seed(step)
        tokens = torch.randint(0, 11, (5, 3), generator=generator).to(self.unused.device)
        return torch.nn.functional.cross_entropy(self.linear(self.embedding(tokens)).flatten(0, 1), tokens.flatten())


def tiny_pair(device: str = "cpu") -> tuple[Tiny, Tiny]:
    torch.manual_seed(0)
    model = Tiny().to(device)
    return model, copy.deepcopy(model)


def torch_adam(model: Tiny) -> torch.optim.Adam:
    return torch.optim.Adam(model.parameters(), lr=0.0, betas=BETAS, eps=EPS, fused=True)


def train(model: Tiny, optimizer, steps: range) -> None:
    """``steps`` updates, the learning rate set before each as the Trainer sets it."""
    for step in steps:
        model.loss(step).backward()
        lr = LEARNING_RATES[step % len(LEARNING_RATES)]
        if isinstance(optimizer, Adam):
            optimizer.lr = lr
        else:
            optimizer.param_groups[0]["lr"] = lr
        optimizer.step()
        optimizer.zero_grad()  # torch's sets the gradients to None as well


def assert_identical(ours: Tiny, theirs: Tiny) -> None:
    for (name, mine), other in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        assert torch.equal(mine, other), name


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not torch.cuda.is_available(), reason="no CUDA device"))])
def test_parameters_after_steps_equal_torch_fused_adam_bit_for_bit(device):
    ours, theirs = tiny_pair(device)
    before = ours.unused.detach().clone()
    train(ours, Adam(ours.parameters(), BETAS, EPS), range(12))
    train(theirs, torch_adam(theirs), range(12))
    assert_identical(ours, theirs)
    assert torch.equal(ours.unused, before)  # no gradient: never stepped, as torch skips it


def test_the_state_dict_is_torch_optims_format():
    ours, theirs = tiny_pair()
    mine, other = Adam(ours.parameters(), BETAS, EPS), torch_adam(theirs)
    train(ours, mine, range(3))
    train(theirs, other, range(3))
    saved, expected = mine.state_dict(), other.state_dict()
    assert saved["param_groups"] == expected["param_groups"]
    assert saved["state"].keys() == expected["state"].keys() == {1, 2, 3}  # not 0, the unused one
    for index, state in expected["state"].items():
        assert saved["state"][index].keys() == state.keys()
        for key, value in state.items():
            assert saved["state"][index][key].dtype == value.dtype and torch.equal(saved["state"][index][key], value)


def test_torch_adams_state_loaded_into_ours_continues_as_torch_does():
    ours, theirs = tiny_pair()
    other = torch_adam(theirs)
    train(theirs, other, range(4))
    ours.load_state_dict(theirs.state_dict())
    mine = Adam(ours.parameters(), BETAS, EPS)
    mine.load_state_dict(copy.deepcopy(other.state_dict()))  # a checkpoint's copy, not torch's live tensors
    train(ours, mine, range(4, 9))
    train(theirs, other, range(4, 9))
    assert_identical(ours, theirs)


def test_our_state_loaded_into_torchs_adam_continues_as_ours_does():
    ours, theirs = tiny_pair()
    mine = Adam(ours.parameters(), BETAS, EPS)
    train(ours, mine, range(4))
    theirs.load_state_dict(ours.state_dict())
    other = torch_adam(theirs)
    other.load_state_dict(copy.deepcopy(mine.state_dict()))
    train(ours, mine, range(4, 9))
    train(theirs, other, range(4, 9))
    assert_identical(ours, theirs)


def test_a_step_saved_as_a_number_loads_as_torch_loads_it():
    """torch.optim's first checkpoints held ``step`` as a number; torch reads it as a float32 tensor."""
    ours, theirs = tiny_pair()
    other = torch_adam(theirs)
    train(theirs, other, range(3))
    saved = copy.deepcopy(other.state_dict())
    for state in saved["state"].values():
        state["step"] = int(state["step"])
    ours.load_state_dict(theirs.state_dict())
    mine = Adam(ours.parameters(), BETAS, EPS)
    mine.load_state_dict(saved)
    train(ours, mine, range(3, 6))
    train(theirs, other, range(3, 6))
    assert_identical(ours, theirs)


def broken(state: dict, how: str) -> object:
    group = state["param_groups"][0]
    return {
        "not a dict": 5,
        "no param_groups": {"state": state["state"]},
        "two groups": {**state, "param_groups": [group, group]},
        "a parameter fewer": {**state, "param_groups": [{**group, "params": group["params"][:-1]}]},
        "a moment of another shape": {**state, "state": {**state["state"], 1: {**state["state"][1],
                                                                                  "exp_avg": torch.zeros(3)}}},
        "a moment missing": {**state, "state": {**state["state"], 1: {"step": state["state"][1]["step"]}}},
        "state of no parameter": {**state, "state": {**state["state"], 7: state["state"][1]}},
        "state a list": {**state, "state": [1]},
    }[how]


@pytest.mark.parametrize("how", ["not a dict", "no param_groups", "two groups", "a parameter fewer",
                                 "a moment of another shape", "a moment missing", "state of no parameter",
                                 "state a list"])
def test_a_malformed_state_is_refused_in_one_line_before_anything_changes(how):
    """torch.optim's was a traceback (KeyError, AttributeError), and a moment of another shape killed the
    process at its first step."""
    ours, _ = tiny_pair()
    mine = Adam(ours.parameters(), BETAS, EPS)
    train(ours, mine, range(2))
    kept = copy.deepcopy(mine.state_dict())
    with pytest.raises(ValueError, match=r"^optimizer state: [^\n]+$"):
        mine.load_state_dict(broken(copy.deepcopy(kept), how))
    assert all(torch.equal(mine.state_dict()["state"][i][key], value)
               for i, state in kept["state"].items() for key, value in state.items())


def test_training_and_resuming_never_import_the_compiler(tmp_path):
    """torch.optim's Optimizer imports torch._dynamo, and SymPy with it, on its first use (1.4-2 s of each
    run's start-up on a 2-core EPYC); nothing else a run does needs it."""
    config = tiny_config(tmp_path, max_steps=2, eval_every=2, eval_metric="loss", max_tokens=60, clip_norm=1.0,
                         model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64))
    path = tmp_path / "config.yaml"
    path.write_text(json.dumps(config.to_dict()))
    code = ("import sys; from attnmt.cli.main import main; "
            "assert main(['train', sys.argv[1]]) == 0; "
            "assert main(['train', '--resume', sys.argv[2], '--max-steps', '3']) == 0; "
            "print(sorted(m for m in sys.modules if m.startswith(('torch._dynamo', 'sympy'))))")
    done = subprocess.run([sys.executable, "-c", code, str(path), config.out_dir], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
