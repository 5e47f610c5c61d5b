"""Test-wide settings: one thread keeps small-tensor tests fast and reproducible on a shared 2-core machine."""

import torch

torch.set_num_threads(1)
