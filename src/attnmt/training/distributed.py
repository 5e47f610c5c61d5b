"""Distributed data parallel: what a training process needs to know about its group.

Started by ``torchrun``, a process finds RANK, WORLD_SIZE and LOCAL_RANK in its
environment; started plainly it is a group of one and none of this costs anything.
NCCL carries gradients between GPUs, gloo between CPU processes.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass

import torch
import torch.distributed as dist

from attnmt.errors import ConfigError
from attnmt.hardware import check_device


@dataclass
class Group:
    """This process's place in the training group."""

    rank: int = 0
    world_size: int = 1
    device: torch.device = torch.device("cpu")

    @property
    def is_main(self) -> bool:
        """Rank 0 alone writes checkpoints, logs and the progress bar."""
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world_size > 1

    def any(self, flag: bool) -> bool:
        """True on every rank if ``flag`` is True on any rank (so all ranks stop together)."""
        if not self.distributed:
            return flag
        value = torch.tensor([1.0 if flag else 0.0], device=self.device)
        dist.all_reduce(value, op=dist.ReduceOp.MAX)
        return bool(value.item())

    def sum(self, number: float) -> float:
        """The sum of ``number`` over all ranks."""
        if not self.distributed:
            return number
        value = torch.tensor([float(number)], dtype=torch.float64, device=self.device)
        dist.all_reduce(value)
        return float(value.item())

    def broadcast(self, *numbers: float) -> tuple[float, ...]:
        """Rank 0's ``numbers`` on every rank."""
        if not self.distributed:
            return numbers
        values = torch.tensor(numbers, dtype=torch.float64, device=self.device)
        dist.broadcast(values, src=0)
        return tuple(values.tolist())

    def gather_rng(self) -> list[torch.Tensor]:
        """Every rank's CPU random state, in rank order (for an exact resume of dropout)."""
        state = torch.get_rng_state()
        if not self.distributed:
            return [state]
        states: list[torch.Tensor] = [torch.empty_like(state) for _ in range(self.world_size)]
        dist.all_gather_object(states, state)
        return states


def pick_device(name: str, local_rank: int, world_size: int = 1) -> torch.device:
    """The device this process trains on: ``cuda`` is the GPU of its local rank, ``cuda:N`` GPU N
    (one process: under torchrun each process takes its own GPU)."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    check_device(name, "device")
    if name.startswith("cuda:") and world_size > 1:
        raise ConfigError(f"device={name!r}: under torchrun each process takes the GPU of its local rank; "
                          "use device: cuda (CUDA_VISIBLE_DEVICES picks the GPUs)")
    if name == "cuda":
        return torch.device("cuda", local_rank)
    return torch.device(name)


def setup(device: str = "auto") -> Group:
    """Joins the torchrun group if there is one (idempotent); returns this process's place in it."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    target = pick_device(device, local_rank, world_size)
    if world_size == 1:
        return Group(device=target)
    if target.type == "cuda":
        torch.cuda.set_device(target)
    if not dist.is_initialized():
        dist.init_process_group(backend="nccl" if target.type == "cuda" else "gloo")
    return Group(dist.get_rank(), dist.get_world_size(), target)


def teardown(finished: bool = True) -> None:
    """Leaves the torchrun group, if this process joined one (a no-op otherwise).

    After a finished run the ranks first free what still holds the group (DDP's
    reducer, in reference cycles) and wait for each other; after an error they
    leave at once, since the others may never arrive.
    """
    if dist.is_initialized():
        if finished:
            gc.collect()
            dist.barrier()
        dist.destroy_process_group()
