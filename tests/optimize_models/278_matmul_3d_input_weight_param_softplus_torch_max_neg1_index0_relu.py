"""torch.matmul of a 3-D (5, 7, 64) input with a (64, 100) weight parameter plus a (100,) bias,
softplus, torch.max(y, dim=-1)[0] over the 100 output features giving (5, 7), then
relu(m - 2.8) on the reduced values (about half of them are cut to 0).
Input x: (5, 7, 64); output (5, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, D_IN, D_OUT = 5, 7, 64, 100


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.15)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        m = torch.max(F.softplus(z), dim=-1)[0]
        return F.relu(m - 2.8)


def get_inputs():
    return [torch.randn(B, S, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
