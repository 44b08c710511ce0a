"""nn.Linear (200 -> 333, with bias) on a single-row (1, 200) batch, tanh(1.5 * z), then
y.max(dim=-1).values and torch.min(y, dim=1)[0] over the 333 output features (two different
reductions of the same activation), and their midpoint (mx + mn) * 0.5.
Input x: (1, 200); outputs (1,), (1,), (1,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 1, 200, 333


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.tanh(1.5 * self.fc(x))
        mx = y.max(dim=-1).values
        mn = torch.min(y, dim=1)[0]
        return mx, mn, (mx + mn) * 0.5


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
