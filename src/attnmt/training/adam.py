"""Adam (Kingma & Ba, "Adam: A Method for Stochastic Optimization", 2015) as attnmt trains with it.

For each parameter θ with gradient g, at step t (from 1), with moments m and v (from 0)::

    m ← β1·m + (1 - β1)·g
    v ← β2·v + (1 - β2)·g²
    θ ← θ - lr · (m / (1 - β1^t)) / (√(v / (1 - β2^t)) + ε)

The update is PyTorch's fused kernel, the one ``torch.optim.Adam(fused=True)`` calls (one pass over
each parameter instead of one per operation), so the weights equal torch.optim's bit for bit, and the
state (``state_dict``) is in torch.optim's format, so checkpoints load either way.  torch.optim itself
is not used: its Optimizer imports torch._dynamo, and SymPy with it, on its first use, 1.4-2 s of
every training process's start-up, for a compiler attnmt does not call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import torch

# What torch.optim.Adam(fused=True) records of its settings beside lr, betas and eps: Adam without
# weight decay, AMSGrad or maximising.  Saved with the state so that torch.optim can load it.
TORCH_GROUP = {"weight_decay": 0, "amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
               "differentiable": False, "fused": True, "decoupled_weight_decay": False}
MOMENTS = ("exp_avg", "exp_avg_sq")  # m and v, by torch.optim's names


@dataclass
class Moments:
    """One parameter's state: its step count t (a float32 scalar on its device, as the fused kernel
    reads it) and its moments m and v (its shape, dtype and device)."""

    step: torch.Tensor
    exp_avg: torch.Tensor
    exp_avg_sq: torch.Tensor

    @classmethod
    def zeros_like(cls, param: torch.Tensor) -> Moments:
        return cls(torch.zeros((), dtype=torch.float32, device=param.device),
                   torch.zeros_like(param, memory_format=torch.preserve_format),
                   torch.zeros_like(param, memory_format=torch.preserve_format))


class Adam:
    """Adam over ``params`` with ``betas`` (β1, β2) and ``eps`` (ε); the trainer sets ``lr`` before each step."""

    def __init__(self, params: Iterable[torch.nn.Parameter], betas: tuple[float, float], eps: float) -> None:
        self.params = list(params)
        self.betas = betas
        self.eps = eps
        self.lr = 0.0
        # None until the parameter's first gradient: one that never gets one holds no state (as torch.optim)
        self.moments: list[Moments | None] = [None] * len(self.params)

    @torch.no_grad()
    def step(self) -> None:
        """One update of every parameter that has a gradient (one that has none is left as it is)."""
        stepped: dict[tuple[torch.device, torch.dtype], list[tuple[torch.Tensor, torch.Tensor, Moments]]] = (
            defaultdict(list))
        for i, param in enumerate(self.params):
            if param.grad is None:
                continue
            moments = self.moments[i]
            if moments is None:
                moments = self.moments[i] = Moments.zeros_like(param)
            stepped[param.device, param.dtype].append((param, param.grad, moments))
        for same_kind in stepped.values():  # the kernel takes tensors of one device and dtype
            params, grads, states = zip(*same_kind, strict=True)
            steps = [m.step for m in states]
            torch._foreach_add_(steps, 1)  # t, which the update reads
            torch._fused_adam_(list(params), list(grads), [m.exp_avg for m in states],
                               [m.exp_avg_sq for m in states], [], steps,
                               lr=self.lr, beta1=self.betas[0], beta2=self.betas[1], weight_decay=0.0,
                               eps=self.eps, amsgrad=False, maximize=False, grad_scale=None, found_inf=None)

    def zero_grad(self) -> None:
        """Forgets every gradient (sets it to None, as torch.optim's ``zero_grad()``): the next backward
        writes new ones instead of adding to them."""
        for param in self.params:
            param.grad = None

    def state_dict(self) -> dict:
        """The state in torch.optim.Adam's format: the moments by parameter index (only those that have
        them), and one parameter group with the settings.  The tensors are the optimizer's own, not copies."""
        state = {i: {"step": m.step, "exp_avg": m.exp_avg, "exp_avg_sq": m.exp_avg_sq}
                 for i, m in enumerate(self.moments) if m is not None}
        group = {"lr": self.lr, "betas": self.betas, "eps": self.eps, **TORCH_GROUP,
                 "params": list(range(len(self.params)))}
        return {"state": state, "param_groups": [group]}

    def load_state_dict(self, state_dict: object) -> None:
        """Takes the moments of a ``state_dict`` (this class's or torch.optim.Adam's, of the same parameters),
        moved to each parameter's device and dtype (``step`` to float32), without a copy where they are there
        already.  The settings stay this optimizer's (the run's config, which a resume may override).
        ValueError, one line starting "optimizer state: ", for one that is malformed or of other parameters;
        nothing is changed then."""
        self.moments = read_moments(state_dict, self.params)


def read_moments(state_dict: object, params: list[torch.nn.Parameter]) -> list[Moments | None]:
    """Each parameter's Moments in a torch.optim state_dict (None: it has none); see Adam.load_state_dict."""
    if not isinstance(state_dict, dict) or not {"state", "param_groups"} <= state_dict.keys():
        raise ValueError(f"optimizer state: expected a dict of 'state' and 'param_groups', got {shape_of(state_dict)}")
    if not isinstance(state_dict["state"], dict):
        raise ValueError(f"optimizer state: 'state' should map parameters to their moments, got "
                         f"{shape_of(state_dict['state'])}")
    groups = state_dict["param_groups"]
    if not isinstance(groups, list) or len(groups) != 1 or not isinstance(groups[0], dict) or not isinstance(
            groups[0].get("params"), list):
        raise ValueError(f"optimizer state: expected one parameter group of 'params', got {shape_of(groups)}")
    indices = groups[0]["params"]
    if len(indices) != len(params):
        raise ValueError(f"optimizer state: of {len(indices)} parameters, but the model has {len(params)}")
    position = {index: i for i, index in enumerate(indices) if isinstance(index, int)}
    moments: list[Moments | None] = [None] * len(params)
    for index, saved in state_dict["state"].items():
        if index not in position:
            raise ValueError(f"optimizer state: holds moments of parameter {index!r}, which its group does not list")
        moments[position[index]] = saved_moments(saved, params[position[index]], index)
    return moments


def saved_moments(saved: object, param: torch.nn.Parameter, index: int) -> Moments:
    """One parameter's saved state as Moments on its device, as torch.optim loads it: a ``step`` saved as
    a number (torch.optim's first format) too."""
    where = f"optimizer state: parameter {index}"
    if not isinstance(saved, dict) or not {"step", *MOMENTS} <= saved.keys():
        raise ValueError(f"{where}: expected step, exp_avg and exp_avg_sq, got {shape_of(saved)}")
    for key in MOMENTS:
        value = saved[key]
        if not isinstance(value, torch.Tensor) or value.shape != param.shape:
            got = f"shape {list(value.shape)}" if isinstance(value, torch.Tensor) else type(value).__name__
            raise ValueError(f"{where}: {key} should be a tensor of shape {list(param.shape)}, got {got}")
    step = saved["step"]
    if isinstance(step, (int, float)) and not isinstance(step, bool):
        step = torch.tensor(float(step))
    if not isinstance(step, torch.Tensor) or step.numel() != 1:
        raise ValueError(f"{where}: step should be a number, got {shape_of(step)}")
    return Moments(step.reshape(()).to(dtype=torch.float32, device=param.device),
                   *(saved[key].to(dtype=param.dtype, device=param.device) for key in MOMENTS))


def shape_of(value: object) -> str:
    """A few words on what ``value`` is, for an error: its type, a dict's keys, a list's length."""
    if isinstance(value, dict):
        return f"a dict of {sorted(map(str, value))[:5]}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, torch.Tensor):
        return f"a tensor of shape {list(value.shape)}"
    return type(value).__name__
