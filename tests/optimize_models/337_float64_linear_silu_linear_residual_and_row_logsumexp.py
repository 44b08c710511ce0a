"""float64 MLP: nn.Linear layers built with dtype=torch.float64 (47 -> 129 -> 47) on a float64
(33, 47) input, silu in between, residual add of x, and the row logsumexp(dim=-1) of the result.
Two float64 outputs (33, 47) and (33,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, HID = 33, 47, 129


class Model(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden, dtype=torch.float64)
        self.fc2 = nn.Linear(hidden, d, dtype=torch.float64)

    def forward(self, x):
        y = x + self.fc2(F.silu(self.fc1(x)))
        return y, torch.logsumexp(y, dim=-1)


def get_inputs():
    return [torch.randn(N, D, dtype=torch.float64)]


def get_init_inputs():
    return [D, HID]
