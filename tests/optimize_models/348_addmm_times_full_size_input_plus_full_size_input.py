"""Two full-size operands in one epilogue chain: torch.addmm(bias, x, weight) with a (37, 47)
weight parameter and (47,) bias, then y * a + b where a and b are both inputs of the GEMM
output's full shape. Inputs x (129, 37), a (129, 47), b (129, 47); output (129, 47)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 129, 37, 47


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)
        self.bias = nn.Parameter(torch.randn(d_out) * 0.1)

    def forward(self, x, a, b):
        y = torch.addmm(self.bias, x, self.weight)
        return y * a + b


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(N, D_OUT), torch.randn(N, D_OUT)]


def get_init_inputs():
    return [D_IN, D_OUT]
