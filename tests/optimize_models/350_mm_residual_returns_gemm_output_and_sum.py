"""Residual whose GEMM result is also an output: y = torch.mm(h, weight) with a (65, 129) weight
parameter (no bias), returned on its own beside x + y with x an input of the GEMM output's full
shape. Inputs h (45, 65) and x (45, 129); two outputs (45, 129): y and x + y."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 45, 65, 129


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)

    def forward(self, h, x):
        y = torch.mm(h, self.weight)
        return y, x + y


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(N, D_OUT)]


def get_init_inputs():
    return [D_IN, D_OUT]
