"""Sum over dims 0 and 2 of a (37, 129, 5) tensor (small innermost dim 5) written three ways:
torch.sum(x, dim=(2, 0)) (unsorted tuple), (x * w).sum(dim=(-1, -3), keepdim=True) (negative dims,
(129, 1) weight parameter) broadcast back against x, and x.abs().mean(dim=[0, 2]); epilogues
divide by the count, tanh, and subtract.
Input x: (37, 129, 5); outputs (129,), (37, 129, 5), (129,) as a tuple."""

import torch
import torch.nn as nn

A, R, C = 37, 129, 5


class Model(nn.Module):
    def __init__(self, rows):
        super().__init__()
        self.w = nn.Parameter(torch.randn(rows, 1))

    def forward(self, x):
        s = torch.sum(x, dim=(2, 0)) / (A * C)
        sk = (x * self.w).sum(dim=(-1, -3), keepdim=True)
        centred = torch.tanh(x - sk / (A * C))
        m = x.abs().mean(dim=[0, 2]) - s
        return s, centred, m


def get_inputs():
    return [torch.randn(A, R, C) + 0.3]


def get_init_inputs():
    return [R]
