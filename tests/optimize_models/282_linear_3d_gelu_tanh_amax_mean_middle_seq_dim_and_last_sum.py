"""nn.Linear (48 -> 56, with bias) on a 3-D (4, 31, 48) input, GELU(approximate='tanh'), then
reductions over the MIDDLE (sequence) dim: y.amax(dim=1) and y.mean(dim=-2), each (4, 56),
returned as amax - mean; plus a last-dim row sum y.sum(-1) of the same tensor, (4, 31), for
contrast.
Input x: (4, 31, 48); outputs (4, 56) and (4, 31) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, D_IN, D_OUT = 4, 31, 48, 56


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.gelu(self.fc(x), approximate="tanh")
        a = y.amax(dim=1)
        m = y.mean(dim=-2)
        return a - m, y.sum(-1)


def get_inputs():
    return [torch.randn(B, S, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
