"""Pointwise chain on a non-contiguous view made inside forward: x.t() and a strided
x[:, ::3] slice, with per-row broadcast; the output keeps the transposed layout."""

import torch
import torch.nn as nn

M, N = 129, 301


class Model(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.col = nn.Parameter(torch.randn(m))

    def forward(self, x):
        xt = x.t()                               # (N, M), strides (1, N)
        y = torch.sigmoid(xt * 2.0 + self.col) - 0.5
        s = x[::2, ::3]                          # (65, 101), strides (2N, 3)
        return y, torch.exp(-s * s) * s + 0.1 * s


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return [M]
