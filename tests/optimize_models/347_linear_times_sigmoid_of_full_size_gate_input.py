"""Gated unit whose gate is NOT a GEMM result: nn.Linear (48 -> 65, with bias) on x, multiplied by
torch.sigmoid(g) where g is an input of the GEMM output's full shape.
Inputs x (97, 48) and g (97, 65); output (97, 65)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 97, 48, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x, g):
        return self.fc(x) * torch.sigmoid(g)


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(N, D_OUT) * 2.0]


def get_init_inputs():
    return [D_IN, D_OUT]
