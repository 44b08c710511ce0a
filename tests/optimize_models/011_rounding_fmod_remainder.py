"""Rounding and modular pointwise ops with Python constants: floor, ceil, round, trunc,
frac, fmod, remainder."""

import torch
import torch.nn as nn

B, D = 53, 199


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x * 5.0
        a = torch.floor(y) + torch.ceil(y) - torch.round(y)
        b = torch.trunc(y) * 0.5 + torch.frac(y)
        c = torch.fmod(y, 1.5) + torch.remainder(y, 2.25)
        return a + b + c


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
