"""Per-row (N,1) and per-column (M,) broadcast operands mixed with both GELU flavours
(exact erf and tanh approximation)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, M = 129, 257


class Model(nn.Module):
    def __init__(self, rows, cols):
        super().__init__()
        self.col_bias = nn.Parameter(torch.randn(cols))
        self.row_scale = nn.Parameter(torch.randn(rows, 1))

    def forward(self, x):
        a = F.gelu(x + self.col_bias)
        b = F.gelu(x * self.row_scale, approximate="tanh")
        return a - 0.5 * b


def get_inputs():
    return [torch.randn(N, M)]


def get_init_inputs():
    return [N, M]
