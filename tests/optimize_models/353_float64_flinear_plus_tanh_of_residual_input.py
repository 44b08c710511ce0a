"""float64, the full-size operand is itself pointwise work on an input: F.linear(x, weight, bias)
with float64 (65, 47) weight and (65,) bias parameters, plus torch.tanh(r) where r is a float64
input of the GEMM output's full shape. Inputs x (53, 47) and r (53, 65) float64; output float64
(53, 65)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D_IN, D_OUT = 53, 47, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_out, d_in, dtype=torch.float64) / d_in ** 0.5)
        self.bias = nn.Parameter(torch.randn(d_out, dtype=torch.float64) * 0.1)

    def forward(self, x, r):
        return F.linear(x, self.weight, self.bias) + torch.tanh(r)


def get_inputs():
    return [torch.randn(N, D_IN, dtype=torch.float64), torch.randn(N, D_OUT, dtype=torch.float64) * 2.0]


def get_init_inputs():
    return [D_IN, D_OUT]
