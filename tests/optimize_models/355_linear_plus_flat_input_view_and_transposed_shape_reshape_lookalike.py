"""Look-alike, operands with the GEMM output's number of elements but another shape: nn.Linear
(33 -> 67, with bias) giving (45, 67), plus a.view(45, 67) of a flat (3015,) input, minus
0.5 * b.reshape(45, 67) of a (67, 45) input (a row-major reinterpretation, NOT b.t()).
Inputs x (45, 33), a (3015,), b (67, 45); output (45, 67)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 45, 33, 67


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x, a, b):
        y = self.fc(x)
        return y + a.view(y.shape[0], y.shape[1]) - 0.5 * b.reshape(y.shape[0], y.shape[1])


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(N * D_OUT), torch.randn(D_OUT, N)]


def get_init_inputs():
    return [D_IN, D_OUT]
