"""Empty batch: nn.Linear (47 -> 65) on a (0, 47) input, silu, the activation returned with its row
sum (dim=-1) * 0.1 and row amax(dim=-1) over the non-empty feature dim. Outputs (0, 65), (0,), (0,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D_IN, D_OUT = 0, 47, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x):
        h = F.silu(self.fc(x))
        return h, h.sum(dim=-1) * 0.1, h.amax(dim=-1)


def get_inputs():
    return [torch.randn(N, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
