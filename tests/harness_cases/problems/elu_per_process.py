"""ELU whose get_inputs() gives the same draw for a seed within a process but another one in
another process (it mixes in the process id): reproducible where the judge checks, not in
the candidate worker."""
import os

import torch

from elu import Model, get_init_inputs  # noqa: F401


def get_inputs():
    x = torch.randn(16, 512)
    return [x + (os.getpid() % 97) * 1e-3]
