"""Dynamic beam allocation (attnmt.decoding.banks): the beam shared among the banks."""

import torch

from attnmt.decoding.banks import allocate


def test_allocation_takes_each_banks_best_from_the_highest_bank_down_then_the_second_bests():
    log_prob = torch.tensor([[-1.0, -2.0, -3.0, -4.0, float("-inf")]])
    bank = torch.tensor([[0, 1, 0, 1, 2]])
    assert allocate(log_prob, bank).tolist() == [[1, 0, 3, 2, 4]]
